"""A restart resumes: the controller stops abruptly mid-hand and a new one on the same table and
database picks the session and the hand up where they stood (issue 10, item 3)."""

import asyncio
import io
import json
import threading

import pytest

from drivers.motor_protocol import Key, LiftPosition
from drivers.table_ui import LAY_CLOSED_KONGS, LAY_HAND, LAY_MELDS, WIN_FROM, WIN_TILE, parse_choice
from firmware.hand.state import HandState
from firmware.records.ledger import HAND_KEY, Ledger
from firmware.records.audit import audit_events, audit_one_hand
from firmware.simulated import run_simulated
from rulesets.regions import get_region
from rulesets.walls import Break
from simulator.players import SimulatedPlayers
from simulator.table import SimulatedTable
from tests.asyncio_support import run


def events_of(buffer: io.StringIO) -> list[dict]:
    return [json.loads(line) for line in buffer.getvalue().splitlines()]


def nth_take_of_hand_2(n: int):
    seen = []

    def stop_when(event: dict) -> bool:
        if event["hand"] == 2 and event["event"] == "take":
            seen.append(event)
        return len(seen) == n
    return stop_when


async def crash_and_restart(region_id: str, seed: int, db: str, stop_when=None, meanwhile=None, stopping=None,
                            players_hook=None, crash_when=None, on_session=None, options=None,
                            restart_options=None, restart_region=None):
    """Play until `stop_when(event)`, or `crash_when(table)` holds in hand 2 or later (or a
    `players_hook` calls its `stop`); cancel the controller there and then (`stopping(session)` runs
    first), then start a new one on the same table and database for two more hands (`on_session`
    hears the first controller's session as it starts); `options`: the region's house options
    (`restart_options`, `restart_region`: the second controller's, if others: chosen on the panel meanwhile)."""
    ruleset = get_region(region_id).resolve(options)
    table = SimulatedTable(seed=seed, speed=0, tile_sets=(ruleset.tiles, ruleset.tiles))
    await table.start("pty")
    players = SimulatedPlayers(table, ruleset, seed=seed)       # the people at the table outlive the controller
    people = asyncio.create_task(players.run())
    first, second = io.StringIO(), io.StringIO()
    sessions = []
    crashed = asyncio.Event()
    controller: asyncio.Task | None = None

    def stop() -> None:
        if not crashed.is_set():
            crashed.set()
            if stopping is not None:
                stopping(sessions[0])
            controller.cancel()                                  # no publish, no clean end

    if players_hook is not None:
        players_hook(players, stop)
    hand = 0

    def on_event(event: dict) -> None:
        nonlocal hand
        hand = max(hand, event["hand"])
        if stop_when is not None and stop_when(event):
            stop()

    async def watch_table() -> None:
        while not (hand >= 2 and crash_when(table)):
            await table.changed(table.changes.version)
        stop()

    watcher = asyncio.create_task(watch_table()) if crash_when is not None else None
    try:
        controller = asyncio.create_task(run_simulated(
            ruleset, hands=None, table=table, players=None, events=first, ledger_path=db, resume=True,
            on_event=on_event, on_session=lambda session: (sessions.append(session), on_session and on_session(session))))
        await asyncio.wait({controller, asyncio.ensure_future(crashed.wait())}, return_when=asyncio.FIRST_COMPLETED)
        assert crashed.is_set(), "the first controller stopped before the moment to stop it"
        await asyncio.gather(controller, return_exceptions=True)
        if meanwhile is not None:
            meanwhile(table, ruleset, events_of(first))
        again = ruleset if restart_options is None and restart_region is None else \
            get_region(restart_region or region_id).resolve(restart_options)
        result = await run_simulated(again, hands=2, table=table, players=None, events=second, ledger_path=db,
                                     resume=True)
    finally:
        for task in (people, watcher):
            if task is not None:
                task.cancel()
                await asyncio.gather(task, return_exceptions=True)
        await table.stop()
    return result, events_of(first), events_of(second)


@pytest.mark.parametrize("region_id, crash_at_take", [("guangshui", 70), ("guangshui", 50), ("changchun", 20), ("sichuan", 5)])
def test_a_hand_interrupted_by_a_crash_resumes_and_is_settled_once(tmp_path, region_id, crash_at_take):
    """In play (guangshui), in the deal (changchun, with its 宝 still to choose), at the deal's start."""
    db = str(tmp_path / "table.db")
    result, before, after = run(crash_and_restart(region_id, 3, db, nth_take_of_hand_2(crash_at_take)), timeout=180)
    assert [e["hand"] for e in before if e["event"] == "hand_end"] == [1]
    assert not any(e["event"] == "hand_end" and e["hand"] == 2 for e in before)
    resumed = next(e for e in after if e["event"] == "resumed")
    assert resumed["hand"] == 2 and resumed["cause"] == "restart"
    hand_start = next(e for e in before if e["event"] == "hand_start" and e["hand"] == 2)
    assert resumed["wall_hash"] == hand_start["wall_hash"]           # the same wall, committed before play
    ends = [e for e in after if e["event"] == "hand_end"]
    assert [e["hand"] for e in ends] == [2, 3] and result.hands == 2
    assert any(e["event"] == "session_resumed" for e in after)
    ledger = Ledger(db)
    try:
        rows = ledger._db.execute("SELECT session, number, result FROM hands ORDER BY number").fetchall()
        assert [number for _, number, _ in rows] == [1, 2, 3]            # never lost, never settled twice
        assert len({session for session, _, _ in rows}) == 1             # the session went on
        session = rows[0][0]
        last = [e for e in after if e["event"] == "hand_end"][-1]
        assert list(ledger.totals(session)) == last["totals"]          # the totals went on too
    finally:
        ledger.close()


