"""A 诈胡 while a private 宝 is in force (长春: the 宝 is shown to the ready seats only): the judge's
reasons were in the live `false_win` event and the log — `宝 tiles held in the hand are themselves`,
`on a discard the 宝 is an ordinary tile` — and, beside the laid tiles, told everyone not ready which
kinds the 宝 is or is not while the hand went on (a probe: the 宝 narrowed to the kinds laid).  They are
withheld until hand_end, which reveals them with the wall; the journal keeps them across a restart."""

from drivers.table_ui import Key
from firmware.hand.state import HandState
from firmware.hand.win_check import WinCheck
from firmware.table_log import describe
from rulesets.indicators import Timing
from rulesets.regions import get_region
from rulesets.tiles import Tile, parse_tiles
from tests.asyncio_support import run
from tests.firmware.fake_ports import FakePorts
from tests.firmware.test_asked_facts import built_hand
from tests.firmware.test_liang_and_la_zhuang import take_head

SEAT, DISCARDER = 2, 1


def false_win(bao_chosen: bool) -> tuple[HandState, dict, FakePorts]:
    ruleset = get_region("changchun").resolve()
    hand = built_hand(ruleset, {})
    take_head(hand, hand.deal_size)
    hand.ready.append(SEAT)
    if bao_chosen:
        hand.choose_bao(next(r for r in ruleset.indicators if r.timing is Timing.ON_READY), (3,))
        hand.show_bao_to(SEAT)
        bao = hand.bao.special[0]
    else:
        bao = Tile.parse("7z")
    held = list(parse_tiles("111m13m456p789s99s")) + [bao]      # not a win, with or without the 宝 standing in
    ports = FakePorts(ruleset, presses=[(SEAT, Key.CONFIRM), (SEAT, Key.CONFIRM)],   # 摆手牌后确认; 胡牌: the first kind
                      zones={SEAT: [[], held]})
    run(WinCheck(ports)._judge(hand, SEAT, DISCARDER), timeout=10)
    (event,) = ports.recorder.all("false_win")
    return hand, event, ports


def test_the_reasons_of_a_false_win_wait_for_the_hand_s_end_while_the_bao_is_private():
    hand, event, _ = false_win(bao_chosen=True)
    assert "failures" not in event and event["withheld"] is True
    _, line = describe({**event, "hand": 1})
    assert "宝 tiles" not in line and "ordinary tile" not in line and "said at the hand's end" in line
    (told,) = hand.hand_end_fields()["false_wins"]
    assert told["seat"] == SEAT and told["failures"], told          # the judge's reasons, now public
    again = HandState.from_json(hand.to_json())                      # a restart keeps them for hand_end
    assert again.hand_end_fields()["false_wins"] == [told]


def test_without_a_private_bao_the_reasons_are_said_at_once():
    hand, event, _ = false_win(bao_chosen=False)
    assert event["failures"] and "withheld" not in event
    assert "false_wins" not in hand.hand_end_fields()
