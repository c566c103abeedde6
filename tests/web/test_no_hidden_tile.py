"""Never a hidden tile: every response and stream message of the web view, over whole simulated
sessions, names no tile of the unrevealed wall and no private 宝 before its hand ends."""

import pytest

from tests.asyncio_support import run
from tests.web.watch import leaks, watched_run

# 长春: a private 宝; 杭州 财神, 南昌 精, 武汉 赖子, 上海 百搭: public indicators and wilds.
SHORT = [("changchun", 3, 1), ("hangzhou", 2, 2)]
SOAK = [("changchun", 10, 1), ("jilin", 6, 2), ("hangzhou", 6, 3), ("nanchang", 6, 4), ("wuhan", 6, 5),
        ("shanghai", 6, 6), ("guizhou", 6, 7), ("baida", 6, 8), ("sichuan", 4, 9)]


def check(plays, tmp_path):
    total, regions = 0, set()
    for region, hands, seed in plays:
        result = run(watched_run(region, hands, seed, str(tmp_path / f"{region}.db"), str(tmp_path / f"{region}.jsonl")),
                     timeout=60 + 30 * hands)
        assert result.hands == hands
        assert result.refused == 0, "the public filter had to stop a message"
        problems = leaks(result)
        assert problems == [], "\n".join(problems[:5])
        states = [s for s in result.seen if s.kind == "/api/state" and s.context is not None and s.context.hand]
        stream = [s for s in result.seen if s.kind == "ws" and s.context is not None and s.context.hand]
        assert states and len(stream) > 50, "the scan must have seen the table during its hands"
        if region == "changchun":
            baos = [i for end in result.truth.ends.values() for i in end["indicators"] if i["kind"] == "bao"]
            assert baos and all(not i["public"] for i in baos), "the 长春 hands must have had their private 宝"
        total += hands
        regions.add(region)
    return total, regions


def test_a_short_session_of_private_and_public_indicators_leaks_nothing(tmp_path):
    check(SHORT, tmp_path)


@pytest.mark.soak
def test_fifty_hands_across_nine_regions_leak_nothing(tmp_path):
    total, regions = check(SOAK, tmp_path)
    assert total >= 50 and len(regions) >= 8
