"""The listed readings kept between judgements (rulesets/winning/evaluator.py `_LISTED`): a hand
with fewer than two wilds, judged self-drawn and then won on a discard (as the simulated players
ask), is split once; and a judgement with kept readings is the judgement made afresh."""

import random

from rulesets.hand import Hand, WinContext
from rulesets.judging import evaluate_hand, is_legal
from rulesets.regions import get_region
from rulesets.tiles import Tile, parse_tiles
from rulesets.winning import evaluator
from rulesets.winning.walk_memo import WalkMemo
from tests.rulesets.random_hands import eleven_and_a_pung


def test_a_hand_judged_self_drawn_then_on_a_discard_is_split_once(monkeypatch):
    """长沙's 二五八 将 reads the reading: a pair of 3s fails self-drawn and on a discard alike,
    and the second judgement takes the readings the first one listed.  (The players' `is_legal`
    no longer asks the judge here: no reading of the hand can have a 2/5/8 pair.)"""
    monkeypatch.setattr(evaluator, "_LISTED", WalkMemo(), raising=False)
    splits = []
    real = evaluator.standard_splits
    monkeypatch.setattr(evaluator, "standard_splits", lambda *a, **k: splits.append(1) or real(*a, **k))
    ruleset = get_region("changsha").resolve({})
    hand = Hand(tuple(sorted(parse_tiles("1m2m3m4m5m6m7m8m9m2p3p4p3s3s"))))
    for discarder in (None, 3):
        context = WinContext(winner=0, dealer=0, discarder=discarder, sides=(0, 1, 2, 3), win_tile=Tile.M9)
        assert not evaluate_hand(ruleset, hand, context, settle=False).verdict.legal
    assert len(splits) == 1
    assert not is_legal(ruleset, hand, context) and len(splits) == 1       # (refused unsplit)


def test_judgements_with_the_readings_kept_agree_with_judgements_made_afresh(monkeypatch):
    """Hands of regions with readings that matter (长沙 将, 四川 缺一门, 上海 碰碰胡, 八枝), each
    judged won on two of its kinds, self-drawn then on a discard: the verdict and the settlement
    with the readings kept from the judgement before are those of a judgement with none kept."""
    rng = random.Random(11)
    checked = legal = 0
    for region in ("changsha", "sichuan", "shanghai", "bazhi"):
        ruleset = get_region(region).resolve({})
        kinds = [t for t in ruleset.tiles.kinds if not t.is_flower]
        for _ in range(60):
            hand = eleven_and_a_pung(rng, kinds, [])
            for win_tile in rng.sample(sorted(set(hand.concealed)), 2):
                for discarder in (None, 2):
                    context = WinContext(winner=0, dealer=0, discarder=discarder, sides=(0, 1, 2, 3),
                                         win_tile=win_tile)
                    kept = evaluate_hand(ruleset, hand, context)
                    asked = is_legal(ruleset, hand, context)
                    monkeypatch.setattr(evaluator, "_LISTED", WalkMemo())      # nothing kept
                    fresh = evaluate_hand(ruleset, hand, context)
                    case = (region, hand, win_tile, discarder)
                    assert kept.verdict == fresh.verdict and asked == fresh.verdict.legal, case
                    assert kept.settlement == fresh.settlement, case
                    checked += 1
                    legal += fresh.verdict.legal
    assert checked == 960 and legal > 50