def test_a_hand_whose_walls_no_longer_match_is_voided_cleanly(tmp_path):
    """A tile put back on the wall while the controller was away: the hand cannot be trusted."""
    def put_one_back(table, ruleset, events):
        """On the head stack, dealt long before the crash: the journal surely knew it empty."""
        start = next(e for e in events if e["event"] == "hand_start" and e["hand"] == 2)
        head = ruleset.layout.ring(Break(start["break"]["wall"], start["break"]["skip"]))[0]
        assert table.wall(head.wall)[head.stack] == 0
        table.put_back(head.wall, head.stack, next(iter(table.world.out.values())).uid)

    db = str(tmp_path / "table.db")
    result, before, after = run(crash_and_restart("guangshui", 3, db, nth_take_of_hand_2(70), meanwhile=put_one_back),
                                timeout=180)
    void = next(e for e in after if e["event"] == "hand_void")
    assert void["hand"] == 2 and "holds" in void["reason"]
    end = next(e for e in after if e["event"] == "hand_end")
    assert (end["hand"], end["result"], end["payments"], end["winners"]) == (2, "void", [0, 0, 0, 0], [])
    start = next(e for e in before if e["event"] == "hand_start" and e["hand"] == 2)
    assert end["next_dealer"] == start["dealer"] and "ring" in end and "salt" in end
    assert [e["hand"] for e in after if e["event"] == "hand_end"] == [2, 3, 4]
    ledger = Ledger(db)
    try:
        rows = ledger._db.execute("SELECT number, result FROM hands ORDER BY number").fetchall()
        assert rows[:2] == [(1, rows[0][1]), (2, "void")] and [n for n, _ in rows] == [1, 2, 3, 4]
    finally:
        ledger.close()


def test_a_stop_right_after_a_kong_is_declared_keeps_the_kong(tmp_path):
    """The journal is written whenever its writer is free, so at a stop it may be behind; the stop
    writes the hand as it stands before the store closes.  Here the writer is held busy from the
    杠 until the coalescing journal task is gone: only the stop's own write can keep the kong."""
    gate = threading.Event()
    journaled = {}

    def hold_the_writer(session) -> None:
        session.store.submit(gate.wait)

    async def release_when_the_journal_task_is_gone(session_holder):
        while session_holder and session_holder[0].journal.running:
            await asyncio.sleep(0.01)
        gate.set()

    def read_journal(table, ruleset, events):
        ledger = Ledger(str(tmp_path / "table.db"))
        try:
            journaled.update(ledger.journal())
        finally:
            ledger.close()

    sessions = []

    def stopping(session) -> None:
        sessions.append(session)
        hold_the_writer(session)
        asyncio.get_running_loop().create_task(release_when_the_journal_task_is_gone(sessions))

    db = str(tmp_path / "table.db")
    result, before, after = run(crash_and_restart("guangshui", 3, db, lambda e: e["event"] == "kong_declared",
                                                  meanwhile=read_journal, stopping=stopping), timeout=180)
    declared = next(e for e in before if e["event"] == "kong_declared")         # the one it stopped at
    hand = HandState.from_json(journaled[HAND_KEY])
    assert hand.number == declared["hand"]
    seat = declared["seat"]
    assert len(hand.kongs.get(seat, [])) + (seat in hand.pending_kong) >= 1      # the 杠 is kept
    resumed = next(e for e in after if e["event"] == "resumed")
    assert resumed["hand"] == declared["hand"]
    assert [e["hand"] for e in after if e["event"] == "hand_end"][0] == declared["hand"]      # settled once, after


def test_a_win_being_checked_at_a_stop_is_claimed_again_after_the_restart(tmp_path):
    """Stopped while a winner answers the check's prompts: the restarted table shows play again with
    the restart note and asks nothing of him, so he presses 胡 again (as a person would) and the
    win is checked and settled once, in the same session."""
    def stop_while_answering(players, stop) -> None:
        log = players.crew.log
        claimed = set()

        def watching(seat: int, what: str, detail: str = "") -> None:
            log(seat, what, detail)
            if what == "hu":
                claimed.add(seat)
            elif what == "press" and detail == "CONFIRM" and seat in claimed:
                stop()                                # the check has begun: its first answer was given
        players.crew.log = watching

    db = str(tmp_path / "table.db")
    result, before, after = run(crash_and_restart("guangshui", 3, db, lambda e: False,
                                                  players_hook=stop_while_answering), timeout=180)
    resumed = next(e for e in after if e["event"] == "resumed")
    number = resumed["hand"]
    assert not any(e["event"] == "hand_end" and e["hand"] == number for e in before)
    verdicts = [e for e in after if e["event"] in ("win", "false_win") and e["hand"] == number]
    assert verdicts and verdicts[0]["event"] == "win"
    ends = [e["hand"] for e in after if e["event"] == "hand_end"]
    assert ends[0] == number and len(ends) == len(set(ends)) == 2
    ledger = Ledger(db)
    try:
        rows = ledger._db.execute("SELECT session, number FROM hands ORDER BY number").fetchall()
        assert [n for _, n in rows] == sorted(set(n for _, n in rows)) and len({s for s, _ in rows}) == 1
    finally:
        ledger.close()


