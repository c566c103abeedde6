"""沈阳 亮牌 across a stop: a seat takes a 东南西北 过杠's replacement as soon as it reads `亮牌补牌 1`,
and counts a set as shown once it reads `亮牌 <set>`, so both lines follow the journal's commit of
the 亮牌.  Shown before, a SIGKILL left the restarted controller not knowing the 亮牌 the seat had
laid and taken a replacement for (the fault campaign's audit: "the take after the 过杠 is a head
draw").  A restarted controller that knows a 过杠 whose replacement is still owed asks for it again
before play goes on."""

import threading

import pytest

from tests.asyncio_support import run
from tests.firmware.lost_writes import lose_writes_while, stop_options
from tests.firmware.test_restart import crash_and_restart


@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize("journal_kept_it", [False, True])
def test_a_liang_accepted_as_the_controller_stops_is_played_as_shown(tmp_path, monkeypatch, journal_kept_it, seed):
    """Stopped as a 东南西北 亮牌 is accepted: as by SIGKILL (the journal never holds it: the seat,
    never told, shows it again), or with the journal holding it and `亮牌补牌` never shown (the
    restarted controller asks for the replacement first)."""
    down = threading.Event()
    lose_writes_while(down, monkeypatch)

    def accepted(event: dict) -> bool:
        return event["event"] == "liang_pai" and event["accepted"] and event["replacements"] == 1

    db = str(tmp_path / "table.db")
    result, before, after = run(crash_and_restart("shenyang", seed, db, accepted,
                                                  **stop_options(down, killed=not journal_kept_it)), timeout=60)
    assert not any(e["event"] == "false_win" for e in after)
    resumed = next(e for e in after if e["event"] == "resumed")
    stopped_at = next(e for e in before if accepted(e))
    shown_again = [e for e in after if e["event"] == "liang_pai" and e["hand"] == resumed["hand"]
                   and (e["seat"], e["name"]) == (stopped_at["seat"], "东南西北")]
    assert [e["accepted"] for e in shown_again] == ([] if journal_kept_it else [True])     # recorded once in all
    assert result.hands == 2
