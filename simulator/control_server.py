"""The simulator process's control channel, server side (docs/protocol.md §10).

`TableControl` holds the operations on one `SimulatedTable` (and its players, if they play in
this process); `ControlServer` serves them as JSON lines on a unix socket or localhost TCP.
Each request runs as its own task, so a `changed` that waits never holds up the others; a bad
request is answered with one line, never a dropped connection.
"""

from __future__ import annotations

import asyncio
import json
import os
from dataclasses import asdict
from typing import Any, Awaitable, Callable

from drivers.await_chain import awaiting
from drivers.messages import PROTOCOL_VERSION
from drivers.motor_protocol import Key, LiftPosition

from .control import MAX_LINE, ControlError, parse_address
from .faults import FAULT_NAMES
from .table import SimulatedTable
from .world import SIDES, SimulatorError

Operation = Callable[[dict[str, Any]], Awaitable[Any]]
_MISSING = object()
JOURNAL_SHOWN = 60          # the players' last actions the `players` op tells (what they are waiting on)


def _arg(request: dict[str, Any], name: str, kinds: tuple[type, ...], default: Any = _MISSING) -> Any:
    """One argument of a request, of one of `kinds` (true/false is not a number here)."""
    value = request.get(name, default)
    if value is _MISSING:
        raise ControlError(f"{request.get('op')}: missing {name!r}")
    if not isinstance(value, kinds) or (isinstance(value, (bool,)) and bool not in kinds):
        raise ControlError(f"{request.get('op')}: {name!r} cannot be {value!r}")
    return value


def _seconds(request: dict[str, Any]) -> float:
    seconds = _arg(request, "seconds", (int, float))
    if not seconds > 0:
        raise ControlError(f"{request.get('op')}: seconds must be > 0, got {seconds}")
    return float(seconds)


def _lift(position: LiftPosition) -> str:
    return position.name.lower()


