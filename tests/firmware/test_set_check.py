"""A set with a missing, extra, duplicated or foreign tile never reaches play: the fault names it, the
table raises the set's walls for a person to mend, waits for 确认 and builds again (issue 10)."""

import asyncio
import io
import json

import pytest

from drivers.motor_protocol import Key
from drivers.table_ui import Phase
from firmware.simulated import run_simulated
from rulesets.regions import REGION_IDS, get_region
from simulator import parse_faults
from simulator.table import SimulatedTable
from simulator.technician import SetMender
from tests.asyncio_support import run
from tests.firmware.scripted_players import DealerWins, WallWalker


class _WithMender:
    """The scripted players, and a person who mends the set when the fault page asks."""

    def __init__(self, players, mender: SetMender) -> None:
        self.players, self.mender = players, mender

    async def run(self) -> None:
        await asyncio.gather(self.players.run(), self.mender.run())


async def mended_play(ruleset, hands: int, table: SimulatedTable, *, careless: int = 0,
                      players=WallWalker) -> tuple[list[dict], SetMender]:
    """Play `hands` hands on `table` with a mender at it: the recorder's events, and the mender."""
    menders: list[SetMender] = []

    def crew(table, ruleset, seed):
        menders.append(SetMender(table, careless))
        return _WithMender(players(table, ruleset, seed), menders[-1])

    events = io.StringIO()
    result = await run_simulated(ruleset, hands=hands, seed=2, events=events, players=crew, table=table)
    assert result.hands == hands
    return [json.loads(line) for line in events.getvalue().splitlines()], menders[0]


def mended_run(region: str, hands: int, *, faults=(), careless: int = 0, players=WallWalker,
               prepare=lambda table: None) -> tuple[list[dict], SetMender]:
    """`mended_play` on a new table with `faults`, after `prepare(table)`."""
    async def go():
        ruleset = get_region(region).resolve()
        table = SimulatedTable(seed=2, speed=0, tile_sets=(ruleset.tiles, ruleset.tiles), faults=parse_faults(faults))
        await table.start("pty")
        try:
            prepare(table)
            return await mended_play(ruleset, hands, table, careless=careless, players=players)
        finally:
            await table.stop()
    return run(go(), timeout=120)


def waiting_for_a_person(region: str, faults=(), tile_sets=None) -> tuple[list[dict], dict[str, str]]:
    """Run with the scripted players and nobody to mend until the rejected walls stand and the table
    asks for a person; the events so far and the fault page then (the run is stopped there).  A fault
    shown before (a lane left short stops the mechanism) is acknowledged, mending nothing."""
    async def go():
        ruleset = get_region(region).resolve()
        table = SimulatedTable(seed=2, speed=0, tile_sets=tile_sets or (ruleset.tiles, ruleset.tiles),
                               faults=parse_faults(faults))
        await table.start("pty")
        events = io.StringIO()
        session = asyncio.ensure_future(run_simulated(ruleset, hands=1, seed=2, events=events, players=WallWalker,
                                                      table=table))
        answered = None
        try:
            while not table.display.text("main", "t_msg").startswith(Phase.FAULT.value):
                seen = table.changes.version
                assert not session.done(), "the session ended instead of waiting for a person"
                showing = (table.display.page, table.display.text("fault", "t_code"))
                if showing[0] == "fault" and showing != answered:
                    answered = showing
                    table.press("front", Key.CONFIRM)
                elif showing[0] != "fault":
                    answered = None
                await table.changed(seen)
            page = {name: table.display.text("fault", name) for name in ("t_code", "t_text", "t_hint")}
            page["showing"] = table.display.page
            return page, events
        finally:
            session.cancel()
            await asyncio.gather(session, return_exceptions=True)
            await table.stop()

    page, events = run(go(), timeout=90)
    return [json.loads(line) for line in events.getvalue().splitlines()], page


def kinds(events: list[dict], name: str) -> list[dict]:
    return [e for e in events if e["event"] == name]


@pytest.mark.parametrize("fault, code, words", [
    ("missing_tile", "E07", "missing 1 ×"),
    ("extra_tile", "E09", "unknown tag"),       # a stray tile: its tag is in no registry
    ("duplicate_tag", "E08", "duplicated tag"),
])
def test_a_bad_set_is_named_shown_and_waits_for_a_person(fault, code, words):
    events, page = waiting_for_a_person("sichuan", (fault,))
    faults = kinds(events, "fault")
    assert any(f["code"] == code and words in f["message"] for f in faults), faults
    assert all(f["latched"] for f in faults)
    assert not kinds(events, "hand_start") and not kinds(events, "dealt")
    check = kinds(events, "set_check")[0]
    assert not check["ok"] and check["problems"]
    assert page["showing"] == "fault" and page["t_text"].startswith("牌组有误：") and page["t_hint"].endswith("按确认")
    assert not kinds(events, "set_rebuild")                    # nobody acknowledged: nothing rebuilt


