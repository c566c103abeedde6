"""Each region's judgements and settlements stay those of the reading its number names
(rulesets/revisions.py): the audit of a later version trusts the number a hand carries to tell a hand
an earlier reading paid otherwise from a changed file.  A change that moves how a region judges or
pays fails here until its number is raised and the digests written again (tests/rulesets/rules_digests.py
says how).  A house option value new since the digests were written only needs them written: no earlier
hand was played under it."""

from __future__ import annotations

import pytest

from rulesets.regions import REGION_IDS, get_region
from rulesets.revisions import revision
from tests.rulesets.rules_digests import kept, region_digests

KEPT = kept()
WRITE = "python -m tests.rulesets.rules_digests --write"


@pytest.mark.parametrize("region_id", REGION_IDS)
def test_a_region_judges_and_pays_as_the_reading_its_number_names(region_id):
    name = get_region(region_id).name
    assert region_id in KEPT, f"{name} has no digests kept: run `{WRITE} --regions {region_id}`"
    was, now = KEPT[region_id], region_digests(region_id)
    if was["reading"] != now["reading"]:
        pytest.fail(f"{name} is at reading {now['reading']}, its digests were written at reading {was['reading']}: "
                    f"run `{WRITE} --regions {region_id}`")
    added = sorted(set(now["variants"]) - set(was["variants"]))
    assert not added, (f"{name} has house option values its digests were never written for ({', '.join(added)}): no "
                       f"earlier hand was played under them, so no number is raised; run `{WRITE} --regions {region_id}`")
    moved = sorted(v for v in set(was["variants"]) | set(now["variants"]) if was["variants"].get(v) != now["variants"].get(v))
    assert not moved, (f"{name} now judges or pays otherwise than reading {was['reading']} did ({', '.join(moved)}). "
                       f"If that is meant, raise its number in rulesets/revisions.py with a line saying what was read "
                       f"anew (an audit then says the hands of the earlier reading were paid by it), and run "
                       f"`{WRITE} --regions {region_id}`; if not, the change broke the rules")


def test_the_digests_notice_a_changed_settlement(monkeypatch):
    """The digest is not blind: every payment doubled changes it."""
    import rulesets.scoring.changchun as scoring
    before = region_digests("changchun")["variants"]["defaults"]
    settle = scoring.ChangchunScorer.settle

    def doubled(self, *args, **kwargs):
        settled = settle(self, *args, **kwargs)
        return settled if settled is None else settled.__class__(
            settled.items, settled.total, tuple(p * 2 for p in settled.payments), settled.unit, settled.notes,
            settled.balanced)
    monkeypatch.setattr(scoring.ChangchunScorer, "settle", doubled)
    assert region_digests("changchun")["variants"]["defaults"] != before
    assert revision("changchun") == KEPT["changchun"]["reading"]
