"""A tail tile taken with no 杠 pressed (a person who took the replacement first, or took from the
wrong end).  Before, the take was "in order": no note, a kong counted for the reserve and credited to
nobody.  Put back after other draws, its take stood (！请取回放回的牌); a seat that then pressed 杠 and
took that very tile again was read as taking the put-back tile again: no take, the 杠 lapsed at the
next head draw, and the kong was never paid.  Now the take is out of order at once (请按顺序取牌,
while putting it back can still undo it), and the tile taken again with a 杠 pending is that kong's
replacement (`kong_credited`), in the hand, its journal and the audit alike."""

from __future__ import annotations

import json

from drivers.table_ui import Key
from firmware.hand.ports import Press
from firmware.hand.state import HandState
from firmware.records.audit_wins import LogFacts
from tests.firmware.test_tile_put_back import dealt, put_back, sensors_with

SEAT = 1


def take_tail_unasked(recorded):
    """A tail tile taken while nothing is owed; its slot and the take's event."""
    tail = recorded.hand.tracker.next_tail()
    (take,) = recorded.take(tail)
    return tail, take


def press_kong(recorded, seat: int = SEAT) -> None:
    assert recorded.flow.on_key(Press(seat, Key.KONG))


def take_again(recorded, slot) -> None:
    """The tile put back on `slot`'s stack lifted off again: the stack reads as the hand counts it."""
    stack = recorded.hand.ring[slot.ring]
    recorded.flow.on_wall_change(stack, recorded.hand.tracker.stack_tiles(stack))


def kongs_the_log_shows(recorded) -> dict[int, list[bool]]:
    facts = LogFacts()
    for event in recorded.events():
        facts.see(event)
    return facts.kongs


def test_a_tail_tile_taken_with_no_kong_pressed_is_out_of_order_at_once():
    recorded = dealt("hebei")
    live = recorded.hand.tracker.live
    tail, take = take_tail_unasked(recorded)
    assert take["end"] == "tail" and take["in_order"] is False
    assert recorded.ports.screens.phases[-1] == "请出牌 ！请按顺序取牌"
    put_back(recorded, tail)                        # heeded at once: undone, as if never taken
    assert recorded.hand.tracker.live == live and tail not in recorded.hand.tracker.taken
    press_kong(recorded)
    (again,) = recorded.take(tail)                  # now the 杠's replacement, in order
    assert again["in_order"] is True and recorded.hand.kongs == {SEAT: [False]}
    assert recorded.audit() == []


def test_the_tile_put_back_too_late_and_taken_again_after_a_kong_press_is_that_kong_s_replacement():
    recorded = dealt("hebei")
    tail, _ = take_tail_unasked(recorded)
    recorded.draw(), recorded.draw()                # play went on: the take can no longer be undone
    put_back(recorded, tail)
    assert "its take stands" in recorded.recorded("warning")[-1]["message"]
    assert recorded.ports.screens.phases[-1] == "请出牌 ！请取回放回的牌"
    press_kong(recorded)
    take_again(recorded, tail)
    (credited,) = recorded.recorded("kong_credited")
    assert (credited["seat"], credited["concealed"], credited["ring"], credited["layer"]) == \
        (SEAT, False, tail.ring, tail.layer.value)
    assert recorded.hand.kongs == {SEAT: [False]} and not recorded.hand.pending_kong
    assert recorded.hand.replaced_for == SEAT       # nobody else may win self-drawn on it
    recorded.draw()                                 # the next seat draws: nothing lapses
    assert not recorded.recorded("kong_lapsed") and recorded.hand.kongs == {SEAT: [False]}
    assert kongs_the_log_shows(recorded) == recorded.hand.kongs
    assert recorded.audit() == []


def test_a_kong_credited_once_whatever_the_tile_does_after():
    recorded = dealt("hebei")
    tail, _ = take_tail_unasked(recorded)
    recorded.draw(), recorded.draw()
    put_back(recorded, tail)
    press_kong(recorded)
    take_again(recorded, tail)
    put_back(recorded, tail)                        # put back and taken again once more, a 杠 pending again
    press_kong(recorded, 2)
    take_again(recorded, tail)
    assert len(recorded.recorded("kong_credited")) == 1 and recorded.hand.kongs == {SEAT: [False]}
    assert recorded.hand.pending_kong == {2: False}     # its own replacement is still to come from the tail


