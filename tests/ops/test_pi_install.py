"""The README's Raspberry Pi section, followed line by line against a fresh root-like folder
(issue 13 items 1–2): what a user may run unprivileged runs there (install, the state folders,
both enrolments, two starts of the service's command); what needs root or a running systemd is
checked against the files it acts on.  A line this test does not know fails it."""

from __future__ import annotations

import asyncio
import json
import os
import pwd
import re
import shlex
import socket
import stat
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from drivers.table_ui import parse_enroll_prompt
from firmware.config import CONFIG_ENV, DEFAULT_CONFIG_PATH
from rulesets.regions import get_region
from rulesets.tiles import Tile
from simulator import SimulatedTable
from simulator.players import SimulatedPlayers
from tests.asyncio_support import run
from tests.ops import readme
from tests.ops.support import ROOT, clean_env
from tests.ops.unit_file import read_unit, service

SEED = 11
STEP_S = 40           # a bound on one README line, never a measure


class FreshPi:
    """A root-like folder with what a clean Raspberry Pi OS has, and the simulated boards."""

    def __init__(self, root: Path, table: SimulatedTable) -> None:
        self.root = root
        self.table = table
        self.user: str | None = None
        self.done: list[str] = []
        self.owner = Owner(table)
        for folder in ("etc/udev/rules.d", "etc/systemd/system", "var/lib", "opt", "run"):
            (root / folder).mkdir(parents=True)

    def at(self, path: str | Path) -> Path:
        """Where an absolute path of the Pi lies in this folder."""
        return self.root / str(path).lstrip("/")

    async def shell(self, *args: str, env: dict[str, str] | None = None, cwd: Path = ROOT) -> tuple[int, str, str]:
        """Run a command while the simulated boards go on serving (in a worker thread, which
        the end of the test joins: asyncio's child watcher threads may outlive it)."""
        try:
            proc = await asyncio.to_thread(subprocess.run, args, cwd=cwd, env=env or clean_env(self.root),
                                           capture_output=True, text=True, timeout=STEP_S)
        except subprocess.TimeoutExpired as expired:
            display = self.table.display
            pytest.fail(f"{args[-4:]} did not end: stdout {str(expired.stdout)[-1500:]!r} "
                        f"stderr {str(expired.stderr)[-1500:]!r}; the display shows page {display.page}: "
                        f"{display.text('main', 't_msg')!r} {display.text('fault', 't_code')} "
                        f"{display.text('fault', 't_text')!r}; seats {self.table.world.seat_displays}")
        return proc.returncode, proc.stdout, proc.stderr

    async def mahjong_table(self, *args: str, env: dict[str, str] | None = None) -> tuple[int, str, str]:
        """The installed command as the mahjong user runs it, finding the configuration at the
        default path (here inside the folder: the same lookup, the path moved)."""
        program = ("import sys; from pathlib import Path; import firmware.config as c; "
                   f"c.DEFAULT_CONFIG_PATH = Path({str(self.at(DEFAULT_CONFIG_PATH))!r}); "
                   "from firmware.cli import main; sys.exit(main(sys.argv[1:]))")
        return await self.shell(sys.executable, "-c", program, *args, env=env)


def pi_lines() -> list[str]:
    (block,) = readme.blocks(readme.sections()[readme.PI_SECTION])
    return block


def sudo(line: str) -> tuple[list[str], str | None]:
    """The command without `sudo` (and the user of `sudo -u USER`)."""
    words = shlex.split(line)
    user = None
    if words[0] == "sudo":
        words = words[1:]
        if words[0] == "-u":
            user, words = words[1], words[2:]
    return words, user


# -- one step per kind of line -----------------------------------------------------------------------

async def apt(pi: FreshPi, words: list[str], user) -> None:
    assert words[:3] == ["apt", "install", "-y"] and "python3-venv" in words     # Debian keeps venv apart


async def useradd(pi: FreshPi, words: list[str], user) -> None:
    assert {"--system", "--user-group"} <= set(words) and words[words.index("--groups") + 1] == "dialout"
    pi.user = words[-1]
    assert service("User") == service("Group") == pi.user and service("SupplementaryGroups") == "dialout"
    rules = (ROOT / "deploy" / "99-mahjong-table.rules").read_text()
    assert rules.count('GROUP="dialout", MODE="0660"') == 3      # the boards belong to that group


async def venv(pi: FreshPi, words: list[str], user) -> None:
    # Installing is what CI does for every run (`pip install`); here: the path the unit starts.
    assert words == ["python3", "-m", "venv", "/opt/mahjong-table"]
    assert service("ExecStart").split()[0] == "/opt/mahjong-table/bin/mahjong-table"


async def pip(pi: FreshPi, words: list[str], user) -> None:
    assert words == ["/opt/mahjong-table/bin/pip", "install", "."]
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    assert scripts["mahjong-table"] == "firmware.cli:main"


