"""贵州 打明鸡 on a kong (RULES.md §13.2–13.3): 「打明鸡 起牌后三墩翻起～如翻2条，3条就是鸡。有3条就有钱！！！而且有杠牌
就要翻第四墩～以此类推」 [000:55].

House option `ming_ji_kong`: after each kong's replacement the top of the next stack is turned up, counted
from the wall's original tail (the 4th stack after the first kong, the 5th after the second, …): `add`
(§13.3 a2, default) — every 明鸡 counts; `move` (a1) — only the latest; `none` — nothing.  The hand's
parts run here on `FakePorts`: the reveal is made with the kong's take, journaled with it, and a hand
restored from its journal between the take and the reveal turns it up once, where it lay.
"""

from drivers.table_ui import Key
from firmware.hand.flow import HandFlow
from firmware.hand.settlement import SettlementRound
from firmware.hand.state import HandState, kong_step
from firmware.hand.win_check import WinCheck, paying_flips, standing_paying_flips
from rulesets.indicators import CountFromTail, RevealContext, StackFromOriginalTail, Timing
from rulesets.regions import get_region
from rulesets.tiles import Tile, parse_tiles
from rulesets.walls import Layer, Slot
from tests.asyncio_support import run
from tests.firmware.fake_ports import FakePorts
from tests.firmware.test_asked_facts import built_hand
from tests.firmware.test_liang_and_la_zhuang import take_head

REGION = get_region("guizhou")


def resolved(kong: str | None = None):
    return REGION.resolve({"ming_ji": "on"} | ({"ming_ji_kong": kong} if kong else {}))


def place(hand: HandState, slot: Slot, tile: Tile, keep=()) -> None:
    """Put `tile` at `slot`, swapping it with a copy elsewhere (the set stays whole)."""
    if hand.wall[slot] == tile:
        return
    other = next(s for s, t in hand.wall.items() if t == tile and s != slot and s not in keep)
    hand.wall[slot], hand.wall[other] = tile, hand.wall[slot]


class Shown(FakePorts):
    """FakePorts whose public screen keeps what it shows."""

    def __init__(self, ruleset, *args, **kwargs) -> None:
        super().__init__(ruleset, *args, **kwargs)
        self.public: list[tuple[list[str], list[str]]] = []
        self.screens.public_indicators = lambda names, wilds: self.public.append((list(names), list(wilds)))


def playing(kong: str | None = None, tiles: dict[int, str] | None = None,
            after_win: str = "7p") -> tuple[HandState, HandFlow, Shown]:
    """A 贵州 hand (打明鸡) dealt, its 明鸡 turned up (2条 on the 3rd stack from the tail), in play; `tiles`
    puts tiles on the k-th stack from the tail (its top); the after-win flip will be `after_win`."""
    ruleset = resolved(kong)
    built = built_hand(ruleset, {})
    n = len(built.ring)
    placed = {3: "2s"} | (tiles or {})
    keep: list[Slot] = []
    for back, tile in placed.items():
        slot = Slot(n - back, Layer.TOP)
        place(built, slot, Tile.parse(tile), keep=keep)
        keep.append(slot)
    place(built, built.ring.head_slot(built.deal_size), Tile.parse(after_win), keep=keep)
    hand = HandState(ruleset, 1, 0, [(1, 2)], built.brk, dict(built.wall), built.deal_size, salt="s")
    take_head(hand, hand.deal_size)
    ports = Shown(ruleset)
    flow = HandFlow(ports)
    flow.hand = hand
    hand.phase = "revealing"
    run(flow._reveal_after_deal(hand), timeout=5)
    hand.phase = "playing"
    return hand, flow, ports


def kong_take(hand: HandState, seat: int = 1, flow: HandFlow | None = None) -> None:
    """Seat `seat` presses 杠 and takes the replacement from the tail (through the flow when given)."""
    hand.pending_kong[seat] = False
    slot = hand.tracker.next_tail()
    stack = hand.ring[slot.ring]
    if flow is None:
        hand.on_wall_change(stack, hand.tracker.stack_tiles(stack) - 1)
    else:
        flow.on_wall_change(stack, hand.tracker.stack_tiles(stack) - 1)