class TableControl:
    """The control operations on one table.  `players` is a task playing at it, or None."""

    def __init__(self, table: SimulatedTable, *, info: dict[str, Any], request_stop: Callable[[], None],
                 players: Any = None, players_task: asyncio.Task[None] | None = None) -> None:
        self.table = table
        self.players = players
        self.players_task = players_task
        self._info = info
        self._request_stop = request_stop
        self.operations: dict[str, Operation] = {
            "info": self._get_info, "fault": self._fault, "clear": self._clear, "reset": self._reset,
            "silent": self._silent, "cut": self._cut, "unplug": self._unplug, "press": self._press, "touch": self._touch, "take": self._take, "lay": self._lay,
            "sweep": self._sweep, "dice": self._dice, "table": self._table, "changed": self._changed,
            "registry": self._registry, "players": self._players, "stop": self._stop}

    async def handle(self, request: dict[str, Any]) -> Any:
        op = request.get("op")
        operation = self.operations.get(op) if isinstance(op, (str,)) else None
        if operation is None:
            raise ControlError(f"unknown operation {op!r}; operations: {', '.join(self.operations)}")
        return await operation(request)

    async def _get_info(self, request: dict[str, Any]) -> Any:
        endpoints = self.table.endpoints.as_dict() if self.table.endpoints else None
        return {**self._info, "endpoints": endpoints, "protocol": PROTOCOL_VERSION,
                "faults": list(FAULT_NAMES)}

    async def _fault(self, request: dict[str, Any]) -> Any:
        return self.table.inject_fault(_arg(request, "item", (str,))).name

    async def _clear(self, request: dict[str, Any]) -> Any:
        item = _arg(request, "item", (str,))
        if item == "all":
            self.table.clear_all_faults()
        else:
            self.table.clear_fault(item)

    async def _reset(self, request: dict[str, Any]) -> Any:
        self.table.reset_board(_arg(request, "device", (str,)))

    async def _silent(self, request: dict[str, Any]) -> Any:
        self.table.go_silent(_arg(request, "device", (str,)), True, _seconds(request))

    async def _cut(self, request: dict[str, Any]) -> Any:
        self.table.cut_link(_arg(request, "device", (str,)), _seconds(request))

    async def _unplug(self, request: dict[str, Any]) -> Any:
        await self.table.unplug(_arg(request, "device", (str,)), _seconds(request))

    async def _press(self, request: dict[str, Any]) -> Any:
        panel = _arg(request, "panel", (int, str))
        if isinstance(panel, (int,)) and not 0 <= panel < SIDES:
            raise ControlError(f"press: no panel {panel}: seats 0-3 or 'front'")
        key = _arg(request, "key", (str, int))
        try:
            parsed = Key(key) if isinstance(key, (int,)) else Key.parse(key)
        except ValueError as error:
            raise ControlError(f"press: {error}") from None
        self.table.press(panel, parsed, bool(_arg(request, "long", (bool,), False)))

    async def _touch(self, request: dict[str, Any]) -> Any:
        self.table.touch(_arg(request, "page", (str,)), _arg(request, "button", (str,)))

    async def _take(self, request: dict[str, Any]) -> Any:
        tile = self.table.world.take(_arg(request, "side", (int,)), _arg(request, "stack", (int,)))
        return {"uid": tile.uid.hex(), "tile": str(tile.kind)}     # the taker sees its face

    async def _lay(self, request: dict[str, Any]) -> Any:
        uids = _arg(request, "uids", (list,))
        try:
            tags = [bytes.fromhex(uid) for uid in uids]
        except (TypeError, ValueError):
            raise ControlError(f"lay: 'uids' must be hex strings, got {uids!r}") from None
        self.table.lay(_arg(request, "seat", (int,)), tags)

    async def _sweep(self, request: dict[str, Any]) -> Any:
        return self.table.sweep()

    async def _dice(self, request: dict[str, Any]) -> Any:
        values = _arg(request, "values", (list,))
        if not all(isinstance(v, (int,)) for v in values):
            raise ControlError(f"dice: 'values' must be numbers 1-6, got {values!r}")
        self.table.force_dice(*values)

    async def _table(self, request: dict[str, Any]) -> Any:
        return table_view(self.table)

    async def _changed(self, request: dict[str, Any]) -> Any:
        return await self.table.changed(_arg(request, "since", (int,)))

    async def _registry(self, request: dict[str, Any]) -> Any:
        return [{"uid": uid.hex(), "tile": str(ident.kind), "set": ident.set_index, "copy": ident.copy}
                for uid, ident in self.table.registry().items()]

    async def _players(self, request: dict[str, Any]) -> Any:
        task = self.players_task
        if self.players is None or task is None:
            return {"running": False, "error": "no simulated players in this simulator (start it "
                    "with --ruleset)", "hands": 0, "errors": [], "stats": {}, "journal": []}
        error = None
        if task.done() and not task.cancelled() and task.exception() is not None:
            error = f"{type(task.exception()).__name__}: {task.exception()}"
        stats = {k: v for k, v in asdict(self.players.stats).items() if isinstance(v, (int,))}
        recent = self.players.journal[-JOURNAL_SHOWN:]
        return {"running": not task.done(), "error": error, "hands": self.players.stats.hands,
                "errors": self.players.errors, "stats": stats,
                "journal": [f"{a.t:.2f} {a.seat} {a.what} {a.detail}".rstrip() for a in recent],
                "waiting_in": awaiting(task)}

    async def _stop(self, request: dict[str, Any]) -> Any:
        self._request_stop()


