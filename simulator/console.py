"""A person at the simulated table, in a terminal (`mahjong-table sim --console`).

It shows what a person at the table sees — the public display (the page showing, and the
message line), the four seat displays, the lifts and the hatch, the walls as stacks, what lies in
each read zone, the faults the boards have latched — and redraws when any of it changes.  Lines
typed on standard input are what that person does:

    press 0 听          press front 确认        press 2 dice long
    lay 0 1111m         lay 3 123m456p789s11z set 1        clear 0
    push                take 1 5                hatch open|close
    fault jam=2:6       players changchun [SEED]             show   help   quit

Only the SimulatedTable public API is used (press, lay, sweep, take, open_hatch …, the display
and seat-display text, the boards' latched faults), so the console is another person at the
table, like the simulated players (`players ID` seats four of them, to play hands for you).
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import os
import select
import shlex
from typing import TYPE_CHECKING, AsyncIterator, Callable, TextIO

from drivers.messages import FaultCode
from drivers.motor_protocol import Key, LiftPosition, lamps_lit
from drivers.table_ui import Panel
from rulesets.tiles import Tile, TileError, parse_tiles

from .world import SIDES, SimulatorError

if TYPE_CHECKING:
    from .table import SimulatedTable

REDRAW_SETTLE_S = 0.05        # let a burst of changes settle before redrawing (real seconds)

HELP = """commands:
  press PANEL KEY [long]   press a key: PANEL 0-3 (a seat) or front; KEY by name or label:
                           ting 听, hu 胡, kong 杠, confirm 确认, dice 骰子, left ◀, right ▶,
                           menu 菜单, back 返回, stop 停止, lift 升降
  touch PAGE BUTTON        touch a button on the public display, e.g. touch main b_menu (the menu),
                           then b_prev, b_next, b_opt0-b_opt5, b_page, b_ok, b_back; touch fault b_ack
  lay SEAT TILES [set N]   lay loose tiles of these kinds in SEAT's read zone, e.g. lay 0 1111m
  clear SEAT               take everything out of SEAT's read zone
  push                     push every tile on the table top into the centre (centre lift down)
  take SIDE STACK          take the top tile of a wall stack (its face is shown to you)
  put SIDE STACK           put back the tile you last took from that stack
  hatch open|close         open (forcing the latch) or close the service hatch
  fault ITEM               inject a fault now, as --fault ITEM (see `mahjong-table sim --fault help`)
  mend ITEM                take a fault's cause away (mend jam=2, mend overtemp, mend dice_stall …);
                           the board's latch stays until 确认
  players ID [SEED]        seat simulated players who play ruleset ID from here on
  show                     draw the table now
  help                     this list
  quit                     stop the simulator"""


class ConsoleError(Exception):
    """A mistyped command: one line saying what was wrong."""


class TableConsole:
    def __init__(self, table: "SimulatedTable", out: TextIO,
                 start_players: Callable[[str, int], asyncio.Task] | None = None) -> None:
        self.table = table
        self.out = out
        self._start_players = start_players or self._seat_players
        self._players: asyncio.Task | None = None
        self._shown = ""
        self._taken: dict[tuple[int, int], list[bytes]] = {}    # (side, stack) → tags taken there, last last

    # -- what a person sees ----------------------------------------------------------------------

    def render(self) -> str:
        return "\n".join(["── table " + "─" * 60, *self._display_lines(), *self._seat_lines(),
                          self._lift_line(), self._wall_line(), *self._zone_lines(), self._fault_line(),
                          "─" * 69])

    def _display_lines(self) -> list[str]:
        display = self.table.display
        page = display.page
        lines = [f"display [{page}]"]
        for component in display.layout.page(page).components:
            state = display.screen[page][component.name]
            shown = str(state.value) if component.kind == "number" else state.text
            if state.visible and shown and component.kind != "button":
                lines.append(f"  {component.name:<10} {shown}")
        if page != "main":
            lines.append(f"  main.t_msg {display.text('main', 't_msg')}")
        return lines

    def _seat_lines(self) -> list[str]:
        lines = [f"seat {seat}: {' | '.join(line or '·' for line in self.table.world.seat_displays[seat])}"
                 f"{self._lamps(seat)}" for seat in range(SIDES)]
        front = self._lamps(Panel.FRONT)
        return lines + ([f"front panel:{front}"] if front else [])

    def _lamps(self, panel: int) -> str:
        """The lamps lit on a panel, as a person sees them ("" when none is)."""
        lit = lamps_lit(self.table.world.lamps()[panel])
        return f"  lamps: {' '.join(lit)}" if lit else ""

    def _lift_line(self) -> str:
        world = self.table.world
        sides = " ".join(f"{i}:{_position(s.position)}" for i, s in enumerate(world.sides))
        hatch = "open" if world.hatch_open else "closed"
        return f"lifts: centre {_position(world.centre)}; sides {sides}; hatch {hatch}; dice {'+'.join(map(str, world.dice)) or '-'}"

    def _wall_line(self) -> str:
        walls = []
        for side in range(SIDES):
            counts = self.table.wall(side)
            walls.append(f"{side}:{sum(counts)} tiles/{sum(1 for c in counts if c)} stacks" if counts else f"{side}:down")
        loose = len(self.table.world.out)
        return f"walls: {'  '.join(walls)}; loose on the table top: {loose}"

    def _zone_lines(self) -> list[str]:
        lines = []
        for seat, zone in enumerate(self.table.world.zones):
            if zone:
                lines.append(f"read zone {seat}: {' '.join(t.kind.zh for t in zone)}")
        return lines

    def _fault_line(self) -> str:
        latched = [(board, code, unit, detail) for board, sim in (("motor", self.table.motor), ("rfid", self.table.rfid))
                   for (code, unit), detail in sorted(sim.latched.items())]
        if not latched:
            return "latched faults: none"
        return "latched faults: " + "; ".join(f"E{code:02d} {_fault_name(code)} unit {unit} detail {detail} ({board})"
                                              for board, code, unit, detail in latched)

    def show(self, force: bool = False) -> None:
        """Draw the table if anything changed since it was last drawn (or always, if forced)."""
        view = self.render()
        if force or view != self._shown:
            self._shown = view
            self.out.write(view + "\n")
            self.out.flush()

    # -- what a person does ----------------------------------------------------------------------

    def execute(self, line: str) -> str | None:
        """Do one typed command; returns a line to print (or None); ConsoleError on a mistake."""
        try:
            words = shlex.split(line)
        except ValueError as error:
            raise ConsoleError(f"cannot read {line!r} ({error})") from None
        if not words:
            return None
        verb, rest = words[0].lower(), words[1:]
        action = {"press": self._press, "touch": self._touch, "lay": self._lay, "clear": self._clear, "push": self._push,
                  "take": self._take, "put": self._put, "hatch": self._hatch, "fault": self._fault, "mend": self._mend, "players": self._players_cmd,
                  "help": lambda _: HELP, "show": lambda _: None}.get(verb)
        if action is None:
            raise ConsoleError(f"unknown command {verb!r}; type help")
        try:
            return action(rest)
        except SimulatorError as error:
            raise ConsoleError(str(error)) from None

    def _press(self, args: list[str]) -> str:
        if len(args) not in (2, 3) or (len(args) == 3 and args[2] != "long"):
            raise ConsoleError("press PANEL KEY [long], e.g. press front 确认 or press 0 ting")
        panel = "front" if args[0].lower() in ("front", "f") else _seat(args[0])
        try:
            key = Key.parse(args[1])
        except ValueError as error:
            raise ConsoleError(str(error)) from None
        self.table.press(panel, key, long=len(args) == 3)
        return f"pressed {key.zh} on {'the front panel' if panel == 'front' else f'seat {panel}'}"

    def _touch(self, args: list[str]) -> str:
        if len(args) != 2:
            raise ConsoleError("touch PAGE BUTTON, e.g. touch main b_menu or touch fault b_ack")
        self.table.touch(args[0], args[1])
        return f"touched {args[1]} on the display's {args[0]} page"

    def _lay(self, args: list[str]) -> str:
        set_index = None
        if len(args) == 4 and args[2] == "set":
            set_index = _number(args[3], "set", (0, 1))
            args = args[:2]
        if len(args) != 2:
            raise ConsoleError("lay SEAT TILES [set N], e.g. lay 0 1111m")
        seat = _seat(args[0])
        try:
            kinds = parse_tiles(args[1])
        except TileError as error:
            raise ConsoleError(str(error)) from None
        uids = self._loose_tiles(kinds, set_index)
        self.table.lay(seat, uids)
        return f"laid {' '.join(k.zh for k in kinds)} in read zone {seat}"

    def _loose_tiles(self, kinds: list[Tile], set_index: int | None) -> list[bytes]:
        """Loose tiles of these kinds, preferring ones that lie in no read zone yet."""
        in_zones = {t.serial for zone in self.table.world.zones for t in zone}
        pool = sorted(self.table.world.out.values(), key=lambda t: (t.serial in in_zones, t.serial))
        chosen: list[bytes] = []
        used: set[int] = set()
        for kind in kinds:
            tile = next((t for t in pool if t.kind == kind and t.serial not in used
                         and (set_index is None or t.set_index == set_index)), None)
            if tile is None:
                where = f" of set {set_index}" if set_index is not None else ""
                raise ConsoleError(f"no loose {kind.zh} ({kind}){where} left on the table top")
            used.add(tile.serial)
            chosen.append(tile.uid)
        return chosen

    def _clear(self, args: list[str]) -> str:
        if len(args) != 1:
            raise ConsoleError("clear SEAT, e.g. clear 0")
        seat = _seat(args[0])
        self.table.lay(seat, [])
        return f"read zone {seat} is empty"

    def _push(self, args: list[str]) -> str:
        if args:
            raise ConsoleError("push takes nothing more")
        return f"pushed {self.table.sweep()} tiles into the centre"

    def _take(self, args: list[str]) -> str:
        if len(args) != 2:
            raise ConsoleError("take SIDE STACK, e.g. take 1 5")
        side, stack = _seat(args[0]), _number(args[1], "stack", range(0, 64))
        uid = self.table.take(side, stack)
        self._taken.setdefault((side, stack), []).append(uid)
        return f"took {self._face(uid)} from side {side} stack {stack}"

    def _put(self, args: list[str]) -> str:
        if len(args) != 2:
            raise ConsoleError("put SIDE STACK, e.g. put 1 5 (the tile you last took there)")
        side, stack = _seat(args[0]), _number(args[1], "stack", range(0, 64))
        taken = self._taken.get((side, stack))
        if not taken:
            raise ConsoleError(f"you took no tile from side {side} stack {stack} to put back")
        self.table.put_back(side, stack, taken[-1])
        return f"put {self._face(taken.pop())} back on side {side} stack {stack}"

    def _face(self, uid: bytes) -> str:
        ident = self.table.identify(uid)
        return f"{ident.kind.zh} ({ident.kind})" if ident is not None else f"a tile with tag {uid.hex()}"

    def _hatch(self, args: list[str]) -> str:
        if args == ["open"]:
            self.table.open_hatch(force=True)
        elif args == ["close"]:
            self.table.close_hatch()
        else:
            raise ConsoleError("hatch open or hatch close")
        return f"the hatch is {args[0]}"

    def _fault(self, args: list[str]) -> str:
        """Inject a fault now, as the control channel does (the hatch forced open, a motor overheated,
        tiles lost from the mixer …); before, only the setting changed, and most faults did nothing."""
        if len(args) != 1:
            raise ConsoleError("fault ITEM, e.g. fault jam=2:6")
        try:
            self.table.inject_fault(args[0])
        except ValueError as error:
            raise ConsoleError(str(error)) from None
        return f"fault {args[0]} injected"

    def _mend(self, args: list[str]) -> str:
        """A fault's cause taken away (the jam cleared, the motor cooled, the dice freed …): the board's
        latch stays until 确认, as on a real table."""
        if len(args) != 1:
            raise ConsoleError("mend ITEM, e.g. mend jam=2 (or mend jam: every lane)")
        try:
            self.table.clear_fault(args[0])
        except ValueError as error:
            raise ConsoleError(str(error)) from None
        return f"{args[0]} mended: press 确认 for the latch"

    def _players_cmd(self, args: list[str]) -> str:
        if len(args) not in (1, 2):
            raise ConsoleError("players ID [SEED], e.g. players changchun")
        if self._players is not None and not self._players.done():
            raise ConsoleError("simulated players are already seated")
        seed = _number(args[1], "seed", None) if len(args) == 2 else 0
        self._players = self._start_players(args[0], seed)
        return f"simulated players sit down to play {args[0]}"

    def _seat_players(self, region_id: str, seed: int) -> asyncio.Task:
        from rulesets.regions import UnknownRegion, get_region
        from .players import SimulatedPlayers
        try:
            ruleset = get_region(region_id).resolve()
        except UnknownRegion as error:
            raise ConsoleError(error.message) from None
        return asyncio.create_task(SimulatedPlayers(self.table, ruleset, seed=seed).run(), name="console-players")

    # -- the session ---------------------------------------------------------------------------

    async def run(self, lines: AsyncIterator[str]) -> None:
        """Draw the table, then follow typed lines until `quit` or the end of input; redraw on changes."""
        self.out.write("simulated table console: type help for the commands\n")
        self.show(force=True)
        watcher = asyncio.create_task(self._watch(), name="console-view")
        try:
            async for line in lines:
                command = line.strip()
                if command.lower() in ("quit", "exit"):
                    break
                try:
                    reply = self.execute(command)
                except ConsoleError as error:
                    reply = f"? {error}"
                if reply:
                    self.out.write(reply + "\n")
                self.show(force=command.lower() == "show")
        finally:
            for task in (watcher, self._players):
                if task is not None:
                    task.cancel()
                    await asyncio.gather(task, return_exceptions=True)

    async def _watch(self) -> None:
        version = self.table.changes.version
        while True:
            version = await self.table.changed(version)
            await asyncio.sleep(REDRAW_SETTLE_S)
            version = self.table.changes.version
            self.show()


@contextlib.asynccontextmanager
async def stdin_lines(stream: TextIO) -> AsyncIterator[AsyncIterator[str]]:
    """The lines typed on `stream` (a terminal, pipe or file), read without blocking the loop.
    Leaves the stream's blocking mode as it found it (the shell shares it)."""
    loop = asyncio.get_running_loop()
    fd = stream.fileno()
    flags = fcntl.fcntl(fd, fcntl.F_GETFL)
    reader = asyncio.StreamReader()
    if not _pollable(fd):         # a regular file or /dev/null: it can be read at once, it never blocks
        text = os.read(fd, 1 << 20).decode("utf-8", "replace")
        yield _from_list(text.splitlines())
        return
    transport, _ = await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), stream)
    try:
        yield _from_reader(reader)
    finally:
        transport.close()
        with contextlib.suppress(OSError):
            fcntl.fcntl(fd, fcntl.F_SETFL, flags)


