"""Table hours from a running table: a latched fault's interval reaches the ledger and the hours."""

import json
import sqlite3

from firmware.records.history import History
from tests.asyncio_support import run
from tests.web.browser import idle_table


async def until(table, condition):
    """Wait (never spin) until `condition()` holds; the table announces every visible change."""
    while not condition():
        await table.changed(table.changes.version)


def test_an_open_hatch_is_time_lost_to_faults(tmp_path):
    db = tmp_path / "t.db"

    async def go():
        async with idle_table("changchun", str(db)) as (live, table):
            await until(table, lambda: live.status()["table"].get("session") is not None)
            table.open_hatch(force=True)
            await until(table, lambda: live.status()["faults"]["active"])
            hatch = [f for f in live.status()["faults"]["latched"] if f["code"] == "E12"]
            assert hatch and hatch[0]["name_zh"] == "检修盖打开" and hatch[0]["todo_zh"] == "关好检修盖"
            table.inject_fault("overtemp")                  # a second fault while the first is latched
            await until(table, lambda: any(f["code"] == "E11" for f in live.status()["faults"]["latched"]))
            table.clear_fault("overtemp")
            table.close_hatch()
            table.press("front", "confirm")                 # a person acknowledges the board's E12 and E11
            await until(table, lambda: not live.status()["faults"]["active"])
    run(go(), timeout=60)
    with sqlite3.connect(db) as con:
        rows = con.execute("SELECT codes, started, ended FROM fault_intervals").fetchall()
        (ended,) = con.execute("SELECT ended FROM sessions").fetchone()
    assert len(rows) == 1 and rows[0][2] >= rows[0][1]
    assert json.loads(rows[0][0]) == ["E11", "E12"]         # the interval names both (it kept only the first)
    assert ended is not None                                # the session closed when the run stopped
    (hours,) = History(db).session_hours()
    assert hours.fault_s == rows[0][2] - rows[0][1] and hours.played_s == hours.wall_s - hours.fault_s
