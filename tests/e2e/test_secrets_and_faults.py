"""No hidden tile reaches the public display or the live stream; play survives a noisy wire."""

import asyncio
import io
import json
import subprocess
import sys

from firmware.records.audit import audit_events, read_events
from firmware.simulated import run_simulated
from rulesets.regions import get_region
from rulesets.tiles import Tile
from simulator import parse_faults
from simulator.table import SimulatedTable
from tests.asyncio_support import run


async def play_watching(ruleset, seed, hands, faults=()):
    """Play, recording every text the public display and the seat displays show."""
    table = SimulatedTable(seed=seed, speed=0, tile_sets=(ruleset.tiles, ruleset.tiles), faults=parse_faults(faults))
    await table.start("pty")
    shown: list[tuple[str, str]] = []
    seats: list[tuple[int, str]] = []
    original_text, original_seat = table.display.set_text, table.world.set_seat_text

    def public(page, component, text):
        shown.append((f"{page}.{component}", text))
        return original_text(page, component, text)

    def seat_text(seat, line, text):
        seats.append((seat, text))
        return original_seat(seat, line, text)

    events = io.StringIO()
    marks: list[tuple[int, int, int]] = []            # (event index, public texts so far, seat texts so far)

    def mark(event):
        marks.append((len(marks), len(shown), len(seats)))

    table.display.set_text, table.world.set_seat_text = public, seat_text
    try:
        await run_simulated(ruleset, hands=hands, seed=seed, events=events, table=table, on_event=mark)
    finally:
        await table.stop()
    return read_events(events.getvalue().splitlines()), shown, seats, marks


def test_the_changchun_bao_reaches_only_ready_seats():
    ruleset = get_region("changchun").resolve()
    log, shown, seats, marks = run(play_watching(ruleset, 4, 6), timeout=120)
    ends = [e for e in log if e["event"] == "hand_end"]
    baos = [(end, i) for end in ends for i in end["indicators"] if i["kind"] == "bao"]
    assert baos, "no 宝 was chosen in six hands"
    for end, bao in baos:
        name = Tile.parse(bao["tile"][0]).zh
        start_index = next(i for i, e in enumerate(log) if e["event"] == "hand_start" and e["hand"] == end["hand"])
        end_index = log.index(end)
        public_before_end = shown[marks[start_index][1]:marks[end_index][1]]
        assert not any("宝" in text for _, text in public_before_end)
        for _, text in public_before_end:
            assert name not in text or not text.startswith("宝")
        private = [(seat, text) for seat, text in seats[marks[start_index][2]:marks[end_index][2]] if text.startswith("宝:")]
        assert private and all(text.startswith(f"宝:{name}") for _, text in private)
        assert {seat for seat, _ in private} <= set(bao["seat"])
        live = [e for e in log[start_index:end_index] if e["event"] == "indicator" and e["kind"] == "bao"]
        assert live and all(e["tile"] is None and e["wilds"] is None for e in live)


def test_play_goes_on_over_a_noisy_wire():
    """Corrupted, dropped, duplicated and delayed frames on both boards: every hand still audits."""
    ruleset = get_region("sichuan").resolve()
    faults = ("corrupt=0.02", "drop=0.02", "duplicate=0.02", "delay=0.02")
    log, *_ = run(play_watching(ruleset, 5, 3, faults), timeout=180)
    assert audit_events(log) == []
    assert sum(1 for e in log if e["event"] == "hand_end") == 3


def test_two_tables_in_one_process():
    async def both():
        a, b = io.StringIO(), io.StringIO()
        await asyncio.gather(run_simulated(get_region("wuhan").resolve(), hands=2, seed=1, events=a),
                             run_simulated(get_region("guangshui").resolve(), hands=2, seed=2, events=b))
        return read_events(a.getvalue().splitlines()), read_events(b.getvalue().splitlines())
    a, b = run(both(), timeout=120)
    assert audit_events(a) == [] and audit_events(b) == []
    assert {e["ruleset"] for e in a if e["event"] == "hand_start"} == {"wuhan"}
    assert {e["ruleset"] for e in b if e["event"] == "hand_start"} == {"guangshui"}


def test_run_command_plays_hands_and_exits_0(tmp_path):
    events = tmp_path / "e.jsonl"
    proc = subprocess.run([sys.executable, "-m", "firmware", "run", "--ruleset", "changchun", "--hands", "3", "--seed", "1",
                           "--speed", "0", "--events", str(events), "--db", str(tmp_path / "t.db")],
                          capture_output=True, text=True, timeout=180)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0].startswith("no configuration: running 长春麻将 (changchun) against the built-in simulator")
    assert sum("; next dealer seat" in line for line in lines) == 3
    log = [json.loads(line) for line in events.read_text(encoding="utf-8").splitlines()]
    assert audit_events(log) == []
    audit = subprocess.run([sys.executable, "-m", "firmware", "audit", str(events)], capture_output=True, text=True, timeout=60)
    assert audit.returncode == 0 and "3 hand(s) audited: sound" in audit.stdout
    from firmware.records.ledger import Ledger
    ledger = Ledger(tmp_path / "t.db")                      # the ledger holds what the table showed
    last = [e for e in log if e["event"] == "hand_end"][-1]
    session = next(e["session"] for e in log if e["event"] == "session_start")
    assert ledger.hands(session) == 3 and list(ledger.totals(session)) == last["totals"]
    ledger.close()
