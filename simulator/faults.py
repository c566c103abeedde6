"""Fault settings of one simulated table, and the `--fault` vocabulary.

Every fault can be switched by option (`parse_fault`, used by `mahjong-table sim --fault …`), by
the simulator process's control channel (`SimulatedTable.inject_fault` / `clear_fault`, which
also act at once: a reboot scheduled on the table clock, a hatch forced open, tiles taken out)
and by API (the `SimulatedTable` methods, or these settings objects directly).  Settings belong
to one table: two tables in one process never share them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Iterable

DEVICES = ("motor", "rfid", "display")
FRAMED = ("motor", "rfid")
MOTOR_NAMES = ("mixer", "lane0", "lane1", "lane2", "lane3", "side_lift0", "side_lift1",
               "side_lift2", "side_lift3", "centre_lift", "dice")
WIRE_FAULTS = ("corrupt", "drop", "duplicate", "delay")
READ_FAULTS = ("missed_read", "doubled_read", "foreign_tag")
PANEL_FAULTS = ("key_bounce",)
PLAYER_FAULTS = ("wrong_stack",)        # a person's mistake: the simulated players make it (players/mistakes.py)
CHANCE_FAULTS = (*READ_FAULTS, *PANEL_FAULTS, *PLAYER_FAULTS)     # a probability each
TILE_FAULTS = {"missing_tile": "missing_tiles", "extra_tile": "extra_tiles", "duplicate_tag": "duplicate_tags"}
DEVICE_FAULTS = (*WIRE_FAULTS, "silent", "reset")      # the only faults a DEVICE: prefix may name
FAULT_NAMES = (*WIRE_FAULTS, "silent", "reset", "jam", "hatch_open", "overcurrent", "overtemp",
               "dice_stall", *CHANCE_FAULTS, *TILE_FAULTS)


@dataclass
class WireFaults:
    """Faults on one device's serial wire, applied per frame, in both directions."""

    corrupt: float = 0.0      # probability a frame gets a flipped bit
    drop: float = 0.0         # probability a frame is lost
    duplicate: float = 0.0    # probability a frame arrives twice
    delay: float = 0.0        # probability the wire stalls before a frame (board → host only)
    delay_ms: float = 40.0    # how long a stall lasts (everything behind it waits: order kept)
    silent: bool = False      # the wire is dead both ways (cable cut / board hung)


@dataclass
class TableFaults:
    """Everything that can go wrong, for one table."""

    wire: dict[str, WireFaults] = field(default_factory=lambda: {d: WireFaults() for d in DEVICES})
    jams: dict[int, int] = field(default_factory=dict)        # lane -> pushes before it jams
    overcurrent: set[int] = field(default_factory=set)        # motors that trip when next run
    overheated: bool = False                                  # thermal protection active
    hatch_open: bool = False                                  # start with the hatch open
    dice_stall: bool = False                                  # the dice motor stalls
    missed_read: float = 0.0                                  # per head read / zone tag
    doubled_read: float = 0.0                                 # previous tile read again
    foreign_tag: float = 0.0                                  # a stray tag joins a read
    key_bounce: float = 0.0                                   # a key press reported twice (a chattering switch, a double press)
    wrong_stack: float = 0.0                                  # per draw: a tile lifted off the wrong stack first, then put back
    missing_tiles: int = 0                                    # tiles lost at start
    extra_tiles: int = 0                                      # stray tiles added at start
    duplicate_tags: int = 0                                   # tiles given another tile's UID
    reset_after: dict[str, float] = field(default_factory=dict)  # device -> table seconds to a reboot


