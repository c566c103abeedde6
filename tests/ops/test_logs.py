"""issue 13 item 4: logs a person can read — a line per phase, fault, set check, link episode and
hand, at its level; plain lines with a priority for the journal under systemd; never a hidden tile."""

import io
import logging
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from drivers.link import LinkStatistics
from firmware.logs import JournalFormatter, TerminalFormatter, configured, priority, under_journal
from drivers.link import TROUBLE_COUNTERS
from firmware.table_log import QUIET_S, TROUBLE, LinkWatch, describe
from tests.ops.support import clean_env, cli, needs_no_default_config

# -- the two shapes ------------------------------------------------------------------------------------


def record(level: int, text: str) -> logging.LogRecord:
    return logging.LogRecord("firmware.table", level, __file__, 1, text, None, None)


def test_journal_lines_carry_the_syslog_priority_and_no_time():
    formatter = JournalFormatter()
    assert [priority(level) for level in (logging.DEBUG, logging.INFO, logging.WARNING, logging.ERROR,
                                          logging.CRITICAL)] == [7, 6, 4, 3, 2]
    assert formatter.format(record(logging.ERROR, "E01 推牌卡住: push jam")) == "<3>E01 推牌卡住: push jam"
    assert formatter.format(record(logging.WARNING, "two\nlines")) == "<4>two\n<4>lines"     # each line keeps its level


def test_terminal_lines_have_the_time_and_name_a_level_above_info():
    formatter = TerminalFormatter()
    info, error = formatter.format(record(logging.INFO, "hand 1 · 请配牌 (dealing)")), \
        formatter.format(record(logging.ERROR, "E01"))
    assert info[2] == info[5] == ":" and info[8:] == " hand 1 · 请配牌 (dealing)"
    assert error[8:] == " error: E01"


def test_the_journal_is_recognised_as_systemd_says(tmp_path):
    with open(tmp_path / "out", "w") as stream:
        status = os.fstat(stream.fileno())
        ours = f"{status.st_dev}:{status.st_ino}"
        assert under_journal({"JOURNAL_STREAM": ours}, stream)
        assert not under_journal({"JOURNAL_STREAM": "1:2", "INVOCATION_ID": "x"}, stream)   # stderr is elsewhere
        assert under_journal({"INVOCATION_ID": "x"}, stream)
        assert not under_journal({}, stream)


def test_logging_is_configured_only_while_the_command_runs():
    logger = logging.getLogger("firmware.table")
    before = (logging.getLogger("firmware").level, logging.getLogger("firmware").handlers[:])
    out = io.StringIO()
    with configured("warning", lambda: out, environ={"INVOCATION_ID": "x"}):
        logger.info("not shown")
        logger.warning("shown")
    logger.warning("after")
    assert out.getvalue() == "<4>shown\n"
    assert (logging.getLogger("firmware").level, logging.getLogger("firmware").handlers) == before


# -- the lines -----------------------------------------------------------------------------------------


def test_a_fault_line_has_the_code_the_chinese_hint_and_what_to_do():
    level, text = describe({"event": "fault", "hand": 0, "code": "E01", "message": "push jam (unit 1, detail 3)",
                            "latched": True, "source": "motor"})
    assert level == logging.ERROR
    assert text == ("E01 推牌卡住: push jam (unit 1, detail 3) — 清除卡住的推牌头后按确认 / "
                    "clear the jammed stacking head, then acknowledge (motor)")
    level, _ = describe({"event": "fault", "hand": 0, "code": "E12", "message": "the service hatch is open",
                         "latched": True, "source": "interlock"})
    assert level == logging.WARNING                         # an interlock clears itself: watch it, no more


def test_resumed_voided_and_settled_hands_each_have_their_line():
    assert describe({"event": "resumed", "hand": 4, "cause": "restart", "phase": "playing"}) == \
        (logging.WARNING, "hand 4 resumed after a restart, in phase playing")
    assert describe({"event": "hand_void", "hand": 4, "reason": "the rules were changed"}) == \
        (logging.WARNING, "hand 4 is void (no payments, the same dealer): the rules were changed")
    assert describe({"event": "hand_end", "hand": 4, "result": "win", "winners": [2], "payments": [-2, -2, 6, -2],
                     "totals": [0, 1, 6, -7], "next_dealer": 2, "wall": [["1m", "2m"]], "salt": "ab"}) == \
        (logging.INFO, "hand 4: 胡 by seat 2; payments -2 -2 +6 -2; totals +0 +1 +6 -7; next dealer seat 2")
    level, text = describe({"event": "set_check", "hand": 0, "build": 2, "tile_set": 0, "ok": False,
                            "problems": ["this table holds 136 tiles; 四川 plays 108: take out the 字牌"],
                            "stray_tags": []})
    assert level == logging.ERROR and text.endswith("it will not be played: this table holds 136 tiles; "
                                                    "四川 plays 108: take out the 字牌")


