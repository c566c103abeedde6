"""How each requirement and each scorer sees one group of a reading, so that readings it cannot
tell apart are judged and priced once (rulesets/winning/readings.py says why and how).

A view is ``view(kind, faces, places, role)``: the group's kind, the faces it stands for, a
code per place (0 natural, 1 a wild standing for another kind, 2 a wild standing for its own
face) and the winning tile's role if the group holds it (else None).  The contract: what the
requirement or scorer decides about a reading depends only on the multiset of the views of
its concealed groups (and on what is outside the reading: the declared melds, the physical
tiles, the context); a view marked `read_as_set` promises more: the set of the views decides.
A scorer in HAND_SCORER_VIEWS has a finer view for one hand, given its tiles.  Each view below
names the function it describes; a requirement key or
a scorer not listed is seen exactly (every split judged), so a new rule is never collapsed
wrongly, only slowly.  tests/rulesets/test_reading_classes.py compares, for every region, the
collapsed verdict and settlement with the exhaustive ones.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping
from typing import Any

from ..hand import Hand, MeldKind, WinContext
from ..tiles import Tile
from ..winning import GroupKind, WinRole
from ..winning.readings import ANY_READING, WILD_OTHER, WILD_OWN, GroupView, exact_view, read_as_set

Faces = tuple[int, ...]
ViewFactory = Callable[[WinContext], "GroupView | object | None"]
"""A view for a context; None: the rule reads nothing of the groups; EVERY_READING: this
context cannot be collapsed."""

EVERY_READING = object()

PAIR, PUNG, CHOW = GroupKind.PAIR, GroupKind.PUNG, GroupKind.CHOW
SINGLE_WAITS = (WinRole.PAIR, WinRole.EDGE, WinRole.CLOSED)


# -- what a group holds ----------------------------------------------------------------------

def suit(faces: Faces) -> int:
    """0-2 for 万 筒 条, 3 for honours (a group never mixes them)."""
    return 3 if faces[0] >= 27 else faces[0] // 9


def has_terminal(faces: Faces) -> bool:
    return any(f < 27 and f % 9 in (0, 8) for f in faces)


def has_honour(faces: Faces) -> bool:
    return faces[-1] >= 27


def has_dragon(faces: Faces) -> bool:
    return faces[-1] >= 31


def all_258(faces: Faces) -> bool:
    return all(f < 27 and f % 9 in (1, 4, 7) for f in faces)


def big(face: int) -> bool:
    """A terminal or an honour (螺山's 大)."""
    return face >= 27 or face % 9 in (0, 8)


# -- requirements, by key ---------------------------------------------------------------------

def _nothing(context: WinContext) -> None:
    return None


def _wilds_as_wild_of_one_kind(context: WinContext) -> GroupView | object:
    """Wilds standing for another kind, when every wild is of one kind (a 宝 region has no other
    wild): then they are all that kind's tiles.  With several kinds, which kind stands where is
    decided after the walk, so every reading is judged."""
    if len(context.wilds) > 1:
        return EVERY_READING
    return lambda kind, faces, places, role: places.count(WILD_OTHER)


def _suit_view(context: WinContext) -> GroupView:
    return lambda kind, faces, places, role: suit(faces)


REQUIREMENT_VIEWS: dict[str, ViewFactory] = {
    # suits present: all_three_suits, lacks_a_suit, misses_a_suit, not_one_suit_with_honours
    "sanse": _suit_view, "sanmen": _suit_view, "que_yi_men": _suit_view, "que_men": _suit_view,
    "da_que": _suit_view, "no_one_suit_honours": _suit_view,
    # has_terminal_or_honour (长春) and has_terminal (沈阳)
    "yaojiu": lambda c: lambda kind, faces, places, role: (has_terminal(faces), has_honour(faces)),
    # has_pung_or_kong or holds_dragon (长春 version A)
    "yicha": lambda c: lambda kind, faces, places, role: (kind is PUNG, has_dragon(faces)),
    # has_pung_or_kong or dragon_pair (长春 version B, 吉林)
    "yike": lambda c: lambda kind, faces, places, role: (kind is PUNG, kind is PAIR and has_dragon(faces)),
    "ke": lambda c: lambda kind, faces, places, role: kind is PUNG,
    # has_terminal or has_dragon_pung (内蒙)
    "yaojiu_jianke": lambda c: lambda kind, faces, places, role: (has_terminal(faces), kind is PUNG and has_dragon(faces)),
    # all_pungs (长春 飘胡 excuses 手把一); 沈阳's reads the concealed count only
    "no_shoubayi": lambda c: lambda kind, faces, places, role: kind is CHOW,
    # eight_of_one_suit: tiles per suit
    "bazhi": lambda c: lambda kind, faces, places, role: (suit(faces), len(faces)),
    # all_pungs, or a full or half flush (上海)
    "at_least_pengpeng": lambda c: lambda kind, faces, places, role: (kind is CHOW, suit(faces)),
    # no_dragon_in_hand (南京): the standing tiles
    "dragons_are_flowers": lambda c: lambda kind, faces, places, role: has_dragon(faces),
    # declared melds, the physical hand or the context only
    "menqing": _nothing, "no_chi": _nothing, "kaimen": _nothing, "kaikou": _nothing, "ting": _nothing,
    "zimo": _nothing, "baoting": _nothing, "baoting_zimo": _nothing, "liang_first": _nothing, "louhu": _nothing,
    "no_hongzhong": _nothing, "no_gang_pai": _nothing, "no_qi_xian_hu_hou": _nothing,
    # 长春 摸宝 (bao.stand_ins_once): 宝 tiles standing for another kind
    "bao_stands_in_once": lambda c: _wilds_as_wild_of_one_kind(c),
}
"""Requirement key → view factory."""

SCORER_REQUIREMENTS = {"pihu_one_laizi": "wuhan", "pihu_258": "wuhan",
                       "pihe_zimo": "guangshui", "fan": "hainan", "pinghu_zimo": "yunnan"}
"""Requirement keys whose checks read a scorer's features use the scorer's view (below)."""


# -- scorers, by name -------------------------------------------------------------------------

def _changchun(context: WinContext) -> GroupView:
    """multipliers: 门清 (declared), 夹胡 (closed_wait), 飘胡 (all pungs), 自摸, 宝, 庄 (context)."""
    return lambda kind, faces, places, role: (kind is CHOW, role in SINGLE_WAITS)


def _hangzhou(context: WinContext) -> GroupView:
    """爆头 (the winning pair holds a wild); 无财神 (physical); 七对 (a shape of its own)."""
    return lambda kind, faces, places, role: role is WinRole.PAIR and any(places)


def _wenzhou(context: WinContext) -> GroupView:
    """硬和: no wild standing for another kind (wilds_as_wild)."""
    return lambda kind, faces, places, role: places.count(WILD_OTHER)


def _guangdong(context: WinContext) -> GroupView:
    """杂色/清一色 (suits and honours), 碰碰胡 (no chow), 大三元/大四喜 (honour pungs), 十三幺."""
    return lambda kind, faces, places, role: (suit(faces), kind is CHOW, faces[0] if kind is PUNG and faces[0] >= 27 else None)


def _hebei(context: WinContext, dragon_suits: tuple[int, ...] = (0, 1, 2), own_suits: tuple[int, ...] = (0, 1, 2),
           declared: frozenset[int] | None = None) -> GroupView:
    """混儿吊 (the winning tile completed the pair, which holds a 混儿), 捉伍儿 (the winning 5 in
    the middle of a chow; of 万, for the house option), 龙 (chows starting at 1, 4 and 7 of a suit
    in `dragon_suits`) and 本混儿龙 (with or without a 混儿 standing for another kind or for
    itself, in `own_suits`: where a 混儿 kind is).  Nothing else of a group counts: a group
    holding the winning tile in any other way, or a chow that cannot be part of a 龙, is seen as
    any other group.  Read as a set; with the starts of the hand's `declared` chows known, a
    reading comes down to its winning tile's items and, per suit, 龙 or 本混儿龙 or neither."""
    starts = frozenset(base + r for base in (9 * s for s in dragon_suits) for r in (0, 3, 6))
    own = frozenset(9 * s + r for s in own_suits for r in (0, 3, 6)) & starts

    def view(kind: GroupKind, faces: Faces, places: tuple[int, ...], role: WinRole | None) -> Hashable:
        five = role is WinRole.CLOSED and faces[1] % 9 == 4
        win = (role is WinRole.PAIR and any(places), five, five and faces[1] < 9)
        if kind is CHOW and faces[0] in starts:
            if faces[0] in own:
                return win, faces[0], WILD_OTHER not in places, WILD_OWN in places
            return win, faces[0]
        return win
    reduce = None if declared is None else _hebei_items(dragon_suits, declared)
    return read_as_set(view, reduce)  # which items a reading has, never how many groups make them


def _hebei_items(dragon_suits: tuple[int, ...], declared: frozenset[int]) -> Callable[[frozenset], Hashable]:
    """What `hebei.fan_items` decides on, from the set of a reading's views: the winning tile's
    bits and, per suit, 龙 / 本混儿龙 (a declared chow plays only its own faces, as in
    `hebei.long_kind`)."""
    def reduce(views: frozenset) -> Hashable:
        win = (False, False, False)
        parts: dict[int, set[tuple[bool, bool]]] = {start: {(True, False)} for start in declared}
        for value in views:
            bits, chow = (value, ()) if isinstance(value[0], bool) else (value[0], value[1:])
            if any(bits):
                win = bits
            if chow:
                parts.setdefault(chow[0], set()).add(chow[1:] if len(chow) == 3 else (False, False))
        dragons = []
        for suit in dragon_suits:
            found = [parts.get(9 * suit + r, set()) for r in (0, 3, 6)]
            if not all(found):
                dragons.append(None)
                continue
            own_only = [{p for p in f if p[0]} for f in found]
            dragons.append(all(own_only) and any(p[1] for f in own_only for p in f))
        return win, tuple(dragons)
    return reduce


def _hebei_for_hand(context: WinContext, hand: Hand, stand_ins: Mapping[Tile, Tile]) -> GroupView:
    """`_hebei` with only the suits in which this hand can make a 龙: each of 1-3, 4-6 and 7-9
    holds one of its natural tiles (every chow of a reading holds one: groups of 混儿 only are
    read as pungs and pairs) or starts one of its declared chows; and only the suits of its 混儿
    kinds for 本混儿龙 (a 混儿 plays its own face only in its own suit)."""
    wilds = frozenset(context.wilds)
    declared = frozenset(int(min(m.tiles)) for m in hand.melds if m.kind is MeldKind.CHOW)
    ranges = {face - face % 3 for face in (int(stand_ins.get(t, t)) for t in hand.concealed if t not in wilds) if face < 27}
    ranges |= declared
    dragons = tuple(s for s in range(3) if all(9 * s + r in ranges for r in (0, 3, 6)))
    return _hebei(context, dragons, tuple({int(w) // 9 for w in wilds if int(w) < 27}), declared)


def _luoshan(context: WinContext) -> GroupView:
    """和数: each pung (its items name the tile) and whether the winning tile completed it; pairs
    of 座风 or 箭; the winning tile's role (吊头 by 大/小); 台 from the suits and honours and 对对胡;
    平和 (chows only, won 两面)."""
    seat = int(context.seat_wind())

    def view(kind: GroupKind, faces: Faces, places: tuple[int, ...], role: WinRole | None) -> Hashable:
        if kind is CHOW:
            return (2, suit(faces), role)
        face = faces[0]
        if kind is PUNG:
            return (1, face, role)
        return (0, suit(faces), big(face), face >= 31 or face == seat, role)
    return view


def _luoshan_value(context: WinContext) -> GroupView:
    """The 和数 alone (the 100/200 threshold): pungs by 大/小 and 座风 or 箭, not by tile."""
    seat = int(context.seat_wind())

    def view(kind: GroupKind, faces: Faces, places: tuple[int, ...], role: WinRole | None) -> Hashable:
        if kind is CHOW:
            return (2, suit(faces), role)
        face = faces[0]
        return (kind is PUNG, suit(faces), big(face), face >= 31 or face == seat, role)
    return view


def _wuhan(context: WinContext) -> GroupView:
    """大胡: 碰碰胡 (no chow), 将一色 (all 2/5/8), 清一色 and 风一色 (suits), 全求人 (declared);
    硬胡 and 屁胡's one 赖子 (wilds_as_wild); 屁胡's 2/5/8 pair."""
    return lambda kind, faces, places, role: (kind, suit(faces), all_258(faces), places.count(WILD_OTHER))


def _changsha(context: WinContext) -> GroupView:
    """碰碰和 (no chow), 将将和 (all 2/5/8), 清一色 (suits); 七对 is a shape of its own."""
    return lambda kind, faces, places, role: (kind is CHOW, suit(faces), all_258(faces))


def _guangshui(context: WinContext) -> GroupView:
    """碰碰和, 清一色, 大/小三元 (dragon pungs and pair), 卡五星 (the winning 5 between 4 and 6)."""
    return lambda kind, faces, places, role: (kind, suit(faces), has_dragon(faces),
                                              role is WinRole.CLOSED and faces[1] % 9 == 4)


def _hainan(context: WinContext) -> GroupView:
    """2/5/8 pair, pungs of dragons and of the prevailing and seat winds, 碰碰和."""
    return lambda kind, faces, places, role: (kind, all_258(faces) if kind is PAIR else None,
                                              faces[0] if kind is PUNG and faces[0] >= 27 else None)


def _yunnan(context: WinContext) -> GroupView:
    """大牌型 (碰碰胡 or a flush) and 平和 (chows only)."""
    return lambda kind, faces, places, role: (kind, suit(faces))


def _shenyang(context: WinContext) -> GroupView:
    """碰碰胡, 边/夹 (the winning role), and a declared pung whose kind is in a chow (exact chows)."""
    return lambda kind, faces, places, role: (kind, faces if kind is CHOW else None, role)


def _sichuan(context: WinContext) -> GroupView:
    """清一色, 七对, and 根: four of a kind among the standing tiles (every face exactly)."""
    return lambda kind, faces, places, role: (kind, faces)


SCORER_VIEWS: dict[str, ViewFactory] = {
    "flat": _nothing, "dabao": _nothing, "nanchang": _nothing, "zuanpai": _nothing, "shanghai": _nothing,
    "sixteen_tile": _nothing,
    "changchun": _changchun, "hangzhou": _hangzhou, "wenzhou": _wenzhou, "guangdong": _guangdong,
    "guangdong_jihu": _guangdong, "hebei": _hebei, "luoshan": _luoshan, "wuhan": _wuhan, "changsha": _changsha,
    "guangshui": _guangshui, "hainan": _hainan, "yunnan": _yunnan, "shenyang": _shenyang, "sichuan": _sichuan,
    "guizhou": _sichuan,
}
"""Scorer name → view factory (what its price reads of a reading)."""


HAND_SCORER_VIEWS: dict[str, Callable[[WinContext, Hand, Mapping[Tile, Tile]], GroupView]] = {"hebei": _hebei_for_hand}
"""Scorer name → a finer view for one hand (its tiles and stand-ins), used when the hand is known."""


REQUIREMENT_VIEWS["threshold"] = _luoshan_value  # meets_threshold (螺山): the 和数, not the items naming each pung's tile

SCORER_KEY_VIEWS: dict[str, ViewFactory] = {"luoshan": _luoshan_value}
"""Scorer name → the view of what its price's *key* reads (the amount a player is paid for the
best reading; the items may read more).  Readings alike under it have equal keys, so a settle
prices one of them to learn the key and only the readings of the best key in full.  A scorer
that can work the key out from those views alone (`key_of_views(views, hand, context)`) lets the
judge rank the classes before building any (winrules.judge's `rank`)."""


def price_key_view(ruleset: Any, context: WinContext, win: Any = None) -> GroupView | None:
    """The requirements' view together with the scorer's key view (SCORER_KEY_VIEWS), or None
    when the scorer names none or the requirements are not all known."""
    factory = SCORER_KEY_VIEWS.get(getattr(ruleset.scoring, "name", ""))
    legal = reading_view(ruleset, context, scoring=False, win=win)
    if factory is None or legal is None:
        return None
    key = factory(context)
    if legal is ANY_READING:
        return lambda kind, faces, places, role: (None, key(kind, faces, places, role))
    return lambda kind, faces, places, role: (legal(kind, faces, places, role), key(kind, faces, places, role))


def key_views(coarse: Iterable[tuple[Hashable, Hashable]]) -> list[Hashable]:
    """The key views of a class's groups, from their `price_key_view` values."""
    return [value[1] for value in coarse]


def reading_view(ruleset: Any, context: WinContext, scoring: bool = True, win: Any = None,
                 hand: Hand | None = None, stand_ins: Mapping[Tile, Tile] | None = None) -> GroupView | None:
    """How this ruleset's requirements (or `win`'s, when the hand's rules differ: the 长春 宝 adds
    one) and scorer (unless `scoring` is False: legality only) together see a group: a
    `GroupView`, `ANY_READING` when nothing reads the groups, or None (unknown rules: judge every
    split).  With `hand` (and its `stand_ins`), a scorer in HAND_SCORER_VIEWS sees it for that hand."""
    factories: list[ViewFactory] = []
    for requirement in (win or ruleset.win).requirements:
        if requirement.key in SCORER_REQUIREMENTS:
            factory = SCORER_VIEWS.get(SCORER_REQUIREMENTS[requirement.key])
        else:
            factory = REQUIREMENT_VIEWS.get(requirement.key)
        if factory is None:
            return None
        factories.append(factory)
    if scoring:
        name = getattr(ruleset.scoring, "name", "")
        scorer = SCORER_VIEWS.get(name)
        if scorer is None:
            return None
        if hand is not None and name in HAND_SCORER_VIEWS:
            for_hand = HAND_SCORER_VIEWS[name]
            scorer = lambda c: for_hand(c, hand, stand_ins or {})  # noqa: E731
        factories.append(scorer)
        if name in SCORER_KEY_VIEWS:  # so that the full view determines the key's (price_key_view)
            factories.append(SCORER_KEY_VIEWS[name])
    unique = list(dict.fromkeys(factories))  # 武汉's two 屁胡 rules read the scorer's view once
    views = [view for view in (factory(context) for factory in unique) if view is not None]
    if EVERY_READING in views:
        return None
    if not views:
        return ANY_READING
    if len(views) == 1:
        return views[0]
    parts = tuple(views)        # a tuple: the combined view is then compared by its parts (walk_memo.view_key)
    return lambda kind, faces, places, role: tuple(v(kind, faces, places, role) for v in parts)


__all__ = ["REQUIREMENT_VIEWS", "SCORER_VIEWS", "HAND_SCORER_VIEWS", "SCORER_KEY_VIEWS", "reading_view", "price_key_view", "key_views", "exact_view"]
