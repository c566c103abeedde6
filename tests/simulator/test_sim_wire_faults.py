"""The wire, silence and reset faults of the `--fault` vocabulary have their effect (one
`test_fault_<name>_…` each), for the boards and the display; a reset runs on the table clock."""

import asyncio
from contextlib import asynccontextmanager
from typing import AsyncIterator

import pytest

from drivers.display import Display, Rebooted
from drivers.errors import BoardReset, CommandRejected, LinkLost, NoResponse
from drivers.link import LinkStatistics
from drivers.messages import FaultCleared, FaultCode, FaultRaised, SnapshotDone
from drivers.motor_protocol import BuildDone, Key, KeyPressed, LiftMoved, LiftPosition, ShuffleDone
from drivers.rfid_protocol import HeadRead
from simulator import SimulatedTable, parse_faults
from tests.asyncio_support import run
from tests.simulator.conftest import collect_count, collect_until, connected

pytestmark = pytest.mark.timeout(60)


async def traffic_under(fault: str) -> tuple[SimulatedTable, LinkStatistics, LinkStatistics]:
    """30 commands, a build's worth of events and 40 key presses with one fault on; every command
    ran, once, and every key came.  The table (stopped) and the motor and RFID links' statistics."""
    table = SimulatedTable(seed=2, speed=0, faults=parse_faults([fault]))
    async with connected(table) as (motor, rfid):
        for _ in range(30):
            await motor.buzzer()
        await rfid.start_build((17, 17, 17, 17))
        await motor.build((17, 17, 17, 17))
        await collect_until(motor, BuildDone, timeout=20)
        await collect_count(rfid, HeadRead, 136, timeout=20)
        for press in range(40):          # the motor board's events (its build sends only BuildDone)
            table.press(press % 4, Key.TING)
        assert len(await collect_count(motor, KeyPressed, 40, timeout=20)) == 40
        assert len(table.world.buzzer) == 30
        return table, motor.statistics(), rfid.statistics()


def test_fault_corrupt_damages_frames_which_the_link_refuses_and_recovers():
    async def main():
        table, motor, rfid = await traffic_under("motor:corrupt=0.2")
        assert motor.crc_errors + motor.framing_errors > 0          # damaged frames seen, refused
        assert table.motor.link.counters.naks > 0                    # and commands damaged too
        assert rfid.crc_errors + rfid.framing_errors == 0
    run(main(), timeout=40)


def test_fault_drop_loses_frames_which_the_link_sends_again():
    async def main():
        table, motor, rfid = await traffic_under("motor:drop=0.2")
        assert motor.retransmits > 0 and motor.resend_requests > 0
    run(main(), timeout=40)


def test_fault_duplicate_sends_frames_twice_and_nothing_runs_twice():
    async def main():
        table, motor, rfid = await traffic_under("motor:duplicate=0.3")
        assert motor.duplicate_events > 0 and table.motor.link.counters.duplicates > 0
    run(main(), timeout=40)


def test_fault_delay_stalls_the_boards_answers():
    async def main():
        table = SimulatedTable(seed=2, speed=0, faults=parse_faults(["motor:delay=1"]))
        async with connected(table) as (motor, rfid):
            for _ in range(5):
                await motor.buzzer()
                await rfid.clear_faults()
            assert table._wires["motor"].stalls > 0
            assert motor.statistics().srtt_ms >= 30        # each answer waited out a 40 ms stall
            assert rfid.statistics().srtt_ms < 30
    run(main())


def test_fault_silent_board_is_lost_within_a_second_and_stops_its_motors():
    async def main():
        table = SimulatedTable(seed=2, speed=1)
        async with connected(table) as (motor, rfid):
            await motor.shuffle(20000)
            await asyncio.sleep(0.2)
            assert table.motor.busy
            loop = asyncio.get_running_loop()
            table.inject_fault("motor:silent")
            started = loop.time()
            with pytest.raises(LinkLost, match="link lost"):
                while True:
                    await motor.next_event(2)
            assert loop.time() - started < 1.0
            while not table.motor.safe_stopped:               # the board noticed the host went quiet
                await asyncio.sleep(0.02)
            assert not table.motor.busy
            table.clear_fault("motor:silent")
            await motor.connect()
            await motor.request_snapshot()
            snapshot = await collect_until(motor, SnapshotDone)
            assert FaultRaised(FaultCode.HOST_LOST, 0, 0) in snapshot
            with pytest.raises(CommandRejected, match="FAULT_LATCHED"):
                await motor.shuffle(100)
            await motor.clear_faults()
            assert FaultCleared(FaultCode.HOST_LOST, 0) in await collect_until(motor, FaultCleared)
            await motor.shuffle(100)
    run(main())


def test_fault_reset_reboots_the_board_at_its_moment_of_table_time_at_speed_0():
    """At speed 0 table time passes only as the mechanism moves: the reboot comes once the
    mechanism has carried the clock past 5 s, not after 5 real seconds (nor after the run)."""
    async def main():
        table = SimulatedTable(seed=3, speed=0, faults=parse_faults(["motor:reset=5"]))
        async with connected(table) as (motor, rfid):
            for position in (LiftPosition.DOWN, LiftPosition.UP):      # 2 × 1.5 s of table time
                await motor.centre_lift(position)
                await collect_until(motor, LiftMoved)
            assert table.clock.now() == pytest.approx(3.0) and table.motor.boot_counter == 1
            await motor.shuffle(3000)                                   # to 6 s: past the reset
            with pytest.raises(BoardReset, match="boot counter 1 -> 2"):
                await collect_until(motor, ShuffleDone, timeout=5)
            assert table.clock.now() >= 5 and rfid.link.failure is None
    run(main())


