"""The fault latch: a fault stays until a person acknowledges it; an interlock clears when closed."""

from drivers.messages import FaultCode
from firmware.faults import HINTS, FaultLatch, LatchedFault, hint_for, parse_label


def test_a_fault_stays_latched_until_acknowledged():
    latch = FaultLatch()
    latch.latch(LatchedFault(FaultCode.SET_MISMATCH, 0, "missing 1 × 一万", "controller"))
    latch.latch(LatchedFault(FaultCode.PUSH_JAM, 1, "push jam", "motor"))
    assert latch.active and latch.machine.state == "latched"
    assert not latch.acknowledge_controller_faults()          # the board's jam waits for its FaultCleared
    assert latch.has(FaultCode.PUSH_JAM) and not latch.has(FaultCode.SET_MISMATCH)
    assert latch.clear(FaultCode.PUSH_JAM, 1, "motor") and latch.machine.state == "clear"


def test_an_interlock_does_not_block_and_clears_itself():
    latch = FaultLatch()
    latch.latch(LatchedFault(FaultCode.HATCH_OPEN, 0, "the service hatch is open", "interlock"))
    assert latch.active and not latch.blocking
    assert latch.clear(FaultCode.HATCH_OPEN, 0, "interlock") and not latch.active


def test_a_board_s_snapshot_is_the_roll_of_its_faults():
    """What a board's snapshot does not list it no longer holds (a reboot forgot it): it goes; a
    roll asked again before it ended goes on, so a fault listed at its start is never dropped."""
    latch = FaultLatch()
    jam = LatchedFault(FaultCode.PUSH_JAM, 1, "push jam", "motor")
    host = LatchedFault(FaultCode.HOST_LOST, 0, "host lost", "motor")
    latch.latch(jam)
    latch.latch(host)
    latch.latch(LatchedFault(FaultCode.SET_MISMATCH, 0, "missing 1 × 一万", "controller"))
    assert latch.roll_called("motor") == ()                   # no roll asked: nothing to judge by
    latch.roll_call("motor")
    latch.latch(jam)                                          # listed: the board still holds it
    latch.roll_call("motor")                                  # the other board's resync asks too
    assert latch.roll_called("motor") == (host,)
    assert latch.has(FaultCode.PUSH_JAM) and latch.has(FaultCode.SET_MISMATCH) and not latch.has(FaultCode.HOST_LOST)
    latch.roll_call("motor")
    latch.latch(jam)                                          # listed by the session before a reboot …
    latch.new_session("motor")
    latch.roll_call("motor")                                  # … which the new session's roll does not count
    assert latch.roll_called("motor") == (jam,)
    assert latch.acknowledge_controller_faults() and not latch.active       # the set check's, a person's job


def test_every_fault_code_has_a_chinese_hint_for_the_display():
    for code in FaultCode:
        hint = hint_for(code)
        assert hint is HINTS[code] and hint.name_zh and hint.todo_zh and hint.todo_en
        assert all(ord(c) > 0x2E7F for c in hint.name_zh if not c.isspace()), hint.name_zh


# The codes the motor and RFID boards raise (protocol.md §5): a board holds each until ClearFaults
BOARD_CODES = (FaultCode.PUSH_JAM, FaultCode.HOME_SENSOR, FaultCode.SIDE_LIFT_LIMIT, FaultCode.CENTRE_LIFT_LIMIT,
               FaultCode.DICE_MOTOR, FaultCode.LANE_SHORT, FaultCode.OVER_TEMPERATURE, FaultCode.HATCH_OPEN,
               FaultCode.HOST_LOST, FaultCode.OVER_CURRENT, FaultCode.EMERGENCY_STOP, FaultCode.COUNT_SENSOR,
               FaultCode.ANTENNA, FaultCode.READER)


def test_every_fault_a_board_holds_tells_the_person_to_press_confirm():
    """A board's fault waits for 确认 even once its cause is gone: the page must say so.  The hatch's
    E12 read 关好检修盖 on the board's fault too, so a person who had shut the hatch was still told
    to shut it, and nothing said to press 确认."""
    for code in BOARD_CODES:
        for source in ("motor", "rfid"):
            assert "按确认" in LatchedFault(code, 0, "", source).hint.todo_zh, (code, source)
    hatch = LatchedFault(FaultCode.HATCH_OPEN, 0, "hatch opened while running (unit 0, detail 0)", "motor")
    assert (hatch.text_zh, hatch.hint.todo_zh) == ("运转中打开检修盖", "关好检修盖后按确认")
    interlock = LatchedFault(FaultCode.HATCH_OPEN, 0, "the service hatch is open", "interlock")
    assert (interlock.text_zh, interlock.hint.todo_zh) == ("检修盖打开", "关好检修盖")    # clears itself when shut


