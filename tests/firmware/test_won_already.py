"""A 胡 from a seat that won already is that win again, not a new claim: 血战 (he is out of play) and
血流成河 until a tile is taken after his win (then a discard can make him win again)."""

from types import SimpleNamespace

from firmware.hand.state import HandState
from rulesets.hand import Hand
from rulesets.regions import get_region
from rulesets.tiles import Tile
from rulesets.walls import Break, Layer, Slot


def a_hand(region_id: str) -> tuple[HandState, list]:
    ruleset = get_region(region_id).resolve()
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
