"""The tampering campaign of issue 9 over every region: the figures in docs/reliability.md ("The audit").

    python -m pytest -q -m soak tests/records/test_tamper_campaign.py -s

plays four hands of each region on the simulated table (seed 1, with a ledger), applies each
tampering of tests/records/tampering.py, and prints how many were tried and caught: as a plain edit
(the recorder alone), resealed (the recorder alone), and resealed with the ledger."""

from __future__ import annotations

from collections import Counter

import pytest

from firmware.records.audit import audit_recorders
from firmware.records.audit_ledger import LedgerView
from firmware.records.stream import recorder_from_events
from rulesets.regions import REGION_IDS
from tests.records.tampering import TAMPERINGS, play, reseal
from tests.records.test_tampering import ONLY_THE_LEDGER_CATCHES_RESEALED

WAYS = ("plain edit", "resealed", "resealed, --ledger")


def caught(events, ledger=None) -> bool:
    return not audit_recorders([recorder_from_events("t.jsonl", events)], ledger).sound


@pytest.mark.soak
def test_every_tampering_of_every_region(tmp_path):
    tried: Counter = Counter()
    hits: Counter = Counter()
    sound = 0
    for region in REGION_IDS:
        ledger_path = str(tmp_path / f"{region}.db")
        events = play(region, hands=4, seed=1, ledger_path=ledger_path)
        ledger = LedgerView.open(ledger_path)
        sound += not caught(events, ledger)
        for name, tamper in TAMPERINGS.items():
            try:
                edited = tamper(events)
            except StopIteration:                       # no hand won by a single seat in this run
                continue
            tried[name] += 1
            resealed = reseal(edited)
            for way, found in zip(WAYS, (caught(edited), caught(resealed), caught(resealed, ledger))):
                hits[name, way] += found
    print(f"\nuntouched recorders sound: {sound} of {len(REGION_IDS)}")
    print(f"{'tampering':52} {'tried':>5}  " + "  ".join(f"{w:>18}" for w in WAYS))
    for name in TAMPERINGS:
        print(f"{name:52} {tried[name]:5}  " + "  ".join(f"{hits[name, w]:18}" for w in WAYS))
    assert sound == len(REGION_IDS)
    for name in TAMPERINGS:
        assert hits[name, "plain edit"] == hits[name, "resealed, --ledger"] == tried[name] > 0, name
        if name not in ONLY_THE_LEDGER_CATCHES_RESEALED:
            assert hits[name, "resealed"] == tried[name], name
