"""What the table asks because it cannot see it (issue 16), each situation built on purpose.

The hand's parts run on `FakePorts` (a table of lists: the keys pressed and the zones' contents are
written down first), over a `HandState` whose wall is laid out so the situation happens: a seat dealt
an opening small win, a kong made from a discard, a first round of 跟庄, a settlement round where a
seat never answers.
"""

from collections import Counter

from drivers.table_ui import (ADDED_KONG, FOLLOW_DEALER, LAY_CLOSED_KONGS, LAY_OPEN_KONGS, LAY_OPENING, NOT_SHOWN,
                              OPENING_ASK, OPENING_PAID,
                              OPENING_REFUSED, READY_MARK, NOT_READY, SHOW_HAND, SHOW_MELDS, Key, Phase, choice_text)
from firmware.hand.declarations import dealt_tiles, opening_small_wins
from firmware.hand.ports import Press
from firmware.hand.questions import Questions
from firmware.hand.settlement import SettlementRound
from firmware.hand.state import HandState
from firmware.hand.win_check import judge_laid
from rulesets.regions import get_region
from rulesets.scoring import DrawContext
from rulesets.tiles import Tile, parse_tiles
from rulesets.walls import Break, Layer, Slot
from tests.asyncio_support import run
from tests.firmware.fake_ports import FakePorts


def built_hand(ruleset, dealt: dict[int, str], dealer: int = 0) -> HandState:
    """A hand whose wall deals `dealt` (compact tiles) to those seats; the rest of the set elsewhere."""
    ring = ruleset.layout.ring(Break(0, 3))
    plan = ruleset.dealing.plan(dealer, ruleset.players)
    left = Counter(ruleset.tiles.tiles())
    wall: dict[Slot, Tile | None] = {}
    for seat, text in dealt.items():
        for position, tile in zip(plan.positions_of(seat), sorted(parse_tiles(text))):
            wall[ring.head_slot(position)] = tile
            left[tile] -= 1
    rest = iter(sorted(left.elements()))
    for index in range(len(ring)):
        for layer in (Layer.TOP, Layer.BOTTOM):
            if Slot(index, layer) not in wall:
                wall[Slot(index, layer)] = next(rest)
    return HandState(ruleset, 1, dealer, [(1, 2)], Break(0, 3), wall, plan.next_head, salt="s")


def judge_win(hand: HandState, seat: int, discarder: int | None, concealed: str, win_tile: Tile):
    """A hand laid without melds, judged as the win check judges it (a legal one is the hand's win)."""
    laid, context = hand.laid_hand(seat, discarder, (), tuple(parse_tiles(concealed)), (), win_tile, ())
    result = judge_laid(hand.ruleset, laid, context)
    hand.record_win(seat, discarder, laid, win_tile, result)
    return result


# -- 长沙 起手小和 --------------------------------------------------------------------------------

def test_an_opening_small_win_is_declared_laid_verified_and_paid_at_once():
    """「小和：四喜（开局摸到四张一样的牌型）…」: seat 1 is dealt four 5万; it presses 胡 and lays its hand,
    the others press 确认.  Every other side pays the 小和 (1)."""
    ruleset = get_region("changsha").resolve()
    hand = built_hand(ruleset, {1: "5555m123p456p789s"})
    laid = list(dealt_tiles(hand, 1))
    ports = FakePorts(ruleset, [(0, Key.CONFIRM), (1, Key.HU), (1, Key.CONFIRM), (2, Key.CONFIRM), (3, Key.CONFIRM)],
                      zones={1: [laid]})
    run(opening_small_wins(ports, hand, None), timeout=5)
    assert Phase.OPENING.value in ports.screens.phases
    assert ports.screens.lines[1][:2] == [OPENING_ASK, LAY_OPENING]
    assert ports.screens.last(1) == f"{OPENING_PAID} +3"
    (event,) = ports.recorder.all("opening_win")
    assert event["accepted"] and [i["name"] for i in event["items"]] == ["四喜"]
    assert hand.payments() == (-1, 3, -1, -1)
    assert sorted(hand.facts.openings) == [0, 1, 2, 3]


