"""Weeks unattended (tests/reliability/leaks.py): the controller process, its links cut, its USB
adapters unplugged, its boards and display rebooted, again and again — and its open files, threads
and worker processes the same after as before: an episode the table recovers from leaves nothing
behind.  Two rounds of every episode by default; 200 episodes, with the resident memory, under
`-m soak`."""

from __future__ import annotations

import os

import pytest

from tests.asyncio_support import run
from tests.reliability.leaks import EPISODES, LeakFigures, report, watch_for_leaks

# The default executor (asyncio.to_thread: ports opened and closed, the display's writes) starts its
# threads as calls overlap, up to this many: more threads than that is a leak, fewer is not.
THREAD_POOL = min(32, (os.cpu_count() or 1) + 4)


def assert_nothing_left_behind(figures: LeakFigures) -> None:
    shown = report(figures)
    assert figures.problems == [], shown
    assert len(figures.samples) >= 2 * len(EPISODES) or len(figures.samples) > 100, shown
    assert figures.grown("fds") <= 0, shown
    assert figures.grown("threads") <= THREAD_POOL, shown
    assert {s.children for s in figures.late()} == {s.children for s in figures.early()}, shown


def test_link_episodes_leave_no_open_file_thread_or_process_behind(tmp_path):
    figures = run(watch_for_leaks("changchun", 2 * len(EPISODES), seed=3, folder=tmp_path), timeout=600)
    assert_nothing_left_behind(figures)


@pytest.mark.soak
def test_two_hundred_link_episodes_leave_nothing_behind_and_memory_stays_flat(tmp_path):
    figures = run(watch_for_leaks("sichuan", 200, seed=1, folder=tmp_path), timeout=3600)
    assert_nothing_left_behind(figures)
    assert figures.rss_growth_kb() <= 4 * 1024, report(figures)