def test_a_fault_says_in_chinese_what_and_where_for_the_display():
    assert LatchedFault(FaultCode.OVER_CURRENT, 6, "over current (unit 6, detail 0)", "motor").text_zh == \
        "电机过流（边1升降台电机）"
    assert LatchedFault(FaultCode.ANTENNA, 5, "antenna (unit 5, detail 0)", "rfid").text_zh == "读卡天线故障（边1读牌区天线）"
    assert LatchedFault(FaultCode.EMERGENCY_STOP, 1, "emergency stop (unit 1, detail 0)", "motor").text_zh == \
        "紧急停止（停止键）"
    assert LatchedFault(FaultCode.SET_MISMATCH, 0, "missing 1 × 一万 (1m)", "controller").text_zh == "牌不齐"
    assert LatchedFault(FaultCode.SET_MISMATCH, 0, "missing 1 × 一万 (1m)", "controller", "缺 1 张 一万").text_zh == \
        "缺 1 张 一万"


def test_a_recorded_fault_label_reads_back_as_its_code():
    assert parse_label("E07") == FaultCode.SET_MISMATCH and parse_label("E21") == FaultCode.READER
    assert parse_label("07") is None and parse_label("Exx") is None and parse_label("") is None


def test_a_code_no_board_raises_sent_by_a_board_is_a_person_s_fault_named_as_such():
    """A board's firmware that sends a code only the controller raises (E23 "reconnecting, wait", E24,
    E22) or none at all (E99) is wrong: shown as an unknown board fault under the code it sent, a
    person's to acknowledge, the alarm on.  Before, E23 from a board read "wait: the controller
    reconnects by itself" and never cleared, and nobody was called."""
    from firmware.faults import BOARD_CODES as FIRMWARE_BOARD_CODES
    assert FIRMWARE_BOARD_CODES == frozenset(BOARD_CODES)
    for code in (FaultCode.LINK_LOST, FaultCode.STORAGE, FaultCode.DISPLAY, FaultCode.SET_MISMATCH, 99):
        fault = LatchedFault(code, 0, "", "motor")
        assert not fault.interlock and fault.calls_a_person, code
        assert (fault.label, fault.text_zh, fault.hint.todo_zh) == (f"E{int(code):02d}", "主板报未知故障",
                                                                    "请技术人员检查主板固件后按确认")
    latch = FaultLatch()
    latch.latch(LatchedFault(FaultCode.LINK_LOST, 0, "", "rfid"))
    assert latch.blocking
    own = LatchedFault(FaultCode.LINK_LOST, 0, "motor board at /dev/x: nothing received", "link")
    assert own.interlock and not own.calls_a_person and own.text_zh == "连接中断 重连中"     # the controller's own


def test_a_board_this_controller_cannot_work_with_is_e26_naming_which_board():
    from drivers.errors import EventUndecodable, WrongBoard
    from firmware.faults import board_incompatible
    wrong = board_incompatible(WrongBoard("motor board at /dev/ttyUSB0", "RFID", "MOTOR"))
    assert (wrong.label, wrong.unit, wrong.text_zh) == ("E26", 0, "主板通信不兼容（电机板）")
    assert wrong.message == "motor board at /dev/ttyUSB0 answers as the RFID board, not the MOTOR board: " \
                            "check which port is which"
    undecodable = board_incompatible(EventUndecodable("RFID board at /dev/ttyUSB1", 0x80, 3, "too short"))
    assert (undecodable.unit, undecodable.text_zh) == (1, "主板通信不兼容（读卡板）")
    assert undecodable.calls_a_person and not undecodable.interlock


def test_a_confirm_on_a_board_s_fault_page_leaves_the_rejected_set_latched():
    """A probe at the table: the rejected set's walls were up waiting to be mended, STOP was pressed,
    and the one 确认 that answered E16 also acknowledged the set (set_rebuild; rejected again, a
    cycle lost).  A 确认 answers the page it was pressed on."""
    import io

    from drivers.messages import FaultCode
    from firmware.fault_desk import FaultDesk
    from firmware.faults import FaultLatch, LatchedFault
    from firmware.records.recorder import FlightRecorder

    class Pages:
        def __init__(self) -> None:
            self.shown: list[str] = []
            self.page = "main"

        def fault(self, fault: LatchedFault) -> None:
            self.shown.append(fault.label)
            self.page = "fault"

        def fault_line(self, fault: LatchedFault | None) -> None:
            pass

        def show_page(self, page: str) -> None:
            self.shown.append(page)
            self.page = page

    latch, pages = FaultLatch(), Pages()
    desk = FaultDesk(latch, FlightRecorder(io.StringIO(), clock=lambda: 0.0), pages,  # type: ignore[arg-type]
                     page_behind=lambda: "main", on_change=lambda: None)
    desk.latch(LatchedFault(FaultCode.SET_MISMATCH, 0, "missing 1 × 1p", "controller"))
    desk.latch(LatchedFault(FaultCode.EMERGENCY_STOP, 1, "STOP", "motor"))
    desk.acknowledged()                                 # on E16's page
    desk.board_cleared(FaultCode.EMERGENCY_STOP, 1, "motor")
    assert [f.label for f in latch.latched()] == ["E07"] and pages.shown[-1] == "E07"
    desk.acknowledged()                                 # on E07's page: the set is acknowledged
    desk.show()
    assert not latch.latched() and pages.shown[-1] == "main"