FAULT_HELP = (
    "faults: [DEVICE:]corrupt|drop|duplicate|delay[=P] (P per frame, default 0.05; DEVICE = "
    "motor, rfid or display; default motor and rfid; delay stalls the board-to-host direction "
    "40 ms), [DEVICE:]silent, [DEVICE:]reset=SECONDS (a reboot after SECONDS of table time; "
    "display too), jam=LANE[:PUSHES], hatch_open, overcurrent=MOTOR, overtemp, dice_stall, "
    "missed_read|doubled_read|foreign_tag[=P], key_bounce[=P] (a key press reported twice), "
    "wrong_stack[=P] (a player lifts a tile off the wrong stack before a draw and puts it back), "
    "missing_tile|extra_tile|duplicate_tag[=N]")


@dataclass(frozen=True)
class FaultItem:
    """One `--fault` item, read: `name` from FAULT_NAMES, the devices it applies to, its value
    (None when the item has none, or when a clear names no value)."""

    name: str
    devices: tuple[str, ...]
    value: float | int | tuple[int, int] | None


def parse_faults(texts: Iterable[str]) -> TableFaults:
    """A table's fault settings from `--fault` items; ValueError (one line) on a bad one, or on a
    setting two items give (the last was taken without a word: `corrupt=0.01` then `corrupt=0.05`)."""
    faults = TableFaults()
    given: dict[str, str] = {}                  # a setting → the item that gave it
    for text in texts:
        item = parse_fault(text, faults)
        for setting, said in _settings(item):
            if setting in given:
                raise ValueError(f"{text!r} gives {said} again ({given[setting]!r} gave it): give each fault once")
            given[setting] = text
    return faults


def _settings(item: FaultItem) -> list[tuple[str, str]]:
    """The settings one item gives, each with how to say it: a device's wire fault, a lane's jam and
    a motor's overcurrent are each a setting of their own (`jam=1` and `jam=2` are two jams)."""
    if item.name in DEVICE_FAULTS:
        return [(f"{device}:{item.name}", f"{item.name} on the {device} wire" if item.name != "reset"
                 else f"the {device}'s reset") for device in item.devices]
    if item.name == "jam":
        lane = item.value[0]  # type: ignore[index]
        return [(f"jam:{lane}", f"a jam of lane {lane}")]
    if item.name == "overcurrent":
        return [(f"overcurrent:{item.value}", f"an overcurrent of {MOTOR_NAMES[item.value]}")]  # type: ignore[index]
    return [(item.name, item.name)]


def parse_fault(text: str, faults: TableFaults) -> FaultItem:
    """Apply one `--fault` item to `faults`; ValueError (one line, with the vocabulary) if bad."""
    item = read_fault(text)
    apply_fault(item, faults)
    return item


def read_fault(text: str, *, clearing: bool = False) -> FaultItem:
    """Read one item; `clearing` allows leaving out a value (clear every lane, motor, …)."""
    spec = text.strip()
    devices: tuple[str, ...] = FRAMED
    prefixed = ":" in spec.split("=", 1)[0]
    if prefixed:
        device, spec = spec.split(":", 1)
        if device not in DEVICES:
            raise ValueError(f"unknown device {device!r} in fault {text!r}; devices: {', '.join(DEVICES)}")
        devices = (device,)
    name, has_value, value = spec.partition("=")
    name = name.strip().replace("-", "_")
    if name not in FAULT_NAMES:
        raise ValueError(f"unknown fault {text!r}; {FAULT_HELP}")
    if prefixed and name not in DEVICE_FAULTS:
        raise ValueError(f"fault {text!r}: {name} takes no DEVICE (only {', '.join(DEVICE_FAULTS)} do); "
                         f"write it without {devices[0] + ':'!r}")
    if clearing and not has_value:
        return FaultItem(name, devices, None)
    try:
        return FaultItem(name, devices, _value(name, value if has_value else None))
    except ValueError as error:
        detail = f" ({error})" if str(error) else ""
        raise ValueError(f"bad value in fault {text!r}{detail}; {FAULT_HELP}") from None


