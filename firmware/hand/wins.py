"""A hand's wins and what it hands over: what a win (or a draw) pays, each win the table accepted,
and the finished hand's outcome for the publish step.  Plain data; a payout and a win round-trip
through JSON (the journal) exactly."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any, Mapping

from rulesets.hand import Hand, Meld, MeldKind
from rulesets.settlement import Item
from rulesets.tiles import Tile

from .tracker import compact_json, tile_from, tile_json


@dataclass(frozen=True)
class Payout:
    """What a win (or a draw) pays: per side, and the items it was made of."""

    payments: tuple[int, int, int, int]
    items: tuple[Item, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"payments": list(self.payments),
                "items": [[i.key, i.zh, i.pinyin, i.value, i.unit] for i in self.items]}

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> "Payout":
        return Payout(tuple(data["payments"]), tuple(Item(*item) for item in data["items"]))  # type: ignore[arg-type]


@dataclass(frozen=True)
class WinRecord:
    """A win the table accepted."""

    seat: int
    discarder: int | None
    hand: Hand
    win_tile: Tile | None
    payout: Payout
    takes: int = -1         # tiles taken from the wall when it was accepted (-1: not known)
    event: Mapping[str, Any] | None = None    # its `win` line's fields: `resumed` names it, should a kill cut the line

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "discarder": self.discarder, "win_tile": tile_json(self.win_tile),
                "takes": self.takes,
                "concealed": [str(t) for t in self.hand.concealed], "flowers": [str(t) for t in self.hand.flowers],
                "melds": [[m.kind.value, [str(t) for t in m.tiles]] for m in self.hand.melds],
                "payout": self.payout.to_json(), "event": None if self.event is None else dict(self.event)}

    @cached_property
    def journal_text(self) -> str:
        """`to_json()` as the journal writes it, encoded once: a win never changes, and the journal is
        written at nearly every take (血战 and 血流 hands go on for many takes after their first wins)."""
        return compact_json(self.to_json())

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> "WinRecord":
        melds = tuple(Meld(MeldKind(kind), tuple(map(Tile.parse, tiles))) for kind, tiles in data["melds"])
        hand = Hand(tuple(map(Tile.parse, data["concealed"])), melds, tuple(map(Tile.parse, data["flowers"])))
        return WinRecord(data["seat"], data["discarder"], hand, tile_from(data["win_tile"]),
                         Payout.from_json(data["payout"]), data.get("takes", -1), data.get("event"))


@dataclass(frozen=True)
class HandOutcome:
    """What a finished hand hands to the publish step (firmware.session)."""

    number: int
    dealer: int
    winners: tuple[int, ...]
    discarder: int | None          # of the first win on a discard (the rotation rules ask)
    payments: tuple[int, int, int, int]
    wall_hash: str
    end_fields: Mapping[str, Any]  # what hand_end reveals: the wall, the salt, every indicator
    first_winners: tuple[int, ...] | None = None   # the seats of the first win (several: 一炮多响)

    @property
    def result(self) -> str:
        return "win" if self.winners else "draw"


__all__ = ["HandOutcome", "Payout", "WinRecord"]
