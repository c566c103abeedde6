"""A hand's page is audited from its lines across a restart as one hand: what was paid before the
restart (长沙's 起手小和) counts in its hand_end.  Read as one file, the part after the `resumed`
line was a hand of its own, and the page said "hand_end pays [3, -3, -1, 1]; its wins (or the draw)
pay [0, -2, 0, 2]" of a sound hand (campaign seed 220050)."""

import threading

from firmware.records.audit import audit_one_hand
from tests.asyncio_support import run
from tests.firmware.lost_writes import lose_writes_while, stop_options
from tests.firmware.test_restart import crash_and_restart

SEED = 3         # its hand 2 opens with a 起手小和, and goes on


def test_an_opening_win_paid_before_a_restart_counts_in_the_page_s_audit(tmp_path, monkeypatch):
    opened = set()

    def after_an_opening_win(event: dict) -> bool:
        if event["event"] == "opening_win" and event["accepted"] and event["hand"] >= 2:
            opened.add(event["hand"])
        return event["event"] == "take" and event["reason"] == "draw" and event["hand"] in opened

    down = threading.Event()
    lose_writes_while(down, monkeypatch)
    _, before, after = run(crash_and_restart("changsha", SEED, str(tmp_path / "table.db"), after_an_opening_win,
                                             **stop_options(down, killed=False)), timeout=120)
    number = min(opened)
    page = [e for e in before + after if e["hand"] == number]
    assert [e["event"] for e in page].count("resumed") == 1 and page[-1]["event"] == "hand_end"
    assert any(page[-1]["payments"])
    assert audit_one_hand(page) == []

