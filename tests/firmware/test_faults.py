"""The fault latch: a fault stays until a person acknowledges it; an interlock clears when closed."""

from drivers.messages import FaultCode
from firmware.faults import HINTS, FaultLatch, LatchedFault, hint_for


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
