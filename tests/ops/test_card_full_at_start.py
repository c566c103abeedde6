"""A controller started on a card too full to open its files waits for room (freeing the card is a
person's job) instead of exiting for systemd to start it again every few seconds: it says so once,
a stop while it waits exits 0, and once there is room it starts by itself and plays.

Needs a card of its own to fill: a tmpfs, mounted as root; elsewhere the test skips with one line."""

import asyncio
import subprocess
from pathlib import Path

import pytest

from tests.asyncio_support import run
from tests.ops.test_stop import ledger_hands, until
from tests.ops.simulated_table import simulated_table
from tests.reliability.campaign import Controller, _fill, card_of

WAITING = "waiting: the table starts by itself once the card has room"


@pytest.fixture
def card(tmp_path):
    path = card_of(tmp_path)
    path.mkdir(parents=True)
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=16m,mode=0755", "tmpfs", str(path)],
                             capture_output=True, text=True)
    if mounted.returncode != 0:
        pytest.skip(f"a card of its own needs a tmpfs mounted as root ({mounted.stderr.strip() or 'mount failed'})")
    try:
        yield path
    finally:
        subprocess.run(["umount", "--lazy", str(path)], check=False)


def said(log: Path, words: str) -> int:
    return log.read_text(encoding="utf-8", errors="replace").count(words) if log.exists() else 0


async def start_on_a_full_card(folder: Path, card: Path):
    region = "wuhan"
    async with simulated_table(folder, region, 4) as (sim, config):
        log = folder / "controller.log"
        controller = Controller(config, region, log)
        await asyncio.to_thread(_fill, card / "ballast")
        try:
            controller.start()
            await until(lambda: said(log, WAITING) == 1, "the line saying it waits for room")
            shown = await e24_on_the_display(sim)
            assert controller.alive()
            controller.stop()                                   # a stop while it waits
            stopped = controller.exits[-1]
            controller.start()
            await until(lambda: said(log, WAITING) == 2, "the second start's line")
            assert controller.alive()
            (card / "ballast").unlink()
            await until(lambda: len(ledger_hands(card / "table.db")) >= 1, "a hand settled once there was room")
            after = (await sim.control.table()).page               # the table's own pages again, not E24
        finally:
            controller.stop()
    return stopped, controller.exits[-1], log.read_text(encoding="utf-8", errors="replace"), shown, after


async def e24_on_the_display(sim) -> dict[str, str]:
    """The table's display once it shows the fault page (the waiting controller paints it)."""
    for _ in range(2400):
        view = await sim.control.table()
        code = view.components.get("fault.t_code")
        if view.page == "fault" and code is not None and code.text.startswith("E24"):
            return {name: c.text for name, c in view.components.items() if name.startswith("fault.")}
        await asyncio.sleep(0.05)
    raise AssertionError("the display never showed E24")


def test_a_controller_started_on_a_full_card_waits_for_room_then_plays(tmp_path, card):
    stopped, last_exit, log, shown, after = run(start_on_a_full_card(tmp_path, card), timeout=300)
    assert shown["fault.t_code"].startswith("E24") and shown["fault.t_hint"] == "请清理存储卡空间或更换存储卡"
    assert stopped == 0 and "stopped by SIGTERM while starting" in log
    assert after != "fault"
    assert last_exit == 0
    assert log.count(WAITING) == 2                              # once per start, not at every look
    assert "the card is full (0 KB free); free space on it" in log and "move it away" not in log
    assert "the card has room again" in log and "Traceback" not in log
