"""The reserve when an indicator tile is set aside (taken out of the wall, never drawn).

河北 「留 6 + 杠数 墩」 (RESEARCH.md §3.6): 6 + kongs full stacks stay at the tail, plus the lone tile an
odd number of kong replacements leaves.  The 混儿 is the top of the stack the dice count back from
the tail (2–12) and is set aside: the tracker counts that take at the tail (docs/table-flow.md §5),
but it is no draw from the tail end.  When it lies beyond the reserved stacks the reserve is 12 + 2k
(+1 for odd k) tiles, as with no 混儿 at all; the old count kept one tile more with no kong (荒庄 with
13, one head tile never drawn) and one fewer with one kong (the head drew into the 7th stack).

温州 and 百搭 (set_aside) take their tile from the tail stack itself (杠尾): that is a take from the
tail end, leaving a lone tile just as a replacement does — counted so, and unchanged here.
"""

from __future__ import annotations

import io

import pytest

from firmware.hand.tracker import WallTracker
from firmware.records.audit import audit_events, read_events
from firmware.simulated import run_simulated
from rulesets.indicators import RevealContext
from rulesets.regions import get_region
from rulesets.reserve import StacksPlusKongs, wall_count
from rulesets.walls import Break, End, Layer, Slot
from simulator.players.wall import LiveWall, WallMismatch
from tests.asyncio_support import run
from tests.simulator.test_players_parts import raised

DEAL = 53               # 13 × 4 + the dealer's 跳牌: the head draws of the deal


def undrawn_at_huangzhuang(kongs: int) -> int:
    """河北, the 混儿 outside the reserve: 6 + k full stacks and the lone tile of an odd k."""
    return 2 * (6 + kongs) + kongs % 2


def hun_slot(ruleset, ring, roll):
    """Where 河北's indicator rule puts the 混儿 after the deal for this roll."""
    (rule,) = ruleset.indicators
    (slot,) = rule.position.slots(RevealContext(ring, ruleset.layout, 0, DEAL, 0, roll))
    return slot


# --- the policy's arithmetic -----------------------------------------------------------------

@pytest.mark.parametrize("kongs", [0, 1, 2, 3])
def test_hebei_reserve_does_not_count_the_hun_as_a_tail_draw(kongs):
    """`tail_taken` = the kongs' replacements + the 混儿 set aside (counted at the tail)."""
    policy = StacksPlusKongs(6)
    head = 0
    while not wall_count(policy, 136, head, kongs + 1, kongs).exhausted:
        head += 1
    count = wall_count(policy, 136, head, kongs + 1, kongs)
    assert count.remaining == undrawn_at_huangzhuang(kongs)            # 12, 15, 16, 19
    assert count.reserved_full_stacks == 6 + kongs
    assert count.head_taken + kongs + 1 + count.remaining == 136


def test_hebei_reserve_before_the_hun_is_set_aside():
    """During the deal nothing has left the tail: 6 full stacks, 12 tiles."""
    count = wall_count(StacksPlusKongs(6), 136, DEAL, 0, 0)
    assert count.reserved == 12 and count.reserved_full_stacks == 6 and count.live == 136 - DEAL - 12


# --- the controller's wall tracker -----------------------------------------------------------

def _take_at(t: WallTracker, ring, slot: Slot):
    pos = ring[slot.ring]
    return t.on_stack_change(pos, t.stack_tiles(pos) - 1)[0]