async def install(pi: FreshPi, words: list[str], user) -> None:
    """`install` runs as written, with every absolute path moved into the folder; -o/-g only
    where this test may give files away (root, and the user exists)."""
    args, owner = [], []
    i = 1
    while i < len(words):
        if words[i] in ("-o", "-g"):
            owner += words[i:i + 2]
            i += 2
            continue
        args.append(str(pi.at(words[i])) if words[i].startswith("/") else words[i])
        i += 1
    if owner:
        assert owner == ["-o", pi.user, "-g", pi.user]
        if os.geteuid() == 0 and _user_exists(pi.user):
            args = owner + args
    code, out, err = await pi.shell("install", *args)
    assert code == 0, err
    if "-d" in words:
        await check_state_folders(pi, [w for w in words[1:] if w.startswith("/")])
    elif words[-1].endswith("/"):
        target = pi.at(words[-1]) / Path(words[-2]).name
        assert target.read_bytes() == (ROOT / words[-2]).read_bytes()
        assert stat.S_IMODE(target.stat().st_mode) == 0o644
    else:
        await install_config(pi, words)


async def install_config(pi: FreshPi, words: list[str]) -> None:
    assert words[-1] == str(DEFAULT_CONFIG_PATH) and service("Environment") == f"{CONFIG_ENV}={DEFAULT_CONFIG_PATH}"
    target = pi.at(words[-1])
    assert stat.S_IMODE(target.stat().st_mode) == 0o644               # the mahjong user reads it
    # "# edit the ports": this table's boards are the simulated ones, its state inside the folder.
    config = tomllib.loads(target.read_text())
    where = pi.table.endpoints
    text = target.read_text()
    for name in ("motor", "rfid", "display"):
        text = text.replace(f'{name} = "{config["devices"][name]}"', f'{name} = "{getattr(where, name)}"')
    for key in ("state_dir", "events_dir"):
        text = text.replace(f'"{config["storage"][key]}"', f'"{pi.at(config["storage"][key])}"')
    target.write_text(text)
    rules = (ROOT / "deploy" / "99-mahjong-table.rules").read_text()
    assert [f"/dev/{name}" for name in re.findall(r'SYMLINK\+="([^"]+)"', rules)] == \
           [config["devices"][name] for name in ("motor", "rfid", "display")]


async def check_state_folders(pi: FreshPi, folders: list[str]) -> None:
    config = tomllib.loads((ROOT / "deploy" / "config.toml").read_text())["storage"]
    assert folders == [config["state_dir"], config["events_dir"]]
    assert [f"/var/lib/{d}" for d in service("StateDirectory").split()] == folders
    for folder in folders:
        assert stat.S_IMODE(pi.at(folder).stat().st_mode) == 0o750
        if os.geteuid() == 0 and _user_exists(pi.user):
            assert pwd.getpwuid(pi.at(folder).stat().st_uid).pw_name == pi.user


async def udevadm(pi: FreshPi, words: list[str], user) -> None:
    assert words in (["udevadm", "control", "--reload"], ["udevadm", "trigger"])   # root's: the rules file is checked


async def enroll(pi: FreshPi, words: list[str], user) -> None:
    assert user == pi.user and words[0] == "/opt/mahjong-table/bin/mahjong-table" and words[1] == "enroll"
    set_index = int(words[words.index("--set") + 1])
    pi.owner.enrolling = set_index
    try:
        code, out, err = await pi.mahjong_table(*words[1:])
    finally:
        pi.owner.enrolling = None
    assert code == 0, err
    assert f"enrolled 136 tags as set {set_index}" in out and str(pi.at("/var/lib/mahjong-table/tiles.db")) in out


async def systemctl(pi: FreshPi, words: list[str], user) -> None:
    if words[1] != "enable":
        assert words in (["systemctl", "daemon-reload"], ["systemctl", "status", "mahjong-table"])
        return
    assert words == ["systemctl", "enable", "--now", "mahjong-table"]
    assert read_unit()["Install"]["WantedBy"] == ["multi-user.target"]
    first = await start_service(pi)
    before = first.read_bytes()
    # A restart (Restart=on-failure, or the next boot): a new recorder, the old one kept whole.
    # Whether this start plays is not asked here: the board still holds the set built during the
    # first start's hand, which resuming (issue 10) is to take over.
    second = await start_service(pi, must_play=False)
    assert second != first and first.read_bytes() == before


