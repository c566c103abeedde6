"""The virtual table: tiles with tags, shuffle, lanes, walls, sensors, lifts, dice, keys, read
zones, a virtual clock and fault injection, serving the device side of the real protocols on a
pty or a socket.  Start with `SimulatedTable` (simulator/table.py).

The people at the table are `simulator.players.SimulatedPlayers`; like anyone watching the
table they await `SimulatedTable.changed()` (simulator/changes.py) instead of polling.

`python -m simulator serve` (simulator/process.py) runs a table in a process of its own, with
its players in its own loop, and serves a control channel (control_server.py; the client is
`simulator.control.ControlClient`); `simulator.spawn.SimulatorProcess` starts and stops it.

May import `drivers` (codecs, the board-side link) and `rulesets`; never `firmware`.
"""

from .faults import FAULT_HELP, FAULT_NAMES, TableFaults, WireFaults, parse_fault, parse_faults
from .motor_board import Timings
from .table import Endpoints, SimulatedTable
from .tiles import PhysicalTile, TileIdentity
from .world import SimulatorError

__all__ = ["Endpoints", "FAULT_HELP", "FAULT_NAMES", "PhysicalTile", "SimulatedTable", "SimulatorError",
           "TableFaults", "TileIdentity", "Timings", "WireFaults", "parse_fault", "parse_faults"]
