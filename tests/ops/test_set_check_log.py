"""A set of the wrong tiles (the other set's, mixed in) logged one error line per problem on top of the
check's line that names them all: about a hundred lines for the technician to read (a probe).  The
check's line names every problem, the cause's fault line (the first problem, the one its page shows)
says what to do, the rest are debug lines; a fault of another cause is said as ever."""

from __future__ import annotations

import logging

from firmware.table_log import LinkWatch, TableLog

PROBLEMS = [f"{tile} of set 0 in a build of set 1: take it out" for tile in ("一条 (1s)", "东风 (1z)", "八筒 (8p)")]


def table_log() -> TableLog:
    return TableLog(lambda: 0, lambda: (), LinkWatch(lambda: {}, lambda: 0.0))


def fault(message: str, code: str = "E10", source: str = "controller") -> dict:
    return {"event": "fault", "t": 1.0, "hand": 0, "code": code, "message": message, "latched": True, "source": source}


def errors(caplog) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]


def test_a_rejected_set_is_one_error_line_naming_every_problem(caplog):
    log = table_log()
    with caplog.at_level(logging.INFO, logger="firmware.table"):
        log.on_event({"event": "set_check", "t": 1.0, "hand": 0, "build": 1, "tile_set": 1, "ok": False,
                      "problems": PROBLEMS + ["missing 1 × 红中 (7z): find it and put it in the table"],
                      "stray_tags": []})
        log.on_event(fault("missing 1 × 红中 (7z): find it and put it in the table", "E07"))
        for problem in reversed(PROBLEMS):          # latched last to first: the cause last, its page shown
            log.on_event(fault(problem))
        log.on_event(fault("push jam (unit 1, detail 0)", "E01", "motor"))
    said = errors(caplog)
    assert all(p in said[0] for p in PROBLEMS)
    assert len(said) == 3 and said[1].startswith(f"E10 混入另一副牌: {PROBLEMS[0]}") and said[2].startswith("E01")


def test_a_set_fault_latched_again_after_a_restart_with_no_check_line_is_said(caplog):
    log = table_log()
    with caplog.at_level(logging.INFO, logger="firmware.table"):
        log.on_event(fault(PROBLEMS[0]))
    assert len(errors(caplog)) == 1


def test_the_cause_is_said_once_though_each_copy_of_its_tile_latched_a_fault(caplog):
    log = table_log()
    with caplog.at_level(logging.INFO, logger="firmware.table"):
        log.on_event({"event": "set_check", "t": 1.0, "hand": 0, "build": 1, "tile_set": 1, "ok": False,
                      "problems": [PROBLEMS[0]] * 3, "stray_tags": []})
        for _ in range(3):
            log.on_event(fault(PROBLEMS[0]))
    assert len(errors(caplog)) == 2          # the check's line and the cause's, once


def test_a_rejected_set_latched_again_at_a_restart_is_two_lines_not_one_per_problem(caplog):
    """A restart latches the rejected set's faults again with no check line before them: 341 error lines
    for a set of 170 problems (a probe).  The first is said, then one line naming the cause (latched
    last, as its page shows it) and how many more."""
    log = table_log()
    with caplog.at_level(logging.INFO, logger="firmware.table"):
        for problem in reversed(PROBLEMS):          # as the check latched them: the cause last
            log.on_event(fault(problem))
        log.on_event({"event": "warning", "t": 1.0, "hand": 0, "message": "the next event"})
    said = errors(caplog)
    assert len(said) == 2
    assert said[1] == (f"the set rejected before the restart still waits for a person: {PROBLEMS[0]} (and 2 more "
                       "problem(s): the fault page lists them)")
