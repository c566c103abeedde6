"""issue 13 item 7: the front-panel menu in Chinese — every option reachable, the cards' Chinese
labels and values, a cursor the display can draw (GB2312)."""

import pytest

from drivers.motor_protocol import Key
from drivers.nextion import ENCODING
from drivers.table_ui import RULES_NEXT_HAND
from firmware.panel import CURSOR, MENU_LINE_BYTES, OPTION_LINES, Menu
from rulesets.regions import REGION_IDS, get_region

ALL_OPTIONS = [(region_id, option) for region_id in REGION_IDS for option in get_region(region_id).options]


@pytest.mark.parametrize("region_id, option", ALL_OPTIONS, ids=[f"{r}.{o.key}" for r, o in ALL_OPTIONS])
def test_every_value_of_every_house_option_has_a_chinese_label(region_id, option):
    labels = dict(option.value_labels)
    assert tuple(labels) == option.values                              # every value, in the card's order
    assert len(set(labels.values())) == len(labels)                    # told apart on the panel
    for text in (option.label_zh, *labels.values()):
        assert any("\u4e00" <= c <= "\u9fff" for c in text), text     # Chinese, not a code word
        text.encode(ENCODING)                                          # drawable: raises if not GB2312
        assert "(" not in text and "?" not in text, text
    for value in option.values:
        line = f"{CURSOR}{option.label_zh}：{option.value_label(value)}"
        assert len(line.encode(ENCODING)) <= MENU_LINE_BYTES, line


def test_a_label_missing_a_value_is_refused():
    from rulesets.definition import HouseOption
    from rulesets.provenance import default
    with pytest.raises(ValueError, match="value_labels"):
        HouseOption("k", "键 (key)", (("a", "A"), ("b", "B")), "a", default("test"), value_labels=(("a", "甲"),))


def opened(region_id="changchun") -> Menu:
    menu = Menu.starting_at(region_id, {})
    menu.press(Key.MENU)
    return menu


