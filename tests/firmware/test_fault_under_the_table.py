"""A fault of the next set's build while a hand is played on the raised walls (a probe at the
table: a lane jammed under the table).  Its page covered the main page for the rest of the hand:
the scores, the stacks left and the indicators were gone while the players played on, and the jam
waited for the hand's end anyway.  It is said on the main page's fault line now, and its page comes
when the hand is over; a fault that stops the hand still shows its page at once."""

from __future__ import annotations

import io

from drivers.messages import FaultCode
from drivers.table_ui import FAULT_WAITS, Phase
from firmware.fault_desk import FaultDesk
from firmware.faults import FaultLatch, LatchedFault
from firmware.presenter import Presenter
from firmware.records.recorder import FlightRecorder
from tests.firmware.test_presenter import Screen

JAM = LatchedFault(FaultCode.PUSH_JAM, 1, "push jam (unit 1)", "motor")
SET = LatchedFault(FaultCode.SET_MISMATCH, 0, "missing 1 × 1p", "controller")
STOP = LatchedFault(FaultCode.EMERGENCY_STOP, 1, "STOP", "motor")


def desk_at(phase: Phase, behind: str = "main"):
    screen, latch = Screen(), FaultLatch()
    presenter = Presenter(screen, lambda side, line, text: None, 32)
    desk = FaultDesk(latch, FlightRecorder(io.StringIO(), clock=lambda: 0.0), presenter,
                     page_behind=lambda: behind, on_change=lambda: None)
    presenter.on_phase(lambda shown, detail: desk.phase(shown))
    presenter.phase(phase)
    return desk, presenter, screen


def test_a_jam_under_the_table_in_play_is_said_on_the_main_page_and_its_page_waits_for_the_hand_s_end():
    desk, presenter, screen = desk_at(Phase.PLAY)
    desk.latch(JAM)
    assert screen.page == "main"
    assert screen.texts["main.t_fault"] == f"E01 推牌卡住（边1推牌道） {FAULT_WAITS}"
    presenter.phase(Phase.LAST_TILE)
    assert screen.page == "main"
    presenter.phase(Phase.HAND_OVER)                    # the hand is over: the person's page
    assert screen.page == "fault" and screen.texts["fault.t_code"] == "E01"
    desk.board_cleared(FaultCode.PUSH_JAM, 1, "motor")
    assert screen.page == "main" and screen.texts["main.t_fault"] == ""


def test_a_fault_that_stops_the_hand_shows_its_page_at_once_and_the_jam_s_line_comes_back_after_it():
    desk, presenter, screen = desk_at(Phase.PLAY)
    desk.latch(JAM)
    desk.latch(STOP)
    assert screen.page == "fault" and screen.texts["fault.t_code"] == "E16"
    desk.board_cleared(FaultCode.EMERGENCY_STOP, 1, "motor")
    assert screen.page == "main" and screen.texts["main.t_fault"].startswith("E01")


def test_a_rejected_next_set_in_play_waits_on_the_line_and_outside_a_hand_shows_its_page():
    desk, presenter, screen = desk_at(Phase.PLAY)
    desk.latch(SET)
    assert screen.page == "main" and screen.texts["main.t_fault"].startswith("E07")
    desk, presenter, screen = desk_at(Phase.BUILDING)
    desk.latch(SET)
    assert screen.page == "fault" and screen.texts.get("main.t_fault", "") == ""


def test_a_fault_latched_with_the_owner_s_menu_open_covers_it_as_before():
    desk, presenter, screen = desk_at(Phase.PLAY, behind="menu")
    desk.latch(JAM)
    assert screen.page == "fault"


def test_a_restart_whose_board_lists_the_jam_before_the_hand_shows_puts_the_main_page_back_in_play():
    desk, presenter, screen = desk_at(Phase.IDLE)
    desk.latch(JAM)                                     # the board's snapshot, before the hand resumed
    assert screen.page == "fault"
    presenter.phase(Phase.PLAY)
    assert screen.page == "main" and screen.texts["main.t_fault"].startswith("E01")


def test_only_the_build_s_mechanism_is_under_the_table():
    under = [LatchedFault(code, unit, "", source).under_the_table for code, unit, source in (
        (FaultCode.PUSH_JAM, 2, "motor"), (FaultCode.LANE_SHORT, 0, "motor"), (FaultCode.OVER_CURRENT, 0, "motor"),
        (FaultCode.OVER_TEMPERATURE, 4, "motor"), (FaultCode.ANTENNA, 3, "rfid"), (FaultCode.DUPLICATE_UID, 0, "controller"))]
    over = [LatchedFault(code, unit, "", source).under_the_table for code, unit, source in (
        (FaultCode.OVER_CURRENT, 10, "motor"), (FaultCode.SIDE_LIFT_LIMIT, 1, "motor"), (FaultCode.ANTENNA, 5, "rfid"),
        (FaultCode.EMERGENCY_STOP, 1, "motor"), (FaultCode.HOST_LOST, 0, "motor"), (FaultCode.LINK_LOST, 0, "controller"),
        (FaultCode.STORAGE, 0, "storage"), (FaultCode.HATCH_OPEN, 0, "interlock"), (FaultCode.DICE_MOTOR, 0, "motor"))]
    assert all(under) and not any(over)


def test_a_fault_a_board_lists_once_more_is_recorded_once_and_new_words_again():
    """A board lists its latched faults again (its snapshot after a restart): E13 was recorded, and so
    logged, twice at every restart (a soak).  Once, unless it says something new."""
    screen, latch = Screen(), FaultLatch()
    lines = io.StringIO()
    presenter = Presenter(screen, lambda side, line, text: None, 32)
    desk = FaultDesk(latch, FlightRecorder(lines, clock=lambda: 0.0), presenter,
                     page_behind=lambda: "main", on_change=lambda: None)
    host_lost = LatchedFault(FaultCode.HOST_LOST, 0, "host lost (unit 0, detail 0)", "motor")
    desk.latch(host_lost)
    desk.latch(host_lost)                                   # listed once more
    desk.latch(LatchedFault(FaultCode.HOST_LOST, 0, "host lost (unit 0, detail 3)", "motor"))   # new words
    recorded = [line for line in lines.getvalue().splitlines() if '"event":"fault"' in line]
    assert len(recorded) == 2, recorded
