"""沈阳 亮牌 declared at the table and 十六张 拉庄 asked at a dealer's win (issue 16), each built on purpose.

As in test_asked_facts.py, the hand's parts run on `FakePorts` over a `HandState` whose wall deals
what the situation needs; the deal is taken from the wall first, since a tile still in the wall
cannot be shown.
"""

from dataclasses import replace

from drivers.table_ui import LA_ZHUANG, LAY_LIANG, LIANG, LIANG_REFUSED, LIANG_REPLACE, Key, Phase, choice_text
from firmware.hand.liang import LiangDesk
from firmware.hand.melds import melds_from_tiles
from firmware.hand.questions import ask_la_zhuang, la_zhuang_due
from firmware.hand.state import HandState
from firmware.hand.win_check import judge_laid
from rulesets.hand import WinContext
from rulesets.regions import get_region
from rulesets.tiles import Tile, parse_tiles
from tests.asyncio_support import run
from tests.firmware.fake_ports import FakePorts
from tests.firmware.test_asked_facts import built_hand, take_tail_tile


def take_head(hand: HandState, count: int) -> None:
    for _ in range(count):
        slot = hand.tracker.next_head()
        stack = hand.ring[slot.ring]
        hand.on_wall_change(stack, hand.tracker.stack_tiles(stack) - 1)


def dealt_shenyang(options=None, **dealt: str) -> HandState:
    ruleset = get_region("shenyang").resolve(options or {})
    hand = built_hand(ruleset, {int(seat[1:]): tiles for seat, tiles in dealt.items()})
    take_head(hand, hand.deal_size)
    return hand


def declare(hand: HandState, seat: int, laid: str, acts=()) -> FakePorts:
    ports = FakePorts(hand.ruleset, [(seat, Key.CONFIRM)], zones={seat: [parse_tiles(laid)]}, acts=list(acts))
    run(LiangDesk(ports).declare(hand, seat), timeout=5)
    return ports


# -- 沈阳 亮牌 ---------------------------------------------------------------------------------------

def test_winds_are_shown_as_a_guo_gang_with_a_replacement_from_the_tail():
    """「①手中有“东南西北”各一张时可以亮出，并“过杠”，这与“杠”的操作基本相同」: seat 1 lays 东南西北; the table
    checks them, says so on the public line, and waits for the 过杠's replacement, which the tracker counts
    as a kong's (the reserve grows as for a kong)."""
    hand = dealt_shenyang(s1="1234z123m456p78s")
    tail_before = hand.tracker.tail_taken
    ports = declare(hand, 1, "1234z", acts=[lambda: take_tail_tile(hand)])
    (event,) = ports.recorder.all("liang_pai")
    assert event["accepted"] and (event["name"], event["replacements"]) == ("东南西北", 1)
    assert ports.screens.lines[1] == [LAY_LIANG, f"{LIANG_REPLACE} 1", f"{LIANG} 东南西北"]
    assert any(f"{LIANG} 东南西北" in p for p in ports.screens.phases)       # public: the set lies face up
    assert hand.tracker.tail_taken == tail_before + 1 and hand.tracker.kongs == 1
    assert hand.last_take.reason == "kong" and hand.tracker.special_owed == 0
    assert [str(m) for m in hand.facts.special_melds(1)] == ["special:1234z"]
    assert hand.kongs_by_side() == ()                     # a 亮牌 is not a 明杠 in the hand's kongs


def test_dragons_are_shown_without_a_replacement():
    """「②手中有“中发白”各一张时可以亮出。即使没有轮到本家摸牌时也可以亮出」: three tiles, a set of their own:
    nothing is taken from the wall."""
    hand = dealt_shenyang(s2="567z123m456p789s1m")
    tail_before = hand.tracker.tail_taken
    ports = declare(hand, 2, "567z")
    assert ports.recorder.all("liang_pai")[0]["replacements"] == 0
    assert ports.screens.last(2) == f"{LIANG} 中发白"
    assert hand.tracker.tail_taken == tail_before and hand.tracker.kongs == 0


