"""`mahjong-table hand ID TILES …`: judge, read and score a hand under a region's rules."""

from __future__ import annotations

import argparse
import json

from rulesets.hand import Hand, WinContext
from rulesets.judging import evaluate_hand
from rulesets.tiles import Tile, TileError, format_tiles, parse_tiles

from .cmd_rules import load_ruleset
from .errors import UserError


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
               "  mahjong-table hand guangdong 234p789s45s99p6s --meld 111m --self-drawn --json",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("ruleset", metavar="ID", help="a ruleset id (see `rules list`)")
    parser.add_argument("tiles", metavar="TILES", help="the concealed tiles, e.g. 111m234p789s45s99p6s")
    parser.add_argument("--meld", action="append", default=[], metavar="MELD",
                        help="a declared meld: 123m, 555p, 7777z, concealed:1111s, added:5555p, special:1234z; repeatable")
    parser.add_argument("--wild", action="append", default=[], metavar="TILE",
                        help="a wild kind, whatever the indicator (in 长春/吉林: the 宝); repeatable")
    parser.add_argument("--win-tile", metavar="TILE", help="the winning tile (default: the last tile written)")
    parser.add_argument("--self-drawn", action="store_true", help="won by self-draw (default: on 上家's discard)")
    parser.add_argument("--dealer", action="store_true", help="the winner is the dealer (default: the winner's 下家 deals)")
    parser.add_argument("--ready", action="store_true",
                        help="the winner had declared 听 (报听); in 长春/吉林 only a ready seat may use the 宝")
    parser.add_argument("--bao", action="store_true",
                        help="长春/吉林: claim a 宝 win (摸宝/对宝): needs --ready and --self-drawn, won on the 宝 "
                             "(the --wild kind, or the winning tile); the 宝 stands in only for the tile drawn")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE", help="a house option; repeatable")
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    parser.set_defaults(handler=judge_hand)


def judge_hand(args: argparse.Namespace) -> int:
    ruleset = load_ruleset(args.ruleset, args.option)
    try:
        written = parse_tiles(args.tiles)
        hand = Hand.parse(args.tiles, args.meld, honour_chows=ruleset.win.shapes.honour_chows)
        wilds = tuple(dict.fromkeys(Tile.parse(w) for w in args.wild))
        win_tile = Tile.parse(args.win_tile) if args.win_tile else (written[-1] if written else None)
    except TileError as error:
        raise UserError(str(error)) from None
    for tile in hand.all_tiles() + hand.flowers + wilds:
        if tile not in ruleset.tiles.kinds:
            raise UserError(f"{tile} ({tile.zh}) is not in the {ruleset.id} tile set ({ruleset.tiles.name})")
    sides = ruleset.players
    winner = sides[0]
    dealer = winner if args.dealer else sides[1]
    discarder = None if args.self_drawn else sides[-1]          # the winner's 上家
    context = WinContext(winner=winner, dealer=dealer, discarder=discarder,
                         win_tile=win_tile if win_tile in hand.concealed else None, sides=sides,
                         ready_declared=args.ready, bao_hit=args.bao, wilds=wilds)
    try:
        result = evaluate_hand(ruleset, hand, context)
    except TileError as error:
        raise UserError(str(error)) from None
    scoring = bool(args.win_tile or args.self_drawn or args.dealer)
    data = result_json(ruleset.id, hand, wilds, context, result, scoring)
    if args.json:
        print(json.dumps(data, ensure_ascii=False, indent=2))
    else:
        print_result(data)
    return 0


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
