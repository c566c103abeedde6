"""The web server for one run of the table (`mahjong-table run --http …`).

History comes from the ledger file at once; the live view once the session is composed
(`attach`); the simulator's keys only when the run made a simulated table (`simulated_table`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..records.history import History
from .live import LiveTable
from .server import WebServer, WebSettings
from .sim import InProcessSimulator


class Serving:
    def __init__(self, settings: WebSettings, db_path: Path | str) -> None:
        self.live = LiveTable()
        self.server = WebServer(settings, self.live, History(db_path))
        self._controlled: Any = None

    async def start(self) -> str:
        return await self.server.start()

    async def stop(self) -> None:
        if self._controlled is not None:
            await self._controlled.stop()
        await self.server.stop()

    def simulated_table(self, ruleset: Any, args: Any) -> Any:
        """The run's simulated table, made here so the page can draw it and press its keys."""
        from ..simulated import new_table
        table = new_table(ruleset, seed=args.seed, speed=args.speed, faults=tuple(args.fault))
        self.live.sim = InProcessSimulator(table)
        return table

    def simulator_process(self, sim: Any) -> None:
        """The run's simulator in its own process (simulator.spawn.SimulatorProcess): seen and touched
        through its control channel."""
        from .sim import ControlledSimulator
        port = ControlledSimulator(sim.control)
        port.start()
        self._controlled = port
        self.live.sim = port

    def attach(self, session: Any) -> None:
        """The session is composed: follow its public feed (firmware.session.TableSession)."""
        self.live.attach(session.public_feed())