def test_a_set_shown_twice_a_wrong_set_and_tiles_still_in_the_wall_are_refused():
    hand = dealt_shenyang(s1="567z123m456p789s1m")
    ports = FakePorts(hand.ruleset, [(1, Key.CONFIRM)] * 2, zones={1: [parse_tiles("567z")] * 2})
    desk = LiangDesk(ports)
    for _ in range(2):
        run(desk.declare(hand, 1), timeout=5)
    assert ports.screens.last(1) == LIANG_REFUSED                                     # each set once
    wrong = declare(hand, 1, "1235z")
    assert wrong.screens.last(1) == LIANG_REFUSED and "东南西北" in wrong.recorder.all("liang_pai")[0]["reason"]
    in_wall = [t for t in hand.wall.values() if t == Tile.parse("1z")]
    undrawn = sum(1 for slot, t in hand.wall.items() if t == Tile.parse("1z") and slot not in hand.tracker.taken)
    assert len(in_wall) == 4 and undrawn >= 1
    hand2 = dealt_shenyang()
    hand2.facts.liang = [[0, "东南西北", ["1z", "2z", "3z", "4z"]]] * 4     # every wind already shown
    refused = declare(hand2, 3, "1234z")
    assert "still in the wall or already shown" in refused.recorder.all("liang_pai")[0]["reason"]
    assert [m for m in hand.facts.special_melds(1)] and hand.facts.liang == [[1, "中发白", ["5z", "6z", "7z"]]]


def test_a_set_laid_again_after_a_restart_is_told_as_judged_and_recorded_once():
    """A restarted controller (a new desk) knows the 中发白 its journal holds, but never showed its
    `亮牌 中发白`: the seat, whose 确认 the restart may have lost, lays it again and is told it is shown
    (not refused); nothing new is recorded.  Laid again once told, it is refused (each set once)."""
    hand = dealt_shenyang(s1="567z123m456p789s1m")
    declare(hand, 1, "567z")
    ports = FakePorts(hand.ruleset, [(1, Key.CONFIRM)] * 2, zones={1: [parse_tiles("567z")] * 2})
    desk = LiangDesk(ports)
    run(desk.declare(hand, 1), timeout=5)
    assert ports.screens.lines[1] == [LAY_LIANG, f"{LIANG} 中发白"] and ports.recorder.all("liang_pai") == []
    run(desk.declare(hand, 1), timeout=5)
    assert ports.screens.last(1) == LIANG_REFUSED and hand.facts.liang == [[1, "中发白", ["5z", "6z", "7z"]]]


def test_a_replacement_still_owed_after_a_restart_is_asked_for_before_play():
    """The journal holds a 东南西北 过杠 whose `亮牌补牌 1` may never have been shown: the restarted
    controller asks the seat for it, waits for the tail take, then says the set is shown."""
    hand = dealt_shenyang(s1="1234z123m456p78s")
    hand.facts.liang.append([1, "东南西北", ["1z", "2z", "3z", "4z"]])
    hand.tracker.owe_special(1, 1, counted=True)
    ports = FakePorts(hand.ruleset, [], acts=[lambda: take_tail_tile(hand)])
    run(LiangDesk(ports).resume(hand), timeout=5)
    assert ports.screens.lines[1] == [f"{LIANG_REPLACE} 1", f"{LIANG} 东南西北"]
    assert hand.tracker.special_owed == 0 and hand.last_take.reason == "kong"


def test_the_window_house_option_closes_liang():
    """「（有时不允许亮出或从第二次摸牌起不允许亮出）」: off refuses every 亮牌; first_draw refuses once the
    first round of draws after the deal has gone by."""
    off = dealt_shenyang({"liang_window": "off"}, s1="567z123m456p789s1m")
    assert "not allowed" in declare(off, 1, "567z").recorder.all("liang_pai")[0]["reason"]
    first = dealt_shenyang({"liang_window": "first_draw"}, s1="567z123m456p789s1m")
    take_head(first, 3)
    assert declare(first, 1, "567z").recorder.all("liang_pai")[0]["accepted"]
    late = dealt_shenyang({"liang_window": "first_draw"}, s2="567z123m456p789s1m")
    take_head(late, 4)
    assert "second draw" in declare(late, 2, "567z").recorder.all("liang_pai")[0]["reason"]


def test_a_win_splits_the_shown_set_from_the_read_zone_and_scores_liang_two_fan():
    """「沈阳麻将有“亮牌”一说，“亮牌”为2番」 and 「③亮出后，若有人碰字牌…则该碰算作2番」: the winner's zone holds
    the 亮牌 beside a 碰; the set is its own meld, scored 亮牌 2番."""
    hand = dealt_shenyang(s1="567z123m456p789s1m")
    declare(hand, 1, "567z")
    melds = melds_from_tiles(parse_tiles("567z555m"), 0, 0, hand.facts.special_melds(1))
    assert [str(m) for m in melds] == ["special:567z", "555m"]
    concealed = tuple(parse_tiles("123p789s11m"))
    laid, context = hand.laid_hand(1, None, melds, concealed, (), Tile.parse("9s"), ())
    assert context.get("liang_shown") is True
    result = judge_laid(hand.ruleset, laid, context)
    assert result.verdict.legal, result.verdict.failures
    assert "亮牌" in [i.zh for i in result.settlement.items]


# -- 十六张 拉庄 ----------------------------------------------------------------------------------------

