"""The session at the table as plain data: which rules, who deals, the scores, how many hands.

A `SessionState` changes only between hands, by `after(outcome)`: the publish step applies a
settled hand to it (firmware.session).  It round-trips through JSON, so it can be journaled and
restored after a restart, and it holds nothing secret, so it can be published as it is.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Mapping

from rulesets.definition import Ruleset
from rulesets.regions import get_region
from rulesets.rotation import HandOutcome as RotationInput

from .hand.wins import HandOutcome


@dataclass(frozen=True)
class SessionState:
    session_id: int
    ruleset_id: str
    options: tuple[tuple[str, str], ...]
    dealer: int
    dealer_repeats: int = 0
    totals: tuple[int, int, int, int] = (0, 0, 0, 0)
    hand_number: int = 0            # the last hand started; hand numbers go on across sessions of a run

    @staticmethod
    def new(session_id: int, ruleset: Ruleset, hand_number: int = 0) -> "SessionState":
        return SessionState(session_id, ruleset.id, tuple(ruleset.options), ruleset.players[0],
                            hand_number=hand_number)

    def ruleset(self) -> Ruleset:
        return get_region(self.ruleset_id).resolve(dict(self.options))

    def after(self, outcome: HandOutcome, ruleset: Ruleset) -> "SessionState":
        """The session once `outcome` is settled: scores, the next dealer, the 连庄 count."""
        next_dealer = ruleset.rotation.next_dealer(outcome.dealer, ruleset.players,
                                                   RotationInput(outcome.winners, outcome.discarder, outcome.first_winners))
        totals = tuple(t + p for t, p in zip(self.totals, outcome.payments))
        repeats = self.dealer_repeats + 1 if next_dealer == outcome.dealer else 0
        return replace(self, dealer=next_dealer, dealer_repeats=repeats, totals=totals,  # type: ignore[arg-type]
                       hand_number=max(self.hand_number, outcome.number))

    def to_json(self) -> dict[str, Any]:
        return {"session": self.session_id, "ruleset": self.ruleset_id, "options": dict(self.options),
                "dealer": self.dealer, "dealer_repeats": self.dealer_repeats, "totals": list(self.totals),
                "hand_number": self.hand_number}

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> "SessionState":
        return SessionState(data["session"], data["ruleset"], tuple(sorted(data["options"].items())), data["dealer"],
                            data["dealer_repeats"], tuple(data["totals"]), data["hand_number"])  # type: ignore[arg-type]


__all__ = ["SessionState"]
