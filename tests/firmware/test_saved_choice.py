"""The front panel's saved choice (firmware/panel.py `Settings`): a hand-edited value never stops the
table from starting and is named in one warning; the ruleset and its options are saved together or
not at all."""

import logging
import sqlite3

import pytest

from firmware.panel import Settings

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
