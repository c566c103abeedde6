"""A cheap start: `mahjong-table --help` imports no command module, a command imports only its
own, and every `COMMAND --help` still works (issue 12, start-up)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from firmware import cli

COMMANDS = [name[4:] for name in cli._command_module_names()]


def _modules_after(argv: list[str]) -> set[str]:
    """The firmware.cli and rulesets modules loaded by running `main(argv)` in a fresh
    interpreter, and "tables built" if the win tables were built."""
    code = ("import sys, json\nfrom firmware.cli import main\n"
            f"try:\n    main({argv!r})\nexcept SystemExit:\n    pass\n"
            "found = [m for m in sys.modules if m.startswith(('firmware', 'rulesets'))]\n"
            "tables = sys.modules.get('rulesets.winning.tables')\n"
            "if tables is not None and tables.suit_table.ready:\n    found.append('tables built')\n"
            "print(json.dumps(found), file=sys.stderr)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    return set(json.loads(done.stderr.strip().splitlines()[-1]))


def test_help_lists_every_command_without_importing_them() -> None:
    loaded = _modules_after(["--help"])
    assert not any(m.startswith("firmware.cli.cmd_") for m in loaded), loaded
    assert not any(m.startswith("rulesets") for m in loaded), loaded


def test_a_command_imports_only_its_own_module() -> None:
    loaded = _modules_after(["rules", "list"])
    assert {m for m in loaded if m.startswith("firmware.cli.cmd_")} == {"firmware.cli.cmd_rules"}
    assert "tables built" not in loaded  # built on first use, and listing uses none
    assert "rulesets.definition" not in loaded  # the list is shipped ready (rulesets/regions/summaries.py)


def test_help_names_every_command_with_its_summary(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        cli.main(["--help"])
    assert exit_.value.code == 0
    out = capsys.readouterr().out
    for name in COMMANDS:
        assert f"\n    {name} " in out, name
    assert "the regional rulesets: list, show, wild, break" in out


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_help_still_works(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        cli.main([command, "--help"])
    assert exit_.value.code == 0
    assert f"usage: mahjong-table {command}" in capsys.readouterr().out


def test_an_unknown_command_is_one_line_naming_the_choices(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        cli.main(["bogus"])
    assert exit_.value.code == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "invalid choice: 'bogus'" in err and "'rules'" in err
