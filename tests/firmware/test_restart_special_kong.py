"""长春 亮特殊杠 across a stop: the seat takes its replacements as soon as it reads `特殊杠补牌 N`,
so that line follows the journal's commit of the kong it is for.  Shown before, a SIGKILL left the
restarted controller not knowing the kong: it asked the seat again, who had laid it and taken its
replacement, and answered 无; the kong was never counted, and his 胡 was judged 诈胡 (15 concealed
tiles, no meld) — found by the fault campaign as a stall in play.  A seat asked again about a kong
it laid and never saw judged declares it again; a restarted controller that knows a kong whose
replacements are still owed asks for them before anything else."""

import threading

import pytest

from drivers.table_ui import LAY_SPECIAL
from firmware.hand import declarations

from tests.asyncio_support import run
from tests.firmware.lost_writes import lose_writes_while, stop_options
from tests.firmware.test_restart import crash_and_restart

# no dealer roll: these seeds' hands (a 旋风杠 owing its replacement) are the ones the tests were built on
SIDE_0_DEALS_FIRST = {"first_dealer": "east"}


def journal_caught_up_before_laying(monkeypatch) -> None:
    """The journal commits the hand as it stands before a seat lays a special kong.  The journal's
    writer coalesces and lags on a busy machine: killed at the acceptance, the journal could still
    hold the hand in `dealing`, and the restart would test the deal, not the kong (it did, once,
    under two busy loops).  The kill then loses exactly the writes from the acceptance on."""
    laying = declarations.confirmed

    async def after_the_journal(ports, seat, prompt, *args, **kwargs):
        if prompt == LAY_SPECIAL:
            await ports.journaled()
        return await laying(ports, seat, prompt, *args, **kwargs)
    monkeypatch.setattr(declarations, "confirmed", after_the_journal)


@pytest.mark.parametrize("journal_kept_it", [False, True])
def test_a_special_kong_accepted_as_the_controller_stops_is_played_as_a_kong(tmp_path, monkeypatch, journal_kept_it):
    """Stopped as the kong is accepted: as by SIGKILL (the journal never holds it: the seat is asked
    again and declares the kong still lying in its zone once more), or with the journal holding it
    and `特殊杠补牌` never shown (the restarted controller asks for the replacements first)."""
    down = threading.Event()
    lose_writes_while(down, monkeypatch)
    journal_caught_up_before_laying(monkeypatch)

    def accepted(event: dict) -> bool:
        return event["hand"] >= 2 and event["event"] == "special_kong" and event["accepted"]

    db = str(tmp_path / "table.db")
    result, before, after = run(crash_and_restart("changchun", 1, db, accepted, options=SIDE_0_DEALS_FIRST,
                                                  **stop_options(down, killed=not journal_kept_it)), timeout=60)
    assert not any(e["event"] == "false_win" for e in after)
    resumed = next(e for e in after if e["event"] == "resumed")
    assert resumed["phase"] == "revealing"
    assert [e["accepted"] for e in after if e["event"] == "special_kong" and e["hand"] == resumed["hand"]] == \
        ([] if journal_kept_it else [True])
    assert result.hands == 2


def test_a_special_kong_line_a_kill_cut_is_still_counted_in_the_audit_s_wall(tmp_path, monkeypatch):
    """A kill between the journal's commit of an accepted special kong and its recorder line: the
    restarted controller counts the kong in the wall (the journal holds it), and the audit, which
    counted it only from that line, found every later take's live/reserve/kongs one kong off
    (campaign seed 210031).  The `resumed` line now says the kongs counted without a take."""
    from firmware.records.audit import audit_recorders
    from firmware.records.stream import recorder_from_events

    def accepted(event: dict) -> bool:
        return (event["hand"] >= 2 and event["event"] == "special_kong" and event["accepted"]
                and event["reserve_kongs"] > 0)

    def wall_counts(first: list[dict]) -> list[str]:
        report = audit_recorders([recorder_from_events("first", first), recorder_from_events("second", after)])
        return [str(p) for p in report.problems if "live/reserve/kongs" in str(p) or "without a take" in str(p)]

    down = threading.Event()
    lose_writes_while(down, monkeypatch)
    result, before, after = run(crash_and_restart("changchun", 3, str(tmp_path / "table.db"), accepted,
                                                  options=SIDE_0_DEALS_FIRST, **stop_options(down, killed=False)),
                                timeout=60)
    kong = next(e for e in before if accepted(e))
    resumed = next(e for e in after if e["event"] == "resumed")
    assert resumed["hand"] == kong["hand"] and resumed["kongs_without_takes"] == kong["reserve_kongs"]
    assert any(e["event"] == "take" and e["reason"] == "kong" for e in after)       # the wall counted on
    assert wall_counts(before) == []
    assert wall_counts([e for e in before if e is not kong and e["event"] != "recorder_end"]) == []
