"""`mahjong-table hand ID TILES …`: judge, read and score a hand under a region's rules.

The facts the table learns by asking (issue 16) are options too, so one hand can be judged as the
table judged it: the dealer's 连庄 count (`--repeats`), the kongs made and who gave each (`--kong`), the
after-win flips (`--flip`: 鸡, 马, 鸟), a payer's 拉庄 (`--la-zhuang`, 十六张), and a dealt hand's
opening small wins (`--opening`, 长沙 起手小和).  Seats are the table's sides 0–3: the winner is side 0,
the dealer side 1 (side 0 with --dealer), the discarder side 3 (the winner's 上家).
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from dataclasses import dataclass, replace

from rulesets.hand import Hand, MeldKind, WinContext
from rulesets.indicators import AfterWinFlips, Effect, Timing
from rulesets.judging import HandResult, evaluate_hand, fixed_wilds, wild_sets
from rulesets.rounds import legal_waits
from rulesets.winning import WinShape
from rulesets.scoring.changsha import settle_opening
from rulesets.tiles import Tile, TileError, format_tiles, parse_tiles

from .cmd_rules import load_ruleset
from .errors import UserError

MAX_REPEATS = 99                    # far past any table's run of one dealer
KONGS = frozenset({MeldKind.KONG, MeldKind.ADDED_KONG, MeldKind.CONCEALED_KONG})


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "hand", help="is a hand complete and legal in a region, how do its wilds read, what is it worth",
        description="Judge a hand: a full hand (e.g. 14 tiles) gives complete/legal, the wild assignment and, "
                    "with --win-tile/--self-drawn/--dealer, the scoring items and payments; a hand one tile "
                    "short gives its waits. The last tile written is the winning tile unless --win-tile says otherwise.",
        epilog="examples:\n"
               "  mahjong-table hand changchun 111m234p789s45s99p6s\n"
               "  mahjong-table hand changchun 111m234p789s45s99p6s --self-drawn --ready\n"
               "  mahjong-table hand changchun 111m234p789s45s99p\n"
               "  mahjong-table hand guangdong 234p789s45s99p6s --meld 111m --self-drawn --json\n"
               "  mahjong-table hand sixteen_tile 111m234m567m789p234s55s --self-drawn --dealer --repeats 2\n"
               "  mahjong-table hand yunnan 345m456p789s55s --meld 2222m --self-drawn --kong 0:ming:2 --kong 1:an\n"
               "  mahjong-table hand guizhou 123s345m678m999m11s --self-drawn --flip 2s\n"
               "  mahjong-table hand changsha 5555m123p456p789s --opening\n"
               "  mahjong-table hand wuhan 234p789s45s99p6s --meld 1111m --self-drawn --kong-draw",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("ruleset", metavar="ID", help="a ruleset id (see `rules list`)")
    parser.add_argument("tiles", metavar="TILES", help="the concealed tiles, e.g. 111m234p789s45s99p6s")
    parser.add_argument("--meld", action="append", default=[], metavar="MELD",
                        help="a declared meld: 123m, 555p, 7777z, concealed:1111s, added:5555p, special:1234z, hua:77z5m (螺山 花碰); repeatable")
    parser.add_argument("--wild", action="append", default=[], metavar="TILE",
                        help="a wild kind, whatever the indicator (in 长春/吉林: the 宝); repeatable, as many kinds "
                             "as the region's indicator makes (南昌's 正精 and 副精), each once; refused where the "
                             "region has no wilds; the kinds wild in every hand of the region (杭州's 白板) are wild "
                             "without it")
    parser.add_argument("--win-tile", metavar="TILE", help="the winning tile (default: the last tile written)")
    parser.add_argument("--self-drawn", action="store_true", help="won by self-draw (default: on 上家's discard)")
    parser.add_argument("--dealer", action="store_true", help="the winner is the dealer (default: the winner's 下家 deals)")
    parser.add_argument("--ready", action="store_true",
                        help="the winner had declared 听 (报听); in 长春/吉林 only a ready seat may use the 宝; "
                             "refused where the rules have no 报听 (四川)")
    parser.add_argument("--bao", action="store_true",
                        help="长春/吉林: claim a 宝 win (摸宝/对宝), won on the 宝 (the --wild kind, or the winning "
                             "tile); the 宝 stands in only for the tile drawn.  A legal 宝 win needs --ready and "
                             "--self-drawn: without them the answer is legal: no and the rule it breaks, as the table "
                             "judges a seat that claims the 宝 without 报听 or on a discard")
    parser.add_argument("--repeats", type=int, default=0, metavar="N",
                        help="the dealer's 连庄 count: how many hands in a row the dealer has kept the deal, 0 to 99 "
                             "(default 0)")
    parser.add_argument("--kong", action="append", default=[], metavar="SIDE:KIND[:FROM]",
                        help="a kong made this hand, for kong money: KIND ming (from the discarder FROM), an or "
                             "zhuanwan, e.g. 0:ming:2 or 1:an; repeatable; without any, the winner's kong melds are "
                             "the hand's kongs where kongs are counted by side (云南, which pays a 明杠 by who fed it, "
                             "counts only the --kong flags)")
    parser.add_argument("--kong-draw", action="store_true",
                        help="self-drawn on a kong's replacement (杠上开花, 杠开); needs --self-drawn and a kong of the "
                             "winner's (a kong --meld, or --kong 0:…)")
    parser.add_argument("--last-tile", action="store_true",
                        help="won on the live wall's last tile (海底捞月 self-drawn; on its discard, 海底炮)")
    parser.add_argument("--robbed-kong", action="store_true",
                        help="won on the tile another side added to its pung (抢杠); not with --self-drawn: the side "
                             "robbed is the discarder")
    parser.add_argument("--flip", action="append", default=[], metavar="TILE",
                        help="a tile flipped after the win (鸡, 马, 鸟; 贵州's 明鸡 too), e.g. 2s; repeatable, as many "
                             "times as the region's rules turn tiles up for the win (长沙's birds and 广东's horses are "
                             "house options), each kind no more often than the set holds beside the hand's own tiles")
    parser.add_argument("--la-zhuang", action="append", default=[], type=int, metavar="SIDE",
                        help="十六张: a payer who asked for 拉庄 (a third of his debt carried); repeatable")
    parser.add_argument("--opening", action="store_true",
                        help="长沙: judge TILES as a dealt hand for 起手小和 (四喜, 无将和, 缺一色, 六顺), paid by the other sides")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE", help="a house option; repeatable")
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    parser.set_defaults(handler=judge_hand)


def judge_hand(args: argparse.Namespace) -> int:
    ruleset = load_ruleset(args.ruleset, args.option)
    try:
        written = parse_tiles(args.tiles)
        hand = Hand.parse(args.tiles, args.meld, honour_chows=ruleset.win.shapes.honour_chows)
    except TileError as error:
        raise UserError(str(error)) from None
    named = tuple(one_tile(w, "--wild") for w in args.wild)
    # the kinds wild in every hand of the region (杭州's 白板) are wild here too, as at the table
    wilds = tuple(dict.fromkeys(fixed_wilds(ruleset) + named))
    win_tile = one_tile(args.win_tile, "--win-tile") if args.win_tile is not None else (written[-1] if written else None)
    flipped = tuple(one_tile(t, "--flip") for t in args.flip)
    for tile, option in [(t, "") for t in hand.all_tiles() + hand.flowers] + [(t, "--wild ") for t in wilds] \
            + [(t, "--flip ") for t in flipped]:
        if tile not in ruleset.tiles.kinds:
            raise UserError(f"{option}{tile} ({tile.zh}) is not in the {ruleset.id} tile set ({ruleset.tiles.name})")
    check_wilds(ruleset, named)
    if args.win_tile is not None and win_tile not in hand.concealed:
        raise UserError(f"--win-tile {args.win_tile}: not among the concealed tiles {args.tiles}; "
                        "the winning tile is one of them")
    refuse_foreign_facts(ruleset, args)
    sides = ruleset.players
    winner = sides[0]
    dealer = winner if args.dealer else sides[1]
    discarder = None if args.self_drawn else sides[-1]          # the winner's 上家
    if args.opening:
        return judge_opening(ruleset, written, winner, dealer, args.json)
    if not 0 <= args.repeats <= MAX_REPEATS:      # a region that doubles per 连庄 makes a number past any screen
        raise UserError(f"--repeats {args.repeats}: give the dealer's 连庄 count, from 0 to {MAX_REPEATS}")
    kong_events = tuple(parse_kong(text, sides) for text in args.kong)
    melds = (ruleset.hand_size - 1) // 3                  # a hand's melds beside its pair: a side's most kongs
    made = Counter(side for side, _, _ in kong_events)
    crowded = next((side for side in sides if made[side] > melds), None)
    if crowded is not None:
        raise UserError(f"--kong: side {crowded} made {made[crowded]} kongs; "
                        f"a hand of {ruleset.hand_size} holds {melds} melds, so a side makes at most {melds} kongs")
    check_moment(args, hand, kong_events, winner)
    kongs = sum(exposed + concealed for _, exposed, concealed in kongs_made(kong_events, hand, winner))
    check_flips(ruleset, hand, flipped, FlipWin(args.self_drawn, kongs, win_tile if args.last_tile else None))
    extra = (("kong_events", kong_events), ("la_zhuang", la_zhuang_sides(args.la_zhuang, sides, winner)))
    context = WinContext(winner=winner, dealer=dealer, discarder=discarder,
                         win_tile=win_tile if win_tile in hand.concealed else None, sides=sides,
                         ready_declared=args.ready, bao_hit=args.bao, wilds=wilds, consecutive_dealer=args.repeats,
                         kong_replacement=args.kong_draw, last_tile=args.last_tile, robbed_kong=args.robbed_kong,
                         kongs_by_side=kongs_made(kong_events, hand, winner), flipped=flipped, extra=extra)
    try:
        result = evaluate_hand(ruleset, hand, context)
    except TileError as error:
        raise UserError(str(error)) from None
    scoring = bool(args.win_tile or args.self_drawn or args.dealer or args.repeats or args.kong or args.flip
                   or args.la_zhuang or args.kong_draw or args.last_tile or args.robbed_kong)
    if scoring and result.settlement is not None:
        result = replace(result, verdict=replace(result.verdict, shape=scored_reading(ruleset, hand, result, context)))
    data = result_json(ruleset.id, hand, wilds, context, result, scoring)
    if "waits" in data:
        data.update(winning_waits(ruleset, hand, context, data["waits"]))
    if args.json:
        print(json.dumps(data, ensure_ascii=False, indent=2))
    else:
        print_result(data)
    return 0


def scored_reading(ruleset, hand: Hand, result: HandResult, context: WinContext) -> WinShape | None:
    """The reading the settlement priced: a scorer pays the best of the legal readings, which need not
    be the first one found (武汉 showed one reading and priced 硬胡 on another)."""
    verdict = result.verdict
    for shape in verdict.legal_readings:
        alone = replace(verdict, shape=shape, legal_readings=(shape,))
        if ruleset.scoring.settle(ruleset, hand, alone, context) == result.settlement:
            return shape
    return verdict.shape


def one_tile(text: str, option: str) -> Tile:
    """One tile written as a flag's value (`--wild 7z`), or one line naming the flag."""
    try:
        return Tile.parse(text)
    except TileError as error:
        raise UserError(f"{option} {text!r}: {error}; give one tile, e.g. 5m or 7z") from None


