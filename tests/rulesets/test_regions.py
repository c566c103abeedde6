"""Every region: resolves, carries provenance for every value, and keeps its options valid."""

import json

import pytest

from rulesets.card import card_json, card_text
from rulesets.definition import RULE_FIELDS, OptionError
from rulesets.regions import REGION_IDS, all_regions, get_region, UnknownRegion

IDS = ("changchun jilin dongbei shenyang neimenggu hebei seventeen_tile shanghai nanjing luoshan hangzhou wenzhou "
       "zuanpai baida nanchang guangdong guangdong_jihu sixteen_tile bazhi changsha guizhou sichuan yichang wuhan "
       "guangshui xiangyang hainan lisi dabao yunnan guannan").split()


def test_the_31_regions_of_rules_md_35():
    assert list(REGION_IDS) == IDS
    assert [r.id for r in all_regions()] == IDS


@pytest.mark.parametrize("region_id", IDS)
def test_every_value_has_provenance(region_id):
    ruleset = get_region(region_id).resolve()
    sources = dict(ruleset.sources)
    for name in RULE_FIELDS:
        source = sources[name]
        assert source.kind in ("text", "analyst", "research", "default", "open"), (name, source)
        assert source.quote or source.kind in ("text", "research"), f"{region_id}.{name} needs a quote or reason"
        if source.kind == "default":
            assert len(source.quote) > 15, f"{region_id}.{name}: a default needs its reason"
    for option in get_region(region_id).options:
        assert str(option.source), option.key


@pytest.mark.parametrize("region_id", IDS)
def test_every_option_value_resolves(region_id):
    region = get_region(region_id)
    for option in region.options:
        for value in option.values:
            ruleset = region.resolve({option.key: value})
            assert dict(ruleset.options)[option.key] == value


@pytest.mark.parametrize("region_id", IDS)
def test_geometry_is_consistent(region_id):
    ruleset = get_region(region_id).resolve()
    assert ruleset.layout.tile_count == ruleset.tiles.size
    assert set(ruleset.layout.walled_sides) == set(ruleset.players)
    dealt = ruleset.hand_size * len(ruleset.players) + 1
    assert dealt < ruleset.tiles.size
    assert ruleset.dealing.hand_size == ruleset.hand_size


@pytest.mark.parametrize("region_id", IDS)
def test_card_json_has_the_promised_fields(region_id):
    data = card_json(get_region(region_id).resolve())
    for key in ("id", "name", "tiles", "players", "hand_size", "stacks_per_side", "dice", "indicator", "reserve", "options"):
        assert key in data, key
    assert len(data["tiles"]) == data["tile_count"]
    assert len(data["stacks_per_side"]) == 4
    json.dumps(data, ensure_ascii=False)
    assert region_id in card_text(get_region(region_id).resolve())


def test_three_player_regions_have_an_empty_side():
    for region_id in ("guangshui", "xiangyang"):
        ruleset = get_region(region_id).resolve({"empty_side": "1"})
        assert ruleset.players == (0, 2, 3)
        assert ruleset.stacks_per_side == (14, 0, 14, 14)


def test_bad_options_name_the_choices():
    with pytest.raises(OptionError, match="R-A, R-B, R-C"):
        get_region("changchun").resolve({"reserve_reading": "R-Z"})
    with pytest.raises(OptionError, match="its options are"):
        get_region("changchun").resolve({"nonsense": "1"})


def test_unknown_region_lists_the_ids():
    with pytest.raises(UnknownRegion, match="changchun"):
        get_region("atlantis")


def test_changchun_and_lisi_share_the_kong_reserve_default_r_b():
    for region_id in ("changchun", "lisi", "jilin"):
        reserve = get_region(region_id).resolve().reserve
        assert reserve.name == "kong_reserve" and reserve.reading == "R-B"


def test_docs_regions_md_is_made_from_the_cards():
    """docs/regions.md must stay true to the code: regenerate it with
    `python -m rulesets.regions.document > docs/regions.md`."""
    from pathlib import Path

    from rulesets.regions.document import regions_markdown

    doc = Path(__file__).resolve().parents[2] / "docs" / "regions.md"
    assert doc.read_text(encoding="utf-8") == regions_markdown()