def test_a_win_check_cut_by_a_crash_starts_over_when_the_winner_presses_hu_again(tmp_path):
    """The controller dies while a winner answers the check's questions: the resumed hand forgets
    the check (the screens are drawn again, the prompt blank, 请出牌) and the winner, as a person
    would, presses 胡 again; the check starts over and the hand is settled once (found by the fault
    campaign: the simulated players waited on a question that was gone, and the table stalled)."""
    asked: list[int] = []

    def a_question_on_a_seat(table) -> bool:
        for seat, (_, line) in enumerate(table.world.seat_displays):
            choice = parse_choice(line)
            if choice is not None and choice[0] in (WIN_FROM, WIN_TILE) or line in (LAY_MELDS, LAY_HAND):
                asked.append(seat)
                return True
        return False

    db = str(tmp_path / "table.db")
    result, before, after = run(crash_and_restart("changchun", 3, db, crash_when=a_question_on_a_seat), timeout=60)
    resumed = next(e for e in after if e["event"] == "resumed")
    number = resumed["hand"]
    assert not any(e["event"] == "hand_end" and e["hand"] == number for e in before)
    judged = [e for e in after if e["event"] in ("win", "false_win") and e["hand"] == number]
    assert judged and judged[0]["seat"] == asked[0]
    assert [e["hand"] for e in after if e["event"] == "hand_end"] == [number, number + 1] and result.hands == 2


def a_key_lost_with_the_controller(lost_when):
    """(lost, crash_when, meanwhile) for `crash_and_restart`: the first press for which
    `lost_when(table, key)` holds goes into the void with the dying controller (its panel is added
    to `lost`), and the controller is stopped there; after the restart every press goes through."""
    lost: list[int] = []
    real_press = SimulatedTable.press

    def press(table, panel, key, long=False):
        if lost_when(table, key) and not table.restarted:
            lost.append(panel)
            table.restarting.set()
            table.changes.notify()           # nothing anyone sees changes: wake the watcher (crash_when)
            return
        real_press(table, panel, key, long)

    def key_lost(table) -> bool:
        if not hasattr(table, "restarting"):
            table.restarting, table.restarted = asyncio.Event(), False
            table.press = press.__get__(table)
        return table.restarting.is_set()

    def restarted(table, ruleset, events) -> None:
        table.restarted = True
    return lost, key_lost, restarted


def test_a_ready_the_restarted_controller_never_heard_is_pressed_again(tmp_path):
    """长春: a seat presses 听 and the controller dies before it is journaled (the key is gone with
    it).  The restarted controller draws the seat without 听; the player, who waits for the 宝,
    sees that and presses 听 again, and the hand goes on (found by the fault campaign: the
    player waited for a 宝 that would never come, and the table stalled)."""
    lost, a_ready_lost, restarted = a_key_lost_with_the_controller(lambda table, key: key == Key.TING)
    db = str(tmp_path / "table.db")
    result, before, after = run(crash_and_restart("changchun", 3, db, crash_when=a_ready_lost, meanwhile=restarted),
                                timeout=60)
    number = next(e for e in after if e["event"] == "resumed")["hand"]
    assert not any(e["event"] == "ready" and e["seat"] == lost[0] and e["hand"] == number for e in before)
    assert any(e["event"] == "ready" and e["seat"] == lost[0] and e["hand"] == number for e in after)
    assert [e["hand"] for e in after if e["event"] == "hand_end"] == [number, number + 1] and result.hands == 2


def test_an_exchange_confirmed_as_the_controller_died_is_shown_again_the_same_way_and_confirmed_again(tmp_path):
    """宜昌 换三张: the players pass their three tiles and the dealer's 确认 dies with the controller.
    The restarted controller shows the same direction (journaled before it was shown, never rolled
    again) and the dealer, seeing 已重启, presses 确认 again (found by the fault campaign: a new roll
    showed 上家 after the tiles had gone to 对家, the 确认 was never pressed again, and the table
    stalled)."""
    from drivers.table_ui import Phase

    def exchange_confirmed(table, key) -> bool:
        return key == Key.CONFIRM and table.display.text("main", "t_msg").startswith(Phase.EXCHANGE.value)
    lost, a_confirm_lost, restarted = a_key_lost_with_the_controller(exchange_confirmed)
    db = str(tmp_path / "table.db")
    result, before, after = run(crash_and_restart("yichang", 3, db, crash_when=a_confirm_lost, meanwhile=restarted),
                                timeout=60)
    resumed = next(e for e in after if e["event"] == "resumed")
    number = resumed["hand"]
    rolled = [e["direction"] for e in before if e["event"] == "exchange" and e["hand"] == number]
    assert len(rolled) == 1 and lost
    assert not any(e["event"] == "exchange" and e["hand"] == number for e in after)      # not rolled again
    assert [e["hand"] for e in after if e["event"] == "hand_end"] == [number, number + 1] and result.hands == 2


