"""The simulator seen from the page: walls as the sensors see them, face up only what the table made public."""

import pytest

from drivers.display import Display, Touched
from firmware.simulated import new_table, run_simulated
from firmware.web.live import LiveTable
from firmware.web.sim import (ControlledSimulator, InProcessSimulator, PressError, TouchRefused, parse_press,
                              parse_touch)
from rulesets.regions import get_region
from rulesets.walls import Break
from simulator.spawn import SimulatorProcess
from tests.asyncio_support import run


def test_a_public_indicator_standing_in_the_wall_is_drawn_face_up_at_its_stack():
    ruleset = get_region("zuanpai").resolve()
    faces: list[tuple[dict, list]] = []

    async def go():
        table = new_table(ruleset, seed=3, speed=0)
        live = LiveTable(InProcessSimulator(table))

        def on_event(event):
            if event["event"] == "take" and live.feed is not None:
                sim = live.status()["sim"]
                for face in sim["shown"]:
                    faces.append((face, [list(side["stacks"]) for side in sim["sides"]], live.hand.brk,
                                  [i for i in live.hand.indicators if i["public"]]))
                walls = [table.world.wall_counts(side) for side in range(4)]
                assert [tuple(side["stacks"]) for side in sim["sides"]] == walls     # the sensors' view, as is
        await table.start("pty")
        try:
            await run_simulated(ruleset, hands=1, seed=3, table=table, on_event=on_event,
                                on_session=lambda session: live.attach(session.public_feed()))
        finally:
            await table.stop()
    run(go(), timeout=120)
    assert faces, "the 钻牌 indicator should stand face up in the wall for a while"
    for face, stacks, brk, indicators in faces:
        ring = ruleset.layout.ring(Break(*brk))
        slots = {(ring[r].wall, ring[r].stack, layer, tile) for i in indicators
                 for r, layer, tile in zip(i["ring"], i["layer"], i["tile"])}
        assert (face["side"], face["stack"], face["layer"], face["tile"]) in slots
        assert stacks[face["side"]][face["stack"]] >= 1


def test_a_press_names_a_key_of_that_panel():
    assert parse_press(0, "ting") == (0, parse_press(1, "听")[1], False)
    assert parse_press("front", "menu", True)[0] == 4
    for panel, key, words in ((5, "hu", "seat 0-3"), (0, "menu", "panel 0 has no key menu"), (0, "jump", "no key"),
                              ("front", "ting", "has no key ting"), (1, 2, "key name")):
        with pytest.raises(PressError, match=words):
            parse_press(panel, key)


def test_a_touch_names_a_button_of_a_page_and_is_refused_on_a_page_not_showing():
    assert parse_touch("menu", "b_opt5") == ("menu", "b_opt5")
    for page, button, words in (("attic", "b_ok", "give a page of the display: main, menu, fault, service"),
                                ("main", "t_msg", "page main has no button 't_msg'; its buttons are b_menu"),
                                ("menu", None, "has no button None"),
                                (["main"], "b_menu", "give a page of the display"),
                                ({"a": 1}, "b_menu", "give a page of the display")):
        with pytest.raises(PressError, match=words):
            parse_touch(page, button)

    async def go():
        table = new_table(get_region("changchun").resolve(), seed=1, speed=0)
        await table.start("pty")
        try:
            sim = InProcessSimulator(table)
            with pytest.raises(TouchRefused, match="page 'menu' is not showing"):
                await sim.touch("menu", "b_ok")
            await sim.touch("main", "b_menu")             # (no controller here: nobody acts on it)
        finally:
            await table.stop()
    run(go(), timeout=60)


def test_a_touch_through_the_simulators_control_channel_reaches_the_display_wire():
    """The simulator in its own process (`run` without boards): the page's touch goes through the
    control channel; one on a page not showing is refused with the simulator's one line."""
    async def go():
        async with SimulatorProcess("--speed", "0") as sim:
            display = await Display.open(sim.endpoints.display)
            try:
                port = ControlledSimulator(sim.control)
                with pytest.raises(TouchRefused, match="page 'menu' is not showing"):
                    await port.touch("menu", "b_ok")
                await port.touch("main", "b_menu")
                assert await display.next_event(5) == Touched("main", "b_menu", True)
            finally:
                await display.close()
    run(go(), timeout=60)
