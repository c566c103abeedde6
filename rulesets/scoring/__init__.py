"""Scoring: what a won hand is worth and who pays, one scorer per region that gives values.

A scorer is a small object with `settle(ruleset, hand, verdict, context) -> Settlement` (and
`settle_draw` for a drawn hand, for regions that pay kongs at 荒庄).  Region cards name their scorer
with its provenance; regions whose text gives no values use `FlatScorer`, which is honest about it.
"""

from .base import DrawContext, FlatScorer, Scorer, discard_or_all_pay, false_win_settlement

__all__ = ["DrawContext", "FlatScorer", "Scorer", "discard_or_all_pay", "false_win_settlement"]
