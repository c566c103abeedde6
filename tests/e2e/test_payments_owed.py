"""Every payment the rules owe, in simulated play (issue 16): the controller over real ptys, the simulated
players asked what the table cannot see, and each region's flight recorder checked against the text.

A short run of each region is part of the default suite; `-m soak` plays many seeds.  Each check
quotes the words it holds the table to; every recorder is also audited (the audit scores every
payment again from what the recorder says).
"""

import io
from collections import Counter

import pytest

from firmware.records.audit import audit_events, read_events
from firmware.simulated import run_simulated
from rulesets.regions import get_region
from rulesets.scoring.changsha import opening_small_wins
from rulesets.scoring.guizhou import chicken_kinds, held_chickens
from rulesets.hand import Hand, parse_meld
from rulesets.tiles import Tile
from tests.asyncio_support import run


def play(region_id: str, seed: int, hands: int, options=None) -> list[dict]:
    events = io.StringIO()
    ruleset = get_region(region_id).resolve(options or {})
    result = run(run_simulated(ruleset, hands=hands, seed=seed, events=events), timeout=600)
    assert result.hands == hands
    log = read_events(events.getvalue().splitlines())
    assert audit_events(log) == []
    return log


def hands_of(log: list[dict]) -> list[list[dict]]:
    """The events of each hand, from hand_start to hand_end."""
    out: list[list[dict]] = []
    for event in log:
        if event["event"] == "hand_start":
            out.append([])
        if out and event["hand"]:
            out[-1].append(event)
    return out


def first(events: list[dict], name: str) -> dict:
    return next(e for e in events if e["event"] == name)


def laid(data: dict) -> Hand:
    return Hand(tuple(map(Tile.parse, data["tiles"])), tuple(map(parse_meld, data["melds"])),
                tuple(map(Tile.parse, data["flowers"])))


# -- the checks, one per item of the issue ---------------------------------------------------------

