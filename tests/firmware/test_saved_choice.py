"""The front panel's saved choice (firmware/panel.py `Settings`): the ruleset and its options are
saved together or not at all."""

import sqlite3

import pytest

from firmware.panel import Settings

ONE_SIDE = "jilin"


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