def test_an_opening_declaration_not_of_the_seats_own_deal_is_refused():
    """The read zone verifies: tiles that are not what the wall map dealt this seat pay nothing."""
    ruleset = get_region("changsha").resolve()
    hand = built_hand(ruleset, {2: "1234m1234p1234s9s"})
    foreign = parse_tiles("5555m123p456p789s")
    ports = FakePorts(ruleset, [(0, Key.CONFIRM), (1, Key.CONFIRM), (2, Key.HU), (2, Key.CONFIRM), (3, Key.CONFIRM)],
                      zones={2: [foreign]})
    run(opening_small_wins(ports, hand, None), timeout=5)
    assert ports.screens.last(2) == OPENING_REFUSED
    (event,) = ports.recorder.all("opening_win")
    assert not event["accepted"] and "dealt" in event["reason"]
    assert hand.payments() == (0, 0, 0, 0)


def test_a_resumed_opening_phase_does_not_ask_a_seat_that_answered():
    ruleset = get_region("changsha").resolve()
    hand = built_hand(ruleset, {})
    hand.facts.openings = [0, 1, 2]
    ports = FakePorts(ruleset, [(3, Key.CONFIRM)])
    run(opening_small_wins(ports, hand, None), timeout=5)
    assert set(ports.screens.lines) == {3}


# -- who gave a kong (云南) -----------------------------------------------------------------------

def take_kong(hand: HandState, seat: int, concealed: bool) -> None:
    """The seat presses 杠 and takes its replacement from the tail."""
    hand.pending_kong[seat] = concealed
    slot = hand.tracker.next_tail()
    stack = hand.ring[slot.ring]
    hand.on_wall_change(stack, hand.tracker.stack_tiles(stack) - 1)


def test_the_maker_of_an_exposed_kong_is_asked_who_gave_it_and_the_giver_pays():
    """「明杠：…闲家打出一张同玩家相同的牌，玩家杠牌叫明杠。打出一张牌的闲家给玩家2分」: seat 2 konged 上家's
    (seat 1's) discard; ◀ ▶ to 上家, 确认.  An 暗杠 (long press) is not asked about."""
    ruleset = get_region("yunnan").resolve()
    hand = built_hand(ruleset, {})
    take_kong(hand, 2, concealed=False)
    take_kong(hand, 0, concealed=True)
    assert hand.facts.asks == [["kong_from", 2, 0]]
    ports = FakePorts(ruleset, [(2, Key.RIGHT), (2, Key.RIGHT), (2, Key.CONFIRM)])
    run(Questions(ports).ask_due(hand), timeout=5)
    assert ports.screens.lines[2][:3] == [choice_text("第1杠来自", n) for n in ("下家", "对家", "上家")]
    assert ports.recorder.all("kong_from") == [{"event": "kong_from", "seat": 2, "kind": "ming", "from": 1}]
    assert hand.facts.answered_kongs() == ((2, "ming", 1), (0, "an", None))
    assert dict(hand.win_context(3, None, None, (), ()).extra)["kong_events"] == ((2, "ming", 1), (0, "an", None))


def test_a_kong_added_to_ones_own_pung_is_a_zhuanwan_kong():
    ruleset = get_region("yunnan").resolve()
    hand = built_hand(ruleset, {})
    take_kong(hand, 1, concealed=False)
    ports = FakePorts(ruleset, [(1, Key.LEFT), (1, Key.CONFIRM)])
    run(Questions(ports).ask_due(hand), timeout=5)
    assert ports.screens.lines[1][1] == choice_text("第1杠来自", ADDED_KONG)
    assert hand.facts.answered_kongs() == ((1, "zhuanwan", None),)


