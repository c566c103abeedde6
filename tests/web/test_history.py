"""The ledger read back: sessions, hands with payments and totals, hours per session and per day."""

import csv
import io
import sqlite3
from datetime import date, datetime, timedelta

import pytest

from firmware.records.history import History, HistoryError, hands_csv, hours_csv, parse_day
from firmware.records.session_time import clipped
from firmware.records.ledger import HAND_KEY, RECORDER_KEY, SESSION_KEY, HandRecord, Ledger

DAY = date(2026, 11, 30)


def at(hours: float, day: date = DAY) -> float:
    """Epoch seconds at `hours` past local midnight of `day`."""
    return (datetime.combine(day, datetime.min.time()) + timedelta(hours=hours)).timestamp()


class Clock:
    def __init__(self, t: float) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t


def hand(number, dealer=0, winners=(0,), payments=(6, -2, -2, -2), started=None):
    items = ({"seat": winners[0], "items": [{"name": "门清", "pinyin": "menqing", "value": 2, "unit": "fan"}]},) if winners else ()
    return HandRecord(number, dealer, "win" if winners else "draw", tuple(winners), payments, f"hash{number}", started, items)


@pytest.fixture
def ledger_at(tmp_path):
    clock = Clock(at(20))
    ledger = Ledger(tmp_path / "t.db", clock=clock, events="/nowhere/run.jsonl")
    yield ledger, clock, History(tmp_path / "t.db", clock=clock)
    ledger.close()


def test_sessions_and_hands_come_back_with_totals_items_and_times(ledger_at):
    ledger, clock, history = ledger_at
    s1 = ledger.start_session("changchun", {"bao_dice": "1"})
    clock.t = at(20.5)
    ledger.record_hand(s1, hand(1, started=at(20.25)))
    clock.t = at(21)
    ledger.record_hand(s1, hand(2, winners=(), payments=(0, 0, 0, 0)))
    clock.t = at(21.25)
    ledger.record_hand(s1, hand(3, dealer=1, winners=(2,), payments=(-3, -3, 9, -3)))
    ledger.end_session(s1)
    s2 = ledger.start_session("sichuan", {})

    sessions = history.sessions()
    assert [s.id for s in sessions] == [s2, s1]
    first = sessions[1]
    assert first.status == "closed" and first.ended == at(21.25) and first.hands == 3
    assert first.totals == (3, -5, 7, -5) and first.options == {"bao_dice": "1"} and first.events == "/nowhere/run.jsonl"
    assert sessions[0].status == "open"

    hands = history.hands(session=s1)
    assert [h.number for h in hands] == [1, 2, 3]
    assert [h.totals for h in hands] == [(6, -2, -2, -2), (6, -2, -2, -2), (3, -5, 7, -5)]
    assert hands[0].started == at(20.25) and hands[0].finished == at(20.5) and hands[0].wall_hash == "hash1"
    assert hands[0].items[0]["items"][0]["name"] == "门清" and hands[1].result == "draw" and hands[1].winners == ()
    assert [h.number for h in history.hands(since=at(20.75))] == [2, 3]
    assert history.hand(hands[2].id).totals == (3, -5, 7, -5)
    with pytest.raises(HistoryError, match="no hand 99"):
        history.hand(99)


def test_a_clock_set_back_keeps_the_hands_in_the_order_they_were_settled_and_after_follows_them(ledger_at):
    """A Pi keeps no time through a power cut: the table's clock came back an hour behind.  The hands
    settled after it carry earlier times but stay after the hands before it, and a client following
    the ledger with `after` (the last id it has) misses none of them, as `since` would."""
    ledger, clock, history = ledger_at
    s1 = ledger.start_session("changchun", {})
    clock.t = at(21)
    ledger.record_hand(s1, hand(1))
    ledger.record_hand(s1, hand(2))
    seen = history.hands()
    clock.t = at(20.25)                         # the power cut: the clock restored from an hour-old save
    ledger.record_hand(s1, hand(3, started=at(20.2)))
    ledger.record_hand(s1, hand(4))
    assert [h.number for h in history.hands()] == [1, 2, 3, 4]
    assert [h.totals for h in history.hands()][-1] == (24, -8, -8, -8)
    assert [h.number for h in history.hands(after=seen[-1].id)] == [3, 4]
    assert history.hands(since=seen[-1].finished) == []                   # what `after` is for


