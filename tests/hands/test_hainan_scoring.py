"""海南 (RULES.md §23): 番 as the prerequisite of a win, each 番 condition on its own, and the fragment's payments."""

from rulesets.hand import Hand, WinContext
from rulesets.judging import evaluate_hand
from rulesets.regions import get_region
from rulesets.tiles import Tile

REGION = get_region("hainan")
HAINAN = REGION.resolve()
NO_FAN = ("456p789s234s11p", ["123m"])          # a 吃, a 1p pair: no 番 at all


def judge(tiles, win, melds=(), options=None, winner=1, dealer=0, discarder=2, **ctx):
    ruleset = REGION.resolve(options) if options else HAINAN
    context = WinContext(winner=winner, dealer=dealer, discarder=discarder, win_tile=Tile.parse(win), **ctx)
    return evaluate_hand(ruleset, Hand.parse(tiles, melds), context)


def fan_keys(result):
    return [i.key for i in result.settlement.items if i.unit == "fan"]


def test_without_fan_only_a_self_draw_wins():
    """「在海南麻将中番是指和牌的前提，而不是倍数」; 「所谓“无番靠自摸”」"""
    on_discard = judge(*NO_FAN[:1], "4s", NO_FAN[1])
    assert on_discard.verdict.complete and not on_discard.verdict.legal
    assert "(fan)" in " ".join(on_discard.verdict.failures)
    self_drawn = judge(*NO_FAN[:1], "4s", NO_FAN[1], discarder=None)
    assert self_drawn.verdict.legal and fan_keys(self_drawn) == []
    assert self_drawn.settlement.payments == (-1, 3, -1, -1)


def test_fan_258_eye():
    """「1：以2、5、8做眼（眼也称将）」"""
    result = judge("456p789s234s55p", "4s", ["123m"])
    assert result.verdict.legal and fan_keys(result) == ["yan258"]
    assert result.settlement.payments == (0, 1, -1, 0)


def test_fan_dragon_pung_or_kong():
    """「2：碰或杠（包括明杠暗杠）中发白」"""
    assert fan_keys(judge("456p789s555z11p", "1p", ["123m"])) == ["jian_5z"]
    assert fan_keys(judge("789s234s11p", "4s", ["123m", "concealed:6666z"])) == ["jian_6z"]
    assert fan_keys(judge("789s234s11p", "4s", ["123m", "777z"])) == ["jian_7z"]



def test_pung_fan_declared_counts_only_a_claimed_pung_or_a_kong():
    """House option pung_fan=declared: 「碰或杠（包括明杠暗杠）」 read as a 碰 claimed or a kong; a concealed 中 triplet
    then gives no 番, and the hand must be self-drawn (the default counts it, as item 6 calls any three alike 碰的牌)."""
    declared = {"pung_fan": "declared"}
    concealed = judge("456p789s555z11p", "1p", ["123m"], options=declared)
    assert concealed.verdict.complete and "(fan)" in " ".join(concealed.verdict.failures)
    assert fan_keys(judge("789s234s11p", "4s", ["123m", "777z"], options=declared)) == ["jian_7z"]
    assert fan_keys(judge("789s234s11p", "4s", ["123m", "concealed:6666z"], options=declared)) == ["jian_6z"]

def test_fan_seat_flowers():
    """「3：…庄家摸春或梅，庄家下家摸夏或兰，庄家对家摸秋或菊，庄家上家摸冬或竹」: 对家's are 秋 and 菊."""
    own = judge("456p789s234s11p3f8f", "4s", ["123m"], winner=2, discarder=1)
    assert own.verdict.legal and fan_keys(own) == ["hua_3f", "hua_8f"]
    other = judge("456p789s234s11p1f7f", "4s", ["123m"], winner=2, discarder=1)
    assert not other.verdict.legal
    upper = judge("456p789s234s11p7f", "4s", ["123m"], winner=3, discarder=1)   # 上家: 冬 or 竹
    assert fan_keys(upper) == ["hua_7f"]


def test_fan_prevailing_and_seat_wind():
    """「4：碰或杠对应的所在令的风字…碰或杠自己所对应的风…对家是庄家，自己碰或杠西风」"""
    ling = judge("456p789s234s11p", "4s", ["222z"], winner=2, discarder=1, prevailing_wind=Tile.SOUTH)
    assert fan_keys(ling) == ["ling_2z"]
    seat = judge("456p789s234s11p", "4s", ["333z"], winner=2, discarder=1)        # dealer is 0, side 2 is 西
    assert fan_keys(seat) == ["zuo_3z"]
    other = judge("456p789s234s11p", "4s", ["444z"], winner=2, discarder=1)
    assert other.verdict.complete and not other.verdict.legal


def test_fan_menqianqing():
    """「5：门前清，即没有任何碰，吃或杠」 — a 暗杠 too."""
    assert fan_keys(judge("123m456p789s234s11p", "4s")) == ["menqianqing"]
    kong = judge("456p789s234s11p", "4s", ["concealed:1111m"])
    assert kong.verdict.complete and not kong.verdict.legal


def test_fan_pengpenghe():
    """「6：碰碰和，即四组碰的牌或杠的牌」"""
    assert fan_keys(judge("444p777s999s11p", "1p", ["111m"])) == ["pengpenghe"]


def test_ready_player_must_self_draw_and_mingmo_pays_4_dealer_8():
    """「4、报听明摸放炮不能和牌，必须自摸，明摸1人4番，庄上8番」"""
    on_discard = judge("123m456p789s234s11p", "4s", ready_declared=True)
    assert on_discard.verdict.complete and "baoting_zimo" in " ".join(on_discard.verdict.failures)
    mingmo = judge("123m456p789s234s11p", "4s", ready_declared=True, discarder=None)
    assert mingmo.settlement.payments == (-8, 16, -4, -4)
    dealer = judge("123m456p789s234s11p", "4s", ready_declared=True, discarder=None, winner=0)
    assert dealer.settlement.payments == (24, -8, -8, -8)


def test_mingda_8_dealer_16_when_allowed():
    """「5、明打1人8番，庄上16番」 — with the house option that allows a discard win after 报听."""
    allowed = {"mingda": "allowed"}
    result = judge("123m456p789s234s11p", "4s", options=allowed, ready_declared=True)
    assert result.verdict.legal and result.settlement.payments == (0, 8, -8, 0)
    dealer_pays = judge("123m456p789s234s11p", "4s", options=allowed, ready_declared=True, discarder=0)
    assert dealer_pays.settlement.payments == (-16, 16, 0, 0)


def test_tuidaohu_everyone_pays_reading_b():
    """「2、推倒胡，放炮即1全部人1番」 reading (b): everyone pays 1."""
    result = judge("456p789s234s55p", "4s", ["123m"], options={"tuidao_payment": "everyone"})
    assert result.settlement.payments == (-1, 3, -1, -1)
