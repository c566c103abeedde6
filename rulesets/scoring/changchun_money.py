"""Every number the 长春 texts give for money, beside what the program pays (RULES.md §1.8, §1.9 S1).

The texts give four worked examples [002:210], payment list 1 and payment list 2 「具体化」 [002:92-94].
Each entry below is one line of the text with the situation it describes; `paid` builds a hand of
that kind (平胡, 夹胡 or 飘胡; 门清 or not; won on a discard, 自摸 or 摸宝), judges and settles it with
the real scorer, and reads the payment of each role the line names.  docs/regions.md shows the
table under every reading of the house options, and counts how many numbers each reproduces.

Roles: `each` (every payer of a dealer's self-drawn win), `dealer`, `xian` (a 平家 who did not
discard), `discarder` (点炮家), `total` (all payers together), `top` (a line with one number: the
largest payment).  A 平家's win on a discard is read twice, as the line's note says
(「如果平家点炮再翻一倍，庄家不变，下同」): with the dealer discarding (the numbers as listed) and with a
平家 discarding (he pays double, the dealer the same).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable

from ..hand import Hand, WinContext
from ..tiles import Tile

DEALER, XIAN, DISCARDER, OTHER = 0, 1, 2, 3         # seats: the dealer, the winning 平家, a 平家 who discards, the last

# concealed tiles (the win tile last) and melds of each kind of hand; all meet 长春's requirements
HANDS = {
    ("ping", False): ("111m234s99s67m8m", ("456p",)),     # opened, 两面 wait
    ("ping", True): ("111m234s99s67m456p8m", ()),
    ("jia", False): ("111m234s99s68m7m", ("456p",)),      # 坎张: 夹胡
    ("jia", True): ("111m234s99s68m456p7m", ()),
    ("piao", False): ("111m555m99s77z9s", ("222p",)),     # all pungs: 飘胡
    ("piao", True): ("111m222p555m99s77z9s", ()),
}
BAO = Tile.WEST                                        # the 宝 of the 摸宝 lines: a kind no hand holds


@dataclass(frozen=True)
class Line:
    """One line of the texts: who wins what, how, and the numbers it gives."""

    source: str                           # where: "worked example", "list 1 item 3", "list 2"
    quote: str                            # the text's words
    dealer_wins: bool
    hand: str                             # "ping", "jia", "piao"
    menqing: bool
    win: str                              # "discard", "zimo", "bao" (摸宝)
    numbers: tuple[tuple[str, int], ...]  # (role, amount)
    dealer_discards: bool = False         # a 平家's discard win read with the dealer discarding


def _list2(quote: str, dealer_wins: bool, hand: str, menqing: bool, win: str, *numbers: tuple[str, int]) -> list[Line]:
    line = Line("list 2", quote, dealer_wins, hand, menqing, win, tuple(numbers))
    if dealer_wins or win != "discard":
        return [line]
    by_dealer = Line("list 2 (the dealer discards)", quote, False, hand, menqing, win, tuple(numbers), True)
    xian = dict(numbers)["xian"]
    by_xian = Line("list 2 (a 平家 discards)", quote, False, hand, menqing, win,
                   (("dealer", dict(numbers)["dealer"]), ("discarder", 2 * xian), ("xian", xian)))
    return [by_dealer, by_xian]


WORKED = [
    Line("worked example", "如闲家胡牌为门清、夹、自摸、宝，其他玩家输牌番型累计乘16，庄家输番数为32", False, "jia", True, "bao",
         (("xian", 16), ("dealer", 32))),
    Line("worked example", "如庄家胡牌门清、夹、自摸、宝，其他闲家输牌番型累计乘32", True, "jia", True, "bao", (("each", 32),)),
    Line("worked example", "如闲家胡牌为门清、飘、自摸、宝，其他玩家输牌番型累计乘32，庄家输番数为64", False, "piao", True, "bao",
         (("xian", 32), ("dealer", 64))),
    Line("worked example", "如庄家胡牌门清、飘、自摸、宝，其他闲家输牌番型累计乘64", True, "piao", True, "bao", (("each", 64),)),
]

LIST_1 = [
    Line("list 1 item 1", "平胡1 元,庄2 元,总计4 元", False, "ping", False, "discard",
         (("xian", 1), ("dealer", 2), ("total", 4)), dealer_discards=True),
    Line("list 1 item 1", "庄平胡点炮家2，平家 1 总计4 元", True, "ping", False, "discard",
         (("discarder", 2), ("xian", 1), ("total", 4))),
    Line("list 1 item 2", "自摸小胡2 元,庄4 元总计8 元", False, "ping", False, "zimo", (("xian", 2), ("dealer", 4), ("total", 8))),
    Line("list 1 item 3", "自摸夹胡4 元,庄8 元总计16 元", False, "jia", False, "zimo", (("xian", 4), ("dealer", 8), ("total", 16))),
    Line("list 1 item 4", "庄自摸夹胡8 元,总计24 元", True, "jia", False, "zimo", (("each", 8), ("total", 24))),
    Line("list 1 item 5", "庄站立自摸夹胡16 元,总计48 元", True, "jia", True, "zimo", (("each", 16), ("total", 48))),
    Line("list 1 item 6", "庄站立宝自摸夹胡32 元,总计106 元", True, "jia", True, "bao", (("each", 32), ("total", 106))),
    Line("list 1 item 7", "庄站立宝自摸票胡64 元,总计192 元", True, "piao", True, "bao", (("each", 64), ("total", 192))),
]

LIST_2 = [line for entry in (
    _list2("庄家平胡：点炮家2：平家 1", True, "ping", False, "discard", ("discarder", 2), ("xian", 1)),
    _list2("庄家平胡摸宝：8", True, "ping", False, "bao", ("top", 8)),
    _list2("庄家自摸平胡：2", True, "ping", False, "zimo", ("top", 2)),
    _list2("庄家闭门平胡： 4", True, "ping", True, "discard", ("top", 4)),
    _list2("庄家闭门平胡摸宝：16", True, "ping", True, "bao", ("top", 16)),
    _list2("庄家闭门平胡自摸：8", True, "ping", True, "zimo", ("top", 8)),
    _list2("庄家夹胡：点炮家8：平家 2", True, "jia", False, "discard", ("discarder", 8), ("xian", 2)),
    _list2("庄家夹胡摸宝：16", True, "jia", False, "bao", ("top", 16)),
    _list2("庄家自摸夹胡：8", True, "jia", False, "zimo", ("top", 8)),
    _list2("庄家闭门夹胡：点炮家16：平家4", True, "jia", True, "discard", ("discarder", 16), ("xian", 4)),
    _list2("庄家闭门夹胡摸宝：64", True, "jia", True, "bao", ("top", 64)),
    _list2("庄家闭门夹胡自摸：32", True, "jia", True, "zimo", ("top", 32)),
    _list2("庄家闭门平胡：点炮家8：平家 2", True, "ping", True, "discard", ("discarder", 8), ("xian", 2)),
    _list2("庄家闭门平胡自摸：8", True, "ping", True, "zimo", ("top", 8)),
    _list2("庄家闭门平胡摸宝：16", True, "ping", True, "bao", ("top", 16)),
    _list2("庄家飘胡：点炮家16 ：平家 4", True, "piao", False, "discard", ("discarder", 16), ("xian", 4)),
    _list2("庄家飘胡自摸：32", True, "piao", False, "zimo", ("top", 32)),
    _list2("庄家飘胡摸宝：64", True, "piao", False, "bao", ("top", 64)),
    _list2("平家平胡：庄家2；平家1（如果平家点炮再翻一倍，庄家不变，下同）", False, "ping", False, "discard", ("dealer", 2), ("xian", 1)),
    _list2("平家平胡摸宝：8", False, "ping", False, "bao", ("top", 8)),
    _list2("平家自摸平胡： 4", False, "ping", False, "zimo", ("top", 4)),
    _list2("平家闭门平胡：庄家8：平家 2", False, "ping", True, "discard", ("dealer", 8), ("xian", 2)),
    _list2("平家闭门平胡摸宝：庄家32 ：平家8", False, "ping", True, "bao", ("dealer", 32), ("xian", 8)),
    _list2("平家闭门平胡自摸：庄家16 ：平家 4", False, "ping", True, "zimo", ("dealer", 16), ("xian", 4)),
    _list2("平家夹胡：庄家4：平家 2", False, "jia", False, "discard", ("dealer", 4), ("xian", 2)),
    _list2("平家夹胡摸宝：庄家16 ：平家8", False, "jia", False, "bao", ("dealer", 16), ("xian", 8)),
    _list2("平家自摸夹胡：庄家8：平家 4", False, "jia", False, "zimo", ("dealer", 8), ("xian", 4)),
    _list2("平家闭门夹胡：庄家16 ：平家 4", False, "jia", True, "discard", ("dealer", 16), ("xian", 4)),
    _list2("平家闭门夹胡摸宝：庄家32 ：平家8", False, "jia", True, "bao", ("dealer", 32), ("xian", 8)),
    _list2("平家闭门夹胡自摸：庄家16 ：平家 4", False, "jia", True, "zimo", ("dealer", 16), ("xian", 4)),
    _list2("平家闭门平胡：庄家8：平家 4", False, "ping", True, "discard", ("dealer", 8), ("xian", 4)),
    _list2("平家闭门平胡自摸：庄家16 ：平家4", False, "ping", True, "zimo", ("dealer", 16), ("xian", 4)),
    _list2("平家闭门平胡摸宝：庄家8：平家 2", False, "ping", True, "bao", ("dealer", 8), ("xian", 2)),
    _list2("平家飘胡：庄家16 ：平家 4", False, "piao", False, "discard", ("dealer", 16), ("xian", 4)),
    _list2("平家飘胡自摸：庄家32 ：平家8", False, "piao", False, "zimo", ("dealer", 32), ("xian", 8)),
    _list2("平家飘胡摸宝：庄家64：平家 4", False, "piao", False, "bao", ("dealer", 64), ("xian", 4)),
) for line in entry]

LINES = WORKED + LIST_1 + LIST_2


def situation(line: Line) -> tuple[Hand, WinContext]:
    """A hand and win of the kind the line describes."""
    tiles, melds = HANDS[(line.hand, line.menqing)]
    win_tile = Tile.parse(tiles[-2:])
    if line.win == "bao":                 # 摸宝: the 宝 is drawn and stands for the tile waited for
        tiles, win_tile = tiles[:-2] + str(BAO), BAO
    winner = DEALER if line.dealer_wins else XIAN
    discarder = None if line.win != "discard" else DEALER if line.dealer_discards else DISCARDER
    context = WinContext(winner=winner, dealer=DEALER, discarder=discarder, win_tile=win_tile,
                         ready_declared=True, wilds=(BAO,) if line.win == "bao" else ())
    return Hand.parse(tiles, list(melds)), context


def paid(ruleset: Any, line: Line) -> dict[str, int]:
    """What the program makes each role of the line pay."""
    from ..judging import evaluate_hand      # judging imports the scorers: import it only when used
    hand, context = situation(line)
    result = evaluate_hand(ruleset, hand, context)
    if result.settlement is None:
        raise ValueError(f"the hand for 「{line.quote}」 is not legal: {'; '.join(result.verdict.failures)}")
    pays = {side: -amount for side, amount in enumerate(result.settlement.payments) if amount < 0}
    roles = {"total": sum(pays.values()), "top": max(pays.values())}
    if line.dealer_wins:
        roles["each"] = roles["top"] if len(pays) == 3 and len(set(pays.values())) == 1 else -1
        roles["discarder"], roles["xian"] = pays.get(DISCARDER, 0), pays.get(OTHER, 0)
    else:
        roles["dealer"] = pays.get(DEALER, 0)
        roles["discarder"] = pays.get(DISCARDER, 0)
        roles["xian"] = pays.get(OTHER, 0)
    return roles


def reproduced(ruleset: Any, lines: Iterable[Line] = LINES) -> tuple[int, int]:
    """(numbers the program reproduces, numbers the texts give)."""
    hits = total = 0
    for line in lines:
        got = paid(ruleset, line)
        for role, amount in line.numbers:
            total += 1
            hits += got[role] == amount
    return hits, total


ROLE_NAMES = {"each": "each payer", "dealer": "庄家", "xian": "平家", "discarder": "点炮家", "total": "总计",
              "top": "the one number"}
READINGS = ("seat_doubling", "discard_payment")      # the house options that change who pays what


def money_markdown(region: Any) -> str:
    """The table docs/regions.md shows under the 长春 card: each number of the texts, and what the
    program pays under every combination of the money options (the defaults marked *)."""
    options = [region.option(key) for key in READINGS]
    combos = [{options[0].key: a, options[1].key: b} for a in options[0].values for b in options[1].values]
    rulesets = [region.resolve(combo) for combo in combos]
    default = region.default_options()
    names = [", ".join(v + ("*" if v == default[k] else "") for k, v in combo.items()) for combo in combos]
    rows = ["| where | the text | who pays | the text's number | " + " | ".join(names) + " |",
            "|---|---|---|---|" + "---|" * len(combos)]
    hits = [0] * len(combos)
    for line in LINES:
        got = [paid(ruleset, line) for ruleset in rulesets]
        for role, amount in line.numbers:
            cells = []
            for i, g in enumerate(got):
                same = g[role] == amount
                hits[i] += same
                cells.append(f"{g[role]} ✓" if same else str(g[role]))
            rows.append(f"| {line.source} | 「{line.quote}」 | {ROLE_NAMES[role]} | {amount} | " + " | ".join(cells) + " |")
    total = sum(len(line.numbers) for line in LINES)
    rows.append(f"| | | | **reproduced** ({total} numbers) | " + " | ".join(f"**{h}**" for h in hits) + " |")
    return "\n".join(rows)
