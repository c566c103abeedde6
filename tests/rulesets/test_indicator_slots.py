"""No indicator is ever flipped at a slot that has left the wall (issue 11 item 3), in every region.

A dealt tile is in someone's hand: flipping it is physically impossible and shows a hidden tile.
The 钻牌 text counts on 「庄家的上家（顺时针未动过的第一家的牌墙）」 [000:171] — a wall nobody has touched.
These tests build the moments an indicator is found (after the deal, on 听, after a win) for many
dice, dealers and draws, and check every slot a position rule names against the slots taken.
"""

import random

import pytest

from rulesets.indicators import PositionError, RevealContext, Timing, UpperTilesOnWall
from rulesets.regions import REGION_IDS, get_region
from rulesets.walls import Layer, Slot

SEEDS = range(300)


def option_sets(region):
    yield {}
    for option in region.options:
        for value in option.values:
            if value != option.default:
                yield {option.key: value}


def rulesets_with_indicators():
    out = []
    for region_id in REGION_IDS:
        region = get_region(region_id)
        for options in option_sets(region):
            ruleset = region.resolve(options)
            if any(r.timing is not Timing.FIXED for r in ruleset.indicators):
                out.append(pytest.param(ruleset, id=f"{region_id}-{'-'.join(options.values()) or 'default'}"))
    return out


def taken_slots(ring, next_head, tail_taken):
    """Every slot gone after `next_head` head draws and `tail_taken` tail draws, computed apart."""
    gone = {ring.head_slot(p) for p in range(next_head)}
    return gone | {ring.tail_slot(t) for t in range(tail_taken)}


def table_after_deal(ruleset, rng):
    dealer = rng.choice(ruleset.players)
    rolls = [tuple(rng.randint(1, 6) for _ in range(ruleset.dice.dice_per_roll)) for _ in range(ruleset.dice.rolls_needed)]
    brk = ruleset.dice.break_for(dealer, ruleset.players, rolls).brk
    ring = ruleset.layout.ring(brk)
    return dealer, ring, ruleset.dealing.plan(dealer, ruleset.players).next_head


def roll_for(rule, rng):
    return tuple(rng.randint(1, 6) for _ in range(rule.position_dice or 1))


@pytest.mark.parametrize("ruleset", rulesets_with_indicators())
def test_no_indicator_slot_has_left_the_wall(ruleset):
    rng = random.Random(ruleset.id)
    checked = 0
    for _ in SEEDS:
        dealer, ring, dealt = table_after_deal(ruleset, rng)
        for rule in ruleset.indicators:
            if rule.timing is Timing.FIXED:
                continue
            tail = rng.randint(0, 8)
            if rule.timing is Timing.AFTER_DEAL:
                moments = [(dealt, 0)]
            elif rule.timing is Timing.ON_READY:     # the 宝: while the live wall lasts (7 stacks stay)
                moments = [(rng.randint(dealt, ring.tile_count - tail - 14), tail)]
            else:                                    # after a win: anywhere, the wall's very end included
                moments = [(rng.randint(dealt, ring.tile_count - tail), tail)]
            for next_head, tail_taken in moments:
                context = RevealContext(ring, ruleset.layout, dealer, next_head, tail_taken, roll_for(rule, rng))
                try:
                    slots = rule.position.slots(context)
                except PositionError:
                    continue          # nothing left to count on: nothing is flipped
                gone = taken_slots(ring, next_head, tail_taken)
                assert not set(slots) & gone, (rule.kind, next_head, tail_taken, slots)
                checked += 1
    assert checked >= len(SEEDS)


def test_zuanpai_default_counts_on_the_first_untouched_wall_as_the_text_says():
    """「钻牌为庄家的上家（顺时针未动过的第一家的牌墙）逆时针数至与掷骰数值对应的那张牌翻开（只数上层牌）」:
    by default the count runs over a wall the deal has not touched, so no stack is ever passed over."""
    ruleset = get_region("zuanpai").resolve()
    assert ruleset.option("zuan_wall") == "first_untouched"
    rng = random.Random(5)
    for _ in SEEDS:
        dealer, ring, dealt = table_after_deal(ruleset, rng)
        roll = roll_for(ruleset.indicators[0], rng)
        (slot,) = ruleset.indicators[0].position.slots(RevealContext(ring, ruleset.layout, dealer, dealt, 0, roll))
        pos = ring[slot.ring]
        untouched = {ring[ring.head_slot(p).ring].wall for p in range(dealt)}
        assert pos.wall not in untouched
        left_end = ruleset.layout.stacks_per_side[pos.wall] - 1
        assert pos.stack == left_end - (sum(roll) - 1) and slot.layer is Layer.TOP


def test_zuanpai_upper_house_passes_over_dealt_stacks():
    """Read as the 上家's wall, the count still never lands on a dealt stack: only standing upper tiles count."""
    ruleset = get_region("zuanpai").resolve({"zuan_wall": "upper_house"})
    layout = ruleset.layout
    ring = layout.ring(ruleset.dice.break_for(0, ruleset.players, [(1, 4), (3, 4)]).brk)
    wall = 3                                                    # the dealer's 上家
    dealt_on_wall = [i for i in range(27) if ring[i].wall == wall]
    assert dealt_on_wall, "the case needs the deal to reach the 上家's wall"
    context = RevealContext(ring, layout, 0, 53, 0, (1, 1))
    (slot,) = UpperTilesOnWall("upper_house").slots(context)
    assert slot.ring >= 27
    standing_on_wall = [i for i in range(len(ring)) if ring[i].wall == wall and i >= 27]
    if standing_on_wall:
        assert ring[slot.ring].wall == wall


def test_after_win_flips_stop_at_the_end_of_the_wall():
    """A flip after a win on the last tile finds nothing to flip, rather than a tile already drawn."""
    ruleset = get_region("guizhou").resolve()
    rule = next(r for r in ruleset.indicators if r.timing is Timing.AFTER_WIN)
    ring = ruleset.layout.ring(ruleset.dice.break_for(0, ruleset.players, [(3, 4)] * ruleset.dice.rolls_needed).brk)
    everything = RevealContext(ring, ruleset.layout, 0, ring.tile_count - 2, 2)
    assert rule.position.slots(everything) == ()
    one_left = RevealContext(ring, ruleset.layout, 0, ring.tile_count - 3, 2)
    assert rule.position.slots(one_left) == (ring.head_slot(ring.tile_count - 3),)


def test_a_slot_taken_out_of_order_is_passed_over():
    """A tile taken out of draw order (a shown tail tile taken by 杠上开花) is gone too."""
    ruleset = get_region("baida").resolve()
    rule = ruleset.indicators[0]
    ring = ruleset.layout.ring(ruleset.dice.break_for(0, ruleset.players, [(3, 4)] * ruleset.dice.rolls_needed).brk)
    last_top = Slot(len(ring) - 1, Layer.TOP)
    assert rule.position.slots(RevealContext(ring, ruleset.layout, 0, 53)) == (last_top,)
    taken = RevealContext(ring, ruleset.layout, 0, 53, taken=frozenset({last_top}))
    assert rule.position.slots(taken) == (Slot(len(ring) - 2, Layer.TOP),)
