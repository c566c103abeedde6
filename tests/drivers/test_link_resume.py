"""A lost link is an episode: the host resumes the board's session, and nothing sent or pressed
while the link was down is lost or done twice (protocol.md §3.1 RESUME, §3.5)."""

from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass, field

import pytest

from drivers.board_link import BoardLink, BoardLinkConfig
from drivers.errors import BoardReset, LinkLost, NoResponse, SessionLost
from drivers.link import LinkConfig, SessionRef
from drivers.messages import BoardIdentity, BoardKind, EventsDropped, SessionAnswer, SessionState, Status
from drivers.motor import MotorBoard
from drivers.motor_protocol import Key, KeyPressed, SeatText
from drivers.reconnect import Backoff, Reconnected, reconnect
from drivers.stream import MemoryStream, memory_pair
from simulator.endpoints import PtyEndpoint
from simulator.faults import WireFaults
from simulator.wire import FaultyWire
from tests.asyncio_support import run

pytestmark = pytest.mark.timeout(60)


@dataclass
class Bench:
    """A motor board client, and a board link behind a faulty in-memory wire."""

    motor: MotorBoard
    board: BoardLink
    wire: FaultyWire
    board_end: MemoryStream
    ran: list[str] = field(default_factory=list)            # the seat texts the board ran, in order
    host_lost: list[float] = field(default_factory=list)    # when the board saw the host go quiet

    def new_host_end(self) -> MemoryStream:
        """Another host's end of the board's wire (the old host closed its own): a restart."""
        host_end = MemoryStream("memory:host")
        host_end.peer, self.board_end.peer = self.board_end, host_end
        return host_end

    async def lose(self) -> None:
        """The cable is cut (and stays cut); returns once the host has found the link lost."""
        self.wire.faults.silent = True
        with pytest.raises(LinkLost):
            await self.motor.next_event()

    async def close(self) -> None:
        await self.motor.close()
        self.board.stop()
        await self.wire.close()


def bench(*, on_command=lambda text: None, board_config: BoardLinkConfig = BoardLinkConfig(),
          config: LinkConfig = LinkConfig()) -> Bench:
    host_end, board_end = memory_pair("memory:host", "memory:board")
    wire = FaultyWire(board_end, WireFaults(), random.Random(1))
    loop = asyncio.get_running_loop()
    ran: list[str] = []
    host_lost: list[float] = []

    def handler(msg: int, payload: bytes) -> int:
        text = SeatText.decode_payload(payload).text
        ran.append(text)
        on_command(text)
        return Status.OK

    board = BoardLink(wire, kind=BoardKind.MOTOR, build="test motor 1", constants={1: 4, 2: 20, 9: 100},
                      boot_counter=7, handler=handler, config=board_config,
                      on_host_lost=lambda: host_lost.append(loop.time()))
    board.start()
    return Bench(MotorBoard(host_end, config=config), board, wire, board_end, ran, host_lost)


def cut(wire: FaultyWire, seconds: float, then=lambda: None) -> None:
    """The cable is cut now and whole again after `seconds` (then `then()` runs)."""
    wire.faults.silent = True

    def mend() -> None:
        wire.faults.silent = False
        then()
    asyncio.get_running_loop().call_later(seconds, mend)


async def read_events(client, count: int, outcomes: list[Reconnected]) -> list:
    """What a controller does: read events in order; on a lost link, reconnect and read on."""
    got = []
    while len(got) < count:
        try:
            got.append(await client.next_event())
        except LinkLost:
            outcomes.append(await reconnect(client))
    return got


def press(board: BoardLink, first: int, count: int) -> list[KeyPressed]:
    """`count` key presses, numbered through the panel field (0–3) and the key (1–11)."""
    presses = [KeyPressed(n % 4, Key(1 + n % 11)) for n in range(first, first + count)]
    for event in presses:
        board.emit(event)
    return presses


