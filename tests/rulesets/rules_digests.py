"""A digest of how each region judges and pays: seeded winning hands (tests/rulesets/reading_cases.py)
and drawn hands, under its defaults and under every value of every house option, one at a time.

The flight recorder writes the number of the reading of the rules each hand was played by
(rulesets/revisions.py); the audit of a later version trusts that number to tell a hand an earlier
reading paid otherwise from a changed file.  So a change that moves any judgement or settlement of
a region must raise that region's number: `test_rules_revisions.py` compares the digests worked out
now with the ones kept in `rules_digests.json` (each with the number it was written under).

After a change that is meant (a rule read anew, a scoring item renamed), raise the region's number in
rulesets/revisions.py with a line saying what changed, then write the digests again:

    python -m tests.rulesets.rules_digests --write
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
from pathlib import Path
from typing import Any

from rulesets.definition import Region
from rulesets.judging import evaluate_hand
from rulesets.regions import REGION_IDS, get_region
from rulesets.revisions import revision
from rulesets.scoring import DrawContext

from tests.rulesets.reading_cases import make_case, wild_kind_count

KEPT = Path(__file__).with_name("rules_digests.json")
WINS = 16           # seeded hands the rules pay, a variant (with those judged illegal on the way)
TRIES = 600         # seeded hands judged at most, a variant
DRAWS = 6           # drawn hands a variant


def variants(region: Region) -> list[dict[str, str]]:
    """The defaults, then every other value of every house option, one at a time."""
    return [{}] + [{option.key: value} for option in region.options for value in option.values
                   if value != option.default]


def variant_name(options: dict[str, str]) -> str:
    return ",".join(f"{key}={value}" for key, value in sorted(options.items())) or "defaults"


def digest(region_id: str, options: dict[str, str]) -> str:
    """SHA-256 of what the rules make of the variant's seeded hands, in order."""
    ruleset = get_region(region_id).resolve(options)
    rng = random.Random(f"rules-digest-{region_id}-{variant_name(options)}")
    judged: list[Any] = []
    kinds = wild_kind_count(ruleset)
    paid = tries = 0
    while paid < WINS and tries < TRIES:        # (长春 or 沈阳 find a legal hand in a dozen or more)
        two = kinds == 2
        case = make_case(rng, ruleset, rng.choice((0, 1, 2, 3) if not two else (2, 4)), two)
        if case is None:
            continue
        tries += 1
        result = evaluate_hand(ruleset, case.hand, case.context)
        verdict, settled = result.verdict, result.settlement
        paid += settled is not None
        judged.append([str(case), verdict.complete, verdict.legal, len(verdict.failures),
                       None if settled is None else [list(settled.payments),
                                                     [[i.key, i.zh, i.value, i.unit] for i in settled.items]]])
    sides = tuple(ruleset.players)
    for _ in range(DRAWS):
        ready = tuple(s for s in sides if rng.random() < 0.5)
        kongs = tuple((s, rng.choice((0, 0, 1)), rng.choice((0, 0, 1))) for s in sides)
        settled = ruleset.scoring.settle_draw(ruleset, DrawContext(rng.choice(sides), sides, ready, kongs))
        judged.append(["draw", list(ready), [list(k) for k in kongs],
                       None if settled is None else [list(settled.payments),
                                                     [[i.key, i.zh, i.value, i.unit] for i in settled.items]]])
    return hashlib.sha256(json.dumps(judged, ensure_ascii=False).encode()).hexdigest()


def region_digests(region_id: str) -> dict[str, Any]:
    region = get_region(region_id)
    return {"reading": revision(region_id),
            "variants": {variant_name(options): digest(region_id, options) for options in variants(region)}}


def kept() -> dict[str, Any]:
    return json.loads(KEPT.read_text(encoding="utf-8"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--write", action="store_true", help=f"write {KEPT.name} anew")
    parser.add_argument("--regions", default=",".join(REGION_IDS), help="comma-separated (default: all)")
    args = parser.parse_args()
    regions = args.regions.split(",")
    now = {region_id: region_digests(region_id) for region_id in regions}
    if args.write:
        merged = {**(kept() if KEPT.exists() else {}), **now}
        KEPT.write_text(json.dumps({r: merged[r] for r in REGION_IDS if r in merged}, indent=1, sort_keys=True) + "\n",
                        encoding="utf-8")
        print(f"wrote {KEPT} ({len(now)} region(s))")
    else:
        print(json.dumps(now, indent=1))


if __name__ == "__main__":
    main()