def test_hours_count_wall_time_minus_the_faults_and_split_at_midnight(ledger_at):
    ledger, clock, history = ledger_at
    clock.t = at(23)
    s1 = ledger.start_session("changchun", {})
    clock.t = at(23.5)
    fault = ledger.fault_started(s1, ["E01"])
    clock.t = at(23.75)
    ledger.fault_ended(fault)
    clock.t = at(23.9)
    ledger.record_hand(s1, hand(1))
    clock.t = at(0.5, DAY + timedelta(days=1))          # over midnight: a fault still latched when the session ends
    ledger.record_hand(s1, hand(2))
    clock.t = at(0.75, DAY + timedelta(days=1))
    ledger.fault_started(s1, ["E12"])
    clock.t = at(1, DAY + timedelta(days=1))
    ledger.end_session(s1)

    (session,) = history.session_hours()
    assert session.wall_s == pytest.approx(2 * 3600) and session.fault_s == pytest.approx(0.5 * 3600)
    assert session.played_s == pytest.approx(1.5 * 3600) and session.hands == 2
    days = {d.key: d for d in history.day_hours()}
    first, second = days[DAY.isoformat()], days[(DAY + timedelta(days=1)).isoformat()]
    assert first.wall_s == pytest.approx(3600) and first.fault_s == pytest.approx(900) and first.hands == 1
    assert second.wall_s == pytest.approx(3600) and second.fault_s == pytest.approx(900) and second.hands == 1
    assert [d.key for d in history.day_hours(DAY)] == [DAY.isoformat()]
    assert [s.id for s in history.sessions(day=DAY + timedelta(days=1))] == [s1]
    assert history.sessions(day=DAY + timedelta(days=2)) == []


def test_a_session_a_power_cut_left_open_ends_at_its_last_record(ledger_at):
    ledger, clock, history = ledger_at
    s1 = ledger.start_session("changchun", {})
    clock.t = at(20.5)
    ledger.record_hand(s1, hand(1))
    clock.t = at(22)
    ledger.start_session("changchun", {})              # the next run: s1 never got its end
    clock.t = at(23)
    by_id = {s.id: s for s in history.sessions()}
    assert by_id[s1].status == "interrupted"
    hours = {h.key: h for h in history.session_hours()}
    assert hours[str(s1)].wall_s == pytest.approx(1800)       # to its last hand, not to now
    assert hours[str(s1 + 1)].wall_s == pytest.approx(3600)   # the open one runs to now


def test_the_time_a_killed_table_was_off_is_not_counted_as_played(tmp_path):
    """kill -9 (or a power cut) mid-session: no end is written.  The next run writes the journal (its
    recorder file) before it resumes the session; the half hour the table was off still counts as
    off, from the dead run's last journal write to the new start, and is not billed."""
    path = tmp_path / "t.db"
    clock = Clock(at(20))
    first = Ledger(path, clock=clock)
    s1 = first.start_session("changchun", {})
    first.journal_put(SESSION_KEY, {"session_id": s1})
    clock.t = at(20.5)
    first.record_hand(s1, hand(1), {"session_id": s1})        # its last journal write: then it dies
    first.close()                                              # no end_session: killed
    clock.t = at(21)                                           # off for half an hour
    second = Ledger(path, clock=clock)
    second.journal_put(RECORDER_KEY, {"path": "/nowhere/run2.jsonl", "chain": None})   # as TableSession.run does
    clock.t = at(21) + 0.002
    second.resume_session(s1)
    clock.t = at(21.5)
    second.record_hand(s1, hand(2), {"session_id": s1})
    second.end_session(s1)
    second.close()

    history = History(path, clock=clock)
    (session,) = history.session_hours()
    assert session.wall_s == pytest.approx(1.5 * 3600)
    assert session.fault_s == pytest.approx(0.5 * 3600, abs=0.01)      # the time off
    assert session.played_s == pytest.approx(3600, abs=0.01) and session.hands == 2
    (day,) = history.day_hours()
    assert day.played_s == pytest.approx(3600, abs=0.01)