def test_a_kong_giver_told_as_the_controller_died_is_asked_again_and_told_for_that_kong(tmp_path):
    """云南: who gave a kong is asked `第N杠来自`; the maker's 确认 dies with the controller.  The
    restarted one asks again what its journal lacks, and the player — who keeps, through the 已重启
    note, who gave each of his kongs — answers for the kong the question names (found by the fault
    campaign: the player had forgotten his answers on the note and the table stalled)."""
    def giver_confirmed(table, key) -> bool:
        return key == Key.CONFIRM and any("杠来自:" in lines[1] for lines in table.world.seat_displays)
    lost, a_giver_lost, restarted = a_key_lost_with_the_controller(giver_confirmed)
    db = str(tmp_path / "table.db")
    result, before, after = run(crash_and_restart("yunnan", 3, db, crash_when=a_giver_lost, meanwhile=restarted),
                                timeout=120)
    number = next(e for e in after if e["event"] == "resumed")["hand"]
    assert lost and any(e["event"] == "kong_from" and e["hand"] == number for e in after)
    assert [e["hand"] for e in after if e["event"] == "hand_end"] == [number, number + 1] and result.hands == 2


def test_seat_lines_a_board_lost_while_the_controller_was_down_are_written_by_the_restarted_one(tmp_path):
    """Killed between hands at 请掷骰子, and the motor board rebooted before the controller came back
    (its seat displays blank, 庄 gone): the restarted controller writes each seat's line again, so
    the players find the dealer and deal (found by the fault campaign: they waited for a 庄 no one
    wrote, and the table stalled at 请配牌)."""
    from drivers.table_ui import Phase

    def dice_asked(table) -> bool:
        return table.display.text("main", "t_msg").startswith(Phase.DICE.value)

    def board_rebooted(table, ruleset, events) -> None:
        table.reset_board("motor")
        assert all(lines == ["", ""] for lines in table.world.seat_displays)

    db = str(tmp_path / "table.db")
    result, before, after = run(crash_and_restart("sichuan", 3, db, crash_when=dice_asked, meanwhile=board_rebooted),
                                timeout=60)
    assert not any(e["event"] == "resumed" for e in after)        # between hands: nothing to resume
    assert [e["hand"] for e in after if e["event"] == "hand_end"] == [3, 4] and result.hands == 2


def test_a_set_that_rose_just_before_a_crash_is_played_not_pushed_in_again(tmp_path):
    """The crash falls between the new walls rising and the centre closing (the journal still has
    the set below): the walls standing whole on the table are that set.  Asking for the push-in
    again would sweep them into the mixer with the other set (found by the fault campaign: a build
    of both sets mixed, E10/E07, the table waiting for a person)."""
    def the_walls_just_rose(table) -> bool:
        world = table.world
        return (world.centre == LiftPosition.DOWN and all(s.position == LiftPosition.UP for s in world.sides)
                and all(all(n == 2 for n in table.wall(side)) for side in range(4)))

    db = str(tmp_path / "table.db")
    result, before, after = run(crash_and_restart("sichuan", 3, db, crash_when=the_walls_just_rose), timeout=60)
    assert all(e["ok"] for e in after if e["event"] == "set_check"), [e for e in after if e["event"] == "set_check"]
    assert not any(e["event"] == "fault" for e in after if e.get("code") in ("E07", "E10"))
    ends = [e["hand"] for e in after if e["event"] == "hand_end"]
    assert len(ends) == 2 and ends[1] == ends[0] + 1 and result.hands == 2
    assert [e["hand"] for e in before if e["event"] == "hand_end"][-1] == ends[0] - 1       # none lost, none again


class JournalCoveredLines(io.StringIO):
    """A recorder file that checks, as each line lands (on the writer thread), that the ledger
    already knows every take it records: in the journaled hand, or in a settled one."""

    def __init__(self, db: str) -> None:
        super().__init__()
        self.db = db
        self.uncovered: list[str] = []
        self.takes = 0

    def write(self, text: str) -> int:
        for line in text.splitlines():
            event = json.loads(line)
            if event["event"] == "take":
                self.takes += 1
                if not self._known(event):
                    self.uncovered.append(line)
        return super().write(text)

    def _known(self, take: dict) -> bool:
        import sqlite3
        with sqlite3.connect(self.db) as con:
            settled = con.execute("SELECT 1 FROM hands WHERE number = ?", (take["hand"],)).fetchone()
            row = con.execute("SELECT value FROM journal WHERE key = 'hand'").fetchone()
        if settled is not None:
            return True
        hand = json.loads(row[0]) if row is not None else None
        return hand is not None and hand["number"] == take["hand"] and \
            any(t["slot"] == [take["ring"], take["layer"]] for t in hand["tracker"]["takes"])


