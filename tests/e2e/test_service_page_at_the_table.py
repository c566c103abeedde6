"""The technician's page over the whole table: a long 菜单 shows it during play, it follows the
links, a fault covers it and gives it back, and 返回 or its own button leave it."""

from drivers.motor_protocol import Key
from firmware.records.audit import audit_events
from tests.asyncio_support import run
from tests.e2e.at_the_table import play, until


def test_the_service_page_shows_during_play_and_gives_way_to_a_fault_and_back(tmp_path):
    seen = []

    async def technician(table):
        line = lambda n: table.display.text("service", f"t_line{n}")     # noqa: E731
        await until(table, lambda: "请出牌" in table.display.text("main", "t_msg"))
        table.press("front", Key.MENU, long=True)
        await until(table, lambda: table.display.page == "service")
        seen.append((line(0).split("规则 ")[-1], line(2).split()[:2], line(5), line(6).split("剩余")[0]))
        table.inject_fault("hatch_open")                               # a fault covers it …
        await until(table, lambda: table.display.page == "fault")
        table.clear_fault("hatch_open")
        await until(table, lambda: table.display.page != "fault" or "运转中" in table.display.text("fault", "t_text"))
        if table.display.page == "fault":                              # it caught the next set's build running:
            table.press("front", Key.CONFIRM)                          # the motor board's E12 waits for 确认
        await until(table, lambda: table.display.page == "service")   # … and gives it back
        seen.append("back")
        table.press("front", Key.BACK)
        await until(table, lambda: table.display.page == "main")
        table.press("front", Key.MENU, long=True)
        await until(table, lambda: table.display.page == "service")
        table.touch("service", "b_back")                               # the page's own 返回
        await until(table, lambda: table.display.page == "main")
        table.press("front", Key.MENU, long=True)
        await until(table, lambda: table.display.page == "service")
        table.press("front", Key.MENU)                                 # a short 菜单: on to the rules menu
        await until(table, lambda: table.display.page == "menu")
        table.press("front", Key.BACK)
        await until(table, lambda: table.display.page == "main")
        seen.append("done")

    log = run(play("sichuan", 3, 2, technician, ledger_path=str(tmp_path / "table.db")), timeout=120)
    assert seen == [("sichuan", ["电机板", "正常"], "故障 无", "存储卡 "), "back", "done"]
    assert [e["result"] for e in log if e["event"] == "hand_end"] and audit_events(log) == []
    assert not any(e["event"] == "ruleset_chosen" for e in log)
