"""The front panel's saved choice (firmware/panel.py `Settings`, `FrontPanel`): a hand-edited value
never stops the table from starting and is named in one warning; a save the disk refuses never
stops the table, is said with what to do, and the choice is played all the same; the ruleset and
its options are saved together or not at all."""

import asyncio
import logging
import sqlite3

import pytest

from drivers.table_ui import Key
from firmware.panel import FrontPanel, Settings
from firmware.records.store import Store
from tests.asyncio_support import run
from tests.firmware.test_front_idle import Recorder as IdleRecorder

ONE_SIDE = "jilin"


def saved(tmp_path, **rows: str) -> Settings:
    settings = Settings(tmp_path / "table.db")
    for key, value in rows.items():
        settings.put(key.replace("__", ":"), value)        # options__jilin → options:jilin
    return settings


def warnings(caplog) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]


# -- values edited by hand (the sqlite3 shell) --------------------------------------------------------------

@pytest.mark.parametrize("value", ["kong_value=5", "null", "[]", "5", '"kong_value=5"', "{"])
def test_saved_options_that_are_not_a_json_object_are_named_and_the_defaults_played(tmp_path, caplog, value):
    """A probe: `options:jilin` = `kong_value=5` stopped every start with a traceback; `null`, `[]` or a
    number were dropped without a word."""
    settings = saved(tmp_path, ruleset=ONE_SIDE, options__jilin=value)
    with caplog.at_level(logging.WARNING):
        assert settings.ruleset_choice() == (ONE_SIDE, {})
    [line] = warnings(caplog)
    assert f"options:jilin = {value}" in line and "jilin is played with its default options" in line
    assert "choose the rules on the front panel" in line and "\n" not in line


def test_an_unknown_saved_ruleset_is_named_and_the_default_played(tmp_path, caplog):
    """A probe: `ruleset` = `Jilin` became 长春 silently (a new session, the scores back to zero)."""
    settings = saved(tmp_path, ruleset="Jilin", options__jilin='{"kong_value": "5"}')
    with caplog.at_level(logging.WARNING):
        assert settings.ruleset_choice() == ("changchun", {})
    [line] = warnings(caplog)
    assert "'Jilin'" in line and "does not know" in line and "changchun (the default) is played" in line
    assert "choose the rules on the front panel" in line


def test_a_saved_value_an_option_does_not_allow_is_named_with_its_values_and_its_default_played(tmp_path, caplog):
    """It was said to be an option "this version does not know": the option is known, its value is not."""
    settings = saved(tmp_path, ruleset=ONE_SIDE, options__jilin='{"kong_value": "7", "bao_dice": "2"}')
    with caplog.at_level(logging.WARNING):
        assert settings.ruleset_choice() == (ONE_SIDE, {"bao_dice": "2"})
    [line] = warnings(caplog)
    assert "kong_value to 7, which is not one of its values (1, 2, 5)" in line and "its default, 1, is played" in line
    assert "does not know" not in line


def test_a_saved_value_of_the_wrong_type_is_named_as_saved(tmp_path, caplog):
    settings = saved(tmp_path, ruleset=ONE_SIDE, options__jilin='{"kong_value": 5}')
    with caplog.at_level(logging.WARNING):
        assert settings.ruleset_choice() == (ONE_SIDE, {})
    [line] = warnings(caplog)
    assert "kong_value to 5, which is not one of its values (1, 2, 5)" in line     # a number: the values are texts


def test_a_choice_never_made_and_a_good_one_say_nothing(tmp_path, caplog):
    with caplog.at_level(logging.WARNING):
        assert Settings(tmp_path / "new.db").ruleset_choice() == ("changchun", {})
        settings = Settings(tmp_path / "table.db")
        settings.save_choice(ONE_SIDE, {"kong_value": "5"})
        assert settings.ruleset_choice() == (ONE_SIDE, {"kong_value": "5"})
    assert warnings(caplog) == []


# -- one transaction ---------------------------------------------------------------------------------------

def test_the_ruleset_and_its_options_are_saved_together_or_not_at_all(tmp_path):
    """A probe: a power cut between the two writes left 长春 with the options saved for it last week,
    which nobody chose.  Here the second write fails (as a cut would stop it): the first must not land."""
    settings = Settings(tmp_path / "table.db")
    settings.save_choice(ONE_SIDE, {"kong_value": "5"})
    settings.save_choice("changchun", {"kong_value": "2"})
    cut = sqlite3.connect(tmp_path / "table.db")
    for when in ("INSERT", "UPDATE"):
        cut.execute(f"CREATE TRIGGER cut_{when} BEFORE {when} ON settings WHEN NEW.key LIKE 'options:%' "
                    "BEGIN SELECT RAISE(ABORT, 'the power went'); END")
    cut.commit()
    cut.close()
    with pytest.raises(sqlite3.Error):
        settings.save_choice(ONE_SIDE, {"kong_value": "1"})
    assert Settings(tmp_path / "table.db").ruleset_choice() == ("changchun", {"kong_value": "2"})


