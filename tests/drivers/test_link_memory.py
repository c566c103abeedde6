"""The link's rules, over an in-memory wire with the simulator's faults in between."""

import asyncio

import pytest

from drivers.board_link import BoardLinkConfig
from drivers.errors import (BoardReset, LinkClosed, LinkError, LinkLost, NoResponse,
                            ProtocolVersionMismatch, WrongBoard)
from drivers.link import LinkConfig
from drivers.messages import PROTOCOL_VERSION, BoardKind, EventsDropped, FaultRaised, Status
from simulator.faults import WireFaults
from tests.asyncio_support import run
from tests.drivers.conftest import memory_link

pytestmark = pytest.mark.timeout(60)


def test_handshake_reports_identity_and_constants():
    async def main():
        pair = memory_link()
        identity = await pair.host.connect()
        assert (identity.version, identity.kind, identity.boot_counter, identity.build) == (
            PROTOCOL_VERSION, BoardKind.MOTOR, 7, "test board 1")
        assert identity.constants[2] == 20
        await pair.close()
    run(main())


def test_a_version_1_board_is_refused_by_name_though_it_cannot_read_our_frames():
    """A version-1 board speaks frame format 1: it answers only the host's format-1 probe, and
    the host names its version instead of reporting no answer."""
    async def main():
        pair = memory_link(version=1)
        with pytest.raises(ProtocolVersionMismatch) as caught:
            await pair.host.connect()
        message = str(caught.value)
        assert ("speaks protocol version 1, this controller speaks version 2: update the board "
                "firmware") in message and "\n" not in message
        assert pair.received == [] and pair.board.session == 0  # the board opened no session
        await pair.close()
    run(main())


def test_a_newer_board_is_refused_with_a_clear_message():
    async def main():
        pair = memory_link(version=3)
        with pytest.raises(ProtocolVersionMismatch) as caught:
            await pair.host.connect()
        message = str(caught.value)
        assert "protocol version 3" in message and "version 2" in message
        assert "update the controller software" in message and "\n" not in message
        with pytest.raises(ProtocolVersionMismatch):
            await pair.host.command(0x10, b"")
        assert pair.received == [] and pair.board.session == 0  # the board opened no session
        await pair.close()
    run(main())


def test_wrong_board_kind_is_refused():
    async def main():
        pair = memory_link(kind=BoardKind.RFID, expected=BoardKind.MOTOR)
        with pytest.raises(WrongBoard, match="RFID board, not the MOTOR board"):
            await pair.host.connect()
        await pair.close()
    run(main())


def test_no_answer_is_a_clear_no_response():
    async def main():
        pair = memory_link(faults=WireFaults(silent=True), config=LinkConfig(hello_timeout=0.3))
        with pytest.raises(NoResponse, match="no answer from test board"):
            await pair.host.connect()
        await pair.close()
    run(main())


def test_every_command_and_event_exactly_once_in_order_under_heavy_faults():
    async def main():
        faults = WireFaults(corrupt=0.1, drop=0.1, duplicate=0.1, delay=0.05, delay_ms=20)
        pair = memory_link(faults=faults, status=lambda msg, payload: payload[0] % 3)
        await pair.host.connect()
        payloads = [i.to_bytes(2, "big") for i in range(400)]
        statuses = await asyncio.gather(*(pair.host.command(0x10, p) for p in payloads))
        assert [p for _, p in pair.received] == payloads          # exactly once, in order
        assert statuses == [p[0] % 3 for p in payloads]           # each its own status
        for i in range(300):
            pair.board.emit(FaultRaised(1, i % 256, i))
        while len(pair.events) < 300:
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.1)
        details = [FaultRaised.decode_payload(p).detail for _, p in pair.events]
        assert details == list(range(300))
        stats = pair.host.statistics()
        assert stats.retransmits > 0 and stats.resend_requests > 0 and pair.failures == []
        await pair.close()
    run(main(), timeout=40)


def test_rtt_is_measured_and_rto_adapts():
    async def main():
        pair = memory_link()
        await pair.host.connect()
        for _ in range(20):
            await pair.host.command(0x10, b"x")
        stats = pair.host.statistics()
        assert stats.srtt_ms is not None and stats.srtt_ms < 50
        assert stats.rto_ms == pytest.approx(20.0)  # clamped to rto_min on a fast wire
        await pair.close()
    run(main())