@pytest.mark.parametrize("roll, kongs", [((3, 6), 0), ((3, 6), 1), ((6, 6), 2), ((6, 6), 3)])
def test_tracker_declares_huangzhuang_at_the_right_tile(roll, kongs):
    """The finding's hand: 混儿 from the 9th stack back (ring 59 top); 荒庄 after ring 61 bottom."""
    ruleset = get_region("hebei").resolve()
    ring = ruleset.layout.ring(Break(1, 2))
    t = WallTracker(ring, ruleset.reserve, {}, (), DEAL)
    last = len(ring) - 1
    for _ in range(DEAL):
        _take_at(t, ring, t.next_head())
    hun = hun_slot(ruleset, ring, roll)
    assert hun == Slot(last + 1 - sum(roll), Layer.TOP)
    t.expect_set_aside(hun)                          # as the hand flow does once the 混儿 is shown
    aside = _take_at(t, ring, hun)
    assert aside.reason == "set_aside" and aside.reserve == 6
    for _ in range(kongs):
        assert _take_at(t, ring, t.next_tail()).reason == "kong"
    while not t.exhausted:
        take = _take_at(t, ring, t.next_head())
        assert take.end is End.HEAD and take.in_order
    count = t.count()
    assert count.remaining == undrawn_at_huangzhuang(kongs)
    assert count.reserved_full_stacks == 6 + kongs
    # The undrawn tiles are exactly 6 + k whole stacks and, for an odd k, the tail stack's bottom.
    left = {slot for i in range(len(ring)) for slot in (Slot(i, Layer.TOP), Slot(i, Layer.BOTTOM))} - set(t.taken)
    gone_at_tail = (kongs + 1) // 2
    whole = {Slot(i, layer) for i in range(last + 1 - gone_at_tail - 6 - kongs, last + 1 - gone_at_tail)
             for layer in (Layer.TOP, Layer.BOTTOM)}
    lone = {Slot(last - kongs // 2, Layer.BOTTOM)} if kongs % 2 else set()
    assert left == whole | lone
    if kongs == 0:
        assert Slot(61, Layer.BOTTOM) in t.taken and Slot(62, Layer.TOP) not in t.taken


def test_a_hun_inside_the_reserved_stacks_keeps_six_stacks_worth_of_tiles():
    """Dice 5: the 混儿 is the 5th stack's top, inside the 6 reserved stacks.  Whether its half stack
    counts as a 墩 is not stated: the table keeps six 墩's worth, 12 tiles (the card says so)."""
    ruleset = get_region("hebei").resolve()
    ring = ruleset.layout.ring(Break(1, 2))
    t = WallTracker(ring, ruleset.reserve, {}, (), DEAL)
    for _ in range(DEAL):
        _take_at(t, ring, t.next_head())
    hun = hun_slot(ruleset, ring, (2, 3))
    t.expect_set_aside(hun)
    _take_at(t, ring, hun)
    while not t.exhausted:
        _take_at(t, ring, t.next_head())
    assert t.count().remaining == 12


# --- the simulated players' count --------------------------------------------------------------

@pytest.mark.parametrize("kongs", [0, 1])
def test_simulated_players_stop_at_the_same_tile(kongs):
    ruleset = get_region("hebei").resolve()
    table = raised(ruleset)
    ring = ruleset.layout.ring(Break(1, 2))
    wall = LiveWall(table, ruleset, ring)
    for position in range(DEAL):
        wall.take_deal(position)
    wall.set_aside(hun_slot(ruleset, ring, (3, 6)))
    for _ in range(kongs):
        wall.take_tail(kong=True)
    while wall.live:
        wall.take_head()
    with pytest.raises(WallMismatch):
        wall.take_head()
    assert wall.remaining == undrawn_at_huangzhuang(kongs)


# --- a played hand, from the flight recorder ---------------------------------------------------

def test_a_played_hebei_draw_ends_with_the_reserve_and_nothing_more():
    """Every 荒庄 whose 混儿 lay outside the reserve leaves 12 + 2k (+1) tiles, and the audit agrees."""
    ruleset = get_region("hebei").resolve()
    checked = 0
    for seed in (7, 3, 11):
        events = io.StringIO()
        run(run_simulated(ruleset, hands=5, seed=seed, events=events), timeout=240)
        log = read_events(events.getvalue().splitlines())
        assert audit_events(log) == []
        for end in (e for e in log if e["event"] == "exhausted"):
            hand = [e for e in log if e.get("hand") == end["hand"]]
            ring_stacks = next(e["ring_stacks"] for e in hand if e["event"] == "hand_start")
            (hun_ring,) = next(e["ring"] for e in hand if e["event"] == "indicator")
            kongs = end["kongs"]
            back = ring_stacks - hun_ring                     # the 混儿's stack, counted back from the tail
            if back <= 6 + kongs + (kongs + 1) // 2:          # inside the reserved stacks: not this case
                continue
            assert end["remaining"] == undrawn_at_huangzhuang(kongs), end
            assert end["reserve"] == 6 + kongs
            checked += 1
        if checked:
            break
    assert checked


# --- regions whose indicator is set aside at the tail end --------------------------------------

@pytest.mark.parametrize("region, options", [("wenzhou", {"dead_wall": "7_stacks"}),
                                             ("baida", {"baida_tile": "set_aside", "dead_wall": "7_stacks"})])
@pytest.mark.parametrize("kongs, undrawn", [(0, 15), (1, 14), (2, 15)])
def test_a_tail_top_set_aside_is_a_take_from_the_tail_end(region, options, kongs, undrawn):
    """杠尾: the tile set aside is the tail's own next tile; 7 full stacks + the lone tile it leaves."""
    ruleset = get_region(region).resolve(options)
    ring = ruleset.layout.ring(Break(1, 2))
    t = WallTracker(ring, ruleset.reserve, {}, (), DEAL)
    for _ in range(DEAL):
        _take_at(t, ring, t.next_head())
    (rule,) = ruleset.indicators
    assert not rule.stays_in_play
    (slot,) = rule.position.slots(RevealContext(ring, ruleset.layout, 0, DEAL))
    assert slot == Slot(len(ring) - 1, Layer.TOP)
    t.expect_set_aside(slot)
    assert _take_at(t, ring, slot).end is End.TAIL
    for _ in range(kongs):
        _take_at(t, ring, t.next_tail())
    while not t.exhausted:
        _take_at(t, ring, t.next_head())
    assert t.count().remaining == undrawn and t.count().reserved_full_stacks == 7


@pytest.mark.parametrize("region", ["changchun", "luoshan", "hangzhou", "wenzhou", "zuanpai", "baida", "nanchang",
                                    "wuhan", "yunnan"])
def test_only_hebei_takes_a_tile_out_of_the_wall_away_from_its_ends(region):
    """The other indicators either stay in play (flipped in place, no take: nothing to count), or are
    set aside from an end of the wall: 杠尾 (温州, 百搭) or the next head tile (螺山, counted at the head)."""
    for options in _indicator_options(region):
        ruleset = get_region(region).resolve(options)
        for rule in ruleset.indicators:
            if rule.stays_in_play:
                continue
            assert rule.position.name in ("tail_top", "next_head_tile"), (region, options, rule.position)


def _indicator_options(region: str) -> list[dict]:
    return {"luoshan": [{}, {"caishen_tile": "set_aside"}], "baida": [{}, {"baida_tile": "set_aside"}],
            "hangzhou": [{}, {"caishen": "flip"}], "nanchang": [{}, {"jing_position": "tail_top"}]}.get(region, [{}])
