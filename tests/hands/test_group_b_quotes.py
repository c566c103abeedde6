"""Group B regions: every quote behind a win requirement or a scorer is RULES.md's, character for character.

A quote may join several passages with 「…」 or 「; 」, and may end with an explanation after 「 — 」.
"""

from pathlib import Path

import pytest

from rulesets.regions import get_region

GROUP_B = ("guangdong guangdong_jihu sichuan yichang guizhou yunnan changsha shanghai sixteen_tile guannan "
           "seventeen_tile nanjing dongbei baida").split()
RULES = Path("/work/shared/RULES.md")


def passages(quote: str) -> list[str]:
    quote = quote.split(" — ")[0]
    return [p.strip() for p in quote.replace("…", "\n").replace("; ", "\n").splitlines() if p.strip()]


def quoted_sources(region_id):
    region = get_region(region_id)
    settings = [{}] + [{option.key: value} for option in region.options for value in option.values]
    for chosen in settings:
        ruleset = region.resolve(chosen)
        for name in ("win", "scoring"):
            yield name, ruleset.source(name)
        for requirement in ruleset.win.requirements:
            yield requirement.key, requirement.source


@pytest.mark.skipif(not RULES.exists(), reason="RULES.md is not available here")
@pytest.mark.parametrize("region_id", GROUP_B)
def test_text_quotes_are_exact(region_id):
    rules = RULES.read_text(encoding="utf-8")
    for name, source in quoted_sources(region_id):
        if source.kind != "text":
            continue
        for passage in passages(source.quote):
            assert passage in rules, f"{region_id}.{name}: 「{passage}」 is not in RULES.md"


@pytest.mark.parametrize("region_id", GROUP_B)
def test_every_win_rule_and_scorer_names_its_source(region_id):
    for name, source in quoted_sources(region_id):
        assert source.kind in ("text", "research", "analyst", "default", "open"), name
        assert source.quote, f"{region_id}.{name} has no quote or reason"
