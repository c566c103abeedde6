"""长春 / 吉林 宝 fidelity (RULES.md §1.3): only the drawn 宝 stands in, and 断幺九 may not use the 宝.

「听牌后若再次摸到宝牌，宝牌可代替任何牌，即：听牌后摸到宝牌即可胡」 [002:196]: the 宝 that stands in is the one
drawn; 宝 tiles held in the hand are themselves, and 夹胡 (「单张、单贴胡边张、砍张和单调都算夹胡」) is judged on
the tile the drawn 宝 stands for.  「断幺九也可以听牌，但是必须胡幺九，且不能看宝。比如所听之牌为6、9万，只能胡9万，
不能胡6万。」 [002:210-211].
"""

import json
import re
from pathlib import Path

import pytest

from firmware.cli import main
from rulesets.bao import duanyaojiu, no_bao_for_duanyaojiu, win_on_the_drawn_bao
from rulesets.hand import Hand, WinContext
from rulesets.judging import evaluate_hand
from rulesets.regions import get_region
from rulesets.tiles import Tile

REGIONS = ("changchun", "jilin")
RULES = (Path(__file__).resolve().parents[2] / "docs" / "sources" / "RULES.md").read_text(encoding="utf-8")


def judge(region, tiles, win, *, melds=(), wild=None, bao_hit=False, ready=True, exhaustive=False):
    """A self-drawn win of seat 0; seat 1 deals."""
    ruleset = get_region(region).resolve()
    wilds = (Tile.parse(wild),) if wild else ()
    context = WinContext(winner=0, dealer=1, discarder=None, win_tile=Tile.parse(win), wilds=wilds,
                         ready_declared=ready, bao_hit=bao_hit)
    return evaluate_hand(ruleset, Hand.parse(tiles, list(melds)), context, exhaustive=exhaustive)


def keys(result):
    return [item.key for item in result.settlement.items]


def cli(capsys, *argv):
    code = main(["hand", *argv, "--json"])
    return code, json.loads(capsys.readouterr().out)


# -- only the drawn 宝 stands in: held copies are themselves ----------------------------------------

@pytest.mark.parametrize("region", REGIONS)
@pytest.mark.parametrize("exhaustive", (False, True))
def test_held_bao_copies_are_natural_and_jiahu_follows_the_real_wait(region, exhaustive):
    """The audit's hand: 111m 222p 789s 99p 55s waits 9p/5s (双碰); the drawn 5s (the 宝) stands for
    either — no 夹胡.  The old judge read a held 5s as the joker (9p) and the drawn 5s as the single
    wait of the 55s pair: 夹胡, ×16."""
    result = judge(region, "111m222p789s99p555s", "5s", wild="5s", bao_hit=True, exhaustive=exhaustive)
    assert result.verdict.legal
    assert keys(result) == ["menqing", "zimo", "bao"]
    assert result.settlement.total == 8
    assert result.settlement.payments == (32, -16, -8, -8)


@pytest.mark.parametrize("region", REGIONS)
def test_a_held_bao_in_a_closed_chow_gives_no_jiahu(region):
    """234m 111p 345p 55s 78s waits 6s/9s (两面).  The drawn 3m (宝) stands for 6s or 9s; the held 3m is
    the middle of 234m, but the winning tile is not read there (no 坎张 夹胡)."""
    result = judge(region, "234m111p345p55s78s3m", "3m", wild="3m", bao_hit=True)
    assert result.verdict.legal
    assert keys(result) == ["menqing", "zimo", "bao"]
    assert result.settlement.total == 8


@pytest.mark.parametrize("region", REGIONS)
def test_a_real_single_wait_keeps_its_jiahu_with_a_held_bao(region):
    """123m 456p 555s 79s 99p waits 8s alone (坎张): the drawn 5s stands for 8s — 夹胡 stays."""
    result = judge(region, "123m456p555s79s99p5s", "5s", wild="5s", bao_hit=True)
    assert result.verdict.legal
    assert keys(result) == ["menqing", "jiahu", "zimo", "bao"]


