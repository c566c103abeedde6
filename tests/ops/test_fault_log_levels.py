"""E13 (the boards' note that the controller was away) was logged as an error at every ordinary restart,
though the controller clears it at once (a probe): `journalctl -p err` showed an error per restart.
Faults that mend themselves are warnings; a fault a person must mend stays an error."""

from __future__ import annotations

import logging

from firmware.table_log import fault_line


def level(code: str, source: str) -> int:
    return fault_line({"event": "fault", "code": code, "message": "…", "source": source})[0]


def test_faults_that_mend_themselves_are_warnings_and_a_person_s_are_errors():
    assert level("E13", "motor") == logging.WARNING
    assert level("E23", "controller") == logging.WARNING
    assert level("E12", "interlock") == logging.WARNING
    assert level("E01", "motor") == logging.ERROR
    assert level("E16", "motor") == logging.ERROR
    assert level("E07", "controller") == logging.ERROR
    assert level("E22", "display") == level("E24", "storage") == logging.ERROR     # a person mends them
    assert level("E12", "motor") == logging.ERROR           # the board's: opened while running, 确认 asked
