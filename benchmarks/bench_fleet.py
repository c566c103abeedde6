"""A parlour under load: many simulated tables reporting to one Mosquitto, one parlour page watching.

    python benchmarks/bench_fleet.py [--tables 50] [--workers 5] [--hands 2] [--speed 10] [--rounds 2] [--stagger 0.2] [--deadline 180]

Each round plays the same tables (same region, same seeds) twice, in alternating order: once
reporting (every table with its own FleetPublisher, the parlour's watcher and page in this
process, one WebSocket client reading the page), once without reporting — the named peer.  The
tables run in `--workers` processes, each playing its share side by side in one event loop, on
the simulator's real serial links over ptys.  Printed per round and as medians:

- the tables' wall time with and without reporting, and their ratio (what reporting costs a table);
- messages the parlour received per second, and the broker's CPU time per 1000 messages;
- latency, event emitted at the table → received by the parlour (p50/p95/p99/max), settled hand
  → stored by the parlour, settled hand → shown on the page;
- losses: events missing from each table's numbering, hands played but never stored (both must be 0),
  and duplicates (a hand or event received twice, kept once).

The default speed 10 plays ten times faster than a real table (a simulated hand takes about 8 s
instead of a minute and a half), so the load is ten real parlours' worth.  At speed 0 the tables
run as fast as the CPU lets them: 50 of them on two cores starve their own serial links (a board
link silent for 0.6 s is an episode: E23, reconnect, resume) whether they report or not; the
summary counts those episodes each way.
"""

from __future__ import annotations

import argparse
import asyncio
import concurrent.futures
import importlib
import json
import multiprocessing
import os
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import aiohttp  # noqa: E402

from firmware.fleet.publisher import FleetPublisher  # noqa: E402
from firmware.fleet.settings import BrokerSettings, FleetSettings  # noqa: E402
from firmware.parlour.server import ParlourServer  # noqa: E402
from firmware.records.history import History  # noqa: E402
from firmware.parlour.watcher import ParlourWatcher  # noqa: E402
from firmware.simulated import run_simulated  # noqa: E402
from firmware.web.server import WebSettings  # noqa: E402
from rulesets.regions import get_region  # noqa: E402
from tests.fleet.broker import Broker  # noqa: E402


# -- the tables, in worker processes ---------------------------------------------------------------------

def play_tables(port: int | None, names: list[str], region: str, hands: int, speed: float, folder: str,
                stagger: float, deadline: float) -> list[dict]:
    """Play each named table (seeded by its index) side by side; report to the broker when `port`.
    Table n starts n × `stagger` seconds after the round began, as a parlour's tables are switched on;
    one still playing `deadline` seconds after its start is stopped and counted as stuck."""
    return asyncio.run(_play_tables(port, names, region, hands, speed, Path(folder), stagger, deadline))


async def _play_tables(port, names, region, hands, speed, folder: Path, stagger: float,
                       deadline: float) -> list[dict]:
    ruleset = get_region(region).resolve()

    async def one(name: str, seed: int) -> dict:
        await asyncio.sleep(seed * stagger)
        ledger = folder / f"{name}.db"
        publisher = None
        if port is not None:
            publisher = FleetPublisher(FleetSettings(BrokerSettings("127.0.0.1", port), name),
                                       folder / f"{name}.outbox.db", ledger)
            await publisher.start()
        start = time.perf_counter()
        failed = None
        episodes: list[dict] = []           # a board link lost and back: the loop starved (E23)

        def note(event: dict) -> None:
            if event["event"] == "link_back":
                episodes.append(event)

        try:
            result = await asyncio.wait_for(run_simulated(
                ruleset, hands=hands, seed=seed, speed=speed, ledger_path=str(ledger), on_event=note,
                on_session=(lambda s: publisher.attach(s.public_feed())) if publisher else None), deadline)
        except asyncio.TimeoutError:        # a table that stopped making progress: not the broker's doing
            failed = f"stuck: still playing after {deadline:g} s"
        except Exception as error:          # an overloaded machine: the table stops; say so, go on
            failed = f"{type(error).__name__}: {error}"
        finally:
            elapsed = time.perf_counter() - start
            if publisher is not None:
                await publisher.stop(grace=60)
        played = History(ledger).hands() if failed else None
        return {"table": name, "hands": len(played) if failed else result.hands,
                "events": publisher.report.seq if publisher else 0, "elapsed": elapsed, "failed": failed,
                "episodes": len(episodes),
                "refused": publisher.stats.refused if publisher else 0,
                "waiting": publisher.waiting_hands if publisher else 0}

    watchdog = asyncio.create_task(_stuck_after(len(names) * stagger + deadline + 120))
    try:
        return await asyncio.gather(*(one(name, int(name.rsplit("t", 1)[1])) for name in names))
    finally:
        watchdog.cancel()


async def _stuck_after(seconds: float) -> None:
    """A round that does not end: print where every task of this worker waits."""
    await asyncio.sleep(seconds)
    for task in asyncio.all_tasks():
        task.print_stack(limit=6, file=sys.stderr)


