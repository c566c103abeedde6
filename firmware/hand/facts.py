"""What the table learned by asking, and what it pays beyond the wins (issue 16).

The controller sees takes, keys and read zones, not discards or claims; where a region's money
depends on what it cannot see, the table asks (docs/table-flow.md): who gave an exposed kong's tile,
whether a first round was 跟庄, an opening small win laid on the read zone, every seat's hand at the
end.  `HandFacts` keeps the answers and the payments they make, as plain data inside `HandState`
(it round-trips through JSON with it), so a restarted controller neither asks nor pays twice.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from rulesets.definition import Ruleset
from rulesets.hand import Meld, MeldKind
from rulesets.settlement import Item, add_payments
from rulesets.tiles import Tile
from rulesets.walls import Slot

from .tracker import Take, slot_from, slot_json

KONG_KINDS = ("ming", "an", "zhuanwan")        # 明杠 of a discard, 暗杠, 转弯杠 (added to one's own 碰)


@dataclass(frozen=True)
class Extra:
    """A payment beyond the wins and the draw: `kind` says which path made it."""

    kind: str                                   # "opening", "follow_dealer", "round"
    seat: int | None
    payments: tuple[int, int, int, int]
    items: tuple[Item, ...] = ()

    def to_json(self) -> list:
        return [self.kind, self.seat, list(self.payments), [[i.key, i.zh, i.pinyin, i.value, i.unit] for i in self.items]]

    @staticmethod
    def from_json(data: list) -> "Extra":
        kind, seat, payments, items = data
        return Extra(kind, seat, tuple(payments), tuple(Item(*i) for i in items))  # type: ignore[arg-type]


@dataclass
class HandFacts:
    repeats: int = 0                                        # the dealer's 连庄 count (the session's)
    kong_events: list[list] = field(default_factory=list)   # [seat, kind or None until answered, giver or None]
    asks: list[list] = field(default_factory=list)          # questions due: ["kong_from", seat, event index],
    #                                                         ["follow_dealer", seat, round]
    follow_rounds: int = 0                                  # first rounds answered 跟庄
    follow_asked: int = 0                                   # rounds asked about
    openings: list[int] = field(default_factory=list)       # seats whose opening declaration was judged
    extras: list[Extra] = field(default_factory=list)
    round_done: bool = False                                # the settlement round ran
    round_ready: list[int] | None = None                    # the ready sides it judged (None: not judged)
    shown_take: Slot | None = None                          # 云南: a shown tail tile taken; a 杠上开花 must follow
    specials: list[list] = field(default_factory=list)      # 长春 opening special kongs: [seat, name, tiles, kongs]
    special_done: list[int] = field(default_factory=list)   # seats that have shown all they will
    liang: list[list] = field(default_factory=list)         # 沈阳 亮牌 shown in play: [seat, set name, tiles]
    exchange: str | None = None                             # 宜昌 换三张: the direction rolled (None: not yet)
    exchange_dice: list[int] = field(default_factory=list)  # …and the dice that gave it (none: a house direction)

    # -- 长春 opening special kongs ------------------------------------------------------------

    def special_melds(self, seat: int) -> tuple[Meld, ...]:
        """The sets this seat showed that are melds of their own: 长春's special kongs, 沈阳's 亮牌."""
        shown = [tiles for side, _, tiles, _ in self.specials if side == seat]
        shown += [tiles for side, _, tiles in self.liang if side == seat]
        return tuple(Meld(MeldKind.SPECIAL, tuple(Tile.parse(t) for t in tiles)) for tiles in shown)

    def special_kongs(self, seat: int) -> int:
        """How many 明杠 the seat's special kongs count (「可以亮出算一个明杠…每补一张…多算一个明杠」)."""
        return sum(kongs for side, _, _, kongs in self.specials if side == seat)

    # -- kongs -------------------------------------------------------------------------------

    def kong_made(self, ruleset: Ruleset, seat: int, concealed: bool) -> None:
        """A kong's replacement was taken: an 暗杠 is known; an exposed kong's giver is asked where it matters."""
        if not ruleset.has_phase("kong_giver"):
            return
        if concealed:
            self.kong_events.append([seat, "an", None])
        else:
            self.kong_events.append([seat, None, None])
            self.asks.append(["kong_from", seat, len(self.kong_events) - 1])

    def answered_kongs(self) -> tuple[tuple[int, str, int | None], ...]:
        return tuple((seat, kind, giver) for seat, kind, giver in self.kong_events if kind is not None)

    # -- 跟庄 ------------------------------------------------------------------------------------

    def follow_due(self, take: Take, draws_after_deal: int, answerer: int) -> None:
        """跟庄 (a region with `follow_dealer`) is asked when the fourth head draw of a round is taken (the
        round's four discards are down), as long as every round before followed."""
        if take.reason != "draw" or draws_after_deal % 4:
            return
        round_number = draws_after_deal // 4
        if round_number == self.follow_asked + 1 and self.follow_rounds == self.follow_asked:
            self.follow_asked = round_number
            self.asks.append(["follow_dealer", answerer, round_number])

    # -- money -----------------------------------------------------------------------------

    def payments(self) -> tuple[int, int, int, int]:
        return add_payments((0, 0, 0, 0), *(e.payments for e in self.extras))

    def win_extra(self, ruleset: Ruleset, first_win: bool) -> tuple[tuple[str, object], ...]:
        """The facts a win's scorer reads from what the table asked: the kong events (paid with the
        hand's first win only, so one 一炮多响 or a later win never pays them again); whether a 亮牌 is on
        the table (沈阳: 「亮出后，若有人碰字牌…则该碰算作2番」)."""
        facts: tuple[tuple[str, object], ...] = ()
        if ruleset.has_phase("kong_giver"):
            facts += (("kong_events", self.answered_kongs() if first_win else ()),)
        if ruleset.has_phase("liang_pai"):
            facts += (("liang_shown", bool(self.liang)),)
        return facts

    # -- as data ---------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        return {"repeats": self.repeats, "kong_events": [list(e) for e in self.kong_events],
                "asks": [list(a) for a in self.asks], "follow_rounds": self.follow_rounds,
                "follow_asked": self.follow_asked, "openings": list(self.openings),
                "extras": [e.to_json() for e in self.extras], "round_done": self.round_done,
                "round_ready": self.round_ready,
                "shown_take": slot_json(self.shown_take) if self.shown_take is not None else None,
                "specials": [list(s) for s in self.specials], "special_done": list(self.special_done),
                "liang": [list(s) for s in self.liang], "exchange": self.exchange,
                "exchange_dice": list(self.exchange_dice)}

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> "HandFacts":
        return HandFacts(data["repeats"], [list(e) for e in data["kong_events"]], [list(a) for a in data["asks"]],
                         data["follow_rounds"], data["follow_asked"], list(data["openings"]),
                         [Extra.from_json(e) for e in data["extras"]], data["round_done"],
                         None if data["round_ready"] is None else list(data["round_ready"]),
                         slot_from(data["shown_take"]) if data["shown_take"] is not None else None,
                         [list(s) for s in data.get("specials", [])], list(data.get("special_done", [])),
                         [list(s) for s in data.get("liang", [])], data.get("exchange"),
                         list(data.get("exchange_dice", [])))


__all__ = ["Extra", "HandFacts", "KONG_KINDS"]
