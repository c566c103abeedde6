"""A hand the table cannot score: a fault in the scoring itself (the rules' code raising on a hand
laid right), or a scoring worker that died on every try.  It used to stop the table, and the
service's restart resumed the hand, the seat laid it again, and the table stopped again: a table
that never played on.  Now the hand is voided (no payments, the same dealer), the display asks for
it to be settled by hand, the recorder says `scoring_failed`, the log holds the error, and the
next hand is played."""

import io
import json
import logging

import pytest

from drivers.table_ui import SCORING_FAILED
from firmware import worker
from firmware.records.audit import audit_events
from firmware.simulated import run_simulated
from firmware.worker import WorkerFailed
from rulesets.regions import get_region
from simulator.table import SimulatedTable
from tests.asyncio_support import run


def scoring_fails_once(monkeypatch, error: Exception, step: str = "judge_laid", nth: int = 1) -> list:
    """The `nth` call of `step` fails with `error`; every other call is the worker's own."""
    call = worker.ProcessWorker.run
    calls: list = []

    async def once(self, fn, *args):
        if fn.__name__ == step:
            calls.append(fn.__name__)
            if len(calls) == nth:
                raise error
        return await call(self, fn, *args)
    monkeypatch.setattr(worker.ProcessWorker, "run", once)
    return calls


def spy_on_the_message_line(shown: list[str]):
    """An on_session hook: every text the controller sends the display's message line, however soon
    the next replaces it."""
    def attach(session) -> None:
        presenter = session.hub.presenter
        text = presenter._text

        def spy_text(component, value, page="main", **kwargs):
            if component == "t_msg":
                shown.append(value)
            text(component, value, page, **kwargs)
        presenter._text = spy_text
    return attach


async def play_watching_the_display(ruleset, hands: int, seed: int):
    """The hands played on a simulated table: its recorder's events, and every message line the
    controller sent its display (each one, however soon the next replaced it)."""
    table = SimulatedTable(seed=seed, speed=0, tile_sets=(ruleset.tiles, ruleset.tiles))
    await table.start("pty")
    shown: list[str] = []
    events = io.StringIO()
    try:
        await run_simulated(ruleset, hands=hands, seed=seed, table=table, events=events,
                            on_session=spy_on_the_message_line(shown))
    finally:
        await table.stop()
    return [json.loads(line) for line in events.getvalue().splitlines()], shown


@pytest.mark.parametrize("error", [KeyError("a bug in the scoring"),
                                   WorkerFailed("the scoring worker died 2 times on one call (judge_laid)")],
                         ids=["scoring_raised", "worker_died_twice"])
def test_a_hand_the_table_cannot_score_is_voided_said_and_recorded_and_play_goes_on(monkeypatch, caplog, error):
    calls = scoring_fails_once(monkeypatch, error)
    ruleset = get_region("hainan").resolve({})
    with caplog.at_level(logging.ERROR, logger="firmware.session"):
        events, shown = run(play_watching_the_display(ruleset, hands=2, seed=1), timeout=240)
    assert calls[:1] == ["judge_laid"]
    said = [e for e in events if e["event"] == "scoring_failed"]
    assert [(e["step"], e["error"]) for e in said] == [("judge_laid", type(error).__name__)]
    void = next(e for e in events if e["event"] == "hand_void")
    assert void["hand"] == said[0]["hand"] and "settle the hand by hand" in void["reason"]
    end = next(e for e in events if e["event"] == "hand_end" and e["hand"] == void["hand"])
    assert (end["result"], end["payments"], end["winners"]) == ("void", [0, 0, 0, 0], [])
    # played on: the hands asked for were played after it, the same dealer first
    after = [e for e in events if e["event"] == "hand_end" and e["hand"] > void["hand"]]
    assert len(after) == 2 and all(e["result"] != "void" for e in after)
    start = next(e for e in events if e["event"] == "hand_start" and e["hand"] == void["hand"] + 1)
    assert start["dealer"] == end["next_dealer"]
    assert any(SCORING_FAILED in text for text in shown), shown
    # the error's words are in the log, not in the public stream
    assert any(str(error) in record.getMessage() for record in caplog.records)
    assert not any(str(error) in json.dumps(e, ensure_ascii=False) for e in events)
    assert audit_events(events) == []


@pytest.mark.parametrize("region_id, step, nth", [("sichuan", "judge_laid", 2), ("yichang", "judge_round", 1)],
                         ids=["second_win", "round_settlement"])
def test_a_bloody_hand_the_table_cannot_score_further_is_voided_whole_and_its_recorder_stays_sound(
        monkeypatch, region_id, step, nth):
    """血战 (四川, 宜昌): a hand goes on after its first win.  Its second win, or its settlement round
    (宜昌's, after the hand), failing voids the whole hand: its first win's line stays in the recorder
    (the people settle the hand by hand from it), and no payment of it reaches the totals."""
    calls = scoring_fails_once(monkeypatch, RuntimeError("a bug in the scoring"), step, nth)
    ruleset = get_region(region_id).resolve({})
    events, shown = run(play_watching_the_display(ruleset, hands=2, seed=2), timeout=240)
    assert len(calls) >= nth
    said = next(e for e in events if e["event"] == "scoring_failed")
    assert (said["step"], said["error"]) == (step, "RuntimeError")
    void = said["hand"]
    assert [e["result"] for e in events if e["event"] == "hand_end" and e["hand"] == void] == ["void"]
    if nth == 2:
        assert sum(e["event"] == "win" and e["hand"] == void for e in events) == 1
    ends = [e for e in events if e["event"] == "hand_end"]
    paid = [sum(e["payments"][s] for e in ends) for s in range(4)]
    assert ends[-1]["totals"] == paid                       # the void paid nothing; the others add up
    assert any(SCORING_FAILED in text for text in shown)
    assert audit_events(events) == []
