"""Takes made while the controller was not watching (a restart, a board that rebooted), read back
from the wall sensors, which say only how many tiles each stack still holds.

The situation of campaign seed 30088 (沈阳, docs/reliability.md), built on purpose: seat 1 shows
东南西北 (a 过杠 owing one replacement from the tail) and the controller is killed before the
replacement is taken.  The players play on: seat 1 takes its replacement, the head is drawn, seats
2 and 3 each press 杠 and take a tail tile.  The board sends the two 杠 again to the restarted
controller; the sensors show the rest.
"""

from __future__ import annotations

import pytest

from drivers.table_ui import Key
from firmware.hand.flow import HandFlow
from firmware.hand.ports import Press
from firmware.hand.state import HandState
from tests.asyncio_support import run
from tests.firmware.fake_ports import FakePorts
from tests.firmware.test_asked_facts import take_tail_tile
from tests.firmware.test_liang_and_la_zhuang import dealt_shenyang, take_head

NOBODY_ACTS = "nobody at the table|was written down"      # FakePorts: the acts are done, the table waits
HEAD_DRAWS = 6


def killed_owing_a_replacement() -> HandState:
    """The hand as journaled: seat 1's 东南西北 accepted, its replacement owed."""
    hand = dealt_shenyang(s1="1234z123m456p78s")
    take_head(hand, 1)
    hand.phase = "playing"
    hand.facts.liang.append([1, "东南西北", ["1z", "2z", "3z", "4z"]])
    hand.tracker.owe_special(1, 1, counted=True)
    return hand


def played_on_blind(journaled: HandState, kong_seats: tuple[int, ...] = (2, 3)) -> dict[int, tuple[int, ...]]:
    """What the wall sensors read once the players played on unseen: the replacement still owed (if
    any), the head's draws, a tail tile for each seat's 杠."""
    table = HandState.from_json(journaled.to_json())
    while table.tracker.special_owed:
        take_tail_tile(table)
    take_head(table, HEAD_DRAWS)
    for seat in kong_seats:
        table.pending_kong[seat] = False
        take_tail_tile(table)
    return sensors_of(table)


def sensors_of(table: HandState) -> dict[int, tuple[int, ...]]:
    """Each side's stacks, in the side's own order, as its wall sensors count them."""
    sides: dict[int, dict[int, int]] = {}
    for pos in table.ring.stacks:
        sides.setdefault(pos.wall, {})[pos.stack] = table.tracker.stack_tiles(pos)
    return {side: tuple(stacks[k] for k in sorted(stacks)) for side, stacks in sides.items()}


def restarted(hand: HandState, sensors: dict[int, tuple[int, ...]]) -> FakePorts:
    ports = FakePorts(hand.ruleset)
    for seat in (2, 3):
        ports.keys.put(Press(seat, Key.KONG))               # sent again by the motor board
    unseen, problem = hand.blind_changes(sensors)
    assert problem is None
    with pytest.raises(TimeoutError, match=NOBODY_ACTS):   # play goes on: nobody acts any more
        run(HandFlow(ports).resume(hand, totals=(0, 0, 0, 0), cause="restart", blind=unseen), timeout=5)
    return ports


def test_the_replacement_owed_at_the_restart_is_taken_first_and_the_kongs_get_their_own():
    hand = killed_owing_a_replacement()
    tail_before = hand.tracker.next_tail()
    ports = restarted(hand, played_on_blind(hand))
    takes = ports.recorder.all("take")
    assert [(t["end"], t["reason"]) for t in takes] == \
        [("tail", "kong")] + [("head", "draw")] * HEAD_DRAWS + [("tail", "kong")] * 2
    assert (takes[0]["ring"], takes[0]["layer"]) == (tail_before.ring, tail_before.layer.value)
    assert all(t["in_order"] for t in takes)                 # the tail's takes in the tail's own order
    assert hand.tracker.special_owed == 0 and hand.pending_kong == {}
    assert hand.kongs == {2: [False], 3: [False]}              # the 过杠's replacement is no seat's 杠
    kongs_declared = [i for i, e in enumerate(ports.recorder.events) if e["event"] == "kong_declared"]
    first_take = next(i for i, e in enumerate(ports.recorder.events) if e["event"] == "take")
    assert first_take < min(kongs_declared)                   # taken before the keys sent again


def test_with_nothing_owed_the_head_is_followed_before_the_tail_in_its_own_order():
    """No replacement owed at the restart: every unseen tail take follows the head's, in the tail's
    order (the tail runs backwards round the ring: ordering its stacks from the head would take the
    second tail stack first, out of order)."""
    hand = killed_owing_a_replacement()
    take_tail_tile(hand)                                        # the 过杠's replacement, seen
    tail = hand.tracker.next_tail()                             # the bottom tile of the tail's first stack
    sensors = played_on_blind(hand, kong_seats=(2, 3, 0))
    unseen, problem = hand.blind_changes(sensors)
    assert problem is None and unseen.owed == ()
    takes = [take for pos, tiles in unseen.rest for take in hand.on_wall_change(pos, tiles, in_sequence=False)]
    assert [(t.end.value, t.reason) for t in takes] == [("head", "draw")] * HEAD_DRAWS + [("tail", "kong")] * 3
    assert all(t.in_order for t in takes)
    assert [t.slot.ring for t in takes[HEAD_DRAWS:]] == [tail.ring, tail.ring - 1, tail.ring - 1]   # backwards



def test_takes_read_back_after_a_motor_reboot_leave_its_note_up_and_takes_seen_live_take_it_down():
    """Campaign 350002 (东北): a 胡 lost with a rebooted motor board.  The table says 已重启 未应答的键请再按,
    but the draws made while the board was down, read back from its sensors at once, counted as
    "play went on" and took the note down in the same moment — behind a display cut, so nobody ever
    saw it, the 胡 was never pressed again, and the table waited at 请出牌.  Only a take the board
    reports as it happens says the note was read."""
    hand = dealt_shenyang(s1="1234z123m456p78s")
    hand.phase = "playing"
    ports = FakePorts(hand.ruleset)
    flow = HandFlow(ports)
    flow.hand = hand
    table = HandState.from_json(hand.to_json())
    take_head(table, 3)                                        # drawn while the board was down
    assert flow.resync(sensors_of(table)) is None
    assert [t["reason"] for t in ports.recorder.all("take")] == ["draw"] * 3
    assert ports.screens.notes_dropped == 0
    slot = hand.tracker.next_head()                            # the next draw, reported as it happens
    stack = hand.ring[slot.ring]
    flow.on_wall_change(stack, hand.tracker.stack_tiles(stack) - 1)
    assert ports.screens.notes_dropped == 1


def test_takes_read_back_from_the_sensors_say_so_and_name_nobody_as_the_last_to_draw():
    """Their order against the 杠 sent again is a guess (campaign 650005, 河北: a kong's replacement
    reconstructed after the head's draws made another seat's self-drawn win look impossible)."""
    hand = killed_owing_a_replacement()
    ports = restarted(hand, played_on_blind(hand))
    assert all(t.get("unseen") for t in ports.recorder.all("take"))
    assert hand.replaced_for is None
