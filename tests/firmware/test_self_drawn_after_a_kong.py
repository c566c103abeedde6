"""The 点炮 question offers only what can be true.

Right after a kong's replacement only the kong's maker can have drawn: another seat's 胡 is on a
discard, and the win check does not offer him 自摸 (campaign 590001, 吉林: seat 3 made a kong, seat 0
won on its discard, a bounced ▶ confirmed 自摸, and everyone paid a self-drawn win with 杠上开花's
facts).  Any other take leaves every answer open: who drew from the head depends on claims (碰, 吃)
the table does not see.  A seat out of play (血战) is never the discarder."""

from drivers.table_ui import SELF_DRAWN, WIN_FROM, Key
from firmware.hand.ports import Press
from firmware.hand.state import HandState
from firmware.hand.win_check import WinCheck
from tests.asyncio_support import run
from tests.firmware.fake_ports import FakePorts
from tests.firmware.test_won_already import a_hand


def choices_offered(hand: HandState, seat: int) -> tuple[list[str], int | None]:
    """The first 点炮 line shown to `seat`, and his answer when he confirms it at once."""
    ports = FakePorts(hand.ruleset)
    ports.keys.put(Press(seat, Key.CONFIRM))
    answer = run(WinCheck(ports)._ask_discarder(hand, seat), timeout=5)
    return ports.screens.lines[seat][0], answer


def after_a_kong_by(seat: int) -> HandState:
    hand, ring = a_hand("jilin")
    hand.on_wall_change(ring[0], 0)                 # two tiles dealt from the head
    hand.pending_kong[seat] = False                 # 杠 pressed: the next tail take is its replacement
    hand.on_wall_change(ring.tail, 1)
    return hand


def test_another_seat_is_not_offered_self_drawn_after_a_kong_replacement():
    hand = after_a_kong_by(3)
    assert hand.replaced_for == 3
    line, answer = choices_offered(hand, 0)
    assert line.startswith(f"{WIN_FROM}:") and SELF_DRAWN not in line
    assert answer == 1                              # the first choice now: 下家


def test_the_kong_maker_is_offered_self_drawn_first():
    line, answer = choices_offered(after_a_kong_by(3), 3)
    assert line == f"{WIN_FROM}:{SELF_DRAWN}" and answer is None


def test_after_a_draw_from_the_head_every_seat_may_answer_self_drawn():
    hand = after_a_kong_by(3)
    hand.on_wall_change(hand.ring[1], 1)            # the next draw: whoever's turn it was
    assert hand.replaced_for is None
    line, answer = choices_offered(hand, 0)
    assert line == f"{WIN_FROM}:{SELF_DRAWN}" and answer is None


def test_the_kong_maker_is_known_across_a_restart():
    hand = after_a_kong_by(2)
    assert HandState.from_json(hand.to_json()).replaced_for == 2


def test_a_seat_out_of_play_is_not_offered_as_the_discarder():
    """血战: a seat that won discards no more, so no later win is on its discard."""
    hand, _ = a_hand("sichuan")
    hand.out_of_play.add(1)
    ports = FakePorts(hand.ruleset)
    ports.keys.put(Press(0, Key.RIGHT))
    ports.keys.put(Press(0, Key.CONFIRM))
    answer = run(WinCheck(ports)._ask_discarder(hand, 0), timeout=5)
    assert answer == 2                              # 自摸 → ▶ → 对家: 下家 (seat 1) is not among the choices
    assert not any("下家" in line for line in ports.screens.lines[0])


def test_a_kong_pressed_by_mistake_lapses_at_the_next_draw():
    """A 杠 nobody followed with a replacement stayed pending all hand, and the next real kong's
    replacement was credited to that seat (its kong points, and now its 自摸): a kong's maker takes
    the replacement at once, so a draw from the head first lapses it."""
    hand, ring = a_hand("jilin")
    hand.on_wall_change(ring[0], 0)                 # two tiles dealt from the head
    hand.pending_kong[1] = False                    # seat 1's 杠, pressed by mistake
    hand.on_wall_change(ring[1], 1)                 # the next draw, from the head
    assert hand.pending_kong == {} and hand.kongs_lapsed == [1]
    hand.pending_kong[3] = False                    # seat 3's kong, its replacement from the tail
    hand.on_wall_change(ring.tail, 1)
    assert hand.kongs == {3: [False]} and hand.replaced_for == 3 and hand.kongs_lapsed == []


def test_no_seat_is_offered_self_drawn_on_a_tile_drawn_into_the_reserve():
    """A probe at the table (长春): 胡 after a draw past 最后一张 offered 自摸 on a tile of the dead wall."""
    from tests.firmware.test_tile_put_back import dealt, draws_to_the_wall_end
    recorded = dealt("hebei")
    draws_to_the_wall_end(recorded)
    line, _ = choices_offered(recorded.hand, 2)
    assert line == f"{WIN_FROM}:{SELF_DRAWN}"       # the last live tile: its drawer may win on it
    recorded.draw()                                 # one more, from the reserve
    line, _ = choices_offered(recorded.hand, 2)
    assert line.startswith(f"{WIN_FROM}:") and SELF_DRAWN not in line
