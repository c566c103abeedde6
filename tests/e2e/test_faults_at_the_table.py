"""Faults at the table: they latch, show with their code, and clear only when a person acknowledges."""

import asyncio
import io

from drivers.motor_protocol import Key
from firmware.audit import audit_events, read_events
from firmware.simulated import run_simulated
from rulesets.regions import get_region
from simulator import parse_faults
from simulator.table import SimulatedTable
from tests.asyncio_support import run


async def play(region_id, seed, hands, faults=(), helper=None):
    ruleset = get_region(region_id).resolve()
    table = SimulatedTable(seed=seed, speed=0, tile_sets=(ruleset.tiles, ruleset.tiles), faults=parse_faults(faults))
    await table.start("pty")
    events = io.StringIO()
    task = asyncio.create_task(helper(table)) if helper else None
    try:
        await run_simulated(ruleset, hands=hands, seed=seed, events=events, table=table)
    finally:
        if task is not None:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
        await table.stop()
    return read_events(events.getvalue().splitlines())


def test_a_jammed_lane_latches_until_acknowledged_then_the_build_resumes():
    seen = {}

    async def technician(table):
        while table.display.page != "fault":
            await table.changed(table.changes.version)
        seen["code"] = table.display.text("fault", "t_code")
        await asyncio.sleep(0.05)
        seen["still_latched"] = table.display.page == "fault"      # nothing clears it by itself
        table.clear_jam(1)
        table.press("front", Key.CONFIRM)

    log = run(play("sichuan", 3, 1, ("jam=1:10",), technician), timeout=120)
    faults = [e for e in log if e["event"] == "fault"]
    assert seen == {"code": "E01", "still_latched": True}
    assert faults and faults[0]["code"] == "E01" and faults[0]["latched"]
    assert audit_events(log) == [] and any(e["event"] == "hand_end" for e in log)


def test_a_dead_read_zone_falls_back_to_entry_on_the_seat_panel():
    async def break_the_zones(table):
        while "请出牌" not in table.display.text("main", "t_msg"):
            await table.changed(table.changes.version)
        for unit in (4, 5, 6, 7):
            table.kill_antenna(unit)

    log = None
    for seed in (1, 2, 3):
        log = run(play("changchun", seed, 1, (), break_the_zones), timeout=120)
        if any(e["event"] == "win" for e in log):
            break
    assert any(e["event"] == "zone_fallback" for e in log)
    assert any(e["event"] == "win" for e in log)
    assert any(e["event"] == "fault" and e["code"] == "E20" for e in log)
    assert audit_events(log) == []


def test_the_front_panel_chooses_the_next_ruleset_and_remembers_it(tmp_path):
    from firmware.panel import Settings

    async def owner(table):
        while "请出牌" not in table.display.text("main", "t_msg"):
            await table.changed(table.changes.version)
        for key in (Key.MENU, Key.RIGHT, Key.LIFT):          # 长春 → 吉林 (same tiles), save
            table.press("front", key)

    async def go():
        ruleset = get_region("changchun").resolve()
        table = SimulatedTable(seed=2, speed=0, tile_sets=(ruleset.tiles, ruleset.tiles))
        await table.start("pty")
        events = io.StringIO()
        task = asyncio.create_task(owner(table))
        try:
            await run_simulated(ruleset, hands=2, seed=2, events=events, table=table, settings_path=str(tmp_path / "s.db"))
        finally:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
            await table.stop()
        return read_events(events.getvalue().splitlines())

    log = run(go(), timeout=120)
    starts = [e["ruleset"] for e in log if e["event"] == "hand_start"]
    assert starts == ["changchun", "jilin"]
    assert any(e["event"] == "ruleset_chosen" and e["ruleset"] == "jilin" for e in log)
    assert Settings(tmp_path / "s.db").ruleset_choice()[0] == "jilin"
    assert audit_events(log) == []