def test_a_region_whose_kong_money_does_not_depend_on_the_giver_does_not_ask():
    ruleset = get_region("changchun").resolve()
    hand = built_hand(ruleset, {})
    take_kong(hand, 1, concealed=False)
    assert hand.facts.asks == [] and hand.kongs == {1: [False]}


# -- 跟庄 (大包) -------------------------------------------------------------------------------

def draw_heads(hand: HandState, count: int) -> None:
    for _ in range(count):
        slot = hand.tracker.next_head()
        stack = hand.ring[slot.ring]
        hand.on_wall_change(stack, hand.tracker.stack_tiles(stack) - 1)


def test_follow_dealer_is_asked_after_each_round_while_the_rounds_follow():
    """「如果第一圈四个人打出的牌一样叫做跟庄，庄家需给其他人每人一个筹码，第二圈一样继续每人给一个，直到出现不一样的牌」:
    the dealer's 上家 answers 有 for round 1 (the dealer pays each other seat a chip), 无 for round 2;
    round 3 is not asked."""
    ruleset = get_region("dabao").resolve()
    hand = built_hand(ruleset, {}, dealer=1)
    draw_heads(hand, hand.deal_size)               # the deal
    draw_heads(hand, 4)                            # round 1's four discards are down when the 4th draw comes
    assert hand.facts.asks == [["follow_dealer", 0, 1]]
    ports = FakePorts(ruleset, [(0, Key.RIGHT), (0, Key.CONFIRM), (0, Key.CONFIRM)])
    questions = Questions(ports)
    run(questions.ask_due(hand), timeout=5)
    assert ports.screens.lines[0][0] == choice_text(f"{FOLLOW_DEALER}第1圈", "无")
    assert hand.payments() == (1, -3, 1, 1)
    draw_heads(hand, 4)
    run(questions.ask_due(hand), timeout=5)
    draw_heads(hand, 4)
    assert hand.facts.asks == []
    assert [(e["round"], e["followed"]) for e in ports.recorder.all("follow_dealer")] == [(1, True), (2, False)]
    assert hand.payments() == (1, -3, 1, 1)


# -- the settlement round ------------------------------------------------------------------------

def test_guizhou_every_seat_lays_its_hand_and_a_ready_seat_holding_ji_is_paid():
    """「如果有人碰（杠）了3万的话算钱，和牌的人可能赔钱，被胡的人可能赢钱」, 「有3条就有钱」: after seat 0's win the
    others lay their hands.  Seat 1 is ready (有叫) and holds two 1条 (英雄鸡): each other side pays it 2.
    Seat 2 holds a 1条 but is not ready (three suits, no wait): it collects nothing (ji_collect=ready).  Seat 3 never answers:
    its hand counts as not shown, and the recorder says it timed out."""
    ruleset = get_region("guizhou").resolve()
    hand = built_hand(ruleset, {})
    judge_win(hand, 0, None, "123m456m789m123p55p", Tile.M5)
    assert hand.wins
    ready = parse_tiles("11s234s567s789s12m")            # 缺一门 (no 筒), waits on 3万
    not_ready = parse_tiles("1s3s5s7s9s2m4m6m8m1p3p5p7p")
    ports = FakePorts(ruleset, [(0, Key.CONFIRM), (1, Key.CONFIRM), (2, Key.CONFIRM), (1, Key.CONFIRM), (2, Key.CONFIRM)],
                      zones={1: [[], ready], 2: [[], not_ready]})      # (the winner: no 1条 was discarded)
    run(SettlementRound(ports).run(hand), timeout=5)
    assert ports.screens.lines[1][:2] == [SHOW_MELDS, SHOW_HAND]
    (event,) = ports.recorder.all("settlement")
    assert event["seats"] == [1, 2, 3]
    assert event["ready"] == [1]
    assert [(h["seat"], h["shown"], h["timed_out"]) for h in event["hands"]] == [(1, True, False), (2, True, False),
                                                                                 (3, False, True)]
    assert [i["name"] for i in event["items"]] == ["鸡 ×2 (side 1)"]
    assert event["payments"] == [-2, 6, -2, -2]
    win = hand.wins[0].payout.payments
    assert hand.payments() == tuple(w + r for w, r in zip(win, (-2, 6, -2, -2)))
    assert ports.screens.last(1) == f"{READY_MARK} +6"
    assert ports.screens.last(2) == f"{NOT_READY} -2"
    assert ports.screens.last(3) == f"{NOT_SHOWN} {NOT_READY} -2"
    assert hand.facts.round_done