def table_view(table: SimulatedTable) -> dict[str, Any]:
    """What a person sees of the table, as JSON: no face-down tile, no tag of one."""
    world, display = table.world, table.display
    components = {f"{page}.{name}": {"text": state.text, "value": state.value, "visible": state.visible}
                  for page, states in display.screen.items() for name, state in states.items()}
    return {
        "time": table.clock.now(),
        "walls": [list(world.wall_counts(side)) for side in range(SIDES)],
        "zones": [[str(tile.kind) for tile in zone] for zone in world.zones],
        "seats": [list(lines) for lines in world.seat_displays],
        "page": display.page,
        "components": components,
        "lifts": {"centre": _lift(world.centre),
                  **{f"side{side}": _lift(s.position) for side, s in enumerate(world.sides)}},
        "hatch": {"open": world.hatch_open, "locked": world.hatch_locked},
        "below": [len(s.channel) + (len([st for st in s.plate if st]) if s.position != LiftPosition.UP else 0)
                  for s in world.sides],                 # stacks built and waiting under the table
        "mixer": len(world.mixer), "on_table": len(world.out),
        "faults": {"motor": [[int(c), u, d] for (c, u), d in table.motor.latched.items()],
                   "rfid": [[int(c), u, d] for (c, u), d in table.rfid.latched.items()]},
        "dice": list(world.dice),
        "lamps": world.lamps(),
        "buzzer": [list(sound) for sound in world.buzzer[-5:]],
        "boots": {"motor": table.motor.boot_counter, "rfid": table.rfid.boot_counter,
                  "display": table.display.boots},
        "version": table.changes.version,
    }


class ControlServer:
    """Serves a TableControl on `unix:/path` or `tcp://127.0.0.1:PORT` (port 0: a free one)."""

    def __init__(self, control: TableControl) -> None:
        self.control = control
        self.address = ""
        self._server: asyncio.base_events.Server | None = None
        self._unix_path: str | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._writers: set[asyncio.StreamWriter] = set()

    async def start(self, address: str) -> str:
        """Listen; returns the address clients connect to (with the port chosen)."""
        kind, where, port = parse_address(address)
        if kind == "unix":
            self._server = await asyncio.start_unix_server(self._serve, where, limit=MAX_LINE)
            self._unix_path = where
            self.address = address
        else:
            self._server = await asyncio.start_server(self._serve, where, port, limit=MAX_LINE)
            chosen = self._server.sockets[0].getsockname()[1]
            self.address = f"tcp://{where}:{chosen}"
        return self.address

    async def close(self) -> None:
        if self._server is not None:
            self._server.close()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        for writer in list(self._writers):
            writer.close()
        if self._server is not None:
            await self._server.wait_closed()
            self._server = None
        if self._unix_path is not None and os.path.exists(self._unix_path):
            os.unlink(self._unix_path)

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._tasks.add(task)
        self._writers.add(writer)
        requests: set[asyncio.Task[None]] = set()
        try:
            while True:
                try:
                    line = await reader.readline()
                except (asyncio.LimitOverrunError, ValueError):
                    self._answer(writer, None, error=f"a request line is longer than {MAX_LINE} bytes")
                    break
                if not line:
                    break
                request = asyncio.get_running_loop().create_task(self._request(line, writer))
                requests.add(request)
                request.add_done_callback(requests.discard)
        except (ConnectionError, asyncio.CancelledError):
            pass
        finally:
            for request in requests:
                request.cancel()
            await asyncio.gather(*requests, return_exceptions=True)
            self._writers.discard(writer)
            writer.close()
            self._tasks.discard(task)

    async def _request(self, line: bytes, writer: asyncio.StreamWriter) -> None:
        request_id = None
        try:
            request = json.loads(line)
            if not isinstance(request, dict):
                raise ControlError("a request is a JSON object: {\"id\": 1, \"op\": \"table\", …}")
            request_id = request.get("id")
            result = await self.control.handle(request)
        except (ControlError, SimulatorError, ValueError) as error:
            message = f"not JSON: {error}" if isinstance(error, json.JSONDecodeError) else str(error)
            self._answer(writer, request_id, error=message.splitlines()[0] if message else type(error).__name__)
            return
        except Exception as error:      # a simulator bug: answer, and report it loudly
            asyncio.get_running_loop().call_exception_handler(
                {"message": "simulator control request failed", "exception": error})
            self._answer(writer, request_id, error=f"the simulator failed: {error!r}")
            return
        self._answer(writer, request_id, result=result)

    @staticmethod
    def _answer(writer: asyncio.StreamWriter, request_id: Any, *, result: Any = None, error: str | None = None) -> None:
        if writer.is_closing():
            return
        answer = {"id": request_id, "ok": error is None}
        answer.update({"error": error} if error is not None else {"result": result})
        writer.write(json.dumps(answer, ensure_ascii=False).encode() + b"\n")
