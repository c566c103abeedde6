"""The technician's page: what it says, and the keys that open and leave it."""

import asyncio

from drivers.display import DisplayStatistics
from drivers.link import LinkStatistics
from drivers.nextion import ENCODING
from drivers.table_ui import Key
from firmware.service_page import LINE_BYTES, LINES, ServiceFacts, ServicePage, service_lines
from tests.asyncio_support import run


def stats(**counts) -> LinkStatistics:
    fields = {name: 0 for name in LinkStatistics.__dataclass_fields__}
    fields.update(srtt_ms=None, rto_ms=100.0)
    fields.update(counts)
    return LinkStatistics(**fields)


def facts(**changes) -> ServiceFacts:
    base = dict(version="1.2.3", ruleset="changchun", uptime_s=3725.9,
                links={"motor": stats(retransmits=3, crc_errors=2, resumptions=1, srtt_ms=2.4), "rfid": stats()},
                links_down=("rfid",), display=DisplayStatistics(1200, 40000, 300, 4, 0, 1), faults=("E01", "E12"))
    base.update(changes)
    return ServiceFacts(**base)


def test_the_lines_say_what_runs_how_the_links_are_and_what_is_latched():
    lines = service_lines(facts())
    assert len(lines) == LINES
    assert lines[0] == "版本 1.2.3  规则 changchun" and lines[1] == "运行 1:02:05"
    assert lines[2] == "电机板 正常 重传3 错包2 超时0 恢复1 往返2ms"
    assert lines[3].startswith("读卡板 断开 重传0") and lines[3].endswith("往返无")
    assert lines[4] == "显示屏 指令1200 拒收4 重启1" and lines[5] == "故障 E01 E12"
    assert lines[6] == "存储卡 未查" and lines[7] == "按返回或长按菜单离开"
    assert service_lines(facts(faults=(), display=None, card=(3800, 29500)))[4:7] == \
        ["显示屏 未配置", "故障 无", "存储卡 剩余3800MB 共29500MB"]
    for line in lines:
        assert len(line.encode(ENCODING)) <= LINE_BYTES


def test_a_long_line_is_clipped_to_the_displays_room_never_in_half_a_character():
    line = service_lines(facts(version="九" * 40))[0]
    assert len(line.encode(ENCODING)) in (LINE_BYTES - 1, LINE_BYTES) and line.endswith("九")


def test_a_long_menu_opens_it_back_or_a_long_menu_leaves_it_a_short_menu_goes_on_to_the_rules_menu():
    async def main():
        drawn, shown = [], []
        page = ServicePage(facts, drawn.append, shown.append)
        assert not page.wants(Key.MENU, False, False)                 # a short 菜单 is the rules menu's
        assert not page.wants(Key.MENU, True, True)                   # inside the rules menu: the menu's
        assert page.wants(Key.MENU, True, False) and page.press(Key.MENU, True)
        assert page.is_open and shown == [True] and drawn[-1][0].startswith("版本")
        assert not page.wants(Key.CONFIRM, False, False)              # 确认 answers faults as ever
        assert page.wants(Key.BACK, False, False) and page.press(Key.BACK, False)
        assert not page.is_open and shown == [True, False]
        page.press(Key.MENU, True)
        assert page.wants(Key.MENU, False, False) and not page.press(Key.MENU, False)   # closed; 菜单 goes on
        assert not page.is_open
        page.open()
        page.touch("b_back")
        assert shown == [True, False, True, False, True, False]
    run(main())


def test_while_it_shows_its_lines_are_drawn_again():
    async def main():
        drawn, uptime = [], [0.0]
        page = ServicePage(lambda: facts(uptime_s=uptime[0]), drawn.append, lambda shown: None)
        task = asyncio.create_task(page.run())
        try:
            page.open()
            uptime[0] = 61.0
            while drawn[-1][1] != "运行 0:01:01":
                await asyncio.sleep(0.05)
            page.close()
            count = len(drawn)
            page.open()
            assert len(drawn) == count + 1                            # drawn at once as it opens
        finally:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
    run(main())
