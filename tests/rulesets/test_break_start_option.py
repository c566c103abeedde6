"""RULES.md §35.1: where a text does not say whether the dice's sum is skipped or names the stack drawing
starts at, or how many dice the break's roll uses, the controller offers both (house options
`break_start`, skip by default, and `break_dice`, two by default, as 上海 states)."""

import pytest

from rulesets.regions import all_regions, get_region
from rulesets.walls import Break

SILENT = sorted(r.id for r in all_regions() if any(o.key == "break_start" for o in r.options))


def test_every_region_whose_text_is_silent_offers_it():
    # the regions whose text states the count (上海 skips, 南京 and 长沙 start at a stack, 温州 and 钻牌 two
    # rolls, 大包 家家都有) keep their own procedure; every other one-roll region offers the choice
    assert len(SILENT) >= 24, SILENT
    assert {"shanghai", "nanjing", "changsha", "dabao"}.isdisjoint(SILENT)
    for region_id in ("hainan", "sichuan", "wuhan", "guangshui", "hebei", "changchun", "luoshan"):
        assert region_id in SILENT


@pytest.mark.parametrize("region_id", SILENT)
def test_start_at_the_sum_breaks_one_stack_before_skipping_it(region_id):
    region = get_region(region_id)
    skip = region.resolve({"break_start": "skip"})
    at = region.resolve({"break_start": "at"})
    rolls = [(2, 5), (3, 4)][:skip.dice.rolls_needed]
    skipped, started = skip.dice.break_for(0, skip.players, rolls).brk, at.dice.break_for(0, skip.players, rolls).brk
    assert started == Break(skipped.wall, skipped.skip - 1)
    assert region.resolve().dice == skip.dice           # skip is the default


@pytest.mark.parametrize("region_id", [r for r in SILENT if r not in ("changchun", "jilin", "luoshan")])
def test_one_die_breaks_where_its_pips_say(region_id):
    """One die showing 5: counted 逆时针 from the dealer (5 → the dealer's own wall, 4 seats on); skip 5 stacks."""
    ruleset = get_region(region_id).resolve({"break_dice": "1"})
    assert ruleset.dice.dice_per_roll == 1
    result = ruleset.dice.break_for(0, ruleset.players, [(5,)])
    assert result.brk.skip == 5 and result.brk.wall == sorted(ruleset.players)[(5 - 1) % len(ruleset.players)]
    with pytest.raises(ValueError, match="each roll needs 1 die, got 2"):
        ruleset.dice.break_for(0, ruleset.players, [(2, 5)])