def test_a_first_set_missing_a_tile_is_mended_rebuilt_and_played():
    """The first set lacks a tile: E07 on the display, nothing dealt; the walls rise, a person lays the
    lost tile on the table and presses 确认; the other set is built and played while the mended set
    goes into the mixer and is built again — whole this time — for the next hand."""
    events, mender = mended_run("changchun", 2, faults=("missing_tile",))
    assert mender.seen and mender.seen[-1][0] == "E07" and "缺 1 张" in mender.seen[-1][1]
    assert any(line.startswith("found ") for line in mender.done)
    names = [e["event"] for e in events]
    assert names.index("set_aside") < names.index("set_rebuild") < names.index("hand_start")
    assert [c["ok"] for c in kinds(events, "set_check")][:3] == [False, True, True]
    assert len(kinds(events, "hand_end")) == 2


def test_a_stray_tile_built_in_is_taken_out_and_the_sets_sorted_until_both_are_whole():
    """A stray tile in the mixer is built in (E09) and leaves one of the set behind in the mixer, which
    then goes into the other set's build (E10, and E07 for the tile it lacks), and so on at every
    build.  A person takes the stray out, keeps each tile of the other set until its own walls are up
    and lays it back then: the sets come right and the table plays (before, with no tile kept, the
    two sets swapped a tile at every build and no hand was ever played)."""
    events, mender = mended_run("changchun", 2, faults=("extra_tile",))
    assert any(line.startswith("took out ") and "kept it for its set" in line for line in mender.done), mender.done
    assert any("on the table top" in line for line in mender.done), mender.done
    assert len(kinds(events, "hand_end")) == 2


def test_a_duplicated_tag_is_mended_at_the_raised_walls():
    events, mender = mended_run("changchun", 1, faults=("duplicate_tag",))
    assert any("its own tag back" in line for line in mender.done), mender.done
    assert [c["ok"] for c in kinds(events, "set_check")][:2] == [False, True]


def test_a_set_still_wrong_is_rejected_again_and_waits_again():
    """A person who confirms without mending: the set is rejected again (latched, shown, waited for);
    mended the second time, the table plays on.  Never a rebuild without a 确认 between."""
    events, mender = mended_run("changchun", 2, faults=("missing_tile",), careless=1)
    assert mender.done[0] == "confirmed without mending"
    checks = [c["ok"] for c in kinds(events, "set_check")]
    assert checks.count(False) == 2 and checks[-1]
    assert len(kinds(events, "set_aside")) == len(kinds(events, "set_rebuild")) == 2
    names = [e["event"] for e in events]
    asides = [i for i, n in enumerate(names) if n == "set_aside"]
    rebuilds = [i for i, n in enumerate(names) if n == "set_rebuild"]
    assert all(a < r for a, r in zip(asides, rebuilds))
    assert len(kinds(events, "hand_end")) == 2


def test_a_set_rejected_mid_session_keeps_the_totals_and_the_dealer():
    """The second set (lying on the table at the start) lacks a tile: the first hand plays, the set
    built under it is rejected, and the next hand goes on from the first one's totals and dealer."""
    def lose_a_tile_of_the_second_set(table: SimulatedTable) -> None:
        table.remove_tile(next(t for t in table.world.out.values() if t.set_index == 1).uid)

    events, mender = mended_run("dongbei", 3, players=DealerWins, prepare=lose_a_tile_of_the_second_set)
    assert [c["ok"] for c in kinds(events, "set_check")][:3] == [True, False, True]
    assert len(kinds(events, "session_start")) == 1
    starts, ends = kinds(events, "hand_start"), kinds(events, "hand_end")
    assert [e["hand"] for e in ends] == [1, 2, 3]
    assert starts[1]["dealer"] == ends[0]["next_dealer"]
    assert ends[1]["totals"] == [t + p for t, p in zip(ends[0]["totals"], ends[1]["payments"])]
    assert any(t != 0 for t in ends[0]["totals"])             # the totals carried were not all zero


