"""Simulated people who look after the table (not players).

- `SimulatedTechnician`, for enrolment: it reads the enrolment prompt on the public display
  (`drivers.table_ui.enroll_prompt`), picks the asked tiles from those lying loose on the table top
  (it can see their faces), lays them in the seat's read zone and presses 确认 on the front panel.
- `SetMender`, when the table rejected a set: it reads the fault page, and once the table says the
  rejected walls stand on the table (main message 故障 …) it mends what a person can reach there
  (`SimulatedTable.mend_set`) and presses 确认 on the front panel.  A set fault shown while a hand
  is played, or a lane left short (E06) that stops the mechanism, it acknowledges without mending:
  the table asks again once the walls are up.
"""

from __future__ import annotations

import asyncio

from drivers.motor_protocol import Key
from drivers.table_ui import Phase, parse_enroll_prompt
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


SET_FAULT_CODES = ("E06", "E07", "E08", "E09", "E10")     # a lane short, the set check's faults


class SetMender:
    """`careless`: how many times it presses 确认 at the rejected walls without mending (a person in
    a hurry: the set is rejected again).  `seen` lists the fault pages it answered (code, text) and
    `done` what it did, for tests.  A set's page answered is not answered again while it stays up, but
    it is once it comes back after another page."""

    def __init__(self, table, careless: int = 0) -> None:
        self.table = table
        self.careless = careless
        self.done: list[str] = []
        self.seen: list[tuple[str, str]] = []
        self._acted: tuple[str, str, bool] | None = None     # the fault page it answered: never pressed twice

    async def run(self) -> None:
        while True:
            version = self.table.changes.version
            display = self.table.display
            if display.page != "fault":
                self._acted = None
            else:
                walls_up = display.text("main", "t_msg").startswith(Phase.FAULT.value)
                showing = (display.text("fault", "t_code"), display.text("fault", "t_text"), walls_up)
                if showing != self._acted:
                    # another fault's page came up (a link lost, a board's E13): the set's page that
                    # comes back is answered again, as a person sees it again — his 确认 may have
                    # reached the table behind the link's outage and answered the other page
                    self._acted = None
                if showing[0] in SET_FAULT_CODES and self._acted is None:
                    self._acted = showing
                    self.seen.append(showing[:2])
                    self._answer(walls_up)
            await self.table.changed(version, self._concerned)

    def _concerned(self) -> bool:
        """A change concerns it while the fault page shows, and once more when it went (to forget
        the page it answered); the rest of the table's changes, nearly all, do not wake it."""
        return self.table.display.page == "fault" or self._acted is not None

    def _answer(self, walls_up: bool) -> None:
        if walls_up and self.careless > 0:
            self.careless -= 1
            self.done.append("confirmed without mending")
        elif walls_up:
            self.done += self.table.mend_set() or ["found nothing to mend"]
        self.table.press("front", Key.CONFIRM)
