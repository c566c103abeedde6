"""截胡 where one discard makes one winner: 「如有一人点炮，两家以上胡牌，从点炮者按逆时针方向，顺序在前者胡牌（也叫截胡）」
(长春 RULES.md §1.5), 「如一张牌有两家以上要和，此时按逆时针方向最接近冲家的优先」 (螺山 §31).  Two seats press 胡 on
one discard; the one that pressed first names the discarder, and a seat nearer the discarder in play order
whose 胡 waits is judged instead: the first one's line reads `截胡 <seat>` and the recorder says so
(`win_cut_off`).  Before, the first 胡 pressed was judged and won, whoever sat nearer."""

import asyncio

from drivers.table_ui import CUT_OFF, LAY_MELDS, WIN_FROM, Key
from firmware.hand.ports import Press
from firmware.hand.win_check import WinCheck
from tests.asyncio_support import run
from tests.firmware.test_win_withdrawn import WaitingPorts, until_line
from tests.firmware.test_won_already import a_hand


def claimed(region_id: str, seat: int, steps: int, *others: int, options=None):
    """`seat` claims and names its discarder `steps` ▶ along the 点炮 choices (自摸 first); `others`
    pressed 胡 meanwhile.  The recorder's events, the seat's line, whether it came to laying its melds."""
    hand, _ = a_hand(region_id, options)
    ports = WaitingPorts(hand.ruleset)
    check = WinCheck(ports)
    laying = []

    async def main():
        task = asyncio.ensure_future(check.win(hand, seat))
        await until_line(ports, seat, WIN_FROM)
        for other in others:
            ports.keys.put(Press(other, Key.HU))
        for _ in range(steps):
            ports.keys.put(Press(seat, Key.RIGHT))
        ports.keys.put(Press(seat, Key.CONFIRM))
        asked = asyncio.ensure_future(until_line(ports, seat, LAY_MELDS))
        await asyncio.wait({task, asked}, return_when=asyncio.FIRST_COMPLETED)
        if not task.done():
            laying.append(True)
        for pending in (task, asked):
            pending.cancel()
        await asyncio.gather(task, asked, return_exceptions=True)

    run(main(), timeout=5)
    return ports.recorder.events, ports.screens.last(seat), bool(laying), ports


def test_a_nearer_seat_s_hu_on_the_same_discard_cuts_the_first_claim_off():
    # seat 0 names seat 1 (下家) as the discarder; seat 2 (对家), next after seat 1, pressed 胡 too
    events, line, laying, ports = claimed("hainan", 0, 1, 2)
    assert [e for e in events if e["event"] == "win_cut_off"] == [{"event": "win_cut_off", "seat": 0, "by": 2, "discarder": 1}]
    assert line == f"{CUT_OFF} 对家" and not laying
    assert ports.keys.peek(lambda p: p.panel == 2 and p.key == Key.HU)       # seat 2's 胡 waits: judged next


def test_the_nearest_claimant_is_judged_whoever_pressed_later():
    # seat 2 names seat 1 (上家) as the discarder: seat 2 is next after it, seat 0's 胡 comes after
    events, line, laying, _ = claimed("hainan", 2, 2, 0)          # the choices: 自摸, seats 0, 1, 3
    assert not [e for e in events if e["event"] == "win_cut_off"] and laying


def test_no_cut_off_on_a_self_draw_or_where_one_discard_makes_several_winners():
    events, _, laying, _ = claimed("hainan", 0, 0, 2)                              # 自摸
    assert not [e for e in events if e["event"] == "win_cut_off"] and laying
    events, _, laying, _ = claimed("sichuan", 0, 1, 2)                             # 一炮多响
    assert not [e for e in events if e["event"] == "win_cut_off"] and laying
    events, _, laying, _ = claimed("guangdong_jihu", 0, 1, 2, options={"multi_win": "biggest"})
    assert not [e for e in events if e["event"] == "win_cut_off"] and laying       # the text's 截胡 is the biggest hand


def test_a_cut_off_line_goes_once_the_nearer_claim_comes_to_nothing():
    """After a 截胡 the first seat's `截胡 对家` stayed on its line to the hand's end, though the nearer
    seat's claim came to nothing (taken back, or a 诈胡): the discard was the first seat's to claim
    again, and its line said it had lost it.  The line goes now; a nearer claim that wins keeps it."""
    hand, _ = a_hand("hainan")
    ports = WaitingPorts(hand.ruleset)
    check = WinCheck(ports)

    async def main():
        first = asyncio.ensure_future(check.win(hand, 0))
        await until_line(ports, 0, WIN_FROM)
        ports.keys.put(Press(2, Key.HU))            # seat 2, nearer seat 1 (the discarder named), claims too
        ports.keys.put(Press(0, Key.RIGHT))
        ports.keys.put(Press(0, Key.CONFIRM))
        await first
        assert ports.screens.last(0) == f"{CUT_OFF} 对家"
        ports.keys.take(lambda p: p.panel == 2 and p.key == Key.HU)
        nearer = asyncio.ensure_future(check.win(hand, 2))
        await until_line(ports, 2, WIN_FROM)
        ports.keys.put(Press(2, Key.HU, long=True))     # seat 2 takes its 胡 back
        await nearer

    run(main(), timeout=5)
    assert [e["event"] for e in ports.recorder.events] == ["win_cut_off", "win_withdrawn"]
    assert ports.screens.last(0) == "" and hand.wins == []