def test_a_reset_runs_on_the_table_clock_at_any_speed():
    async def main():
        table = SimulatedTable(seed=3, speed=10, faults=parse_faults(["rfid:reset=4"]))
        async with connected(table) as (motor, rfid):
            loop = asyncio.get_running_loop()
            started = loop.time()
            await motor.centre_lift(LiftPosition.DOWN)       # 1.5 table s: 0.15 s at speed 10
            await collect_until(motor, LiftMoved)
            assert loop.time() - started < 0.4 and table.rfid.boot_counter == 1
            with pytest.raises(BoardReset):
                while True:
                    await rfid.next_event(2)                  # 4 table s: 0.4 s at speed 10
            assert table.clock.now() >= 4 and motor.link.failure is None
    run(main())


# -- the display ---------------------------------------------------------------------------------

async def until(condition, timeout: float = 2.0) -> None:
    """Wait for a condition the simulator reaches once bytes crossed the pty."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not condition():
        assert loop.time() < deadline, "condition not reached"
        await asyncio.sleep(0.005)


@asynccontextmanager
async def displayed(table: SimulatedTable) -> AsyncIterator[Display]:
    """The table serving, and the display client connected to it."""
    where = await table.start()
    try:
        display = await Display.open(where.display)
        try:
            yield display
        finally:
            await display.close()
    finally:
        await table.stop()


def test_fault_reset_of_the_display_blanks_it_and_the_client_hears_the_reboot():
    async def main():
        table = SimulatedTable(seed=1, speed=0, faults=parse_faults(["display:reset=1"]))
        async with displayed(table) as display:
            display.set_text("main", "t_msg", "请掷骰子")
            display.show_page("menu")
            assert await display.ping() == 1 and table.display.text("main", "t_msg") == "请掷骰子"
            await table.clock.sleep(1.5)          # the mechanism's time passing: the reboot is due
            assert await display.next_event(2) == Rebooted()
            assert table.display.page == "main" and table.display.text("main", "t_msg") == ""
            assert table.display.boots == 2 and display.statistics().reboots == 1
            assert await display.ping() == 0
            assert list(table.display.log)[-2:] == ["bkcmd=2", "sendme"]   # its setting sent again
    run(main())


def test_fault_drop_and_silent_on_the_display_lose_its_instructions_and_answers():
    async def main():
        table = SimulatedTable(seed=1, speed=0)
        async with displayed(table) as display:
            table.inject_fault("display:drop=1")
            display.set_text("main", "t_msg", "丢了")
            with pytest.raises(NoResponse):
                await display.ping(0.3)
            assert table.display.text("main", "t_msg") == ""
            table.clear_fault("display:drop")
            table.inject_fault("display:silent")
            with pytest.raises(NoResponse):
                await display.ping(0.3)
            table.clear_fault("display:silent")
            assert await display.ping() == 0
    run(main())


def test_fault_corrupt_and_delay_on_the_display():
    async def main():
        table = SimulatedTable(seed=1, speed=0)
        async with displayed(table) as display:
            table.inject_fault("display:corrupt=1")
            for text in ("东风 第1局", "南风 第2局", "西风 第3局"):
                display.set_text("main", "t_round", text)
            await until(lambda: table._wires["display"].frames_damaged >= 3)
            table.clear_fault("display:corrupt")
            await display.ping()
            assert table.display.text("main", "t_round") not in ("东风 第1局", "南风 第2局", "西风 第3局")
            assert table._wires["display"].frames_damaged >= 3
            table.inject_fault("display:delay=1")
            loop = asyncio.get_running_loop()
            started = loop.time()
            await display.ping()
            assert loop.time() - started >= 0.035 and table._wires["display"].stalls == 1
    run(main())


def test_a_silence_for_some_table_seconds_ends_by_itself():
    async def main():
        table = SimulatedTable(seed=1, speed=0)
        async with displayed(table) as display:
            table.go_silent("display", seconds=2)
            with pytest.raises(NoResponse):
                await display.ping(0.2)
            await table.clock.sleep(2.5)
            assert await display.ping() == 0
    run(main())


class _Recorded:
    """An endpoint that keeps what it is given, write by write."""

    description = "recorded"

    def __init__(self) -> None:
        self.writes: list[bytes] = []

    def set_receiver(self, on_data, on_lost) -> None:
        pass

    def write(self, data: bytes) -> None:
        self.writes.append(data)


def test_a_burst_of_frames_meets_the_faults_frame_by_frame_and_reaches_the_endpoint_in_one_write():
    import random

    from drivers.frame import Kind, encode_frame
    from simulator.faults import WireFaults
    from simulator.wire import FaultyWire

    frames = [encode_frame(Kind.EVENT, seq, 0x80, bytes((seq, 0, 0))) for seq in range(32)]
    faults = WireFaults(corrupt=0.2, drop=0.2, duplicate=0.2)
    one_by_one, burst = _Recorded(), _Recorded()
    wire = FaultyWire(one_by_one, faults, random.Random(5))
    for frame in frames:
        wire.write(frame)
    FaultyWire(burst, faults, random.Random(5)).write(b"".join(frames))
    assert len(burst.writes) == 1 and burst.writes[0] == b"".join(one_by_one.writes)
    assert wire.frames_damaged > 0 and b"".join(one_by_one.writes) != b"".join(frames)   # the faults acted
