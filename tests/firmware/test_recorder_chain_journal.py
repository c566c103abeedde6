"""The flight recorder's chain across a kill.  The journal's chain head is written after the hand's
seal (`hand_end`) reaches the file, so a SIGKILL between the two leaves the journal one hand behind
the file; the next recorder went on from the journal, and the audit refused the chain ("the chain
does not go on from …", found by the fault campaign: 长春, a kill just as a hand ended).  The next
recorder goes on from what the last file holds."""

import asyncio
import threading
from pathlib import Path

from firmware.records.chain_tail import file_chain_head
from firmware.records.ledger import Ledger
from firmware.records.stream import check_chain, read_recorder
from firmware.session import CHAIN_KEY
from firmware.simulated import run_simulated
from rulesets.regions import get_region
from simulator.players import SimulatedPlayers
from simulator.table import SimulatedTable
from tests.asyncio_support import run


async def two_runs_cut_after_a_seal(folder: Path, lost: threading.Event) -> None:
    """The first run stops as hand 1's seal is written, its chain head never reaching the journal
    (`lost` set meanwhile); a second run plays one hand on the same table, ledger and folder."""
    ruleset = get_region("changchun").resolve()
    table = SimulatedTable(seed=4, speed=0, tile_sets=(ruleset.tiles, ruleset.tiles))
    await table.start("pty")
    people = asyncio.create_task(SimulatedPlayers(table, ruleset, seed=4).run())
    db = str(folder / "table.db")
    sealed = asyncio.Event()

    def on_event(event: dict) -> None:
        if event["event"] == "hand_end":
            lost.set()
            sealed.set()

    try:
        with open(folder / "1.jsonl", "w") as first:
            controller = asyncio.create_task(run_simulated(
                ruleset, hands=None, table=table, players=None, events=first, events_path=str(folder / "1.jsonl"),
                ledger_path=db, resume=True, on_event=on_event))
            await asyncio.wait({controller, asyncio.ensure_future(sealed.wait())}, return_when=asyncio.FIRST_COMPLETED)
            controller.cancel()
            await asyncio.gather(controller, return_exceptions=True)
        lost.clear()
        with open(folder / "2.jsonl", "w") as second:
            await run_simulated(ruleset, hands=1, table=table, players=None, events=second,
                                events_path=str(folder / "2.jsonl"), ledger_path=db, resume=True)
    finally:
        people.cancel()
        await asyncio.gather(people, return_exceptions=True)
        await table.stop()


def test_the_next_recorder_goes_on_from_the_seal_the_last_file_holds(tmp_path, monkeypatch):
    lost = threading.Event()        # set: the chain head's journal write does not reach the disk
    real_put = Ledger.journal_put

    def put(ledger, key, value):
        if not (key == CHAIN_KEY and lost.is_set()):
            real_put(ledger, key, value)

    monkeypatch.setattr(Ledger, "journal_put", put)
    run(two_runs_cut_after_a_seal(tmp_path, lost), timeout=120)
    files = [read_recorder(name, (tmp_path / name).read_bytes()) for name in ("1.jsonl", "2.jsonl")]
    assert sum(line.name == "hand_end" for line in files[0].lines) == 1
    assert sum(line.name == "hand_end" for line in files[1].lines) == 1
    assert check_chain(files) == []


def test_a_files_chain_head_is_read_from_its_end(tmp_path, monkeypatch):
    """The head is the hash of the last whole hand_end line, however far back it lies; a line a kill
    cut short is no line; a file without a seal ends at the chain it began from."""
    import json

    from firmware.records import chain_tail
    from firmware.records.chain import line_hash

    start = json.dumps({"event": "recorder_start", "chain": "a" * 64}, separators=(",", ":"))
    seal = json.dumps({"event": "hand_end", "hand": 1, "digest": "b" * 64}, separators=(",", ":"))
    filler = [json.dumps({"event": "take", "hand": 2, "ring": n}) for n in range(300)]
    path = tmp_path / "r.jsonl"
    path.write_text("\n".join([start, seal, *filler]) + "\n" + seal[:20])
    assert file_chain_head(path) == line_hash(seal)
    monkeypatch.setattr(chain_tail, "CHUNK", 64)    # the seal lies many windows back
    assert file_chain_head(path) == line_hash(seal)
    path.write_text(start + "\n")
    assert file_chain_head(path) == "a" * 64
    assert file_chain_head(tmp_path / "missing.jsonl") is None