def test_heartbeat_loss_is_detected_within_a_second():
    async def main():
        pair = memory_link()
        await pair.host.connect()
        await asyncio.sleep(0.3)
        loop = asyncio.get_running_loop()
        pair.wire.faults.silent = True
        started = loop.time()
        while not pair.failures:
            await asyncio.sleep(0.01)
        assert isinstance(pair.failures[0], LinkLost)
        assert loop.time() - started < 1.0
        assert pair.host.statistics().heartbeat_misses >= 3
        # The board also noticed the host went quiet (safe stop).
        while not pair.host_lost:
            await asyncio.sleep(0.01)
        assert pair.host_lost[0] - started < 1.0
        await pair.close()
    run(main())


def test_board_reset_mid_session_is_detected_by_its_boot_counter():
    async def main():
        pair = memory_link()
        await pair.host.connect()
        await pair.host.command(0x10, b"a")
        pair.board.reboot(8)
        while not pair.failures:
            await asyncio.sleep(0.01)
        error = pair.failures[0]
        assert isinstance(error, BoardReset) and (error.old_boot, error.new_boot) == (7, 8)
        assert "rebooted" in str(error) and "7 -> 8" in str(error)
        with pytest.raises(BoardReset):
            await pair.host.command(0x10, b"b")
        # Reconnecting starts a fresh session with the new boot counter.
        identity = await pair.host.connect()
        assert identity.boot_counter == 8
        assert await pair.host.command(0x10, b"c") == Status.OK
        await pair.close()
    run(main())


async def lost_with_a_command(pair, payload: bytes) -> asyncio.Future:
    """Connect, cut the wire with a command in flight, and return it once the link is lost."""
    await pair.host.connect()
    pair.wire.faults.silent = True
    command = asyncio.ensure_future(pair.host.command(0x10, payload))
    while not pair.failures:
        await asyncio.sleep(0.01)
    return command


def test_retransmissions_are_bounded_and_the_command_is_held_for_a_reconnection():
    async def main():
        pair = memory_link(config=LinkConfig(max_retransmits=2, link_timeout=30))
        command = await lost_with_a_command(pair, b"lost")
        assert isinstance(pair.failures[0], LinkLost) and "after 2 retransmissions" in str(pair.failures[0])
        assert not command.done()                       # held: the lost link is an episode
        pair.wire.faults.silent = False
        assert (await pair.host.reconnect()).resumed
        assert await command == Status.OK and pair.received == [(0x10, b"lost")]
        await pair.close()
    run(main())


def test_closing_a_lost_link_fails_its_held_commands():
    async def main():
        pair = memory_link(config=LinkConfig(max_retransmits=1, link_timeout=30))
        command = await lost_with_a_command(pair, b"never")
        await pair.close()
        with pytest.raises(LinkClosed):
            await command
    run(main())


def test_event_queue_overflow_refuses_new_events_and_reports_them_in_band():
    """A full queue keeps every event it holds (the host may not have made them durable yet): the
    newest are refused, and their count follows the events held."""
    async def main():
        pair = memory_link(board_config=BoardLinkConfig(queue_capacity=10))
        await pair.host.connect()
        pair.wire.faults.silent = True
        for i in range(50):
            pair.board.emit(FaultRaised(1, 0, i))
        pair.wire.faults.silent = False
        while len(pair.events) < 43:
            await asyncio.sleep(0.01)
        kinds = [msg for msg, _ in pair.events]
        assert kinds.count(EventsDropped.ID) == 1
        dropped = EventsDropped.decode_payload(pair.events[kinds.index(EventsDropped.ID)][1])
        assert dropped.count == 8
        details = [FaultRaised.decode_payload(p).detail for m, p in pair.events if m == FaultRaised.ID]
        assert details == list(range(42))                # the window's 32 and the queue's 10: none held is lost
        assert kinds.index(EventsDropped.ID) == len(kinds) - 1     # told behind them
        await pair.close()
    run(main())


def test_commands_before_the_handshake_are_refused():
    async def main():
        pair = memory_link()
        with pytest.raises(LinkError, match="not connected"):
            await pair.host.command(0x10, b"")
        await pair.close()
    run(main())


def test_a_boot_with_an_unchanged_counter_is_a_reboot_said_as_the_firmware_s_fault():
    """A BOOT is sent at power-up only: the board rebooted whatever its counter says; one that did not
    move says the firmware does not keep it (before: "rebooted (boot counter 1 -> 1)")."""
    from drivers.errors import BoardReset
    assert "boot counter 1 -> 2" in str(BoardReset("motor board at x", 1, 2))
    same = str(BoardReset("motor board at x", 1, 1))
    assert "1 -> 1" not in same and "it said BOOT, its boot counter still 1: its firmware does not keep the counter" \
        in same


