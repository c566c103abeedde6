"""Real recorders (and their ledgers) made once per test session by the simulated table."""

from __future__ import annotations

import pytest

from tests.records.tampering import play

REGIONS = ("guangshui", "changchun", "sichuan", "hangzhou", "guizhou")   # kongs; a private 宝; 血战; a fixed wild; 鸡 flips


@pytest.fixture(scope="session")
def recorders(tmp_path_factory) -> dict[str, tuple[list[dict], str]]:
    """region → (the events of a 4-hand run, the path of the ledger it kept)."""
    made = {}
    for region in REGIONS:
        ledger = str(tmp_path_factory.mktemp("ledgers") / f"{region}.db")
        made[region] = (play(region, hands=4, seed=1, ledger_path=ledger), ledger)
    return made
