"""Facts of the claims and discards that the table cannot see, and was not asking for (a probe):
杭州 三吃承包 (RESEARCH.md §3.4) and 贵州 冲锋鸡/责任鸡 (RESEARCH.md §3.9) were never paid at the table,
though both scorers take them.  The winner is asked now, as 上海's 承包 is: `三吃承包:<无|下家|对家|上家>`
at a win that shows three claimed melds, `首张幺鸡` and `幺鸡碰杠` in 贵州's settlement round.  The answers
are recorded, paid, and checked by the audit; the simulated players answer from what they saw."""

from __future__ import annotations

from dataclasses import replace

from drivers.table_ui import FIRST_YAOJI, NOT_DISCARDED, SAN_CHI, YAOJI_CLAIMED, Key, Phase, choice_text
from firmware.hand.questions import ask_first_yaoji, ask_san_chi, san_chi_due
from firmware.hand.win_check import judge_laid
from firmware.records.audit_declared import SAN_CHI as ASKED, _asked_at_win, _first_yaoji
from rulesets.hand import Hand, parse_meld
from rulesets.regions import get_region
from rulesets.rounds import RoundContext, SeatShown, judge_round
from rulesets.tiles import Tile, parse_tiles
from simulator.players.knowledge import TableView
from tests.asyncio_support import run
from tests.firmware.fake_ports import FakePorts
from tests.firmware.test_asked_facts import built_hand

THREE_CHOWS = ("123m", "456m", "789m")       # claimed from 上家 (side 3 of side 0)


def hangzhou_win(hand, melds=THREE_CHOWS, concealed="123p66p"):
    return hand.laid_hand(0, None, tuple(map(parse_meld, melds)), tuple(parse_tiles(concealed)), (),
                          Tile.parse("6p"), ())


