"""`SimulatedTable`: the whole virtual table — tiles, world, three devices, faults — in one object.

    table = SimulatedTable(seed=7, speed=0)
    where = await table.start("pty")          # {'motor': '/dev/pts/5', 'rfid': …, 'display': …}
    …                                        # the controller opens those paths
    uid = table.take(side=0, stack=3)        # a simulated player draws
    await table.stop()

Nothing here is shared between tables: several can run in one process.
"""

from __future__ import annotations

import asyncio
import dataclasses
import os
import random
from dataclasses import dataclass
from typing import Callable

from drivers.messages import PROTOCOL_VERSION
from drivers.motor_protocol import Key, Panel
from rulesets.tiles import Tile
from rulesets.tilesets import SET_136, TileSet

from .clock import VirtualClock, VirtualTimer
from .display_sim import DisplaySim
from .endpoints import PtyEndpoint, SocketEndpoint, socket_address
from .faults import (CHANCE_FAULTS, DEVICES, WIRE_FAULTS, FaultItem, TableFaults, WireFaults,
                     apply_fault, clear_settings, read_fault)
from .motor_board import MotorBoardSim, Timings
from .rfid_board import RfidBoardSim
from .tiles import PhysicalTile, TileIdentity, UidSource, make_tiles
from .wire import FaultyWire
from .world import SimulatorError, World


def _socket_address(listen: str) -> tuple[str, int]:
    """The host and first port of a socket:// listen address for the three devices; a wrong one is
    one line (SimulatorError), never urlsplit's ValueError or bind()'s OverflowError."""
    try:
        return socket_address(listen, len(DEVICES))
    except ValueError as error:
        raise SimulatorError(f"cannot listen on {listen!r}: {error}") from None


@dataclass(frozen=True)
class Endpoints:
    """Where each device is served (pty paths or socket:// URLs)."""

    motor: str
    rfid: str
    display: str

    def as_dict(self) -> dict[str, str]:
        return dataclasses.asdict(self)


