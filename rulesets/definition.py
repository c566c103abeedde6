"""A region's definition (its rule card) and the ruleset it resolves to.

A `Region` holds every value with its provenance and the house options that settle what the
texts leave open.  `Region.resolve(options)` checks the options and returns a `Ruleset`: plain
values the controller uses, plus the source of each.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Mapping

from .dealing import DealPattern
from .dice import BreakProcedure
from .indicators import IndicatorRule
from .provenance import Given, Source, Sourced, default
from .scoring import FlatScorer, Scorer
from .winrules import WinRules
from .reserve import ReservePolicy
from .rotation import RotationRule
from .tiles import Tile
from .tilesets import TileSet
from .walls import End, WallLayout


_GLOSS = re.compile(r"\s*\([^()]*\)$")      # a label's trailing English gloss


def options_text(options: Mapping[str, str], separator: str = " ") -> str:
    """House options as people read them in a line: `bao_count=stacks dadan=plain`, sorted by key."""
    return separator.join(f"{key}={value}" for key, value in sorted(options.items()))


class OptionError(ValueError):
    """An unknown house option or a value it does not allow."""


@dataclass(frozen=True)
class HouseOption:
    """An open question of the texts, settled per table from the front panel.

    The panel shows it in Chinese: `label_zh` (the label without its English gloss) and each
    value's `value_labels` entry, short enough for one line of the display's menu.
    """

    key: str
    label: str                                  # "中文 (English)"; the Chinese part is shown on the panel
    choices: tuple[tuple[str, str], ...]        # (value, what it means)
    default: str
    source: Source                              # why it is open, and why the default
    value_labels: tuple[tuple[str, str], ...] = ()      # (value, its short Chinese label for the panel)

    def __post_init__(self) -> None:
        if self.default not in self.values:
            raise ValueError(f"option {self.key}: default {self.default!r} is not a choice")
        labelled = tuple(value for value, _ in self.value_labels)
        if self.value_labels and labelled != self.values:
            raise ValueError(f"option {self.key}: value_labels name {labelled}, the choices are {self.values}")

    @property
    def values(self) -> tuple[str, ...]:
        return tuple(value for value, _ in self.choices)

    @property
    def label_zh(self) -> str:
        """The label as the panel shows it: "开牌" from "开牌 (break)"."""
        return _GLOSS.sub("", self.label)

    def value_label(self, value: str) -> str:
        """A value as the panel shows it (its Chinese label; the value itself if it has none)."""
        return dict(self.value_labels).get(value, value)


@dataclass(frozen=True)
class Play:
    """How play runs: claims, who may win on what, what happens after a win."""

    chi: bool = True                    # chow a discard of 上家
    pong: bool = True                   # pong (碰) and exposed kong of a discard
    discard_win: bool = True            # win on another's discard (False: self-draw only)
    multiple_winners: bool = False      # 一炮多响
    # with one winner a discard, who wins when several claim it: "nearest" the discarder in play order
    # (截胡, the texts that say), or the first 胡 "pressed" (a rule the table cannot judge before the hands)
    claim_order: str = "nearest"
    ready_declaration: str = "none"     # "none", "optional" (报听 gives rights, e.g. 看宝), "required"
    after_win: str = "end"              # "end", "xuezhan" (until one player is left), "xueliu" (until the wall is empty)
    last_tiles_forced_win: int = 0      # 最后四张: within the last N live tiles a possible win must be taken

    def describe(self) -> str:
        parts = ["吃 allowed" if self.chi else "no 吃", "碰 allowed" if self.pong else "no 碰",
                 "wins on a discard" if self.discard_win else "self-draw wins only",
                 "一炮多响 allowed" if self.multiple_winners else
                 "one winner per discard, the claimant nearest the discarder (截胡)" if self.claim_order == "nearest" else
                 "one winner per discard, the first 胡 pressed",
                 f"报听: {self.ready_declaration}", f"after a win: {self.after_win}"]
        if self.last_tiles_forced_win:
            parts.append(f"within the last {self.last_tiles_forced_win} tiles a win must be taken (the players' "
                         "duty: the table sees no hand until it is laid, so it cannot see a win passed up)")
        return "; ".join(parts)


@dataclass(frozen=True)
class Flowers:
    """Which kinds are bonus tiles (set aside and replaced), and from where."""

    kinds: tuple[Tile, ...] = ()
    replacement: End = End.TAIL
    swaps: tuple[tuple[Tile, Tile], ...] = ()   # (kind, other): when `kind` is wild, `other` is the bonus tile instead

    def describe(self) -> str:
        if not self.kinds:
            return "no bonus tiles"
        text = f"{''.join(t.zh for t in self.kinds)} are set aside and replaced from the {self.replacement.value}"
        for kind, other in self.swaps:
            text += f"; when {kind.zh} is wild, {other.zh} takes its place"
        return text

    def kinds_for(self, wilds: tuple[Tile, ...] | frozenset[Tile] = ()) -> frozenset[Tile]:
        """The bonus kinds given the wilds in play; a wild is never set aside."""
        kinds = set(self.kinds)
        for kind, other in self.swaps:
            if kind in kinds and kind in wilds:
                kinds.discard(kind)
                kinds.add(other)
        return frozenset(k for k in kinds if k not in wilds)


@dataclass(frozen=True)
class Phase:
    """A special phase the controller runs through a region hook (by name)."""

    name: str
    description: str

    def __post_init__(self) -> None:
        if self.name not in PHASE_NAMES:
            raise ValueError(f"unknown phase {self.name!r}; known phases: {', '.join(PHASE_NAMES)}")


PHASE_NAMES = (
    "flower_replacement",   # 补花 from the tail
    "exchange_three",       # 换三张 (宜昌)
    "opening_kongs",        # 旋风杠 喜杠 幺蛋 九蛋 (长春)
    "liang_pai",            # 亮牌 (沈阳)
    "la_zhuang",            # 拉庄 asked of those owing a dealer's win (十六张)
    "cai_piao",             # 财飘 asked of the winner of a 爆头 (杭州): the 财神 he discarded waiting on it
    "chengbao",             # 承包 asked of a winner (上海): the side he claimed from, or that claimed from him, 3+ times
    "san_chi",              # 三吃承包 asked of a winner with 3+ claimed melds (杭州): the side that fed them
    "chongfeng_ji",         # 冲锋鸡 / 责任鸡 (贵州): who discarded the first 1条, asked in the settlement round
    "standing_four",        # 立四's standing tiles
    "opening_small_wins",   # 长沙 起手小和
    "choose_void_suit",     # 定缺 (四川)
    "after_win_flip",       # 鸡 马 鸟
    "check_ready_at_draw",  # 查大叫 / 查叫 at 荒庄
    "check_flower_pig",     # 查花猪
    "follow_dealer",        # 跟庄 (dabao)
    "private_bao",          # 长春 看宝 / 换宝
    "hua_peng",             # 螺山 花碰: a 财神 stands in a pong of a dragon or seat wind
    "bonus_flower_exposure",  # 钻牌: 发 (or 红中) shown and replaced from the tail
    "continue_after_win",   # 血战到底 / 血流成河
    "kong_giver",           # who gave an exposed kong's tile, asked where kong money depends on it (云南)
    "settle_every_seat",    # every seat lays its hand at the end; items of non-winners' tiles are paid (贵州 鸡)
    "lay_kongs",            # each kong seat lays its kongs at the end; 大蛋 among them are paid (长春, dadan=laid)
    "reseat_after_four",    # 庄家连庄四把之后，四位玩家重新排定位置 (十七张)
)


@dataclass(frozen=True)
class Region:
    """One region's rule card.  Every value is Given, a Choice of a house option, or Derived."""

    id: str
    name: str                       # Chinese name shown on the panel
    title: str                      # English title
    section: str                    # RULES.md section
    attribution: str                # named in the texts, or why it was attributed
    tiles: Sourced
    players: Sourced                # the playing sides, e.g. (0, 1, 2, 3)
    hand_size: Sourced
    stacks_per_side: Sourced
    dealing: Sourced
    dice: Sourced
    indicators: Sourced             # tuple[IndicatorRule, ...]
    reserve: Sourced
    replacement: Sourced            # End the replacement draws come from
    rotation: Sourced
    play: Sourced
    flowers: Sourced
    phases: Sourced                 # tuple[Phase, ...]
    win: Sourced | None = None      # WinRules: shapes and requirements (None: any standard hand)
    scoring: Sourced | None = None  # a Scorer (None: FlatScorer, the text gives no values)
    options: tuple[HouseOption, ...] = ()
    notes: tuple[str, ...] = ()
    unpriced: tuple[str, ...] = ()  # payments the texts name without a value, and what the table does for them

    def option(self, key: str) -> HouseOption:
        for opt in self.options:
            if opt.key == key:
                return opt
        raise OptionError(self._unknown_option(key))

    def default_options(self) -> dict[str, str]:
        return {opt.key: opt.default for opt in self.options}

    def check_options(self, chosen: Mapping[str, str] | None) -> dict[str, str]:
        """The full option map: defaults overridden by `chosen`, each checked."""
        resolved = self.default_options()
        for key, value in (chosen or {}).items():
            opt = self.option(key)
            if value not in opt.values:
                raise OptionError(f"option {key} of {self.id} does not allow {value!r}; choose one of: {', '.join(opt.values)}")
            resolved[key] = value
        return resolved

    def known_options(self, chosen: Mapping[str, str]) -> tuple[dict[str, str], dict[str, str]]:
        """`chosen` split into the options this card knows with a value it allows, and the rest (saved
        or journaled by another version of the rules: an option added since, or taken out)."""
        known: dict[str, str] = {}
        unknown: dict[str, str] = {}
        for key, value in chosen.items():
            opt = next((o for o in self.options if o.key == key), None)
            (known if opt is not None and value in opt.values else unknown)[key] = value
        return known, unknown

    def same_options(self, one: Mapping[str, str], other: Mapping[str, str]) -> bool:
        """Whether two choices play the same rules on this card: each read with its defaults filled in
        (a version that adds an option with its default plays what the one before played)."""
        return self.check_options(self.known_options(one)[0]) == self.check_options(self.known_options(other)[0])

    def resolve(self, chosen: Mapping[str, str] | None = None) -> "Ruleset":
        options = self.check_options(chosen)
        values: dict[str, Any] = {}
        sources: dict[str, Source] = {}
        for name in RULE_FIELDS:
            value, source = (getattr(self, name) or FALLBACKS[name]).resolve(options)
            values[name] = value
            sources[name] = source
        layout = WallLayout(tuple(values["stacks_per_side"]))
        if layout.tile_count != values["tiles"].size:
            raise ValueError(f"{self.id}: {layout.tile_count} wall positions for {values['tiles'].size} tiles")
        return Ruleset(region=self, options=tuple(sorted(options.items())), layout=layout,
                       sources=tuple(sources.items()), **values)

    def _unknown_option(self, key: str) -> str:
        keys = ", ".join(opt.key for opt in self.options) or "none"
        return f"{self.id} has no house option {key!r}; its options are: {keys}"