def test_the_recorder_file_never_holds_a_take_the_journal_does_not_know(tmp_path):
    """A controller killed at any moment leaves a file a restart can go on from: had a take reached
    the file before the journal, the restarted controller would record it again (found by the
    fault campaign: "slot 38/bottom taken twice" across the two recorders of a resumed hand)."""
    db = str(tmp_path / "table.db")
    events = JournalCoveredLines(db)
    ruleset = get_region("changchun").resolve()
    run(run_simulated(ruleset, hands=3, seed=5, events=events, ledger_path=db, resume=True), timeout=120)
    assert events.takes > 200
    assert events.uncovered == []


def stop_when_the_motor_board_shuffles(nth: int):
    """A players hook: the controller stops as the motor board accepts its `nth` shuffle (the journal
    holds the build as begun; the board has no build yet)."""
    from drivers.motor_protocol import Shuffle

    def hook(players, stop) -> None:
        motor = players.table.motor
        handler = motor._handlers[Shuffle]
        shuffles = []

        def shuffle_then_stop(command):
            status = handler(command)
            shuffles.append(status)
            if len(shuffles) == nth:
                stop()
            return status
        motor._handlers[Shuffle] = shuffle_then_stop
    return hook


def test_a_build_begun_in_the_journal_but_not_on_the_board_is_built_after_a_restart(tmp_path):
    """The crash falls in the shuffle of the set built during hand 1: the journal holds the build as
    begun, but the motor board never had its Build, so Build resume is refused (NOT_READY).  The
    restarted controller took that for a build finished below and read every slot of an empty channel
    (found by the fault campaign: RereadSlot refused, BAD_ARGUMENT, exit 1 at every restart; on a board
    that had not rebooted, the raised walls' tiles were read as the new set).  It now asks for the
    build anew, and the board's answer says whether a set lies below."""
    db = str(tmp_path / "table.db")
    result, before, after = run(crash_and_restart("sichuan", 3, db, players_hook=stop_when_the_motor_board_shuffles(2)),
                                timeout=120)
    checks = [e for e in after if e["event"] == "set_check"]
    assert checks and all(e["ok"] for e in checks), checks
    assert not any(e["event"] == "fault" for e in after if e.get("code") in ("E07", "E08", "E09", "E10"))
    ends = [e["hand"] for e in after if e["event"] == "hand_end"]
    assert len(ends) == 2 and result.hands == 2


class StopAtLastPushOfFirstBuild:
    """A world observer: the controller stops as the first build's last tile is pushed (the board
    finishes that build alone, and its set lies on the lowered plates)."""

    def __init__(self, table, stop, tiles: int) -> None:
        self.stop = stop
        self.tiles = tiles
        self.pushes = 0
        table.world.observers.append(self)

    def tile_pushed(self, lane, tile) -> None:
        self.pushes += 1
        if self.pushes == self.tiles:
            asyncio.get_running_loop().call_soon(self.stop)

    def wall_changed(self, side, stack, tiles) -> None: ...
    def key_pressed(self, panel, key, long) -> None: ...
    def hatch_changed(self, open) -> None: ...


def test_a_first_build_finished_below_while_the_controller_was_away_is_read_where_it_lies(tmp_path):
    """The other side of the board's NOT_READY to Build resume: the set was built and lies on the
    lowered plates.  A new Build is refused too (a plate holds an earlier build's tiles), so the set is
    read where it lies, every slot, and played."""
    db = str(tmp_path / "table.db")
    tiles = 2 * sum(get_region("sichuan").resolve().stacks_per_side)
    hook = lambda players, stop: StopAtLastPushOfFirstBuild(players.table, stop, tiles)   # noqa: E731
    result, before, after = run(crash_and_restart("sichuan", 3, db, players_hook=hook), timeout=120)
    assert not any(e["event"] == "hand_start" for e in before)
    rereads = [e for e in after if e["event"] == "reread"]
    assert rereads and rereads[0]["slots"] == tiles                  # nothing of it heard: every slot read
    checks = [e for e in after if e["event"] == "set_check"]
    assert checks and all(e["ok"] for e in checks), checks
    assert [e["hand"] for e in after if e["event"] == "hand_end"] == [1, 2] and result.hands == 2


