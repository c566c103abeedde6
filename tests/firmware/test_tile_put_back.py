"""A tile put back on the stack it was just taken from (a person who took from the wrong stack and
was told 请按顺序取牌, or drew before another seat's claim) undoes that take.  Before, the take stood
with a warning: the wall's count stayed short — a tile, or a kong's reserve when the tile lay nearer
the tail (河北's 荒庄 came four tiles early) — and the tile was never recorded when drawn again."""

from __future__ import annotations

import pytest

from rulesets.regions import get_region
from rulesets.walls import Layer, Slot
from tests.firmware.hand_in_order import RecordedHand, hand_in_order


def dealing(region_id: str = "shanghai") -> RecordedHand:
    recorded = RecordedHand(hand_in_order(get_region(region_id).resolve()))
    recorded.hand.phase = "dealing"                 # (as the flow has it)
    return recorded


def dealt(region_id: str = "shanghai") -> RecordedHand:
    recorded = dealing(region_id)
    while not recorded.hand.deal_complete:
        recorded.draw()
    recorded.hand.phase = "playing"
    return recorded


def put_back(recorded: RecordedHand, slot) -> None:
    stack = recorded.hand.ring[slot.ring]
    recorded.flow.on_wall_change(stack, recorded.hand.tracker.stack_tiles(stack) + 1)


def draws_to_the_wall_end(recorded: RecordedHand) -> list[tuple]:
    """The sensor changes of the draws from here to 荒庄: (stack, tiles it holds after)."""
    steps = []
    while not recorded.hand.tracker.exhausted:
        slot = recorded.draw()
        stack = recorded.hand.ring[slot.ring]
        steps.append((stack, recorded.hand.tracker.stack_tiles(stack)))
    return steps


def exhausted_after(recorded: RecordedHand, steps: list[tuple]) -> int:
    """How many of these sensor changes the table saw before it called the wall spent."""
    for done, (stack, tiles) in enumerate(steps):
        if recorded.hand.tracker.exhausted:
            return done
        recorded.flow.on_wall_change(stack, tiles)
    return len(steps)


def test_a_tile_taken_out_of_order_and_put_back_leaves_the_wall_as_it_was():
    """The tile taken by mistake is the wall's last live one (河北 keeps 6 stacks and the kongs' back):
    nearer the tail, it counted as a kong's replacement; before, 荒庄 came four tiles early."""
    recorded, untouched = dealt("hebei"), dealt("hebei")
    steps = draws_to_the_wall_end(untouched)
    live = recorded.hand.tracker.live
    wrong = untouched.hand.tracker.last_drawn()
    (take,) = recorded.take(wrong)
    assert take["in_order"] is False and take["reason"] == "kong" and recorded.hand.tracker.live < live - 1
    assert "请按顺序取牌" in recorded.ports.screens.phases[-1]
    notes_dropped = recorded.ports.screens.notes_dropped
    put_back(recorded, wrong)
    assert recorded.hand.tracker.live == live and wrong not in recorded.hand.tracker.taken
    assert recorded.recorded("put_back")[-1]["live"] == live and not recorded.recorded("warning")
    assert recorded.ports.screens.notes_dropped == notes_dropped + 1   # 请按顺序取牌 heeded: the note is taken down
    # the same draws bring 荒庄 at the same tile as in the hand where nobody made the mistake
    assert exhausted_after(recorded, steps) == len(steps)
    assert recorded.audit() == []


def test_a_draw_put_back_before_another_seat_s_claim_is_drawn_again():
    recorded = dealt()
    live, last_take = recorded.hand.tracker.live, recorded.hand.last_take
    slot = recorded.draw()
    put_back(recorded, slot)
    assert recorded.hand.tracker.live == live and recorded.hand.tracker.next_head() == slot
    assert recorded.hand.last_take == last_take         # (a 杠上开花 is judged from the last take)
    assert recorded.draw() == slot and recorded.hand.tracker.live == live - 1
    assert recorded.audit() == []


def test_a_tile_put_back_on_another_stack_than_the_last_take_s_stands_with_a_warning():
    recorded = dealt()
    first = recorded.draw()
    recorded.draw()
    live = recorded.hand.tracker.live
    put_back(recorded, first)
    assert recorded.hand.tracker.live == live and first in recorded.hand.tracker.taken
    (warning,) = recorded.recorded("warning")
    assert "not the last taken" in warning["message"] and not recorded.recorded("put_back")


