"""A card running out of room is said before it stops the table: once as a warning (logged, recorded,
on the live streams) when the room left falls under the floor, once when there is room again;
never repeated hand after hand, and never a secret (a table-level line, in no hand's page)."""

import logging
import os

from firmware.records.space import LOW_SPACE_BYTES, Space, SpaceWatch, space_left
from firmware.simulated import run_simulated
from rulesets.regions import get_region
from tests.asyncio_support import run


def test_the_watch_says_each_crossing_once():
    answers = iter([Space(900, 1000), Space(90, 1000), Space(80, 1000), Space(150, 1000), Space(140, 1000), None])
    watch = SpaceWatch(["/"], floor=100, probe=lambda paths: next(answers))

    async def asks():
        return [await watch.change() for _ in range(6)]

    said = run(asks(), timeout=30)
    assert said == [None, Space(90, 1000), None, Space(150, 1000), None, None]
    assert watch.low is False


def test_the_room_left_is_the_least_of_the_folders_and_a_folder_that_is_gone_is_passed_over(tmp_path):
    space = space_left([tmp_path, tmp_path / "gone"])
    stat = os.statvfs(tmp_path)
    assert space is not None and space.total == stat.f_blocks * stat.f_frsize and 0 < space.free <= space.total
    assert space_left([tmp_path / "gone"]) is None and LOW_SPACE_BYTES == 512 << 20


def test_a_table_on_a_nearly_full_card_warns_once_and_plays_on(tmp_path, caplog):
    ruleset = get_region("guangdong").resolve()
    events: list[dict] = []

    def nearly_full(session) -> None:     # the card's room, whatever it is, is under this floor
        session.space = SpaceWatch(session.space.paths, floor=1 << 62)

    with caplog.at_level(logging.INFO, logger="mahjong_table"):
        result = run(run_simulated(ruleset, hands=3, seed=2, ledger_path=str(tmp_path / "table.db"),
                                   on_event=events.append, on_session=nearly_full), timeout=180)
    assert result.hands == 3
    warned = [e for e in events if e["event"] == "warning" and e.get("storage") == "low"]
    assert len(warned) == 1 and warned[0]["hand"] == 0 and warned[0]["total_mb"] > 0
    assert "the storage card is nearly full" in warned[0]["message"] and "E24" in warned[0]["message"]
    assert sum("the storage card is nearly full" in r.getMessage() and r.levelno == logging.WARNING
               for r in caplog.records) == 1
