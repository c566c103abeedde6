"""The simulated set mender answers a set's fault page again when it comes back after another fault's
page (found by the fault campaign, 沈阳: a set check refused (E07) as the motor link dropped; the
mender's 确认 reached the table behind the outage, when the board's E13 page was up, and acknowledged
that one; the E07 page came back, and the mender, having answered it once, waited for ever)."""

from __future__ import annotations

import asyncio

from drivers.motor_protocol import Key
from drivers.table_ui import Phase
from simulator.changes import Changes
from simulator.technician import SetMender
from tests.asyncio_support import run


class _Display:
    def __init__(self) -> None:
        self.page = "main"
        self.texts: dict[tuple[str, str], str] = {}

    def text(self, page: str, component: str) -> str:
        return self.texts.get((page, component), "")


class _Table:
    """What the mender reads and does: the public display, its changes, the front panel's keys."""

    def __init__(self) -> None:
        self.display = _Display()
        self.changes = Changes()
        self.presses: list[str] = []
        self.pressed = asyncio.Event()
        self.looks = 0                  # times the mender looked and waited for the next change
        self.looked = asyncio.Event()

    async def changed(self, since: int, relevant=None) -> int:
        self.looks += 1
        self.looked.set()
        return await self.changes.wait(since, relevant)

    def press(self, panel: str, key: Key) -> None:
        self.presses.append(f"{panel} {key.name}")
        self.pressed.set()

    def mend_set(self) -> list[str]:
        return ["mended"]

    def show(self, code: str, text: str, main: str = "请推牌入池后按确认") -> None:
        self.display.page = "fault"
        self.display.texts.update({("fault", "t_code"): code, ("fault", "t_text"): text, ("main", "t_msg"): main})
        self.changes.notify()


async def _until_pressed(table: _Table, count: int) -> None:
    while len(table.presses) < count:
        table.pressed.clear()
        await table.pressed.wait()


async def _looked(table: _Table, before: int) -> None:
    """Until the mender has looked at the display since `before` looks and waits for the next change."""
    while table.looks <= before:
        table.looked.clear()
        await table.looked.wait()


def test_a_set_page_that_comes_back_after_another_is_answered_again() -> None:
    async def scenario() -> list[str]:
        table = _Table()
        mender = asyncio.create_task(SetMender(table).run())
        try:
            table.show("E07", "slot side 2 stack 8 bottom was not read")
            await _until_pressed(table, 1)
            for code, text in (("E07", "slot side 2 stack 8 bottom was not read"),   # the same page, repainted
                               ("E23", "motor board: link lost"),                    # not the mender's
                               ("E13", "host lost")):
                looks = table.looks
                table.show(code, text)
                await _looked(table, looks)
            assert len(table.presses) == 1         # never twice for one page, nor for another fault's
            table.show("E07", "slot side 2 stack 8 bottom was not read")    # back: its 确认 went elsewhere
            await _until_pressed(table, 2)
            return table.presses
        finally:
            mender.cancel()
            await asyncio.gather(mender, return_exceptions=True)

    assert run(scenario(), timeout=10) == ["front CONFIRM", "front CONFIRM"]


def test_walls_up_are_mended_before_the_press() -> None:
    async def scenario() -> list[str]:
        table = _Table()
        mender_ = SetMender(table)
        mender = asyncio.create_task(mender_.run())
        try:
            table.show("E07", "slot not read", main=f"{Phase.FAULT.value} E07")
            await _until_pressed(table, 1)
            return mender_.done
        finally:
            mender.cancel()
            await asyncio.gather(mender, return_exceptions=True)

    assert run(scenario(), timeout=10) == ["mended"]