# -- the parlour, here ------------------------------------------------------------------------------------

class Page:
    """One browser's worth: a WebSocket on the parlour page, noting when each hand first shows."""

    def __init__(self, address: str) -> None:
        self.address = address
        self.shown: dict[str, float] = {}
        self.views = 0
        self.viewed = asyncio.Event()

    async def read(self) -> None:
        async with aiohttp.ClientSession() as session, session.ws_connect(self.address + "websocket") as ws:
            async for message in ws:
                now = time.time()
                self.views += 1
                for hand in json.loads(message.data)["recent"]:
                    self.shown.setdefault(hand["id"], now - hand["finished"])
                viewed, self.viewed = self.viewed, asyncio.Event()
                viewed.set()

    async def until_shown(self, ids: list[str], timeout: float) -> None:
        """Until every hand showed on the page (a hand may also scroll past between two views)."""
        deadline = time.monotonic() + timeout
        while not all(i in self.shown for i in ids) and time.monotonic() < deadline:
            try:
                await asyncio.wait_for(self.viewed.wait(), max(0.0, deadline - time.monotonic()))
            except asyncio.TimeoutError:
                break


def warm_up() -> None:
    """Start a worker and import what it plays with, before any round is timed."""
    for module in ("firmware.fleet.publisher", "firmware.simulated", "simulator.players"):
        importlib.import_module(module)
    get_region("wuhan").resolve()
    time.sleep(0.5)                    # every worker of the pool gets one


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def percentiles(values: list[float]) -> str:
    if not values:
        return "—"
    ordered = sorted(values)
    pick = lambda q: ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000  # noqa: E731
    return f"p50 {pick(0.5):.1f} · p95 {pick(0.95):.1f} · p99 {pick(0.99):.1f} · max {ordered[-1] * 1000:.1f} ms"


async def one_round(n: int, publish: bool, args, pool, broker: Broker, watcher: ParlourWatcher, page: Page,
                    folder: Path) -> dict[str, Any]:
    names = [f"r{n}{'p' if publish else 'q'}t{i:02d}" for i in range(args.tables)]
    shares = [names[w::args.workers] for w in range(args.workers)]
    loop = asyncio.get_running_loop()
    latencies: list[float] = []
    listener = lambda table, envelope, now: latencies.append(now - envelope["at"])  # noqa: E731
    stop_listening = watcher.listen_events(listener) if publish else None
    messages_before, hands_before = watcher.stats.messages, watcher.stats.hands
    cpu_before = cpu_seconds(broker.proc.pid)
    start = time.perf_counter()
    results = [r for share in await asyncio.gather(*(loop.run_in_executor(
        pool, play_tables, broker.port if publish else None, share, args.region, args.hands, args.speed, str(folder),
        args.stagger, args.deadline)
        for share in shares)) for r in share]
    tables_s = time.perf_counter() - start
    out: dict[str, Any] = {"publish": publish, "tables_s": tables_s, "hands": sum(r["hands"] for r in results),
                           "play_s": statistics.median(r["elapsed"] for r in results),
                           "failed": [f"{r['table']}: {r['failed']}" for r in results if r["failed"]],
                           "episodes": sum(r["episodes"] for r in results)}
    if not publish:
        return out
    hands_played = out["hands"]
    events_sent = {r["table"]: r["events"] for r in results}
    mine = lambda: [watcher.tables[name] for name in names if name in watcher.tables]  # noqa: E731
    try:
        await watcher.wait_until(lambda: watcher.stats.hands - hands_before >= hands_played
                                 and sum(t.events for t in mine()) >= sum(events_sent.values()), 300)
    except asyncio.TimeoutError:
        print("  (the parlour did not get everything within 300 s)")
    received_s = time.perf_counter() - start
    assert stop_listening is not None
    stop_listening()
    tables = mine()
    hand_ids, hand_latency = hands_received(folder / "parlour.db", names)
    await page.until_shown(hand_ids, 10)
    out.update({
        "received_s": received_s, "messages": watcher.stats.messages - messages_before,
        "broker_cpu": cpu_seconds(broker.proc.pid) - cpu_before,
        "events_sent": sum(events_sent.values()), "events_received": sum(t.events for t in tables),
        "events_missed": sum(t.missed for t in tables) + sum(max(0, events_sent[t.name] - t.last_seq) for t in tables),
        "events_repeated": sum(t.repeated for t in tables),
        "hands_stored": len(hand_ids), "hands_lost": hands_played - len(hand_ids),
        "refused": sum(r["refused"] for r in results), "waiting": sum(r["waiting"] for r in results),
        "event_latency": latencies, "hand_latency": hand_latency,
        "page_latency": [page.shown[i] for i in hand_ids if i in page.shown],
    })
    return out