def test_after_a_step_back_of_the_clock_the_time_a_killed_table_was_off_is_still_not_played(tmp_path):
    """The run wrote its recorder row at 21:00, a time server set the clock back an hour, and the
    table died at 20:30 by the new clock (its last write).  Off half an hour, back at 21:00: the
    half hour is off, not played (it was billed: the 21:00 row was taken for the last write)."""
    path = tmp_path / "t.db"
    clock = Clock(at(21))
    first = Ledger(path, clock=clock)
    first.journal_put(RECORDER_KEY, {"path": "/nowhere/run1.jsonl", "chain": None})   # at run start
    s1 = first.start_session("changchun", {})
    first.journal_put(SESSION_KEY, {"session_id": s1})
    clock.t = at(20.25)                                          # set back an hour
    first.record_hand(s1, hand(1, started=at(20)), {"session_id": s1})
    clock.t = at(20.5)
    first.journal_put(SESSION_KEY, {"session_id": s1})          # its last write: then it dies
    first.close()
    clock.t = at(21)
    second = Ledger(path, clock=clock)
    second.journal_put(RECORDER_KEY, {"path": "/nowhere/run2.jsonl", "chain": None})
    second.resume_session(s1)
    clock.t = at(21.5)
    second.record_hand(s1, hand(2, started=at(21)), {"session_id": s1})
    second.end_session(s1)
    second.close()

    (session,) = History(path, clock=clock).session_hours()
    assert session.fault_s == pytest.approx(0.5 * 3600, abs=0.01)   # 20:30 to 21:00, off
    assert session.hands == 2


def test_a_fault_latched_when_the_table_was_killed_ends_with_it(tmp_path):
    """kill -9 with a jam latched: its interval was left open, and the restarted table's every hour
    counted as fault time.  It ends where the dead run's last write was; the time off is off."""
    path = tmp_path / "t.db"
    clock = Clock(at(20))
    first = Ledger(path, clock=clock)
    s1 = first.start_session("changchun", {})
    first.journal_put(SESSION_KEY, {"session_id": s1})
    clock.t = at(20.25)
    first.fault_started(s1, ["E01"])                            # a jam, latched as it dies
    clock.t = at(20.5)
    first.journal_put(SESSION_KEY, {"session_id": s1})          # its last write
    first.close()
    clock.t = at(21)
    second = Ledger(path, clock=clock)
    second.resume_session(s1)
    clock.t = at(22)
    second.record_hand(s1, hand(1), {"session_id": s1})
    second.end_session(s1)
    second.close()

    (session,) = History(path, clock=clock).session_hours()
    assert session.fault_s == pytest.approx(0.25 * 3600 + 0.5 * 3600, abs=0.01)   # the jam, then the time off
    assert session.played_s == pytest.approx(1.25 * 3600, abs=0.01)


