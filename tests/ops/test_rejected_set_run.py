"""issue 10 item 2: `mahjong-table run` (the real process, its simulator in a process of its own) with
the first set short of a tile does not end: it says what is wrong and what to do, waits for a person
(the simulated people at the table mend the set and press 确认), builds again and plays on."""

import json

from tests.ops.support import cli, needs_no_default_config


def test_run_with_a_tile_missing_waits_for_a_person_and_plays_on(tmp_path):
    needs_no_default_config()
    events = tmp_path / "events.jsonl"
    proc = cli(["run", "--simulate", "--ruleset", "changchun", "--hands", "2", "--speed", "0", "--seed", "3",
                "--fault", "missing_tile", "--db", str(tmp_path / "table.db"), "--events", str(events)],
               tmp_path, timeout=120)
    assert proc.returncode == 0, (proc.stdout[-1500:], proc.stderr[-1500:])
    out = proc.stdout
    assert "E07 牌不齐: missing 1 ×" in out and "按提示补齐或取出牌后按确认" in out
    assert "the rejected set's walls are up on the table" in out and "press 确认 on the front panel" in out
    log = [json.loads(line) for line in events.read_text(encoding="utf-8").splitlines()]
    names = [e["event"] for e in log]
    assert names.index("set_check") < names.index("set_aside") < names.index("set_rebuild") < names.index("hand_start")
    assert [e["ok"] for e in log if e["event"] == "set_check"][:3] == [False, True, True]
    assert names.count("hand_end") == 2
    assert "recorder_end" in names                         # ended cleanly, after its hands