def test_the_take_that_completed_the_deal_stands():
    recorded = dealing()
    while not recorded.hand.deal_complete:
        slot = recorded.draw()
    put_back(recorded, slot)
    assert recorded.hand.deal_complete
    assert "completed the deal" in recorded.recorded("warning")[-1]["message"]


def test_the_tracker_undoes_its_last_take_as_if_it_had_not_been_made():
    tracker = dealt().hand.tracker
    before = (tracker.takes_text(), tracker.live, tracker.next_head())
    slot = tracker.next_head()
    stack = tracker.ring[slot.ring]
    (take,) = tracker.on_stack_change(stack, tracker.stack_tiles(stack) - 1)
    assert tracker.last_takes(1) == [take]
    assert tracker.take_back() == take
    assert (tracker.takes_text(), tracker.live, tracker.next_head()) == before


def test_a_put_back_that_names_another_slot_than_the_last_take_is_found_by_the_audit():
    recorded = dealt()
    slot = recorded.draw()
    put_back(recorded, slot)
    recorded.draw()

    def elsewhere(event: dict) -> dict:
        return dict(event, ring=(event["ring"] + 1) % 30) if event["event"] == "put_back" else event
    problems = recorded.audit(elsewhere)
    assert any("put back" in p and "undoes no take" in p for p in problems), problems


def test_a_kong_s_replacement_put_back_stands_and_the_screen_asks_for_it_again():
    recorded = dealt("hebei")
    recorded.hand.pending_kong[1] = False          # seat 1 pressed 杠
    tail = recorded.hand.tracker.next_tail()
    (take,) = recorded.take(tail)
    assert take["reason"] == "kong" and take["in_order"] is True
    take_count = len(recorded.recorded("take"))
    live = recorded.hand.tracker.live
    put_back(recorded, tail)
    assert recorded.hand.tracker.live == live and tail in recorded.hand.tracker.taken
    assert "a 杠's replacement" in recorded.recorded("warning")[-1]["message"]
    screens = recorded.ports.screens
    assert screens.phases[-1] == "请出牌 ！请取回放回的牌"        # its take stands: take it again
    notes_dropped = screens.notes_dropped
    stack = recorded.hand.ring[tail.ring]
    recorded.flow.on_wall_change(stack, recorded.hand.tracker.stack_tiles(stack))   # taken again: as the hand counts
    assert screens.notes_dropped == notes_dropped + 1 and recorded.hand.tracker.live == live
    assert recorded.recorded("take")[-1]["reason"] == "kong" and len(recorded.recorded("take")) == take_count


def test_the_last_live_tile_put_back_is_drawn_again_and_the_screen_says_so():
    recorded = dealt("hebei")
    draws_to_the_wall_end(recorded)
    last = recorded.hand.tracker.last_drawn()
    assert recorded.hand.last_tile_shown and recorded.ports.screens.phases[-1] == "最后一张"
    put_back(recorded, last)
    assert not recorded.hand.tracker.exhausted and not recorded.hand.last_tile_shown
    assert recorded.ports.screens.phases[-1] == "请出牌"
    assert recorded.draw() == last and recorded.hand.tracker.exhausted


def test_no_take_is_undone_while_a_win_is_checked():
    recorded = dealt()
    slot = recorded.draw()
    recorded.hand.phase = "win_check"
    put_back(recorded, slot)
    assert slot in recorded.hand.tracker.taken
    assert "not in play" in recorded.recorded("warning")[-1]["message"]


def test_a_stack_outside_the_wall_is_warned_about_not_taken_back():
    from rulesets.walls import StackPos
    recorded = dealt()
    recorded.flow.on_wall_change(StackPos(0, 99), 2)
    assert "not part of this wall" in recorded.recorded("warning")[-1]["message"]


def test_two_stacks_taken_out_of_order_are_taken_back_whichever_is_put_back_first():
    """A block of four lifted off the wrong two stacks, put back tile by tile, the first stack first:
    its tiles are not the last taken until the second stack's are back, then both are undone."""
    recorded = dealt()
    live, head = recorded.hand.tracker.live, recorded.hand.tracker.next_head()
    first, second = (recorded.hand.ring[(head.ring + ahead) % len(recorded.hand.ring)] for ahead in (4, 5))
    for stack in (first, first, second, second):
        recorded.flow.on_wall_change(stack, recorded.hand.tracker.stack_tiles(stack) - 1)
    assert recorded.hand.tracker.live == live - 4
    for stack, tiles in ((first, 1), (first, 2)):
        recorded.flow.on_wall_change(stack, tiles)
    assert recorded.ports.screens.phases[-1] == "请出牌 ！请按顺序取牌"        # (not 请取回放回的牌: more are out)
    assert "undone once they are back too" in recorded.recorded("warning")[-1]["message"]
    for stack, tiles in ((second, 1), (second, 2)):
        recorded.flow.on_wall_change(stack, tiles)
    assert recorded.hand.tracker.live == live and len(recorded.recorded("put_back")) == 4
    assert recorded.hand.tracker.next_head() == head
    assert recorded.audit() == []