def test_a_restart_at_the_rejected_walls_asks_the_person_again(tmp_path):
    """The controller stops while the rejected walls wait for a person; the next one (same table, same
    database) shows the faults again and waits — it neither pushes the walls in nor builds before 确认."""
    async def go():
        ruleset = get_region("changchun").resolve()
        table = SimulatedTable(seed=2, speed=0, tile_sets=(ruleset.tiles, ruleset.tiles),
                               faults=parse_faults(("missing_tile",)))
        await table.start("pty")
        people = asyncio.ensure_future(WallWalker(table, ruleset).run())     # they outlive the controller
        db, first, second = str(tmp_path / "table.db"), io.StringIO(), io.StringIO()
        mender_task = None
        try:
            controller = asyncio.ensure_future(run_simulated(ruleset, hands=None, table=table, players=None,
                                                             events=first, ledger_path=db, resume=True))
            answered = None
            while not table.display.text("main", "t_msg").startswith(Phase.FAULT.value):
                seen = table.changes.version
                assert not controller.done()
                showing = (table.display.page, table.display.text("fault", "t_code"))
                if showing[0] == "fault" and showing != answered:       # the lane short stops the mechanism
                    answered = showing
                    table.press("front", Key.CONFIRM)
                elif showing[0] != "fault":
                    answered = None
                await table.changed(seen)
            controller.cancel()
            await asyncio.gather(controller, return_exceptions=True)
            mender = SetMender(table)
            mender_task = asyncio.ensure_future(mender.run())
            result = await run_simulated(ruleset, hands=1, table=table, players=None, events=second,
                                         ledger_path=db, resume=True)
            return result, [json.loads(line) for line in second.getvalue().splitlines()], mender
        finally:
            for task in (people, mender_task):
                if task is not None:
                    task.cancel()
                    await asyncio.gather(task, return_exceptions=True)
            await table.stop()

    result, events, mender = run(go(), timeout=120)
    assert result.hands == 1
    names = [e["event"] for e in events]
    assert names.index("session_resumed") < names.index("set_aside") < names.index("set_rebuild")
    assert "E07" in [e["code"] for e in events[:names.index("set_aside")] if e["event"] == "fault"]
    checks = [e for e in events if e["event"] == "set_check"]
    assert checks[0]["ok"] and checks[0]["tile_set"] == 1       # the other set: the rejected one waited for 确认
    assert names.index("set_rebuild") < names.index("set_check")
    assert any(line.startswith("found ") for line in mender.done)


def test_rules_chosen_while_a_rejected_set_waits_are_the_next_build_s():
    """四川 (108 tiles) played on a table of 136: E07 at every build.  The owner chose 长春 on the panel
    during a rebuild (洗牌中 新规则下局生效): never applied — the table built for 四川 again and again
    until a restart (a probe).  The choice is the next build's: a new session, and the set (once a
    person sorted the two sets 四川's builds mixed) checked against 长春 and found whole."""
    async def go():
        changchun = get_region("changchun").resolve()
        table = SimulatedTable(seed=2, speed=0, tile_sets=(changchun.tiles, changchun.tiles))
        await table.start("pty")
        events: list[dict] = []
        checked = asyncio.Event()

        def heard(event: dict) -> None:
            events.append(event)
            if event["event"] == "set_check" and event["ok"] and any(
                    e["event"] == "session_start" and e["ruleset"] == "changchun" for e in events):
                checked.set()

        session = asyncio.ensure_future(run_simulated(get_region("sichuan").resolve(), hands=1, seed=2, players=WallWalker,
                                                      table=table, on_event=heard))

        async def until_shown(text: str) -> None:
            while text not in table.display.text("main", "t_msg"):
                assert not session.done(), "the session ended"
                await table.changed(table.changes.version)

        mender = None
        try:
            await until_shown(Phase.FAULT.value)
            table.press("front", Key.CONFIRM)               # acknowledged, nothing mended: built again
            await until_shown(Phase.BUILDING.value)
            right = (REGION_IDS.index("changchun") - REGION_IDS.index("sichuan")) % len(REGION_IDS)
            for key in (Key.MENU, *[Key.RIGHT] * right, Key.LIFT):
                table.press("front", key)
            # 四川's check again, the sets mixed by its builds: a person sorts them, for 长春 now
            mender = asyncio.ensure_future(SetMender(table).run())
            await asyncio.wait_for(checked.wait(), 90)
        finally:
            for task in (session, mender):
                if task is not None:
                    task.cancel()
                    await asyncio.gather(task, return_exceptions=True)
            await table.stop()
        return events

    events = run(go(), timeout=120)
    assert [e["ruleset"] for e in kinds(events, "session_start")] == ["sichuan", "changchun"]
