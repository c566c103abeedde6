"""The simulator process's control channel, client side (docs/protocol.md §10).

JSON lines over a unix socket (`unix:/path`) or localhost TCP (`tcp://127.0.0.1:PORT`):

    → {"id": 7, "op": "press", "panel": 0, "key": "hu"}
    ← {"id": 7, "ok": true, "result": null}
    ← {"id": 8, "ok": false, "error": "press: no key 'x': …"}

`ControlClient` is the typed client firmware and tests use:

    client = await ControlClient.connect(address)
    await client.fault("motor:drop=0.1")
    view = await client.table()             # what a person sees of the table
    await client.close()

Requests may overlap (each carries an id); `changed(since)` waits on the table without blocking
the others.  Every failure is a ControlError with one line.
"""

from __future__ import annotations

import asyncio
import itertools
import json
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Mapping
from urllib.parse import urlsplit

MAX_LINE = 1 << 20           # longest request or answer line (the registry of 288 tiles fits)


class ControlError(Exception):
    """A control request failed, or the channel is gone (one line: what and what to do)."""


def parse_address(address: str) -> tuple[str, str, int]:
    """('unix', path, 0) or ('tcp', host, port); ControlError for anything else."""
    if address.startswith("unix:"):
        path = address[len("unix:"):]
        if not path:
            raise ControlError(f"{address}: write unix:/path/to/socket")
        return "unix", path, 0
    if address.startswith("tcp://"):
        parts = urlsplit(address)
        if not parts.hostname or parts.port is None:
            raise ControlError(f"{address}: write tcp://HOST:PORT")
        return "tcp", parts.hostname, parts.port
    raise ControlError(f"{address}: a control address is unix:/path or tcp://HOST:PORT")


# -- what the answers mean ---------------------------------------------------------------------

@dataclass(frozen=True)
class Taken:
    """A tile a person took from the wall: its tag, and its face (the taker sees it)."""

    uid: bytes
    tile: str


@dataclass(frozen=True)
class Component:
    text: str
    value: int
    visible: bool


@dataclass(frozen=True)
class TableView:
    """What a person sees of the table: never a face-down tile.

    `walls[side]` counts tiles per stack (empty while that wall is not up); `zones[seat]` the
    faces laid face up in a seat's read zone; `seats[seat]` the seat display's lines;
    `page` and `components` ("main.t_msg" → text, value, visibility) the public display;
    `lifts` "centre" and "side0".."side3" → "up", "down" or "between"; `faults` the latched
    faults of "motor" and "rfid" as (code, unit, detail); `lamps` each panel's lamp mask (seats
    0–3, the front panel 4); `buzzer` its last sounds; `boots` each device's boot count;
    `time` the table clock; `version` the change counter `changed()` waits on."""

    time: float
    walls: tuple[tuple[int, ...], ...]
    zones: tuple[tuple[str, ...], ...]
    seats: tuple[tuple[str, ...], ...]
    page: str
    components: Mapping[str, Component]
    lifts: Mapping[str, str]
    hatch_open: bool
    hatch_locked: bool
    faults: Mapping[str, tuple[tuple[int, int, int], ...]]
    dice: tuple[int, ...]
    boots: Mapping[str, int]
    version: int
    below: tuple[int, ...] = ()       # stacks built under the table, per side
    mixer: int = 0                    # tiles in the mixer
    on_table: int = 0                 # tiles taken out onto the table top
    lamps: tuple[int, ...] = ()       # each panel's lamp mask (seats 0–3, the front panel 4)
    buzzer: tuple[tuple[int, int], ...] = ()    # the last sounds: (pattern, ms), newest last

    def text(self, component: str) -> str:
        """The text of a display component, e.g. view.text("main.t_msg")."""
        return self.components[component].text

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> "TableView":
        return TableView(
            time=float(data["time"]),
            walls=tuple(tuple(side) for side in data["walls"]),
            zones=tuple(tuple(zone) for zone in data["zones"]),
            seats=tuple(tuple(lines) for lines in data["seats"]),
            page=data["page"],
            components=MappingProxyType({name: Component(c["text"], c["value"], c["visible"])
                                         for name, c in data["components"].items()}),
            lifts=MappingProxyType(dict(data["lifts"])),
            hatch_open=bool(data["hatch"]["open"]), hatch_locked=bool(data["hatch"]["locked"]),
            faults=MappingProxyType({board: tuple(tuple(f) for f in faults)  # type: ignore[misc]
                                     for board, faults in data["faults"].items()}),
            dice=tuple(data["dice"]),
            boots=MappingProxyType(dict(data["boots"])),
            version=int(data["version"]),
            below=tuple(data.get("below", ())), mixer=int(data.get("mixer", 0)), on_table=int(data.get("on_table", 0)),
            lamps=tuple(data.get("lamps", ())), buzzer=tuple(tuple(b) for b in data.get("buzzer", ())))  # type: ignore[misc]


@dataclass(frozen=True)
class Enrolled:
    """One tag of the simulated table's registry (for pre-enrolling a controller)."""

    uid: bytes
    tile: str
    set_index: int
    copy: int


@dataclass(frozen=True)
class PlayersView:
    """The simulated players in the simulator process: whether they still play, why not."""

    running: bool
    error: str | None
    hands: int
    errors: tuple[str, ...]
    stats: Mapping[str, int]
    journal: tuple[str, ...] = ()     # their last actions, oldest first: "t seat what detail"
    waiting_in: tuple[str, ...] = ()  # where their task waits: its await chain, outermost first


# -- the client ----------------------------------------------------------------------------------

