"""The real path: pyserial-asyncio on a pty (and on socket://) against a board link, with the
simulator's corruption and loss on the wire."""

import asyncio
import os
import tty

import pytest

from drivers.errors import PortError
from drivers.messages import FaultRaised
from drivers.serial_transport import open_serial
from simulator.endpoints import PtyEndpoint, SocketEndpoint
from simulator.faults import WireFaults
from tests.asyncio_support import run
from tests.drivers.conftest import make_pair

pytestmark = pytest.mark.timeout(60)


def test_every_command_exactly_once_in_order_over_a_real_pty_with_faults():
    async def main():
        endpoint = PtyEndpoint()
        host_stream = await open_serial(endpoint.path)
        faults = WireFaults(corrupt=0.05, drop=0.05, duplicate=0.05, delay=0.02, delay_ms=30)
        pair = make_pair(host_stream, endpoint, faults=faults, seed=4)
        await pair.host.connect()
        payloads = [i.to_bytes(2, "big") + b"seat text" for i in range(300)]
        await asyncio.gather(*(pair.host.command(0x40, p) for p in payloads))
        assert [p for _, p in pair.received] == payloads
        for i in range(200):
            pair.board.emit(FaultRaised(2, 1, i))
        while len(pair.events) < 200:
            await asyncio.sleep(0.01)
        assert [FaultRaised.decode_payload(p).detail for _, p in pair.events] == list(range(200))
        stats = pair.host.statistics()
        assert stats.crc_errors + stats.framing_errors > 0 and stats.retransmits > 0
        assert pair.failures == [] and pair.wire.frames_damaged > 0
        await pair.close()
    run(main(), timeout=40)


def test_socket_url_works_and_closing_does_not_block_the_loop():
    async def main():
        endpoint = await SocketEndpoint.listen("127.0.0.1", 0)
        stream = await open_serial(endpoint.path)
        pair = make_pair(stream, endpoint)
        await pair.host.connect()
        assert await pair.host.command(0x10, b"hi") == 0
        loop = asyncio.get_running_loop()
        ticks = 0

        async def ticker():
            nonlocal ticks
            while True:
                await asyncio.sleep(0.01)
                ticks += 1

        task = asyncio.create_task(ticker())
        started = loop.time()
        await pair.close()   # pyserial's socket close sleeps 0.3 s: in a worker thread here
        elapsed = loop.time() - started
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        assert ticks >= elapsed / 0.01 * 0.5  # the loop kept running meanwhile
    run(main())


@pytest.mark.parametrize("url, words", [
    ("/dev/does-not-exist", "no serial port /dev/does-not-exist"),
    ("loop://", "loop:// ports have no file descriptor"),
    ("rfc2217://host:1", "unsupported URL scheme"),
    ("socket://nohostport", "socket://HOST:PORT"),
])
def test_bad_ports_fail_with_one_clear_line(url, words):
    async def main():
        with pytest.raises(PortError) as caught:
            await open_serial(url)
        assert words in str(caught.value) and "\n" not in str(caught.value)
    run(main())


def test_writes_the_port_cannot_take_at_once_wait_and_arrive_whole_and_in_order():
    """The transport writes what one turn of the loop wrote in one go; a port that takes only part
    of it (its reader is behind: a pty holds a few KB) keeps the rest until it is writable again."""
    async def main():
        master, slave = os.openpty()
        tty.setraw(slave)
        os.set_blocking(master, False)
        stream = await open_serial(os.ttyname(slave))
        chunks = [bytes([i % 251]) * 997 for i in range(300)]      # ≈300 KB: far more than a pty buffers
        for chunk in chunks[:150]:
            stream.write(chunk)
        await asyncio.sleep(0)
        for chunk in chunks[150:]:
            stream.write(chunk)
        got = bytearray()
        while len(got) < sum(map(len, chunks)):
            try:
                got += os.read(master, 65536)
            except BlockingIOError:
                await asyncio.sleep(0.002)
        assert bytes(got) == b"".join(chunks)
        await stream.close()
        os.close(master)
        os.close(slave)
    run(main())


def test_a_closed_port_fails_the_link_as_lost():
    async def main():
        endpoint = await SocketEndpoint.listen("127.0.0.1", 0)
        stream = await open_serial(endpoint.path)
        pair = make_pair(stream, endpoint)
        await pair.host.connect()
        await endpoint.close()
        while not pair.failures:
            await asyncio.sleep(0.01)
        assert "port closed" in str(pair.failures[0])
        await pair.close()
    run(main())




def test_a_port_that_dies_under_a_write_is_a_lost_link_not_a_traceback():
    """A USB adapter pulled while the controller writes (EIO): pyserial-asyncio reported that to
    the loop as a crash with a 20-line traceback before the link said it in one line; now only the
    link says it (`run` fails a test whose loop was handed an exception)."""
    async def main():
        endpoint = PtyEndpoint()
        stream = await open_serial(endpoint.path)
        lost = asyncio.get_running_loop().create_future()
        stream.set_receiver(lambda data: None, lambda error: lost.done() or lost.set_result(error))
        endpoint.unplug()                         # the adapter gone: the host's port reads and writes EIO
        while not lost.done():
            stream.write(b"\x00frame\x00")
            await asyncio.sleep(0.01)
        assert "Input/output error" in str(lost.result()) or "returned no data" in str(lost.result())
        await stream.close()
        await endpoint.close()
    run(main())
