"""百搭 block — RULES.md §27 [unnamed]: 活动百搭 and 带弟百搭.

At the start one tile at the kong end (杠尾, the tail) is flipped.  活动百搭: its own kind is 百搭, and
a 白板 plays the flipped kind's natural face.  带弟百搭: the next kind is 百搭, with suits 9→1 and the
honours in ONE cycle 东南西北中发白东 (so 北 → 红中 and 白 → 东).
"""

from ..cycles import ONE_HONOUR_CYCLE
from ..definition import HouseOption, Region
from ..indicators import Derivation, Effect, IndicatorRule, TailTop, Timing
from ..provenance import Derived, Given, default, open_question, text
from ..tiles import Tile
from ..tilesets import SET_136
from .common import (DEFAULT_DEAL, DEFAULT_BREAK, DEFAULT_HAND_SIZE, DEFAULT_PLAY, DEFAULT_PLAYERS,
                     DEFAULT_ROTATION, NO_FLOWERS, NO_PHASES, TAIL_REPLACEMENT, dead_wall)

MODE = HouseOption(
    "baida_mode", "百搭 玩法 (mode)",
    (("huodong", "活动百搭: the flipped kind is 百搭; 白板 plays its natural face"),
     ("daidi", "带弟百搭: the next kind (one honour cycle 东南西北中发白) is 百搭")),
    "huodong", open_question("§27", "the text gives both; 活动百搭 is the base game it names first, 带弟百搭 the variant"),
    value_labels=(("huodong", "活动百搭"), ("daidi", "带弟百搭")))

INDICATOR_TILE = HouseOption(
    "baida_tile", "翻牌 (the flipped tile)",
    (("stays", "stays face up at the tail and is drawn as a replacement"), ("set_aside", "is set aside")),
    "stays", open_question("§27", "whether the flipped tail tile stays in the wall or is removed: not stated; nothing says it leaves"),
    value_labels=(("stays", "留在墙尾"), ("set_aside", "取出")))


WHITE_STAND_IN = HouseOption(
    "baida_white", "白板 (the 白板 stand-in)",
    (("huodong", "活动百搭 only: a 白板 plays the 百搭 kind's natural face; under 带弟百搭 a 白板 is a 白板"),
     ("both", "带弟百搭 too: a 白板 plays the 百搭 kind's natural face in either mode")),
    "huodong", open_question("§27", "「其中一张白板可以用作代替该张翻开的牌」 stands in the 活动百搭 sentence; whether it "
                                    "holds for 带弟百搭 is not stated: it is read where it stands"),
    value_labels=(("huodong", "仅活动百搭"), ("both", "两种都用")))


WHITE_COUNT = HouseOption(
    "baida_white_count", "白板几张 (how many 白板 stand in)",
    (("all", "(a) every 白板 plays the 百搭 kind's natural face"),
     ("one", "(b) one 白板 may play it, for the flipped tile; any other 白板 is a 白板")),
    "all", open_question("§27", "「其中一张白板可以用作代替该张翻开的牌」: (a) 白板 tiles stand in for the 百搭 kind's face, "
                                "as 白板 does for 财神 where the texts say so (温州, RESEARCH.md §3.3); (b) exactly one 白板 "
                                "replaces the one flipped tile (「其中一张」)"),
    value_labels=(("all", "白板都代"), ("one", "只代一张")))


def _baida(options) -> tuple[IndicatorRule, ...]:
    stays = options["baida_tile"] == "stays"
    limit = 1 if options["baida_white_count"] == "one" else None
    if options["baida_mode"] == "huodong":
        rule = IndicatorRule(kind="baida", timing=Timing.AFTER_DEAL, position=TailTop(),
                             derivation=Derivation("same"), effect=Effect.WILD, stays_in_play=stays,
                             stand_in=Tile.WHITE, stand_in_limit=limit)
    else:
        white = Tile.WHITE if options["baida_white"] == "both" else None
        rule = IndicatorRule(kind="baida", timing=Timing.AFTER_DEAL, position=TailTop(),
                             derivation=Derivation("successor", ONE_HONOUR_CYCLE), effect=Effect.WILD,
                             stays_in_play=stays, stand_in=white, stand_in_limit=limit)
    return (rule,)


DEAD_WALL = dead_wall("not stated (§27)")

REGION = Region(
    id="baida",
    name="百搭麻将",
    title="Baida block (活动百搭 / 带弟百搭)",
    section="RULES.md §27",
    attribution="unnamed block [000:175]",
    tiles=Given(SET_136, default("not stated; the text names 东南西北中发白 and no flowers, so 136")),
    players=DEFAULT_PLAYERS,
    hand_size=DEFAULT_HAND_SIZE,
    stacks_per_side=Given((17, 17, 17, 17), default("136 tiles make 17 stacks a side (RESEARCH.md §1.1)")),
    dealing=DEFAULT_DEAL,
    dice=DEFAULT_BREAK.procedure,
    indicators=Derived(_baida, text("§27", "活动百搭：开牌时将杠尾的一张牌翻开，该牌就是百搭。其中一张白板可以用作代替该张翻开的牌。 带弟百搭：若杠尾的张牌翻开是三万，则四万是百搭…故开九万则以一万为百搭，开北则以红中为白搭"),
                       ("baida_mode", "baida_tile", "baida_white", "baida_white_count")),
    reserve=DEAD_WALL.choice,
    replacement=TAIL_REPLACEMENT,
    rotation=DEFAULT_ROTATION,
    play=DEFAULT_PLAY,
    flowers=NO_FLOWERS,
    phases=NO_PHASES,
    options=(MODE, INDICATOR_TILE, WHITE_STAND_IN, WHITE_COUNT, DEAD_WALL.option, *DEFAULT_BREAK.options),
    notes=(
        "「其中一张白板可以用作代替该张翻开的牌」 is read as (a) by default: 白板 tiles play the 百搭 kind's natural face; "
        "house option baida_white_count=one reads (b): one 白板 may, the others are 白板.",
        "The 白板 rule is applied to 活动百搭 only, where the text states it (house option baida_white). With "
        "baida_white=both a 白板 under 带弟百搭 plays the 百搭 kind's face, not the flipped tile's that 「代替该张翻开的牌」 "
        "names (the kind before the 百搭): a stand-in plays a wild kind's face only, so that no face ever counts more "
        "than four tiles (docs/winning.md); a 白板 playing a natural kind could be a fifth.",
    ),
)