def test_a_private_indicator_is_logged_without_its_tile_even_if_an_event_carried_one():
    event = {"event": "indicator", "hand": 1, "name": "宝", "public": False, "tile": ["5m"], "wilds": ["5m"],
             "seat": [2]}
    assert describe(event) == (logging.INFO, "hand 1: 宝 chosen, shown only to seat(s) 2")
    public = {**event, "name": "财神", "public": True, "tile": ["3p"], "wilds": ["4p"], "seat": None}
    assert describe(public) == (logging.INFO, "hand 1: 财神 shown: 3p → wilds 4p")
    chicken = {**public, "name": "鸡", "effect": "paying", "tile": ["2s"], "wilds": ["3s", "1s"]}
    assert describe(chicken) == (logging.INFO, "hand 1: 鸡 shown: 2s → makes 3s 1s")      # 鸡, not wilds


def test_an_event_of_another_shape_is_a_warning_not_a_crash():
    assert describe({"event": "hand_start", "hand": 1})[0] == logging.WARNING
    assert describe({"event": "something_new", "hand": 1, "wall": [["1m", "2m"]]}) == \
        (logging.DEBUG, "something_new (hand 1)")         # unknown events: the name only, never their fields


def stats(**counts) -> LinkStatistics:
    names = LinkStatistics.__dataclass_fields__
    return LinkStatistics(**{name: counts.get(name, 0) for name in names if name not in ("srtt_ms", "rto_ms")},
                          srtt_ms=1.5, rto_ms=20.0)


class Counted:
    """A board's link as the watch reads it: its counters, and their trouble as the link sums it."""

    def __init__(self, current: dict, board: str) -> None:
        self._current, self._board = current, board

    def statistics(self) -> LinkStatistics:
        return self._current[self._board]

    def trouble(self) -> int:
        return sum(getattr(self._current[self._board], name) for name in TROUBLE_COUNTERS)


def test_the_log_watches_the_counters_the_link_sums_as_its_trouble():
    assert set(TROUBLE) == set(TROUBLE_COUNTERS)


def test_a_link_episode_is_said_when_it_begins_and_when_the_link_is_clean_again(caplog):
    now = [0.0]
    current = {"motor": stats(), "rfid": stats()}
    watch = LinkWatch(lambda: {board: Counted(current, board) for board in current}, lambda: now[0])
    caplog.set_level(logging.DEBUG, logger="firmware.link")

    def at(t, **motor):
        now[0] = t
        current["motor"] = stats(**motor)
        watch.check()

    at(0)
    at(2, retransmits=3, crc_errors=2)                      # trouble begins
    at(2.5, retransmits=9, crc_errors=5)                    # too soon to look again
    at(4, retransmits=12, crc_errors=6)                     # still troubled: no new line
    at(4 + QUIET_S - 1, retransmits=12, crc_errors=6)
    at(4 + QUIET_S, retransmits=12, crc_errors=6)           # clean for QUIET_S: the episode ends
    at(30, timeouts=1, retransmits=12, crc_errors=6)
    watch.close_all()
    lines = [(r.levelno, r.getMessage()) for r in caplog.records]
    assert lines == [
        (logging.WARNING, "motor link: trouble began (3 retransmission(s), 2 CRC error(s)); the link retransmits "
                          "and recovers by itself"),
        (logging.INFO, "motor link: clean again after 12 s of trouble (12 retransmission(s), 6 CRC error(s) in all; "
                       "smoothed round trip 1.5 ms)"),
        (logging.WARNING, "motor link: trouble began (1 timeout(s)); the link retransmits and recovers by itself"),
        (logging.INFO, "motor link: still troubled at the end after 0 s of trouble (1 timeout(s) in all; "
                       "smoothed round trip 1.5 ms)"),
    ]


# -- the command ---------------------------------------------------------------------------------------


def run_until(args, tmp_path, words, env=None):
    """Start `run`, read its lines until one holds `words`, then stop it (Ctrl-C) as a person would."""
    process = subprocess.Popen([sys.executable, "-m", "firmware", *args], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, cwd=tmp_path, env=env or clean_env(tmp_path))
    seen = []
    try:
        for line in process.stdout:
            seen.append(line.rstrip("\n"))
            if words in line:
                break
        process.send_signal(signal.SIGINT)
        rest, errors = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    return seen, rest, errors, process.returncode


