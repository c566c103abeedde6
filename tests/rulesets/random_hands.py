"""Random hands for the judgement memo tests: most of them complete, so the judge reads them."""

from __future__ import annotations

import random

from rulesets.hand import Hand, Meld, MeldKind
from rulesets.tiles import Tile


def eleven_and_a_pung(rng: random.Random, kinds: list[Tile], wilds: list[Tile]) -> Hand:
    """Eleven concealed tiles (`wilds` among them) of pairs, pungs and runs, and a shown pung."""
    meld = Meld(MeldKind.PUNG, (rng.choice(kinds),) * 3)
    concealed = list(wilds)
    while len(concealed) < 11:
        start = rng.choice(kinds)
        group = [start] * rng.choice((2, 3)) if start.is_honour or rng.random() < 0.4 else \
            [t for t in kinds if t.suit == start.suit and 0 <= t.rank - start.rank <= 2][:3]
        for tile in group[:11 - len(concealed)]:
            if concealed.count(tile) + 3 * (tile == meld.tiles[0]) < 4:
                concealed.append(tile)
    return Hand(tuple(sorted(concealed)), (meld,))
