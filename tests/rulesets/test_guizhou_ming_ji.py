"""贵州 打明鸡 (RULES.md §13.2): 「打明鸡 起牌后三墩翻起～如翻2条，3条就是鸡。有3条就有钱！！！」 [000:55].

The 明鸡 is turned up after the deal; its next number is a 鸡 wherever 鸡 are paid: in the win's 鸡
and in the settlement round's (the ready seats that did not win).  Found by an audit: the table
turned the 明鸡 up but counted only the after-win flip and 1条.  The hand's parts run here on
`FakePorts` over a wall laid so that the 明鸡 is a 2条 and the after-win flip a 7万.
"""

from drivers.table_ui import Key
from firmware.hand.settlement import SettlementRound
from firmware.hand.state import HandState
from firmware.hand.win_check import WinCheck, paying_flips, standing_paying_flips
from rulesets.indicators import CountFromTail, Timing
from rulesets.regions import get_region
from rulesets.scoring import DrawContext
from rulesets.tiles import Tile, parse_tiles
from tests.asyncio_support import run
from tests.firmware.fake_ports import FakePorts
from tests.firmware.test_asked_facts import built_hand
from tests.firmware.test_liang_and_la_zhuang import take_head

MING_JI = get_region("guizhou").resolve({"ming_ji": "on", "ming_ji_kong": "none"})      # no kong's 明鸡: see test_guizhou_kong_ji


def place(hand: HandState, slot, tile: Tile, keep=()) -> None:
    """Put `tile` at `slot`, swapping it with a copy elsewhere (the set stays whole; the seats' hands
    are laid by the tests, not read from the deal)."""
    if hand.wall[slot] == tile:
        return
    other = next(s for s, t in hand.wall.items() if t == tile and s != slot and s not in keep)
    hand.wall[slot], hand.wall[other] = tile, hand.wall[slot]


def dealt_with_ming_ji(ming_ji: str = "2s", after_win: str = "7m") -> HandState:
    """A 贵州 hand (打明鸡) just dealt, whose 明鸡 is `ming_ji` and whose after-win flip will be `after_win`."""
    hand = built_hand(MING_JI, {})
    take_head(hand, hand.deal_size)
    (standing,) = hand.rules_at(Timing.AFTER_DEAL)
    (flip,) = hand.rules_at(Timing.AFTER_WIN)
    ctx = hand._reveal_context(())
    (ming_slot,) = standing.position.slots(ctx)
    (flip_slot,) = flip.position.slots(ctx)
    place(hand, ming_slot, Tile.parse(ming_ji))
    place(hand, flip_slot, Tile.parse(after_win), keep=(ming_slot,))
    assert hand.reveal(standing).tiles == (Tile.parse(ming_ji),)
    return hand


def win_on_a_discard(hand: HandState, seat: int, discarder: int, tiles: str) -> dict:
    """Seat `seat` lays `tiles` (no melds) and names the first kind as the winning tile (确认)."""
    ports = FakePorts(hand.ruleset, [(seat, Key.CONFIRM), (seat, Key.CONFIRM)],
                      zones={seat: [[], list(parse_tiles(tiles))]})
    run(WinCheck(ports)._judge(hand, seat, discarder), timeout=5)
    (win,) = ports.recorder.all("win")
    return win


def test_the_card_turns_up_the_ming_ji_after_the_deal_and_says_what_it_does_not_do():
    """「起牌后三墩翻起」: the 3rd stack from the tail, its top, after the deal; with ming_ji_kong=none
    「有杠牌就要翻第四墩」 is not applied, and the card says so."""
    standing = [r for r in MING_JI.indicators if r.timing is Timing.AFTER_DEAL]
    assert len(standing) == 1 and standing[0].position == CountFromTail(fixed=3) and standing[0].kind == "ji"
    assert not [r for r in get_region("guizhou").resolve().indicators if r.timing is Timing.AFTER_DEAL]
    assert any("not applied" in note for note in standing[0].notes)
    assert not any("moves the 明鸡" in note for note in standing[0].notes)
    assert "打明鸡 起牌后三墩翻起～如翻2条，3条就是鸡" in MING_JI.source("indicators").quote


