"""Successor cycles and wild derivations: the worked examples of the texts."""

import pytest

from rulesets.cycles import ONE_HONOUR_CYCLE, SEPARATE_HONOURS, SUITS_NO_WRAP, WUHAN_LAIZI
from rulesets.regions import get_region
from rulesets.tiles import Tile


def wilds(region_id, indicator, **options):
    ruleset = get_region(region_id).resolve(options)
    return [str(t) for t in ruleset.indicators[0].special_kinds(Tile.parse(indicator))]


def test_luoshan_fan_jiu_wan_caishen_yi_wan():
    """螺山 §31.3: 如翻一万，则财神为二万；翻九万，则财神为一万."""
    assert wilds("luoshan", "1m") == ["2m"]
    assert wilds("luoshan", "9m") == ["1m"]


def test_luoshan_winds_and_dragons_cycle_separately():
    """螺山 §31.3: 按“东南西北东”的顺序…按“中发白中”的顺序."""
    assert [wilds("luoshan", t)[0] for t in ("东", "南", "西", "北")] == ["2z", "3z", "4z", "1z"]
    assert [wilds("luoshan", t)[0] for t in ("中", "发", "白")] == ["6z", "5z", "7z"]


def test_zuanpai_examples():
    """钻牌 §26.1: 如翻的为筒2，则钻牌为筒3，如果翻的为9筒，则钻牌为1筒…如翻的为北，则东为钻牌，
    如果翻的是红中，则钻牌为发财。翻发财钻牌是白板、 翻白板钻牌为红中."""
    assert wilds("zuanpai", "2p") == ["3p"]
    assert wilds("zuanpai", "9p") == ["1p"]
    assert wilds("zuanpai", "北") == ["1z"]
    assert wilds("zuanpai", "中") == ["6z"]
    assert wilds("zuanpai", "发") == ["5z"]
    assert wilds("zuanpai", "白") == ["7z"]


def test_zuanpai_red_dragon_plays_the_natural_face():
    """钻牌 §26.2: 红中：可以代替钻牌本身的那张牌."""
    assert get_region("zuanpai").resolve().indicators[0].stand_in is Tile.RED


def test_baida_daidi_examples():
    """百搭 §27: 若杠尾的张牌翻开是三万，则四万是百搭…开九万则以一万为百搭，开北则以红中为白搭."""
    assert wilds("baida", "3m", baida_mode="daidi") == ["4m"]
    assert wilds("baida", "9m", baida_mode="daidi") == ["1m"]
    assert wilds("baida", "北", baida_mode="daidi") == ["7z"]


def test_baida_daidi_honours_form_one_cycle():
    """百搭 §27: 番子牌以东南西北中发白首尾相连 — so 白 wraps to 东."""
    order = [Tile.EAST, Tile.SOUTH, Tile.WEST, Tile.NORTH, Tile.RED, Tile.GREEN, Tile.WHITE]
    for here, after in zip(order, order[1:] + order[:1]):
        assert ONE_HONOUR_CYCLE.successor(here) is after


def test_baida_huodong_is_the_flipped_kind_with_white_stand_in():
    """百搭 §27: 活动百搭…该牌就是百搭。其中一张白板可以用作代替该张翻开的牌."""
    assert wilds("baida", "5s") == ["5s"]
    assert get_region("baida").resolve().indicators[0].stand_in is Tile.WHITE


def test_flowers_have_no_successor():
    for cycle in (SEPARATE_HONOURS, ONE_HONOUR_CYCLE, SUITS_NO_WRAP, WUHAN_LAIZI):
        assert cycle.successor(Tile.SPRING) is None


def test_guizhou_ji_is_the_next_number_and_yaoji_always():
    """贵州 §13.2: 如翻开的是2万，即3万是鸡牌; 英雄鸡 一条每次都是鸡."""
    assert wilds("guizhou", "2m") == ["3m", "1s"]
    assert wilds("guizhou", "9m") == ["1m", "1s"]
    assert wilds("guizhou", "9m", ji_wrap="none") == ["1s"]


def test_nanchang_zheng_and_fu_jing():
    """RESEARCH §3.7: 正精 = the flipped kind, 副精 = the next (9→1, 北→东, 白→中)."""
    assert wilds("nanchang", "9s") == ["9s", "1s"]
    assert wilds("nanchang", "北") == ["4z", "1z"]
    assert wilds("nanchang", "白") == ["5z", "7z"]


@pytest.mark.parametrize("pi, laizi", [("3m", "4m"), ("9p", "1p"), ("北", "5z"), ("中", "5z"), ("发", "5z"), ("东", "2z")])
def test_wuhan_laizi_is_pi_plus_one_skipping_the_gang_tiles(pi, laizi):
    """RESEARCH §3.8: 赖子 = 皮 + 1; if the 皮 is 北/中/发, the 赖子 is 白板."""
    assert wilds("wuhan", pi) == [laizi]


@pytest.mark.parametrize("reading, flipped, expected", [
    ("kind_and_next", "5m", ["5m", "6m"]),
    ("red_and_kind", "5m", ["5m", "7z"]),
])
def test_hebei_hun_readings(reading, flipped, expected):
    """河北 §17: 有混儿（中下滚，7张）."""
    assert wilds("hebei", flipped, hun_reading=reading) == expected
