"""systemd notification (firmware/service.py): READY, STATUS, STOPPING, and a watchdog petted from
the event loop, so that a loop that hangs stops petting (issue 13, the hardened unit)."""

import asyncio
import os
import socket
import threading

import pytest

from firmware.service import ServiceNotifier, _watchdog_usec
from tests.ops.support import clean_env, cli, needs_no_default_config


@pytest.fixture
def notify_socket(tmp_path):
    """A unix datagram socket standing in for systemd's $NOTIFY_SOCKET."""
    path = str(tmp_path / "notify")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(path)
    sock.settimeout(30)
    yield path, sock
    sock.close()


def receive(sock: socket.socket) -> str:
    return sock.recv(4096).decode()


def drain(sock: socket.socket) -> list[str]:
    messages = []
    sock.setblocking(False)
    try:
        while True:
            messages.append(sock.recv(4096).decode())
    except BlockingIOError:
        pass
    finally:
        sock.setblocking(True)
        sock.settimeout(30)
    return messages


def test_ready_status_and_stopping_reach_the_socket(notify_socket):
    path, sock = notify_socket
    notifier = ServiceNotifier(path)
    notifier.ready("running 长春麻将 on the boards")
    notifier.status("hand 1: 胡 by seat 0;\npayments +8 -4 -2 -2")
    notifier.stopping()
    assert receive(sock) == "READY=1\nSTATUS=running 长春麻将 on the boards"
    assert receive(sock) == "STATUS=hand 1: 胡 by seat 0; payments +8 -4 -2 -2"     # one line
    assert receive(sock) == "STOPPING=1"


def test_outside_systemd_nothing_is_sent_and_nothing_runs():
    notifier = ServiceNotifier.from_environment({})
    assert not notifier.enabled and notifier.watchdog_interval is None
    notifier.ready("x")                                  # a no-op, no error

    async def body():
        async with notifier.serving():
            assert [t for t in asyncio.all_tasks() if t.get_name() == "systemd-watchdog"] == []
    asyncio.run(body())


def test_the_watchdog_belongs_to_the_process_it_names():
    assert _watchdog_usec({"WATCHDOG_USEC": "20000000"}) == 20_000_000
    assert _watchdog_usec({"WATCHDOG_USEC": "20000000", "WATCHDOG_PID": str(os.getpid())}) == 20_000_000
    assert _watchdog_usec({"WATCHDOG_USEC": "20000000", "WATCHDOG_PID": "1"}) is None
    assert _watchdog_usec({"WATCHDOG_USEC": "soon"}) is None
    assert ServiceNotifier("/run/x", 20_000_000).watchdog_interval == 10.0


def test_a_failed_notification_is_said_once_and_never_raised(tmp_path):
    lines = []
    notifier = ServiceNotifier(str(tmp_path / "absent"), warn=lines.append)
    notifier.ready()
    notifier.status("x")
    assert len(lines) == 1 and "cannot notify systemd" in lines[0]


def test_a_hung_event_loop_stops_petting_the_watchdog(notify_socket):
    """The pets come from a task on the loop: while the loop is blocked none is sent, and they
    resume when it runs again.  The loop runs in its own thread so this test can watch it."""
    path, sock = notify_socket
    notifier = ServiceNotifier(path, watchdog_usec=40_000)         # a pet every 20 ms
    hang, hung, release, stop = threading.Event(), threading.Event(), threading.Event(), threading.Event()

    async def controller():
        async with notifier.serving():
            while not stop.is_set():
                if hang.is_set():
                    hung.set()
                    release.wait()            # the loop is stuck in a blocking call
                    hang.clear()
                await asyncio.sleep(0.005)

    thread = threading.Thread(target=asyncio.run, args=(controller(),), name="controller-loop")
    thread.start()
    try:
        assert [receive(sock) for _ in range(3)] == ["WATCHDOG=1"] * 3     # alive: petting
        hang.set()
        assert hung.wait(30)
        drain(sock)                            # pets sent before the loop blocked
        sock.settimeout(notifier.watchdog_interval * 10)
        with pytest.raises(socket.timeout):
            receive(sock)                      # ten pet periods, and no pet from a hung loop
        sock.settimeout(30)
        release.set()
        assert receive(sock) == "WATCHDOG=1"   # the loop runs again: petting resumes
    finally:
        release.set()
        stop.set()
        thread.join(30)
    assert drain(sock)[-1] == "STOPPING=1"


def test_run_under_systemd_says_ready_status_and_stopping(tmp_path, notify_socket):
    needs_no_default_config()
    path, sock = notify_socket
    env = clean_env(tmp_path, NOTIFY_SOCKET=path, WATCHDOG_USEC="10000000")
    proc = cli(["run", "--hands", "1", "--speed", "0"], tmp_path, env=env)
    assert proc.returncode == 0, proc.stderr
    messages = drain(sock)
    assert messages[0] == "STATUS=no configuration: running 长春麻将 (changchun) against the built-in simulator " \
                          "(seed 1, speed 0) with simulated players"
    assert "WATCHDOG=1" in messages and "READY=1" in messages
    assert messages.index("READY=1") < next(i for i, m in enumerate(messages) if m.startswith("STATUS=hand 1: "))
    assert messages[-2:] == ["STOPPING=1", "STATUS=1 hand(s) played; totals " + proc.stdout.split("totals ")[-1].strip()]
