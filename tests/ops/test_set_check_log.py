"""A set of the wrong tiles (the other set's, mixed in) logged one error line per problem on top of the
check's line that names them all: about a hundred lines for the technician to read (a probe).  The
check's line is the one said; each problem's fault is a debug line; a fault of another cause is not."""

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
                      "problems": PROBLEMS, "stray_tags": []})
        for problem in PROBLEMS:
            log.on_event(fault(problem))
        log.on_event(fault("push jam (unit 1, detail 0)", "E01", "motor"))
    said = errors(caplog)
    assert len(said) == 2 and all(p in said[0] for p in PROBLEMS) and said[1].startswith("E01")


def test_a_set_fault_latched_again_after_a_restart_with_no_check_line_is_said(caplog):
    log = table_log()
    with caplog.at_level(logging.INFO, logger="firmware.table"):
        log.on_event(fault(PROBLEMS[0]))
    assert len(errors(caplog)) == 1
