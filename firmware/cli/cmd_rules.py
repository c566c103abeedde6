"""`mahjong-table rules …`: the regional rulesets, their cards, wilds and breaks."""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING

from rulesets.regions import REGION_IDS, UnknownRegion, all_regions, get_region

from .columns import table
from .errors import UserError

if TYPE_CHECKING:
    from rulesets.definition import Ruleset

# The region definitions and the rest of the rulesets are imported by the subcommands that
# use them: `rules list` reads shipped summaries (rulesets/regions/summaries.py) and is done
# before they would have loaded (issue 12: a fast start).


def register(subparsers: argparse._SubParsersAction) -> None:
    rules = subparsers.add_parser("rules", help="the regional rulesets: list, show, wild, break",
                                  description="The 31 regional rulesets and their mechanics.",
                                  epilog="examples:\n"
                                         "  mahjong-table rules list\n"
                                         "  mahjong-table rules show changchun\n"
                                         "  mahjong-table rules wild nanchang 9p\n"
                                         "  mahjong-table rules break changchun --dealer 0 --dice '6,5;5,6'",
                                  formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = rules.add_subparsers(dest="rules_command", metavar="SUBCOMMAND", parser_class=type(rules))
    sub.required = True

    listing = sub.add_parser("list", help="every ruleset with its Chinese name, tiles, players, hand size",
                             description="Every ruleset with its Chinese name, tile count, players and hand size.",
                             epilog=_examples("rules list", "rules list --json"),
                             formatter_class=argparse.RawDescriptionHelpFormatter)
    _json_flag(listing)
    listing.set_defaults(handler=list_rulesets)

    show = sub.add_parser("show", help="a ruleset's whole rule card, provenance included",
                          description="A ruleset's whole rule card: every value with its provenance, and its house options.",
                          epilog=_examples("rules show changchun", "rules show changchun --option reserve_reading=R-A"),
                          formatter_class=argparse.RawDescriptionHelpFormatter)
    show.add_argument("ruleset", metavar="ID", help="a ruleset id (see `rules list`)")
    _option_flag(show)
    _json_flag(show)
    show.set_defaults(handler=show_ruleset)

    wild = sub.add_parser("wild", help="the wild tile(s) an indicator tile makes in a ruleset",
                          description="The wild tile(s) a flipped indicator tile makes in a ruleset with wilds.",
                          epilog=_examples("rules wild nanchang 9p", "rules wild nanchang 4z", "rules wild nanchang 北"),
                          formatter_class=argparse.RawDescriptionHelpFormatter)
    wild.add_argument("ruleset", metavar="ID")
    wild.add_argument("tile", metavar="TILE", help="the flipped indicator tile, e.g. 9p, 4z or 北")
    _option_flag(wild)
    _json_flag(wild)
    wild.set_defaults(handler=show_wild)

    brk = sub.add_parser("break", help="where the wall breaks for a dealer and dice",
                         description="Where the wall breaks for a dealer and the dice: give exactly the rolls the "
                                     "ruleset uses (quote several rolls: ';' ends a shell command).",
                         epilog=_examples("rules break changsha --dealer 0 --dice 2,5",
                                          "rules break changchun --dealer 0 --dice '6,5;5,6'"),
                         formatter_class=argparse.RawDescriptionHelpFormatter)
    brk.add_argument("ruleset", metavar="ID")
    brk.add_argument("--dealer", required=True, type=int, metavar="SIDE", help="the dealer's side, 0-3")
    brk.add_argument("--dice", required=True, metavar="A,B[;C,D…]", help="the rolls in order, e.g. 2,5 or '6,5;5,6'")
    _option_flag(brk)
    _json_flag(brk)
    brk.set_defaults(handler=show_break)


def _examples(*commands: str) -> str:
    return "examples:\n" + "\n".join(f"  mahjong-table {command}" for command in commands)


def _json_flag(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="machine-readable output")


def _option_flag(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                        help="a house option (see `rules show ID`); repeatable")


def load_ruleset(region_id: str, option_texts: list[str], base_options: dict[str, str] | None = None,
                 base_source: str = "table.options") -> Ruleset:
    """The ruleset for an id and KEY=VALUE options (over `base_options`, e.g. a config file's, which
    `base_source` names); every user mistake becomes a UserError naming where the option came from."""
    from rulesets.definition import OptionError
    try:
        region = get_region(region_id)
    except UnknownRegion as error:
        raise UserError(error.message) from None
    given = parse_options(option_texts)         # (a key given twice is refused before any value is checked)
    _check_options(region, base_options or {}, base_source)
    for text in option_texts:
        _check_options(region, parse_options([text]), f"--option {text}")
    try:
        return region.resolve({**(base_options or {}), **given})
    except OptionError as error:
        raise UserError(str(error)) from None


def _check_options(region, options: dict[str, str], source: str) -> None:
    """The options of one source, each checked, so an error names the file or the flag it is in."""
    from rulesets.definition import OptionError
    try:
        region.check_options(options)
    except OptionError as error:
        raise UserError(f"{source}: {error}") from None


def parse_options(option_texts: list[str]) -> dict[str, str]:
    """KEY=VALUE texts as a dict; a key given twice is refused, even with the same value (the last
    would win without a word, and which was meant is the person's to say, as for any flag given twice)."""
    options: dict[str, str] = {}
    for text in option_texts:
        key, sep, value = text.partition("=")
        if not sep or not key or not value:
            raise UserError(f"malformed option {text!r}: write KEY=VALUE, e.g. reserve_reading=R-A")
        key, value = key.strip(), value.strip()
        if key in options:
            raise UserError(_given_twice(key, options[key], value))
        options[key] = value
    return options


def _given_twice(key: str, first: str, second: str) -> str:
    values = f"{first} both times" if first == second else f"{first} and {second}"
    return f"--option {key} given twice ({values}): give it once"


def _print_json(data: object) -> None:
    print(json.dumps(data, ensure_ascii=False, indent=2))


def list_rulesets(args: argparse.Namespace) -> int:
    from rulesets.regions.summaries import shipped
    rows = shipped()
    if args.json:
        _print_json(rows)
        return 0
    header = ("id", "name", "tiles", "players", "hand", "title")
    cells = [(row["id"], row["name"], str(row["tiles"]), str(row["players"]), str(row["hand_size"]), row["title"])
             for row in rows]
    for line in table(header, cells, "<<>>><"):
        print(line)
    return 0


def show_ruleset(args: argparse.Namespace) -> int:
    from rulesets.card import card_json, card_text
    ruleset = load_ruleset(args.ruleset, args.option)
    if args.json:
        _print_json(card_json(ruleset))
    else:
        print(card_text(ruleset))
    return 0


def show_wild(args: argparse.Namespace) -> int:
    from rulesets.indicators import Effect
    from rulesets.tiles import Tile, TileError
    ruleset = load_ruleset(args.ruleset, args.option)
    try:
        tile = Tile.parse(args.tile)
    except TileError as error:
        raise UserError(str(error)) from None
    if tile not in ruleset.tiles.kinds:
        raise UserError(f"{tile} ({tile.zh}) is not in the {ruleset.id} tile set ({ruleset.tiles.name})")
    wild_rules = [rule for rule in ruleset.indicators if rule.effect is Effect.WILD]
    if not wild_rules:
        kinds = ", ".join(f"{r.kind} ({r.effect.value})" for r in ruleset.indicators) or "none"
        raise UserError(f"{ruleset.id} has no wild indicator (its indicators: {kinds}); "
                        f"rulesets with wilds: {', '.join(_wild_region_ids())}")
    results = []
    for rule in wild_rules:
        wilds = rule.special_kinds(tile)
        results.append({"kind": rule.kind, "name": rule.name_zh, "indicator": str(tile),
                        "wilds": [str(w) for w in wilds], "wilds_zh": [w.zh for w in wilds],
                        "stand_in": str(rule.stand_in) if rule.stand_in is not None else None,
                        "stand_in_limit": rule.stand_in_limit, "rule": rule.derivation.describe()})
    if args.json:
        _print_json({"id": ruleset.id, "options": dict(ruleset.options), "results": results})
        return 0
    for result in results:
        wilds = " ".join(f"{w} {zh}" for w, zh in zip(result["wilds"], result["wilds_zh"])) or "none"
        line = f"{ruleset.id}: {result['name']} indicator {tile} {tile.zh} → wild {wilds}"
        if result["stand_in"]:
            one = "one " if result["stand_in_limit"] == 1 else ""
            line += f"; {one}{Tile.parse(result['stand_in']).zh} plays the wild's natural face"
        print(line)
    return 0


def _wild_region_ids() -> list[str]:
    from rulesets.indicators import Effect
    return [r.id for r in all_regions() if any(i.effect is Effect.WILD for i in r.resolve().indicators)]


def show_break(args: argparse.Namespace) -> int:
    from rulesets.dice import DiceError, parse_rolls
    from rulesets.reserve import wall_count
    from rulesets.walls import WallError
    ruleset = load_ruleset(args.ruleset, args.option)
    if args.dealer not in ruleset.players:
        raise UserError(f"--dealer {args.dealer} is not a playing side of {ruleset.id}; choose one of {list(ruleset.players)}")
    try:
        rolls = parse_rolls(args.dice)
        result = ruleset.dice.break_for(args.dealer, ruleset.players, rolls)
        ring = ruleset.layout.ring(result.brk)
    except (DiceError, WallError) as error:
        raise UserError(f"{error} ({ruleset.id}: {ruleset.dice.describe()})") from None
    if len(result.rolls) < len(rolls):
        raise UserError(f"--dice gave {len(rolls)} rolls but this break uses {len(result.rolls)}: drop the extra "
                        f"rolls ({ruleset.id}: {ruleset.dice.describe()})")
    count = wall_count(ruleset.reserve, ring.tile_count, 0, 0, 0)
    data = {
        "id": ruleset.id, "dealer": args.dealer, "dice": [list(r) for r in result.rolls],
        "rollers": list(result.rollers),
        "break": {"wall": result.brk.wall, "skip": result.brk.skip},
        "ring0": {"wall": ring.head.wall, "stack": ring.head.stack},
        "tail": {"wall": ring.tail.wall, "stack": ring.tail.stack},
        "ring_stacks": len(ring),
        "reserve": {"policy": ruleset.reserve.name, "description": ruleset.reserve.describe(),
                    "tiles": count.reserved, "full_stacks": count.reserved_full_stacks},
        "live_tiles": count.live,
    }
    if args.json:
        _print_json(data)
        return 0
    print(f"{ruleset.id}: dealer side {args.dealer}, dice {args.dice} → break wall {result.brk.wall}, skip {result.brk.skip}")
    print(f"  ring[0] = wall {ring.head.wall} stack {ring.head.stack}; tail = wall {ring.tail.wall} stack {ring.tail.stack}; {len(ring)} stacks")
    print(f"  reserve at 0 kongs: {count.reserved} tiles ({count.reserved_full_stacks} full stacks) — {ruleset.reserve.describe()}")
    return 0


__all__ = ["register", "load_ruleset", "parse_options", "REGION_IDS"]
