"""内蒙: the three win requirements of RULES.md §16, each on its own; no values (a flat 1 point)."""

from rulesets.hand import Hand, WinContext
from rulesets.judging import evaluate_hand
from rulesets.regions import get_region
from rulesets.tiles import Tile

NEIMENGGU = get_region("neimenggu").resolve()


def judge(tiles, win, melds=(), discarder=2):
    context = WinContext(winner=1, dealer=0, discarder=discarder, win_tile=Tile.parse(win))
    return evaluate_hand(NEIMENGGU, Hand.parse(tiles, melds), context)


def failed(result):
    return " ".join(result.verdict.failures)


def test_a_legal_hand_and_its_flat_value():
    """A 吃 opens, a 暗刻 is the 刻, 1m is the 幺九; the text gives no values: 1 point."""
    result = judge("555p789s11s45s6s", "6s", ["123m"])
    assert result.verdict.legal
    assert result.settlement.total == 1 and result.settlement.payments == (0, 1, -1, 0)


def test_needs_a_pung_or_kong():
    """「一是必须有碰或杠才可以，也可以自己手里有暗刻」"""
    no_pung = judge("234p789s11s45s6s", "6s", ["123m"])
    assert no_pung.verdict.complete and "(ke)" in failed(no_pung)
    assert judge("789s11s45s6s", "6s", ["123m", "555p"]).verdict.legal         # a 碰
    assert judge("789s11s45s6s", "6s", ["123m", "concealed:5555p"]).verdict.legal  # a 暗杠


def test_must_open():
    """「二是必须要开门，就是要吃上家的牌或者碰别人的牌」: a 暗杠 does not open."""
    closed = judge("123m555p789s11s45s6s", "6s")
    assert closed.verdict.complete and "(kaimen)" in failed(closed)
    concealed_kong = judge("123m789s11s45s6s", "6s", ["concealed:5555p"])
    assert concealed_kong.verdict.complete and "(kaimen)" in failed(concealed_kong)
    assert "(ke)" not in failed(concealed_kong)
    assert judge("123m789s11s45s6s", "6s", ["555p"]).verdict.legal


def test_needs_a_one_or_nine_or_a_dragon_pung():
    """「三是必须有幺九或箭刻」: winds do not count as 幺九 (else 「或箭刻」 would add nothing)."""
    plain = judge("555p678s22s45s6s", "6s", ["234m"])
    assert plain.verdict.complete and "(yaojiu_jianke)" in failed(plain)
    wind_pung = judge("111z678s22s45s6s", "6s", ["234m"])
    assert wind_pung.verdict.complete and "(yaojiu_jianke)" in failed(wind_pung)
    assert judge("777z678s22s45s6s", "6s", ["234m"]).verdict.legal          # 箭刻 (concealed)
    assert judge("678s22s45s6s", "6s", ["234m", "666z"]).verdict.legal     # 箭刻 (碰)