def test_a_jam_reaches_the_console_at_once(tmp_path):
    """`run --speed 0 --fault jam=1:3` printed its banner and then nothing until killed."""
    needs_no_default_config()
    seen, rest, errors, status = run_until(["run", "--speed", "0", "--fault", "jam=1:3"], tmp_path, "E01")
    fault = seen[-1]
    assert "error: E01 推牌卡住: push jam (unit 1, detail 3) — 清除卡住的推牌头后按确认 / clear the jammed stacking " \
           "head, then acknowledge" in fault, seen
    assert "洗牌中 (shuffling and building)" in "\n".join(seen)           # the phase before it
    assert status == 0 and "stopped by SIGINT" in rest


def test_under_systemd_the_fault_is_a_journal_line_at_error_priority(tmp_path):
    needs_no_default_config()
    env = clean_env(tmp_path, INVOCATION_ID="0123456789abcdef")
    seen, _, _, _ = run_until(["run", "--speed", "0", "--fault", "jam=1:3"], tmp_path, "E01", env)
    assert seen[-1].startswith("<3>E01 推牌卡住: push jam")
    assert "<6>洗牌中 (shuffling and building)" in seen


def test_a_hand_logs_a_line_per_phase_and_log_level_quiets_them(tmp_path):
    needs_no_default_config()
    proc = cli(["run", "--hands", "1", "--speed", "0", "--ruleset", "sichuan"], tmp_path)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    text = "\n".join(lines)
    for words in ("set check of build 1 (set 0): the set is whole", "请掷骰子 (roll the dice)",
                  "hand 1: dealer seat 0", "hand 1 · 请配牌 (dealing)", "hand 1 · 请出牌 (playing)", "hand 1: "):
        assert words in text, (words, text)
    assert lines[0].startswith("no configuration: running") and lines[-1].startswith("1 hand(s) played")
    settled = [line for line in lines if "; next dealer seat" in line]
    assert len(settled) == 1                                     # one line per hand, not two
    quiet = cli(["run", "--hands", "1", "--speed", "0", "--ruleset", "sichuan", "--log-level", "warning",
                 "--db", "quiet.db"], tmp_path)
    assert quiet.returncode == 0 and [line for line in quiet.stdout.splitlines() if "hand 1" in line] == []
    wrong = cli(["run", "--log-level", "loud"], tmp_path)
    assert wrong.returncode == 2 and "--log-level" in wrong.stderr and wrong.stderr.count("\n") == 1


@pytest.mark.parametrize("debug", [False, True])
def test_with_the_recorder_on_stdout_the_log_goes_to_stderr(tmp_path, debug):
    needs_no_default_config()
    proc = cli(["run", "--hands", "1", "--speed", "0", "--events", "-", *(["--log-level", "debug"] if debug else [])],
               tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert all(line.startswith("{") for line in proc.stdout.splitlines())
    assert "hand 1 · 请配牌 (dealing)" in proc.stderr
    assert ("take (deal) from the head" in proc.stderr) is debug


def test_every_logger_of_the_controller_is_configured_so_its_errors_reach_the_journal_with_a_priority():
    """A logger outside the configured namespaces fell through to Python's last resort: its errors
    (a hand that could not be scored, a web request's failure) went to stderr bare, without the
    journal's priority, whatever --log-level said."""
    root = Path(__file__).resolve().parents[2]
    named = re.compile(r"""getLogger\((?:__name__|["']([^"']+)["'])\)""")
    names = {found.group(1) or ".".join(path.relative_to(root).with_suffix("").parts)
             for package in ("firmware", "drivers") for path in (root / package).rglob("*.py")
             for found in named.finditer(path.read_text(encoding="utf-8"))}
    assert len(names) > 10
    stream = io.StringIO()
    with configured("warning", lambda: stream, environ={}):
        for name in sorted(names):
            logging.getLogger(name).error("said by %s", name)
    assert [name for name in sorted(names) if f"error: said by {name}" not in stream.getvalue()] == []


def test_keys_dropped_between_hands_say_so_not_hand_0():
    presses = [{"panel": 0, "key": "KONG", "long": False}]
    _, between = describe({"event": "keys_dropped", "hand": 0, "why": "before_hand", "presses": presses})
    _, during = describe({"event": "keys_dropped", "hand": 3, "why": "in_play", "presses": presses})
    assert between.startswith("between hands: keys pressed between hands") and "seat 0 杠" in between
    assert during.startswith("hand 3: keys pressed in play")
