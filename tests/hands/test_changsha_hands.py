"""长沙 (RULES.md §12): 二五八 将 and 转转, the four hand classes, 扎鸟, 起手小和."""

from rulesets.hand import Hand, WinContext
from rulesets.judging import evaluate_hand
from rulesets.regions import get_region
from rulesets.scoring.changsha import hand_class, opening_small_wins, settle_opening
from rulesets.tiles import Tile, parse_tiles

CHANGSHA = get_region("changsha").resolve()
ZHUANZHUAN = get_region("changsha").resolve({"variant": "zhuanzhuan"})


def judge(tiles, win, melds=(), ruleset=CHANGSHA, winner=1, discarder=None, flipped=(), **ctx):
    context = WinContext(winner=winner, dealer=0, discarder=discarder, win_tile=Tile.parse(win),
                         flipped=tuple(Tile.parse(t) for t in flipped), **ctx)
    return evaluate_hand(ruleset, Hand.parse(tiles, melds), context)


def legal(*args, **kwargs):
    return judge(*args, **kwargs).verdict.legal


# --- 二五八 --------------------------------------------------------------------------------

def test_xiaohu_needs_a_258_pair():
    """「二五八做掌门」; 「小胡：各花色的二五八作将然后收集完三张相连的牌，或三张相同的牌即可胡牌」."""
    assert legal("123m456p789s234m55p", "5p", discarder=2)
    no_258 = judge("123m456p789s234m66p", "6p", discarder=2)
    assert no_258.verdict.complete and not no_258.verdict.legal


def test_big_hands_take_any_pair():
    """大和 (七小对, 碰碰和, 全求人) need no 2/5/8 pair (「大胡：七巧对：收集完七张对牌即可胡牌」)."""
    assert legal("111m444p777s333m66p", "6p", discarder=2)                      # 碰碰和, pair 6p
    assert legal("1133m7799p1144s66s", "6s", discarder=2)                       # 七小对
    assert legal("66p", "6p", melds=["123m", "456p", "789s", "234m"], discarder=2)   # 全求人


def test_qingyise_needs_a_258_pair_by_default():
    """Block A: 「清一色：同花色的二五八作将」; block B lists it as a 大和 (option qingyise_jiang=any)."""
    assert not legal("123m456m789m234m66m", "6m", discarder=2)
    assert legal("123m456m789m234m55m", "5m", discarder=2)
    any_pair = get_region("changsha").resolve({"qingyise_jiang": "any"})
    assert legal("123m456m789m234m66m", "6m", discarder=2, ruleset=any_pair)


def test_situational_big_hands_keep_the_258_pair():
    """杠上花/海底捞月 are a 小和 hand 「计大和」: the 2/5/8 pair is still needed."""
    assert not legal("123m456p789s234m66p", "6p", kong_replacement=True)
    assert legal("123m456p789s234m55p", "5p", kong_replacement=True)



def test_quanqiuren_self_drawn_counts_as_the_text_pairs_it_with_gangshanghua():
    """「杠上花+碰碰和或将将和或清一色或全求人」, 「碰碰和+将将和+全求人+海底捞月或杠上花」: 全求人 beside self-drawn
    hands, so by default it is counted however the last tile came (house option quanqiuren); before, a self-drawn one
    took any pair as a 全求人 and was paid as a plain 小和, and 全求人+杠上花 could never be made."""
    claimed = ["123m", "456p", "789s", "234s"]
    drawn = judge("11m", "1m", melds=claimed)
    assert drawn.verdict.legal and drawn.settlement.items[0].zh == "小和（全求人）"
    kong_flower = judge("55m", "5m", melds=["123m", "456p", "789s", "2222s"], kong_replacement=True)
    assert kong_flower.settlement.items[0].zh == "超大和（杠上花+全求人）"
    biggest = judge("55m", "5m", melds=["222m", "888p", "555s", "2222s"], kong_replacement=True)
    assert biggest.settlement.items[0].key == "zuidahe"                      # 碰碰和+将将和+全求人+杠上花


def test_quanqiuren_on_a_discard_only_leaves_a_self_drawn_hand_its_258_pair():
    """quanqiuren=discard: a self-drawn hand of four claimed melds is no 全求人, so a 小和 with its 2/5/8 pair."""
    discard_only = get_region("changsha").resolve({"quanqiuren": "discard"})
    claimed = ["123m", "456p", "789s", "234s"]
    assert not legal("11m", "1m", melds=claimed, ruleset=discard_only)
    assert legal("11m", "1m", melds=claimed, discarder=2, ruleset=discard_only)
    kong_flower = judge("55m", "5m", melds=["123m", "456p", "789s", "2222s"], kong_replacement=True, ruleset=discard_only)
    assert kong_flower.settlement.items[0].zh == "大和（杠上花）"

def test_zhuanzhuan_any_pair_but_no_chow_claimed():
    """转转: 「所有的对牌都可作将但只能“碰”不能“吃”，三张相连的牌要摸（但除胡牌）」."""
    assert legal("123m456p789s234m66p", "6p", discarder=2, ruleset=ZHUANZHUAN)
    chowed = judge("456p789s234m66p", "6p", melds=["123m"], discarder=2, ruleset=ZHUANZHUAN)
    assert chowed.verdict.complete and not chowed.verdict.legal
    assert legal("456p789s234m66p", "6p", melds=["111m"], discarder=2, ruleset=ZHUANZHUAN)


