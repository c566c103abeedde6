"""Entering a hand by hand (`录入`, when the read zone cannot read it): a 确认 pressed twice entered
the tile twice, and nothing took it back — the hand, judged as entered, was a 诈胡 the player could
see coming on his line (the count) and not prevent. A long press of ◀ takes the last tile back."""

from drivers.table_ui import ENTRY, Key
from firmware.hand.ports import Press
from firmware.hand.win_check import WinCheck
from rulesets.regions import get_region
from rulesets.tiles import Tile
from tests.asyncio_support import run
from tests.firmware.fake_ports import FakePorts
from tests.firmware.test_asked_facts import built_hand


def enter(presses: list[Press]) -> tuple[list[Tile], list[str]]:
    hand = built_hand(get_region("dongbei").resolve(), {})
    ports = FakePorts(hand.ruleset)
    for press in presses:
        ports.keys.put(press)
    entered = run(WinCheck(ports)._manual_entry(hand, 1), timeout=5)
    return entered, ports.screens.lines[1]


def test_a_long_left_takes_back_the_last_tile_entered():
    confirm, right, undo = Press(1, Key.CONFIRM), Press(1, Key.RIGHT), Press(1, Key.LEFT, long=True)
    entered, lines = enter([confirm, confirm, undo, right, confirm, Press(1, Key.HU)])
    assert entered == [Tile.M1, Tile.M2]
    assert lines[:4] == [f"{ENTRY}:一万 0", f"{ENTRY}:一万 1", f"{ENTRY}:一万 2", f"{ENTRY}:一万 1"]


def test_a_long_left_with_nothing_entered_takes_nothing():
    entered, lines = enter([Press(1, Key.LEFT, long=True), Press(1, Key.CONFIRM), Press(1, Key.HU)])
    assert entered == [Tile.M1]
