"""南昌麻将 — RULES.md §10: honour chows, 十三烂, 正精 and 副精.

The text names 正精/副精 without saying how they are found; published 南昌 rules (RESEARCH.md §3.7)
flip one tile: 正精 = the flipped kind, 副精 = the next (9→1, 北→东, 白→中), and end the hand when
34 tiles remain.
"""

from ..cycles import SEPARATE_HONOURS
from ..definition import HouseOption, Region
from ..indicators import Derivation, Effect, IndicatorRule, NextHeadTile, TailTop, Timing
from ..provenance import Derived, Given, choice, default, research, text
from ..reserve import FixedTiles
from ..scoring.nanchang import NanchangScorer
from ..tilesets import SET_136
from ..winning import Shapes
from ..winrules import WinRules
from .common import (DEFAULT_DEAL, DEFAULT_BREAK, DEFAULT_HAND_SIZE, DEFAULT_PLAY, DEFAULT_PLAYERS,
                     DEFAULT_ROTATION, NO_FLOWERS, TAIL_REPLACEMENT, phase)


def _jing(position) -> tuple[IndicatorRule, ...]:
    return (IndicatorRule(kind="jing", timing=Timing.AFTER_DEAL, position=position,
                          derivation=Derivation("same_and_next", SEPARATE_HONOURS), effect=Effect.WILD,
                          stays_in_play=False,
                          notes=("正精 = the flipped kind, 副精 = the next kind; the flipped tile is set aside, face up: "
                                 "its 3 other copies and the 4 副精 are the 7 精 (RESEARCH.md §3.7)",)),)


JING_POSITION = HouseOption(
    "jing_position", "翻精 (where)",
    (("next_head", "the next head tile after the deal"), ("tail_top", "the top tile of the tail stack")),
    "next_head", research("§3.7", "a physical table flips from a fixed wall position (configure it); the tile after the deal is the common choice"),
    value_labels=(("next_head", "牌头下一张"), ("tail_top", "牌尾上层")))

JING_SETTLEMENT = HouseOption(
    "jing_settlement", "精分 结算 (who collects 精分)",
    (("all_sides", "every side collects its 精分 (正精 2, 副精 1 a copy) from each other side"),
     ("winner_only", "only the winner collects his 精分 from each loser")),
    "all_sides", research("§3.7", "SERVER-1 keeps 正精/副精 counts per player, so every player's 精 is settled [P]"),
    value_labels=(("all_sides", "各家都收"), ("winner_only", "只胡家收")))

REGION = Region(
    id="nanchang",
    name="南昌麻将",
    title="Nanchang",
    section="RULES.md §10",
    attribution="named [000:19]",
    tiles=Given(SET_136, default("not stated; honours exist (字牌顺子), no flowers named: 136")),
    players=DEFAULT_PLAYERS,
    hand_size=DEFAULT_HAND_SIZE,
    stacks_per_side=Given((17, 17, 17, 17), default("136 tiles make 17 stacks a side (RESEARCH.md §1.1)")),
    dealing=DEFAULT_DEAL,
    dice=DEFAULT_BREAK.procedure,
    indicators=choice("jing_position", {
        "next_head": Given(_jing(NextHeadTile()), research("§3.7", "正精 = the flipped tile's kind, 副精 = the next kind")),
        "tail_top": Given(_jing(TailTop()), research("§3.7", "正精 = the flipped tile's kind, 副精 = the next kind")),
    }),
    reserve=Given(FixedTiles(34), research("§3.7", "Hand ends (流局) when 34 tiles remain")),
    replacement=TAIL_REPLACEMENT,
    rotation=DEFAULT_ROTATION,
    play=DEFAULT_PLAY,
    flowers=NO_FLOWERS,
    phases=Derived(lambda o: (phase("settle_every_seat", "after a win every other seat lays its hand and collects "
                                                        "its 精分 (正精 2, 副精 1 a copy) from each other side"),)
                   if o["jing_settlement"] == "all_sides" else (),
                   research("§3.7", "SERVER-1 keeps 正精/副精 counts per player, so every player's 精 is settled [P]"),
                   ("jing_settlement",)),
    win=Given(WinRules(Shapes(honour_chows=True, shisanlan=True)),
              text("§10", "三张不重复的同类的字牌可以组成一副顺子再加上比全不靠更容易和的“十三烂”的新牌型的引入")),
    scoring=Given(NanchangScorer(), research("§3.7", "Typical scoring is 正精 2, 副精 1 per copy [P]; the text gives no values")),
    options=(JING_POSITION, JING_SETTLEMENT, *DEFAULT_BREAK.options),
    notes=(
        "「使用了较多的混牌――“正精”和“副精”」: the text gives no derivation; RESEARCH.md §3.7's is used.",
        "Shapes: the standard hand with honour chows (three different winds, or 中发白: 「同类」 read as winds with winds, "
        "dragons with dragons) and 十三烂; no requirement is stated.",
        "Values are research [P] (RESEARCH.md §3.7): a win is 1 (not stated); 精分 = 正精 2 + 副精 1 per copy held, "
        "collected from each other side (house option). 霸王精, 冲关 and 上下翻精 have no values and are not applied.",
    ),
)
