"""立四麻将 — RULES.md §24 [named as a variant; region not named].

The first 4-tile grab stands apart and may be discarded only when declaring 听; no 吃; 报听 to
win; no changes or kongs after 听; the 长春 留7墩 dead-wall rule word for word.
"""

from ..definition import Play, Region
from ..provenance import Derived, Given, default, text
from ..requirements import ready_declared
from ..reserve import KongReserve
from ..tilesets import SET_136
from ..walls import End
from ..winrules import Requirement, WinRules
from .changchun import RESERVE_READING
from .common import DEFAULT_DEAL, DEFAULT_BREAK, DEFAULT_PLAYERS, DEFAULT_ROTATION, NO_FLOWERS, NO_INDICATORS, phase

BAOTING = Requirement("baoting", "必须报听才可以和牌", text("§24", "6、必须报听才可以和牌。"), ready_declared)

REGION = Region(
    id="lisi",
    name="立四麻将",
    title="Lisi (standing four)",
    section="RULES.md §24",
    attribution="named 「立四麻将」 [000:135]; region not named",
    tiles=Given(SET_136, default("not stated; the 留7墩 rule it shares with 长春 (§1.4) is for 136 tiles, 17 stacks a side")),
    players=DEFAULT_PLAYERS,
    hand_size=Given(13, text("§24", "这四张牌中的任意3张可以和后面九张牌凑在一起 — 4 standing + 9 = 13")),
    stacks_per_side=Given((17, 17, 17, 17), default("136 tiles make 17 stacks a side (RESEARCH.md §1.1)")),
    dealing=Given(DEFAULT_DEAL.value, text("§24", "第一手抓的四张牌放在前面立着 — the deal must be in grabs of four")),
    dice=DEFAULT_BREAK.procedure,
    indicators=NO_INDICATORS,
    reserve=Derived(lambda o: KongReserve(o["reserve_reading"]),
                    text("§24", "游戏过程中，牌桌上的牌墙需保留最后7墩，如果有人杠，1杠留7墩，2杠留8墩......依次类推，杠完后留的单数海底牌不算一墩"),
                    ("reserve_reading",)),
    replacement=Given(End.TAIL, text("§24", "开杠后从牌城尾部补牌")),
    rotation=DEFAULT_ROTATION,
    play=Given(Play(chi=False, ready_declaration="required"),
               text("§24", "不可以吃牌，只能碰（杠）牌; 必须报听才可以和牌")),
    flowers=NO_FLOWERS,
    phases=Given((phase("standing_four", "the first grab's 4 tiles stand apart; none may be discarded before 听, "
                                         "and the 听 discard must be one of them; no change and no kong after 听"),),
                 text("§24", "第一手抓的四张牌放在前面立着，这四张牌只有听牌时，才可以打出一张，而且听牌时必须打出这四张中的一张才能听")),
    win=Given(WinRules(requirements=(BAOTING,)), text("§24", "6、必须报听才可以和牌。")),
    options=(RESERVE_READING, *DEFAULT_BREAK.options),
    notes=("立四麻将一旦听牌后，就不允许再换牌了，也不允许再杠了 (§24).",
           "A win needs 报听 (context.ready_declared); the other rules (no 吃, the standing four, no change or kong after 听) "
           "are rules of play, not of the winning hand.",
           "The text gives no values: a win is 1 point (FlatScorer)."),
)
