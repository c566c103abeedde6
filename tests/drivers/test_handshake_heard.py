"""A board that does not answer says what the port did meanwhile: silent, our own frames sent back (a
loopback, a device that echoes), or bytes that are no frames (another device, the wrong baud rate).  It
said "check that the board is powered" for all three (a probe)."""

from __future__ import annotations

import pytest

from drivers.errors import NoResponse
from drivers.link import HostLink, LinkConfig
from drivers.messages import BoardKind
from drivers.stream import MemoryStream
from tests.asyncio_support import run

QUICK = LinkConfig(hello_timeout=0.3)


def answered_by(reply) -> str:
    """The NoResponse line of a handshake on a port whose far end answers every write with `reply`."""
    host_end, far_end = MemoryStream("memory:host"), MemoryStream("memory:device")
    host_end.peer, far_end.peer = far_end, host_end
    far_end.set_receiver(lambda data: far_end.write(reply(data)), lambda error: None)

    async def main() -> str:
        host = HostLink(host_end, device="motor board at memory", expected_kind=BoardKind.MOTOR, config=QUICK)
        try:
            with pytest.raises(NoResponse) as caught:
                await host.connect()
            return str(caught.value)
        finally:
            await host.close()
    return run(main(), timeout=30)


def test_a_port_that_echoes_is_said_to_send_back_what_it_is_sent():
    assert "the port sends back what it is sent (a loopback, or a device that echoes)" in answered_by(lambda d: d)


def test_a_port_that_sends_noise_is_said_to_send_bytes_that_are_no_frames():
    said = answered_by(lambda d: bytes(b ^ 0x5A for b in d) + b"\x00")
    assert "bytes arrive but no frame: another device on this port, or the wrong baud rate" in said


def test_a_silent_port_is_said_as_before():
    assert "check that the board is powered, the cable" in answered_by(lambda d: b"")
