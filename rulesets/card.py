"""A ruleset as data: the rule card shown by `mahjong-table rules show` (JSON and text).

Every policy object is rendered as its `name`, its `describe()` sentence and its parameters, and
every field carries its provenance.
"""

from __future__ import annotations

import dataclasses
from enum import Enum
from typing import Any

from .definition import RULE_FIELDS, Region, Ruleset
from .indicators import IndicatorRule
from .table_rules import judged_rules
from .tiles import Tile
from .tilesets import TileSet


def plain(value: Any) -> Any:
    """JSON-ready data for any rules value."""
    if isinstance(value, Tile):
        return str(value)
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, TileSet):
        return [str(t) for t in value.tiles()]
    if isinstance(value, (tuple, list)):
        return [plain(v) for v in value]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        data = {f.name: plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
        if hasattr(value, "describe"):
            data["description"] = value.describe()
        return data
    return value


def indicator_json(rule: IndicatorRule) -> dict[str, Any]:
    return {
        "kind": rule.kind,
        "name": rule.name_zh,
        "timing": rule.timing.value,
        "position": {"rule": rule.position.name, "description": rule.position.describe(), **plain(rule.position)},
        "wild_rule": {"rule": rule.derivation.rule, "description": rule.derivation.describe()},
        "effect": rule.effect.value,
        "public": rule.public,
        "stays_in_play": rule.stays_in_play,
        "replaces_at_wall_end": rule.replaces_at_wall_end,
        "stand_in": str(rule.stand_in) if rule.stand_in is not None else None,
        "stand_in_limit": rule.stand_in_limit,
        "position_dice": rule.position_dice,
        "notes": list(rule.notes),
    }


def card_json(ruleset: Ruleset) -> dict[str, Any]:
    region = ruleset.region
    sources = dict(ruleset.sources)
    indicators = [indicator_json(rule) for rule in ruleset.indicators]
    return {
        "id": region.id,
        "name": region.name,
        "title": region.title,
        "section": region.section,
        "attribution": region.attribution,
        "tiles": plain(ruleset.tiles),
        "tile_set": ruleset.tiles.name,
        "tile_count": ruleset.tiles.size,
        "players": len(ruleset.players),
        "sides": list(ruleset.players),
        "hand_size": ruleset.hand_size,
        "stacks_per_side": list(ruleset.stacks_per_side),
        "dealing": plain(ruleset.dealing),
        "dice": plain(ruleset.dice),
        "indicator": indicators[0] if indicators else None,
        "indicators": indicators,
        "reserve": {"policy": ruleset.reserve.name, "description": ruleset.reserve.describe(),
                    "preset": getattr(ruleset.reserve, "reading", None), **plain(ruleset.reserve)},
        "replacement": ruleset.replacement.value,
        "rotation": plain(ruleset.rotation),
        "play": plain(ruleset.play),
        "flowers": plain(ruleset.flowers),
        "phases": plain(ruleset.phases),
        "win": {"description": ruleset.win.describe(),
                "requirements": [{"key": r.key, "zh": r.zh, "source": str(r.source)} for r in ruleset.win.requirements],
                "table_rules": [{"rule": rule, "source": str(source)} for rule, source in judged_rules(ruleset)]},
        "scoring": {"scorer": ruleset.scoring.name, "description": ruleset.scoring.describe()},
        "options": [option_json(region, key, value) for key, value in ruleset.options],
        "provenance": {name: str(sources[name]) for name in RULE_FIELDS},
        "notes": list(region.notes),
        "unpriced": list(region.unpriced),
    }


def option_json(region: Region, key: str, value: str) -> dict[str, Any]:
    opt = region.option(key)
    return {"key": key, "label": opt.label, "value": value, "default": opt.default,
            "choices": [{"value": v, "meaning": m} for v, m in opt.choices], "source": str(opt.source)}


def summary_json(ruleset: Ruleset) -> dict[str, Any]:
    """The one-line facts `rules list` shows."""
    return {"id": ruleset.id, "name": ruleset.region.name, "title": ruleset.region.title,
            "tiles": ruleset.tiles.size, "players": len(ruleset.players), "hand_size": ruleset.hand_size}


def card_text(ruleset: Ruleset) -> str:
    """The rule card as a player reads it: each value, then where it comes from."""
    region = ruleset.region
    sources = dict(ruleset.sources)
    lines = [f"{region.name} — {region.title} ({region.id})", f"  {region.section}; {region.attribution}", ""]

    def entry(label: str, value: str, field_name: str) -> None:
        lines.append(f"{label}: {value}")
        lines.append(f"    ← {sources[field_name]}")

    entry("tiles", f"{ruleset.tiles.size} — {ruleset.tiles.name}", "tiles")
    entry("players", f"{len(ruleset.players)} (sides {', '.join(map(str, ruleset.players))})", "players")
    entry("hand size", f"{ruleset.hand_size} (the dealer {ruleset.hand_size + 1})", "hand_size")
    entry("stacks per side", " ".join(map(str, ruleset.stacks_per_side)), "stacks_per_side")
    entry("dealing", ruleset.dealing.describe(), "dealing")
    entry("dice", ruleset.dice.describe(), "dice")
    entry("indicators", "; ".join(r.describe() for r in ruleset.indicators) or "none", "indicators")
    entry("reserve", ruleset.reserve.describe(), "reserve")
    entry("replacement draws", f"from the {ruleset.replacement.value}", "replacement")
    entry("dealer rotation", ruleset.rotation.describe(), "rotation")
    entry("play", ruleset.play.describe(), "play")
    entry("bonus tiles", ruleset.flowers.describe(), "flowers")
    entry("special phases", "; ".join(f"{p.name}: {p.description}" for p in ruleset.phases) or "none", "phases")
    entry("winning", ruleset.win.describe(), "win")
    for requirement in ruleset.win.requirements:
        lines.append(f"  - {requirement.describe()} ← {requirement.source}")
    for rule, source in judged_rules(ruleset):
        lines.append(f"  - the table: {rule} ← {source}")
    entry("scoring", ruleset.scoring.describe(), "scoring")
    if region.options:
        lines += ["", "house options (KEY=VALUE, default marked *):"]
        chosen = dict(ruleset.options)
        for opt in region.options:
            lines.append(f"  {opt.key} — {opt.label} (now {chosen[opt.key]})")
            for value, meaning in opt.choices:
                lines.append(f"    {'*' if value == opt.default else ' '} {value}: {meaning}")
            lines.append(f"    ← {opt.source}")
    if region.unpriced:
        lines += ["", "named without a value (the text names the payment, not its amount):"]
        lines += [f"  - {item}" for item in region.unpriced]
    if region.notes:
        lines += ["", "notes:"] + [f"  - {note}" for note in region.notes]
    return "\n".join(lines)