class SimulatedTable:
    def __init__(self, *, seed: int = 0, speed: float = 1.0,
                 tile_sets: tuple[TileSet, TileSet] = (SET_136, SET_136),
                 faults: TableFaults | None = None, timings: Timings = Timings(),
                 motor_version: int = PROTOCOL_VERSION, rfid_version: int = PROTOCOL_VERSION) -> None:
        self.seed = seed
        self.tile_sets = tuple(tile_sets)
        self.faults = faults if faults is not None else TableFaults()
        self.clock = VirtualClock(speed)
        self.world = World()
        self._uids = UidSource(random.Random(f"{seed}/uids"))
        self._foreign = UidSource(random.Random(f"{seed}/foreign"))
        self._fault_rng = random.Random(f"{seed}/faults")
        self.tiles: list[PhysicalTile] = []
        self.lost: list[PhysicalTile] = []               # tiles fallen out of the machine (a person may find them)
        self.kept: list[PhysicalTile] = []               # tiles of the other set a person took out, for their set
        self._own_tags: dict[int, bytes] = {}            # serial -> the tag a re-tagged tile was enrolled with
        self._registry: dict[bytes, TileIdentity] = {}
        self._next_serial = 0
        self.motor = MotorBoardSim(self.world, self.clock, self.faults, timings=timings,
                                   shuffle_rng=random.Random(f"{seed}/shuffle"),
                                   dice_rng=random.Random(f"{seed}/dice"),
                                   bounce_rng=random.Random(f"{seed}/bounce"), version=motor_version)
        self.rfid = RfidBoardSim(self.world, self.faults, rng=random.Random(f"{seed}/rfid"),
                                 foreign_uids=self._foreign, version=rfid_version)
        self.display = DisplaySim(changes=self.world.changes)
        self.changes = self.world.changes     # the screen, a seat display or a lift changed
        self.actions = 0    # done (not tried) by the players, sensed by the boards: takes, keys, tiles laid or swept
        self._endpoints: dict[str, PtyEndpoint | SocketEndpoint] = {}
        self._wires: dict[str, FaultyWire] = {}
        self._timers: dict[tuple[str, str], VirtualTimer] = {}   # (what, device) -> timer
        self._real_timers: dict[tuple[str, str], asyncio.TimerHandle] = {}   # real-time ones
        self._replugs: set[asyncio.Task[None]] = set()
        self.endpoints: Endpoints | None = None
        self.load_tile_sets(self.tile_sets)
        if self.faults.hatch_open:
            self.world.hatch_locked, self.world.hatch_open = False, True

    # -- tiles -------------------------------------------------------------------------------------

    def load_tile_sets(self, tile_sets: tuple[TileSet, TileSet]) -> None:
        """Put two (new) tile sets in the table: set 0 in the mixer, set 1 loose on the table top,
        waiting to be pushed in.  Their tags are enrolled in `registry()`.  Start-up faults
        (missing/extra tiles, duplicated tags) are applied to set 0."""
        self.tile_sets = tuple(tile_sets)
        tiles = make_tiles(self.tile_sets, self._uids, self._next_serial)
        self._next_serial += len(tiles)
        self.tiles = tiles
        self._registry = {t.uid: TileIdentity(t.kind, t.set_index, t.copy) for t in tiles}
        self.world.mixer = [t for t in tiles if t.set_index == 0]
        self.world.out = {t.serial: t for t in tiles if t.set_index == 1}
        self._setup_rng = random.Random(f"{self.seed}/setup")
        self._tile_faults("missing_tile", self.faults.missing_tiles)
        self._tile_faults("extra_tile", self.faults.extra_tiles)
        self._tile_faults("duplicate_tag", self.faults.duplicate_tags)

    def _tile_faults(self, name: str, count: int) -> None:
        """Lose `count` tiles from the mixer, add `count` stray ones, or give `count` tiles
        another tile's tag (seeded)."""
        rng = self._setup_rng
        for _ in range(count):
            if name == "missing_tile" and self.world.mixer:
                self.lost.append(self.world.mixer.pop(rng.randrange(len(self.world.mixer))))
            elif name == "extra_tile":
                self.add_tile(rng.choice(list(Tile)))
            elif name == "duplicate_tag" and len(self.world.mixer) >= 2:
                source, target = rng.sample(self.world.mixer, 2)
                self._retag(target, source.uid)

    def registry(self) -> dict[bytes, TileIdentity]:
        """UID → (kind, set, copy) of every enrolled tile, for pre-enrolling the controller."""
        return dict(self._registry)

    def identify(self, uid: bytes) -> TileIdentity | None:
        return self._registry.get(uid)

    def add_tile(self, kind: Tile, uid: bytes | None = None) -> PhysicalTile:
        """Drop a stray tile (not enrolled unless `uid` is an enrolled one) into the mixer."""
        tile = PhysicalTile(self._next_serial, uid or self._foreign.new(), kind, -1, 0)
        self._next_serial += 1
        self.world.mixer.append(tile)
        return tile

    def remove_tile(self, uid: bytes) -> PhysicalTile:
        """A tile falls out of the machine: take it out of the mixer or off the table top."""
        for tile in self.world.mixer:
            if tile.uid == uid:
                self.world.mixer.remove(tile)
                self.lost.append(tile)
                return tile
        for serial, tile in list(self.world.out.items()):
            if tile.uid == uid:
                del self.world.out[serial]
                self.lost.append(tile)
                return tile
        raise SimulatorError(f"no tile with tag {uid.hex()} in the mixer or on the table top")

    def duplicate_tag(self, copy_from: bytes, onto: bytes) -> None:
        """Re-write the tag of tile `onto` with the UID `copy_from` (a mis-enrolled tile)."""
        target = next((t for t in self.world.mixer if t.uid == onto), None)
        if target is None:
            raise SimulatorError(f"no tile with tag {onto.hex()} in the mixer")
        self._retag(target, copy_from)

    def _retag(self, tile: PhysicalTile, uid: bytes) -> None:
        index = self.world.mixer.index(tile)
        self._own_tags.setdefault(tile.serial, tile.uid)
        self.world.mixer[index] = dataclasses.replace(tile, uid=uid)

    def mend_set(self) -> list[str]:
        """What a person standing at the table does when told the set is wrong: the tiles that fell
        out are found and laid on the table top; stray tiles are taken off the table top and out of
        the raised walls, and a re-tagged tile found there gets its own tag back; a tile of the other
        set is taken out and kept until that set's walls are up, then laid on the table top to go in
        with them (a stray tile built in had left one of the set in the mixer, which then went into
        the other set's build).  (The mixer and the channels under the table are out of reach.)
        Returns what was done, one line each."""
        done = [f"found {tile} and laid it on the table top" for tile in self.lost]
        for tile in self.lost:
            self.world.out[tile.serial] = tile
        self.lost.clear()
        done += [f"took out {tile}" for tile in self.world.take_out_on_top(lambda t: t.set_index < 0)]
        done += [f"gave {tile} its own tag back" for tile in self.world.replace_on_top(self._own_tag)]
        return done + self._sort_sets()

    def _sort_sets(self) -> list[str]:
        walls = self.world.raised_set()
        if walls is None:
            return []
        others = self.world.take_out_on_top(lambda t: t.set_index >= 0 and t.set_index != walls)
        self.kept += others
        back = [tile for tile in self.kept if tile.set_index == walls]
        self.kept = [tile for tile in self.kept if tile.set_index != walls]
        for tile in back:
            self.world.out[tile.serial] = tile
        return ([f"took out {tile} of set {tile.set_index} and kept it for its set" for tile in others]
                + [f"laid {tile}, kept for set {walls}, on the table top" for tile in back])

    def _own_tag(self, tile: PhysicalTile) -> PhysicalTile | None:
        uid = self._own_tags.pop(tile.serial, None)
        return None if uid is None else dataclasses.replace(tile, uid=uid)

    # -- serving -----------------------------------------------------------------------------------

    async def start(self, listen: str = "pty") -> Endpoints:
        """Serve the three devices on ptys (`"pty"`; `"pty:DIR"` behind stable links DIR/motor,
        DIR/rfid, DIR/display, as /dev/serial/by-id/… are, which survive an unplug) or TCP
        (`"socket://HOST:PORT"`: PORT, PORT+1, PORT+2; port 0 picks free ports)."""
        if self.endpoints is not None:
            raise SimulatorError("this table is already serving")
        self.clock.start()
        raw: list[PtyEndpoint | SocketEndpoint] = []
        try:
            if listen == "pty":
                raw = [PtyEndpoint() for _ in DEVICES]
            elif listen.startswith("pty:"):
                folder = listen[len("pty:"):]
                os.makedirs(folder, exist_ok=True)
                raw = [PtyEndpoint(link=os.path.join(folder, device)) for device in DEVICES]
            elif listen.startswith("socket://"):
                host, port = _socket_address(listen)
                for i in range(len(DEVICES)):
                    raw.append(await SocketEndpoint.listen(host, port + i if port else 0))
            else:
                raise SimulatorError(f"cannot listen on {listen!r}: use 'pty', 'pty:DIR' or socket://HOST:PORT")
        except BaseException:
            for endpoint in raw:
                await endpoint.close()
            raise
        self._endpoints = dict(zip(DEVICES, raw))
        for device, endpoint in zip(DEVICES, raw):
            wire = FaultyWire(endpoint, self.faults.wire[device], self._fault_rng,
                              b"\xff\xff\xff" if device == "display" else b"\x00")
            self._wires[device] = wire
        self.motor.attach(self._wires["motor"])
        self.rfid.attach(self._wires["rfid"])
        self.display.attach(self._wires["display"])
        for endpoint in raw:        # the devices' power-up bytes lie in the ports before anyone opens them
            endpoint.flush()        # (a host's open discards them, as a real port's does)
        for device, seconds in self.faults.reset_after.items():
            self._schedule_reset(device, seconds)
        self.endpoints = Endpoints(*(e.path for e in raw))
        return self.endpoints

    async def stop(self) -> None:
        for timer in self._timers.values():
            timer.cancel()
        self._timers.clear()
        for handle in self._real_timers.values():
            handle.cancel()
        self._real_timers.clear()
        for task in self._replugs:
            task.cancel()
        await asyncio.gather(*self._replugs, return_exceptions=True)
        await self.motor.stop()
        await self.rfid.stop()
        for wire in self._wires.values():
            await wire.close()
        self._wires.clear()
        self._endpoints.clear()
        self.endpoints = None

    async def __aenter__(self) -> "SimulatedTable":
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    # -- the player-facing API ---------------------------------------------------------------------

    async def changed(self, since: int, relevant: Callable[[], bool] | None = None) -> int:
        """Wait until the public screen, a seat display or a lift changed after version `since`
        (`table.changes.version`) — with `relevant`, a change after which it holds (Changes.wait);
        returns the new version.  Never spins, at any speed."""
        return await self.changes.wait(since, relevant)

    def take(self, side: int, stack: int) -> bytes:
        """Take the top tile of a stack (the bottom one when it stands alone); returns its UID."""
        uid = self.world.take(side, stack).uid
        self.actions += 1
        return uid

    def put_back(self, side: int, stack: int, uid: bytes) -> None:
        """Put a taken tile back on a stack (e.g. a 宝 looked at and covered again)."""
        self.world.put_back(side, stack, uid)
        self.actions += 1

    def wall(self, side: int) -> tuple[int, ...]:
        """What side's wall sensors see: tiles per stack (empty while the plate is down)."""
        return self.world.wall_counts(side)

    def stack_tiles(self, side: int, stack: int) -> int | None:
        """What one stack's sensor sees (None: no such stack up)."""
        return self.world.stack_count(side, stack)

    def press(self, panel: int | str, key: Key | str, long: bool = False) -> None:
        """Press a key: panel 0–3 (seat) or 'front'; key as Key, 'ting' or '听'."""
        if isinstance(panel, str):
            if panel != "front":
                raise SimulatorError(f"no panel {panel!r}: seats 0-3 or 'front'")
            panel = Panel.FRONT
        self.world.press(panel, key if isinstance(key, Key) else Key.parse(key), long)
        self.actions += 1

    def touch(self, page: str, button: str) -> None:
        """Touch a button on the public display (pressed and let go); the page must be showing, as on
        a real screen."""
        try:
            shown = self.display.layout.page(page)
            component = shown.component(button)
        except KeyError as error:
            raise SimulatorError(f"touch: {error.args[0]}") from None
        if component.kind != "button":
            buttons = [c.name for c in shown.components if c.kind == "button"]
            raise SimulatorError(f"touch: {page} {button} is a {component.kind}, not a button; the buttons of "
                                 f"{page}: {', '.join(buttons)}")
        try:
            self.display.touch(page, button)
        except ValueError as error:
            raise SimulatorError(f"touch: {error}") from None
        self.actions += 1

    def lay(self, seat: int, uids: list[bytes]) -> None:
        """Lay taken tiles in a seat's read zone (an empty list clears it)."""
        self.world.lay(seat, uids)
        self.actions += 1

    def sweep(self) -> int:
        """Push every tile on the table top into the centre (the centre lift must be down)."""
        moved = self.world.sweep()
        self.actions += 1
        return moved

    def force_dice(self, *values: int) -> None:
        """The next roll shows these values instead of the seeded RNG's."""
        if not values or any(not 1 <= v <= 6 for v in values):
            raise SimulatorError(f"dice show 1-6, got {values}")
        self.motor.forced_dice.append(tuple(values))

    def open_hatch(self, force: bool = False) -> None:
        self.world.set_hatch(True, force)

    def close_hatch(self) -> None:
        self.world.set_hatch(False)

    # -- fault injection ---------------------------------------------------------------------------

    def wire_faults(self, device: str) -> WireFaults:
        """The live wire-fault settings of 'motor', 'rfid' or 'display' (change them at will)."""
        return self.faults.wire[device]

    def go_silent(self, device: str, silent: bool = True, seconds: float | None = None) -> None:
        """The device's wire goes dead both ways (or comes back); with `seconds`, it comes back
        by itself after that much table time."""
        self._device(device)
        self._cancel_timer("silent", device)
        self.faults.wire[device].silent = silent
        if silent and seconds is not None:
            self._timers[("silent", device)] = self.clock.call_later(
                seconds, lambda: self.go_silent(device, False))

    def cut_link(self, device: str, seconds: float) -> None:
        """The device's cable is cut for `seconds` of real time (the serial links run in real
        time): nothing passes either way, the ports stay open; then it is whole again."""
        self._device(device)
        self._cancel_real("cut", device)
        self.faults.wire[device].silent = True

        def mend() -> None:
            self._real_timers.pop(("cut", device), None)
            self.faults.wire[device].silent = False
        self._real_timers[("cut", device)] = asyncio.get_running_loop().call_later(seconds, mend)

    async def unplug(self, device: str, seconds: float | None = None) -> None:
        """The device's port vanishes (a USB serial adapter gone): the host's open port dies;
        with `seconds`, it comes back after that much real time (else at `replug`), at the
        same address.  A pty can come back only when served behind a link ('pty:DIR')."""
        endpoint = self._endpoint(device)
        if isinstance(endpoint, PtyEndpoint) and endpoint.link is None:
            raise SimulatorError(f"cannot unplug {device}: a plain pty comes back under another name; "
                                 "serve ptys behind stable links (listen 'pty:DIR') or on socket://")
        self._cancel_real("replug", device)
        if isinstance(endpoint, PtyEndpoint):
            endpoint.unplug()
        else:
            await endpoint.unplug()
        if seconds is not None:
            self._real_timers[("replug", device)] = asyncio.get_running_loop().call_later(
                seconds, self._replug_later, device)

    async def replug(self, device: str) -> None:
        """The unplugged device is back at its address."""
        endpoint = self._endpoint(device)
        self._cancel_real("replug", device)
        try:
            if isinstance(endpoint, PtyEndpoint):
                endpoint.replug()
            else:
                await endpoint.replug()
        except (OSError, ValueError) as error:
            raise SimulatorError(f"cannot plug {device} in again: {error}") from None

    def _replug_later(self, device: str) -> None:
        self._real_timers.pop(("replug", device), None)
        task = asyncio.get_running_loop().create_task(self.replug(device), name=f"replug-{device}")
        self._replugs.add(task)
        task.add_done_callback(self._replugged)

    def _replugged(self, task: asyncio.Task[None]) -> None:
        self._replugs.discard(task)
        if not task.cancelled() and task.exception() is not None:
            asyncio.get_running_loop().call_exception_handler(
                {"message": "simulator: a device could not be plugged in again", "exception": task.exception()})

    def _device(self, device: str) -> str:
        if device not in DEVICES:
            raise SimulatorError(f"no device {device!r}: devices are {', '.join(DEVICES)}")
        return device

    def _endpoint(self, device: str) -> PtyEndpoint | SocketEndpoint:
        self._device(device)
        if device not in self._endpoints:
            raise SimulatorError("the table is not serving: start it first")
        return self._endpoints[device]

    def _cancel_real(self, what: str, device: str) -> None:
        handle = self._real_timers.pop((what, device), None)
        if handle is not None:
            handle.cancel()

    def reset_board(self, device: str) -> None:
        """Reboot a device: a board's boot counter advances, its RAM is lost, motors stop; the
        display forgets its screen and announces its start-up."""
        if device == "motor":
            self.motor.reboot()
        elif device == "rfid":
            self.rfid.reboot()
        elif device == "display":
            self.display.reboot()
        else:
            raise SimulatorError(f"cannot reset {device!r}: devices are {', '.join(DEVICES)}")

    def _schedule_reset(self, device: str, seconds: float) -> None:
        """A reboot after `seconds` of table time (the `reset=SECONDS` fault)."""
        self._cancel_timer("reset", device)

        def fire() -> None:
            self._timers.pop(("reset", device), None)
            self.faults.reset_after.pop(device, None)
            self.reset_board(device)
        self._timers[("reset", device)] = self.clock.call_later(seconds, fire)

    def _cancel_timer(self, what: str, device: str) -> None:
        timer = self._timers.pop((what, device), None)
        if timer is not None:
            timer.cancel()

    def inject_fault(self, text: str) -> FaultItem:
        """Apply one `--fault` item now, as the control channel asks: settings change at once; a
        reset is scheduled on the table clock; the hatch is forced open; overtemp trips the
        motor board; missing/extra tiles and duplicated tags change the mixer now.  ValueError
        (one line) for a bad item."""
        item = read_fault(text)
        apply_fault(item, self.faults)
        if item.name == "reset" and self.endpoints is not None:
            for device in item.devices:
                self._schedule_reset(device, float(item.value))  # type: ignore[arg-type]
        elif item.name == "hatch_open":
            self.world.hatch_locked = False
            self.world.set_hatch(True)
        elif item.name == "overtemp":
            self.motor.overheat()
        elif item.name in ("missing_tile", "extra_tile", "duplicate_tag"):
            self._tile_faults(item.name, int(item.value))  # type: ignore[arg-type]
        return item

    def clear_all_faults(self) -> None:
        """Every fault that can be undone, off (missing/extra tiles and duplicated tags stay)."""
        for device in DEVICES:
            for name in (*WIRE_FAULTS, "silent", "reset"):
                self.clear_fault(f"{device}:{name}")
        for name in ("jam", "hatch_open", "overcurrent", "overtemp", "dice_stall", *CHANCE_FAULTS):
            self.clear_fault(name)

    def clear_fault(self, text: str) -> FaultItem:
        """Switch one fault off (`jam` or `overcurrent` without a value: every lane or motor);
        the hatch closes, a scheduled reset or silence is cancelled.  ValueError (one line) for
        a bad item or one that cannot be undone."""
        item = read_fault(text, clearing=True)
        clear_settings(item, self.faults)
        for device in item.devices:
            if item.name in ("reset", "silent"):
                self._cancel_timer(item.name, device)
        if item.name == "hatch_open" and self.world.hatch_open:
            self.world.set_hatch(False)
        return item

    def jam_lane(self, lane: int, after: int = 0) -> None:
        """Lane `lane` jams once its push count in a build reaches `after` (0 = at once)."""
        self.faults.jams[lane] = after

    def clear_jam(self, lane: int) -> None:
        self.faults.jams.pop(lane, None)

    def trip_overcurrent(self, motor: int) -> None:
        """The motor trips the next time it runs."""
        self.faults.overcurrent.add(motor)

    def overheat(self) -> None:
        self.motor.overheat()

    def cool_down(self) -> None:
        self.faults.overheated = False

    def stall_dice(self, stalled: bool = True) -> None:
        self.faults.dice_stall = stalled

    def set_read_faults(self, *, missed: float | None = None, doubled: float | None = None,
                        foreign: float | None = None) -> None:
        if missed is not None:
            self.faults.missed_read = missed
        if doubled is not None:
            self.faults.doubled_read = doubled
        if foreign is not None:
            self.faults.foreign_tag = foreign

    def kill_antenna(self, unit: int) -> None:
        self.rfid.kill_antenna(unit)

    def repair_antenna(self, unit: int) -> None:
        self.rfid.repair_antenna(unit)