RULE_FIELDS = ("tiles", "players", "hand_size", "stacks_per_side", "dealing", "dice", "indicators",
               "reserve", "replacement", "rotation", "play", "flowers", "phases", "win", "scoring")

FALLBACKS = {
    "win": Given(WinRules(), default("the text states no win requirement: any standard hand (its melds and a pair) wins")),
    "scoring": Given(FlatScorer(), default("the text gives no values: a win is 1 point (FlatScorer)")),
}


@dataclass(frozen=True)
class Ruleset:
    """A region with its house options settled: the values the controller plays by."""

    region: Region
    options: tuple[tuple[str, str], ...]
    layout: WallLayout
    sources: tuple[tuple[str, Source], ...]
    tiles: TileSet
    players: tuple[int, ...]
    hand_size: int
    stacks_per_side: tuple[int, int, int, int]
    dealing: DealPattern
    dice: BreakProcedure
    indicators: tuple[IndicatorRule, ...]
    reserve: ReservePolicy
    replacement: End
    rotation: RotationRule
    play: Play
    flowers: Flowers
    phases: tuple[Phase, ...]
    win: WinRules
    scoring: Scorer

    @property
    def id(self) -> str:
        return self.region.id

    def source(self, name: str) -> Source:
        return dict(self.sources)[name]

    def option(self, key: str) -> str:
        return dict(self.options)[key]

    def has_phase(self, name: str) -> bool:
        return any(p.name == name for p in self.phases)

    def asks(self, phase: str) -> bool:
        """A phase that asks the seats something, on at this table: on the card, and not turned off by the
        house option of the same name, where there is one (la_zhuang, san_chi, chongfeng_ji)."""
        return self.has_phase(phase) and dict(self.options).get(phase) != "off"

    def same_rules_as(self, other: "Ruleset") -> bool:
        """The same region with the same house options (a choice of the rules in play is no new rules)."""
        return (self.id, dict(self.options)) == (other.id, dict(other.options))

    def plays_on_tiles_of(self, other: "Ruleset") -> bool:
        """Whether a hand of these rules can be played with the tiles and walls `other` built."""
        return self.tiles.counts == other.tiles.counts and self.stacks_per_side == other.stacks_per_side

    @property
    def shown_tile_replaces_at_wall_end(self) -> bool:
        """A shown tail tile (云南 尾牌) is a kong's replacement once no face-down tail tile is left."""
        return any(rule.replaces_at_wall_end for rule in self.indicators)

