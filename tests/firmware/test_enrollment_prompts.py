"""Enrolment asks on the display for each kind; a press whose read did not hold exactly the kind's
new tags is asked again with the attempt counted, so the person at the table sees it was not taken
(the reason is on the terminal)."""

import asyncio

from drivers.table_ui import parse_enroll_prompt
from firmware.build.enrollment import enroll_set
from firmware.build.registry import TileRegistry
from rulesets.tilesets import TileSet, WINDS
from tests.asyncio_support import run


class Ports:
    """The technician lays one tile too few at the first press of each kind, then the right ones."""

    def __init__(self) -> None:
        self.shown: list[str] = []
        self.reads = 0

    def show_message(self, text: str) -> None:
        self.shown.append(text)

    async def next_key(self, panels, keys) -> object:
        await asyncio.sleep(0)
        return object()

    async def read_zone(self, seat: int) -> tuple[bytes, ...]:
        self.reads += 1
        kind_index = (self.reads - 1) // 2
        uids = tuple(bytes((kind_index, copy)) for copy in range(4))
        return uids[:3] if self.reads % 2 == 1 else uids


def test_a_press_not_taken_is_asked_again_with_its_attempt_counted():
    async def main():
        ports, registry = Ports(), TileRegistry()
        winds = TileSet.of("东南西北 ×4", WINDS, 4)
        assert await enroll_set(ports, registry, winds, 1) == 16
        assert ports.shown[:2] == ["登记:东风 ×4 座位0 确认", "登记:东风 ×4 座位0 第2次确认"]
        assert ports.shown[2] == "登记:南风 ×4 座位0 确认"
        assert [parse_enroll_prompt(text) for text in ports.shown[:2]] == [("东风", 4, 0)] * 2
    run(main())