def test_a_stop_while_the_ledger_commits_a_hand_still_records_its_end(tmp_path, monkeypatch):
    """SIGTERM cancels the session while the ledger's writer commits hand 1: the ledger holds the
    hand, so the recorder must hold its `hand_end` too (found by the fault campaign's own stop at its
    end: "the ledger settled it but the recorder has no hand_end")."""
    db = str(tmp_path / "table.db")
    events = io.StringIO()
    ruleset = get_region("guangshui").resolve()
    stopped = threading.Event()
    real_record_hand = Ledger.record_hand

    async def play_and_stop() -> None:
        loop = asyncio.get_running_loop()
        controller = asyncio.create_task(run_simulated(ruleset, hands=3, seed=3, events=events, ledger_path=db))

        def cancel() -> None:
            controller.cancel()
            loop.call_soon(loop.call_soon, stopped.set)      # once the cancel has reached the waiting session

        def record_hand(ledger, *args, **kwargs):
            real_record_hand(ledger, *args, **kwargs)
            if not stopped.is_set():
                loop.call_soon_threadsafe(cancel)
                stopped.wait(10)

        monkeypatch.setattr(Ledger, "record_hand", record_hand)
        await asyncio.gather(controller, return_exceptions=True)
        assert controller.cancelled()

    run(play_and_stop(), timeout=120)
    log = events_of(events)
    ledger = Ledger(db)
    try:
        rows = ledger._db.execute("SELECT number FROM hands").fetchall()
    finally:
        ledger.close()
    assert rows == [(1,)]
    assert [e["hand"] for e in log if e["event"] == "hand_end"] == [1]
    assert audit_events(log) == []


def test_play_is_shown_only_once_the_journal_knows_the_hand_is_in_play(tmp_path):
    """长春: 请出牌 follows 亮特殊杠, and the players start playing as soon as they read it.  A kill
    before the journal knew the hand was in play brought the restarted controller back to 亮特殊杠
    with the players far into the wall (found by the campaign: a stall at 请出牌 after a SIGKILL, the
    players waiting for 最后一张 while the controller counted two live tiles more).  At the moment 请出牌
    is shown, the journal holds the hand in play."""
    from drivers.table_ui import Phase

    db = str(tmp_path / "table.db")
    journaled: list[str] = []

    def journal_phase() -> str:
        import sqlite3
        with sqlite3.connect(db) as con:
            row = con.execute("SELECT value FROM journal WHERE key = ?", (HAND_KEY,)).fetchone()
        return json.loads(row[0])["phase"] if row is not None else "none"

    def on_session(session) -> None:
        presenter = session.hub.presenter
        shown = presenter.phase

        def phase(which, detail=""):
            if which is Phase.PLAY and session.flow.hand is not None:
                journaled.append(journal_phase())
            shown(which, detail)
        presenter.phase = phase

    ruleset = get_region("changchun").resolve()
    run(run_simulated(ruleset, hands=2, seed=5, ledger_path=db, on_session=on_session), timeout=120)
    assert journaled and set(journaled) == {"playing"}, journaled


def test_a_confirm_pressed_while_no_controller_listened_does_not_answer_the_push_in(tmp_path, monkeypatch):
    """Between hands a restarted controller asks for the push-in again (with the restart note).  A 确认
    from before the restart (here pressed while no controller ran; in the campaign, a 荒庄 确认 the
    board sent again) answered it at once, before anything was pushed in: the plates, still holding
    the walls' remains, could not be lowered (NOT_READY, which ended the controller).  Keys from before
    a restart do not count between hands either; the players press again on the note."""
    import firmware.session as session_module

    left: list[list] = []
    pick_up = session_module.TableSession._pick_up

    async def picked_up(session, saved):
        found = await pick_up(session, saved)
        left.append(list(session.hub.keys.peek_all(lambda press: True)))
        return found

    monkeypatch.setattr(session_module.TableSession, "_pick_up", picked_up)

    def press_confirm(table, ruleset, events) -> None:
        table.press(0, Key.CONFIRM)

    db = str(tmp_path / "table.db")
    result, before, after = run(crash_and_restart(
        "guangshui", 3, db, lambda e: e["event"] == "hand_end" and e["hand"] == 1, meanwhile=press_confirm),
        timeout=120)
    assert left[-1] == []                       # the restarted controller's: the 确认 from before is gone
    assert [e["hand"] for e in after if e["event"] == "hand_end"] == [2, 3] and result.hands == 2


def test_a_build_is_journaled_before_the_motor_board_is_asked_for_it(tmp_path, monkeypatch):
    """The journal's note that a build began was queued, not waited for: on a slow disk the motor
    board could hold a build the journal did not know, and a controller killed then asked for a new
    Build after its restart, which the board refused (NOT_READY: the set built stood in the channels;
    exit 1, found by the campaign).  When the board accepts a Build, the journal holds it."""
    import sqlite3
    import time as clock

    from drivers.motor_protocol import Build
    from firmware.between_hands import BUILDING_KEY

    db = str(tmp_path / "table.db")
    journaled: list[bool] = []
    real_put = Ledger.journal_put

    def slow_put(ledger, key, value):
        if key == BUILDING_KEY:
            clock.sleep(0.3)                    # a slow SD card, in the store's thread
        return real_put(ledger, key, value)

    def building_journaled() -> bool:
        with sqlite3.connect(db) as con:
            return con.execute("SELECT 1 FROM journal WHERE key = ?", (BUILDING_KEY,)).fetchone() is not None

    async def play() -> None:
        ruleset = get_region("sichuan").resolve()
        table = SimulatedTable(seed=3, speed=0, tile_sets=(ruleset.tiles, ruleset.tiles))
        await table.start("pty")
        motor = table.motor
        handler = motor._handlers[Build]

        def build(command):
            if not command.resume:
                journaled.append(building_journaled())
            return handler(command)
        motor._handlers[Build] = build
        try:
            await run_simulated(ruleset, hands=2, seed=3, table=table, ledger_path=db)
        finally:
            await table.stop()

    monkeypatch.setattr(Ledger, "journal_put", slow_put)
    run(play(), timeout=120)
    assert len(journaled) >= 2 and all(journaled), journaled