def hands_received(db: Path, names: list[str]) -> tuple[list[str], list[float]]:
    marks = ",".join("?" * len(names))
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as connection:
        rows = connection.execute(f"SELECT id, received - finished FROM hands WHERE tbl IN ({marks})", names).fetchall()
    return [row[0] for row in rows], [row[1] for row in rows]


async def bench(args) -> None:
    folder = Path(tempfile.mkdtemp(prefix="bench-fleet-"))
    broker = Broker(folder / "broker")
    broker.start()
    watcher = ParlourWatcher(broker.settings, folder / "parlour.db", client_id="bench-parlour")
    await watcher.start()
    await watcher.connected.wait()
    server = ParlourServer(WebSettings("127.0.0.1", 0), watcher)
    page = Page(await server.start())
    reader = asyncio.create_task(page.read())
    pool = concurrent.futures.ProcessPoolExecutor(args.workers, mp_context=multiprocessing.get_context("spawn"))
    await asyncio.gather(*(asyncio.get_running_loop().run_in_executor(pool, warm_up) for _ in range(args.workers)))
    rounds = []
    try:
        for n in range(args.rounds):
            for publish in ((True, False) if n % 2 == 0 else (False, True)):
                rounds.append(await one_round(n, publish, args, pool, broker, watcher, page, folder))
                report_round(n, rounds[-1])
    finally:
        pool.shutdown()
        reader.cancel()
        await asyncio.gather(reader, return_exceptions=True)
        await server.stop()
        await watcher.stop()
        broker.close()
        shutil.rmtree(folder, ignore_errors=True)    # the tables' databases and the broker's files
    summary(args, rounds, page)


def report_round(n: int, r: dict[str, Any]) -> None:
    for failure in r["failed"]:
        print(f"  a table stopped: {failure}")
    if not r["publish"]:
        print(f"round {n} without reporting: {r['hands']} hands played in {r['play_s']:.2f} s")
        return
    print(f"round {n} reporting: {r['hands']} hands played in {r['play_s']:.2f} s; parlour has everything after "
          f"{r['received_s']:.2f} s: {r['messages']} messages ({r['messages'] / r['received_s']:.0f}/s); "
          f"events {r['events_received']}/{r['events_sent']} (missed {r['events_missed']}, repeated "
          f"{r['events_repeated']}); hands {r['hands_stored']}/{r['hands']} (lost {r['hands_lost']}); "
          f"refused {r['refused']}, left waiting {r['waiting']}")


def summary(args, rounds: list[dict[str, Any]], page: Page) -> None:
    on = [r for r in rounds if r["publish"]]
    off = [r for r in rounds if not r["publish"]]
    with_s, without_s = statistics.median(r["play_s"] for r in on), statistics.median(r["play_s"] for r in off)
    rate = statistics.median(r["messages"] / r["received_s"] for r in on)
    cpu = statistics.median(1000 * r["broker_cpu"] / r["messages"] for r in on)
    print(f"\n$ python {' '.join(sys.argv)}")
    print(f"{args.tables} tables × {args.hands} hands of {args.region}, speed {args.speed:g}, {args.workers} worker "
          f"processes, {len(on)} rounds each way, one parlour page ({page.views} views pushed)")
    print(f"  the tables played their hands in {with_s:.2f} s reporting, {without_s:.2f} s not reporting "
          f"(a table's own time, median table, median of rounds); ratio {with_s / without_s:.3f}")
    print(f"  parlour received {rate:.0f} messages/s (median); broker CPU {cpu * 1000:.0f} µs per message")
    print(f"  event → parlour:  {percentiles([x for r in on for x in r['event_latency']])}")
    print(f"  hand → stored:    {percentiles([x for r in on for x in r['hand_latency']])}")
    print(f"  hand → page:      {percentiles([x for r in on for x in r['page_latency']])} "
          f"({sum(len(r['page_latency']) for r in on)} of {sum(r['hands_stored'] for r in on)} hands seen on the page)")
    print(f"  tables that stopped (an overloaded machine): {sum(len(r['failed']) for r in on)} reporting, "
          f"{sum(len(r['failed']) for r in off)} not reporting; link episodes (a starved loop, E23): "
          f"{sum(r['episodes'] for r in on)} reporting, {sum(r['episodes'] for r in off)} not reporting")
    print(f"  losses: events missed {sum(r['events_missed'] for r in on)}, hands lost {sum(r['hands_lost'] for r in on)}; "
          f"repeated events {sum(r['events_repeated'] for r in on)}; refused by the filter {sum(r['refused'] for r in on)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--workers", type=int, default=5)
    parser.add_argument("--hands", type=int, default=2)
    parser.add_argument("--speed", type=float, default=10.0)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--region", default="wuhan")
    parser.add_argument("--stagger", type=float, default=0.2,
                        help="seconds between two tables' starts (50 tables started at once overload two cores)")
    parser.add_argument("--deadline", type=float, default=180.0,
                        help="seconds a table may play before it is stopped and counted as stuck")
    asyncio.run(bench(parser.parse_args()))


if __name__ == "__main__":
    main()