def test_the_menu_pages_through_every_option_of_changchun():
    """长春 has 13 options, a page 6 lines: past line 6 the owner must still see what he changes."""
    menu = opened()
    options = get_region("changchun").options
    assert len(options) > 2 * OPTION_LINES
    pages = -(-len(options) // OPTION_LINES)
    menu.press(Key.CONFIRM)                                            # to the first option line
    seen = []
    for index, option in enumerate(options):
        view = menu.view()
        page, slot = divmod(index, OPTION_LINES)
        assert view["t_title"] == f"房规 {page + 1}/{pages}"
        assert view[f"t_opt{slot}"] == f"{CURSOR}{option.label_zh}：{option.value_label(option.default)}"
        assert sum(text.startswith(CURSOR) for name, text in view.items() if name.startswith("t_opt")) == 1
        seen.append(option.key)
        menu.press(Key.CONFIRM)                                        # the value cycles, shown in Chinese
        after = option.values[(option.values.index(option.default) + 1) % len(option.values)]
        assert menu.view()[f"t_opt{slot}"].endswith(f"：{option.value_label(after)}")
        assert menu.options[option.key] == after
        menu.press(Key.RIGHT)
    assert seen == [o.key for o in options]
    assert menu.line == 0 and menu.view()["t_title"] == "规则选择"     # past the last option: the ruleset line


def test_lines_past_the_last_option_are_blank_even_after_a_longer_ruleset():
    menu = opened()
    menu.press(Key.RIGHT)                                              # 长春 → 吉林 …
    while len(get_region(menu.region_id).options) != 1:
        menu.press(Key.RIGHT)
    view = menu.view()
    assert view["t_opt0"] and all(view[f"t_opt{i}"] == "" for i in range(1, OPTION_LINES))
    assert view["t_ruleset"].startswith(CURSOR + get_region(menu.region_id).name)


def test_every_menu_text_of_every_ruleset_is_gb2312():
    for region_id in REGION_IDS:
        menu = opened(region_id)
        lines = 1 + len(get_region(region_id).options)
        for _ in range(lines):
            for text in menu.view().values():
                text.encode(ENCODING)
            menu.press(Key.CONFIRM if menu.line == 0 else Key.RIGHT)


# -- the display's buttons (protocol.md §7.3) -------------------------------------------------------


def test_the_screens_arrows_change_the_ruleset_wherever_the_cursor_is():
    menu = opened()
    menu.press(Key.CONFIRM)                                            # the cursor on 长春's first option line
    menu.press(Key.RIGHT)
    assert menu.line == 2
    menu.touch("b_next")
    assert (menu.region_id, menu.line) == (REGION_IDS[1], 0)           # 吉林, the cursor back on the ruleset line
    assert menu.view()["t_ruleset"].startswith(CURSOR + get_region(REGION_IDS[1]).name)
    menu.touch("b_prev")
    menu.touch("b_prev")
    assert menu.region_id == REGION_IDS[-1]                            # round from the first to the last


def test_an_option_lines_button_cycles_the_option_on_that_line_of_the_page_showing():
    """吉林's 9 options on two pages: the buttons act on the lines the owner sees."""
    menu = opened("jilin")
    options = get_region("jilin").options
    assert OPTION_LINES < len(options) < 2 * OPTION_LINES                # page 2 has a blank line
    first, seventh = options[0], options[OPTION_LINES]
    menu.touch("b_opt0")                                               # page 1: its first line
    assert menu.options == {first.key: first.values[1]} and menu.line == 1
    for _ in range(OPTION_LINES):                                      # the cursor down to page 2
        menu.press(Key.RIGHT)
    assert menu.view()["t_title"] == "房规 2/2"
    menu.touch("b_opt0")                                               # page 2's first line is the seventh option
    assert menu.options[seventh.key] == seventh.values[1] and menu.line == OPTION_LINES + 1
    assert menu.view()["t_opt0"].startswith(CURSOR + seventh.label_zh)
    blank = f"b_opt{len(options) - OPTION_LINES}"                      # past the last option on page 2
    assert menu.view()[f"t_opt{len(options) - OPTION_LINES}"] == ""
    before = dict(menu.options), menu.line
    assert menu.touch(blank) is None and (dict(menu.options), menu.line) == before


def test_the_screens_ok_saves_and_back_leaves():
    menu = opened()
    menu.touch("b_next")
    assert menu.touch("b_ok") == "save" and not menu.open
    menu = opened()
    assert menu.touch("b_back") == "close" and not menu.open
    menu = opened()
    assert menu.touch("b_menu") is None and menu.touch("#42") is None and menu.open   # not buttons of this page


def test_a_touch_on_a_menu_page_the_menu_has_left_shows_the_main_page_and_changes_nothing():
    from firmware.panel import FrontPanel

    shown, chosen = [], []

    class Recorder:
        def emit(self, event, **fields):
            chosen.append((event, fields))

    panel = FrontPanel(lambda view, open_: shown.append(open_), Recorder())
    panel.touch("menu", "b_ok", ("changchun", {}))                     # no menu open: a stale page
    assert shown == [False] and chosen == [] and panel.take_choice() is None
    panel.touch("main", "b_menu", ("changchun", {}))
    panel.touch("menu", "b_next", ("changchun", {}))
    panel.touch("menu", "b_ok", ("changchun", {}))
    assert shown == [False, True, True, False]
    assert panel.take_choice() == (REGION_IDS[1], {})
    assert [event for event, _ in chosen] == ["ruleset_chosen"]


def shown_value(menu: Menu, slot: int) -> str:
    return menu.view()[f"t_opt{slot}"].split("：")[1]


def test_browsing_the_rulesets_keeps_the_options_chosen_for_each():
    """A probe: ◀ ▶ on the ruleset line (and the screen's arrows) wiped the options being edited, so
    ▶ ◀ back to the rules in play showed their defaults, and 升降 saved those over the house options
    in play."""
    here, there = get_region("changchun").options[0], get_region("jilin").options[0]
    in_play = {here.key: here.values[1]}
    menu = Menu.starting_at("changchun", in_play)
    menu.press(Key.MENU)
    menu.press(Key.RIGHT)                                              # 长春 → 吉林: its defaults
    assert shown_value(menu, 0) == there.value_label(there.default)
    menu.touch("b_opt0")                                               # 吉林's first option changed
    menu.press(Key.LEFT)                                               # the cursor back to the ruleset line
    menu.press(Key.LEFT)                                               # 吉林 → 长春: the options in play
    assert menu.region_id == "changchun" and shown_value(menu, 0) == here.value_label(here.values[1])
    menu.touch("b_next")                                               # → 吉林 again: as the owner left it
    assert shown_value(menu, 0) == there.value_label(there.values[1])
    menu.touch("b_prev")
    assert menu.press(Key.LIFT) == "save"
    assert (menu.region_id, menu.options[here.key]) == ("changchun", here.values[1])


def in_play(region_id: str, options: dict[str, str]) -> tuple[str, dict[str, str]]:
    """The rules in play as the controller hands them to the front panel (every option written out)."""
    ruleset = get_region(region_id).resolve(options)
    return ruleset.id, dict(ruleset.options)


@pytest.mark.parametrize("keys, touches, told", [
    ((Key.RIGHT, Key.LEFT, Key.LIFT), (), False),                      # browsed away and back: the rules in play
    ((), ("b_next", "b_prev", "b_ok"), False),
    ((Key.RIGHT, Key.LIFT), (), True),                                 # 吉林: new rules, from the next hand
])
def test_the_rules_in_play_saved_again_after_browsing_are_not_new_rules(keys, touches, told):
    """A probe: 菜单 ▶ ◀ 升降 said 新规则下局生效 (and saved the defaults) with nothing changed."""
    from firmware.panel import FrontPanel

    class Recorder:
        def emit(self, event, **fields):
            return {}

    notes = []
    first = get_region("changchun").options[0]
    current = in_play("changchun", {first.key: first.values[1]})     # a house option in play
    panel = FrontPanel(lambda view, open_: None, Recorder(), on_changed=lambda choice: notes.append(RULES_NEXT_HAND))
    panel.press(Key.MENU, current)
    for key in keys:
        panel.press(key, current)
    for button in touches:
        panel.touch("menu", button, current)
    assert notes == ([RULES_NEXT_HAND] if told else [])
    assert (panel.take_choice() == current) is not told


MANY_OPTIONS = [r for r in REGION_IDS if len(get_region(r).options) > OPTION_LINES]


@pytest.mark.parametrize("region_id", MANY_OPTIONS)
def test_by_touch_alone_every_option_is_reached_and_changed(region_id):
    """A probe: on the screen the option lines' buttons act on the page showing, and ◀ ▶ change the
    ruleset, so 长春's options past the sixth (杠 底注, 大蛋, 首局定庄 …) could not be reached.
    翻页 turns the pages, the title counting them, round from the last to the first."""
    options = get_region(region_id).options
    pages = -(-len(options) // OPTION_LINES)
    menu = opened(region_id)
    for page in range(pages):
        for slot in range(OPTION_LINES):
            if menu.view()[f"t_opt{slot}"] == "":
                break
            menu.touch(f"b_opt{slot}")
        assert menu.view()["t_title"] == f"房规 {page + 1}/{pages}"
        menu.touch("b_page")
    assert menu.view()["t_title"] == f"房规 1/{pages}"
    assert menu.view()["t_opt0"].startswith(CURSOR + options[0].label_zh)
    assert menu.touch("b_ok") == "save"
    assert menu.options == {option.key: after_default(option) for option in options}     # every one changed


def after_default(option) -> str:
    return option.values[(option.values.index(option.default) + 1) % len(option.values)]



def test_reopened_the_menu_shows_the_choice_waiting_and_taking_it_back_is_said():
    """A choice saved during a hand waits for the next one.  Reopened, the menu showed the rules in play,
    and 升降 — the easy slip — saved them over the choice waiting without a word, while the line still
    said 新规则下局生效 (a verifying probe).  It opens on the choice waiting; the rules in play saved over
    it take it back, and the line says so."""
    from firmware.panel import FrontPanel

    class Recorder:
        def emit(self, event, **fields):
            return {}

    shown: list[dict] = []
    notes: list[tuple] = []
    current = in_play("changchun", {})
    panel = FrontPanel(lambda view, open_: shown.append(view), Recorder(), on_changed=notes.append)
    for key in (Key.MENU, Key.RIGHT, Key.LIFT):             # 吉林, waiting for the next hand
        panel.press(key, current)
    panel.press(Key.MENU, current)                          # reopened
    assert get_region("jilin").name in shown[-1]["t_ruleset"]
    for key in (Key.LEFT, Key.LIFT):                        # back to the rules in play, saved
        panel.press(key, current)
    assert [choice[0] for choice in notes] == ["jilin", "changchun"]     # said both times
    assert panel.take_choice() == current
