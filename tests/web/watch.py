"""Play simulated hands with the web server attached, and keep everything it sent.

`watched_run` plays a region against the simulator (firmware.simulated.run_simulated) with the web
view attached, a WebSocket client subscribed to every object, and HTTP requests made while the
hands run (every tenth take asks /api/state; every hand_end asks the history).  It returns what
the clients received, each with the context it was produced in, so `leaks()` can check it after
the run against what `hand_end` revealed.

The context of a stream message is exact: the live table flushes the events it collected before
the state it computed, so a state message is followed in the stream by every event that
happened after it was built.  An HTTP response is checked only when no hand ended between its
request and its answer (else the state it shows may already be past the hand), against what was
public when the answer arrived.
"""

from __future__ import annotations

import asyncio
import json
import re
from dataclasses import dataclass, field
from typing import Any

from aiohttp.test_utils import TestClient, TestServer

from firmware.records.history import History
from firmware.simulated import new_table, run_simulated
from firmware.web.live import LiveTable
from firmware.web.server import build_app
from firmware.web.sim import InProcessSimulator
from rulesets.regions import REGION_IDS, get_region
from rulesets.tiles import Tile

TILE_CODE = re.compile(r"(?<![0-9A-Za-z])([1-9][mps]|[1-7]z|[1-8]f)(?![0-9A-Za-z])")
ZH_NAMES = {t.zh: str(t) for t in Tile if len(t.zh) > 1}        # 一万 … 红中 (single-character flowers are too ambiguous)
# A seat prompt that names a tile of the player's own laid hand (face up in the read zone):
# "胡牌:五筒" (which tile won) and "录入:五筒" (manual entry).  They name no wall tile.
OWN_HAND_PROMPT = re.compile(r"(胡牌|录入):\S+")
REGION_NAMES = sorted({get_region(r).name for r in REGION_IDS}, key=len, reverse=True)


def tiles_named(text: str) -> set[str]:
    """Every tile a message names, by code or by its Chinese name (as codes)."""
    text = OWN_HAND_PROMPT.sub("", text)
    for name in REGION_NAMES:                      # "武汉红中赖子杠" names a region, not a 红中
        text = text.replace(name, "")
    found = set(TILE_CODE.findall(text))
    found |= {code for zh, code in ZH_NAMES.items() if zh in text}
    return found


@dataclass
class Context:
    hand: int                       # the hand open when the message was made (0: none)
    allowed: frozenset[str]         # tiles made public in that hand so far


@dataclass
class Seen:
    kind: str                       # "ws" or the HTTP path
    text: str
    context: Context | None         # None: not checkable (a hand ended while it was in flight)


@dataclass
class Truth:
    """The public course of the hands, from the events in order."""

    hand: int = 0
    allowed: set[str] = field(default_factory=set)
    ends: dict[int, dict[str, Any]] = field(default_factory=dict)
    finished: int = 0

    def on_event(self, event: dict[str, Any]) -> None:
        name = event["event"]
        if name == "hand_start":
            self.hand, self.allowed = event["hand"], set()
        elif name == "resumed":                # a restarted controller: what the hand had made public
            self.hand, self.allowed = event["hand"], set()
            for indicator in event.get("indicators") or ():
                self.on_event({**indicator, "event": "indicator"})
            for win in event.get("wins") or ():
                self.on_event({**win, "event": "win"})
        elif name == "indicator" and event.get("public"):
            self.allowed |= set(event.get("tile") or []) | set(event.get("wilds") or [])
        elif name in ("win", "false_win"):
            self.allowed |= tiles_named(json.dumps({k: v for k, v in event.items() if k in
                                                    ("tiles", "melds", "win_tile", "wilds_as", "flowers")}))
        elif name in ("special_kong", "opening_win"):          # laid face up on the table (issue 16)
            self.allowed |= tiles_named(json.dumps(event["tiles"]))
        elif name == "settlement":                             # every hand laid at the end
            self.allowed |= tiles_named(json.dumps(event["hands"]))
        elif name == "hand_end":
            self.ends[event["hand"]] = event
            self.hand, self.finished = 0, self.finished + 1

    def context(self) -> Context:
        return Context(self.hand, frozenset(self.allowed))


@dataclass
class WatchResult:
    seen: list[Seen]
    truth: Truth
    refused: int
    hands: int
    regions: set[str]


