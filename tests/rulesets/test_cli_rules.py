"""`mahjong-table rules …` as a user runs it."""

import json
import subprocess
import sys

import pytest

from firmware.cli import main


def run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_list_json_has_the_31_ids(capsys):
    code, out, _ = run(capsys, "rules", "list", "--json")
    rows = json.loads(out)
    assert code == 0 and len(rows) == 31
    assert {"id", "name", "tiles", "players", "hand_size"} <= set(rows[0])
    assert rows[0]["id"] == "changchun" and rows[0]["name"] == "长春麻将"


def test_show_json_tiles_are_one_string_per_tile(capsys):
    code, out, _ = run(capsys, "rules", "show", "guannan", "--json")
    data = json.loads(out)
    assert code == 0 and len(data["tiles"]) == 112 and data["tiles"].count("1z") == 1
    assert data["stacks_per_side"] == [14, 14, 14, 14]
    assert data["provenance"]["tiles"].startswith("RULES.md §30")


def test_show_text_has_provenance_and_options(capsys):
    code, out, _ = run(capsys, "rules", "show", "changchun", "--option", "reserve_reading=R-C")
    assert code == 0
    assert "← RULES.md §1.4" in out and "reserve_reading" in out and "(now R-C)" in out


@pytest.mark.parametrize("argv, expected", [
    (("rules", "wild", "zuanpai", "9p"), "1p 一筒"),
    (("rules", "wild", "zuanpai", "北"), "1z 东风"),
    (("rules", "wild", "zuanpai", "白"), "7z 红中"),
    (("rules", "wild", "baida", "9m", "--option", "baida_mode=daidi"), "1m 一万"),
    (("rules", "wild", "baida", "4z", "--option", "baida_mode=daidi"), "7z 红中"),
    (("rules", "wild", "luoshan", "9m"), "1m 一万"),
])
def test_wild_examples(capsys, argv, expected):
    code, out, _ = run(capsys, *argv)
    assert code == 0 and f"→ wild {expected}" in out


def test_break_json(capsys):
    code, out, _ = run(capsys, "rules", "break", "nanjing", "--dealer", "0", "--dice", "3,3;5,6", "--json")
    data = json.loads(out)
    assert code == 0
    assert data["break"] == {"wall": 1, "skip": 11}
    assert data["ring0"] == {"wall": 1, "stack": 11} and data["tail"] == {"wall": 1, "stack": 10}


def test_break_reports_the_reserve(capsys):
    code, out, _ = run(capsys, "rules", "break", "changchun", "--dealer", "0", "--dice", "1,1;2,3", "--json")
    data = json.loads(out)
    assert data["reserve"]["tiles"] == 14 and data["reserve"]["full_stacks"] == 7


@pytest.mark.parametrize("argv, names", [
    (("rules", "show", "atlantis"), "atlantis"),
    (("rules", "wild", "zuanpai", "0x"), "0x"),
    (("rules", "wild", "sichuan", "5m"), "no wild indicator"),
    (("rules", "break", "shanghai", "--dealer", "0", "--dice", "2;x"), "malformed dice"),
    (("rules", "break", "shanghai", "--dealer", "0", "--dice", "2,7"), "1-6"),
    (("rules", "break", "changchun", "--dealer", "0", "--dice", "2,3"), "needs 2 roll"),
    (("rules", "break", "guangshui", "--dealer", "3", "--dice", "2,3"), "not a playing side"),
    (("rules", "show", "changchun", "--option", "reserve_reading=R-Z"), "R-A, R-B, R-C"),
    (("rules", "show", "changchun", "--option", "garbage"), "KEY=VALUE"),
])
def test_user_mistakes_are_one_line_exit_2(capsys, argv, names):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and names in err and "Traceback" not in err


def test_console_script_error_has_no_traceback():
    proc = subprocess.run([sys.executable, "-m", "firmware", "rules", "show", "nope"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr


def test_argparse_errors_are_one_line_too():
    proc = subprocess.run([sys.executable, "-m", "firmware", "rules", "break", "changchun"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1
