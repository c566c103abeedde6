"""Never a hidden tile: every response and stream message of the web view, over whole simulated
sessions, names no tile of the unrevealed wall and no private 宝 before its hand ends."""

import pytest

from tests.asyncio_support import run
from tests.web.watch import SHORT_PLAYS, SOAK_PLAYS, assert_nothing_hidden, watched_run



def check(plays, tmp_path):
    total, regions = 0, set()
    for region, hands, seed in plays:
        result = run(watched_run(region, hands, seed, str(tmp_path / f"{region}.db"), str(tmp_path / f"{region}.jsonl")),
                     timeout=60 + 30 * hands)
        assert_nothing_hidden(result, region, hands)
        states = [s for s in result.seen if s.kind == "/api/state" and s.context is not None and s.context.hand]
        stream = [s for s in result.seen if s.kind == "ws" and s.context is not None and s.context.hand]
        assert states and len(stream) > 50, "the scan must have seen the table during its hands"
        total += hands
        regions.add(region)
    return total, regions


def test_a_short_session_of_private_and_public_indicators_leaks_nothing(tmp_path):
    check(SHORT_PLAYS, tmp_path)


@pytest.mark.soak
def test_fifty_hands_across_nine_regions_leak_nothing(tmp_path):
    total, regions = check(SOAK_PLAYS, tmp_path)
    assert total >= 50 and len(regions) >= 8
