"""Group A scorers: on every seat arrangement the payments sum to zero and the winner gains.

Each region settles a complete hand (judged with its own rules, legal or not: the scorer prices the
reading) for every winner, dealer and discarder (or self-draw), with the winner's kongs and other per-seat facts set.
"""

import itertools

import pytest

from rulesets.hand import Hand, WinContext
from rulesets.regions import get_region
from rulesets.tiles import Tile
from rulesets.winrules import judge

HANDS = {  # region: (tiles, melds, win tile, wilds)
    "shenyang": ("123m789p46s11s5s", ["555p"], "5s", ()),
    "hebei": ("123m456m789m11p999p", [], "9p", (Tile.S5, Tile.S6)),
    "wuhan": ("456m78p3z234s55s", ["123m"], "4s", (Tile.WEST,)),
    "guangshui": ("123p456p789s11p46s5s", [], "5s", ()),
    "hainan": ("123m456p789s234s11p1f", [], "4s", ()),
    "dabao": ("123m456p789s55s", ["5555z"], "5s", ()),
    "zuanpai": ("123m456p789s55s777z", [], "7z", (Tile.M5,)),
    "nanchang": ("123m789s55s123z3p3p4p", [], "4p", (Tile.P3, Tile.P4)),
    "hangzhou": ("123m456p789s555s5z2p", [], "2p", (Tile.WHITE,)),
    "wenzhou": ("123m456m78m9s123p456p11z", [], "1z", (Tile.S9,)),
}
EXTRA = (("gang_events", ((0, 1, 0, 0),)), ("jing_by_side", ((2, 1, 1),)), ("caishen_by_side", ((3, 1),)),
         ("fa_shown", 1), ("cai_piao", 1))


def arrangements(sides):
    for winner, dealer in itertools.product(sides, sides):
        for discarder in (None,) + tuple(s for s in sides if s != winner):
            yield winner, dealer, discarder


@pytest.mark.parametrize("region_id", sorted(HANDS))
def test_payments_balance_and_the_winner_gains(region_id):
    tiles, melds, win, wilds = HANDS[region_id]
    ruleset = get_region(region_id).resolve()
    sides = ruleset.players
    hand = Hand.parse(tiles, melds, honour_chows=ruleset.win.shapes.honour_chows)
    for winner, dealer, discarder in arrangements(sides):
        context = WinContext(winner=winner, dealer=dealer, discarder=discarder, win_tile=Tile.parse(win),
                             sides=sides, wilds=wilds, kongs_by_side=((winner, 1, 1),), ready_declared=True,
                             ready_sides=(winner,), consecutive_dealer=1, extra=EXTRA)
        verdict = judge(ruleset.win, ruleset.hand_size, hand, context, wilds)
        assert verdict.complete, region_id
        settlement = ruleset.scoring.settle(ruleset, hand, verdict, context)
        assert sum(settlement.payments) == 0, (region_id, winner, dealer, discarder, settlement)
        assert settlement.payments[winner] > 0, (region_id, winner, dealer, discarder, settlement)
        assert all(settlement.payments[s] == 0 for s in range(4) if s not in sides)
