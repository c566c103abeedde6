"""长春: a special kong accepted as the controller stops, before its seat saw the verdict.  The
restarted controller (its journal holds the kong) asks the seat again; the seat lays the same kong
again and the table refuses it as shown already.  The player had kept waiting for that kong's
replacements, which never come after a refusal, and so never played: the table stood at 请出牌
(campaign seed 210031)."""

import threading

from tests.asyncio_support import run
from tests.firmware.lost_writes import lose_writes_while, stop_options
from tests.firmware.test_restart import crash_and_restart


def test_a_special_kong_laid_again_and_refused_as_shown_leaves_the_seat_playing(tmp_path, monkeypatch):
    def accepted(event: dict) -> bool:
        return (event["hand"] >= 2 and event["event"] == "special_kong" and event["accepted"]
                and event["replacements"] == 0)

    down = threading.Event()
    lose_writes_while(down, monkeypatch)
    result, before, after = run(crash_and_restart("changchun", 7, str(tmp_path / "table.db"), accepted,
                                                  **stop_options(down, killed=False)), timeout=120)
    kong = next(e for e in before if accepted(e))
    again = [e for e in after if e["event"] == "special_kong" and e["seat"] == kong["seat"] and e["hand"] == kong["hand"]]
    assert [e["accepted"] for e in again] == [False]
    assert again[0]["reason"].startswith("this special kong was shown already")
    assert result.hands == 2                                       # the hand was played out, and the next
    assert [e["hand"] for e in after if e["event"] == "hand_end"] == [kong["hand"], kong["hand"] + 1]
    # the audit takes the refusal as right, from the accepted line or, where a kill cut it, from the
    # special kongs the `resumed` line says the journal knew (campaign seed 230000)
    assert refusals_questioned(before, after) == []
    assert refusals_questioned([e for e in before if e is not kong and e["event"] != "recorder_end"], after) == []


def refusals_questioned(first: list[dict], second: list[dict]) -> list[str]:
    from firmware.records.audit import audit_recorders
    from firmware.records.stream import recorder_from_events
    report = audit_recorders([recorder_from_events("first", first), recorder_from_events("second", second)])
    return [str(p) for p in report.problems if "was refused" in str(p)]