def stop_after_a_press(monkeypatch, when):
    """The first controller stops just after a seat's press for which `when(table, panel, key)`
    holds: (what it holds — "stopped" once it did —, the `players_hook` for `crash_and_restart`)."""
    holder: dict = {}
    real_press = SimulatedTable.press

    def press(table, panel, key, long=False):
        real_press(table, panel, key, long)
        if isinstance(panel, int) and "stopped" not in holder and when(table, panel, key):
            holder["stopped"] = True
            holder["stop"]()

    monkeypatch.setattr(SimulatedTable, "press", press)
    return holder, lambda players, stop: holder.__setitem__("stop", stop)


def test_a_stop_as_a_special_kong_is_laid_is_followed_by_the_restart_note(tmp_path, monkeypatch):
    """长春 亮特殊杠: the controller stops as a seat presses 确认 on 摆特殊杠 (its laid set not yet
    judged).  The restarted controller resumed the reveal without the restart note (it was said only
    when resuming a deal or play), so the seat never laid its set again, or waited for replacements
    that would never be asked: a stall (the campaign, seed 7 and 8, a kill at 亮特殊杠).  The note now
    comes with a reveal resumed too, and the hand is played to its end."""
    from drivers.table_ui import LAY_SPECIAL, RESTARTED

    notes: list[str] = []

    def laid(table, panel, key) -> bool:
        if key == Key.CONFIRM and table.world.seat_displays[panel][1] == LAY_SPECIAL:
            table.display.watchers.append(lambda page, component, text: notes.append(text))
            return True
        return False

    holder, hook = stop_after_a_press(monkeypatch, laid)
    db = str(tmp_path / "table.db")
    result, before, after = run(crash_and_restart("changchun", 1, db, players_hook=hook), timeout=90)
    assert holder.get("stopped")
    resumed = next(e for e in after if e["event"] == "resumed")
    assert resumed["phase"] == "revealing"
    assert any(RESTARTED in text for text in notes)
    assert len([e for e in after if e["event"] == "hand_end"]) == 2 and result.hands == 2


def test_a_stop_after_a_move_in_a_choice_does_not_count_that_move_after_the_restart(tmp_path, monkeypatch):
    """长春 亮特殊杠: the controller stops just after the dealer presses ▶ on the `特殊杠` question,
    before it draws the next choice.  His line still says `特殊杠:无`, so on the restart note he
    presses ▶ again; that ▶ reached the restarted controller just before its question was on the
    line, and counted: the question was one step past what he saw, his 确认 chose another kind than
    the set he laid — refused, and the table stalled (the fault campaign, about once in 25 runs).
    A key pressed before the question is on the line moves nothing; the hand is played to its end."""
    from drivers.table_ui import SPECIAL_KONG

    def moved(table, panel, key) -> bool:
        choice = parse_choice(table.world.seat_displays[panel][1])
        return key == Key.RIGHT and choice is not None and choice[0] == SPECIAL_KONG

    holder, hook = stop_after_a_press(monkeypatch, moved)
    db = str(tmp_path / "table.db")
    result, before, after = run(crash_and_restart("changchun", 1, db, players_hook=hook), timeout=90)
    assert holder.get("stopped")
    assert next(e for e in after if e["event"] == "resumed")["phase"] == "revealing"
    refused = [e for e in after if e["event"] == "special_kong" and not e.get("accepted", True)]
    assert not refused, refused
    assert len([e for e in after if e["event"] == "hand_end"]) == 2 and result.hands == 2


def test_a_finished_build_is_never_out_of_the_journal_between_two_writes(monkeypatch):
    """A build that passed its check left the journal in two writes — its "begun" dropped, then the set
    put as the next — and a SIGKILL between them left a restarted controller knowing of no set below:
    it asked for a new Build, the board refused (NOT_READY: the set lay below) and the controller
    stopped (exit 1, found by the campaign, 广东).  After every journal write, a build that was begun
    is still named: begun, built (the next set) or rejected."""
    from firmware.between_hands import BUILDING_KEY, NEXT_SET_KEY, REJECTED_KEY

    states: list[frozenset[str]] = []
    named = {BUILDING_KEY, NEXT_SET_KEY, REJECTED_KEY}

    def noting(write):
        def wrapped(ledger, *args):
            result = write(ledger, *args)
            states.append(frozenset(ledger.journal()) & named)
            return result
        return wrapped

    for name in ("journal_put", "journal_swap", "journal_drop"):
        monkeypatch.setattr(Ledger, name, noting(getattr(Ledger, name)))
    run(run_simulated(get_region("guangdong").resolve(), hands=3, seed=5), timeout=120)
    gaps = [n for n, (before, after) in enumerate(zip(states, states[1:])) if BUILDING_KEY in before and not after]
    assert states and BUILDING_KEY in set().union(*states) and gaps == [], (gaps, states)