def yunnan_drawn_with_seats_0_and_3_ready():
    """A 云南 hand at a draw whose seats will lay: 0 and 3 ready hands, 1 and 2 not."""
    ruleset = get_region("yunnan").resolve()
    hand = built_hand(ruleset, {})
    ready = parse_tiles("123m456m789m123p5p")
    not_ready = parse_tiles("1m4m7m1p4p7p1s4s7s1z2z3z4z")
    presses = [(s, Key.CONFIRM) for s in (0, 1, 2, 3) for _ in range(2)]
    ports = FakePorts(ruleset, presses, zones={0: [[], ready], 1: [[], not_ready], 2: [[], not_ready], 3: [[], ready]})
    return ruleset, hand, ports


def test_yunnan_cha_da_jiao_pays_the_hands_the_round_finds_ready():
    """「流局查大叫，杠钱不算」: at a draw every seat lays its hand; the ready ones are paid by the others."""
    ruleset, hand, ports = yunnan_drawn_with_seats_0_and_3_ready()
    run(SettlementRound(ports).run(hand), timeout=5)
    assert hand.facts.round_ready == [0, 3]
    assert ports.computed == ["judge_round"]          # every hand's waits judged off the loop (75 ms here once)
    settled = ruleset.scoring.settle_draw(ruleset, DrawContext(0, ruleset.players, tuple(hand.facts.round_ready)))
    assert settled.payments == (2, -2, -2, 2)


def test_yunnan_cha_da_jiao_shows_each_seat_what_the_draw_pays_it():
    """A probe at the table: the seat lines read 有叫 +0 and 无叫 +0 — the round's own payments, which
    查大叫 leaves to the draw's settlement — while the ledger paid +3 -1 -1 -1.  Each line now says what
    the seat gets or pays, and the hand keeps that settlement as its draw."""
    from firmware.hand.flow import draw_payout
    _, hand, ports = yunnan_drawn_with_seats_0_and_3_ready()
    run(SettlementRound(ports).run(hand, settle_draw=draw_payout), timeout=5)
    assert hand.draw.payments == (2, -2, -2, 2) and hand.payments() == (2, -2, -2, 2)
    assert [ports.screens.last(seat) for seat in (0, 1, 3)] == [f"{READY_MARK} +2", f"{NOT_READY} -2", f"{READY_MARK} +2"]


def test_yichang_names_a_flower_pig_and_pays_nothing_for_it():
    """「打完查花猪（三方牌）」: a hand still holding three suits is a 花猪; the text names no penalty."""
    ruleset = get_region("yichang").resolve()
    hand = built_hand(ruleset, {})
    pig = parse_tiles("123m456p789s11s234s")
    clean = parse_tiles("123m456m789m11p234p")
    ports = FakePorts(ruleset, [(s, Key.CONFIRM) for s in (0, 1, 2, 3) for _ in range(2)],
                      zones={0: [[], pig], 1: [[], clean], 2: [[], clean], 3: [[], clean]})
    run(SettlementRound(ports).run(hand), timeout=5)
    (event,) = ports.recorder.all("settlement")
    assert event["flower_pigs"] == [0] and event["payments"] == [0, 0, 0, 0]
    assert "花猪" in ports.screens.last(0)