def check_wilds(ruleset, named: tuple[Tile, ...]) -> None:
    """The --wild kinds must be ones the region's indicators can make wild together in one hand: a
    wild where the region has none (四川), a second kind where its rule makes one (螺山's 财神), or
    a kind named twice would be judged and paid as no table of the region ever plays it."""
    repeated = next((tile for tile, count in Counter(named).items() if count > 1), None)
    if repeated is not None:
        raise UserError(f"--wild {repeated} given {Counter(named)[repeated]} times: give each wild kind once")
    possible = wild_sets(ruleset)
    wanted = frozenset(fixed_wilds(ruleset)) | frozenset(named)
    if not named or any(wanted <= kinds for kinds in possible):
        return
    flags = " ".join(f"--wild {tile}" for tile in named)
    most = max(len(kinds) for kinds in possible)
    fixed = fixed_wilds(ruleset)
    if most == 0:
        raise UserError(f"{flags}: {ruleset.id} has no wilds ({wild_rule_text(ruleset)}); leave out --wild")
    if most == len(fixed):
        raise UserError(f"{flags}: {ruleset.id}'s only wild is {format_tiles(fixed)} ({wild_rule_text(ruleset)}), "
                        "wild in every hand without --wild; leave out --wild")
    if len(wanted) > most:
        raise UserError(f"{flags}: {ruleset.id} has {most} wild kind(s) in a hand ({wild_rule_text(ruleset)}); "
                        f"give at most {most - len(fixed)} --wild")
    raise UserError(f"{flags}: no hand of {ruleset.id} has these wild(s) ({wild_rule_text(ruleset)}); "
                    "give the kinds its indicator makes (see `mahjong-table rules wild`)")


