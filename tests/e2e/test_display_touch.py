"""The public display's buttons (protocol.md §7.3) do what their labels say, over the whole table.

Before, only the fault page's 确认 was wired: 菜单 on the main page and every button of the menu page
did nothing when touched, while the front panel's keys worked."""

from firmware.panel import Settings
from firmware.records.audit import audit_events
from rulesets.regions import get_region
from tests.asyncio_support import run
from tests.e2e.at_the_table import play, until


def test_the_owner_chooses_the_next_ruleset_and_options_of_both_pages_on_the_screen(tmp_path):
    seen = []

    async def owner(table):
        await until(table, lambda: "请出牌" in table.display.text("main", "t_msg"))
        table.touch("main", "b_menu")
        await until(table, lambda: table.display.page == "menu")
        table.touch("menu", "b_next")                                 # 长春 → 吉林 (the same tiles)
        await until(table, lambda: table.display.text("menu", "t_ruleset").startswith("→吉林"))
        # its first option (开牌), cycled round: the simulated players walk the wall by the rules they
        # were seated with, so the hand after is played with the option's value as before
        for value in option.values[1:] + option.values[:1]:
            table.touch("menu", "b_opt0")
            label = option.value_label(value)
            await until(table, lambda: table.display.text("menu", "t_opt0").endswith("：" + label))
            seen.append(table.display.text("menu", "t_opt0"))
        # 翻页 to its second page: 杠 底注 (its ninth option) cycled round on that page's third line
        table.touch("menu", "b_page")
        await until(table, lambda: table.display.text("menu", "t_title") == "房规 2/2")
        for value in kong.values[1:] + kong.values[:1]:
            table.touch("menu", "b_opt2")
            label = kong.value_label(value)
            await until(table, lambda: table.display.text("menu", "t_opt2") == f"→{kong.label_zh}：{label}")
        table.touch("menu", "b_ok")                                   # saved: the next hand plays it
        await until(table, lambda: table.display.page == "main")

    option, kong = get_region("jilin").options[0], get_region("jilin").options[8]
    assert kong.key == "kong_value"
    log = run(play("changchun", 2, 2, owner, settings_path=str(tmp_path / "s.db")), timeout=120)
    assert seen == [f"→{option.label_zh}：{option.value_label(v)}" for v in option.values[1:] + option.values[:1]]
    assert [e["ruleset"] for e in log if e["event"] == "hand_start"] == ["changchun", "jilin"]
    chosen = [e for e in log if e["event"] == "ruleset_chosen"]
    edited = {option.key: option.default, kong.key: kong.default}
    assert [(e["ruleset"], e["options"]) for e in chosen] == [("jilin", edited)]
    assert Settings(tmp_path / "s.db").ruleset_choice() == ("jilin", edited)
    assert audit_events(log) == []


def test_the_back_button_leaves_the_menu_with_nothing_chosen():
    async def owner(table):
        await until(table, lambda: "请出牌" in table.display.text("main", "t_msg"))
        table.touch("main", "b_menu")
        await until(table, lambda: table.display.page == "menu")
        table.touch("menu", "b_next")
        await until(table, lambda: table.display.text("menu", "t_ruleset").startswith("→吉林"))
        table.touch("menu", "b_back")
        await until(table, lambda: table.display.page == "main")

    log = run(play("changchun", 2, 2, owner), timeout=120)
    assert [e["ruleset"] for e in log if e["event"] == "hand_start"] == ["changchun", "changchun"]
    assert not any(e["event"] == "ruleset_chosen" for e in log) and audit_events(log) == []


def test_a_fault_is_acknowledged_on_the_screen():
    """A jam (E01) waits for a person; once it is cleared, 确认 touched on the fault page clears it."""
    pages = []

    async def technician(table):
        await until(table, lambda: table.display.page == "fault")
        table.clear_jam(1)
        pages.append((table.display.page, table.display.text("fault", "t_code")))
        table.touch("fault", "b_ack")
        await until(table, lambda: table.display.page != "fault")
        pages.append(table.display.page)

    log = run(play("sichuan", 3, 1, technician, faults=("jam=1:10",)), timeout=120)
    assert pages == [("fault", "E01"), "main"]
    assert any(e["event"] == "hand_end" for e in log) and audit_events(log) == []
