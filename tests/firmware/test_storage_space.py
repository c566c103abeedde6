"""A card running out of room is said before it stops the table: once as a warning (logged, recorded,
on the live streams) when the room left falls under the floor, once when there is room again;
never repeated hand after hand, and never a secret (a table-level line, in no hand's page)."""

import logging
import os

import pytest

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
        session.upkeep.space = SpaceWatch(session.upkeep.space.paths, floor=1 << 62)

    with caplog.at_level(logging.INFO, logger="mahjong_table"):
        result = run(run_simulated(ruleset, hands=3, seed=2, ledger_path=str(tmp_path / "table.db"),
                                   on_event=events.append, on_session=nearly_full), timeout=180)
    assert result.hands == 3
    warned = [e for e in events if e["event"] == "warning" and e.get("storage") == "low"]
    assert len(warned) == 1 and warned[0]["hand"] == 0 and warned[0]["total_mb"] > 0
    assert "the storage card is nearly full" in warned[0]["message"] and "E24" in warned[0]["message"]
    assert sum("the storage card is nearly full" in r.getMessage() and r.levelno == logging.WARNING
               for r in caplog.records) == 1


def test_a_database_that_cannot_open_on_a_full_card_says_free_the_card_not_move_it_away(tmp_path, monkeypatch):
    """On a full card SQLite cannot even open its files (it writes as it opens): the line must send the
    technician to free the card; "move it away" is for a damaged file."""
    import sqlite3

    import firmware.records.space as space
    from firmware.cli.errors import UserError
    from firmware.cli.files import CardFull, open_database

    def refused(path: str):
        raise sqlite3.OperationalError("disk I/O error")

    def damaged(path: str):
        raise sqlite3.DatabaseError("file is not a database")

    monkeypatch.setattr(space, "space_left", lambda paths: Space(4096, 64 << 20))
    with pytest.raises(UserError) as full:
        open_database(refused, tmp_path / "tiles.db", "tile registry")
    assert "the card is full (4 KB free); free space on it" in str(full.value) and "move it away" not in str(full.value)
    assert isinstance(full.value, CardFull) and full.value.folder == tmp_path       # `run` waits there for room
    with pytest.raises(UserError) as bad:
        open_database(damaged, tmp_path / "tiles.db", "tile registry", "--registry")
    assert "move it away or choose another with --registry" in str(bad.value)
    monkeypatch.setattr(space, "space_left", lambda paths: Space(900 << 20, 64 << 30))
    with pytest.raises(UserError) as failing:
        open_database(refused, tmp_path / "tiles.db", "tile registry")
    assert "the card refused it; check that it is not full, read-only or failing" in str(failing.value)
    assert not isinstance(failing.value, CardFull)

    def held(path: str):
        raise sqlite3.OperationalError("database is locked")

    with pytest.raises(UserError) as locked:
        open_database(held, tmp_path / "table.db", "ledger and settings database", "--db")
    assert "another program holds it; is another controller running?" in str(locked.value)


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="no /proc on this machine")
def test_a_file_system_of_no_size_is_no_full_card():
    """`--db /proc/version`: /proc has no blocks at all, which read as a full card (0 KB free), and the
    table waited for ever for room (a probe). Such a file system is not asked: the file's own error is said."""
    from pathlib import Path

    from firmware.cli import main
    assert space_left([Path("/proc")]) is None
    assert main(["run", "--db", "/proc/version", "--hands", "1", "--speed", "0"]) == 2
