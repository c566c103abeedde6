"""温州 财神独立结算 (RESEARCH.md §3.3: each player's 财神 count n pays out as 4n − total) counted the
winner's 财神 only at the table: the others' hands were never seen, so a side holding two 财神 paid
for the winner's instead of collecting (a probe).  After a win every other seat lays its hand
(house option caishen_settlement, default all_sides) and the round settles the rest: the win and the
round together pay N·n − T to every side, whatever the counts."""

from __future__ import annotations

import itertools

from rulesets.hand import Hand
from rulesets.regions import get_region
from rulesets.rounds import RoundContext, SeatShown, judge_round, round_phases
from rulesets.scoring.wenzhou import caishen_payments
from rulesets.tiles import Tile

CAISHEN = Tile.parse("9s")
FILLER = [Tile.parse(t) for t in ("1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "1z", "1z", "1z", "2z", "2z", "2z",
                                  "3z", "3z")]


def hand_with(caishen: int) -> Hand:
    return Hand(tuple(sorted([CAISHEN] * caishen + FILLER[:16 - caishen])), (), ())


def test_the_win_and_the_round_together_pay_n_n_minus_t_to_every_side():
    ruleset = get_region("wenzhou").resolve()
    assert "settle_every_seat" in round_phases(ruleset)
    sides = tuple(ruleset.players)
    for winner in sides:
        for counts in itertools.product(range(4), repeat=4):
            if sum(counts) > 4:
                continue
            others = {side: counts[side] for side in sides if side != winner}
            won = caishen_payments({winner: counts[winner]}, sides)         # the win: the winner's alone
            context = RoundContext(dealer=0, sides=sides, winners=(winner,), wilds=(CAISHEN,),
                                   shown=tuple(SeatShown(side, hand_with(n)) for side, n in others.items()))
            laid = judge_round(ruleset, context).settlement.payments
            together = tuple(a + b for a, b in zip(won, laid))
            assert together == tuple(4 * counts[s] - sum(counts) for s in sides), (winner, counts)


def test_winner_only_lays_no_hands():
    assert "settle_every_seat" not in round_phases(get_region("wenzhou").resolve({"caishen_settlement": "winner_only"}))
