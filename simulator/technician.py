"""A simulated technician for enrolment: lays each kind's tiles in the asked read zone, confirms.

It reads the enrolment prompt on the public display (`drivers.table_ui.enroll_prompt`), picks the
asked tiles from those lying loose on the table top (it can see their faces), lays them in the
seat's read zone and presses 确认 on the front panel.
"""

from __future__ import annotations

import asyncio

from drivers.motor_protocol import Key
from drivers.table_ui import parse_enroll_prompt
from rulesets.tiles import Tile

POLL_S = 0.002


class SimulatedTechnician:
    def __init__(self, table, set_index: int) -> None:
        self.table = table
        self.set_index = set_index

    async def run(self) -> None:
        answered = ""
        while True:
            text = self.table.display.text("main", "t_msg")
            asked = parse_enroll_prompt(text)
            if asked is not None and text != answered:
                name, copies, seat = asked
                kind = Tile.parse(name)
                uids = [tile.uid for tile in self.table.world.out.values()
                        if tile.kind == kind and tile.set_index == self.set_index][:copies]
                self.table.lay(seat, uids)
                self.table.press("front", Key.CONFIRM)
                answered = text
            await asyncio.sleep(POLL_S)