def wild_rule_text(ruleset) -> str:
    """The region's wild rule in words: each wild indicator and what it makes, or its other indicators."""
    rules = [rule for rule in ruleset.indicators if rule.effect is Effect.WILD]
    if rules:
        return "; ".join(f"{rule.name_zh} ({rule.kind}): {rule.derivation.describe()}" for rule in rules)
    others = ", ".join(f"{rule.name_zh} ({rule.kind}, {rule.effect.value})" for rule in ruleset.indicators)
    return f"its indicators: {others}" if others else "no indicator"


def check_side(side: int, sides: tuple[int, ...], option: str) -> int:
    if side not in sides:
        raise UserError(f"{option} {side}: not a playing side of this table ({', '.join(map(str, sides))})")
    return side


def refuse_foreign_facts(ruleset, args: argparse.Namespace) -> None:
    """A fact the region's table never asks for (a flip where none is turned up, 拉庄 outside 十六张, a
    宝 where there is none) is refused, as --opening is: taken, it would change nothing without a word."""
    facts = (("--flip", bool(args.flip), ruleset.has_phase("after_win_flip"), "鸡, 马 or 鸟 flipped after a win",
              "guizhou, guangdong_jihu or changsha"),
             ("--la-zhuang", bool(args.la_zhuang), ruleset.has_phase("la_zhuang"), "拉庄", "sixteen_tile"),
             ("--bao", args.bao, any(rule.kind == "bao" for rule in ruleset.indicators), "宝", "changchun or jilin"))
    for flag, given, asked, what, where in facts:
        if given and not asked:
            raise UserError(f"{flag}: {ruleset.id} has no {what}; try {where}")
    if args.ready and ruleset.play.ready_declaration == "none":
        raise UserError(f"--ready: {ruleset.id} has no 报听 (no seat declares 听 there); leave out --ready, "
                        f"or try one that has: {', '.join(regions_with_ready())}")