class ControlClient:
    """One connection to a simulator process's control channel.  Create with `connect()`."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, address: str) -> None:
        self.address = address
        self._reader = reader
        self._writer = writer
        self._ids = itertools.count(1)
        self._waiting: dict[int, asyncio.Future[Any]] = {}
        self._gone: ControlError | None = None
        self._listener = asyncio.get_running_loop().create_task(self._listen(), name="control-client")

    @classmethod
    async def connect(cls, address: str) -> "ControlClient":
        kind, where, port = parse_address(address)
        try:
            if kind == "unix":
                reader, writer = await asyncio.open_unix_connection(where, limit=MAX_LINE)
            else:
                reader, writer = await asyncio.open_connection(where, port, limit=MAX_LINE)
        except OSError as error:
            raise ControlError(f"cannot reach the simulator's control channel at {address}: "
                               f"{error.strerror or error}; is the simulator process running?") from None
        return cls(reader, writer, address)

    async def __aenter__(self) -> "ControlClient":
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def request(self, op: str, **args: Any) -> Any:
        """Send one request; its result, or ControlError with the simulator's one line."""
        if self._gone is not None:
            raise self._gone
        request_id = next(self._ids)
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._waiting[request_id] = future
        try:
            self._writer.write(json.dumps({"id": request_id, "op": op, **args}).encode() + b"\n")
            return await future
        finally:
            self._waiting.pop(request_id, None)

    async def _listen(self) -> None:
        why = "the simulator closed its control channel"
        try:
            while True:
                line = await self._reader.readline()
                if not line:
                    break
                answer = json.loads(line)
                future = self._waiting.get(answer.get("id"))
                if future is None or future.done():
                    continue
                if answer.get("ok"):
                    future.set_result(answer.get("result"))
                else:
                    future.set_exception(ControlError(str(answer.get("error", "request failed"))))
        except (ValueError, OSError, asyncio.LimitOverrunError) as error:
            why = f"the control channel broke ({error})"
        self._gone = ControlError(f"{self.address}: {why}")
        for future in self._waiting.values():
            if not future.done():
                future.set_exception(self._gone)

    async def close(self) -> None:
        self._listener.cancel()
        await asyncio.gather(self._listener, return_exceptions=True)
        if self._gone is None:
            self._gone = ControlError(f"{self.address}: this control client is closed")
        for future in self._waiting.values():
            if not future.done():
                future.set_exception(self._gone)
        self._writer.close()
        try:
            await self._writer.wait_closed()
        except OSError:
            pass

    # -- operations --------------------------------------------------------------------------------

    async def info(self) -> dict[str, Any]:
        """Seed, speed, tile sets, endpoints, ruleset of the players (or None), protocol version."""
        return dict(await self.request("info"))

    async def fault(self, item: str) -> str:
        """Inject one `--fault` item now (e.g. "motor:drop=0.1", "rfid:reset=2", "jam=1:4");
        returns the fault's name."""
        return str(await self.request("fault", item=item))

    async def clear(self, item: str) -> None:
        """Switch a fault off ("motor:drop", "jam", "jam=1", "hatch_open", …, or "all")."""
        await self.request("clear", item=item)

    async def reset(self, device: str) -> None:
        """Reboot "motor", "rfid" or "display" now."""
        await self.request("reset", device=device)

    async def silent(self, device: str, seconds: float) -> None:
        """The device's wire goes dead both ways for `seconds` of table time."""
        await self.request("silent", device=device, seconds=seconds)

    async def cut(self, device: str, seconds: float) -> None:
        """The device's cable is cut for `seconds` of real time (nothing passes; ports stay open)."""
        await self.request("cut", device=device, seconds=seconds)

    async def unplug(self, device: str, seconds: float) -> None:
        """The device's port vanishes for `seconds` of real time, then is back at its address."""
        await self.request("unplug", device=device, seconds=seconds)

    async def press(self, panel: int | str, key: str, long: bool = False) -> None:
        """A key on a seat panel (0–3) or the front panel ("front"): "hu", "胡", "confirm", …"""
        await self.request("press", panel=panel, key=key, long=long)

    async def touch(self, page: str, button: str) -> None:
        """Touch a button on the public display (the page must be showing)."""
        await self.request("touch", page=page, button=button)

    async def take(self, side: int, stack: int) -> Taken:
        """A person takes the top tile of a stack (the bottom one if it stands alone)."""
        result = await self.request("take", side=side, stack=stack)
        return Taken(bytes.fromhex(result["uid"]), result["tile"])

    async def lay(self, seat: int, uids: list[bytes]) -> None:
        """Lay taken tiles face up in a seat's read zone (an empty list clears it)."""
        await self.request("lay", seat=seat, uids=[uid.hex() for uid in uids])

    async def sweep(self) -> int:
        """Push every tile on the table top into the centre; how many went in."""
        return int(await self.request("sweep"))

    async def force_dice(self, *values: int) -> None:
        """The next roll shows these values."""
        await self.request("dice", values=list(values))

    async def table(self) -> TableView:
        return TableView.from_json(await self.request("table"))

    async def changed(self, since: int) -> int:
        """Wait until what a person sees changed after version `since`; the new version."""
        return int(await self.request("changed", since=since))

    async def registry(self) -> list[Enrolled]:
        return [Enrolled(bytes.fromhex(e["uid"]), e["tile"], e["set"], e["copy"])
                for e in await self.request("registry")]

    async def players(self) -> PlayersView:
        result = await self.request("players")
        return PlayersView(result["running"], result["error"], result["hands"],
                           tuple(result["errors"]), MappingProxyType(dict(result["stats"])),
                           tuple(result.get("journal", ())), tuple(result.get("waiting_in", ())))

    async def stop(self) -> None:
        """Stop the simulator process (it answers, then exits)."""
        await self.request("stop")