def test_without_a_kong_press_the_tile_taken_again_credits_nobody():
    recorded = dealt("hebei")
    tail, _ = take_tail_unasked(recorded)
    recorded.draw(), recorded.draw()
    put_back(recorded, tail)
    take_again(recorded, tail)
    assert not recorded.recorded("kong_credited") and recorded.hand.kongs == {}
    assert recorded.ports.screens.notes_dropped     # the note asking for it again is taken down


def test_a_restart_between_the_put_back_and_the_kong_keeps_the_take_unclaimed():
    recorded = dealt("hebei")
    tail, _ = take_tail_unasked(recorded)
    recorded.draw(), recorded.draw()
    put_back(recorded, tail)
    restarted = HandState.from_json(json.loads(recorded.hand.journal_text()))     # the controller killed
    assert json.loads(restarted.journal_text())["unclaimed_kongs"] == [[tail.ring, tail.layer.value]]
    recorded.flow.hand = recorded.hand = restarted
    press_kong(recorded)
    take_again(recorded, tail)
    assert recorded.hand.kongs == {SEAT: [False]} and recorded.recorded("kong_credited")


def test_a_tail_take_read_back_after_nobody_watched_stays_in_order():
    """Its 杠 may have been pressed blind, its key sent after it (docs/controller.md): not a mistake."""
    recorded = dealt("hebei")
    stack = recorded.hand.ring[recorded.hand.tracker.next_tail().ring]
    assert recorded.flow.resync(sensors_with(recorded, {stack: recorded.hand.tracker.stack_tiles(stack) - 1})) is None
    take = recorded.recorded("take")[-1]
    assert take["end"] == "tail" and take["in_order"] is True and take["unseen"] is True


def test_of_two_seats_pressing_kong_the_later_takes_the_replacement_and_the_earlier_lapses_at_once():
    """A probe at the table (长春): seat 1 pressed 杠 by mistake, seat 2 pressed 杠 and took its
    replacement; the kong went to seat 1 and was paid to it at 荒庄, seat 2's lapsed, nothing said.
    One replacement is taken at a time, so a 杠 still pending when another seat presses is the
    mistake: it lapses then, said (`kong_lapsed` with `by`), and the kong is the later seat's."""
    recorded = dealt("hebei")
    press_kong(recorded, 1)
    press_kong(recorded, 2)
    (lapsed,) = recorded.recorded("kong_lapsed")
    assert (lapsed["seat"], lapsed["by"]) == (1, 2)
    (take,) = recorded.take(recorded.hand.tracker.next_tail())
    assert take["in_order"] is True and recorded.hand.kongs == {2: [False]}
    assert kongs_the_log_shows(recorded) == recorded.hand.kongs
    assert recorded.audit() == []


def test_a_seat_pressing_kong_twice_keeps_one_pending_kong():
    recorded = dealt("hebei")
    press_kong(recorded, 1)
    press_kong(recorded, 1)
    assert not recorded.recorded("kong_lapsed") and recorded.hand.pending_kong == {1: False}


def test_a_draw_into_the_reserve_is_out_of_order_and_no_one_wins_self_drawn_on_it():
    """A probe at the table (长春): a tile drawn at the head after 最后一张 was recorded in order, the
    screen still said 最后一张, and 胡 offered 自摸 on a tile of the dead wall.  Now it is out of order
    (请按顺序取牌): put back, the wall is as it was; kept, no 自摸 is offered on it."""
    from tests.firmware.test_tile_put_back import draws_to_the_wall_end
    recorded = dealt("hebei")
    draws_to_the_wall_end(recorded)
    assert not recorded.hand.last_take_astray
    slot = recorded.draw()
    take = recorded.recorded("take")[-1]
    assert take["in_order"] is False and take["live"] == 0
    assert recorded.ports.screens.phases[-1] == "最后一张 ！请按顺序取牌"
    assert recorded.hand.last_take_astray
    put_back(recorded, slot)
    assert slot not in recorded.hand.tracker.taken and not recorded.hand.last_take_astray
    assert recorded.audit() == []


def kongs_the_audit_reads(recorded) -> dict[int, list[bool]]:
    """The kongs the audit's reading of the hand shows (takes put back at once, gone with what they did)."""
    from firmware.records.stream import recorder_from_events, split_hands
    (hand,) = split_hands([recorder_from_events("events.jsonl", recorded.events())]).hands
    facts = LogFacts()
    for event in hand.events:
        facts.see(event)
    return facts.kongs