def regions_with_ready() -> list[str]:
    """The rulesets whose seats may declare 听 (报听), as their cards say."""
    from rulesets.regions import all_regions
    return [region.id for region in all_regions() if region.resolve().play.ready_declaration != "none"]


@dataclass(frozen=True)
class FlipWin:
    """What of the win decides the flips: a self-draw (some 鸡 are flipped only then), the kongs made
    (each may turn up another 明鸡), and the winning tile when won on the wall's last tile (then the
    one flip of a rule that flips the last tile taken may be that very tile)."""
    self_drawn: bool
    kongs: int
    last_tile: Tile | None


def check_flips(ruleset, hand: Hand, flipped: tuple[Tile, ...], win: FlipWin) -> None:
    """--flip as a table can turn them up: no more tiles than the region's rules flip for this win,
    and no kind more often than the set holds beside the hand's own tiles (six 一万 flipped as 长沙's
    two birds were paid as 中鸟 6 points)."""
    if not flipped:
        return
    most, said = flips_for_win(ruleset, win)
    if len(flipped) > most:
        do = f"give at most {most} --flip" if most else "leave out --flip"
        raise UserError(f"--flip given {times(len(flipped))}: {ruleset.id} turns up at most {most} tile(s) for this "
                        f"win ({said}); {do}")
    held = Counter(hand.all_tiles() + hand.flowers)
    if win.last_tile is not None and any(last_tile_flips(rule, win) for rule in ruleset.indicators):
        held[win.last_tile] -= 1            # (none left to flip: the last tile taken is the flip, maybe this one)
    copies = dict(ruleset.tiles.counts)
    for tile, given in Counter(flipped).items():
        room = max(copies[tile] - held[tile], 0)
        if given > room:
            raise UserError(f"--flip {tile} given {times(given)}: a set has {copies[tile]} {tile.zh} and the hand "
                            f"holds {held[tile]}, so at most {room} can be flipped")