@pytest.mark.parametrize("outage", [0.2, 1.0, 5.0])
def test_an_outage_loses_no_command_and_no_event_and_does_none_twice(outage):
    """The cable is cut just as the board runs a command (its ACK is lost), with more commands
    in flight and waiting, and the board keeps emitting events while no host hears it."""
    async def main():
        expected: list[KeyPressed] = []

        def on_command(text: str) -> None:
            if text == "c3":
                expected.extend(press(b.board, 0, 10))     # sent into the cut
                cut(b.wire, outage, then=lambda: expected.extend(press(b.board, 30, 5)))
                asyncio.get_running_loop().call_later(outage / 2, lambda: expected.extend(press(b.board, 10, 20)))

        b = bench(on_command=on_command, config=LinkConfig(hold_for=0.3))   # the helper keeps them held
        await b.motor.connect()
        commands = asyncio.gather(*(b.motor.seat_text(0, 0, f"c{i}") for i in range(10)))
        outcomes: list[Reconnected] = []
        events = await read_events(b.motor, 35, outcomes)
        await commands
        late = [b.motor.seat_text(1, 0, f"after {i}") for i in range(3)]   # the link works on
        await asyncio.gather(*late)
        assert b.ran == [f"c{i}" for i in range(10)] + [f"after {i}" for i in range(3)]
        assert events == expected                                       # each once, in order
        if outage >= 1.0:      # longer than the link timeout: lost, resumed, the board safe-stopped
            assert outcomes and all(o.resumed and not o.rebooted for o in outcomes)
            assert b.host_lost and b.motor.statistics().resumptions == len(outcomes)
        assert b.board.counters.duplicates >= 1                         # c3 came again: not run again
        await b.close()
    run(main(), timeout=40)


def test_commands_sent_while_the_link_is_lost_wait_and_run_once_after_the_reconnection():
    async def main():
        b = bench()
        await b.motor.connect()
        await b.lose()
        waiting = asyncio.gather(*(b.motor.seat_text(2, 1, f"w{i}") for i in range(7)))
        b.wire.faults.silent = False
        outcome = await reconnect(b.motor)
        await waiting
        assert outcome.resumed and b.ran == [f"w{i}" for i in range(7)]
        await b.close()
    run(main())


def test_commands_held_with_no_reconnection_under_way_fail_with_the_lost_link():
    """A held command does not wait forever for a reconnection nobody attempts."""
    async def main():
        b = bench(config=LinkConfig(hold_for=0.2))
        await b.motor.connect()
        held = asyncio.ensure_future(b.motor.seat_text(0, 0, "nobody reconnects"))
        await b.lose()
        with pytest.raises(LinkLost, match="link lost"):
            await held
        with pytest.raises(LinkLost):                      # and new ones are refused at once
            await b.motor.seat_text(0, 0, "refused")
        b.wire.faults.silent = False
        assert (await reconnect(b.motor)).resumed           # a later reconnection still resumes
        await b.motor.seat_text(0, 0, "after")
        assert b.ran == ["after"]
        await b.close()
    run(main())


def test_a_command_failed_after_the_board_ran_it_is_not_run_again_when_the_session_resumes():
    async def main():
        def on_command(text: str) -> None:
            if text == "ran, unacknowledged":
                b.wire.faults.silent = True             # its ACK is lost
        b = bench(on_command=on_command, config=LinkConfig(hold_for=0.2))
        await b.motor.connect()
        with pytest.raises(LinkLost):
            await b.motor.seat_text(0, 0, "ran, unacknowledged")    # failed: it may have run
        b.wire.faults.silent = False
        assert (await reconnect(b.motor)).resumed
        await b.motor.seat_text(0, 0, "next")
        assert b.ran == ["ran, unacknowledged", "next"]
        await b.close()
    run(main())


def test_a_long_outage_fills_the_boards_queue_it_refuses_new_events_keeps_those_held_and_says_so():
    """A board never drops an event it holds (the host may not have made it durable yet): once its
    queue is full a new one is refused, and the count refused follows the held ones in band."""
    async def main():
        b = bench(board_config=BoardLinkConfig(queue_capacity=10))
        await b.motor.connect()
        await b.lose()
        sent = press(b.board, 0, 50)
        assert b.board.counters.events_refused == 8 and b.board.unacked_events == 42
        b.wire.faults.silent = False
        outcomes: list[Reconnected] = []
        events = await read_events(b.motor, 43, outcomes)
        assert outcomes[0].resumed
        assert events[:42] == sent[:42] and events[42] == EventsDropped(8)
        await b.close()
    run(main())


def test_a_rebooted_board_refuses_the_resumption_and_commands_in_flight_fail_with_board_reset():
    async def main():
        b = bench()
        await b.motor.connect()
        in_flight = asyncio.ensure_future(b.motor.seat_text(0, 0, "lost with the board's RAM"))
        await b.lose()
        b.board.reboot(8)                      # its BOOT is lost in the cut cable
        b.wire.faults.silent = False
        outcome = await reconnect(b.motor)
        assert not outcome.resumed and outcome.rebooted and (outcome.old_boot, outcome.new_boot) == (7, 8)
        with pytest.raises(BoardReset, match="7 -> 8"):
            await in_flight
        assert b.ran == []
        await b.motor.seat_text(0, 0, "a new session")            # the new session works
        assert b.ran == ["a new session"] and b.motor.link.session_ref.boot_counter == 8
        await b.close()
    run(main())


