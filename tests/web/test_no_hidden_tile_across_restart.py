"""Never a hidden tile across a restart: the web view watched while a controller stops mid-hand and
a new one resumes the hand (the `resumed` event, the screens drawn again, the live table started
from the journal's view) names no tile of the wall not yet public and no private 宝."""

import asyncio
import io
from typing import Any

from aiohttp.test_utils import TestClient, TestServer

from firmware.records.history import History
from firmware.simulated import run_simulated
from firmware.web.live import LiveTable
from firmware.web.server import build_app
from firmware.web.sim import InProcessSimulator
from rulesets.regions import get_region
from simulator.players import SimulatedPlayers
from simulator.table import SimulatedTable
from tests.asyncio_support import run
from tests.web.watch import Seen, StreamContext, Truth, WatchResult, _read, leaks

OBJECTS = {"table": None, "display": None, "faults": None, "sim": None}


async def watched_across_a_restart(region_id: str, seed: int, db: str, kind: str, takes_after: int,
                                   options: dict[str, str] | None = None) -> WatchResult:
    """The controller stopped `takes_after` takes after the first indicator of `kind` in a hand from
    the second on, then a new one resumes that hand and plays one more; a WebSocket client follows
    it all and /api/state is read every 5 takes and at every indicator (`options`: the region's)."""
    ruleset = get_region(region_id).resolve(options)
    table = SimulatedTable(seed=seed, speed=0, tile_sets=(ruleset.tiles, ruleset.tiles))
    live, truth, seen = LiveTable(InProcessSimulator(table)), Truth(), []
    requests: set[asyncio.Task] = set()
    async with TestClient(TestServer(build_app(live, History(db)))) as client:
        ws = await client.ws_connect("/websocket")
        await ws.send_json({"jsonrpc": "2.0", "method": "table.objects.subscribe", "id": 1,
                            "params": {"objects": OBJECTS}})
        reader = asyncio.create_task(_read(ws, seen, StreamContext()))

        async def ask(path: str) -> None:
            finished = truth.finished
            text = await (await client.get(path)).text()
            seen.append(Seen(path, text, truth.context() if truth.finished == finished else None))

        takes, controller, stop = [], None, {"hand": None, "takes": 0}

        def on_event(event: dict[str, Any]) -> None:
            truth.on_event(event)
            if event["event"] in ("take", "resumed", "indicator"):
                takes.append(event)
                if len(takes) % 5 == 0 or event["event"] != "take":
                    task = asyncio.get_running_loop().create_task(ask("/api/state"))
                    requests.add(task)
                    task.add_done_callback(requests.discard)
            if controller is None or event["hand"] < 2:
                return
            if stop["hand"] is None and event["event"] == "indicator" and event["kind"] == kind:
                stop["hand"] = event["hand"]
            elif event["event"] == "take" and event["hand"] == stop["hand"]:
                stop["takes"] += 1
                if stop["takes"] == takes_after:
                    controller.cancel()                          # no publish, no clean end

        await table.start("pty")
        people = asyncio.create_task(SimulatedPlayers(table, ruleset, seed=seed).run())
        attach = lambda session: live.attach(session.public_feed())       # noqa: E731
        try:
            controller = asyncio.create_task(run_simulated(
                ruleset, hands=None, table=table, players=None, events=io.StringIO(), ledger_path=db, resume=True,
                on_event=on_event, on_session=attach))
            await asyncio.gather(controller, return_exceptions=True)
            controller = None
            result = await run_simulated(ruleset, hands=2, table=table, players=None, events=io.StringIO(),
                                         ledger_path=db, resume=True, on_event=on_event, on_session=attach)
        finally:
            people.cancel()
            await asyncio.gather(people, return_exceptions=True)
            await table.stop()
        await asyncio.gather(*list(requests))
        await ws.close()
        await reader
    return WatchResult(seen, truth, live.refused, result.hands, {region_id})


def test_a_restart_mid_hand_with_a_private_bao_leaks_nothing(tmp_path):
    """长春: the controller stopped three takes after a 宝 was chosen for a ready seat; the hand resumed
    (its 宝 journaled, still private) and settled."""
    # side 0 deals first (no dealer roll): the seed's hands are the ones this scan was built on
    result = run(watched_across_a_restart("changchun", 1, str(tmp_path / "table.db"), "bao", 3,
                                          {"first_dealer": "east"}), timeout=240)
    assert result.refused == 0, "the public filter had to stop a message"
    assert leaks(result) == []
    resumed = next(s for s in result.seen if s.kind == "ws" and '"event": "resumed"' in s.text.replace('":"', '": "'))
    number = resumed.context.hand
    assert '"bao"' in resumed.text, "the 宝 was chosen before the stop, and the resumed hand names it (without its tile)"
    after = result.seen[result.seen.index(resumed):]
    assert sum(s.context is not None and s.context.hand == number for s in after) > 20, "the scan saw the resumed hand"
    baos = [i for i in result.truth.ends[number]["indicators"] if i["kind"] == "bao"]
    assert baos and not any(i["public"] for i in baos)
