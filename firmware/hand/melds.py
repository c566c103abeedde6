"""The shown melds a winner lays in the read zone, split into kongs, pungs and chows.

The zone reports a heap of tiles; the seat's 杠 presses say how many of them are kongs (and how
many of those concealed).  The split is unique enough for scoring: the first tile always leads.
螺山's 花碰 (a 财神 standing in a pung of a dragon or the seat's wind) is tried only where the tiles
split no other way.
"""

from __future__ import annotations

from rulesets.hand import Meld, MeldKind, make_meld, stand_in_pung
from rulesets.tiles import Tile

NO_STAND_INS: tuple[frozenset[Tile], frozenset[Tile]] = (frozenset(), frozenset())


def melds_from_tiles(tiles: list[Tile], kongs: int, concealed_kongs: int = 0,
                     specials: tuple[Meld, ...] = (),
                     hua_peng: tuple[frozenset[Tile], frozenset[Tile]] = NO_STAND_INS) -> tuple[Meld, ...]:
    """Split the tiles laid as shown melds into the seat's declared special kongs (长春, known by
    their tiles), exactly `kongs` kongs (the seat's 杠 presses; the last `concealed_kongs` of them
    concealed) and pungs and chows; `hua_peng` (rulesets.table_rules.hua_peng_kinds): the tiles
    that may stand in a pung and the kinds they may complete, tried where nothing else splits.
    Raises ValueError if they do not split that way."""
    tiles = list(tiles)
    for special in specials:
        for tile in special.tiles:
            if tile not in tiles:
                raise ValueError(f"the special kong {special} is not among the shown tiles")
            tiles.remove(tile)
    return specials + _ordinary_melds(tiles, kongs, concealed_kongs, hua_peng)


def _ordinary_melds(tiles: list[Tile], kongs: int, concealed_kongs: int,
                    hua_peng: tuple[frozenset[Tile], frozenset[Tile]]) -> tuple[Meld, ...]:
    split = _split(sorted(tiles), kongs, NO_STAND_INS)
    if split is None and hua_peng[0]:
        split = _split(sorted(tiles), kongs, hua_peng)
    if split is None:
        raise ValueError(f"the shown tiles {' '.join(t.zh for t in tiles)} do not split into melds with {kongs} kong(s)")
    melds = []
    kong_index = 0
    for group in split:
        if len(group) == 4:
            kong_index += 1
            kind = MeldKind.CONCEALED_KONG if kong_index > kongs - concealed_kongs else MeldKind.KONG
            melds.append(Meld(kind, group))
        elif len(set(group)) == 2:
            melds.append(stand_in_pung(group))
        else:
            melds.append(make_meld(group, MeldKind.PUNG if group[0] == group[1] else MeldKind.CHOW))
    return tuple(melds)


def _split(tiles: list[Tile], kongs: int,
           hua_peng: tuple[frozenset[Tile], frozenset[Tile]]) -> list[tuple[Tile, ...]] | None:
    """A partition of sorted tiles into `kongs` kongs and pungs/chows, and 花碰 as `hua_peng`
    allows (the first tile leads)."""
    if not tiles:
        return [] if kongs == 0 else None
    first = tiles[0]
    options: list[tuple[Tile, ...]] = []
    if kongs and tiles.count(first) >= 4:
        options.append((first,) * 4)
    if tiles.count(first) >= 3:
        options.append((first,) * 3)
    if first.is_suited and first.rank <= 7 and Tile(first + 1) in tiles and Tile(first + 2) in tiles:
        options.append((first, Tile(first + 1), Tile(first + 2)))
    options += _stand_in_pungs(tiles, first, hua_peng)
    for group in options:
        rest = list(tiles)
        for tile in group:
            rest.remove(tile)
        found = _split(rest, kongs - (len(group) == 4), hua_peng)
        if found is not None:
            return [group] + found
    return None


def _stand_in_pungs(tiles: list[Tile], first: Tile,
                    hua_peng: tuple[frozenset[Tile], frozenset[Tile]]) -> list[tuple[Tile, ...]]:
    """The 花碰 the leading tile can be in: as the stand-in for a pair of an allowed kind, or as that
    pair with a stand-in."""
    stand_ins, kinds = hua_peng
    out = []
    if first in stand_ins:
        out += [(kind, kind, first) for kind in sorted(kinds) if kind != first and tiles.count(kind) >= 2]
    if first in kinds and tiles.count(first) >= 2:
        out += [(first, first, s) for s in sorted(stand_ins) if s != first and s in tiles]
    return out


def kongs_from_entry(tiles: list[Tile], declared: list[bool], winning_count: int) -> tuple[tuple[Meld, ...], list[Tile]]:
    """A hand entered on the seat panel lists each kong's four tiles, one more than a winning hand
    holds per kong: take those kongs out.  Only when it is unambiguous: as many kinds held four times
    as tiles too many, or else as many kinds entered four in a row (the melds are entered first: a
    kind held four times across a chow and a pung is not entered so); otherwise the hand is judged as
    entered.  A kong is concealed only if every kong the seat declared was (the entry does not say
    which was which)."""
    extra = len(tiles) - winning_count
    fours = sorted(kind for kind in set(tiles) if tiles.count(kind) >= 4)
    if extra > 0 and len(fours) > extra:
        fours = [kind for kind in fours if _entered_in_a_row(tiles, kind)]
    if extra <= 0 or len(fours) != extra:
        return (), list(tiles)
    kind_of_kong = MeldKind.CONCEALED_KONG if declared and all(declared) else MeldKind.KONG
    rest = list(tiles)
    for kind in fours:
        for _ in range(4):
            rest.remove(kind)
    return tuple(Meld(kind_of_kong, (kind,) * 4) for kind in fours), rest


def _entered_in_a_row(tiles: list[Tile], kind: Tile) -> bool:
    return any(tiles[i:i + 4] == [kind] * 4 for i in range(len(tiles) - 3))