def test_a_command_sent_while_a_rebooted_board_is_not_answering_yet_waits_as_for_any_lost_link():
    """The board rebooted: the resumption is refused, and the new session's HELLO goes unanswered
    for a while (the host was frozen past the handshake's time, the board still starting).  A
    command sent between two attempts fails as a lost link does (SessionLost: send it again once the
    link is back), not with the handshake's NoResponse, which the controller takes for a board that
    was never there and stops the table for (the fault campaign, 河北 seed 60067).  The next attempt
    opens the new session (it had failed with "not connected": there was no session to resume)."""
    async def main():
        b = bench(config=LinkConfig(hello_timeout=0.05, hello_interval=0.02))
        await b.motor.connect()
        await b.lose()
        b.board.reboot(8)
        answer_hello = b.board._on_hello
        b.board._on_hello = lambda frame: None           # starting up: HELLO goes unanswered
        b.wire.faults.silent = False
        failed = asyncio.Event()
        task = asyncio.ensure_future(reconnect(b.motor, backoff=Backoff(first=0.05, most=0.05),
                                               on_attempt=lambda attempt: attempt.error and failed.set()))
        await failed.wait()
        with pytest.raises(SessionLost):
            await b.motor.seat_text(0, 0, "between two attempts")
        b.board._on_hello = answer_hello
        outcome = await task
        assert not outcome.resumed and outcome.rebooted
        await b.motor.seat_text(0, 0, "sent again")
        assert b.ran == ["sent again"]
        await b.close()
    run(main())


def test_a_board_that_no_longer_holds_the_session_gets_a_new_one_and_says_so():
    async def main():
        b = bench()
        await b.motor.connect()
        mine = b.motor.link.session
        in_flight = asyncio.ensure_future(b.motor.seat_text(0, 0, "never"))
        await b.lose()
        b.board.session = mine ^ 0x4242        # another host's handshake came meanwhile
        b.wire.faults.silent = False
        outcome = await reconnect(b.motor)
        assert not outcome.resumed and not outcome.rebooted
        with pytest.raises(SessionLost, match="no longer holds this session"):
            await in_flight
        assert b.motor.link.session == b.board.session and b.motor.link.session not in (mine, mine ^ 0x4242)
        assert b.ran == []
        await b.close()
    run(main())


def test_a_new_host_resumes_a_session_it_did_not_open_and_gets_the_keys_pressed_meanwhile():
    """What a restarted controller does: the first process journaled `session_ref`; the second
    opens the same port and resumes it.  A key pressed while no host was there arrives once."""
    async def main():
        endpoint = PtyEndpoint()
        wire = FaultyWire(endpoint, WireFaults(), random.Random(2))
        ran: list[str] = []
        quiet = asyncio.Event()
        board = BoardLink(wire, kind=BoardKind.MOTOR, build="test motor 1", constants={9: 100},
                          boot_counter=3, handler=lambda m, p: ran.append(SeatText.decode_payload(p).text) or 0,
                          on_host_lost=quiet.set)
        board.start()
        first = await MotorBoard.open(endpoint.path)
        journal = first.link.session_ref
        await first.seat_text(0, 0, "one")
        board.emit(KeyPressed(0, Key.HU))
        assert await first.next_event(5) == KeyPressed(0, Key.HU)
        while board.unacked_events:            # the first process acknowledged what it received
            await asyncio.sleep(0.01)
        await first.close()                    # the controller stops (kill -9, a restart)
        await quiet.wait()                     # the board safe-stops: its host went quiet
        board.emit(KeyPressed(2, Key.CONFIRM))  # a player presses 确认 meanwhile
        board.emit(KeyPressed(3, Key.CONFIRM))
        second = await MotorBoard.open(endpoint.path, session=journal)
        assert second.identity.resumed and second.link.session == journal.session
        assert await second.next_event(5) == KeyPressed(2, Key.CONFIRM)
        assert await second.next_event(5) == KeyPressed(3, Key.CONFIRM)
        await second.seat_text(0, 0, "two")    # command numbering continues where the board is
        assert ran == ["one", "two"] and second.pending_events() == []
        assert second.statistics().resumptions == 1
        await second.close()
        board.stop()
        await wire.close()
    run(main(), timeout=30)


def test_a_new_host_whose_board_rebooted_opens_a_new_session_and_is_told():
    async def main():
        b = bench()
        await b.motor.connect()
        journal = b.motor.link.session_ref
        await b.motor.close()                  # the controller stops …
        b.board.reboot(8)                      # … and the board reboots meanwhile
        restarted = MotorBoard(b.new_host_end())
        identity = await restarted.connect(journal)
        assert not identity.resumed and identity.boot_counter == 8
        assert restarted.link.session_ref == SessionRef(b.board.session, 8)
        await restarted.seat_text(0, 0, "works")
        assert b.ran == ["works"]
        await restarted.close()
        b.board.stop()
        await b.wire.close()
    run(main())