def check_lianzhuang(region_id: str, log: list[dict], tally: Counter) -> None:
    """十六张 「每连庄一次便加上一番」 with 「番是2倍的意思」; 十七张 「如果庄家连庄则还是此位玩家当庄，底数增加」:
    a dealer's self-drawn win after n 连庄 collects 2^n (16) or 1 + n (17, +1 a 连庄) from each payer.
    十六张 「闲家可以向庄家提出“拉庄”，即是暂不清还输给庄家的总数留三分一作下一盘的博注」: each side owing a dealer's
    win is asked; one that asks pays two thirds now (a third, rounded down, carried)."""
    for events in hands_of(log):
        start = first(events, "hand_start")
        asked = [e for e in events if e["event"] == "la_zhuang"]
        dealer_wins = [e for e in events if e["event"] == "win" and e["seat"] == start["dealer"]]
        if region_id == "sixteen_tile":
            assert len(asked) == len(dealer_wins)
        for win in (e for e in events if e["event"] == "win"):
            assert win["context"]["consecutive_dealer"] == start["repeats"]
            asking = win["context"]["extra"].get("la_zhuang", [])
            if win["seat"] == start["dealer"] and win["from"] is None:
                n = start["repeats"]
                each = 2 ** n if region_id == "sixteen_tile" else 1 + n
                owed = {s: each - (each // 3 if s in asking else 0) for s in start["sides"] if s != win["seat"]}
                assert all(win["payments"][s] == -owed[s] for s in owed), win
                tally["dealer self-draws after a 连庄"] += n > 0
            if region_id == "sixteen_tile":             # 拉庄 is 十六张's only
                tally["拉庄 asked"] += len(asking)
            else:
                assert not asking, win


def check_guizhou(log: list[dict], tally: Counter) -> None:
    """「如果有人碰（杠）了3万的话算钱，和牌的人可能赔钱，被胡的人可能赢钱」, 「有3条就有钱」: after a win every
    other seat lays its hand, and each that is 有叫 (the default ji_collect=ready) is paid for its 鸡."""
    ruleset = get_region("guizhou").resolve()
    for events in hands_of(log):
        wins = [e for e in events if e["event"] == "win"]
        if not wins:
            assert not any(e["event"] == "settlement" for e in events)
            continue
        round_ = first(events, "settlement")
        assert round_["seats"] == [s for s in ruleset.players if s not in {w["seat"] for w in wins}]
        kinds, gold = chicken_kinds(ruleset, tuple(map(Tile.parse, round_["flipped"])))
        for data in round_["hands"]:
            count = sum(1 for t in held_chickens(ruleset, laid(data)) if t in kinds)
            paid = any(i["name"].endswith(f"(side {data['seat']})") for i in round_["items"])
            assert paid == (data["seat"] in round_["ready"] and count > 0), (data, round_)
            tally["a seat that did not win paid for its 鸡"] += paid


def check_changsha(log: list[dict], tally: Counter) -> None:
    """「小和：四喜（开局摸到四张一样的牌型）、无将和…、缺一色…、六顺…」: every seat dealt an opening small win
    declares it, the table verifies it against the deal and pays it at once; no other seat is paid."""
    ruleset = get_region("changsha").resolve()
    for events in hands_of(log):
        start, end = first(events, "hand_start"), first(events, "hand_end")
        plan = ruleset.dealing.plan(start["dealer"], ruleset.players)
        paid = {e["seat"]: e for e in events if e["event"] == "opening_win" and e["accepted"]}
        for seat in ruleset.players:
            dealt = [Tile.parse(end["ring"][p // 2][p % 2]) for p in plan.positions_of(seat)]
            wins = opening_small_wins(dealt)
            assert (seat in paid) == bool(wins), (seat, dealt)
            if wins:
                assert paid[seat]["payments"][seat] == 3 * len(wins)
                tally["opening small wins paid"] += 1


def check_yunnan(log: list[dict], tally: Counter) -> None:
    """「明杠：…打出一张牌的闲家给玩家2分」: the maker of every exposed kong is asked who gave it, and the
    hand's first win pays each 明杠 from its giver; 「必须杠上开花才可以拿翻开的尾牌」: a shown tail tile is
    taken only by a 杠上开花 — or, with no face-down tail tile left, by any kong (weipai_wall_end=drawn_last,
    the default); 「流局查大叫」: at a draw every seat lays its hand."""
    for events in hands_of(log):
        exposed = [e for e in events if e["event"] == "kong_declared" and not e["concealed"]]
        answers = [e for e in events if e["event"] == "kong_from"]
        taken = sum(1 for e in events if e["event"] == "take" and e["reason"] == "kong")
        assert len(answers) <= len(exposed) and (taken < len(exposed) or len(answers) == len(exposed))
        wins = [e for e in events if e["event"] == "win"]
        if wins:
            ming = [i for i in wins[0]["items"] if i["name"].startswith("明杠")]
            assert len(ming) == sum(1 for a in answers if a["kind"] == "ming")
            tally["明杠 paid by its giver"] += len(ming)
        assert not any(e["event"] == "warning" and e.get("rule") == "weipai" for e in events)
        shown = {(r, l) for e in events if e["event"] == "indicator" and e["effect"] == "shown"
                 for r, l in zip(e["ring"], e["layer"])}
        for index, event in enumerate(events):
            if event.get("at_wall_end"):                 # a kong's replacement at the wall end: no win owed
                continue
            if event["event"] == "take" and event["end"] == "tail" and (event["ring"], event["layer"]) in shown:
                after = next(e for e in events[index + 1:] if e["event"] in ("take", "win", "false_win", "hand_end"))
                assert after["event"] == "win" and after["from"] is None, "a 尾牌 taken without 杠上开花"
                tally["尾牌 taken for 杠上开花"] += 1
        if not wins:
            assert first(events, "settlement")["seats"] == [0, 1, 2, 3]
            tally["查大叫 rounds"] += 1


def check_guannan(log: list[dict], tally: Counter) -> None:
    """「记牌形式主要包括：七对、碰碰和…、一条龙…、平牌」: every win is itemised by its form."""
    for win in (e for e in log if e["event"] == "win"):
        assert [i["name"] for i in win["items"]] in (["七对"], ["碰碰和"], ["一条龙"], ["平牌"])
        tally["灌南 wins by form"] += 1


def check_dabao(log: list[dict], tally: Counter) -> None:
    """「如果第一圈四个人打出的牌一样叫做跟庄」: the table asks after the first round of every hand that had one."""
    for events in hands_of(log):
        draws = sum(1 for e in events if e["event"] == "take" and e["reason"] == "draw")
        asked = [e for e in events if e["event"] == "follow_dealer"]
        assert bool(asked) == (draws >= 4)
        tally["跟庄 asked"] += len(asked)


def check_yichang(log: list[dict], tally: Counter) -> None:
    """「打完查花猪（三方牌）」: at the end of every hand every seat lays its hand; three suits is a 花猪."""
    for events in hands_of(log):
        round_ = first(events, "settlement")
        assert round_["seats"] == [0, 1, 2, 3]
        for data in round_["hands"]:
            suits = {t.suit for t in laid(data).all_tiles() if t.is_suited}
            assert (data["seat"] in round_["flower_pigs"]) == (not data["shown"] or {"m", "p", "s"} <= suits)
        tally["花猪 named"] += len(round_["flower_pigs"])


def check_changchun(log: list[dict], tally: Counter) -> None:
    """「旋风杠：当发完牌后，手牌中有东、西、南、北风时，可以亮出算一个明杠…」 (and 喜杠, 幺蛋, 九蛋): a seat dealt a
    special set shows it, the table checks it against the deal, and its 明杠 count in the hand's kongs."""
    from rulesets.special_kongs import best_declaration
    ruleset = get_region("changchun").resolve()
    for events in hands_of(log):
        start, end = first(events, "hand_start"), first(events, "hand_end")
        plan = ruleset.dealing.plan(start["dealer"], ruleset.players)
        shown = [e for e in events if e["event"] == "special_kong"]
        assert all(e["accepted"] for e in shown)
        for seat in ruleset.players:
            dealt = [Tile.parse(end["ring"][p // 2][p % 2]) for p in plan.positions_of(seat)]
            could = best_declaration(dealt, additions_allowed=seat != start["dealer"]) is not None
            assert could == any(e["seat"] == seat for e in shown), (seat, dealt)
        counted = Counter()
        for event in shown:
            counted[event["seat"]] += event["kongs"]
        for win in (e for e in events if e["event"] == "win"):
            by_side = {side: exposed for side, exposed, _ in win["context"]["kongs_by_side"]}
            assert all(by_side.get(seat, 0) >= n for seat, n in counted.items())
        tally["special kongs shown"] += len(shown)


def check_shenyang(log: list[dict], tally: Counter) -> None:
    """「①手中有“东南西北”各一张时可以亮出，并“过杠”」, 「②手中有“中发白”各一张时可以亮出」, 「“亮牌”为2番」: every 亮牌 the
    players lay is accepted; a 东南西北 过杠 is followed by its replacement from the tail; a winner who showed
    one is scored 亮牌 for each set, and its set is one of its melds."""
    for events in hands_of(log):
        shown = [e for e in events if e["event"] == "liang_pai"]
        assert all(e["accepted"] for e in shown), shown
        for index, event in enumerate(events):
            if event["event"] == "liang_pai" and event["replacements"]:
                take = next(e for e in events[index + 1:] if e["event"] == "take")
                assert (take["end"], take["reason"]) == ("tail", "kong")
        for win in (e for e in events if e["event"] == "win"):
            sets = [e for e in shown if e["seat"] == win["seat"]]
            assert sum(1 for m in win["melds"] if m.startswith("special:")) == len(sets)
            assert sum(1 for i in win["items"] if i["name"] == "亮牌") == len(sets)
            tally["winners who had shown a 亮牌"] += bool(sets)
        tally["亮牌 shown"] += len(shown)


CHECKS = {
    "shenyang": check_shenyang,
    "changchun": check_changchun,
    "sixteen_tile": lambda log, tally: check_lianzhuang("sixteen_tile", log, tally),
    "seventeen_tile": lambda log, tally: check_lianzhuang("seventeen_tile", log, tally),
    "guizhou": check_guizhou, "changsha": check_changsha, "yunnan": check_yunnan, "guannan": check_guannan,
    "dabao": check_dabao, "yichang": check_yichang,
}


@pytest.mark.parametrize("region_id", sorted(CHECKS))
def test_a_short_run_owes_and_pays_as_the_text_says(region_id):
    tally: Counter = Counter()
    CHECKS[region_id](play(region_id, seed=5, hands=6), tally)


@pytest.mark.soak
@pytest.mark.timeout(1800)
@pytest.mark.parametrize("region_id", sorted(CHECKS))
def test_many_seeds_owe_and_pay_as_the_text_says(region_id):
    """Twenty runs of eight hands: each check holds every time, and each payment path is taken."""
    tally: Counter = Counter()
    for seed in range(1, 21):
        CHECKS[region_id](play(region_id, seed=seed, hands=8), tally)
    print(f"{region_id}: {dict(tally)}")                   # the figures, with -s
    assert tally and all(tally.values()), dict(tally)
