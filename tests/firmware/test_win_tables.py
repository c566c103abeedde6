"""The suit win table kept in a file (firmware/win_tables.py): built and kept by the first start,
mapped by the next ones and equal to a fresh build; a damaged or cut file is never used (built
again and written anew); a folder that cannot be written costs only the build; the scoring worker
maps the kept table.

Each start is a process of its own: a process holds one suit table, given or built once."""

import os
import subprocess
import sys
import time
from pathlib import Path

from firmware.worker import ProcessWorker
from tests.asyncio_support import run

START = """
import sys
from pathlib import Path
from firmware.win_tables import use_kept_table
from rulesets.winning import tables
print(use_kept_table(Path(sys.argv[1])))
print(tables.suit_table() == tables.build_suit_table())
"""


def _start(folder: Path) -> tuple[str, bool, str]:
    """One start in a process of its own: what it did, whether its table equals a fresh build, and
    what it logged."""
    done = subprocess.run([sys.executable, "-c", START, str(folder)], capture_output=True, text=True,
                          timeout=120, check=True)
    did, equal = done.stdout.splitlines()
    return did, equal == "True", done.stderr


def _kept(folder: Path) -> Path:
    (kept,) = folder.glob("suit-table-*.bin")
    return kept


def test_the_first_start_keeps_the_table_and_the_next_maps_it(tmp_path):
    assert _start(tmp_path)[:2] == ("built and kept", True)
    assert _start(tmp_path) == ("mapped", True, "")
    assert [p.name for p in tmp_path.iterdir()] == [_kept(tmp_path).name]     # no temporary file left


def test_a_damaged_table_is_never_used_and_is_written_anew(tmp_path):
    _start(tmp_path)
    kept = _kept(tmp_path)
    data = bytearray(kept.read_bytes())
    data[len(data) // 2] ^= 0x01                # one bit of one entry
    kept.write_bytes(bytes(data))
    did, equal, said = _start(tmp_path)
    assert (did, equal) == ("built and kept", True)
    assert "is damaged; building them again" in said
    assert _start(tmp_path)[:2] == ("mapped", True)


def test_a_table_cut_short_is_never_used(tmp_path):
    _start(tmp_path)
    kept = _kept(tmp_path)
    kept.write_bytes(kept.read_bytes()[:1000])
    did, equal, said = _start(tmp_path)
    assert (did, equal) == ("built and kept", True)
    assert "is not usable (its size is wrong)" in said


def test_a_folder_that_cannot_be_written_costs_only_the_build(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    assert _start(blocker / "cache")[:2] == ("built", True)


def test_the_scoring_worker_maps_the_table_kept_in_its_cache_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("CACHE_DIRECTORY", str(tmp_path))      # as systemd's CacheDirectory= names it

    async def one_call() -> int:
        worker = ProcessWorker()
        worker.start()
        try:
            return await worker.run(len, "answered")
        finally:
            await worker.stop()

    assert run(one_call(), timeout=60) == len("answered")
    kept = _kept(tmp_path)
    assert _start(tmp_path)[:2] == ("mapped", True)
    assert _kept(tmp_path) == kept


def test_what_earlier_writes_left_is_removed_once_an_hour_old(tmp_path):
    """Another version's table and a temporary file a power cut left: removed by the next write
    when an hour old; younger ones (a write under way, a version in use) are left alone."""
    old_version, cut_short, young = (tmp_path / "suit-table-0123.bin", tmp_path / ".suit-table-abc",
                                     tmp_path / "suit-table-4567.bin")
    for leftover in (old_version, cut_short, young):
        leftover.write_bytes(b"x" * 100)
    hours_ago = time.time() - 2 * 3600
    for leftover in (old_version, cut_short):
        os.utime(leftover, (hours_ago, hours_ago))
    assert _start(tmp_path)[:2] == ("built and kept", True)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([young.name, _kept_new(tmp_path).name])


def _kept_new(folder: Path) -> Path:
    """The table this code keeps (the folder may hold other versions')."""
    from firmware.win_tables import table_key
    return folder / f"suit-table-{table_key()}.bin"