def test_the_ming_ji_comes_first_among_the_flips_the_hand_pays_by():
    hand = dealt_with_ming_ji()
    assert standing_paying_flips(hand) == paying_flips(hand) == (Tile.S2,)
    (flip,) = hand.rules_at(Timing.AFTER_WIN)
    hand.reveal(flip)
    assert paying_flips(hand) == (Tile.S2, Tile.M7)


def test_the_winner_is_paid_for_the_ming_ji_it_holds():
    """「如翻2条，3条就是鸡。有3条就有钱」: the 明鸡 is a 2条, the winner holds three 3条 — three 鸡, paid by
    each other side (the after-win flip, a 7万, makes 8万 a 鸡: none held)."""
    hand = dealt_with_ming_ji()
    win = win_on_a_discard(hand, 1, 2, "333s456s789s234p55p")
    assert win["context"]["flipped"] == ["2s", "7m"]
    assert [i["name"] for i in win["items"] if i["pinyin"] == "ji"] == ["鸡 ×3 (side 1)"]
    without = win_on_a_discard(dealt_with_ming_ji("5s"), 1, 2, "333s456s789s234p55p")    # 6条 the 鸡: one held
    assert [i["name"] for i in without["items"] if i["pinyin"] == "ji"] == ["鸡 ×1 (side 1)"]
    diff = [a - b for a, b in zip(win["payments"], without["payments"])]
    assert diff == [-2, 6, -2, -2]              # two 鸡 more, from each other side


def test_a_ready_seat_is_paid_for_the_ming_ji_in_the_settlement_round():
    """「被胡的人可能赢钱」, 「有3条就有钱」: after seat 1's win, seat 0 (ready: 缺万, waits on 3筒) holds a 3条 碰:
    three 鸡 by the 明鸡 2条, paid 3 by each other side; seat 2 (three suits, not ready) collects nothing."""
    hand = dealt_with_ming_ji()
    win_on_a_discard(hand, 1, 2, "123p456p789p111p55p")      # holds no 鸡 (缺条)
    ready = parse_tiles("333s456s789s12p55p")
    not_ready = parse_tiles("3s5s7s9s2m4m6m8m1p3p5p7p9p")
    ports = FakePorts(MING_JI, [(1, Key.CONFIRM)] + [(s, Key.CONFIRM) for s in (0, 2, 3) for _ in range(2)],
                      zones={0: [[], ready], 2: [[], not_ready], 3: [[], []]})
    run(SettlementRound(ports).run(hand), timeout=5)
    (event,) = ports.recorder.all("settlement")
    assert event["flipped"] == ["2s", "7m"]
    assert event["ready"] == [0]
    assert [i["name"] for i in event["items"]] == ["鸡 ×3 (side 0)"]
    assert event["payments"] == [9, -3, -3, -3]


def test_a_ming_ji_that_makes_one_tiao_is_a_golden_chicken():
    """A 9条 明鸡 makes 1条 the 鸡 (9→1, ji_wrap=wrap): 金鸡, 鸡 count double."""
    hand = dealt_with_ming_ji("9s")
    win = win_on_a_discard(hand, 1, 2, "111s456s789s234p55p")
    items = {i["name"]: i["value"] for i in win["items"]}
    assert items["金鸡"] == 2 and items["鸡 ×3 (side 1)"] == 6


def test_a_drawn_hand_pays_nothing_and_says_why():
    """荒庄: the text pays 鸡 with a win only; the 明鸡 turned up after the deal pays nothing at a draw."""
    settled = MING_JI.scoring.settle_draw(MING_JI, DrawContext(0, MING_JI.players, (1,), ()))
    assert settled.payments == (0, 0, 0, 0)
    assert "明鸡" in settled.notes[0] and "no 鸡 is flipped" not in settled.notes[0]