def test_changchun_kong_seats_lay_their_kongs_and_each_dadan_is_paid_twice():
    """「明大蛋2倍底注，暗大蛋4倍底注」 (house option dadan=laid): after the hand, each seat that pressed 杠 lays
    its 明杠, then its 暗杠 beside them.  Seat 1 (a 明杠 and an 暗杠) lays a 明大蛋 白板 and an 暗大蛋 红中: each
    other side pays it 1 + 2 more than their kongs.  Seat 2 pressed one 明杠 but lays a pung: not its kong,
    no 大蛋, and the recorder says why.  Seat 3 made no kong and is not asked."""
    ruleset = get_region("changchun").resolve({"dadan": "laid"})
    hand = built_hand(ruleset, {})
    hand.kongs = {1: [False, True], 2: [False]}
    white, red = parse_tiles("5555z"), parse_tiles("7777z")
    ports = FakePorts(ruleset, [(1, Key.CONFIRM), (2, Key.CONFIRM), (1, Key.CONFIRM), (2, Key.CONFIRM)],
                      zones={1: [white, white + red], 2: [parse_tiles("333p"), parse_tiles("333p")]})
    run(SettlementRound(ports).run(hand), timeout=5)
    assert ports.screens.lines[1][:2] == [LAY_OPEN_KONGS, LAY_CLOSED_KONGS]
    (event,) = ports.recorder.all("settlement")
    assert event["seats"] == [1, 2]
    assert [(h["seat"], h["shown"], h["melds"]) for h in event["hands"]] == [
        (1, True, ["5555z", "concealed:7777z"]), (2, False, [])]
    assert [i["name"] for i in event["items"]] == ["明大蛋白板 (side 1)", "暗大蛋红中 (side 1)"]
    assert event["payments"] == [-3, 9, -3, -3]
    assert ports.screens.last(1) == "+9" and ports.screens.last(2) == f"{NOT_SHOWN} -3"
    assert any("seat 2 laid" in e["message"] for e in ports.recorder.all("warning"))


def test_a_region_without_a_round_asks_nobody():
    ruleset = get_region("changchun").resolve()
    hand = built_hand(ruleset, {})
    ports = FakePorts(ruleset)
    run(SettlementRound(ports).run(hand), timeout=5)
    assert not ports.recorder.events and hand.facts.round_done


def test_a_hand_of_the_wrong_count_is_a_false_win_not_a_crash():
    """A hand entered tile by tile with a kong's four tiles among the concealed ones (the kong's
    replacement was never seen) is judged 诈胡, and the hand goes on."""
    ruleset = get_region("yichang").resolve()
    hand = built_hand(ruleset, {})
    result = judge_win(hand, 2, 1, "2222s777p333s666s88s", Tile.S8)
    assert not result.verdict.legal and "15 concealed tiles" in result.verdict.failures[0]
    assert hand.wins == []


# -- 长春 opening special kongs --------------------------------------------------------------------

def take_tail_tile(hand: HandState) -> None:
    slot = hand.tracker.next_tail()
    stack = hand.ring[slot.ring]
    hand.on_wall_change(stack, hand.tracker.stack_tiles(stack) - 1)