def times(count: int) -> str:
    return "once" if count == 1 else f"{count} times"


def flips_for_win(ruleset, win: FlipWin) -> tuple[int, str]:
    """How many tiles the table hands the scorer as flipped for this win, and why, read from the
    region's indicator rules as the controller turns them up (firmware.hand.win_check.paying_flips):
    each after-win rule's count (none of one that flips only after a self-draw, on a discard), then
    each paying tile turned up before the win (贵州 明鸡), one more per kong where each kong adds one."""
    counts: list[int] = []
    parts: list[str] = []
    for rule in ruleset.indicators:
        if rule.timing is Timing.AFTER_WIN:
            count = rule.position.count if isinstance(rule.position, AfterWinFlips) else 1
            skipped = rule.only_self_drawn and not win.self_drawn
            counts.append(0 if skipped else count)
            parts.append(f"no {rule.name_zh} on a discard" if skipped else f"{count} {rule.name_zh} after the win")
        elif rule.effect is Effect.PAYING and rule.public and rule.timing is not Timing.FIXED:
            added = win.kongs if rule.on_kong == "add" else 0
            counts.append(1 + added)
            parts.append(f"{1 + added} {rule.name_zh} turned up before it" + (f" (1 + {added} kong(s))" if added else ""))
    chosen = dict(ruleset.sources)["indicators"].chosen
    return sum(counts), ", ".join(parts) + (f"; {chosen}" if chosen else "")


def last_tile_flips(rule, win: FlipWin) -> bool:
    """Whether `rule` flips the last tile taken on a win with none left (长沙 海底鸟, 贵州 ji_when_out=last)."""
    return (rule.timing is Timing.AFTER_WIN and isinstance(rule.position, AfterWinFlips)
            and rule.position.last_when_out and not (rule.only_self_drawn and not win.self_drawn))


def parse_kong(text: str, sides: tuple[int, ...]) -> tuple[int, str, int | None]:
    """`SIDE:KIND[:FROM]` → (side, kind, giver): ming needs FROM, an and zhuanwan take none."""
    parts = text.split(":")
    try:
        side, kind = int(parts[0]), parts[1]
        giver = int(parts[2]) if len(parts) > 2 else None
    except (ValueError, IndexError):
        raise UserError(f"--kong {text!r}: write SIDE:KIND[:FROM], e.g. 0:ming:2 or 1:an") from None
    check_side(side, sides, "--kong")
    if kind not in ("ming", "an", "zhuanwan") or (kind == "ming") != (giver is not None) or len(parts) > 3:
        raise UserError(f"--kong {text!r}: KIND is ming (with FROM, the side that discarded), an or zhuanwan (no FROM)")
    if giver is not None and (check_side(giver, sides, "--kong FROM") == side):
        raise UserError(f"--kong {text!r}: a 明杠 is made from another side's discard")
    return side, kind, giver


