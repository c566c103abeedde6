"""Rules chosen on the front panel while a hand is played, then a restart (a probe at the table:
the restarted controller started with the choice, found the journaled hand under other rules and
voided it — the money of a hand in play gone — and once stopped the table on a reread).  The hand is
finished under the rules it began with; the choice starts at the next hand, as it would have
without the restart."""

from tests.asyncio_support import run
from tests.firmware.test_restart import crash_and_restart


def test_a_hand_in_play_when_the_restart_brings_other_rules_is_finished_under_its_own(tmp_path):
    def in_play(event: dict) -> bool:
        return event["hand"] >= 2 and event["event"] == "take" and event["reason"] == "draw"

    db = str(tmp_path / "table.db")
    result, before, after = run(crash_and_restart("changchun", 2, db, in_play, restart_options={"kong_value": "2"}),
                                timeout=90)
    resumed = next(e for e in after if e["event"] == "resumed")
    assert not any(e["event"] == "hand_void" for e in after)
    ends = [e for e in after if e["event"] == "hand_end"]
    assert ends[0]["hand"] == resumed["hand"]                   # finished, and paid
    started = [e for e in after if e["event"] == "session_start"]
    assert [s["options"].get("kong_value") for s in started] == ["2"]
    assert started[0]["t"] >= ends[0]["t"] and result.hands == 2


def test_a_restart_between_hands_with_other_rules_numbers_the_hands_on(tmp_path):
    """Stopped between hands, started with other rules (the panel's choice, or `--ruleset`): a new
    session, whose hands were numbered from 1 again (the display's 第1局, and the ledger held hand 1
    twice: a probe); a session's hand numbers go on, as a choice made without a restart has them."""
    def settled(event: dict) -> bool:
        return event["event"] == "hand_end" and event["hand"] == 2

    db = str(tmp_path / "table.db")
    result, before, after = run(crash_and_restart("changchun", 2, db, settled, restart_options={"kong_value": "2"}),
                                timeout=90)
    assert [e["hand"] for e in before if e["event"] == "hand_end"] == [1, 2]
    assert [e["options"].get("kong_value") for e in after if e["event"] == "session_start"] == ["2"]
    assert [e["hand"] for e in after if e["event"] == "hand_start"] == [3, 4] and result.hands == 2


def test_a_hand_in_play_is_finished_when_the_restart_brings_rules_needing_other_tiles(tmp_path):
    """四川 (108 tiles) chosen on a 长春 table, then a restart mid-hand: the hand was voided, its money
    gone, for rules nobody could play before the tiles were changed (a probe).  It is finished under
    its own rules; the table then says the tiles are to be changed and plays on with those it has."""
    def in_play(event: dict) -> bool:
        return event["hand"] >= 2 and event["event"] == "take" and event["reason"] == "draw"

    db = str(tmp_path / "table.db")
    result, before, after = run(crash_and_restart("changchun", 2, db, in_play, restart_region="sichuan"), timeout=90)
    resumed = next(e for e in after if e["event"] == "resumed")
    assert not any(e["event"] == "hand_void" for e in after)
    assert [e["hand"] for e in after if e["event"] == "hand_end"][0] == resumed["hand"]      # finished, and paid
    assert {e["ruleset"] for e in after if e["event"] == "hand_start"} <= {"changchun"}
    assert any(e["event"] == "warning" and "needs another tile set" in e["message"] for e in after)