@pytest.mark.parametrize("region", REGIONS)
def test_cli_audit_command_held_bao(region, capsys):
    code, data = cli(capsys, region, "111m222p789s99p555s", "--self-drawn", "--ready", "--bao", "--wild", "5s")
    assert code == 0 and data["legal"]
    assert [i["key"] for i in data["items"]] == ["menqing", "zimo", "bao"]
    assert data["total"] == 8 and data["payments"] == [32, -16, -8, -8]


# -- 断幺九 may listen, must win on a 幺九, may not use the 宝 ----------------------------------------

@pytest.mark.parametrize("region", REGIONS)
def test_duanyaojiu_mobao_is_refused(region):
    """234m 345p 666p 55s 78s holds no 1, 9 or honour: the drawn 宝 (3m) may not stand for 9s."""
    result = judge(region, "234m345p666p55s78s3m", "3m", wild="3m", bao_hit=True)
    assert not result.verdict.legal and result.settlement is None
    assert any("bao_duanyaojiu" in failure for failure in result.verdict.failures)


@pytest.mark.parametrize("region", REGIONS)
def test_duanyaojiu_duibao_is_a_plain_zimo(region):
    """The same hand wins on a drawn 9s that is the 宝 kind: a natural 自摸 on a 幺九 (legal), never a
    对宝 — the 宝 ×2 is not paid (the controller calls every self-drawn win on the 宝 kind a 宝 hit)."""
    result = judge(region, "234m345p666p55s78s9s", "9s", wild="9s", bao_hit=True)
    assert result.verdict.legal
    assert keys(result) == ["menqing", "zimo"]
    assert result.settlement.total == 4
    assert any("不能看宝" in note for note in result.settlement.notes)


@pytest.mark.parametrize("region", REGIONS)
def test_cli_audit_commands_duanyaojiu(region, capsys):
    code, data = cli(capsys, region, "234m345p666p55s78s3m", "--self-drawn", "--ready", "--bao", "--wild", "3m")
    assert not data["legal"] and any("bao_duanyaojiu" in f for f in data["failures"])
    code, data = cli(capsys, region, "234m345p666p55s78s9s", "--self-drawn", "--ready", "--bao")
    assert data["legal"] and "bao" not in [i["key"] for i in data["items"]] and data["total"] == 4


@pytest.mark.parametrize("region", REGIONS)
def test_duanyaojiu_must_win_on_a_yaojiu(region):
    """「比如所听之牌为6、9万，只能胡9万，不能胡6万」: the 6s completes the shape but leaves no 幺九."""
    assert judge(region, "234m345p666p55s78s9s", "9s").verdict.legal
    six = judge(region, "234m345p666p55s78s6s", "6s")
    assert six.verdict.complete and not six.verdict.legal


@pytest.mark.parametrize("region", REGIONS)
def test_a_yaojiu_meld_is_not_duanyaojiu(region):
    """The ready hand counts its melds: a 碰 of 1p makes it no 断幺九, and the 宝 stands in."""
    result = judge(region, "234m345p55s78s3m", "3m", melds=["111p"], wild="3m", bao_hit=True)
    assert result.verdict.legal
    assert keys(result) == ["zimo", "bao"]


def test_a_special_kong_is_not_duanyaojiu():
    """「旋风杠算杠也算手中有19」: a special kong gives the ready hand its 幺九."""
    hand = Hand.parse("234m345p55s78s3m", ["special:1234z"])
    assert not duanyaojiu(hand, Tile.M3)
    assert duanyaojiu(Hand.parse("234m345p666p55s78s3m"), Tile.M3)
    assert not duanyaojiu(Hand.parse("234m345p666p55s78s9s"), Tile.S8)   # the 9s is in the ready hand


def test_the_new_requirements_quote_rules_md():
    for requirement in (win_on_the_drawn_bao(Tile.EAST), no_bao_for_duanyaojiu(Tile.EAST)):
        for passage in re.split(r"…|; ", requirement.source.quote):
            assert passage in RULES, passage