def sixteen(options=None) -> HandState:
    hand = built_hand(get_region("sixteen_tile").resolve(options or {}), {})
    hand.facts.repeats = 2
    return hand


def dealer_self_draw(hand: HandState) -> WinContext:
    return WinContext(winner=hand.dealer, dealer=hand.dealer, sides=hand.ruleset.players, consecutive_dealer=2)


def test_each_side_owing_the_dealer_is_asked_la_zhuang_and_a_third_is_carried():
    """「闲家可以向庄家提出“拉庄”，即是暂不清还输给庄家的总数留三分一作下一盘的博注」: the dealer (2 连庄) wins by
    self-draw, each other side owes him 4; 南 and 北 ask 拉庄 (▶ to 有, 确认), 西 does not.  Those two pay 3
    now, and the public line names them."""
    hand = sixteen()
    presses = [(1, Key.RIGHT), (1, Key.CONFIRM), (2, Key.CONFIRM), (3, Key.RIGHT), (3, Key.CONFIRM)]
    ports = FakePorts(hand.ruleset, presses)
    context = dealer_self_draw(hand)
    asking = run(ask_la_zhuang(ports, hand, context), timeout=5)
    assert asking == (1, 3)
    assert ports.screens.lines[1][:2] == [choice_text(LA_ZHUANG, "无"), choice_text(LA_ZHUANG, "有")]
    assert ports.screens.phases[-1] == f"{Phase.WIN_CHECK.value} {LA_ZHUANG}:南 北"
    (event,) = ports.recorder.all("la_zhuang")
    assert (event["asked"], event["asking"]) == ([1, 2, 3], [1, 3])
    scored = replace(context, win_tile=Tile.parse("1s"), extra=(("la_zhuang", asking),))
    laid, _ = hand.laid_hand(0, None, (), tuple(parse_tiles("123m456m789m123p456p11s")), (), Tile.parse("1s"), ())
    result = judge_laid(hand.ruleset, laid, scored)
    assert result.verdict.legal, result.verdict.failures
    settled = result.settlement
    assert settled.payments == (10, -3, -4, -3)


def test_la_zhuang_is_asked_only_of_a_dealers_win_and_only_where_offered():
    hand = sixteen()
    assert la_zhuang_due(hand, WinContext(winner=0, dealer=0, discarder=2, sides=(0, 1, 2, 3))) == (2,)
    assert la_zhuang_due(hand, WinContext(winner=1, dealer=0, sides=(0, 1, 2, 3))) == ()
    assert la_zhuang_due(sixteen({"la_zhuang": "off"}), dealer_self_draw(hand)) == ()
    assert la_zhuang_due(dealt_shenyang(), WinContext(winner=0, dealer=0, sides=(0, 1, 2, 3))) == ()


# -- the audit ---------------------------------------------------------------------------------------

def test_the_audit_finds_a_liang_that_is_not_a_set_shown_twice_or_without_its_replacement():
    from firmware.records.audit_declared import _liang
    ruleset = get_region("shenyang").resolve()
    winds = {"event": "liang_pai", "seat": 1, "name": "东南西北", "tiles": ["1z", "2z", "3z", "4z"], "accepted": True,
             "replacements": 1}
    tail = {"event": "take", "end": "tail", "reason": "kong"}
    head = {"event": "take", "end": "head", "reason": "draw"}
    assert _liang(ruleset, [winds, tail]) == []
    assert "not its replacement" in _liang(ruleset, [winds, head])[0]
    assert "shown twice" in _liang(ruleset, [winds, tail, winds, tail])[0]
    assert "is not 中发白" in _liang(ruleset, [{**winds, "name": "中发白"}, tail])[0]
    off = get_region("shenyang").resolve({"liang_window": "off"})
    assert "does not allow" in _liang(off, [winds, tail])[0]


def test_the_audit_finds_la_zhuang_asked_of_the_wrong_sides_or_not_given_to_the_scorer():
    from firmware.records.audit_declared import _la_zhuang
    ruleset = get_region("sixteen_tile").resolve()
    win = {"event": "win", "seat": 0, "from": None, "context": {"extra": {"finished": [], "la_zhuang": [2]}}}
    asked = {"event": "la_zhuang", "winner": 0, "asked": [1, 2, 3], "asking": [2]}
    assert _la_zhuang(ruleset, [asked, win], dealer=0) == []
    assert "not preceded" in _la_zhuang(ruleset, [win], dealer=0)[0]
    assert "owe the dealer's win" in _la_zhuang(ruleset, [{**asked, "asked": [1]}, win], dealer=0)[0]
    assert "the answers were" in _la_zhuang(ruleset, [{**asked, "asking": []}, win], dealer=0)[0]
    assert "not the dealer's" in _la_zhuang(ruleset, [{**win, "seat": 1}], dealer=0)[0]
