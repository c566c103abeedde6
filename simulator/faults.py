"""Fault settings of one simulated table, and the `--fault` vocabulary.

Every fault can be switched by option (`parse_fault`, used by `mahjong-table sim --fault …`) and
by API (the `SimulatedTable` methods, or these settings objects directly).  Settings belong to
one table: two tables in one process never share them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable

DEVICES = ("motor", "rfid", "display")
FRAMED = ("motor", "rfid")
MOTOR_NAMES = ("mixer", "lane0", "lane1", "lane2", "lane3", "side_lift0", "side_lift1",
               "side_lift2", "side_lift3", "centre_lift", "dice")


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
    missing_tiles: int = 0                                    # tiles lost at start
    extra_tiles: int = 0                                      # stray tiles added at start
    duplicate_tags: int = 0                                   # tiles given another tile's UID
    reset_after: dict[str, float] = field(default_factory=dict)  # device -> seconds to a reboot


FAULT_HELP = (
    "faults: [DEVICE:]corrupt|drop|duplicate|delay[=P] (P per frame, default 0.05; DEVICE = "
    "motor, rfid or display; default motor and rfid), [DEVICE:]silent, [DEVICE:]reset=SECONDS, "
    "jam=LANE[:PUSHES], hatch_open, overcurrent=MOTOR, overtemp, dice_stall, "
    "missed_read|doubled_read|foreign_tag[=P], missing_tile|extra_tile|duplicate_tag[=N]")


def parse_faults(texts: Iterable[str]) -> TableFaults:
    """A table's fault settings from `--fault` items; ValueError (one line) on a bad one."""
    faults = TableFaults()
    for text in texts:
        parse_fault(text, faults)
    return faults


def parse_fault(text: str, faults: TableFaults) -> None:
    """Apply one `--fault` item to `faults`; ValueError (one line, with the vocabulary) if bad."""
    spec = text.strip()
    devices: tuple[str, ...] = FRAMED
    if ":" in spec.split("=", 1)[0]:
        device, spec = spec.split(":", 1)
        if device not in DEVICES:
            raise ValueError(f"unknown device {device!r} in fault {text!r}; devices: {', '.join(DEVICES)}")
        devices = (device,)
    name, has_value, value = spec.partition("=")
    name = name.strip().replace("-", "_")
    try:
        if name in ("corrupt", "drop", "duplicate", "delay"):
            p = _probability(value if has_value else "0.05")
            for device in devices:
                setattr(faults.wire[device], name, p)
        elif name == "silent":
            for device in devices:
                faults.wire[device].silent = True
        elif name == "reset":
            for device in devices:
                faults.reset_after[device] = _positive(value)
        elif name == "jam":
            lane, _, pushes = value.partition(":")
            faults.jams[_lane(lane)] = int(pushes) if pushes else 0
        elif name == "hatch_open":
            faults.hatch_open = True
        elif name == "overcurrent":
            faults.overcurrent.add(_motor(value))
        elif name == "overtemp":
            faults.overheated = True
        elif name == "dice_stall":
            faults.dice_stall = True
        elif name in ("missed_read", "doubled_read", "foreign_tag"):
            setattr(faults, name, _probability(value if has_value else "0.05"))
        elif name in ("missing_tile", "extra_tile", "duplicate_tag"):
            count = int(value) if has_value else 1
            if count < 0:
                raise ValueError
            setattr(faults, {"missing_tile": "missing_tiles", "extra_tile": "extra_tiles",
                             "duplicate_tag": "duplicate_tags"}[name], count)
        else:
            raise KeyError(name)
    except KeyError:
        raise ValueError(f"unknown fault {text!r}; {FAULT_HELP}") from None
    except ValueError as error:
        detail = f" ({error})" if str(error) else ""
        raise ValueError(f"bad value in fault {text!r}{detail}; {FAULT_HELP}") from None


def _probability(text: str) -> float:
    p = float(text)
    if not 0.0 <= p <= 1.0:
        raise ValueError("a probability is between 0 and 1")
    return p


def _positive(text: str) -> float:
    seconds = float(text)
    if seconds <= 0:
        raise ValueError("seconds must be > 0")
    return seconds


def _lane(text: str) -> int:
    lane = int(text)
    if not 0 <= lane <= 3:
        raise ValueError("lanes are 0-3")
    return lane


def _motor(text: str) -> int:
    if text.isdigit() and int(text) < len(MOTOR_NAMES):
        return int(text)
    if text in MOTOR_NAMES:
        return MOTOR_NAMES.index(text)
    raise ValueError(f"motors are {', '.join(MOTOR_NAMES)}")
