"""One day's hours and sessions, read from the sessions reaching into that day alone, are the same as
that day's row of the whole history (read hand by hand, every session): on ledgers of many sessions
whose clock went back and forth (seen and unseen), with faults, power cuts and sessions over midnight.

Why it matters: the fleet's status asks for today's hours after every hand; read from every hand of
the ledger, that cost half a second of CPU a hand on a year's ledger (2.5 s on a Pi 4)."""

import random
from datetime import date, datetime, timedelta

import pytest

from firmware.fleet.publisher import ledger_facts
from firmware.records.history import History
from firmware.records.ledger import HandRecord, Ledger

START = datetime(2026, 11, 20, 18, 0).timestamp()


class Clock:
    def __init__(self, t: float) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t


def _hand(number: int, started: float) -> HandRecord:
    return HandRecord(number, 0, "win", (0,), (6, -2, -2, -2), f"hash{number}", started, ())


def _random_ledger(path, rng: random.Random) -> Clock:
    """Sessions of a few hands each over some ten days, the clock moving as a table's does."""
    clock = Clock(START)
    ledger = Ledger(path, clock=clock)
    for _ in range(rng.randint(3, 9)):
        clock.t += rng.choice([60, 3600, 5 * 3600, 26 * 3600])          # idle, overnight, days away
        session = ledger.start_session("changchun", {})
        number = 0
        for _ in range(rng.randint(0, 12)):
            number += 1
            started = clock.t
            clock.t += rng.uniform(300, 7 * 3600)                      # a hand, or a table left for hours
            if rng.random() < 0.2:
                fault = ledger.fault_started(session, ["E01"])
                clock.t += rng.uniform(10, 4000)
                ledger.fault_ended(fault)
            if rng.random() < 0.15:                                    # a time server steps the clock
                step = rng.choice([-30 * 3600, -3600, 3600, 40 * 3600])
                if rng.random() < 0.5:
                    ledger.clock_stepped(session, clock.t, clock.t + step)     # seen
                clock.t += step
            ledger.record_hand(session, _hand(number, started))
        if rng.random() < 0.25:                                        # a power cut: left open, resumed or not
            ledger.close()
            clock.t += rng.uniform(-3600, 20 * 3600)
            ledger = Ledger(path, clock=clock)
            if rng.random() < 0.5:
                ledger.resume_session(session)
                clock.t += rng.uniform(60, 3600)
                ledger.end_session(session)
        else:
            ledger.end_session(session)
    ledger.close()
    clock.t += rng.uniform(0, 3 * 3600)
    return clock


@pytest.mark.parametrize("seed", range(40))
def test_one_day_read_alone_is_that_day_of_the_whole_history(tmp_path, seed):
    rng = random.Random(seed)
    clock = _random_ledger(tmp_path / "t.db", rng)
    history = History(tmp_path / "t.db", clock=clock)
    every_day = {date.fromisoformat(row.key): row for row in history.day_hours()}
    first, last = min(every_day), max(every_day)
    sessions = {s.id: s for s in history.sessions()}
    for n in range(-1, (last - first).days + 2):                       # a day either side, with nothing
        day = first + timedelta(days=n)
        row = every_day.get(day)
        assert history.day_hours(day) == ([row] if row else []), day
        assert [s.id for s in history.sessions(day)] == sorted(row.sessions if row else (), reverse=True), day
        assert all(s == sessions[s.id] for s in history.sessions(day))
    for session in sessions.values():
        assert history.session(session.id) == session
        assert history.session_started(session.id) == session.started


def test_the_fleets_figures_of_today_read_only_todays_sessions(tmp_path):
    """Today's hands and hours, and when the session began, as the status sends them: the same
    figures as the whole history's row of today."""
    clock = _random_ledger(tmp_path / "t.db", random.Random(7))
    history = History(tmp_path / "t.db", clock=clock)
    newest = history.sessions()[0]
    today = datetime.fromtimestamp(clock.t).date()
    row = {r.key: r for r in history.day_hours()}.get(today.isoformat())
    facts = ledger_facts(history, newest.id, clock.t)
    assert facts["hands_today"] == (row.hands if row else 0)
    assert facts["hours_today"] == (round(row.played_s / 3600, 3) if row else 0.0)
    assert facts["session_started"] == round(newest.started, 3)