def test_a_set_below_that_the_journal_does_not_name_is_read_where_it_lies(tmp_path, monkeypatch):
    """Behind the mend above: should a restarted controller still not know of a set lying below (here
    the journal is made to lose the second set as the two writes did), the board's NOT_READY to its
    Build no longer stops the controller: the set is read where it lies and checked, with a warning."""
    from firmware.between_hands import BUILDING_KEY, NEXT_SET_KEY

    db = str(tmp_path / "table.db")
    real_swap = Ledger.journal_swap
    builds: list[int] = []

    def forgetting_swap(ledger, put, drop=()):
        if NEXT_SET_KEY in put and BUILDING_KEY in drop:
            builds.append(1)
            if len(builds) == 2:        # the set built during hand 1: its "begun" dropped, itself never put
                put = {key: value for key, value in put.items() if key != NEXT_SET_KEY}
        return real_swap(ledger, put, drop)

    checks = []

    def second_checked(event: dict) -> bool:
        if event["event"] == "set_check":
            checks.append(event)
        return len(checks) == 2

    monkeypatch.setattr(Ledger, "journal_swap", forgetting_swap)
    result, before, after = run(crash_and_restart("sichuan", 3, db, stop_when=second_checked), timeout=120)
    warnings = [e["message"] for e in after if e["event"] == "warning" and "did not know" in e["message"]]
    assert warnings and "NOT_READY" in warnings[0]
    assert all(e["ok"] for e in after if e["event"] == "set_check")
    assert len([e for e in after if e["event"] == "hand_end"]) == 2 and result.hands == 2



def test_a_restart_at_the_push_in_takes_the_confirm_pressed_on_its_note(tmp_path, monkeypatch):
    """A controller stopped with the centre open for the push-in: the restarted one asks for it again
    with the restart note, and opens the centre, which is open already. The players push (nothing left)
    and press 确认 on the note. A restarted controller that had not heard yet where the centre stood
    (here its board's snapshot leaves the centre out; in the campaign the card was full as it started)
    heard that 确认 before the centre's report, counted it as pressed before the centre opened, dropped
    it, and waited at the push-in for ever (campaign 510013, 百搭)."""
    from drivers.motor_protocol import Lift, LiftMoved
    from drivers.table_ui import Phase
    from simulator.motor_board import MotorBoardSim

    real_emit = MotorBoardSim.emit

    def emit(board, message):
        if isinstance(message, LiftMoved) and message.lift == Lift.CENTRE and emit.in_snapshot:
            return                                  # the snapshot says nothing of the centre
        real_emit(board, message)
    emit.in_snapshot = False
    real_snapshot = MotorBoardSim._snapshot

    def snapshot(board, command):
        emit.in_snapshot = True
        try:
            return real_snapshot(board, command)
        finally:
            emit.in_snapshot = False
    monkeypatch.setattr(MotorBoardSim, "emit", emit)
    monkeypatch.setattr(MotorBoardSim, "_snapshot", snapshot)

    def at_the_push_in(table) -> bool:
        return table.world.centre == LiftPosition.DOWN and \
            table.display.text("main", "t_msg").startswith(Phase.PUSH_IN.value)

    result, before, after = run(crash_and_restart("guangshui", 3, str(tmp_path / "table.db"),
                                                  crash_when=at_the_push_in), timeout=120)
    assert result.hands == 2
    assert not [e for e in after if e["event"] == "keys_dropped" and e["why"] == "before_push_in"]


def test_a_dadan_round_cut_by_a_crash_is_asked_again_and_settled_once(tmp_path):
    """长春 with dadan=laid: the controller dies while a kong seat is laying its 暗杠 (亮暗杠后确认).  The
    restarted one asks the kong seats again from the first read (its journal never held the round),
    the players lay their kongs again, and the hand is settled once, its round audited sound."""
    def laying_kongs(table) -> bool:
        return any(line == LAY_CLOSED_KONGS for _, line in table.world.seat_displays)

    db = str(tmp_path / "table.db")
    result, before, after = run(crash_and_restart("changchun", 3, db, crash_when=laying_kongs,
                                                  options={"dadan": "laid"}), timeout=180)
    number = next(e for e in after if e["event"] == "resumed")["hand"]
    assert not any(e["event"] in ("settlement", "hand_end") and e["hand"] == number for e in before)
    rounds = [e for e in after if e["event"] == "settlement" and e["hand"] == number]
    assert len(rounds) == 1 and rounds[0]["seats"]
    assert all(h["shown"] for h in rounds[0]["hands"])       # every kong seat laid its kongs again
    assert [e["hand"] for e in after if e["event"] == "hand_end"] == [number, number + 1] and result.hands == 2
    assert audit_one_hand([e for e in before + after if e["hand"] == number]) == []
