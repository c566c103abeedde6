"""A 胡 from a seat that won already is that win again, not a new claim: 血战 (he is out of play) and
血流成河 until a tile is taken after his win (then a discard can make him win again)."""

from types import SimpleNamespace

from firmware.hand.state import HandState
from rulesets.hand import Hand
from rulesets.regions import get_region
from rulesets.tiles import Tile
from rulesets.walls import Break, Layer, Slot


def a_hand(region_id: str, options: dict[str, str] | None = None) -> tuple[HandState, list]:
    ruleset = get_region(region_id).resolve(options)
    ring = ruleset.layout.ring(Break(0, 3))
    wall = {Slot(i, layer): Tile.M1 for i in range(len(ring)) for layer in (Layer.TOP, Layer.BOTTOM)}
    return HandState(ruleset, 1, 0, [(1, 2)], Break(0, 3), wall, 53, salt="s"), ring


def won(hand: HandState, seat: int) -> None:
    settlement = SimpleNamespace(payments=(3, -1, -1, -1), items=())
    hand.record_win(seat, None, Hand((), (), ()), Tile.M1, SimpleNamespace(verdict=SimpleNamespace(legal=True),
                                                                            settlement=settlement))


def test_a_winner_who_plays_on_claims_again_only_after_a_tile_is_taken():
    hand, ring = a_hand("yichang")
    assert not hand.won_already(0)
    won(hand, 0)
    assert hand.won_already(0) and not hand.won_already(1)
    hand.on_wall_change(ring[0], 1)                     # a tile taken since: a new claim may follow
    assert not hand.won_already(0)
    assert HandState.from_json(hand.to_json()).wins[0].takes == hand.wins[0].takes


def test_a_winner_out_of_play_has_always_won_already():
    hand, ring = a_hand("sichuan")
    won(hand, 2)
    hand.on_wall_change(ring[0], 1)
    assert hand.won_already(2)


def test_a_repeated_hu_is_judged_as_it_arrives_not_when_the_flow_gets_to_it():
    """血流: his 胡 arrives before any tile is taken (the flow still waits on his line), and tiles are
    taken before the flow handles it: it is still his win again — answered with his line, never a new
    check whose questions he would not answer (the stall of CI's run of stop 19)."""
    from firmware.hand.flow import HandFlow, TellAgain
    from firmware.hand.ports import Press
    from drivers.table_ui import Key, WIN_DONE
    from tests.firmware.fake_ports import FakePorts

    hand, ring = a_hand("yichang")
    flow = HandFlow(FakePorts(hand.ruleset))
    flow.hand = hand
    hand.phase = "playing"
    won(hand, 0)
    assert flow.on_key(Press(0, Key.HU))                 # taken at once, not queued for the flow
    hand.on_wall_change(ring[0], 1)                      # the next player draws meanwhile
    item = flow._play_input(hand, tuple(hand.ruleset.players))
    assert item == TellAgain(0)
    flow.win_check.tell_again(hand, 0)
    assert flow.ports.screens.last(0) == f"{WIN_DONE} +3"
    assert not flow.on_key(Press(0, Key.HU))             # after that take, a new 胡 is a new claim


def test_a_win_keeps_its_line_through_the_journal_for_a_restarted_controller_to_name():
    """A kill can cut a win's line from the file after the journal kept the win: the restarted
    controller's `resumed` names it from the journal (the audit reads it there)."""
    hand, _ = a_hand("sichuan")
    line = {"seat": 2, "from": None, "tiles": ["1m"], "payments": [-1, -1, 3, -1]}
    settlement = SimpleNamespace(payments=(-1, -1, 3, -1), items=())
    hand.record_win(2, None, Hand((), (), ()), Tile.M1, SimpleNamespace(verdict=SimpleNamespace(legal=True),
                                                                        settlement=settlement), line)
    assert HandState.from_json(hand.to_json()).wins[0].event == line
