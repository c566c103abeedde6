"""The lamps and the buzzer over the whole table: the dealer's 庄 lamp follows the deal, a fault that
waits for a person lights the front panel's fault lamp and sounds the alarm, and a motor board that
restarted (its lamps dark) is lit again.  Before, the controller never lit a lamp nor sounded the
buzzer, though both are in the board's protocol (§4.1)."""

import asyncio

from drivers.motor_protocol import Buzz, Key, Led
from drivers.table_ui import Panel
from firmware.records.audit import audit_events
from tests.asyncio_support import run
from tests.e2e.at_the_table import play, until


def lamps(table, panel):
    return table.world.leds.get(panel, 0)


def dealer_lit(table):
    """The sides whose 庄 lamp is lit."""
    return [side for side in range(4) if lamps(table, side) & Led.DEALER]


def test_a_jam_lights_the_fault_lamp_and_sounds_the_alarm_until_acknowledged():
    seen = []

    async def technician(table):
        await until(table, lambda: table.display.page == "fault")
        await until(table, lambda: lamps(table, Panel.FRONT) & Led.FAULT and table.world.buzzer)
        seen.append(table.world.buzzer[-1][0])
        table.clear_jam(1)
        table.press("front", Key.CONFIRM)
        await until(table, lambda: not lamps(table, Panel.FRONT) & Led.FAULT)
        seen.append("out")

    log = run(play("sichuan", 3, 1, technician, faults=("jam=1:10",)), timeout=120)
    assert seen == [Buzz.ALARM, "out"]
    assert any(e["event"] == "hand_end" for e in log) and audit_events(log) == []


def test_the_dealers_lamp_follows_the_deal_and_comes_back_after_the_board_restarts():
    seen = []

    async def watcher(table):
        await until(table, lambda: "请出牌" in table.display.text("main", "t_msg"))
        await until(table, lambda: len(dealer_lit(table)) == 1)
        first = dealer_lit(table)
        seen.append(("first hand", first))
        table.reset_board("motor")                                    # a power glitch: its lamps go dark
        await until(table, lambda: dealer_lit(table) == first)         # lit again once it is back
        seen.append("relit")

    log = run(play("sichuan", 3, 2, watcher), timeout=120)
    starts = [e for e in log if e["event"] == "hand_start"]
    assert seen == [("first hand", [starts[0]["dealer"]]), "relit"]
    assert audit_events(log) == [] and not any(e["event"] == "fault" and e["code"] == "E01" for e in log)


def test_the_set_ready_lamp_is_lit_while_the_next_set_waits_below():
    """Lit once the next set is built and checked, out as it rises for its hand."""
    front = []

    async def watcher(table):
        lit = table.world.set_leds

        def set_leds(panel, mask):                  # every mask the board is given, in order
            if panel == Panel.FRONT:
                front.append(bool(mask & Led.READY))
            lit(panel, mask)
        table.world.set_leds = set_leds
        await asyncio.Event().wait()

    log = run(play("sichuan", 3, 2, watcher), timeout=120)
    changes = [on for i, on in enumerate(front) if i == 0 or front[i - 1] != on]
    # the first set: built, then raised; the second: built during the first hand, raised for the
    # second; the third: built during the second hand, and still waiting below at the end
    assert changes == [False, True, False, True, False, True], front
    assert audit_events(log) == []
