"""A 胡 taken back: a long 胡 ends the seat's win check while its hand is not laid yet.

A 胡 pressed by mistake — or one the motor board's link delivered late, after that seat's last check
had shown its verdict (campaign 620183, 四川: nine 胡 pressed during a check, link noise held one
back, and a check began that its seat had not asked for) — had no way out: the seat had to lay a
hand and take a 诈胡 while every other seat waited.  A long 胡 is never a claim."""

import asyncio

from drivers.table_ui import LAY_HAND, LAY_MELDS, WIN_FROM, Key, Phase
from firmware.hand.flow import HandFlow
from firmware.hand.ports import Press, pressed
from firmware.hand.win_check import WinCheck
from tests.asyncio_support import run
from tests.firmware.fake_ports import FakePorts
from tests.firmware.test_won_already import a_hand


class WaitingPorts(FakePorts):
    """FakePorts whose keys may come while the table waits for them (pressed by the test meanwhile)."""

    async def until(self, predicate, timeout=None):
        for _ in range(1000):
            value = predicate()
            if value:
                return value
            await asyncio.sleep(0)
        raise TimeoutError("nobody at the table does what is waited for")

    async def next_key(self, panels, keys) -> Press:
        press = await self.until(lambda: self.keys.peek(pressed(panels, keys)))
        self.keys.take(lambda p: p is press)
        return press


def long_hu(ports: FakePorts) -> None:
    ports.keys.put(Press(0, Key.HU, long=True))


async def until_line(ports: FakePorts, seat: int, start: str) -> None:
    for _ in range(1000):
        if ports.screens.last(seat).startswith(start):
            return
        await asyncio.sleep(0)
    raise TimeoutError(f"seat {seat}'s line never began with {start}")


def a_check() -> tuple[WinCheck, WaitingPorts, object]:
    hand, _ = a_hand("sichuan")
    ports = WaitingPorts(hand.ruleset)
    return WinCheck(ports), ports, hand


async def answer(ports: FakePorts, line: str) -> None:
    """确认 once the seat's line asks `line` (a key pressed before it answers nothing)."""
    await until_line(ports, 0, line)
    ports.keys.put(Press(0, Key.CONFIRM))


def test_a_long_hu_at_the_first_question_takes_the_hu_back():
    check, ports, hand = a_check()

    async def main():
        task = asyncio.ensure_future(check.win(hand, 0))
        await until_line(ports, 0, WIN_FROM)
        assert check.can_withdraw(0)
        long_hu(ports)
        await task

    run(main(), timeout=5)
    assert [e["event"] for e in ports.recorder.events] == ["win_withdrawn"]
    assert ports.screens.last(0) == "" and ports.screens.phases[-1] == Phase.PLAY.value
    assert hand.wins == [] and not check.can_withdraw(0)


def test_a_long_hu_while_the_shown_melds_are_laid_takes_it_back_too():
    check, ports, hand = a_check()

    async def main():
        task = asyncio.ensure_future(check.win(hand, 0))
        await answer(ports, WIN_FROM)                    # 自摸
        await until_line(ports, 0, LAY_MELDS)
        long_hu(ports)
        await task

    run(main(), timeout=5)
    assert [e["event"] for e in ports.recorder.events] == ["win_withdrawn"]


def test_once_the_shown_melds_are_confirmed_the_hu_stands():
    check, ports, hand = a_check()
    ports._zones[0] = [[]]                               # the shown melds' read: none

    async def main():
        task = asyncio.ensure_future(check.win(hand, 0))
        await answer(ports, WIN_FROM)
        await answer(ports, LAY_MELDS)
        await until_line(ports, 0, LAY_HAND)
        assert not check.can_withdraw(0)
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)

    run(main(), timeout=5)
    assert "win_withdrawn" not in [e["event"] for e in ports.recorder.events]


def test_a_long_hu_is_never_a_claim():
    hand, _ = a_hand("sichuan")
    flow = HandFlow(FakePorts(hand.ruleset))
    flow.hand = hand
    hand.phase = "playing"
    assert flow.on_key(Press(1, Key.HU, long=True))      # taken at once: nothing to take back, said so
    assert len(flow.ports.keys) == 0
    assert flow.ports.recorder.events == [{"event": "keys_dropped", "why": "nothing_to_withdraw",
                                           "presses": [{"panel": 1, "key": "HU", "long": True}]}]
    assert not flow.on_key(Press(1, Key.HU))             # a short 胡 is the claim, queued for the flow
    flow.win_check._withdrawable.add(1)                  # (seat 1's check asks its first questions)
    assert not flow.on_key(Press(1, Key.HU, long=True))  # queued: the check takes it as the withdrawal
