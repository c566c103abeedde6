"""A motor board that rebooted lost the keys it had not reported, so the table says 已重启 未应答的键请再按
— once every seat's display shows its lines again.  Said before (as the board came back), a 确认
pressed on the note could reach the board before that seat's question was painted again, count as
pressed before the question, and be dropped: the fault campaign's stall at 起手小和 (seed 460050, 长沙).
Here the note must find every seat's display drawn."""

import asyncio

from drivers.table_ui import RESTARTED
from firmware.simulated import run_simulated
from rulesets.regions import get_region
from simulator.table import SimulatedTable
from tests.asyncio_support import run


def test_the_reboot_note_comes_once_every_seat_line_is_drawn_again():
    async def play():
        ruleset = get_region("changsha").resolve()
        table = SimulatedTable(seed=3, speed=0, tile_sets=(ruleset.tiles, ruleset.tiles))
        await table.start("pty")
        seats_at_note: list[list[str]] = []
        rebooted = []

        def note_seen(page, component, text):
            if rebooted and RESTARTED in text and not seats_at_note:
                seats_at_note.extend(list(lines) for lines in table.world.seat_displays)
        table.display.watchers.append(note_seen)

        def blow(event):
            if not rebooted and event["event"] == "dealt" and event["hand"] == 1:
                rebooted.append(event)
                asyncio.get_running_loop().call_soon(table.reset_board, "motor")   # at the 起手小和 question
        try:
            result = await run_simulated(ruleset, hands=2, seed=3, table=table, on_event=blow)
        finally:
            await table.stop()
        return result, rebooted, seats_at_note

    result, rebooted, seats_at_note = run(play(), timeout=120)
    assert rebooted and seats_at_note, "the reboot's note never showed"
    assert all(status for status, _ in seats_at_note), f"seat lines still blank at the note: {seats_at_note}"
    assert result.hands == 2