def test_hands_finished_while_the_clock_was_behind_count_on_their_day_with_their_time(ledger_at):
    """The session began at 00:06 by a clock an evening ahead; a time server set it back, and 40 hands
    were played from 20:00 to 23:00 the day before.  That day's hours hold them and their three hours
    (less a three-minute fault in hand 20), as the day's hands list them; the step back counts nothing."""
    ledger, clock, history = ledger_at
    before, after = DAY, DAY + timedelta(days=1)
    clock.t = at(0.1, after)
    s1 = ledger.start_session("changchun", {})
    for number in range(1, 41):
        if number == 20:                            # played from 21:25:30 to 21:30
            clock.t = at(21.43, before)
            fault = ledger.fault_started(s1, ["E01"])
            clock.t = at(21.48, before)
            ledger.fault_ended(fault)
        clock.t = at(20 + 3 * number / 40, before)
        ledger.record_hand(s1, hand(number, started=at(20 + 3 * (number - 1) / 40, before)))
    ledger.end_session(s1)

    assert len(history.hands(day=before)) == 40
    (day,) = history.day_hours(before)
    assert day.hands == 40 and day.sessions == (s1,)
    assert day.wall_s == pytest.approx(3 * 3600) and day.fault_s == pytest.approx(180)
    assert day.played_s == pytest.approx(3 * 3600 - 180)
    (session,) = history.session_hours()
    assert (session.played_s, session.hands) == (pytest.approx(3 * 3600 - 180), 40)
    assert sum(d.played_s for d in history.day_hours()) == pytest.approx(session.played_s)
    assert [s.id for s in history.sessions(day=before)] == [s1]
    rows = {row[0]: row for row in csv.reader(io.StringIO(hours_csv(history.day_hours())))}
    assert rows[before.isoformat()][5] == "40" and rows[before.isoformat()][3] == str(3 * 3600 - 180)


def test_a_restart_that_set_the_clock_back_loses_no_played_time(tmp_path):
    """Played 20:00-22:00, a power cut, and the Pi came back with the clock at 21:05 (an old save);
    played on to 22:30.  Both stretches are played time: 3 h 25, not the 2 h 30 from start to end."""
    path = tmp_path / "t.db"
    clock = Clock(at(20))
    first = Ledger(path, clock=clock)
    s1 = first.start_session("changchun", {})
    for number in (1, 2):
        clock.t = at(20 + number)
        first.record_hand(s1, hand(number, started=at(19 + number)), {"session_id": s1})
    first.close()                                      # the power cut: no end
    clock.t = at(21 + 5 / 60)
    second = Ledger(path, clock=clock)
    second.resume_session(s1)                          # off "until" before it went off: no OFF kept
    clock.t = at(22.5)
    second.record_hand(s1, hand(3, started=at(21 + 5 / 60)), {"session_id": s1})
    second.end_session(s1)
    second.close()

    history = History(path, clock=clock)
    (session,) = history.session_hours()
    assert session.played_s == pytest.approx(2 * 3600 + 85 * 60) and session.fault_s == 0
    (day,) = history.day_hours()
    assert day.played_s == pytest.approx(session.played_s) and day.hands == 3


def test_an_older_ledger_gains_the_new_columns_and_keeps_its_rows(tmp_path):
    path = tmp_path / "old.db"
    db = sqlite3.connect(path)
    db.executescript("""
        CREATE TABLE sessions (id INTEGER PRIMARY KEY, started REAL NOT NULL, ruleset TEXT NOT NULL, options TEXT NOT NULL);
        CREATE TABLE hands (id INTEGER PRIMARY KEY, session INTEGER NOT NULL REFERENCES sessions(id), number INTEGER NOT NULL,
            dealer INTEGER NOT NULL, result TEXT NOT NULL, winners TEXT NOT NULL, wall_hash TEXT NOT NULL,
            finished REAL NOT NULL, UNIQUE (session, number));
        CREATE TABLE payments (hand INTEGER NOT NULL REFERENCES hands(id), side INTEGER NOT NULL, amount INTEGER NOT NULL,
            PRIMARY KEY (hand, side));
        INSERT INTO sessions VALUES (1, 100.0, 'wuhan', '{}');
        INSERT INTO hands VALUES (1, 1, 1, 0, 'win', '[0]', 'abc', 200.0);
        INSERT INTO payments VALUES (1, 0, 3), (1, 1, -1), (1, 2, -1), (1, 3, -1);
    """)
    db.commit()
    db.close()
    Ledger(path).close()                                   # migrates
    Ledger(path).close()                                   # and again: nothing to add
    history = History(path, clock=lambda: 300.0)
    (old,) = history.hands()
    assert old.started is None and old.items == () and old.totals == (3, -1, -1, -1)
    assert history.sessions()[0].status == "open" and history.sessions()[0].ended is None


