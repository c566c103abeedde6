"""A restarted controller clears every seat's line before its first screen asks for the keys again.

The seats' lines go through the motor board and the restart note through the display: the note could
come first, while a seat still showed a question from before the stop, and people answer what their
line shows (campaign seed 270050, 长沙: three players answered an old 起手小和按胡 无则确认 with 胡 in
the middle of the hand, the table took one 胡 as a win and waited on a question that player never
answered).  Here the seats show that old question as the controller restarts."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

from drivers.table_ui import OPENING_ASK
from firmware.controller import TableController
from simulator.players import answers
from tests.asyncio_support import run
from tests.firmware.test_restart import crash_and_restart

SLOW_LINE_S = 0.2           # a motor link slow to take each seat line (busy, or retransmitting)


def test_an_old_question_left_on_the_seats_is_gone_before_the_restart_note_shows(tmp_path, monkeypatch):
    write_line = TableController._write_seat_line

    async def slowly(hub, side: int, line: int, text: str) -> int:
        await asyncio.sleep(SLOW_LINE_S)
        return await write_line(hub, side, line, text)

    monkeypatch.setattr(TableController, "_write_seat_line", slowly)
    # every player asked 起手小和 claims one (胡), as three did in the campaign: one answered mid-hand
    # starts a win check its player never answers
    monkeypatch.setattr(answers, "opening_small_wins", lambda kinds: (SimpleNamespace(zh="缺一色"),))

    def in_play(event: dict) -> bool:
        return event["event"] == "take" and event["hand"] == 2 and event.get("reason") == "draw" and event["live"] < 50

    def old_question_left(table, ruleset, events) -> None:
        for seat in ruleset.players:
            table.world.set_seat_text(seat, 1, OPENING_ASK)

    result, before, after = run(crash_and_restart("changsha", 3, str(tmp_path / "table.db"), stop_when=in_play,
                                                  meanwhile=old_question_left), timeout=120)
    assert result.hands == 2
    assert any(e["event"] == "resumed" and e["hand"] == 2 for e in after)
    assert not [e for e in after if e["event"] == "false_win" and e["hand"] == 2]
