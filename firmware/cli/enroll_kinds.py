"""`enroll --kinds`: some kinds of an enrolled set enrolled anew, the rest of its tags kept.

A tile lost, chipped or with a dead tag is replaced by one with a new tag: the technician lays that
kind's copies (the old ones and the new one) at one prompt, instead of enrolling the whole set
again.  Every wrong combination is refused in one line before the registry or any board is opened.
"""

from __future__ import annotations

import argparse
from collections import Counter
from pathlib import Path

from firmware.build.registry import TileRegistry
from rulesets.tiles import Tile, TileError, parse_tiles
from rulesets.tilesets import NAMED_SETS, TileSet

from .errors import UserError


def kinds_asked(args: argparse.Namespace, tile_set: TileSet) -> tuple[Tile, ...]:
    """The kinds `--kinds` names (none without it), each checked against the other flags and the set."""
    if args.kinds is None:
        return ()
    if args.import_file:
        raise UserError("--kinds does not go with --import: an export says each tag's tile; leave --kinds out")
    if args.replace:       # (two ways to say what is forgotten: nobody should wonder which one applies)
        raise UserError("--replace does not go with --kinds: --kinds replaces those kinds' tags of the set and "
                        "keeps the others; leave --replace out")
    try:
        kinds = parse_tiles(args.kinds)
    except TileError as error:
        raise UserError(f"--kinds: {error}") from None
    if not kinds:           # (", ": taken as no --kinds, the whole set would be asked for)
        raise UserError(f"--kinds {args.kinds!r} names no tile; name the kinds to enrol anew, e.g. --kinds 1p,5z")
    for kind, times in Counter(kinds).items():
        if times > 1:
            raise UserError(f"--kinds names {kind} {times} times: name each kind once, e.g. --kinds 1p,5z")
    for kind in kinds:
        if not tile_set.copies(kind):
            raise UserError(f"--kinds: {kind} ({kind.zh}) is no tile of the {tile_set.name} set: "
                            "name kinds of the set, and give --tiles as the set was enrolled")
    return tuple(kinds)


def refuse_kinds_of(registry: TileRegistry, path: Path | str, set_index: int, tile_set: TileSet,
                    tiles: str) -> None:
    """Kinds are enrolled anew only in a set enrolled whole, as the tile set named: a kind of a set
    never enrolled would be a set of a few kinds, rejected at every build."""
    held = registry.counts(set_index)
    if not held:
        raise UserError(f"set {set_index} is not enrolled in {path}: enrol it whole first (leave --kinds out)")
    if held == Counter(dict(tile_set.counts)):
        return
    named = [name for name, other in NAMED_SETS.items() if held == Counter(dict(other.counts))]
    if named:
        raise UserError(f"set {set_index} in {path} is enrolled as the {named[0]}-tile set, not {tiles}: "
                        f"give --tiles {named[0]}")
    raise UserError(f"set {set_index} in {path} is no whole set ({sum(held.values())} tags): enrol it whole "
                    "with --replace instead of --kinds")


def kind_tags(registry: TileRegistry, set_index: int, kinds: tuple[Tile, ...]) -> frozenset[bytes]:
    """The tags of these kinds of one set."""
    return frozenset(e.uid for e in registry.tags(set_index) if e.kind in kinds)


def kinds_enrolled(registry: TileRegistry, set_index: int, kinds: tuple[Tile, ...], before: frozenset[bytes],
                   path: Path | str) -> str:
    """What the technician wants to know: how many tags are new, how many were forgotten, the rest kept."""
    after = kind_tags(registry, set_index, kinds)
    others = len(registry.tags(set_index)) - len(after)
    names = ", ".join(f"{kind.zh} ({kind})" for kind in kinds)
    return (f"enrolled {names} of set {set_index} anew in {path}: {len(after - before)} new tag(s), "
            f"{len(before - after)} forgotten; its other {others} tags unchanged")