def test_csv_exports_have_a_header_and_one_row_each(ledger_at):
    ledger, clock, history = ledger_at
    s1 = ledger.start_session("changchun", {})
    ledger.record_hand(s1, hand(1))
    rows = list(csv.reader(io.StringIO(hands_csv(history.hands()))))
    assert rows[0][:3] == ["session", "hand", "number"] and len(rows) == 2
    assert rows[1][rows[0].index("total0")] == "6" and "门清 2" in rows[1][rows[0].index("items")]
    hours = list(csv.reader(io.StringIO(hours_csv(history.day_hours()))))
    assert hours[0][0] == "key" and hours[1][0] == DAY.isoformat()


def test_no_ledger_file_is_an_empty_history_and_a_bad_day_says_how_to_write_it(tmp_path):
    assert History(tmp_path / "none.db").sessions() == [] and History(tmp_path / "none.db").day_hours() == []
    with pytest.raises(HistoryError, match="YYYY-MM-DD"):
        parse_day("30/11/2026")


def test_clipped_counts_overlapping_intervals_once():
    assert clipped([(0, 10), (5, 15), (20, 30)], 0, 25) == 20
    assert clipped([(0, 10)], 10, 20) == 0


def test_a_clock_set_forward_by_a_time_server_is_not_played_nor_listed_day_by_day(ledger_at):
    """A Pi without a clock booted at 1970; 35 s into the session a time server set the clock to
    2026.  The step is seen against the monotonic clock and kept: the session played what it
    played, and the days are the two it has time on, not every day since 1970 (it was 499,062 h)."""
    ledger, clock, history = ledger_at
    boot = 0.0
    clock.t = boot
    s1 = ledger.start_session("changchun", {})
    ledger.journal_put(HAND_KEY, {"hand": 1})                    # hand 1 in play
    clock.t = at(20)
    ledger.clock_stepped(s1, boot + 35, at(20))
    clock.t = at(20) + 40
    ledger.record_hand(s1, hand(1, started=boot + 5), {"session_id": s1})
    clock.t = at(20) + 100
    ledger.end_session(s1)

    (session,) = history.session_hours()
    assert session.played_s == pytest.approx(135) and session.fault_s == 0
    days = history.day_hours()
    assert [d.key for d in days] == [DAY.isoformat(), date.fromtimestamp(boot).isoformat()]
    assert sum(d.played_s for d in days) == pytest.approx(135)
    assert days[0].hands == 1


def test_a_clock_set_back_mid_hand_loses_none_of_the_hand(ledger_at):
    """Hand 1 began at 20:00; at 20:10 a time server set the clock back an hour; it finished at 19:30
    by the new clock.  The hand's 30 minutes are played (the 10 before the step were lost)."""
    ledger, clock, history = ledger_at
    s1 = ledger.start_session("changchun", {})
    ledger.journal_put(HAND_KEY, {"hand": 1})
    clock.t = at(19 + 10 / 60)
    ledger.clock_stepped(s1, at(20 + 10 / 60), at(19 + 10 / 60))
    clock.t = at(19.5)
    ledger.record_hand(s1, hand(1, started=at(20)), {"session_id": s1})
    ledger.end_session(s1)

    (session,) = history.session_hours()
    assert session.played_s == pytest.approx(30 * 60)
    (day,) = history.day_hours()
    assert day.played_s == pytest.approx(30 * 60) and day.hands == 1