def sensors_with(recorded: RecordedHand, changes: dict) -> dict[int, tuple[int, ...]]:
    """The wall sensors as the hand counts them, with `changes` (stack → tiles) made unseen."""
    from tests.firmware.test_unseen_takes import sensors_of
    sensors = {side: list(row) for side, row in sensors_of(recorded.hand).items()}
    for stack, tiles in changes.items():
        sensors[stack.wall][stack.stack] = tiles
    return {side: tuple(row) for side, row in sensors.items()}


def wrong_take_then_unseen(recorded: RecordedHand) -> dict[int, tuple[int, ...]]:
    """A tile taken out of order; then, unseen, put back, and the right draw made."""
    tracker = recorded.hand.tracker
    head = tracker.next_head()
    wrong = recorded.hand.ring[(head.ring + 5) % len(recorded.hand.ring)]
    recorded.flow.on_wall_change(wrong, tracker.stack_tiles(wrong) - 1)
    right = recorded.hand.ring[head.ring]
    return sensors_with(recorded, {wrong: tracker.stack_tiles(wrong) + 1, right: tracker.stack_tiles(right) - 1})


def test_a_tile_put_back_while_a_board_was_down_is_taken_back_too():
    """Before, a stack holding more tiles than the hand counted after a board's reboot voided the hand."""
    recorded = dealt()
    live, head = recorded.hand.tracker.live, recorded.hand.tracker.next_head()
    assert recorded.flow.resync(wrong_take_then_unseen(recorded)) is None
    (back,) = recorded.recorded("put_back")
    assert back["unseen"] is True and back["in_order"] is False
    take = recorded.recorded("take")[-1]
    assert (take["ring"], take["layer"], take["in_order"]) == (head.ring, head.layer.value, True)
    assert recorded.hand.tracker.live == live - 1
    assert recorded.audit() == []


def test_a_tile_put_back_while_the_controller_was_stopped_is_taken_back_from_its_journal():
    import json

    from firmware.hand.flow import HandFlow
    from firmware.hand.state import HandState
    from firmware.records.audit import audit_one_hand
    from tests.asyncio_support import run
    from tests.firmware.test_unseen_takes import NOBODY_ACTS

    recorded = dealt()
    live, head = recorded.hand.tracker.live, recorded.hand.tracker.next_head()
    sensors = wrong_take_then_unseen(recorded)
    journaled = HandState.from_json(json.loads(recorded.hand.journal_text()))      # the controller killed
    unseen, problem = journaled.blind_changes(sensors)
    assert problem is None and unseen.put_back == 1
    recorded.hand = journaled
    with pytest.raises(TimeoutError, match=NOBODY_ACTS):
        run(HandFlow(recorded.ports).resume(journaled, totals=(0, 0, 0, 0), cause="restart", blind=unseen), timeout=5)
    assert [e["event"] for e in recorded.events() if e["event"] in ("resumed", "put_back", "take")][-3:] == \
        ["resumed", "put_back", "take"]
    assert journaled.tracker.live == live - 1 and head in journaled.tracker.taken
    recorded.end_as_a_draw()
    assert audit_one_hand(recorded.events()) == []       # (the part after the restart read as another run's)
    moved = [dict(e, ring=e["ring"] + 1) if e["event"] == "put_back" else e for e in recorded.events()]
    assert any("undoes no take" in p for p in audit_one_hand(moved))


def test_a_tile_put_back_unseen_that_no_last_take_explains_still_voids_the_hand():
    recorded = dealt()
    first = recorded.draw()
    recorded.draw()
    stack = recorded.hand.ring[first.ring]
    problem = recorded.flow.resync(sensors_with(recorded, {stack: recorded.hand.tracker.stack_tiles(stack) + 1}))
    assert problem is not None and "this hand had left" in problem


