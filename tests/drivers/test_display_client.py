"""What the display client gives a supervisor: the display's own reboot as one event, a liveness
check that leaves nothing behind, and a clear LinkLost when the port dies."""

from __future__ import annotations

import asyncio

import pytest

from drivers.display import Display, Rebooted, Touched
from drivers.errors import LinkClosed, LinkLost, NoResponse
from drivers.nextion import PageShown, Ready, Started, encode_return
from drivers.stream import memory_pair
from simulator.display_sim import DisplaySim
from tests.asyncio_support import run

pytestmark = pytest.mark.timeout(30)


async def display_pair() -> tuple[Display, DisplaySim, object]:
    host_end, display_end = memory_pair("memory:display", "memory:screen")
    screen = DisplaySim()
    screen.attach(display_end)
    display = Display(host_end)
    await display.start()
    display.pending_events()           # the start-up returns of the attach: not news here
    return display, screen, display_end


def test_a_reboot_is_one_event_and_the_client_sends_its_setting_again():
    async def main():
        display, screen, display_end = await display_pair()
        settings = list(screen.log).count("bkcmd=2")
        reboots = display.statistics().reboots
        screen.reboot()
        assert await display.next_event(1) == Rebooted()
        assert await display.ping() == 0
        assert display.pending_events() == []                 # Started + Ready: one reboot
        assert list(screen.log).count("bkcmd=2") == settings + 1
        display_end.write(encode_return(Ready()))             # its start-up return was lost
        assert await display.next_event(1) == Rebooted()
        display_end.write(encode_return(Started()))
        assert await display.next_event(1) == Rebooted()
        assert display.statistics().reboots == reboots + 3
        await display.close()
    run(main())


def test_a_ping_leaves_no_waiter_behind_whatever_happens_to_it():
    async def main():
        display, screen, display_end = await display_pair()
        assert await asyncio.gather(display.ping(), display.ping()) == [0, 0]
        display.show_page("fault")
        assert await display.ping() == 2
        screen.attach(_Deaf())                                 # the display stops answering
        with pytest.raises(NoResponse, match="no answer from the display at memory:display"):
            await display.ping(0.05)
        waiting = asyncio.create_task(display.ping(5))
        await asyncio.sleep(0)
        waiting.cancel()
        with pytest.raises(asyncio.CancelledError):
            await waiting
        assert display._page_waiters == []
        waiting = asyncio.create_task(display.ping(5))
        await asyncio.sleep(0)
        await display.close()
        with pytest.raises(LinkClosed):
            await waiting
        with pytest.raises(LinkClosed):
            await display.ping()
        assert display._page_waiters == []
    run(main())


def test_a_ping_cancelled_as_its_answer_arrives_is_cancelled():
    """The table stops (the watch's ping task is cancelled) in the very loop turn the display's
    answer lands: the ping must end cancelled, not return the page, or the watch pings on forever
    and the controller's stop waits for it forever."""
    async def main():
        display, screen, display_end = await display_pair()
        screen.attach(_Deaf())                                 # only the answer written below arrives
        waiting = asyncio.create_task(display.ping(5))
        await asyncio.sleep(0)                                 # the ping waits for its answer
        display_end.write(encode_return(PageShown(0)))         # delivered on the next loop turn…
        asyncio.get_running_loop().call_soon(waiting.cancel)   # …and the stop comes in the same turn
        with pytest.raises(asyncio.CancelledError):
            await waiting
        assert display._page_waiters == []
        await display.close()
    run(main())


def test_a_dead_port_is_a_clear_link_lost_after_what_was_received():
    async def main():
        display, screen, display_end = await display_pair()
        screen.touch("main", "b_menu")
        screen.attach(_Deaf())
        waiting = asyncio.create_task(display.ping(5))
        await asyncio.sleep(0.01)
        await display_end.close()                              # the cable is pulled
        with pytest.raises(LinkLost, match="display at memory:display: the port closed"):
            await waiting                                      # at once, not after 5 s
        assert await display.next_event(1) == Touched("main", "b_menu", True)
        assert await display.next_event(1) == Touched("main", "b_menu", False)
        for _ in range(2):
            with pytest.raises(LinkLost):
                await display.next_event(1)
        with pytest.raises(LinkLost):
            await display.ping()
        assert isinstance(display.failure, LinkLost)
        display.set_text("main", "t_msg", "画不出来")            # drawing never raises
        await display.close()
    run(main())


class _Deaf:
    """A stream that swallows whatever the display writes (its answers never arrive)."""

    description = "deaf"

    def set_receiver(self, on_data, on_lost) -> None:
        pass

    def write(self, data: bytes) -> None:
        pass

    async def close(self) -> None:
        pass


def test_a_ping_answered_in_time_is_answered_though_the_loop_was_held_past_its_timeout():
    """The display answered `sendme` at once, but the host's loop was held past the ping's timeout (a
    slow Pi): the answer and the timeout were read in the same turn and the ping counted as missed —
    two in a row latch E22 and sound the buzzer for a display that is fine (a probe)."""
    import socket
    import threading
    import time

    from drivers.display import Display

    armed, asked, held, answered = threading.Event(), threading.Event(), threading.Event(), threading.Event()

    def display_answering_at_once(server: socket.socket) -> None:
        conn, _ = server.accept()
        buffer = b""
        while data := conn.recv(4096):
            buffer += data
            while b"\xff\xff\xff" in buffer:
                instruction, buffer = buffer.split(b"\xff\xff\xff", 1)
                if instruction == b"sendme" and armed.is_set():
                    asked.set()
                    held.wait(5)                    # (answers once the host's loop is held)
                if instruction == b"sendme":
                    conn.sendall(b"\x66\x00\xff\xff\xff")
                    answered.set()

    async def main() -> int:
        server = socket.socket()
        server.bind(("127.0.0.1", 0))
        server.listen(1)
        threading.Thread(target=display_answering_at_once, args=(server,), daemon=True).start()
        display = await Display.open(f"socket://127.0.0.1:{server.getsockname()[1]}", must_answer=False)
        try:
            armed.set()
            ping = asyncio.ensure_future(display.ping(0.2))
            while not asked.is_set():
                await asyncio.sleep(0.001)
            held.set()                                  # the loop is held from here
            assert answered.wait(5)                     # answered: the bytes wait in the socket…
            time.sleep(0.3)                             # …while the loop is held past the timeout
            return await ping
        finally:
            await display.close()
            server.close()

    assert run(main(), timeout=20) == 0


def test_touches_can_be_dropped_and_the_other_events_stay_in_order():
    """A caller that offered nothing on the screen for a while (a controller waiting for its boards)
    drops the touches made meanwhile; a reboot among them is still handed out."""
    async def main():
        display, screen, _ = await display_pair()
        screen.touch("main", "b_menu")
        screen.reboot()
        screen.touch("main", "b_menu")
        await display.ping()                                   # every return before its answer is in
        assert display.drop_touches() == 4                     # each touch: pressed, then let go
        assert display.pending_events() == [Rebooted()]
        assert display.drop_touches() == 0
        await display.close()
    run(main())