def _pollable(fd: int) -> bool:
    """Whether the loop can wait on `fd` (a terminal, a pipe): a regular file cannot be polled, nor can
    /dev/null (the loop's reader was never called, and `sim --console < /dev/null` never saw its end of
    input)."""
    with select.epoll() as probe:
        try:
            probe.register(fd, select.EPOLLIN)
        except PermissionError:
            return False
    return True


async def _from_reader(reader: asyncio.StreamReader) -> AsyncIterator[str]:
    while line := await reader.readline():
        yield line.decode("utf-8", "replace")


async def _from_list(lines: list[str]) -> AsyncIterator[str]:
    for line in lines:
        yield line


def _position(position: LiftPosition) -> str:
    return {LiftPosition.UP: "up", LiftPosition.DOWN: "down"}.get(position, "between")


def _fault_name(code: int) -> str:
    try:
        return FaultCode(code).name.lower()
    except ValueError:
        return "unknown"


def _seat(text: str) -> int:
    return _number(text, "seat", range(SIDES))


def _number(text: str, what: str, allowed) -> int:
    try:
        value = int(text)
    except ValueError:
        raise ConsoleError(f"{what} {text!r} is not a number") from None
    if allowed is not None and value not in allowed:
        raise ConsoleError(f"{what} {value}: choose {min(allowed)}-{max(allowed)}")
    return value
