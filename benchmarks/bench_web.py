"""What the web view costs the table: hands played with and without it, in one process, one loop.

    python benchmarks/bench_web.py [--region wuhan] [--hands 3] [--rounds 5] [--clients 3]

Each round plays the same hands of the same seed twice against the simulator at full speed
(speed 0, so the loop never waits on a clock): once with no web server, once with the server
attached, `--clients` WebSocket clients subscribed to every object (the simulator's too) and
reading all of it, and one more client that subscribes and never reads (it must be dropped, not
waited for).  The order alternates each round.  Printed: the median seconds per run of each, and
their ratio — the table's slowdown with the web view watched as hard as a browser can.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from aiohttp.test_utils import TestClient, TestServer  # noqa: E402

from firmware.records.history import History  # noqa: E402
from firmware.simulated import new_table, run_simulated  # noqa: E402
from firmware.web.live import LiveTable  # noqa: E402
from firmware.web.server import build_app  # noqa: E402
from firmware.web.sim import InProcessSimulator  # noqa: E402
from rulesets.regions import get_region  # noqa: E402

SUBSCRIBE = {"jsonrpc": "2.0", "method": "table.objects.subscribe", "id": 1,
             "params": {"objects": {"table": None, "display": None, "faults": None, "sim": None}}}


async def plain(region: str, hands: int, seed: int, db: str) -> float:
    ruleset = get_region(region).resolve()
    start = time.perf_counter()
    await run_simulated(ruleset, hands=hands, seed=seed, ledger_path=db)
    return time.perf_counter() - start


async def watched(region: str, hands: int, seed: int, db: str, clients: int) -> tuple[float, int, int]:
    ruleset = get_region(region).resolve()
    table = new_table(ruleset, seed=seed, speed=0)
    live = LiveTable(InProcessSimulator(table))
    received = 0
    async with TestClient(TestServer(build_app(live, History(db)))) as client:
        sockets = [await client.ws_connect("/websocket") for _ in range(clients + 1)]
        for ws in sockets:
            await ws.send_json(SUBSCRIBE)

        async def read(ws) -> None:
            nonlocal received
            async for _ in ws:
                received += 1
        readers = [asyncio.create_task(read(ws)) for ws in sockets[:clients]]   # the last one never reads
        await table.start("pty")
        start = time.perf_counter()
        try:
            await run_simulated(ruleset, hands=hands, seed=seed, table=table, ledger_path=db,
                                on_session=lambda session: live.attach(session.public_feed()))
        finally:
            elapsed = time.perf_counter() - start
            await table.stop()
        for ws in sockets:
            await ws.close()
        await asyncio.gather(*readers)
    return elapsed, received, live.dropped


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--region", default="wuhan")
    parser.add_argument("--hands", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--clients", type=int, default=3)
    parser.add_argument("--seed", type=int, default=2)
    args = parser.parse_args()
    base, web, messages, drops = [], [], [], []
    with tempfile.TemporaryDirectory() as folder:
        for n in range(args.rounds):
            order = ("plain", "web") if n % 2 == 0 else ("web", "plain")
            for kind in order:
                db = str(Path(folder) / f"{kind}{n}.db")
                if kind == "plain":
                    base.append(asyncio.run(plain(args.region, args.hands, args.seed, db)))
                else:
                    elapsed, received, dropped = asyncio.run(watched(args.region, args.hands, args.seed, db, args.clients))
                    web.append(elapsed)
                    messages.append(received)
                    drops.append(dropped)
    a, b = statistics.median(base), statistics.median(web)
    print(f"{args.region}, {args.hands} hands × {args.rounds} rounds, speed 0")
    print(f"  without the web view: {a:.2f} s per run (median)")
    print(f"  with it, {args.clients} clients reading everything + 1 that never reads: {b:.2f} s per run (median); "
          f"{statistics.median(messages) / max(args.clients, 1):.0f} messages per client; clients dropped per run: {drops}")
    print(f"  ratio with/without: {b / a:.3f}")


if __name__ == "__main__":
    main()