def leaks(result: WatchResult, static_tiles: set[str] = frozenset()) -> list[str]:
    """Every message made during a hand that names a tile of that hand's wall not yet made public,
    carries its salt, or shows a private 宝 line."""
    problems = []
    for seen in result.seen:
        if "宝:" in seen.text:
            problems.append(f"{seen.kind}: a private 宝 line: {seen.text[:200]}")
        context = seen.context
        if context is None or context.hand == 0:
            continue
        end = result.truth.ends.get(context.hand)
        if end is None:
            continue                                    # the run stopped inside this hand: nothing revealed to compare
        if end["salt"] in seen.text:
            problems.append(f"{seen.kind}: hand {context.hand}'s salt before its end")
        wall = {t for pair in end["ring"] for t in pair}
        named = tiles_named(seen.text) & wall
        hidden = named - context.allowed - static_tiles
        if hidden:
            problems.append(f"{seen.kind}: hand {context.hand} named {sorted(hidden)} before they were public: "
                            f"{seen.text[:300]}")
    return problems


# 长春: a private 宝; 杭州 财神, 南昌 精, 武汉 赖子, 上海 百搭: public indicators and wilds.
# (region, hands, seed) plays every scan of what leaves the table runs: the web view's and the broker's.
SHORT_PLAYS = [("changchun", 3, 1), ("hangzhou", 2, 2)]
SOAK_PLAYS = [("changchun", 10, 1), ("jilin", 6, 2), ("hangzhou", 6, 3), ("nanchang", 6, 4), ("wuhan", 6, 5),
              ("shanghai", 6, 6), ("guizhou", 6, 7), ("baida", 6, 8), ("sichuan", 4, 9)]


def assert_nothing_hidden(result: WatchResult, region: str, hands: int) -> None:
    """Every hand played, nothing the filter had to stop, no leak; and 长春's hands had their private 宝
    (else the scan proved nothing about it)."""
    assert result.hands == hands
    assert result.refused == 0, "the public filter had to stop a message"
    problems = leaks(result)
    assert problems == [], "\n".join(problems[:5])
    if region == "changchun":
        baos = [i for end in result.truth.ends.values() for i in end["indicators"] if i["kind"] == "bao"]
        assert baos and all(not i["public"] for i in baos), "the 长春 hands must have had their private 宝"


async def watched_run(region_id: str, hands: int, seed: int, db_path: str, events_path: str,
                      options: dict[str, str] | None = None) -> WatchResult:
    ruleset = get_region(region_id).resolve(options or {})
    table = new_table(ruleset, seed=seed, speed=0)
    live = LiveTable(InProcessSimulator(table))
    truth = Truth()
    seen: list[Seen] = []
    requests: set[asyncio.Task] = set()
    async with TestClient(TestServer(build_app(live, History(db_path)))) as client:
        ws = await client.ws_connect("/websocket")
        await ws.send_json({"jsonrpc": "2.0", "method": "table.objects.subscribe", "id": 1,
                            "params": {"objects": {"table": None, "display": None, "faults": None, "sim": None}}})
        stream = StreamContext()
        reader = asyncio.create_task(_read(ws, seen, stream))

        async def ask(path: str) -> None:
            finished = truth.finished
            response = await client.get(path)
            text = await response.text()            # made between the request and now: what was public by now counts
            seen.append(Seen(path, text, truth.context() if truth.finished == finished else None))

        takes = 0

        def on_event(event: dict[str, Any]) -> None:
            nonlocal takes
            truth.on_event(event)
            paths = []
            if event["event"] == "take":
                takes += 1
                paths = ["/api/state"] if takes % 10 == 0 else []
            elif event["event"] in ("indicator", "ready", "win"):
                paths = ["/api/state", "/api/sim/state"]
            elif event["event"] == "hand_end":
                paths = ["/api/hands", "/api/sessions", "/api/hours"]
            for path in paths:
                task = asyncio.get_running_loop().create_task(ask(path))
                requests.add(task)
                task.add_done_callback(requests.discard)

        await table.start("pty")
        try:
            with open(events_path, "w", encoding="utf-8") as events:
                result = await run_simulated(ruleset, hands=hands, seed=seed, table=table, ledger_path=db_path,
                                             events=events, events_path=events_path, on_event=on_event,
                                             on_session=lambda session: live.attach(session.public_feed()))
        finally:
            await table.stop()
        await asyncio.gather(*list(requests))
        for hand_id in range(1, result.hands + 1):       # every finished hand's lines and audit, after the run
            await ask(f"/api/hands/{hand_id}/events")
        await ws.close()
        await reader
    return WatchResult(seen, truth, live.refused, result.hands, {region_id})


@dataclass
class StreamContext:
    """The context of the stream as its own events tell it (exact: see the module's docstring)."""

    truth: Truth = field(default_factory=Truth)


async def _read(ws, seen: list[Seen], stream: StreamContext) -> None:
    async for message in ws:
        if message.type.name != "TEXT":
            continue
        data = json.loads(message.data)
        if data.get("method") == "notify_table_event":
            event = data["params"][0]
            stream.truth.on_event(event)              # an event is checked with its own reveal (a public indicator, a win)
            seen.append(Seen("ws", message.data, stream.truth.context() if event["event"] != "hand_end" else None))
        else:
            seen.append(Seen("ws", message.data, stream.truth.context()))