def indicators(ports: FakePorts) -> list[tuple[list[int], list[str], int | None]]:
    return [(e["ring"], e["tile"], e.get("kong")) for e in ports.recorder.all("indicator")]


def test_the_card_offers_the_kong_readings_as_a_house_option():
    option = next(o for o in REGION.options if o.key == "ming_ji_kong")
    assert option.values == ("add", "move", "none") and option.default == "add"
    assert dict(option.value_labels) == {"add": "杠后加翻", "move": "杠后移鸡", "none": "杠不翻"}
    assert option.source.kind == "open" and option.source.ref.endswith("§13.3")
    (standing,) = [r for r in resolved().indicators if r.timing is Timing.AFTER_DEAL]
    assert standing.position == CountFromTail(fixed=3)
    assert standing.on_kong == "add" and standing.kong_position == StackFromOriginalTail(3)
    assert resolved("move").indicators[-1].on_kong == "move"
    assert resolved("none").indicators[-1].on_kong == "" and resolved("none").indicators[-1].kong_position is None
    assert any("有杠牌就要翻第四墩" in note and "a2" in note for note in standing.notes)
    assert not any("turns up no further 明鸡 and does not move it" in note for note in REGION.notes)


def test_the_kth_kong_turns_up_the_stack_3_plus_k_from_the_original_tail():
    hand, _, _ = playing()
    n = len(hand.ring)
    ctx = hand._reveal_context(())
    position = StackFromOriginalTail(3)
    assert position.slots(ctx) == (Slot(n - 3, Layer.TOP),)
    for k in (1, 2, 5):
        assert position.slots(RevealContext(ctx.ring, ctx.layout, 0, ctx.next_head, 3, (), ctx.taken, k)) \
            == (Slot(n - 3 - k, Layer.TOP),)
    # a tile already taken is never an indicator: the kong turns up nothing
    gone = RevealContext(ctx.ring, ctx.layout, 0, ctx.next_head, 0, (), frozenset({Slot(n - 4, Layer.TOP)}), 1)
    assert position.slots(gone) == ()


def test_a_kong_turns_up_the_fourth_stack_and_both_count_with_add():
    hand, flow, ports = playing(tiles={4: "5m"})
    n = len(hand.ring)
    kong_take(hand, flow=flow)
    assert indicators(ports) == [([n - 3], ["2s"], None), ([n - 4], ["5m"], 1)]
    assert kong_step(1, 1) in hand.steps_done
    assert standing_paying_flips(hand) == (Tile.S2, Tile.M5)
    assert ports.public[-1][0] == ["二条", "五万"]
    (flip,) = hand.rules_at(Timing.AFTER_WIN)
    hand.reveal(flip)
    assert paying_flips(hand)[:2] == (Tile.S2, Tile.M5)


def test_with_move_only_the_latest_ming_ji_counts():
    hand, flow, ports = playing("move", tiles={4: "5m", 5: "8p"})
    n = len(hand.ring)
    kong_take(hand, flow=flow)
    assert standing_paying_flips(hand) == (Tile.M5,)
    assert ports.public[-1][0] == ["五万"]
    kong_take(hand, seat=2, flow=flow)
    assert indicators(ports)[-1] == ([n - 5], ["8p"], 2)
    assert standing_paying_flips(hand) == (Tile.P8,)


def test_with_none_a_kong_turns_up_nothing():
    hand, flow, ports = playing("none", tiles={4: "5m"})
    kong_take(hand, flow=flow)
    assert len(indicators(ports)) == 1 and standing_paying_flips(hand) == (Tile.S2,)