def kongs_made(kong_events: tuple[tuple[int, str, int | None], ...], hand: Hand,
               winner: int) -> tuple[tuple[int, int, int], ...]:
    """(side, exposed, concealed) kongs of the hand, as the table counts them for kong money: the
    --kong flags, or without any the winner's kong melds."""
    made: dict[int, list[int]] = {}
    if kong_events:
        for side, kind, _ in kong_events:
            made.setdefault(side, [0, 0])[1 if kind == "an" else 0] += 1
    else:
        for meld in hand.kongs:
            made.setdefault(winner, [0, 0])[1 if meld.is_concealed else 0] += 1
    return tuple((side, exposed, concealed) for side, (exposed, concealed) in sorted(made.items()))


def la_zhuang_sides(given: list[int], sides: tuple[int, ...], winner: int) -> tuple[int, ...]:
    """The payers who asked for 拉庄: seats of the table, each once, never the winner (who pays nothing)."""
    chosen = tuple(check_side(side, sides, "--la-zhuang") for side in given)
    if winner in chosen:
        raise UserError(f"--la-zhuang: side {winner} is the winner; only a payer asks for 拉庄")
    twice = next((side for side in chosen if chosen.count(side) > 1), None)
    if twice is not None:
        raise UserError(f"--la-zhuang: side {twice} is given twice; name each payer once")
    return chosen


def check_moment(args: argparse.Namespace, hand: Hand, kong_events: tuple, winner: int) -> None:
    """The moment of the win (杠上开花, 抢杠) must be one the hand and the other flags allow."""
    if args.kong_draw and not args.self_drawn:
        raise UserError("--kong-draw: a kong's replacement is self-drawn; add --self-drawn")
    made_kong = any(m.kind in KONGS for m in hand.melds) or any(side == winner for side, _, _ in kong_events)
    if args.kong_draw and not made_kong:
        raise UserError("--kong-draw: the winner made no kong; give it as --meld 1111m (or concealed:1111m) or --kong 0:an")
    if args.robbed_kong and args.self_drawn:
        raise UserError("--robbed-kong: a robbed kong's tile is another side's (the discarder's); drop --self-drawn")
    if args.robbed_kong and args.kong_draw:
        raise UserError("--robbed-kong and --kong-draw name two moments of a win; give one")


def judge_opening(ruleset, tiles: list[Tile], seat: int, dealer: int, as_json: bool) -> int:
    """长沙 起手小和 of a dealt hand: which small wins it makes and what each other side pays."""
    if not ruleset.has_phase("opening_small_wins"):
        raise UserError(f"--opening: {ruleset.id} has no opening small wins (长沙 起手小和); try changsha")
    if len(tiles) not in (ruleset.hand_size, ruleset.hand_size + 1):
        raise UserError(f"--opening: a dealt hand holds {ruleset.hand_size} tiles ({ruleset.hand_size + 1} for the "
                        f"dealer), not {len(tiles)}")
    settled = settle_opening(ruleset, tiles, WinContext(winner=seat, dealer=dealer, sides=ruleset.players))
    data = {"id": ruleset.id, "tiles": [str(t) for t in sorted(tiles)], "opening": settled is not None,
            "items": [{"key": i.key, "name": i.zh, "pinyin": i.pinyin, "value": i.value, "unit": i.unit}
                      for i in (settled.items if settled else ())],
            "payments": list(settled.payments) if settled else [0, 0, 0, 0]}
    if as_json:
        print(json.dumps(data, ensure_ascii=False, indent=2))
    elif settled is None:
        print(f"{ruleset.id}: {format_tiles(sorted(tiles))}: no opening small win")
    else:
        print(f"{ruleset.id}: {format_tiles(sorted(tiles))}: 起手小和 " + ", ".join(f"{i['name']} ({i['pinyin']})" for i in data["items"]))
        print("payments: " + "  ".join(f"side {side} {amount:+d}" for side, amount in enumerate(data["payments"])))
    return 0


