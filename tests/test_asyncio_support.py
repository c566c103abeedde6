"""The leak check every async test relies on: a thread on its way out is not a leak, a thread
that keeps running is."""

import threading

from tests.asyncio_support import _threads_still_running


def test_a_thread_that_ends_within_the_grace_is_not_a_leak():
    before = set(threading.enumerate())
    go = threading.Event()
    thread = threading.Thread(target=go.wait, name="ending")
    thread.start()
    threading.Timer(0.05, go.set).start()  # ends after the check has begun waiting
    assert _threads_still_running(before, grace=30.0) == []


def test_a_thread_still_running_after_the_grace_is_reported():
    before = set(threading.enumerate())
    stop = threading.Event()
    thread = threading.Thread(target=stop.wait, name="stuck")
    thread.start()
    try:
        assert [t.name for t in _threads_still_running(before, grace=0.05)] == ["stuck"]
    finally:
        stop.set()
        thread.join()
