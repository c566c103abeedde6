"""云南 尾牌: a shown tail tile may be taken only by a 杠上开花 (RULES.md §29.3).

「必须杠上开花才可以拿翻开的尾牌，不能杠上开花的从最后面未翻开的取牌」.  The tracker counts an ordinary
replacement from the last tile neither shown nor lying under a shown tile, and accepts the take of a
shown tile as a replacement (in order when a 杠 was pressed; with nothing owed it is out of order, and
put back it is undone, owing nothing); whether a 杠上开花 follows is known only after: the
next key the table sees from the taker is 胡 and the win is good.  Anything else — another take
first, a 诈胡, the end of the hand — is a warning on the display and in the recorder.

At the end of the wall (house option `weipai_wall_end`, RULES.md §29.3 ambiguity (c)): by default a
shown tile taken for a kong when no face-down tail tile is left is the kong's replacement, win or not
(the tracker marks such a take `at_wall_end`); with `kept` it still needs its 杠上开花.
"""

from __future__ import annotations

from rulesets.walls import End

from .state import HandState
from .tracker import Take

WARNING = "a shown tail tile (尾牌) was taken without a 杠上开花 win following it"


def after_takes(hand: HandState, takes: list[Take]) -> list[str]:
    """Note a shown tail tile taken; a take after one that no win followed is a warning."""
    warnings = []
    for take in takes:
        if hand.facts.shown_take is not None:
            warnings.append(WARNING)
            hand.facts.shown_take = None
        if take.end is End.TAIL and take.slot in hand.tracker.shown and not replaces_at_wall_end(hand, take):
            hand.facts.shown_take = take.slot
    return warnings


def replaces_at_wall_end(hand: HandState, take: Take) -> bool:
    """The take is a kong's replacement at the end of the wall, which the table's option lets a shown tile be."""
    return take.at_wall_end and hand.ruleset.shown_tile_replaces_at_wall_end


def after_win_check(hand: HandState, wins_before: int) -> list[str]:
    """The taker pressed 胡: a good self-drawn win settles the shown take; a 诈胡 does not."""
    if hand.facts.shown_take is None:
        return []
    hand.facts.shown_take = None
    won = len(hand.wins) > wins_before and hand.wins[wins_before].discarder is None
    return [] if won else [WARNING]


def at_end(hand: HandState) -> list[str]:
    if hand.facts.shown_take is None:
        return []
    hand.facts.shown_take = None
    return [WARNING]


__all__ = ["WARNING", "after_takes", "after_win_check", "at_end", "replaces_at_wall_end"]