def test_a_power_cut_on_a_pi_without_a_clock_is_not_played(tmp_path):
    """Played 20:00-20:01, the power cut; off two hours, the Pi came back at 19:31 (its last saved
    time), and a time server set it to 22:02 a minute later; played to 22:03.  Three minutes are
    played, not two and a half hours."""
    path = tmp_path / "t.db"
    clock = Clock(at(20))
    first = Ledger(path, clock=clock)
    s1 = first.start_session("changchun", {})
    clock.t = at(20) + 60
    first.record_hand(s1, hand(1, started=at(20)), {"session_id": s1})     # its last write
    first.close()
    clock.t = at(19.5) + 60
    second = Ledger(path, clock=clock)
    second.resume_session(s1)                                  # back behind the last write: time off unknown
    second.journal_put(HAND_KEY, {"hand": 2})                  # hand 2 begun
    clock.t = at(22) + 120
    second.clock_stepped(s1, at(19.5) + 120, at(22) + 120)    # the time server
    clock.t = at(22) + 180
    second.record_hand(s1, hand(2, started=at(19.5) + 60), {"session_id": s1})
    second.end_session(s1)
    second.close()

    (session,) = History(path, clock=clock).session_hours()
    assert session.played_s == pytest.approx(180) and session.hands == 2


@pytest.mark.parametrize("step_s", [24 * 3600, -3600])
def test_a_fault_up_across_a_step_of_the_clock_is_not_played_after_it(ledger_at, step_s):
    """A jam latched at 20:00:00 and cleared 16 s later; 4 s into it a time server stepped the clock
    (a day on, or an hour back).  The 16 s are fault time, not 4 (the rest was counted as played
    from the step on: a verifying probe)."""
    ledger, clock, history = ledger_at
    s1 = ledger.start_session("changchun", {})
    clock.t = at(20)
    interval = ledger.fault_started(s1, ["E01"])
    clock.t = at(20) + 4 + step_s
    ledger.clock_stepped(s1, at(20) + 4, at(20) + 4 + step_s)
    clock.t = at(20) + 16 + step_s
    ledger.fault_ended(interval)
    clock.t = at(20) + 20 + step_s
    ledger.end_session(s1)
    (session,) = history.session_hours()
    assert session.fault_s == pytest.approx(16) and session.played_s == pytest.approx(20 - 16)


def test_a_hands_row_a_bad_page_left_unreadable_is_one_line_not_a_traceback(ledger_at):
    """Text that is not UTF-8 in a hands row passes `PRAGMA quick_check`: the table plays on, and the
    web view's /api/hands answered 500 with a traceback in the log (a verifying probe)."""
    from firmware.records.history import LedgerDamaged
    ledger, clock, history = ledger_at
    s1 = ledger.start_session("changchun", {})
    ledger.record_hand(s1, hand(1, started=at(20)))
    with sqlite3.connect(history.path) as db:
        db.execute("UPDATE hands SET wall_hash = CAST(x'ff00fe' AS TEXT)")
    db.close()
    with pytest.raises(LedgerDamaged) as damaged:
        history.hands()
    line = str(damaged.value)
    assert "\n" not in line and "damaged" in line and "keep it" in line and ".recover" in line


def test_a_power_cut_after_a_step_back_seen_plays_no_time_that_never_was(tmp_path):
    """Played 20:00-20:10; a time server set the clock back an hour (seen: a CLOCK row), and the power
    went at 19:11 by the new clock, before any other write; off half an hour, back at 19:41.  The
    restart took the last write from before the step (20:10) for the moment it went off, kept a
    second step from it, and the history played the half hour between (a soak: 29 minutes)."""
    path = tmp_path / "t.db"
    clock = Clock(at(20))
    first = Ledger(path, clock=clock)
    s1 = first.start_session("changchun", {})
    first.journal_put(SESSION_KEY, {"session_id": s1})
    clock.t = at(19 + 10 / 60)
    first.clock_stepped(s1, at(20 + 10 / 60), at(19 + 10 / 60))
    first.close()                                                    # the power goes a minute later
    clock.t = at(19 + 41 / 60)
    second = Ledger(path, clock=clock)
    second.resume_session(s1)
    clock.t = at(19 + 42 / 60)
    second.end_session(s1)
    second.close()
    (session,) = History(path, clock=clock).session_hours()
    assert session.played_s == pytest.approx(11 * 60, abs=61)       # 10 minutes, and 1 after the restart
