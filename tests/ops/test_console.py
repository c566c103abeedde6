"""`sim --console` (issue 13 item 9): a person at the simulated table in a terminal.  The README's
walk-through (sim → enroll → run --config) and a by-hand enrolment are followed through the
console's standard input, as a person types them; the commands themselves are checked in-process."""

from __future__ import annotations

import io
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from drivers.motor_protocol import Key, Led, LiftPosition
from drivers.table_ui import Panel, parse_enroll_prompt
from rulesets.tiles import Tile
from simulator import SimulatedTable
from simulator.console import ConsoleError, TableConsole
from tests.asyncio_support import run
from tests.ops import readme
from tests.ops.support import clean_env

SECTION = readme.sections()[readme.CONSOLE_SECTION]
WAIT_S = 120            # a generous bound on one step of a person's walk-through, never a measure


class Terminal:
    """A program run as a person runs it in a terminal: lines typed in, the screen read back."""

    def __init__(self, command: str, folder: Path, stdin: bool = False) -> None:
        args = command.split()
        assert args[0] == "mahjong-table"
        self.process = subprocess.Popen([sys.executable, "-m", "firmware", *args[1:]], cwd=folder,
                                        env=clean_env(folder), text=True, bufsize=1,
                                        stdin=subprocess.PIPE if stdin else subprocess.DEVNULL,
                                        stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        self.lines: list[str] = []
        self._changed = threading.Condition()
        self._reader = threading.Thread(target=self._read, name=f"read {args[1]}", daemon=True)
        self._reader.start()

    def _read(self) -> None:
        for line in self.process.stdout:
            with self._changed:
                self.lines.append(line.rstrip("\n"))
                self._changed.notify_all()
        with self._changed:
            self._changed.notify_all()

    def type(self, line: str) -> int:
        """Type a line; returns the mark from which its answer is read."""
        with self._changed:
            mark = len(self.lines)
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()
        return mark

    def last_view(self) -> list[str]:
        starts = [i for i, line in enumerate(self.lines) if line.startswith("── table")]
        if not starts:
            return []
        view = self.lines[starts[-1]:]
        return view if any(line.startswith("─" * 20) for line in view[1:]) else []

    def wait(self, test, what: str) -> None:
        """Wait until `test()` holds (the screen changed as expected), or fail naming `what`."""
        deadline = time.monotonic() + WAIT_S
        with self._changed:
            while not test():
                if self.process.poll() is not None and not self._reader.is_alive():
                    break
                # Short slices: `test` may also look at another process (which does not notify us).
                self._changed.wait(timeout=min(0.2, max(0.0, deadline - time.monotonic())))
                if time.monotonic() > deadline:
                    break
            if not test():
                pytest.fail(f"never saw {what}; last lines:\n" + "\n".join(self.lines[-40:]))

    def wait_view(self, *texts: str) -> list[str]:
        self.wait(lambda: all(any(t in line for line in self.last_view()) for t in texts), f"a view with {texts}")
        return self.last_view()

    def wait_line(self, text: str, since: int = 0) -> None:
        self.wait(lambda: any(text in line for line in self.lines[since:]), repr(text))

    def finish(self) -> tuple[int, str]:
        try:
            code = self.process.wait(WAIT_S)
        finally:
            if self.process.poll() is None:
                self.process.kill()
                self.process.wait()
            self._reader.join(WAIT_S)
        return code, "\n".join(self.lines)


def readme_sim_command() -> str:
    (sim,), (enroll, run_command), *_ = readme.blocks(SECTION)
    return sim


def start_console(folder: Path) -> Terminal:
    sim = Terminal(readme_sim_command(), folder, stdin=True)
    sim.wait_line("type help for the commands")
    assert (folder / "sim.toml").is_file() and (folder / "tags.json").is_file()
    return sim


# What a person waits to see before typing each line of the README's console block.
WALK = [("push", ("请推牌入池后按确认", "centre down")),
        ("press front 确认", ("loose on the table top: 0",)),
        ("press 0 骰子", ("请掷骰子定庄",)),
        ("players changchun", ())]


def test_the_readme_walk_through_plays_a_hand_on_the_simulator_as_on_real_boards(tmp_path):
    blocks = readme.blocks(SECTION)
    assert [line for line in readme.blocks(SECTION, "text")[0]] == [line for line, _ in WALK]
    sim = start_console(tmp_path)
    try:
        enroll_line, run_line = blocks[1]
        enroll = subprocess.run([sys.executable, "-m", "firmware", *enroll_line.split()[1:]], cwd=tmp_path,
                                env=clean_env(tmp_path), capture_output=True, text=True, timeout=WAIT_S)
        assert enroll.returncode == 0 and "imported 272 tags" in enroll.stdout, enroll.stderr
        table = Terminal(run_line, tmp_path)
        for line, seen in WALK:
            sim.wait_view(*seen)
            mark = sim.type(line)
            sim.wait(lambda: len(sim.lines) > mark and not sim.lines[mark].startswith("?"), f"the answer to {line!r}")
        code, out = table.finish()
        assert code == 0, out
        assert "running 长春麻将 (changchun) on the boards of sim.toml" in out and "hand 1: " in out
        assert list((tmp_path / "sim-state" / "events").glob("*.jsonl"))     # the configured events folder
    finally:
        sim.type("quit")
        code, screen = sim.finish()
    assert code == 0, screen[-3000:]
    assert "display [main]" in screen and "seat 0: 庄" in screen and "latched faults: " in screen


def test_enrolling_by_hand_through_the_console(tmp_path):
    spans = readme.commands(SECTION)
    enroll_line = next(c for c in spans if c.endswith("--set 1"))
    for words in ("`登记:一万 ×4 座位0 确认`", "`lay 0 1111m`", "`press front 确认`"):
        assert words in SECTION
    sim = start_console(tmp_path)
    try:
        enroll = Terminal(enroll_line, tmp_path)
        answered = None
        while True:
            sim.wait(lambda: enroll.process.poll() is not None or _prompt(sim) not in (None, answered),
                     "the next enrolment prompt")
            prompt = _prompt(sim)
            if enroll.process.poll() is not None:
                break
            name, copies, seat = parse_enroll_prompt(prompt)
            if answered is None:
                assert prompt == "登记:一万 ×4 座位0 确认"               # as the README says
            tile = Tile.parse(name)
            sim.type(f"lay {seat} {str(tile)[0] * copies}{str(tile)[1]}")
            sim.type("press front 确认")
            answered = prompt
        code, out = enroll.finish()
        assert code == 0 and "enrolled 136 tags as set 1" in out, out[-2000:]
        assert "[34/34] every kind read" in out
    finally:
        sim.type("quit")
        assert sim.finish()[0] == 0


def _prompt(sim: Terminal) -> str | None:
    for line in sim.last_view():
        text = line.strip()
        if text.startswith("t_msg") and parse_enroll_prompt(text.split(None, 1)[1]) is not None:
            return text.split(None, 1)[1]
    return None


# -- the commands, in-process ----------------------------------------------------------------------

class Hands:
    """A world observer: what the boards would hear of the person's keys."""

    def __init__(self) -> None:
        self.keys: list[tuple[int, Key, bool]] = []

    def key_pressed(self, panel, key, long):
        self.keys.append((panel, key, long))

    def tile_pushed(self, *a): ...
    def wall_changed(self, *a): ...
    def hatch_changed(self, *a): ...


def console_on_a_table():
    table = SimulatedTable(seed=3, speed=0)
    out = io.StringIO()
    return table, TableConsole(table, out), out


def test_keys_on_any_panel_by_name_or_label():
    table, console, _ = console_on_a_table()
    hands = Hands()
    table.world.observers.append(hands)
    assert console.execute("press front 确认") == "pressed 确认 on the front panel"
    assert console.execute("press 2 hu long") == "pressed 胡 on seat 2"
    assert hands.keys == [(4, Key.CONFIRM, False), (2, Key.HU, True)]
    for wrong, words in [("press 5 确认", "seat 5: choose 0-3"), ("press front 开", "no key '开'"),
                         ("press front", "press PANEL KEY")]:
        with pytest.raises(ConsoleError, match=words):
            console.execute(wrong)


def test_a_finger_on_the_displays_buttons():
    table, console, _ = console_on_a_table()
    assert console.execute("touch main b_menu") == "touched b_menu on the display's main page"
    assert table.actions == 1
    for wrong, words in [("touch menu b_ok", "page 'menu' is not showing"), ("touch main", "touch PAGE BUTTON"),
                         ("touch main t_msg", "not a button; the buttons of main: b_menu")]:
        with pytest.raises(ConsoleError, match=words):
            console.execute(wrong)


def test_laying_tiles_in_a_read_zone_and_clearing_it():
    table, console, _ = console_on_a_table()
    assert console.execute("lay 1 1111m") == "laid 一万 一万 一万 一万 in read zone 1"
    assert [t.kind for t in table.world.zones[1]] == [Tile.parse("1m")] * 4
    assert console.execute("lay 2 19m") == "laid 一万 九万 in read zone 2"
    assert {t.serial for t in table.world.zones[2]}.isdisjoint(t.serial for t in table.world.zones[1])
    with pytest.raises(ConsoleError, match="no loose 一万 .* of set 0"):
        console.execute("lay 3 1m set 0")                     # set 0 is in the mixer, not on the top
    with pytest.raises(ConsoleError, match="no loose 红中"):
        console.execute("lay 3 77777z")
    console.execute("clear 1")
    assert table.world.zones[1] == []


def test_the_view_shows_the_display_seats_and_latched_faults():
    table, console, out = console_on_a_table()
    table.display.set_text("main", "t_msg", "请推牌入池后按确认")
    table.world.set_seat_text(3, 1, "宝:六万 骰子=换宝")
    table.world.set_leds(3, Led.DEALER | Led.TING)              # what the motor board lights for SetLeds
    table.kill_antenna(2)
    console.execute("lay 0 11m")
    console.show()
    view = out.getvalue()
    assert "  t_msg      请推牌入池后按确认" in view and "seat 3: · | 宝:六万 骰子=换宝  lamps: 庄 听" in view
    assert "seat 2: · | ·\n" in view and "front panel:" not in view
    assert "latched faults: E20 antenna unit 2 detail 0 (rfid)" in view and "read zone 0: 一万 一万" in view
    length = len(view)
    console.show()
    assert len(out.getvalue()) == length                      # nothing changed: not drawn again
    table.world.set_leds(Panel.FRONT, Led.FAULT)
    assert "front panel:  lamps: 故障" in console.render()


def test_wall_tiles_hatch_and_faults():
    table, console, _ = console_on_a_table()
    world = table.world
    with pytest.raises(ConsoleError, match="the centre is up"):
        console.execute("push")
    world.sides[1].plate = [[world.mixer.pop(), world.mixer.pop()]]
    world.set_side_position(1, LiftPosition.UP)
    top = world.sides[1].plate[0][1]
    assert console.execute("take 1 0") == f"took {top.kind.zh} ({top.kind}) from side 1 stack 0"
    assert console.execute("put 1 0") == f"put {top.kind.zh} ({top.kind}) back on side 1 stack 0"
    assert world.sides[1].plate[0][1] is top
    with pytest.raises(ConsoleError, match="you took no tile from side 1 stack 0"):
        console.execute("put 1 0")
    console.execute("take 1 0")
    assert console.execute("hatch open") == "the hatch is open" and world.hatch_open
    assert console.execute("fault jam=2:6") == "fault jam=2:6 injected" and table.faults.jams == {2: 6}
    with pytest.raises(ConsoleError, match="unknown fault"):
        console.execute("fault bogus")
    assert console.execute("mend jam=2") == "jam=2 mended: press 确认 for the latch" and table.faults.jams == {}
    console.execute("hatch close")
    console.execute("fault hatch_open")             # injected as the control channel does: forced open
    assert world.hatch_open                         # (before: only the setting changed, nothing opened)
    console.execute("mend hatch_open")
    assert not world.hatch_open
    mixer = len(world.mixer)
    console.execute("fault missing_tile=1")
    assert len(world.mixer) == mixer - 1
    with pytest.raises(ConsoleError, match="unknown command 'dance'"):
        console.execute("dance")


def test_players_are_seated_once_and_an_unknown_ruleset_is_refused():
    async def go():
        table = SimulatedTable(seed=1, speed=0)
        console = TableConsole(table, io.StringIO())
        with pytest.raises(ConsoleError, match="atlantis"):
            console.execute("players atlantis")
        assert console.execute("players sichuan 7") == "simulated players sit down to play sichuan"
        with pytest.raises(ConsoleError, match="already seated"):
            console.execute("players sichuan")

        async def typed():
            yield "quit"
        await console.run(typed())                 # quitting takes the players away
    run(go(), timeout=30)


def test_the_console_ends_at_the_end_of_an_input_the_loop_cannot_wait_on(tmp_path):
    """`sim --console < /dev/null` never ended: /dev/null, like a file, cannot be polled, and the
    loop's reader of it was never called."""
    from tests.ops.support import cli
    with open("/dev/null", "rb") as nothing:
        proc = cli(["sim", "--speed", "0", "--console"], tmp_path, stdin=nothing, timeout=60)
    assert proc.returncode == 0, proc.stderr[-2000:]
