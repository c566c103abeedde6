"""百搭 block, house option `baida_white`: whether 「其中一张白板可以用作代替该张翻开的牌」 holds under 带弟百搭 too."""

from rulesets.hand import Hand
from rulesets.judging import evaluate_hand
from rulesets.regions import get_region
from rulesets.tiles import Tile
from rulesets.winrules import WinContext

# 带弟百搭 with 8m flipped: 9m is the 百搭.  The hand needs a natural 9m for 789m; it holds a 白板.
HAND = "123m78m456p789s22z5z"


def _judged(options: dict[str, str]):
    ruleset = get_region("baida").resolve({"baida_mode": "daidi", **options})
    return evaluate_hand(ruleset, Hand.parse(HAND), WinContext(winner=0, win_tile=Tile.WHITE, wilds=(Tile.M9,)))


def test_daidi_white_is_a_white_by_default():
    assert not _judged({}).verdict.legal


def test_daidi_white_plays_the_baida_face_when_the_house_says_both():
    judged = _judged({"baida_white": "both"})
    assert judged.verdict.legal
    assert any(Tile.WHITE in g.sources and Tile.M9 in g.tiles for g in judged.verdict.shape.groups)
    assert judged.settlement.payments == (3, -1, -1, -1)


def test_a_white_baida_has_no_stand_in():
    """带弟 with 发 flipped makes 白 the 百搭 (one cycle 东南西北中发白): a 白板 is then a wild, not a stand-in."""
    ruleset = get_region("baida").resolve({"baida_mode": "daidi", "baida_white": "both"})
    judged = evaluate_hand(ruleset, Hand.parse("123m78m456p789s22z5z"), WinContext(winner=0, win_tile=Tile.WHITE,
                                                                                   wilds=(Tile.WHITE,)))
    assert judged.verdict.legal     # the 白板 is wild: it stands for the 9m
