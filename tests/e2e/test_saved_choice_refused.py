"""At the whole table: rules saved on the front panel while another program holds table.db (a
person's sqlite3 shell with a write open).  A probe: the loop was held 5 s, then 'database is
locked' stopped the table.  The table plays on, the display says the rules were not saved, the
recorder (and so the log) says what to do, and the choice is played from the next hand."""

import sqlite3

from drivers.motor_protocol import Key
from drivers.table_ui import RULES_NEXT_HAND, RULES_NOT_SAVED
from firmware.panel import Settings
from firmware.records.audit import audit_events
from tests.asyncio_support import run
from tests.e2e.test_faults_at_the_table import two_changchun_hands


async def saved_while_the_file_is_held(settings: str, said: list[str]) -> list[dict]:
    """Two 长春 hands; at the first 请出牌 a shell takes a write on `settings`, then the owner presses
    菜单 ▶ 升降 (吉林); the shell lets go once the display has said the save failed."""
    async def owner(table):
        while "请出牌" not in table.display.text("main", "t_msg"):
            await table.changed(table.changes.version)
        table.display.watchers.append(lambda page, component, text: component == "t_msg" and said.append(text))
        shell = sqlite3.connect(settings, isolation_level=None)
        shell.execute("BEGIN IMMEDIATE")
        try:
            for key in (Key.MENU, Key.RIGHT, Key.LIFT):
                table.press("front", key)
            while not any(RULES_NOT_SAVED in text for text in said):
                await table.changed(table.changes.version)
        finally:
            shell.execute("ROLLBACK")
            shell.close()

    return await two_changchun_hands(owner, settings, owner_ends=True)     # (it saw the note and let go)


def test_a_choice_the_file_refuses_is_said_and_played_and_the_table_goes_on(tmp_path):
    said: list[str] = []
    path = str(tmp_path / "s.db")
    log = run(saved_while_the_file_is_held(path, said), timeout=120)
    assert [e["ruleset"] for e in log if e["event"] == "hand_start"] == ["changchun", "jilin"]
    assert [e["hand"] for e in log if e["event"] == "hand_end"] == [1, 2]
    # the refusal's note keeps saying when the new rules start (it took the place of that note)
    assert any(RULES_NEXT_HAND in text and RULES_NOT_SAVED in text for text in said), said
    [line] = [e["message"] for e in log if e["event"] == "warning" and "could not be saved" in e["message"]]
    assert "(database is locked)" in line and f"another program holds {path}" in line
    assert Settings(path).get("ruleset") is None             # a restart would not know it: it was said
    assert audit_events(log) == []
