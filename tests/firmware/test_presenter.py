"""issue 13 item 5: the public display in Chinese — seats named as the table names them, the fault
page in Chinese, and nothing the display cannot draw (GB2312)."""

import logging

import pytest

from drivers.messages import FaultCode
from drivers.nextion import ENCODING
from drivers.table_ui import Phase
from firmware.faults import LatchedFault, board_fault_message
from firmware.presenter import Presenter, seat_winds


class Screen:
    """A display that keeps what it was told (page → component → text)."""

    def __init__(self):
        self.texts = {}
        self.page = "main"

    def show_page(self, page):
        self.page = page

    def set_text(self, page, component, text):
        self.texts[f"{page}.{component}"] = text

    def set_number(self, page, component, value):
        self.texts[f"{page}.{component}"] = value


def presenter():
    screen = Screen()
    return Presenter(screen, lambda side, line, text: None, 32), screen


def names(screen):
    return [screen.texts[f"main.t_name{side}"] for side in range(4)]


def test_seat_winds_count_from_the_dealer_in_the_order_of_play():
    assert seat_winds(0, (0, 1, 2, 3)) == {0: "东", 1: "南", 2: "西", 3: "北"}
    assert seat_winds(2, (0, 1, 2, 3)) == {2: "东", 3: "南", 0: "西", 1: "北"}
    assert seat_winds(1, (0, 1, 3)) == {1: "东", 3: "南", 0: "西"}             # side 2 sits out


def test_the_seat_labels_follow_the_dealer_and_an_empty_side_says_so():
    show, screen = presenter()
    show.ruleset("长春麻将", (0, 1, 2, 3))
    show.dealer(0, 0)
    assert names(screen) == ["东", "南", "西", "北"] and screen.texts["main.t_dealer"] == "东家坐庄"
    show.dealer(2, 1)
    assert names(screen) == ["西", "北", "东", "南"] and screen.texts["main.t_dealer"] == "东家坐庄 连庄1"
    assert show.seat_name(3) == "南家" and show.seat_name(3, dealer=0) == "北家"
    show.ruleset("广水麻将", (0, 1, 2))
    assert names(screen) == ["南", "西", "东", "空"]                       # a 3-player table: side 3 sits out
    assert "座位" not in "".join(names(screen))


@pytest.mark.parametrize("code", list(FaultCode))
def test_the_fault_page_is_chinese_for_every_board_fault(code):
    show, screen = presenter()
    for unit in range(11):
        show.fault(LatchedFault(code, unit, board_fault_message(code, unit, 3), "motor"))
        text, hint = screen.texts["fault.t_text"], screen.texts["fault.t_hint"]
        assert screen.page == "fault" and screen.texts["fault.t_code"] == f"E{code:02d}"
        assert not any(c.isascii() and c.isalpha() for c in text + hint), (text, hint)   # no English left
        (text + hint).encode(ENCODING)


def test_the_fault_page_says_where_and_what_the_controller_found():
    show, screen = presenter()
    show.fault(LatchedFault(FaultCode.PUSH_JAM, 1, "push jam (unit 1, detail 3)", "motor"))
    assert screen.texts["fault.t_text"] == "推牌卡住（边1推牌道）"
    assert screen.texts["fault.t_hint"] == "清除卡住的推牌头后按确认"
    show.fault(LatchedFault(FaultCode.SET_MISMATCH, 0, "this table holds 136 tiles; 四川 plays 108: take out the 字牌",
                            "controller", "牌桌有136张牌，四川用108张：请取出字牌"))
    assert screen.texts["fault.t_text"] == "牌桌有136张牌，四川用108张：请取出字牌"
    show.fault(LatchedFault(FaultCode.HATCH_OPEN, 0, "the service hatch is open", "interlock"))
    assert screen.texts["fault.t_text"] == "检修盖打开" and screen.texts["fault.t_hint"] == "关好检修盖"


def test_a_text_the_display_cannot_draw_is_logged(caplog):
    show, _ = presenter()
    with caplog.at_level(logging.WARNING, logger="firmware.presenter"):
        show.phase_text("请选择 ▶")
        show.phase_text("请选择 →")
    assert [r.getMessage() for r in caplog.records] == [
        "display main.t_msg: '请选择 ▶' has characters outside GB2312; the display shows them as ?"]


def test_the_phase_listener_hears_each_new_phase_once():
    show, _ = presenter()
    heard = []
    show.on_phase(lambda phase, detail: heard.append((phase, detail)))
    show.phase(Phase.DEAL)
    show.phase(Phase.DEAL, "！请按顺序取牌")             # the same phase with a warning: no new phase
    show.phase(Phase.PLAY)
    show.phase(Phase.WIN_CHECK)
    show.phase(Phase.PLAY)
    assert heard == [(Phase.DEAL, ""), (Phase.PLAY, ""), (Phase.WIN_CHECK, ""), (Phase.PLAY, "")]


class LineHistory(Screen):
    """A display that also keeps every text the public line was given, in order."""

    def __init__(self):
        super().__init__()
        self.lines = []

    def set_text(self, page, component, text):
        super().set_text(page, component, text)
        if (page, component) == ("main", "t_msg"):
            self.lines.append(text)


def test_a_restart_note_shows_as_new_even_over_the_same_words():
    """A board's reboot note was still up when the controller was killed; the restarted one (a new
    process, which knows nothing of the screen) said the same words, and nothing changed on it: the
    players never saw that their 胡 was to be pressed again (the fault campaign: 武汉, a stall).  The
    note now comes after the phase alone, each time it is said."""
    from drivers.table_ui import RESTARTED

    screen = LineHistory()
    first = Presenter(screen, lambda side, line, text: None, 32)
    first.phase(Phase.PLAY)
    first.note(RESTARTED)                           # the motor board rebooted
    again = Presenter(screen, lambda side, line, text: None, 32)     # the restarted controller
    again.phase(Phase.PLAY, RESTARTED)
    noted = f"{Phase.PLAY.value} {RESTARTED}"
    assert screen.lines == [Phase.PLAY.value, Phase.PLAY.value, noted, Phase.PLAY.value, noted]


def test_play_going_on_takes_the_note_down():
    from drivers.table_ui import RESTARTED

    show, screen = presenter()
    show.phase(Phase.PLAY, RESTARTED)
    show.drop_note()
    assert screen.texts["main.t_msg"] == Phase.PLAY.value