@pytest.mark.parametrize("constants, named", [({1: 4, 2: 0, 9: 100}, "STACK_CAPACITY 0, where this controller "
                                                                    "works with 1–64"),
                                               ({1: 4, 2: 20, 9: 100, 11: 0}, "SEAT_TEXT_BYTES 0")])
def test_a_board_reporting_a_constant_the_host_cannot_work_with_is_refused_by_name(constants, named):
    """A stack capacity of 0 had every build refused as "this table cannot play these rules"; seat
    lines of 0 bytes cut every prompt to nothing, and the players saw no question."""
    from drivers.errors import BoardIncompatible

    async def main():
        pair = memory_link(constants=constants)
        with pytest.raises(BoardIncompatible, match=named):
            await pair.host.connect()
        await pair.close()
    run(main())


def test_a_loop_held_by_the_host_counts_no_missed_heartbeat():
    """The controller's own stall (a slow Pi, a long step) made the board's beats late to read: each
    counted as a missed heartbeat, logged as link trouble that sent the technician to the cable (a
    probe). A beat tick that ran late judges nothing: the next one does."""
    async def main():
        import time
        pair = memory_link()
        await pair.host.connect()
        stats = pair.host.statistics
        start = stats().frames_received
        while stats().frames_received < start + 3:           # the board's beats heard, as usual
            await asyncio.sleep(0.01)
        before = stats().heartbeat_misses
        sent, received = stats().frames_sent, stats().frames_received
        time.sleep(0.35)                                     # the host's loop held (under the link timeout)
        while stats().frames_sent < sent + 3 or stats().frames_received < received + 3:
            await asyncio.sleep(0.01)
        assert stats().heartbeat_misses == before and pair.failures == []
        await pair.close()
    run(main())


def test_a_command_is_resent_one_rto_after_it_was_sent_though_an_earlier_deadline_was_pending():
    """The RTO timer is left armed for an acknowledged command's deadline (it is re-armed lazily,
    not at every ACK): the next command is still resent one RTO after it was sent, never at the
    older deadline."""
    async def main():
        rto = 0.25
        pair = memory_link(config=LinkConfig(rto_initial=rto, rto_min=rto, rto_max=rto, link_timeout=30))
        loop = asyncio.get_running_loop()
        await pair.host.connect()
        await pair.host.command(0x10, b"first")           # its deadline, one RTO on, stays armed
        await asyncio.sleep(rto / 2)
        pair.wire.faults.silent = True
        sent = loop.time()
        command = asyncio.ensure_future(pair.host.command(0x10, b"second"))
        while pair.host.statistics().retransmits == 0:
            await asyncio.sleep(0.005)
        assert loop.time() - sent >= rto
        pair.wire.faults.silent = False
        assert await command == Status.OK
        await pair.close()
    run(main())


def test_the_trouble_count_is_the_sum_of_the_trouble_counters_and_grows_with_them():
    """`trouble()` tells a watcher that nothing went wrong since it last looked without building the
    statistics: it is the sum of the counters the controller's log watches (firmware.table_log)."""
    from drivers.link import TROUBLE_COUNTERS
    from firmware.table_log import TROUBLE

    def summed(stats):
        return sum(getattr(stats, name) for name in TROUBLE_COUNTERS)

    async def main():
        assert set(TROUBLE_COUNTERS) == set(TROUBLE)
        clean = memory_link()
        await clean.host.connect()
        for i in range(20):
            await clean.host.command(0x10, bytes([i]))
        assert clean.host.trouble() == 0 == summed(clean.host.statistics())
        await clean.close()
        faults = WireFaults(corrupt=0.1, drop=0.1, duplicate=0.1)
        pair = memory_link(faults=faults)
        await pair.host.connect()
        await asyncio.gather(*(pair.host.command(0x10, bytes([i])) for i in range(100)))
        for i in range(100):
            pair.board.emit(FaultRaised(1, 0, i))
        while len(pair.events) < 100:
            await asyncio.sleep(0.01)
        trouble = pair.host.trouble()
        assert trouble > 0 and trouble == summed(pair.host.statistics())
        await pair.close()
    run(main(), timeout=30)
