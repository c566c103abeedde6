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


def test_every_fault_code_has_a_chinese_hint_for_the_display():
    for code in FaultCode:
        hint = hint_for(code)
        assert hint is HINTS[code] and hint.name_zh and hint.todo_zh and hint.todo_en
        assert all(ord(c) > 0x2E7F for c in hint.name_zh if not c.isspace()), hint.name_zh


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