def test_a_whirlwind_kong_with_an_addition_is_shown_verified_and_replaced():
    """「旋风杠：当发完牌后，手牌中有东、西、南、北风时，可以亮出算一个明杠，如果再有其他的风牌可以补杠，每补一张风牌
    多算一个明杠」: seat 1 (not the dealer) shows 东南西北 and a second 东: two 明杠, two replacements from the
    tail, which the table waits for before asking again."""
    from drivers.table_ui import LAY_SPECIAL, SPECIAL_KONG, SPECIAL_REPLACE
    from firmware.hand.declarations import opening_kongs
    ruleset = get_region("changchun").resolve()
    hand = built_hand(ruleset, {1: "11234z123m456p78s"})
    confirm_none = [(s, Key.CONFIRM) for s in (0,)]
    presses = confirm_none + [(1, Key.RIGHT), (1, Key.CONFIRM), (1, Key.CONFIRM), (1, Key.CONFIRM),
                              (2, Key.CONFIRM), (3, Key.CONFIRM)]
    ports = FakePorts(ruleset, presses, zones={1: [parse_tiles("11234z")]},
                      acts=[lambda: take_tail_tile(hand), lambda: take_tail_tile(hand)])
    run(opening_kongs(ports, hand, None), timeout=5)
    assert Phase.SPECIAL_KONGS.value in ports.screens.phases
    assert ports.screens.lines[1][:4] == [choice_text(SPECIAL_KONG, "无"), choice_text(SPECIAL_KONG, "旋风杠"), "",
                                          LAY_SPECIAL]
    assert f"{SPECIAL_REPLACE} 2" in ports.screens.lines[1]
    (event,) = ports.recorder.all("special_kong")
    assert event["accepted"] and (event["kongs"], event["replacements"]) == (2, 2)
    assert hand.kongs_by_side() == ((1, 2, 0),)
    assert hand.tracker.kongs == 2 and hand.tracker.special_owed == 0
    assert [str(m) for m in hand.facts.special_melds(1)] == ["special:11234z"]