def test_a_session_id_alone_resumes_and_an_unknown_one_opens_a_new_session():
    async def main():
        b = bench()
        await b.motor.connect()
        session = b.motor.link.session
        await b.motor.seat_text(0, 0, "first")
        await b.motor.close()
        second = MotorBoard(b.new_host_end())
        assert (await second.connect(session)).resumed
        await second.seat_text(0, 0, "second")
        await second.close()
        third = MotorBoard(b.new_host_end())
        unknown = session ^ 0x5555
        identity = await third.connect(unknown)
        assert not identity.resumed and third.link.session not in (0, session)
        await third.seat_text(0, 0, "third")
        assert b.ran == ["first", "second", "third"]
        await third.close()
        b.board.stop()
        await b.wire.close()
    run(main())


def test_the_reconnect_helper_backs_off_reports_each_attempt_and_leaves_nothing_when_cancelled():
    async def main():
        b = bench(config=LinkConfig(hello_timeout=0.05, hello_interval=0.02))
        await b.motor.connect()
        await b.lose()
        attempts = []
        third = asyncio.Event()

        def heard(attempt):
            attempts.append(attempt)
            if len(attempts) == 3:
                third.set()
        task = asyncio.ensure_future(reconnect(b.motor, backoff=Backoff(first=0.01, most=0.02), on_attempt=heard))
        await third.wait()
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        assert [a.number for a in attempts] == [1, 2, 3]
        assert [a.retry_in for a in attempts] == [0.01, 0.02, 0.02]
        assert all(isinstance(a.error, NoResponse) and not a.reopened for a in attempts)
        with pytest.raises(NoResponse):        # a bounded number of attempts raises the last error
            await reconnect(b.motor, backoff=Backoff(first=0.01, attempts=2))
        await b.close()
    run(main())


def test_backoff_doubles_from_a_tenth_of_a_second_to_two_seconds():
    assert [Backoff().delay(n) for n in range(1, 8)] == [0.1, 0.2, 0.4, 0.8, 1.6, 2.0, 2.0]


def test_ident_carries_the_session_block_and_an_older_ident_without_it_still_reads():
    state = SessionState(SessionAnswer.RESUMED, 17, 250)
    identity = BoardIdentity(2, 1, 9, 0x1234, 0, "b", {9: 100}, state)
    again = BoardIdentity.decode(identity.encode())
    assert again.state == state and again.resumed and again.can_resume
    older = BoardIdentity(2, 1, 9, 0x1234, 0, "b", {9: 100})
    assert BoardIdentity.decode(older.encode()).state is None          # cannot resume
    assert not BoardIdentity.decode(older.encode()).resumed
    longer = BoardIdentity.decode(identity.encode() + b"\x07\x08")     # a later field: ignored
    assert longer.state == state


@pytest.mark.soak
@pytest.mark.timeout(600)
def test_soak_many_outages_on_a_damaged_wire_lose_nothing_and_do_nothing_twice():
    """30 outages of 0.2–3 s (seeded), the wire corrupting, dropping and duplicating 5% of the
    frames throughout, commands and key presses streaming all the while."""
    async def main():
        rng = random.Random(10)
        b = bench(config=LinkConfig(hold_for=0.5))
        for name in ("corrupt", "drop", "duplicate"):
            setattr(b.wire.faults, name, 0.05)
        await b.motor.connect()
        expected: list[KeyPressed] = []
        outcomes: list[Reconnected] = []
        sent = 0

        async def commands() -> None:
            nonlocal sent
            while True:
                await b.motor.seat_text(sent % 4, 0, f"s{sent}")
                sent += 1

        async def outages() -> None:
            for n in range(30):
                mended = asyncio.Event()
                cut(b.wire, rng.uniform(0.2, 3.0), then=mended.set)
                expected.extend(press(b.board, 5 * n, 5))
                await mended.wait()
                await asyncio.sleep(rng.uniform(0.5, 1.0))   # the link at work between outages

        sender = asyncio.ensure_future(commands())
        cutter = asyncio.ensure_future(outages())
        got = await read_events(b.motor, 30 * 5, outcomes)
        await cutter
        sender.cancel()
        await asyncio.gather(sender, return_exceptions=True)
        assert got == expected and len(outcomes) >= 10 and all(o.resumed for o in outcomes)
        assert b.ran[:sent] == [f"s{i}" for i in range(sent)]                # each once, in order
        assert len(b.ran) <= sent + 1                                        # the cancelled one at most
        await b.close()
    run(main(), timeout=580)