async def start_service(pi: FreshPi, must_play: bool = True) -> Path:
    """What systemd does at `enable --now`: ExecStart with the unit's environment, umask and a
    notification socket (and --hands 1, so that it ends)."""
    events = pi.at("/var/lib/mahjong-table/events")
    before = set(events.iterdir())
    notify = pi.at(f"/run/notify-{len(before)}")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(notify))
    sock.setblocking(False)
    name, _, value = service("Environment").partition("=")
    assert name == CONFIG_ENV and service("UMask") == "0077"
    env = clean_env(pi.root, **{CONFIG_ENV: str(pi.at(value)), "NOTIFY_SOCKET": str(notify),
                                "WATCHDOG_USEC": str(int(service("WatchdogSec")) * 1_000_000)})
    args = service("ExecStart").split()[1:] + ["--hands", "1"]
    old_umask = os.umask(0o077)
    try:
        code, out, err = await pi.shell(sys.executable, "-m", "firmware", *args, env=env)
    finally:
        os.umask(old_umask)
    messages = []
    while True:
        try:
            messages.append(sock.recv(4096).decode())
        except BlockingIOError:
            break
    sock.close()
    (new,) = set(events.iterdir()) - before
    assert stat.S_IMODE(new.stat().st_mode) == 0o600
    lines = [json.loads(line) for line in new.read_text().splitlines()]
    assert messages[-1] == "STOPPING=1" and "running 长春麻将 (changchun) on the boards of" in out
    if not must_play:
        assert code == 0 or (code == 1 and err.count("\n") == 1), err
        return new
    assert code == 0, err
    assert "hand 1: " in out and "READY=1\nSTATUS=running 长春麻将 on the boards" in messages
    assert {"session_start", "hand_end"} <= {e["event"] for e in lines}
    return new


STEPS = [(r"^apt install", apt), (r"^useradd ", useradd), (r"^python3 -m venv", venv), (r"/pip install", pip),
         (r"^install ", install), (r"^udevadm ", udevadm), (r"mahjong-table enroll", enroll),
         (r"^systemctl ", systemctl)]


def _user_exists(name: str | None) -> bool:
    try:
        return name is not None and bool(pwd.getpwnam(name))
    except KeyError:
        return False


def test_every_line_of_the_pi_section_is_known():
    for line in pi_lines():
        for part in line.split("&&"):
            words, _ = sudo(part.strip())
            assert sum(bool(re.search(p, " ".join(words))) for p, _ in STEPS) == 1, f"unknown README line: {part}"


def test_the_readme_pi_section_works_in_its_order(tmp_path):
    async def follow() -> list[str]:
        table = SimulatedTable(seed=SEED, speed=0)
        # A new table arrives with both sets loose on the table top, to be enrolled kind by kind.
        set_0 = list(table.world.mixer)
        table.world.mixer.clear()
        table.world.out.update({t.serial: t for t in set_0})
        await table.start("pty")
        pi = FreshPi(tmp_path / "pi", table)
        players = None
        person = asyncio.create_task(pi.owner.run())
        try:
            for line in pi_lines():
                for part in line.split("&&"):
                    words, user = sudo(part.strip())
                    if words[:2] == ["systemctl", "enable"]:
                        _put_set_0_in_the_machine(table)
                        players = asyncio.create_task(
                            SimulatedPlayers(table, get_region("changchun").resolve(), seed=SEED).run())
                    step = next(step for pattern, step in STEPS if re.search(pattern, " ".join(words)))
                    await step(pi, words, user)
                    pi.done.append(part.strip())
        finally:
            for task in (players, person):
                if task is not None:
                    task.cancel()
                    await asyncio.gather(task, return_exceptions=True)
            await table.stop()
        return pi.done
    done = run(follow(), timeout=110)
    assert len(done) == sum(len(line.split("&&")) for line in pi_lines())


class Owner:
    """The owner at the table.  During an enrolment he lays each kind the display asks for and
    presses 确认 (as SimulatedTechnician does); when the display shows E13 — the motor board saw the
    previous command's link close — he presses 确认, as the README says.  A prompt interrupted by
    a fault page is answered again."""

    def __init__(self, table: SimulatedTable) -> None:
        self.table = table
        self.enrolling: int | None = None          # the set being enrolled

    async def run(self) -> None:
        table = self.table
        answered = None
        version = table.changes.version
        while True:
            display = table.display
            if display.page == "fault":
                answered = None
                if display.text("fault", "t_code") == "E13":
                    table.press("front", "确认")
            else:
                text = display.text("main", "t_msg")
                asked = parse_enroll_prompt(text)
                if asked is not None and self.enrolling is not None and text != answered:
                    name, copies, seat = asked
                    kind = Tile.parse(name)
                    table.lay(seat, [t.uid for t in table.world.out.values()
                                     if t.kind == kind and t.set_index == self.enrolling][:copies])
                    table.press("front", "确认")
                    answered = text
            version = await table.changed(version)


def _put_set_0_in_the_machine(table: SimulatedTable) -> None:
    """After enrolment the owner puts set 0 into the machine; set 1 stays on the table top."""
    world = table.world
    world.zones = [[] for _ in world.zones]
    set_0 = [t for t in world.out.values() if t.set_index == 0]
    for tile in set_0:
        del world.out[tile.serial]
    world.mixer.extend(set_0)