# -- a save the disk refuses -------------------------------------------------------------------------------

class Recorder(IdleRecorder):
    def warnings(self) -> list[str]:
        return [e["message"] for e in self.events if e["event"] == "warning"]


class FullCard(Settings):
    """A card with no room left: SQLite refuses the commit."""

    def save_choice(self, region_id, options) -> None:
        raise sqlite3.OperationalError("database or disk is full")


async def save_on_the_panel(settings: Settings, recorder: Recorder, notes: list[str]) -> FrontPanel:
    """菜单 ▶ 升降 on a panel whose saves go to the table's store (as in a session): 长春 → 吉林."""
    store = Store()
    panel = FrontPanel(lambda view, open_: None, recorder, settings, on_changed=lambda choice: notes.append("next hand"),
                       on_not_saved=lambda choice: notes.append("not saved"))
    panel.write_with(store)
    try:
        for key in (Key.MENU, Key.RIGHT, Key.LIFT):
            panel.press(key, ("changchun", {}))
        # the save tried: a refusal, told on the loop from the store's thread, is heard before this returns
        await asyncio.get_running_loop().run_in_executor(None, store.drain)
    finally:
        await asyncio.get_running_loop().run_in_executor(None, store.close)
    return panel


def test_a_save_while_another_program_holds_the_file_is_said_and_the_choice_still_played(tmp_path):
    """A probe: a save while a sqlite3 shell held table.db held the loop 5 s, then 'database is locked'
    stopped the table.  Now the press returns, the store's thread is refused, and the person is told."""
    settings = Settings(tmp_path / "table.db")
    shell = sqlite3.connect(tmp_path / "table.db", isolation_level=None)
    shell.execute("BEGIN IMMEDIATE")
    recorder, notes = Recorder(), []
    try:
        panel = run(save_on_the_panel(settings, recorder, notes))
    finally:
        shell.execute("ROLLBACK")
        shell.close()
    [line] = recorder.warnings()
    assert "the rules chosen on the front panel (jilin) could not be saved (database is locked)" in line
    assert "a restart would not know them" in line and "close it, then choose the rules on the front panel again" in line
    assert notes == ["next hand", "not saved"]       # the refusal is the display's last word
    assert panel.take_choice() == (ONE_SIDE, {})     # played from the next hand all the same
    assert Settings(tmp_path / "table.db").get("ruleset") is None


def test_a_save_on_a_full_card_says_to_free_space_and_stops_nothing(tmp_path):
    recorder, notes = Recorder(), []
    panel = run(save_on_the_panel(FullCard(tmp_path / "table.db"), recorder, notes))
    [line] = recorder.warnings()
    assert "(database or disk is full)" in line and "the storage card is full: free space on it or replace it" in line
    assert notes == ["next hand", "not saved"] and panel.take_choice() == (ONE_SIDE, {})


def test_a_save_that_lands_says_nothing_more(tmp_path):
    recorder, notes = Recorder(), []
    panel = run(save_on_the_panel(Settings(tmp_path / "table.db"), recorder, notes))
    assert recorder.warnings() == [] and notes == ["next hand"] and panel.take_choice() == (ONE_SIDE, {})
    assert Settings(tmp_path / "table.db").ruleset_choice() == (ONE_SIDE, {})
    assert [e["event"] for e in recorder.events] == ["ruleset_chosen"]


def test_a_panel_without_a_session_says_a_refused_save_too(tmp_path):
    """(A panel with no table store writes on the caller's thread: refused, it is said all the same.)"""
    recorder, notes = Recorder(), []
    panel = FrontPanel(lambda view, open_: None, recorder, FullCard(tmp_path / "table.db"),
                       on_not_saved=lambda choice: notes.append("not saved"))
    for key in (Key.MENU, Key.RIGHT, Key.LIFT):
        panel.press(key, ("changchun", {}))
    [line] = recorder.warnings()
    assert "could not be saved (database or disk is full)" in line and notes == ["not saved"]
    assert panel.take_choice() == (ONE_SIDE, {})
