"""The collapsed walk kept between judgements (rulesets/winning/walk_memo.py): views are compared by
what they compute, never by chance, and a kept answer is the walk's own."""

import random

from rulesets.hand import Hand, Meld, MeldKind, WinContext
from rulesets.judging import evaluate_hand
from rulesets.regions import get_region
from rulesets.scoring.views import reading_view
from rulesets.tiles import Tile, parse_tiles
from rulesets.winning.walk_memo import UNKEYABLE, WalkMemo, view_key
from tests.rulesets.random_hands import eleven_and_a_pung


def _made_for(seat: int):
    return lambda kind, faces, places, role: (kind, seat, faces[0] == seat)


def test_views_made_alike_key_alike_and_views_that_differ_do_not():
    assert view_key(_made_for(1)) == view_key(_made_for(1))
    assert view_key(_made_for(1)) != view_key(_made_for(2))
    assert view_key(_made_for(1)) != view_key(_made_for(True))        # equal values, not alike
    assert view_key(lambda kind, faces, places, role: kind) != view_key(lambda kind, faces, places, role: faces)
    seen = {}
    assert view_key(lambda kind, faces, places, role: seen.get(kind)) is UNKEYABLE
    assert view_key(None) is None


def test_the_wuhan_view_for_a_self_drawn_win_and_for_one_on_a_discard_key_alike():
    ruleset = get_region("wuhan").resolve({})
    drawn = WinContext(winner=0, dealer=0, sides=(0, 1, 2, 3), win_tile=Tile.S2, wilds=(Tile.M2,))
    claimed = WinContext(winner=0, dealer=0, discarder=3, sides=(0, 1, 2, 3), win_tile=Tile.S2, wilds=(Tile.M2,))
    first, second = (reading_view(ruleset, c, scoring=False) for c in (drawn, claimed))
    assert first is not second and view_key(first) == view_key(second) is not UNKEYABLE


def test_the_memo_keeps_the_last_answers_and_walks_what_it_forgot():
    memo = WalkMemo(size=2)
    walked = []
    for key in ("a", "b", "a", "c", "a", "b"):
        memo.answer(key, lambda key=key: walked.append(key) or key.upper())
    assert walked == ["a", "b", "c", "b"] and len(memo) == 2


def test_judgements_with_the_walk_kept_agree_with_every_reading():
    """武汉 and 螺山 hands with two to four wilds, each judged won on two of its kinds, self-drawn
    then on a discard (walks kept from the judgements before), against every reading: the
    verdict and the settlement."""
    rng = random.Random(5)
    checked = legal = 0
    for region, wild in (("wuhan", Tile.M2), ("luoshan", Tile.P5)):
        ruleset = get_region(region).resolve({})
        kinds = [t for t in ruleset.tiles.kinds if not t.is_flower and t != wild]
        for _ in range(120):
            hand = eleven_and_a_pung(rng, kinds, [wild] * rng.randint(2, 4))
            for win_tile in rng.sample(sorted(set(hand.concealed) - {wild}), 2):
                for discarder in (None, 2):
                    context = WinContext(winner=0, dealer=0, discarder=discarder, sides=(0, 1, 2, 3),
                                         win_tile=win_tile, wilds=(wild,))
                    every = evaluate_hand(ruleset, hand, context, exhaustive=True)
                    kept = evaluate_hand(ruleset, hand, context)
                    asked = evaluate_hand(ruleset, hand, context, settle=False).verdict
                    case = (region, hand, win_tile, discarder)
                    assert kept.verdict.legal == asked.legal == every.verdict.legal, case
                    assert kept.settlement == every.settlement, case
                    checked += 1
                    legal += every.verdict.legal
    assert checked == 960 and legal > 50



def test_a_hand_parsed_from_text_judges_the_same_twice():
    ruleset = get_region("wuhan").resolve({})
    hand = Hand(tuple(sorted(parse_tiles("2m2m2m5m5m3s4s4s4s5s6s"))), (Meld(MeldKind.PUNG, tuple(parse_tiles("3m3m3m"))),))
    context = WinContext(winner=0, dealer=0, sides=(0, 1, 2, 3), win_tile=Tile.M2, wilds=(Tile.M2,))
    first = evaluate_hand(ruleset, hand, context)
    again = evaluate_hand(ruleset, hand, context)
    assert first.verdict == again.verdict and first.settlement == again.settlement
