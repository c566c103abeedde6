"""本局结束 and the hand's result showed on the public line only for a moment: the push-in was asked at
once, and its line replaced them (a probe: players looked up to find who had won).  The push-in
request says the hand just settled: `请推牌入池后按确认 上局胡 东家`, or `上局荒庄`."""

from __future__ import annotations

import asyncio

from drivers.table_ui import LAST_HAND, Phase
from firmware.simulated import run_simulated
from rulesets.regions import get_region
from simulator.table import SimulatedTable
from tests.asyncio_support import run


async def push_in_lines(region_id: str, seed: int) -> tuple[list[tuple[str, list[str]]], list[dict]]:
    ruleset = get_region(region_id).resolve()
    table = SimulatedTable(seed=seed, speed=0, tile_sets=(ruleset.tiles, ruleset.tiles))
    await table.start("pty")
    seen: list[tuple[str, list[str]]] = []
    ends: list[dict] = []

    async def onlooker() -> None:
        """Each push-in line, with the seat labels the main page showed beside it."""
        while True:
            version = table.changes.version
            message = table.display.text("main", "t_msg")
            if message.startswith(Phase.PUSH_IN.value) and message not in [m for m, _ in seen]:
                seen.append((message, [table.display.text("main", f"t_name{side}") for side in range(4)]))
            await table.changed(version)

    watcher = asyncio.create_task(onlooker())
    try:
        await run_simulated(ruleset, hands=2, seed=seed, table=table,
                            on_event=lambda e: ends.append(e) if e["event"] == "hand_end" else None)
    finally:
        watcher.cancel()
        await asyncio.gather(watcher, return_exceptions=True)
        await table.stop()
    return seen, ends


def test_the_push_in_request_says_how_the_hand_just_played_ended():
    """…naming the winners by the seat labels the main page shows beside it: named by the finished hand's
    dealer while the labels had moved on with the deal, it sent players to the wrong seat (a probe)."""
    seen, ends = run(push_in_lines("shanghai", 1), timeout=60)
    after_hand = [(m, names) for m, names in seen if LAST_HAND in m]
    assert after_hand, seen
    message, names = after_hand[0]
    winners = ends[0]["winners"]
    expected = "荒庄" if not winners else "胡 " + " ".join(f"{names[w]}家" for w in winners)
    assert message == f"{Phase.PUSH_IN.value} {LAST_HAND}{expected}", (message, names, winners)


class PushIns:
    """Each push-in line the main page shows once `watch` is called (a restarted controller's), with the
    seat labels beside it; watched from the loop that runs the restarted controller."""

    def __init__(self) -> None:
        self.seen: list[tuple[str, list[str]]] = []
        self._tasks: list[asyncio.Task] = []

    def watch(self, table) -> None:
        async def onlooker() -> None:
            while True:
                version = table.changes.version
                message = table.display.text("main", "t_msg")
                if message.startswith(Phase.PUSH_IN.value) and message not in [m for m, _ in self.seen]:
                    self.seen.append((message, [table.display.text("main", f"t_name{side}") for side in range(4)]))
                await table.changed(version)
        self._tasks.append(asyncio.get_running_loop().create_task(onlooker()))

    async def restarted(self, tmp_path, meanwhile=None, **crash):
        """`crash_and_restart` on 广水 seed 3, watching the push-ins from the restart on."""
        from tests.firmware.test_restart import crash_and_restart

        def then_watch(table, ruleset, events) -> None:
            if meanwhile is not None:
                meanwhile(table, ruleset, events)
            self.watch(table)
        try:
            return await crash_and_restart("guangshui", 3, str(tmp_path / "t.db"), meanwhile=then_watch, **crash)
        finally:
            for task in self._tasks:
                task.cancel()
            await asyncio.gather(*self._tasks, return_exceptions=True)


def test_the_push_in_after_a_void_hand_says_it_was_void(tmp_path):
    """A hand voided at a restart (a tile put back on the wall while no controller watched): 本局作废
    showed only for a moment before the push-in (a probe never saw it); the push-in says 上局作废."""
    from rulesets.walls import Break
    from tests.firmware.test_restart import nth_take_of_hand_2

    def put_one_back(table, ruleset, events) -> None:
        start = next(e for e in events if e["event"] == "hand_start" and e["hand"] == 2)
        head = ruleset.layout.ring(Break(start["break"]["wall"], start["break"]["skip"]))[0]
        table.put_back(head.wall, head.stack, next(iter(table.world.out.values())).uid)

    push_ins = PushIns()
    _, _, after = run(push_ins.restarted(tmp_path, put_one_back, stop_when=nth_take_of_hand_2(70)), timeout=180)
    assert any(e["event"] == "hand_void" for e in after)
    assert any(f" {LAST_HAND}作废" in m for m, _ in push_ins.seen), push_ins.seen     # (after the restart note)


def test_a_restart_at_the_push_in_still_says_how_the_last_hand_ended(tmp_path):
    """A controller stopped at the push-in: the restarted one asked for it again with its restart note
    alone, and players who looked up then never saw who had won (a probe).  It says both."""
    from drivers.motor_protocol import LiftPosition
    from drivers.table_ui import RESTARTED

    def at_the_push_in(table) -> bool:
        return table.world.centre == LiftPosition.DOWN and \
            table.display.text("main", "t_msg").startswith(Phase.PUSH_IN.value)

    push_ins = PushIns()
    _, before, _ = run(push_ins.restarted(tmp_path, crash_when=at_the_push_in), timeout=180)
    last = [e for e in before if e["event"] == "hand_end"][-1]
    noted = [(m, names) for m, names in push_ins.seen if RESTARTED in m]
    assert noted, "no push-in was asked after the restart"
    message, names = noted[0]
    expected = "荒庄" if not last["winners"] else "胡 " + " ".join(f"{names[w]}家" for w in last["winners"])
    assert message.endswith(f" {LAST_HAND}{expected}"), (message, last["winners"])
