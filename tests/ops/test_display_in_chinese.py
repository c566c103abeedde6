"""issue 13 items 5–7 at the table: the display and the panel in Chinese, GB2312 throughout, the
seats named as the table names them, a wrong tile set named as such — on the simulated table."""

import asyncio
import io
import json
import logging

import pytest

from drivers.motor_protocol import Key
from drivers.nextion import ENCODING
from firmware.simulated import run_simulated
from rulesets.regions import get_region
from rulesets.tilesets import SET_136
from simulator import parse_faults
from simulator.table import SimulatedTable
from tests.asyncio_support import run
from tests.busy_machine import LINK_EPISODE_CODES
from tests.firmware.scripted_players import WallWalker
from tests.firmware.test_set_check import waiting_for_a_person


def spy_on_every_text(sent: list[str]):
    """An on_session hook: every text the presenter writes, public or to a seat (a 宝 included)."""
    def attach(session):
        presenter = session.hub.presenter
        text, seat = presenter._text, presenter.seat

        def spy_text(component, value, page="main"):
            sent.append(value)
            text(component, value, page)

        def spy_seat(side, line, value):
            sent.append(value)
            seat(side, line, value)

        presenter._text, presenter.seat = spy_text, spy_seat
    return attach


async def play(ruleset, hands, *, seed=3, faults=(), helper=None, tile_sets=None, **kwargs):
    table = SimulatedTable(seed=seed, speed=0, tile_sets=tile_sets or (ruleset.tiles, ruleset.tiles),
                           faults=parse_faults(faults))
    await table.start("pty")
    task = asyncio.create_task(helper(table)) if helper else None
    events = io.StringIO()
    try:
        await run_simulated(ruleset, hands=hands, seed=seed, table=table, events=events, **kwargs)
        return table, [json.loads(line) for line in events.getvalue().splitlines()]
    finally:
        if task is not None:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
        await table.stop()


async def owner_pages_through_the_menu(table):
    """The owner opens the menu during play and walks every option line of 长春, then leaves."""
    while "请出牌" not in table.display.text("main", "t_msg"):
        await table.changed(table.changes.version)
    for key in (Key.MENU, Key.CONFIRM, *[Key.RIGHT] * (len(get_region("changchun").options) - 1), Key.BACK):
        table.press("front", key)


@pytest.mark.parametrize("region_id, options, helper", [
    ("changchun", {}, owner_pages_through_the_menu),   # a private 宝 line, the menu's pages
    ("yichang", {}, None),                              # 换三张 with its direction
    ("guangshui", {}, None),                            # three players: a side sits out
    ("hangzhou", {"caishen": "flip"}, None),            # a public indicator and its wild
])
def test_every_text_the_presenter_sends_is_gb2312(region_id, options, helper):
    sent: list[str] = []
    ruleset = get_region(region_id).resolve(options)
    table, events = run(play(ruleset, 2, helper=helper, on_session=spy_on_every_text(sent)), timeout=240)
    assert sum(e["event"] == "hand_end" for e in events) == 2 and len(sent) > 50
    bad = [text for text in sent if text != text.encode(ENCODING, "replace").decode(ENCODING)]
    assert bad == []
    shown = [c.text for page in table.display.screen.values() for c in page.values()]
    assert not any("?" in text for text in shown), shown                # as the display decoded the bytes
    if helper is not None:
        assert any(text.startswith("房规 2/") for text in sent)           # the second page was shown
        assert any(text.startswith("→") for text in sent)


def test_the_seats_are_named_by_their_wind_from_the_dealer():
    ruleset = get_region("guangshui").resolve()                         # side 3 sits out
    table, events = run(play(ruleset, 2), timeout=240)
    dealer = [e for e in events if e["event"] == "hand_end"][-1]["next_dealer"]
    names = [table.display.text("main", f"t_name{side}") for side in range(4)]
    assert names[dealer] == "东" and names[3] == "空"
    assert sorted(names[:3]) == sorted("东南西") and names[(dealer + 1) % 3] == "南"
    assert table.display.text("main", "t_dealer").startswith("东家坐庄")


def test_a_wrong_tile_set_is_one_fault_named_as_such_in_both_languages():
    """issue 13 item 6: 四川 (108) on a 136-tile table said `E07: missing 2 × 一万 (1m)` and 23 fault events.
    (The table then waits for a person at the rejected walls: the run is stopped there.)"""
    events, page = waiting_for_a_person("sichuan", tile_sets=(SET_136, SET_136))
    assert page["showing"] == "fault" and page["t_code"] == "E07"
    assert page["t_text"] == "牌组有误：牌桌有136张牌，四川用108张：请取出字牌"
    check = next(e for e in events if e["event"] == "set_check")
    assert check["problems"] == ["this table holds 136 tiles; 四川 plays 108: take out the 字牌"]
    faults = {e["message"] for e in events                 # E16: the stop at the end; E23/E13: a busy machine's
              if e["event"] == "fault" and e["code"] != "E16" and e["code"] not in LINK_EPISODE_CODES}
    assert faults == {"this table holds 136 tiles; 四川 plays 108: take out the 字牌"}
    assert not any(e["event"] == "hand_start" for e in events)


def test_a_jam_is_shown_in_chinese_logged_and_its_clearing_logged():
    pages, lines = [], []

    async def technician(table):
        while table.display.page != "fault":
            await table.changed(table.changes.version)
        pages.append({name: table.display.text("fault", name) for name in ("t_code", "t_text", "t_hint")})
        table.clear_jam(1)
        table.press("front", Key.CONFIRM)

    class Lines(logging.Handler):
        def emit(self, record):
            lines.append((record.levelno, record.getMessage()))

    handler = Lines(logging.INFO)
    logger = logging.getLogger("firmware.table")
    logger.addHandler(handler)
    level = logger.level
    logger.setLevel(logging.INFO)
    try:
        ruleset = get_region("sichuan").resolve()
        run(play(ruleset, 1, faults=("jam=1:10",), helper=technician, players=WallWalker), timeout=120)
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)
    assert pages == [{"t_code": "E01", "t_text": "推牌卡住（边1推牌道）", "t_hint": "清除卡住的推牌头后按确认"}]
    assert (logging.ERROR, "E01 推牌卡住: push jam (unit 1, detail 10) — 清除卡住的推牌头后按确认 / clear the jammed "
                           "stacking head, then acknowledge (motor)") in lines
    assert (logging.INFO, "faults cleared (E01): the table goes on") in lines
    assert any(text.startswith("hand 1: 荒庄 (draw)") for _, text in lines)
