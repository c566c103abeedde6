"""`mahjong-table hand …` as a user runs it."""

import json

import pytest

from firmware.cli import main


def run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_full_hand_complete_legal_and_scored(capsys):
    code, out, _ = run(capsys, "hand", "changchun", "111m234p789s46s99p5s", "--self-drawn", "--json")
    data = json.loads(out)
    assert code == 0 and data["complete"] and data["legal"]
    assert data["win_tile"] == "5s"
    assert {i["key"] for i in data["items"]} == {"menqing", "jiahu", "zimo"}
    assert sum(data["payments"]) == 0 and data["payments"][0] == 32


def test_no_scoring_without_context_flags(capsys):
    code, out, _ = run(capsys, "hand", "changchun", "111m234p789s46s99p5s", "--json")
    data = json.loads(out)
    assert data["legal"] and "payments" not in data


def test_illegal_hand_names_the_failed_requirement(capsys):
    code, out, _ = run(capsys, "hand", "changchun", "111m234m789s46s99s5s", "--json")
    data = json.loads(out)
    assert data["complete"] and not data["legal"]
    assert any("三色全" in f for f in data["failures"])


def test_waits_for_a_hand_one_short(capsys):
    code, out, _ = run(capsys, "hand", "changchun", "111m234p789s46s99p", "--json")
    assert json.loads(out)["waits"] == ["5s"]


def test_wild_assignment(capsys):
    code, out, _ = run(capsys, "hand", "luoshan", "123m456p789s555s7z2m", "--wild", "2m", "--json")
    data = json.loads(out)
    assert ["2m", "7z"] in data["assignment"]


def test_text_output(capsys):
    code, out, _ = run(capsys, "hand", "changchun", "234p789s46s99p5s", "--meld", "111m", "--win-tile", "5s")
    assert code == 0 and "legal: yes" in out and "夹胡 (jiahu) ×2" in out and "payments:" in out


@pytest.mark.parametrize("argv, names", [
    (("hand", "changchun", "12x"), "not a tile"),
    (("hand", "changchun", "11111m234p789s11z"), "5 × 1m"),
    (("hand", "changchun", "234p789s46s99p5s", "--meld", "124m"), "not a meld"),
    (("hand", "changchun", "234p789s46s99p5s", "--meld", "pung:123m"), "not a pung"),
    (("hand", "changchun", "111m2p"), "needs 14 to win or 13 to wait"),
    (("hand", "changsha", "111z234p789s46s99p5s"), "not in the changsha tile set"),
    (("hand", "nowhere", "1m"), "unknown ruleset"),
])
def test_user_mistakes_are_one_line_exit_2(capsys, argv, names):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == "" and err.count("\n") == 1 and names in err
