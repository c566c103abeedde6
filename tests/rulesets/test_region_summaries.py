"""The region summaries shipped for `rules list` (rulesets/regions/summaries.py) equal a fresh
resolution of the region definitions."""

from __future__ import annotations

from rulesets.regions import REGION_IDS
from rulesets.regions.summaries import resolved, shipped, source


def test_the_shipped_summaries_equal_the_region_definitions() -> None:
    fresh = resolved()
    assert shipped() == fresh, "a region's listed facts changed: run `python -m rulesets.regions.build_summaries`"
    assert [row["id"] for row in fresh] == list(REGION_IDS)


def test_the_shipped_file_is_what_the_writer_writes() -> None:
    from rulesets.regions.build_summaries import SUMMARIES_PATH
    assert SUMMARIES_PATH.read_text(encoding="utf-8") == source(resolved())