def test_a_run_without_a_recorder_file_leaves_the_next_one_the_journals_head(tmp_path):
    """A run that wrote its recorder to no file (stdout) forgets the file of the run before it: the
    next run goes on from the journal's head, not from a file the chain has left behind."""
    import io
    import sqlite3

    from firmware.session import RECORDER_KEY

    db = str(tmp_path / "table.db")
    ruleset = get_region("changchun").resolve()
    with open(tmp_path / "1.jsonl", "w") as first:
        run(run_simulated(ruleset, hands=1, seed=2, events=first, events_path=str(tmp_path / "1.jsonl"),
                          ledger_path=db), timeout=120)
    with sqlite3.connect(db) as con:
        assert con.execute("SELECT 1 FROM journal WHERE key = ?", (RECORDER_KEY,)).fetchone() is not None
    run(run_simulated(ruleset, hands=1, seed=2, events=io.StringIO(), ledger_path=db), timeout=120)
    with sqlite3.connect(db) as con:
        assert con.execute("SELECT 1 FROM journal WHERE key = ?", (RECORDER_KEY,)).fetchone() is None


def test_a_start_on_a_card_that_refuses_the_recorder_s_name_still_chains_the_next_run_to_its_file(tmp_path,
                                                                                                   monkeypatch):
    """A run that starts while the card refuses writes names its recorder file in the journal all the
    same (the write is tried again until it lands, as a ledger row is): the run after it goes on from
    that file's last seal.  Before, the name was written once and lost, so the next run went on from
    the file before, and the audit refused the chain (fault campaign 270043, 钻牌, a start on a full
    card then a kill)."""
    import sqlite3

    from firmware.session import RECORDER_KEY

    real_put = Ledger.journal_put
    refused: list[str] = []

    def put(ledger, key, value):
        if key == RECORDER_KEY and value["path"].endswith("2.jsonl") and not refused:
            refused.append(key)
            raise sqlite3.OperationalError("database or disk is full")
        real_put(ledger, key, value)

    monkeypatch.setattr(Ledger, "journal_put", put)

    run(runs_on_one_table(tmp_path, (("1.jsonl", 1), ("2.jsonl", 1), ("3.jsonl", 1))), timeout=120)
    assert refused
    files = [read_recorder(name, (tmp_path / name).read_bytes()) for name in ("1.jsonl", "2.jsonl", "3.jsonl")]
    assert [sum(line.name == "hand_end" for line in f.lines) for f in files] == [1, 1, 1]
    assert check_chain(files) == []


def test_a_recorder_file_a_power_cut_left_empty_is_passed_over_by_the_chain(tmp_path, monkeypatch):
    """A power cut just after a start can leave that run's recorder file empty: the card never got its
    first line.  The next run went on from the journal's head — behind the file before it when a kill
    kept the head from the journal — and the audit refused the chain and the empty file (fault
    campaign 620182, 贵州, a power cut).  The next run now goes on from where the empty file's run
    began (journaled with its name), and among other files an empty one is a note."""
    from firmware.records.audit import audit_recorders

    monkeypatch.setattr(Ledger, "journal_put", _dropping(Ledger.journal_put, CHAIN_KEY))   # the head lags

    def power_cut(name: str) -> None:
        if name == "2.jsonl":
            (tmp_path / name).write_bytes(b"")          # its lines never reached the card

    run(runs_on_one_table(tmp_path, (("1.jsonl", 1), ("2.jsonl", 0), ("3.jsonl", 1)), after=power_cut), timeout=120)
    files = [read_recorder(name, (tmp_path / name).read_bytes()) for name in ("1.jsonl", "2.jsonl", "3.jsonl")]
    assert check_chain(files) == []
    report = audit_recorders(files)
    assert report.problems == ()
    assert [n.text for n in report.notes] == ["empty: the controller stopped before its first line reached the card"]


async def runs_on_one_table(folder: Path, runs, after=lambda name: None) -> None:
    """Controllers run one after another on one simulated table, ledger and folder: (recorder file,
    hands) each; `after(file)` once each run has stopped."""
    ruleset = get_region("changchun").resolve()
    table = SimulatedTable(seed=4, speed=0, tile_sets=(ruleset.tiles, ruleset.tiles))
    await table.start("pty")
    people = asyncio.create_task(SimulatedPlayers(table, ruleset, seed=4).run())
    try:
        for name, hands in runs:
            with open(folder / name, "w") as events:
                await run_simulated(ruleset, hands=hands, table=table, players=None, events=events,
                                    events_path=str(folder / name), ledger_path=str(folder / "table.db"), resume=True)
            after(name)
    finally:
        people.cancel()
        await asyncio.gather(people, return_exceptions=True)
        await table.stop()


def _dropping(put, dropped_key: str):
    def journal_put(ledger, key, value):
        if key != dropped_key:
            put(ledger, key, value)
    return journal_put