def test_a_take_journaled_before_a_restart_is_undone_when_its_tile_is_put_back_after_it():
    """The journal keeps what undoing the last takes needs: before, a restarted controller could
    undo none, and the take stood (the wall's count a tile short)."""
    import json

    from firmware.hand.state import HandState

    recorded = dealt()
    live, head = recorded.hand.tracker.live, recorded.hand.tracker.next_head()
    wrong = recorded.hand.ring[(head.ring + 5) % len(recorded.hand.ring)]
    recorded.flow.on_wall_change(wrong, recorded.hand.tracker.stack_tiles(wrong) - 1)
    restarted = HandState.from_json(json.loads(recorded.hand.journal_text()))
    assert restarted == recorded.hand
    recorded.flow.hand = recorded.hand = restarted
    recorded.flow.on_wall_change(wrong, restarted.tracker.stack_tiles(wrong) + 1)
    assert restarted.tracker.live == live and recorded.recorded("put_back")


@pytest.mark.parametrize("region_id", ["hebei", "shanghai", "wuhan", "changsha"])
def test_tiles_lifted_anywhere_and_put_back_in_any_order_leave_the_hand_counting_the_wall_as_it_stands(region_id):
    """Before each draw, now and then one to four tiles lifted off any stacks (the head's, the
    tail's, the reserve's) and put back in a shuffled order: at the wall's end the hand counts every
    stack as its sensor does, and 荒庄 came where the twin hand without mistakes has it."""
    import random

    for seed in range(8):
        rng = random.Random(f"{region_id}/{seed}")
        recorded, twin = dealt(region_id), dealt(region_id)
        hand = recorded.hand
        wall = {stack: hand.tracker.stack_tiles(stack) for stack in hand.ring.stacks}     # the sensors
        draws = 0
        while not hand.tracker.exhausted:
            if rng.random() < 0.3:
                lifted = []
                for _ in range(rng.randint(1, 4)):
                    standing = [s for s in hand.ring.stacks if wall[s]]
                    if not standing:                # (the wall's last tiles all in hand)
                        break
                    stack = rng.choice(standing)
                    wall[stack] -= 1
                    recorded.flow.on_wall_change(stack, wall[stack])
                    lifted.append(stack)
                rng.shuffle(lifted)
                for stack in lifted:
                    wall[stack] += 1
                    recorded.flow.on_wall_change(stack, wall[stack])
            stack = hand.ring[hand.tracker.next_head().ring]
            wall[stack] -= 1
            recorded.flow.on_wall_change(stack, wall[stack])
            draws += 1
        assert {s: hand.tracker.stack_tiles(s) for s in hand.ring.stacks} == wall
        assert draws == len(draws_to_the_wall_end(twin))


def test_a_draw_before_play_opens_is_out_of_order_and_undone_when_put_back():
    """A probe at the table (河北): head tiles drawn after the deal while the 混儿 was still to be
    rolled counted as draws, without a word.  Nothing is drawn before 请出牌: the line says so, the
    phase word stays the deal's, and the tile put back is undone."""
    recorded = dealing("hebei")
    while not recorded.hand.deal_complete:
        recorded.draw()
    recorded.hand.phase = "revealing"               # (as the flow has it while the 混儿 is rolled)
    live = recorded.hand.tracker.live
    slot = recorded.draw()
    assert recorded.recorded("take")[-1]["in_order"] is False
    assert recorded.ports.screens.phases[-1] == "请配牌 ！请按顺序取牌"
    put_back(recorded, slot)
    assert recorded.hand.tracker.live == live and slot not in recorded.hand.tracker.taken
    recorded.hand.phase = "playing"
    assert recorded.draw() == slot and recorded.recorded("take")[-1]["in_order"] is True


def test_a_tile_taken_astray_put_down_on_another_stack_and_lifted_off_it_again_is_said():
    """A probe at the table (武汉): a tile taken three stacks ahead (请按顺序取牌) was put down on the
    head stack, and the next drawer lifted it off from there.  The note went down and nothing was
    recorded: the take out of order stood unsaid.  The recorder now says it stands."""
    recorded = dealt("wuhan")
    head = recorded.hand.tracker.next_head()
    (take,) = recorded.take(Slot((head.ring + 3) % len(recorded.hand.ring), Layer.TOP))
    assert take["in_order"] is False
    stack = recorded.hand.ring[head.ring]
    counted = recorded.hand.tracker.stack_tiles(stack)
    recorded.flow.on_wall_change(stack, counted + 1)        # put down on the head stack
    assert recorded.hand.tiles_put_back_stand
    recorded.flow.on_wall_change(stack, counted)            # lifted off it again
    assert "stands" in recorded.recorded("warning")[-1]["message"]
    assert not recorded.hand.tiles_put_back_stand and recorded.hand.tracker.live == take["live"]
