"""长春's 宝 across a restart: a seat that declared 听 just before the controller stopped is asked
for the 宝 die again (found by the fault campaign: a kill right after a 听, before the 宝 prompt
reached the seat; the restarted controller waited for the roller's 骰子 without asking for it, and
the roller waited for the prompt: a stall at 请出牌)."""

import threading

from drivers.messages import Status
from drivers.table_ui import ROLL_BAO
from tests.asyncio_support import run
from tests.firmware.seat_text_hook import hook_seat_text
from tests.firmware.test_restart import crash_and_restart


def test_the_bao_roller_is_asked_again_after_a_stop_before_his_prompt_reached_him(tmp_path, monkeypatch):
    down = threading.Event()            # from the 听 on, the first controller's seat lines are lost
    hook_seat_text(monkeypatch, lambda command: Status.OK if down.is_set() and command.text.startswith(ROLL_BAO)
                   else None)

    def stop_at_ready(event: dict) -> bool:
        if event["event"] == "ready":
            down.set()
            return True
        return False

    db = str(tmp_path / "table.db")
    result, before, after = run(crash_and_restart("changchun", 4, db, stop_at_ready,
                                                  meanwhile=lambda *_: down.clear()), timeout=60)
    roller = next(e["seat"] for e in before if e["event"] == "ready")
    resumed = next(e for e in after if e["event"] == "resumed")
    chosen = [e for e in after if e["event"] == "indicator" and e["hand"] == resumed["hand"]
              and e["timing"] == "on_ready"]
    assert chosen, "the resumed hand never chose its 宝"
    assert roller in chosen[0]["seat"]
    assert result.hands == 2
