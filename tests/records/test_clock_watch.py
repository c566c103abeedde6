"""A step of the wall clock is seen against the monotonic clock, and said in a line a person reads."""

import pytest

from firmware.clock_watch import ClockWatch


class Clocks:
    def __init__(self) -> None:
        self.wall, self.mono = 35.0, 1000.0          # a Pi booted at 1970

    def run(self, seconds: float) -> None:
        self.wall += seconds
        self.mono += seconds


def test_a_time_server_setting_the_clock_forward_is_one_step_from_the_time_it_would_have_read():
    clocks = Clocks()
    watch = ClockWatch(lambda: clocks.wall, lambda: clocks.mono)
    clocks.run(10)
    assert watch.look() is None                                  # time passing is no step
    clocks.run(3)
    clocks.wall = 1_796_000_000.0                                # the time server: 2026
    clocks.run(2)
    step = watch.look()
    assert (step.before, step.after) == (50.0, 1_796_000_002.0)  # 15 s played, then the jump
    assert step.words() == ("the wall clock jumped forward by 57 years (a time server set it?): hours played "
                            "do not count the jump")
    clocks.run(5)
    assert watch.look() is None                                  # said once


def test_a_step_back_of_an_hour_is_seen_and_a_few_seconds_of_slewing_is_not():
    clocks = Clocks()
    watch = ClockWatch(lambda: clocks.wall, lambda: clocks.mono)
    clocks.wall += 2                                             # slewing, or a late look: not a step
    clocks.run(5)
    assert watch.look() is None
    clocks.wall -= 3600
    step = watch.look()
    assert step.before - step.after == 3600
    assert step.words().startswith("the wall clock jumped back by 1 hour")


@pytest.mark.parametrize("seconds, said", [(3599.8, "1 hour"), (86399.5, "1 day"), (9000, "2.5 hours"),
                                           (56 * 365.25 * 86400 + 5, "56 years"), (40, "40 seconds")])
def test_a_step_s_size_is_said_as_a_person_says_it(seconds, said):
    """An hour's step measured a moment short read `60 minutes`, a day's `24 hours`, 2.5 h `3 hours`
    (a verifying probe)."""
    from firmware.clock_watch import duration
    assert duration(seconds) == said