# --- classes -------------------------------------------------------------------------------

def test_the_text_lists_of_classes():
    """「大和：七小对、碰碰和…」; 「超大和：豪华七对…碰碰和+将将和或全求人或海底捞月或杠上花或清一色」;
    「最大和：豪华七对+清一色+海底捞月 碰碰和+将将和+全求人+海底捞月或杠上花」."""
    assert hand_class(frozenset()) == 0
    assert hand_class(frozenset({"pengpeng"})) == 1
    assert hand_class(frozenset({"qiangganghu"})) == 1
    assert hand_class(frozenset({"quanqiuren"})) == 0                  # listed only in pairs
    assert hand_class(frozenset({"haohua", "qixiaodui"})) == 2
    assert hand_class(frozenset({"pengpeng", "qingyise"})) == 2
    assert hand_class(frozenset({"haidi", "qixiaodui"})) == 2
    assert hand_class(frozenset({"qixiaodui", "qingyise"})) == 1       # not in the 超大和 list
    assert hand_class(frozenset({"haohua", "qixiaodui", "qingyise", "haidi"})) == 3
    assert hand_class(frozenset({"pengpeng", "jiangjiang", "quanqiuren", "gangshanghua"})) == 3


def test_classes_pay_more_in_order():
    """小和 < 大和 < 超大和 < 最大和, each paid by the discarder."""
    def paid(tiles, win, **kw):
        result = judge(tiles, win, discarder=2, **kw)
        assert result.verdict.legal, result.verdict.failures
        assert sum(result.settlement.payments) == 0 and result.settlement.payments[0] == 0
        return -result.settlement.payments[2]

    xiao = paid("123m456p789s234m55p", "5p")
    da = paid("111m444p777s333m66p", "6p")                       # 碰碰和
    chao = paid("111m444m777m333m55m", "5m")                     # 碰碰和 + 清一色
    zui = paid("1111m3366m7799m22m", "2m", last_tile=True)       # 豪华七对 + 清一色 + 海底 (on a discard: no 海底)
    assert xiao < da < chao
    assert zui == chao                                           # 豪华七对 + 清一色 without 海底捞月 is 超大和


def test_zuidahe_self_drawn():
    """「最大和： 豪华七对+清一色+海底捞月」: self-drawn on the last tile, each other side pays the most."""
    result = judge("1111m3366m7799m22m", "2m", last_tile=True)
    chao = judge("111m444m777m333m55m", "5m")
    assert -result.settlement.payments[0] == 2 * -chao.settlement.payments[0]
    assert result.settlement.items[0].key == "zuidahe"


# --- 扎鸟 ----------------------------------------------------------------------------------

def test_birds_1_5_9_hit_the_winner():
    """RESEARCH.md §3.11: a bird 1/5/9 counted from the winner is the winner's; it adds to every payer."""
    plain = judge("123m456p789s234m55p", "5p").settlement.payments
    hit = judge("123m456p789s234m55p", "5p", flipped=("5s",)).settlement.payments
    miss = judge("123m456p789s234m55p", "5p", flipped=("3s",)).settlement.payments   # 3 → side 3, a payer
    assert [a - b for a, b in zip(hit, plain)] == [-1, 3, -1, -1]
    assert [a - b for a, b in zip(miss, plain)] == [0, 1, 0, -1]
    assert sum(hit) == sum(miss) == 0


def test_bird_double_mode():
    """翻倍 mode: a bird on the winner doubles every payment."""
    double = get_region("changsha").resolve({"bird_mode": "double"})
    plain = judge("123m456p789s234m55p", "5p", ruleset=double).settlement.payments
    hit = judge("123m456p789s234m55p", "5p", flipped=("9m",), ruleset=double).settlement.payments
    assert hit == tuple(2 * p for p in plain)


# --- 起手小和 ------------------------------------------------------------------------------

def test_opening_small_wins():
    """「四喜（开局摸到四张一样的牌型）、无将和（开局没有摸到2.5.8这三种牌型）、缺一色…、六顺（开局摸到任意两种牌各三只）」."""
    names = lambda text: {i.zh for i in opening_small_wins(parse_tiles(text))}
    assert names("1111m2467m1349p7s") == {"四喜"}
    assert names("1346m1346p1349s7s") == {"无将和"}
    assert names("1234567m1234567p") == {"缺一色"}
    assert names("111m333p2467s1258p") == {"六顺"}
    assert names("1234m2345p23456s") == set()


def test_opening_small_win_is_paid_like_a_self_drawn_xiaohu():
    """Each other side pays every small win; the payments sum to zero."""
    context = WinContext(winner=2, dealer=0)
    result = settle_opening(CHANGSHA, parse_tiles("1111m3333p1249s7s"), context)   # 四喜 + 六顺, no 缺一色
    assert {i.zh for i in result.items} == {"四喜", "六顺"}
    assert result.payments == (-2, -2, 6, -2)


def test_zhuanzhuan_qingyise_needs_a_258_pair():
    """转转: 「清一色：同花色的二五八作将，然后收集完三张同花色相连的牌或三张相同的牌，即可胡牌」."""
    odd = judge("123m456m789m234m66m", "6m", discarder=2, ruleset=ZHUANZHUAN)
    assert odd.verdict.complete and not odd.verdict.legal
    assert legal("123m456m789m234m55m", "5m", discarder=2, ruleset=ZHUANZHUAN)
