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
    entered = run(WinCheck(ports)._manual_entry(hand, 1, frozenset()), timeout=5)
    return entered, ports.screens.lines[1]


def test_a_long_left_takes_back_the_last_tile_entered():
    confirm, right, undo = Press(1, Key.CONFIRM), Press(1, Key.RIGHT), Press(1, Key.LEFT, long=True)
    entered, lines = enter([confirm, confirm, undo, right, confirm, Press(1, Key.HU)])
    assert entered == [Tile.M1, Tile.M2]
    assert lines[:4] == [f"{ENTRY}:一万 0", f"{ENTRY}:一万 1", f"{ENTRY}:一万 2", f"{ENTRY}:一万 1"]


def test_a_long_left_with_nothing_entered_takes_nothing():
    entered, lines = enter([Press(1, Key.LEFT, long=True), Press(1, Key.CONFIRM), Press(1, Key.HU)])
    assert entered == [Tile.M1]


class Scripted(FakePorts):
    """Presses its script's keys one at a time, as the table waits for each (the key queue keeps
    no more than eight presses of one key)."""

    def __init__(self, ruleset, script: list[Press]) -> None:
        super().__init__(ruleset)
        self.script = script

    async def next_key(self, panels, keys) -> Press:
        if self.script:
            self.keys.put(self.script.pop(0))
        return await super().next_key(panels, keys)


def offered_kinds(region: str, seat: int = 1) -> list[str]:
    """Every kind the entry offers, going once round with ▶ (each prompt names the kind under it)."""
    hand = built_hand(get_region(region).resolve(), {})
    script = [Press(seat, Key.RIGHT)] * len(hand.ruleset.tiles.kinds) + [Press(seat, Key.HU)]
    ports = Scripted(hand.ruleset, script)
    bonus = hand.ruleset.flowers.kinds_for(hand.wilds_for(seat))
    run(WinCheck(ports)._manual_entry(hand, seat, bonus), timeout=5)
    return [line.split(":")[1].split()[0] for line in ports.screens.lines[seat]]


def test_a_tile_set_aside_as_a_bonus_is_not_offered():
    # 钻牌: 发 is shown and replaced (a flower); entered as held it was a 杠牌 in the hand, its win a 诈胡,
    # and the zone's reads counted it as a shown 发 too
    offered = offered_kinds("zuanpai")
    assert Tile.parse("6z").zh not in offered and Tile.parse("5z").zh in offered
    # 上海's flowers stay out of the entry, as before
    assert not any(Tile.parse(f"{n}f").zh in offered_kinds("shanghai") for n in range(1, 9))
