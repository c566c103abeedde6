"""吉林麻将 — RULES.md §2: the 长春 system in a near-verbatim copy (file 002 lines 65-90).

The block states tiles, players, dice, dealer and claims exactly as 长春, and refers to the
「打宝规则」 given only in the 长春 text; the 宝 and the dead wall are therefore taken from there.
"""

from dataclasses import replace

from ..provenance import Given, default, text
from ..requirements import has_pung_or_kong
from ..winrules import Requirement, WinRules
from ..tilesets import SET_136
from ..walls import End
from . import changchun

KE = Requirement("yike", "至少一刻", text("§2", "(1)11、111、123、123、123(2)11、123、123、111、111(1111) — every listed shape holds a 111 (or 1111)"),
                 has_pung_or_kong)

REGION = replace(
    changchun.REGION,
    id="jilin",
    name="吉林麻将",
    title="Jilin",
    section="RULES.md §2",
    attribution="named: 「吉林麻将麻将弄法及计分规矩[总结]」 [002:65]",
    tiles=Given(SET_136, text("§2", "共136张牌（每人摆17叠）")),
    players=Given((0, 1, 2, 3), text("§2", "游戏人数：4人")),
    hand_size=Given(13, text("§2", "庄家拿14张牌，闲家13张牌")),
    stacks_per_side=Given((17, 17, 17, 17), text("§2", "每人摆17叠")),
    replacement=Given(End.TAIL, text("§2", "开杠后从牌城尾部补牌")),
    reserve=replace(changchun.REGION.reserve, source=default(
        "the 吉林 block states no dead wall; it is the 长春 system (§2), so 长春's 留7墩 rule (§1.4) applies")),
    phases=Given((changchun.PRIVATE_BAO,),
                 text("§2", "听牌时可看宝，未听牌者不许看（参照打宝规则）")),
    win=Given(WinRules(requirements=(changchun.SANSE, changchun.YAOJIU, KE, changchun.SHOUBAYI)),
              text("§2", "(1)11、111、123、123、123(2)11、123、123、111、111(1111)(4)11、123、111、111、111(1111)(5)11、111、111、111、111(1111)")),
    scoring=replace(changchun.REGION.scoring, source=default(
        "the 吉林 block gives no values; it is the 长春 system (§2), so 长春's scoring (§1.8) applies")),
    options=tuple(o for o in changchun.REGION.options if o.key not in ("special_kongs_count", "win_version", "dadan")),
    notes=(
        "The block refers to 「打宝规则」 given only in the 长春 text (§1.3): the 宝 procedure and its options are 长春's.",
        "The block states no dead wall: the 长春 留7墩 rule (§1.4) applies, with the same readings.",
        "The block names no opening special kongs (旋风杠 etc.); they are not part of this ruleset.",
        "Hand shapes lack 长春's (3) and (6) (§2) — used by the hands issue.",
    ) + changchun.REGION.notes[:4] + changchun.BAO_NOTES,
)