def winning_waits(ruleset, hand: Hand, context: WinContext, waits: list[str]) -> dict:
    """Of a short hand's waits, those that make a legal win (self-drawn, 听 declared), and when that is
    not all of them, why the first other one does not (八枝 claims=pong: a hand holding a 碰 waits
    on shapes it may never win with)."""
    legal = legal_waits(ruleset, hand, context.winner, context.dealer, context.wilds)
    data: dict = {"legal_waits": [str(t) for t in legal]}
    other = next((Tile.parse(t) for t in waits if Tile.parse(t) not in legal), None)
    if other is not None:
        full = Hand(tuple(sorted(hand.concealed + (other,))), hand.melds, hand.flowers)
        verdict = evaluate_hand(ruleset, full, replace(context, win_tile=other, discarder=None), settle=False).verdict
        data["not_legal"] = f"{other} {other.zh}: " + ("; ".join(verdict.failures) or "not a legal win")
    return data


def result_json(region_id, hand, wilds, context, result, scoring: bool) -> dict:
    verdict = result.verdict
    data = {
        "id": region_id,
        "tiles": [str(t) for t in hand.concealed],
        "melds": [str(m) for m in hand.melds],
        "flowers": [str(t) for t in hand.flowers],
        "wilds": [str(w) for w in wilds],
    }
    if not verdict.complete and verdict.waits is not None and verdict.failures == ("the hand is one tile short",):
        data["waits"] = [str(t) for t in verdict.waits]
        data["waits_zh"] = [t.zh for t in verdict.waits]
        return data
    data.update({
        "complete": verdict.complete,
        "legal": verdict.legal,
        "failures": list(verdict.failures),
        "reading": str(verdict.shape) if verdict.shape else None,
        "assignment": [[str(a), str(b)] for a, b in verdict.shape.assignment] if verdict.shape else [],
        "win_tile": str(context.win_tile) if context.win_tile is not None else None,
    })
    if scoring and result.settlement is not None:
        settlement = result.settlement
        data["context"] = {"winner": context.winner, "dealer": context.dealer, "discarder": context.discarder,
                           "self_drawn": context.self_drawn}
        data["items"] = [{"key": i.key, "name": i.zh, "pinyin": i.pinyin, "value": i.value, "unit": i.unit}
                         for i in settlement.items]
        data["total"] = settlement.total
        data["unit"] = settlement.unit
        data["payments"] = list(settlement.payments)
        data["notes"] = list(settlement.notes)
    return data


def print_result(data: dict) -> None:
    melds = "".join(f" [{m}]" for m in data["melds"])
    tiles = format_tiles([Tile.parse(t) for t in data["tiles"] + data["flowers"]])
    print(f"{data['id']}: {tiles}{melds}" + (f"  wilds: {' '.join(data['wilds'])}" if data["wilds"] else ""))
    if "waits" in data:
        waits = " ".join(f"{t} {zh}" for t, zh in zip(data["waits"], data["waits_zh"])) or "none"
        print(f"one tile short; waits: {waits}")
        if "not_legal" in data:
            wins = " ".join(data["legal_waits"]) or "none"
            print(f"legal wins (self-drawn, 听 declared) on: {wins} — not on {data['not_legal']}")
        return
    print(f"complete: {'yes' if data['complete'] else 'no'}" + (f" — {data['reading']}" if data["reading"] else ""))
    print(f"legal: {'yes' if data['legal'] else 'no'}" + ("" if data["legal"] else f" — {'; '.join(data['failures'])}"))
    if data["assignment"]:
        print("wilds stand for: " + ", ".join(f"{a}→{b}" for a, b in data["assignment"]))
    if "items" in data:
        print("items: " + ", ".join(f"{i['name']} ({i['pinyin']}) " + (f"×{i['value']}" if i["unit"] == "times" else f"{i['value']} {i['unit']}")
                                    for i in data["items"]))
        print(f"total: {data['total']} ({data['unit']})")
        print("payments: " + "  ".join(f"side {side} {amount:+d}" for side, amount in enumerate(data["payments"])))