def test_a_head_draw_made_by_the_kong_s_maker_and_put_straight_back_leaves_the_kong_standing():
    """A probe at the table (长春): 杠 pressed, the head tile taken by mistake and put straight back:
    the take stood ("a 杠 lapsed at it", 请取回放回的牌 asking for the wrong tile again), the tail tile
    then credited nobody and the kong was never paid.  The draw is undone and the 杠 stands again."""
    recorded = dealt("hebei")
    press_kong(recorded, 2)
    slot = recorded.draw()
    assert recorded.recorded("kong_lapsed")[-1]["seat"] == 2 and not recorded.hand.pending_kong
    put_back(recorded, slot)
    assert recorded.recorded("put_back") and not recorded.recorded("warning")
    assert recorded.hand.pending_kong == {2: False} and slot not in recorded.hand.tracker.taken
    (take,) = recorded.take(recorded.hand.tracker.next_tail())
    assert take["in_order"] is True and recorded.hand.kongs == {2: [False]}
    assert not recorded.recorded("kong_credited")
    assert kongs_the_audit_reads(recorded) == recorded.hand.kongs
    restarted = HandState.from_json(json.loads(recorded.hand.journal_text()))
    assert restarted == recorded.hand
    assert recorded.audit() == []


def test_the_lapsed_kong_comes_back_with_its_put_back_across_a_restart():
    recorded = dealt("hebei")
    press_kong(recorded, 2)
    slot = recorded.draw()
    restarted = HandState.from_json(json.loads(recorded.hand.journal_text()))     # killed after the draw
    recorded.flow.hand = recorded.hand = restarted
    put_back(recorded, slot)
    assert restarted.pending_kong == {2: False} and slot not in restarted.tracker.taken


def test_a_kong_pressed_just_after_its_replacement_was_taken_is_credited_at_once():
    """A probe at the table (武汉): the replacement taken first and 杠 pressed while holding it, a very
    common order at a real table.  The take stayed out of order, the 杠 lapsed at the next head draw
    without a word, and the kong was never paid.  Pressed right after it, the tail take is the kong's
    replacement: credited (`kong_credited`), the note taken down, and a put-back then stands."""
    recorded = dealt("hebei")
    tail, take = take_tail_unasked(recorded)
    assert take["in_order"] is False
    press_kong(recorded, 2)
    (credited,) = recorded.recorded("kong_credited")
    assert (credited["seat"], credited["ring"], credited["layer"]) == (2, tail.ring, tail.layer.value)
    assert recorded.hand.kongs == {2: [False]} and not recorded.hand.pending_kong
    assert recorded.hand.replaced_for == 2          # a 杠上开花 on it is the seat's
    assert recorded.ports.screens.notes_dropped
    recorded.draw()                                 # the next seat draws: nothing lapses
    assert not recorded.recorded("kong_lapsed") and recorded.hand.kongs == {2: [False]}
    assert kongs_the_log_shows(recorded) == recorded.hand.kongs
    assert recorded.audit() == []


def test_a_credited_replacement_put_back_stands_as_any_replacement_does():
    recorded = dealt("hebei")
    tail, _ = take_tail_unasked(recorded)
    press_kong(recorded, 2)
    put_back(recorded, tail)
    assert "its take stands" in recorded.recorded("warning")[-1]["message"]
    assert tail in recorded.hand.tracker.taken and recorded.hand.kongs == {2: [False]}


def test_a_kong_pressed_after_a_head_draw_claims_no_earlier_tail_take():
    recorded = dealt("hebei")
    take_tail_unasked(recorded)
    recorded.draw()                                 # not the last take any more: nothing to claim
    press_kong(recorded, 2)
    assert not recorded.recorded("kong_credited") and recorded.hand.pending_kong == {2: False}


def test_no_self_drawn_win_is_offered_on_a_tile_taken_out_of_order_but_on_a_credited_replacement():
    """A probe at the table (云南, 广东鸡胡, 长沙): a tile lifted from the wrong place, then 胡 — the check
    offered 自摸 on it.  Not on a take out of order; yes on one a 杠 pressed after it claimed."""
    from firmware.hand.win_check import WinCheck
    from tests.asyncio_support import run
    from tests.firmware.fake_ports import FakePorts

    def first_offered(recorded, seat: int):
        ports = FakePorts(recorded.hand.ruleset, [(seat, Key.CONFIRM)])
        return run(WinCheck(ports)._ask_discarder(recorded.hand, seat), timeout=5)

    recorded = dealt("hebei")
    take_tail_unasked(recorded)
    assert recorded.hand.last_take_astray and first_offered(recorded, 2) is not None     # 自摸 not offered
    press_kong(recorded, 2)                         # the replacement taken first, 杠 pressed after it
    assert first_offered(recorded, 2) is None       # 杠上开花 is the seat's
    assert first_offered(recorded, 3) is not None
