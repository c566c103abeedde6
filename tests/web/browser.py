"""A real browser for the page tests: Debian's chromium driven by Playwright (async), offline.

Never `playwright install`: the browser is the system's /usr/bin/chromium, started with the flags
that keep it off the network.  Without it the browser tests skip with one line (under CI=true they
fail instead: .ci/run installs chromium, so a missing browser there is a broken CI, not a skip).
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import os
import shutil
from typing import Any, AsyncIterator

import pytest
from aiohttp.test_utils import TestServer

from firmware.records.history import History
from firmware.simulated import new_table, run_simulated
from firmware.web.live import LiveTable
from firmware.web.server import build_app
from firmware.web.sim import InProcessSimulator
from rulesets.regions import get_region

CHROMIUM = shutil.which("chromium") or ("/usr/bin/chromium" if os.path.exists("/usr/bin/chromium") else None)
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--disable-default-apps"]


def need_browser() -> None:
    """Skip (fail under CI) when the browser or Playwright is missing."""
    missing = None
    if CHROMIUM is None:
        missing = "no chromium on this machine (apt-get install -y chromium)"
    else:
        try:
            importlib.import_module("playwright.async_api")
        except ImportError:
            missing = "playwright is not installed (pip install '.[test]')"
    if missing is not None:
        if os.environ.get("CI"):
            pytest.fail(f"browser tests cannot run in CI: {missing}")
        pytest.skip(f"browser tests skipped: {missing}", allow_module_level=True)


@contextlib.asynccontextmanager
async def browser_page(width: int = 1280, height: int = 900) -> AsyncIterator[Any]:
    from playwright.async_api import async_playwright
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
        try:
            page = await browser.new_page(viewport={"width": width, "height": height})
            errors: list[str] = []
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.errors = errors
            yield page
        finally:
            await browser.close()


@contextlib.asynccontextmanager
async def serving(live: LiveTable, db: str | None) -> AsyncIterator[str]:
    server = TestServer(build_app(live, History(db) if db else None))
    await server.start_server()
    try:
        yield str(server.make_url("/")).rstrip("/")
    finally:
        await server.close()


async def push_in(table: Any) -> None:
    """What the players do at 请推牌入池: once the centre is open, push every loose tile in."""
    from drivers.motor_protocol import LiftPosition
    while table.world.centre != LiftPosition.DOWN:
        await table.changed(table.changes.version)
    table.sweep()


@contextlib.asynccontextmanager
async def idle_table(region: str, db: str, *, players: bool = False, speed: float = 0.0, seed: int = 1,
                     options: dict[str, str] | None = None) -> AsyncIterator[tuple[LiveTable, Any]]:
    """A simulated table running until the block ends: without players it waits for keys (the
    page presses them); with players it plays on by itself."""
    ruleset = get_region(region).resolve(options or {})
    table = new_table(ruleset, seed=seed, speed=speed)
    live = LiveTable(InProcessSimulator(table))
    attached = asyncio.Event()

    def attach(session: Any) -> None:
        live.attach(session.public_feed())
        attached.set()

    await table.start("pty")
    kwargs = {} if players else {"players": None}
    task = asyncio.create_task(run_simulated(ruleset, hands=None, seed=seed, speed=speed, table=table, ledger_path=db,
                                             on_session=attach, **kwargs))
    try:
        await asyncio.wait({task, asyncio.ensure_future(attached.wait())}, return_when=asyncio.FIRST_COMPLETED)
        if task.done():
            task.result()
        yield live, table
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        await table.stop()