class PlacedPorts(FakePorts):
    """FakePorts where a seat's lines reach its display at known places among the board's events
    (the n-th line of a seat at 10·n) and the read zone holds the laid set only once the player
    has pressed 确认 after seeing the lay prompt (`laid_after`)."""

    def __init__(self, *args, laid_after: int, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.laid_after = laid_after
        self.last_press: Press | None = None

    async def shown(self, seat: int) -> int:
        return 10 * len(self.screens.lines[seat])

    async def next_key(self, panels, keys) -> Press:
        self.last_press = await super().next_key(panels, keys)
        return self.last_press

    async def read_zone(self, seat: int) -> tuple[bytes, ...]:
        if self.last_press is None or self.last_press.heard < self.laid_after:
            return ()                          # the tiles are still in the player's hand
        return await super().read_zone(seat)


def test_a_confirm_pressed_twice_on_the_choice_does_not_confirm_a_special_kong_not_yet_laid():
    """Seat 1 chooses 旋风杠 and presses 确认 twice: the second press reaches the table before
    「摆特殊杠后确认」 is on his display.  It confirms nothing (the zone is still empty: taken, it would
    refuse the set he is about to lay); his 确认 after laying does, and the kong is shown."""
    from drivers.table_ui import LAY_SPECIAL, SPECIAL_REFUSED
    from firmware.hand.declarations import opening_kongs
    ruleset = get_region("changchun").resolve()
    hand = built_hand(ruleset, {1: "11234z123m456p78s"})
    # seat 1's lines: 特殊杠:无 (10), 特殊杠:旋风杠 (20), "" (30), 摆特殊杠后确认 (40), 补牌 2 (50), 特殊杠:无 (60)
    presses = [Press(0, Key.CONFIRM, heard=11),
               Press(1, Key.RIGHT, heard=12), Press(1, Key.CONFIRM, heard=21), Press(1, Key.CONFIRM, heard=22),
               Press(1, Key.CONFIRM, heard=45), Press(1, Key.CONFIRM, heard=61),
               Press(2, Key.CONFIRM, heard=62), Press(3, Key.CONFIRM, heard=63)]
    ports = PlacedPorts(ruleset, zones={1: [parse_tiles("11234z")]}, laid_after=40,
                        acts=[lambda: take_tail_tile(hand), lambda: take_tail_tile(hand)])
    for press in presses:
        ports.keys.put(press)
    run(opening_kongs(ports, hand, None), timeout=5)
    assert LAY_SPECIAL in ports.screens.lines[1] and SPECIAL_REFUSED not in ports.screens.lines[1]
    (event,) = ports.recorder.all("special_kong")
    assert event["accepted"] and event["tiles"] == ["1z", "1z", "2z", "3z", "4z"]
    assert hand.kongs_by_side() == ((1, 2, 0),)


def test_an_opening_answer_from_before_the_question_was_shown_answers_nothing():
    """A restarted controller asks 起手小和 again; the 胡 seat 1 pressed before the kill comes again
    from the board (heard before the question is on its line), and seat 1, on 已重启, presses 胡
    again.  One declaration is judged, and no 胡 is left over to become a win claim in play (found
    by the fault campaign: a stale 胡 started a win check nobody answered, and the table stalled)."""
    ruleset = get_region("changsha").resolve()
    hand = built_hand(ruleset, {1: "5555m123p456p789s"})
    # every seat's 起手小和 line at 10; seat 1's 摆起手牌后确认 at 20
    presses = [Press(1, Key.HU, heard=5), Press(0, Key.CONFIRM, heard=6),          # from before the kill
               Press(0, Key.CONFIRM, heard=11), Press(1, Key.HU, heard=12), Press(2, Key.CONFIRM, heard=13),
               Press(3, Key.CONFIRM, heard=14), Press(1, Key.CONFIRM, heard=25)]
    ports = PlacedPorts(ruleset, zones={1: [list(dealt_tiles(hand, 1))]}, laid_after=20)
    for press in presses:
        ports.keys.put(press)
    run(opening_small_wins(ports, hand, None), timeout=5)
    (event,) = ports.recorder.all("opening_win")
    assert event["accepted"] and sorted(hand.facts.openings) == [0, 1, 2, 3]
    assert ports.keys.peek(lambda p: True) is None          # nothing left for the play to take


def test_the_dealer_may_not_add_on_his_first_turn_and_a_set_not_dealt_is_refused():
    """「庄家第一手不允许补杠」 and 「特殊杠牌只有起手牌才算」: the dealer's 喜杠 with a fourth honour is refused;
    then he shows the plain 喜杠 (no replacement: a 3-tile special kong)."""
    from drivers.table_ui import SPECIAL_REFUSED
    from firmware.hand.declarations import opening_kongs
    ruleset = get_region("changchun").resolve()
    hand = built_hand(ruleset, {0: "5671z123m456p789s1m"})
    presses = [(0, Key.RIGHT), (0, Key.RIGHT), (0, Key.CONFIRM), (0, Key.CONFIRM),      # 喜杠 + 东: refused
               (0, Key.RIGHT), (0, Key.RIGHT), (0, Key.CONFIRM), (0, Key.CONFIRM),      # 喜杠: shown
               (0, Key.CONFIRM), (1, Key.CONFIRM), (2, Key.CONFIRM), (3, Key.CONFIRM)]
    ports = FakePorts(ruleset, presses, zones={0: [parse_tiles("1567z"), parse_tiles("567z")]})
    run(opening_kongs(ports, hand, None), timeout=5)
    assert SPECIAL_REFUSED in ports.screens.lines[0]
    # the seat's line asks the choice again at once: the public line says the refusal (a probe never saw it)
    assert f"{Phase.SPECIAL_KONGS.value} 东{SPECIAL_REFUSED}" in ports.screens.phases
    assert [(e["accepted"], e["tiles"]) for e in ports.recorder.all("special_kong")] == \
        [(False, ["1z", "5z", "6z", "7z"]), (True, ["5z", "6z", "7z"])]
    assert hand.kongs_by_side() == ((0, 1, 0),) and hand.tracker.special_owed == 0


def test_a_round_taken_up_after_a_restart_says_so():
    """A probe at the table (云南, killed at 请亮牌结算): the 确认 the seats had pressed were dropped as
    pressed before the restart, but the round's line never said 已重启 未应答的键请再按."""
    from drivers.table_ui import RESTARTED, Phase
    from firmware.hand.flow import HandFlow
    _, hand, ports = yunnan_drawn_with_seats_0_and_3_ready()
    hand.phase = "settling"
    run(HandFlow(ports).resume(hand, totals=(0, 0, 0, 0), cause="restart"), timeout=5)
    assert f"{Phase.SETTLE.value} {RESTARTED}" in ports.screens.phases
