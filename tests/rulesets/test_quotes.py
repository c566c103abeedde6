"""Every quote on every region card is RULES.md's, character for character — under every option.

The cards quote RULES.md (kept in docs/sources/, the digest of the seed texts).  A quote may join
several passages with 「…」 or 「; 」, and may end with our explanation after 「 — 」 or in a
trailing "(read as: …)".  Quotes of RESEARCH.md are checked loosely (its section must exist).
"""

import re
from pathlib import Path

import pytest

from rulesets.bao import private_bao, stand_ins_once
from rulesets.definition import RULE_FIELDS
from rulesets.table_rules import judged_rules
from rulesets.tiles import Tile
from rulesets.regions import REGION_IDS, get_region

SOURCES = Path(__file__).resolve().parents[2] / "docs" / "sources"
RULES = (SOURCES / "RULES.md").read_text(encoding="utf-8")
RESEARCH = (SOURCES / "RESEARCH.md").read_text(encoding="utf-8")


def passages(quote: str) -> list[str]:
    quote = quote.split(" — ")[0]
    quote = re.sub(r"\s*\((read as|[a-z][^()]*)[^()]*\)\s*$", "", quote)
    return [p.strip() for p in quote.replace("…", "\n").replace("; ", "\n").splitlines() if p.strip()]


def option_sets(region):
    yield {}
    for option in region.options:
        for value in option.values:
            yield {option.key: value}


def sources(region_id):
    region = get_region(region_id)
    for chosen in option_sets(region):
        ruleset = region.resolve(chosen)
        for name in RULE_FIELDS:
            yield name, ruleset.source(name)
        for requirement in ruleset.win.requirements:
            yield requirement.key, requirement.source
        for rule, source in judged_rules(ruleset):
            yield rule, source
        if private_bao(ruleset) is not None:
            yield "bao_stands_in_once", stand_ins_once(Tile.EAST).source


@pytest.mark.parametrize("region_id", REGION_IDS)
def test_text_quotes_are_exact(region_id):
    for name, source in sources(region_id):
        if source.kind != "text":
            continue
        for passage in passages(source.quote):
            assert passage in RULES, f"{region_id}.{name}: 「{passage}」 is not in RULES.md"


@pytest.mark.parametrize("region_id", REGION_IDS)
def test_every_section_cited_exists(region_id):
    for name, source in sources(region_id):
        if source.kind in ("research",):
            section = source.ref.split()[-1]
            assert re.search(rf"^#+ {re.escape(section.lstrip('§'))}\b", RESEARCH, re.M), f"{region_id}.{name}: {source.ref}"


@pytest.mark.parametrize("region_id", REGION_IDS)
def test_every_value_names_its_source(region_id):
    for name, source in sources(region_id):
        assert source.kind in ("text", "research", "analyst", "default", "open"), name
        assert source.quote or source.kind == "research", f"{region_id}.{name} has no quote or reason"


@pytest.mark.parametrize("region_id", REGION_IDS)
def test_the_payments_named_without_a_value_quote_the_text_exactly(region_id):
    """The card's "named without a value" lines (issue 16) quote RULES.md as every other quote does."""
    for item in get_region(region_id).unpriced:
        for quote in re.findall(r"「(.+?)」", item):
            for passage in passages(quote):
                assert passage in RULES, f"{region_id}.unpriced: 「{passage}」 is not in RULES.md"