def test_a_winner_fed_three_claims_names_the_feeder_who_pays_for_everyone():
    hand = built_hand(get_region("hangzhou").resolve(), {})
    laid, context = hangzhou_win(hand)
    plain = judge_laid(hand.ruleset, laid, context)
    assert plain.verdict.legal, plain.verdict.failures
    assert san_chi_due(hand, laid)
    ports = FakePorts(hand.ruleset, [(0, Key.RIGHT)] * 3 + [(0, Key.CONFIRM)])      # 无 → 下家 → 对家 → 上家
    side = run(ask_san_chi(ports, hand, laid, context), timeout=5)
    assert side == 3
    assert ports.screens.lines[0][0] == choice_text(SAN_CHI, "无")
    assert ports.screens.phases[-1] == f"{Phase.WIN_CHECK.value} {SAN_CHI}:上家"
    (event,) = ports.recorder.all("san_chi")
    assert (event["seat"], event["side"]) == (0, 3)
    fed = judge_laid(hand.ruleset, laid, replace(context, extra=context.extra + (("chengbao", 3),)))
    total = plain.settlement.payments[0]
    assert plain.settlement.payments == (total, -total // 3, -total // 3, -total // 3)
    assert fed.settlement.payments == (total, 0, 0, -total)          # the 承包者 pays for everyone


def test_a_win_with_fewer_than_three_claimed_melds_or_elsewhere_asks_nothing():
    hand = built_hand(get_region("hangzhou").resolve(), {})
    laid, context = hangzhou_win(hand, ("123m", "456m"), "789m123p66p")
    assert not san_chi_due(hand, laid)
    assert run(ask_san_chi(FakePorts(hand.ruleset, []), hand, laid, context), timeout=5) is None
    concealed_kong, _ = hangzhou_win(hand, ("123m", "456m", "concealed:7777p"), "123p66p")
    assert not san_chi_due(hand, concealed_kong)            # an 暗杠 is no claim
    shanghai = built_hand(get_region("shanghai").resolve(), {})
    assert not san_chi_due(shanghai, laid)


def test_the_winner_tells_who_discarded_the_first_yaoji_and_who_claimed_it():
    hand = built_hand(get_region("guizhou").resolve(), {})
    # 首张幺鸡: 未打出 → 本家 → 下家; 幺鸡碰杠 (下家 left out): 无 → 本家 → 对家
    ports = FakePorts(hand.ruleset, [(0, Key.RIGHT), (0, Key.RIGHT), (0, Key.CONFIRM),
                                     (0, Key.RIGHT), (0, Key.RIGHT), (0, Key.CONFIRM)])
    assert run(ask_first_yaoji(ports, hand, 0), timeout=5) == (1, 2)
    shown = ports.screens.lines[0]
    assert choice_text(FIRST_YAOJI, NOT_DISCARDED) in shown and choice_text(YAOJI_CLAIMED, "无") in shown
    assert choice_text(YAOJI_CLAIMED, "下家") not in shown           # the discarder is not offered
    (event,) = ports.recorder.all("first_yaoji")
    assert (event["discarder"], event["claimer"], event["won_on"]) == (1, 2, False)


def test_a_first_yaoji_not_discarded_or_won_on_is_neither():
    hand = built_hand(get_region("guizhou").resolve(), {})
    nobody = FakePorts(hand.ruleset, [(0, Key.CONFIRM)])
    assert run(ask_first_yaoji(nobody, hand, 0), timeout=5) is None
    assert [e["discarder"] for e in nobody.recorder.all("first_yaoji")] == [None]
    # 本家; then 无 → 下家 → 对家 → 上家 → 被胡
    won_on = FakePorts(hand.ruleset, [(0, Key.RIGHT), (0, Key.CONFIRM)] + [(0, Key.RIGHT)] * 4 + [(0, Key.CONFIRM)])
    assert run(ask_first_yaoji(won_on, hand, 0), timeout=5) is None
    (event,) = won_on.recorder.all("first_yaoji")
    assert (event["discarder"], event["claimer"], event["won_on"]) == (0, None, True)
    elsewhere = built_hand(get_region("sichuan").resolve(), {})
    assert run(ask_first_yaoji(FakePorts(elsewhere.ruleset, []), elsewhere, 0), timeout=5) is None


NOT_READY_HAND = Hand(tuple(parse_tiles("2m5m8m3p6p9p4s7s9s1m4m7m2p")), ())


def round_of(first_yaoji, winner: int = 0):
    ruleset = get_region("guizhou").resolve()
    shown = tuple(SeatShown(side, NOT_READY_HAND) for side in ruleset.players if side != winner)
    context = RoundContext(0, tuple(ruleset.players), (winner,), shown, (Tile.parse("5m"),), (), (), first_yaoji)
    return judge_round(ruleset, context).settlement


def test_the_round_pays_chongfeng_to_a_collecting_discarder_and_zeren_to_the_claimer():
    assert round_of(None).payments == (0, 0, 0, 0)
    chongfeng = round_of((0, None))                 # the winner's own first 1条 went unclaimed: he collects
    assert [i.pinyin for i in chongfeng.items] == ["chongfeng ji"]
    assert chongfeng.payments == (9, -3, -3, -3)
    assert round_of((2, None)).payments == (0, 0, 0, 0)     # side 2 is not 有叫: it collects nothing
    zeren = round_of((2, 1))                        # side 1 碰'd side 2's first 1条: side 2 pays, whoever collects
    assert [i.pinyin for i in zeren.items] == ["zeren ji"]
    assert zeren.payments == (0, 3, -3, 0)


def test_the_settlement_round_asks_the_winner_and_pays_the_chongfeng_ji():
    """Seat 0 won; seat 1 (ready, two 1条) discarded the hand's first 1条 and nobody claimed it: 冲锋鸡,
    3 from each other side beside its 鸡 ×2; the answers and the round say it, and the audit agrees.
    The others are asked to lay their hands first: they lay them while the winner answers."""
    from firmware.hand.settlement import SettlementRound
    from tests.firmware.test_asked_facts import judge_win
    ruleset = get_region("guizhou").resolve()
    hand = built_hand(ruleset, {})
    judge_win(hand, 0, None, "123m456m789m123p55p", Tile.M5)
    ready = parse_tiles("11s234s567s789s12m")
    ports = FakePorts(ruleset, [(0, Key.RIGHT), (0, Key.RIGHT), (0, Key.CONFIRM), (0, Key.CONFIRM)]
                      + [(s, Key.CONFIRM) for s in (1, 2, 3) for _ in range(2)],
                      zones={1: [[], ready], 2: [[], []], 3: [[], []]})
    run(SettlementRound(ports).run(hand), timeout=5)
    (told,) = ports.recorder.all("first_yaoji")
    (event,) = ports.recorder.all("settlement")
    assert (told["discarder"], told["claimer"]) == (1, None) and event["first_yaoji"] == [1, None]
    assert [i["name"] for i in event["items"]] == ["鸡 ×2 (side 1)", "冲锋鸡 (side 1)"]
    assert event["payments"] == [-5, 15, -5, -5]
    assert _first_yaoji(ruleset, [{"event": "win", "seat": 0}, told, event]) == []


def test_a_winner_who_never_answers_holds_nothing_up():
    """Unanswered within the round's timeout (here: no key at all), neither is paid and the round goes on."""
    from firmware.hand.settlement import SettlementRound
    from tests.firmware.test_asked_facts import judge_win
    ruleset = get_region("guizhou").resolve()
    hand = built_hand(ruleset, {})
    judge_win(hand, 0, None, "123m456m789m123p55p", Tile.M5)
    ports = FakePorts(ruleset, [(s, Key.CONFIRM) for s in (1, 2, 3) for _ in range(2)],
                      zones={1: [[], []], 2: [[], []], 3: [[], []]})
    run(SettlementRound(ports).run(hand), timeout=5)
    (told,) = ports.recorder.all("first_yaoji")
    assert told["timed_out"] and told["discarder"] is None
    (event,) = ports.recorder.all("settlement")
    assert "first_yaoji" not in event and hand.facts.round_done
    assert _first_yaoji(ruleset, [{"event": "win", "seat": 0}, told, event]) == []


def test_a_house_that_plays_without_them_is_asked_nothing():
    """House options san_chi=off (杭州) and chongfeng_ji=off (贵州): no question, and an audit finds one
    asked there a problem."""
    hand = built_hand(get_region("hangzhou").resolve({"san_chi": "off"}), {})
    laid, context = hangzhou_win(hand)
    assert not san_chi_due(hand, laid)
    assert run(ask_san_chi(FakePorts(hand.ruleset, []), hand, laid, context), timeout=5) is None
    off = get_region("guizhou").resolve({"chongfeng_ji": "off"})
    quiet = built_hand(off, {})
    ports = FakePorts(off, [(0, Key.CONFIRM)])
    assert run(ask_first_yaoji(ports, quiet, 0), timeout=5) is None and ports.recorder.all("first_yaoji") == []
    told = {"event": "first_yaoji", "seat": 0, "discarder": None, "claimer": None, "won_on": False, "timed_out": False}
    assert "does not have it" in _first_yaoji(off, [told])[0]
    assert _first_yaoji(off, [{"event": "win", "seat": 0}, {"event": "settlement"}]) == []


def test_the_audit_checks_the_answers_against_what_was_paid():
    hangzhou = get_region("hangzhou").resolve()
    win = {"event": "win", "seat": 0, "from": None, "melds": list(THREE_CHOWS), "items": [],
           "context": {"extra": {"chengbao": 3}}}
    asked = {"event": "san_chi", "seat": 0, "side": 3}
    assert _asked_at_win(hangzhou, [asked, win], ASKED) == []
    assert "not preceded" in _asked_at_win(hangzhou, [win], ASKED)[0]
    assert "the answers give 1" in _asked_at_win(hangzhou, [{**asked, "side": 1}, win], ASKED)[0]
    two = {**win, "melds": ["123m", "456m"], "context": {"extra": {}}}
    assert _asked_at_win(hangzhou, [two], ASKED) == []              # not due: nothing to ask
    guizhou, sichuan = get_region("guizhou").resolve(), get_region("sichuan").resolve()
    told = {"event": "first_yaoji", "seat": 0, "discarder": 2, "claimer": 1, "won_on": False, "timed_out": False}
    paid = {"event": "settlement", "first_yaoji": [2, 1]}
    won = {"event": "win", "seat": 0}
    assert _first_yaoji(guizhou, [won, told, paid]) == []
    assert "not preceded" in _first_yaoji(guizhou, [won, {"event": "settlement"}])[0]
    assert _first_yaoji(guizhou, [won, {"event": "settlement"}], asks=False) == []     # an older recorder
    assert "the answers give [2, 1]" in _first_yaoji(guizhou, [won, told, {"event": "settlement"}])[0]
    assert "the answers give None" in _first_yaoji(guizhou, [won, {**told, "won_on": True}, paid])[0]
    assert "does not have it" in _first_yaoji(sichuan, [won, told])[0]


def test_the_players_answer_from_the_claims_and_discards_they_saw():
    view = TableView((0, 1, 2, 3), 0)
    for seat, kind in [(3, "5m"), (1, "1s"), (2, "1s"), (3, "2m"), (3, "3m"), (3, "4m")]:
        view.discard_log.append((seat, Tile.parse(kind)))
        if kind == "1s" and seat == 1:
            view.claimed(2, 1, "pung")              # side 2 碰'd side 1's first 1条
        elif kind in ("2m", "3m", "4m"):
            view.claimed(0, 3, "chow")              # side 0 吃'd side 3 three times
    assert view.first_yaoji() == (1, 2, False)
    assert view.fed_three(0) == 3 and view.fed_three(2) is None
    assert view.chengbao_side(3) == 0 and view.chengbao_side(1) is None
    assert TableView((0, 1, 2, 3), 0).first_yaoji() is None
    view.won_at.append(1)
    assert view.first_yaoji() == (1, 2, True)


def test_a_simulated_table_asks_pays_and_audits_them_sound():
    import io
    import json

    from firmware.records.audit import audit_events
    from firmware.simulated import run_simulated
    events = io.StringIO()
    run(run_simulated(get_region("guizhou").resolve(), hands=3, seed=1, speed=0.0, events=events), timeout=120)
    lines = [json.loads(line) for line in events.getvalue().splitlines()]
    told = [line for line in lines if line["event"] == "first_yaoji"]
    rounds = [line for line in lines if line["event"] == "settlement"]
    assert len(told) == len(rounds) == 3
    assert any(line.get("first_yaoji") for line in rounds)        # seed 1: a 责任鸡 in the first hand
    assert audit_events(lines) == []