def test_a_restart_between_the_kong_and_its_reveal_turns_it_up_once():
    """The controller is killed after the kong's replacement was journaled, before its 明鸡: the hand
    restored from `to_json` turns it up once as play goes on, and a second restart does not again."""
    hand, _, _ = playing(tiles={4: "5m"})
    n = len(hand.ring)
    kong_take(hand)                             # the take applied, no reveal yet: journaled here
    restored = HandState.from_json(hand.to_json())
    assert restored == hand and restored.kong_reveals_due() == [(1, restored.ruleset.indicators[1], 1)]
    ports = Shown(restored.ruleset)
    flow = HandFlow(ports)
    flow.hand = restored
    flow._reveal_on_kongs(restored)
    assert indicators(ports) == [([n - 4], ["5m"], 1)]
    again = HandState.from_json(restored.to_json())
    assert again == restored and again.kong_reveals_due() == []
    assert standing_paying_flips(again) == (Tile.S2, Tile.M5)
    second = HandFlow(Shown(again.ruleset))
    second.hand = again
    second._reveal_on_kongs(again)
    assert second.ports.recorder.all("indicator") == []


def test_no_reveal_before_play_nor_after_the_win():
    hand, flow, ports = playing(tiles={4: "5m"})
    hand.phase = "settling"
    kong_take(hand, flow=flow)
    assert len(indicators(ports)) == 1


def test_the_win_and_the_settlement_round_count_the_kongs_ming_ji():
    """The 4th stack's 5万 makes 6万 a 鸡 (seat 2's kong turned it up): seat 3, winning on seat 1's discard
    with four 6万, is paid for them; ready seat 0 with four 6万 too, in the settlement round (add)."""
    hand, flow, ports = playing(tiles={4: "5m"})
    kong_take(hand, seat=2, flow=flow)
    judge = FakePorts(hand.ruleset, [(3, Key.CONFIRM), (3, Key.CONFIRM)],
                      zones={3: [[], list(parse_tiles("666m456m789m234p55p"))]})
    run(WinCheck(judge)._judge(hand, 3, 1), timeout=5)
    (win,) = judge.recorder.all("win")
    assert win["context"]["flipped"][:2] == ["2s", "5m"]
    assert "鸡 ×4 (side 3)" in [i["name"] for i in win["items"] if i["pinyin"] == "ji"]
    ready = parse_tiles("666m456m789m12p55p")
    rnd = FakePorts(hand.ruleset, [(3, Key.CONFIRM)] + [(s, Key.CONFIRM) for s in (0, 1, 2) for _ in range(2)],
                    zones={0: [[], ready], 1: [[], []], 2: [[], []]})
    run(SettlementRound(rnd).run(hand), timeout=5)
    (event,) = rnd.recorder.all("settlement")
    assert event["flipped"][:2] == ["2s", "5m"] and "鸡 ×4 (side 0)" in [i["name"] for i in event["items"]]


def test_after_the_round_the_winners_line_says_the_rounds_money_beside_the_wins():
    """The winner's line said the win's money (胡 +N) and kept it after the round, which paid him too:
    the line now says both, so a player reads what the hand paid him."""
    hand, flow, ports = playing(tiles={4: "5m"})
    kong_take(hand, seat=2, flow=flow)
    judge = FakePorts(hand.ruleset, [(3, Key.CONFIRM), (3, Key.CONFIRM)],
                      zones={3: [[], list(parse_tiles("666m456m789m234p55p"))]})
    run(WinCheck(judge)._judge(hand, 3, 1), timeout=5)
    won = judge.recorder.all("win")[0]["payments"][3]
    assert judge.screens.last(3) == f"胡 {won:+d}"
    rnd = FakePorts(hand.ruleset, [(3, Key.CONFIRM)] + [(s, Key.CONFIRM) for s in (0, 1, 2) for _ in range(2)],
                    zones={0: [[], parse_tiles("666m456m789m12p55p")], 1: [[], []], 2: [[], []]})
    run(SettlementRound(rnd).run(hand), timeout=5)
    paid = rnd.recorder.all("settlement")[0]["payments"]
    assert paid[3] != 0                           # seat 0's 鸡, paid by every seat, the winner too
    assert rnd.screens.last(3) == f"胡 {won:+d} 结算 {paid[3]:+d}"
    assert rnd.screens.last(0).endswith(f"{paid[0]:+d}") and "胡" not in rnd.screens.last(0)
