"""上海 承包 was never paid at the table (a probe): 「如果吃碰杠一家或被一家吃碰杠超过3次（包括3次），则承包…若自摸
记分时承包者付3份点数」 (RULES.md §4.7), but the table sees no claims.  The winner is asked
`承包:<无|下家|对家|上家>` now, as the maker of a kong is asked who gave it; the answer is recorded, given
to the scorer (`claims`) and checked by the audit."""

from __future__ import annotations

from dataclasses import replace

from drivers.table_ui import CHENGBAO, Key, Phase, choice_text
from firmware.hand.questions import ask_chengbao
from firmware.hand.win_check import judge_laid
from firmware.records.audit_declared import CAI_PIAO, CHENGBAO as ASKED, _asked_at_win
from rulesets.regions import get_region
from rulesets.tiles import Tile, parse_tiles
from tests.asyncio_support import run
from tests.firmware.fake_ports import FakePorts
from tests.firmware.test_asked_facts import built_hand

PUNGS = "111m222p333s444m55z"        # 碰碰胡 (上海 asks at least that), self-drawn by side 0


def test_a_winner_names_the_side_that_chengbaos_and_it_pays_the_three_shares():
    hand = built_hand(get_region("shanghai").resolve(), {})
    laid, context = hand.laid_hand(0, None, (), tuple(parse_tiles(PUNGS)), (), Tile.parse("5z"), ())
    plain = judge_laid(hand.ruleset, laid, context)
    assert plain.verdict.legal, plain.verdict.failures
    ports = FakePorts(hand.ruleset, [(0, Key.RIGHT), (0, Key.RIGHT), (0, Key.CONFIRM)])      # 无 → 下家 → 对家
    side = run(ask_chengbao(ports, hand, context), timeout=5)
    assert side == 2
    assert ports.screens.lines[0][0] == choice_text(CHENGBAO, "无")
    assert ports.screens.phases[-1] == f"{Phase.WIN_CHECK.value} {CHENGBAO}:对家"
    (event,) = ports.recorder.all("chengbao")
    assert (event["seat"], event["side"]) == (0, 2)
    under = judge_laid(hand.ruleset, laid, replace(context, extra=context.extra + (("claims", ((0, 2, 3),)),)))
    share = plain.settlement.payments[0] // 3
    assert under.settlement.payments == (3 * share, 0, -3 * share, 0)       # 「自摸…承包者付3份」
    assert plain.settlement.payments == (3 * share, -share, -share, -share)


def test_a_table_whose_rules_have_no_chengbao_asks_nothing():
    hand = built_hand(get_region("sichuan").resolve(), {})
    ports = FakePorts(hand.ruleset, [])
    assert run(ask_chengbao(ports, hand, hand.win_context(0, None, None, (), ())), timeout=5) is None


def test_the_audit_finds_chengbao_unasked_or_not_given_as_answered():
    ruleset = get_region("shanghai").resolve()
    win = {"event": "win", "seat": 0, "from": None, "items": [], "context": {"extra": {"claims": [[0, 2, 3]]}}}
    asked = {"event": "chengbao", "seat": 0, "side": 2}
    assert _asked_at_win(ruleset, [asked, win], ASKED) == []
    assert "not preceded" in _asked_at_win(ruleset, [win], ASKED)[0]
    assert "the answers give [[0, 1, 3]]" in _asked_at_win(ruleset, [{**asked, "side": 1}, win], ASKED)[0]
    assert _asked_at_win(ruleset, [{**asked, "side": None}, {**win, "context": {"extra": {}}}], ASKED) == []
    assert "does not have it" in _asked_at_win(get_region("sichuan").resolve(), [asked, win], ASKED)[0]


def test_a_recorder_written_before_the_questions_is_not_asked_for_them():
    """A recorder of format 2 (an older controller, which asked neither 财飘 nor 承包) audited today."""
    from firmware.records.stream import recorder_from_events, split_hands
    win = {"event": "win", "seat": 0, "from": None, "items": [{"pinyin": "bao tou"}], "context": {"extra": {}}}
    assert _asked_at_win(get_region("shanghai").resolve(), [win], ASKED, asks=False) == []
    assert _asked_at_win(get_region("hangzhou").resolve(), [win], CAI_PIAO, asks=False) == []
    import io
    import json

    from firmware.records.chain import FORMAT
    from firmware.simulated import run_simulated
    events = io.StringIO()
    run(run_simulated(get_region("shanghai").resolve(), hands=1, seed=3, speed=0.0, events=events), timeout=60)
    lines = [json.loads(line) for line in events.getvalue().splitlines()]
    assert lines[0]["format"] == FORMAT >= 3
    (hand,) = split_hands([recorder_from_events("new.jsonl", lines)]).hands
    assert hand.format == FORMAT
    lines[0] = {**lines[0], "format": 2}
    (hand,) = split_hands([recorder_from_events("old.jsonl", lines)]).hands
    assert hand.format == 2