def _value(name: str, text: str | None) -> float | int | tuple[int, int] | None:
    if name in WIRE_FAULTS or name in CHANCE_FAULTS:
        return _probability("0.05" if text is None else text)
    if name == "reset":
        return _positive(text or "")
    if name == "jam":
        lane, _, pushes = (text or "").partition(":")
        return (_lane(lane), _count(pushes, "PUSHES") if pushes else 0)
    if name == "overcurrent":
        return _motor(text or "")
    if name in TILE_FAULTS:
        return 1 if text is None else _count(text, "N")
    if text is not None:
        raise ValueError(f"{name} takes no value")
    return None


def apply_fault(item: FaultItem, faults: TableFaults) -> None:
    """Switch a fault's settings on (what the table reads as it runs)."""
    _switch(item, faults, True)


def clear_settings(item: FaultItem, faults: TableFaults) -> None:
    """Switch a fault's settings off (a value left out clears every lane or motor); ValueError
    for the tile faults, which changed the tiles and cannot be undone."""
    _switch(item, faults, False)


def _switch(item: FaultItem, faults: TableFaults, on: bool) -> None:
    name, value = item.name, item.value
    if name == "silent":
        for device in item.devices:
            faults.wire[device].silent = on
    elif name in WIRE_FAULTS:
        for device in item.devices:
            setattr(faults.wire[device], name, value if on else 0.0)
    elif name == "reset":
        for device in item.devices:
            if on:
                faults.reset_after[device] = float(value)  # type: ignore[arg-type]
            else:
                faults.reset_after.pop(device, None)
    elif name == "jam":
        if on:
            lane, pushes = value  # type: ignore[misc]
            faults.jams[lane] = pushes
        else:
            _forget(faults.jams, None if value is None else value[0])  # type: ignore[index]
    elif name == "overcurrent":
        if on:
            faults.overcurrent.add(value)  # type: ignore[arg-type]
        else:
            _forget(faults.overcurrent, value)
    elif name in ("hatch_open", "overtemp", "dice_stall"):
        setattr(faults, "overheated" if name == "overtemp" else name, on)
    elif name in CHANCE_FAULTS:
        setattr(faults, name, value if on else 0.0)
    elif on:
        setattr(faults, TILE_FAULTS[name], value)
    else:
        raise ValueError(f"{name} cannot be cleared: it changed the tiles in the table "
                         "(load new tile sets instead)")


def _forget(units: dict[int, int] | set[int], unit: object) -> None:
    """A lane or motor no longer faulty; every one when `unit` is None."""
    if unit is None:
        units.clear()
    elif isinstance(units, dict):
        units.pop(unit, None)  # type: ignore[call-overload]
    else:
        units.discard(unit)  # type: ignore[arg-type]


def _count(text: str, what: str) -> int:
    """A whole number of 0 or more (`what` names it as the vocabulary does)."""
    if not text.strip().isdigit():
        raise ValueError(f"{what} is a whole number of 0 or more, not {text!r}")
    return int(text)


def _number(text: str, what: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise ValueError(f"{what} is a number, not {text!r}") from None


def _probability(text: str) -> float:
    p = _number(text, "P")
    if not 0.0 <= p <= 1.0:
        raise ValueError("a probability is between 0 and 1")
    return p


def _positive(text: str) -> float:
    seconds = _number(text, "SECONDS")
    if not 0 < seconds < math.inf:          # (a reboot after for ever is none: said, not ignored)
        raise ValueError("seconds must be more than 0 and finite")
    return seconds


def _lane(text: str) -> int:
    lane = int(text) if text.strip().isdigit() else -1
    if not 0 <= lane <= 3:
        raise ValueError("lanes are 0-3")
    return lane


def _motor(text: str) -> int:
    if text.isdigit() and int(text) < len(MOTOR_NAMES):
        return int(text)
    if text in MOTOR_NAMES:
        return MOTOR_NAMES.index(text)
    raise ValueError(f"motors are {', '.join(MOTOR_NAMES)}")
