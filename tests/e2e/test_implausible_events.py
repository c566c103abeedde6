"""A board firmware that sends events no table has — a lift 9, a key on panel 9, a read on lane 7, a
read zone 9, a wall 7, a stack of 7 tiles — is named in a warning and not applied, and a roll of other than the dice asked for is
rolled again; the table plays on (before, a lift or zone 9 left it waiting for ever in silence, a
lane 7 stopped it with a traceback, a roll of one die where two were asked stopped it)."""

from drivers.motor_protocol import KeyPressed, LiftMoved, WallChanged
from drivers.rfid_protocol import HeadRead, ZoneInventory
from firmware.records.audit import audit_events
from tests.asyncio_support import run
from tests.e2e.at_the_table import play, until

WRONG = [("motor", LiftMoved(9, 1), "lift 9 at position 1"),
         ("motor", KeyPressed(9, 1), "a key on panel 9"), ("rfid", HeadRead(7, 0, ()), "a read on lane 7"),
         ("rfid", ZoneInventory(9, ()), "read zone 9"),
         ("motor", WallChanged(1, 3, 7), "wall 1 stack 3 holding 7 tiles"),       # not "a tile was put back"
         ("motor", WallChanged(7, 3, 1), "wall 7 stack 3 holding 1 tiles")]


def test_events_no_table_has_are_named_and_dropped_and_the_table_plays_on(tmp_path):
    async def firmware_bug(table):
        await until(table, lambda: "请掷骰子" in table.display.text("main", "t_msg"))
        table.motor.forced_dice.append((6,))                  # the next roll: one die where two are asked
        for board, event, _ in WRONG:
            (table.motor if board == "motor" else table.rfid).emit(event)

    log = run(play("sichuan", 7, 2, firmware_bug, ledger_path=str(tmp_path / "table.db")), timeout=120)
    warnings = [e["message"] for e in log if e["event"] == "warning"]
    for board, event, words in WRONG:
        assert any(w.startswith(f"the {board} board sent {type(event).__name__} with {words}") for w in warnings), \
            (words, warnings)
    assert any(w.startswith("the motor board rolled 1 dice [6] when asked for 2") for w in warnings), warnings
    assert len([e for e in log if e["event"] == "hand_end"]) == 2 and audit_events(log) == []
