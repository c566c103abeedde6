"""`run` with the front panel's saved choice edited by hand (the sqlite3 shell on table.db): the
table starts, and one warning names the saved value it cannot play, what is played instead and how
to choose again.  A probe: `options:jilin` = `kong_value=5` stopped every start with a traceback
(under systemd, at every boot); `ruleset` = `Jilin` started 长春 without a word."""

import sqlite3
from pathlib import Path

import pytest

from firmware.cli import main

BOARDS = '[devices]\nmotor = "/dev/a"\nrfid = "/dev/b"\n'


pytestmark = pytest.mark.usefixtures("plain_user")     # (tests/ops/conftest.py)


def edit(db: Path, key: str, value: str) -> None:
    """What an owner does with the sqlite3 shell."""
    with sqlite3.connect(db) as con:
        con.execute("INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = "
                    "excluded.value", (key, value))
    con.close()


def test_a_hand_edited_saved_choice_is_warned_of_once_and_the_table_starts(tmp_path, capsys):
    config = tmp_path / "table.toml"
    config.write_text(f"{BOARDS}[storage]\nstate_dir = \"{tmp_path / 'state'}\"\n", encoding="utf-8")
    base = ["run", "--config", str(config), "--simulate", "--hands", "1", "--speed", "0"]
    assert main([*base, "--ruleset", "jilin"]) == 0              # chosen (the panel saves it the same way)
    capsys.readouterr()
    db = tmp_path / "state" / "simulator" / "table.db"

    edit(db, "options:jilin", "kong_value=5")                    # not JSON
    assert main(base) == 0
    out = capsys.readouterr().out
    [line] = [line for line in out.splitlines() if "options:jilin" in line]
    assert " warning: " in line and "options:jilin = kong_value=5" in line
    assert "jilin is played with its default options" in line and "choose the rules on the front panel" in line
    assert "running 吉林麻将 (jilin)" in out

    edit(db, "ruleset", "Jilin")                                 # no such ruleset
    assert main(base) == 0
    out = capsys.readouterr().out
    [line] = [line for line in out.splitlines() if "'Jilin'" in line]
    assert " warning: " in line and "changchun (the default) is played" in line
    assert "running 长春麻将 (changchun)" in out


def test_a_named_ruleset_says_nothing_of_the_saved_choice_it_replaces(tmp_path, capsys):
    """`--ruleset` (or table.ruleset) is played and saved over the panel's choice: a warning that
    the saved 'Jilin' makes 长春 the rules played would be untrue."""
    config = tmp_path / "table.toml"
    config.write_text(f"{BOARDS}[storage]\nstate_dir = \"{tmp_path / 'state'}\"\n", encoding="utf-8")
    base = ["run", "--config", str(config), "--simulate", "--hands", "1", "--speed", "0"]
    assert main([*base, "--ruleset", "jilin"]) == 0
    edit(tmp_path / "state" / "simulator" / "table.db", "ruleset", "Jilin")
    capsys.readouterr()
    assert main([*base, "--ruleset", "sichuan"]) == 0
    out = capsys.readouterr().out
    assert "Jilin" not in out and "warning" not in out and "running 四川麻将 (sichuan)" in out
    assert main(base) == 0                                       # saved over it: played without a word
    out = capsys.readouterr().out
    assert "warning" not in out and "running 四川麻将 (sichuan)" in out
