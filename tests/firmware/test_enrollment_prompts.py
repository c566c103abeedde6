"""Enrolment asks on the display for each kind; a press whose read did not hold exactly the kind's
new tags is asked again with the attempt counted, so the person at the table sees it was not taken
(the reason is on the terminal).  A 确认 pressed before a prompt was up answers nothing: taken, it
would register the tiles laid for the kind before under the next kind's name."""

import asyncio

from drivers.serial_transport import DEFAULT_BAUDRATE
from drivers.table_ui import Key, Panel, parse_enroll_prompt
from firmware.build.enrollment import enroll_set
from firmware.build.registry import TileRegistry
from firmware.controller import TableController
from firmware.devices import open_devices
from firmware.hand.ports import Press, pressed
from firmware.records.recorder import FlightRecorder
from rulesets.regions import get_region
from rulesets.tiles import Tile
from rulesets.tilesets import TileSet, WINDS
from simulator.table import SimulatedTable
from simulator.technician import SimulatedTechnician
from tests.asyncio_support import run

FOUR_WINDS = TileSet.of("东南西北 ×4", WINDS, 4)


class Ports:
    """The technician lays one tile too few at the first press of each kind, then the right ones."""

    def __init__(self) -> None:
        self.shown: list[str] = []
        self.reads = 0

    async def ask(self, seat: int, text: str) -> int:
        self.shown.append(text)
        return len(self.shown)

    def passed_over(self, press: Press) -> None:
        raise AssertionError(f"{press} was made once the prompt was up")

    def done(self, seat: int, enrolled: bool) -> None:
        self.shown.append("登记完成" if enrolled else "")

    async def next_key(self, panels, keys) -> Press:
        await asyncio.sleep(0)
        return Press(Panel.FRONT, Key.CONFIRM, heard=len(self.shown))

    async def read_zone(self, seat: int) -> tuple[bytes, ...]:
        self.reads += 1
        kind_index = (self.reads - 1) // 2
        uids = tuple(bytes((kind_index, copy)) for copy in range(4))
        return uids[:3] if self.reads % 2 == 1 else uids


def test_a_press_not_taken_is_asked_again_with_its_attempt_counted():
    async def main():
        ports, registry = Ports(), TileRegistry()
        assert await enroll_set(ports, registry, FOUR_WINDS, 1) == 16
        assert ports.shown[:2] == ["登记:东风 ×4 座位0 确认", "登记:东风 ×4 座位0 第2次确认"]
        assert ports.shown[2] == "登记:南风 ×4 座位0 确认"
        assert [parse_enroll_prompt(text) for text in ports.shown[:2]] == [("东风", 4, 0)] * 2
        assert ports.shown[-1] == "登记完成"
    run(main())


def test_a_confirm_pressed_before_the_first_prompt_registers_nothing():
    """北风 lie in the zone and 确认 is pressed (a person clearing a fault page, say) before the
    enrolment asks for anything: every tile is then registered under its own kind."""
    async def main():
        table = SimulatedTable(seed=0, speed=0, tile_sets=(FOUR_WINDS, FOUR_WINDS))
        endpoints = await table.start("pty")
        registry = TileRegistry()
        technician = None
        dropped: list[dict] = []
        try:
            async with open_devices(endpoints.motor, endpoints.rfid, endpoints.display, DEFAULT_BAUDRATE) as devices:
                recorder = FlightRecorder(None, clock=lambda: 0.0)
                recorder.listen(lambda event: dropped.append(event) if event["event"] == "keys_dropped" else None)
                controller = TableController(devices, get_region("changchun").resolve(), registry, recorder)
                await controller.start()
                try:
                    table.lay(0, [t.uid for t in table.world.out.values() if t.kind == Tile.NORTH])
                    table.press("front", Key.CONFIRM)
                    await controller.until(lambda: controller.keys.peek(pressed((Panel.FRONT,), (Key.CONFIRM,))))
                    technician = asyncio.create_task(SimulatedTechnician(table, 1).run())
                    assert await enroll_set(controller.enroll_ports(), registry, FOUR_WINDS, 1) == 16
                finally:
                    if technician is not None:
                        technician.cancel()
                        await asyncio.gather(technician, return_exceptions=True)
                    await controller.stop()
        finally:
            await table.stop()
        wrong = [(tile.kind, registry.lookup(tile.uid)) for tile in table.world.out.values()
                 if tile.set_index == 1 and registry.lookup(tile.uid).kind != tile.kind]
        assert not wrong
        assert [(e["why"], e["presses"]) for e in dropped] == [          # never silently
            ("before_prompt", [{"panel": int(Panel.FRONT), "key": "CONFIRM", "long": False}])]
    run(main(), timeout=60)
