"""The facts of a win as its `win` event records them (the WinContext less what the event and
hand_start already say), and the same read back by the audit, each malformed fact named."""

from __future__ import annotations

from typing import Any, Mapping

from rulesets.hand import WinContext, parse_meld
from rulesets.tiles import Tile

_TILE_FACTS = ("wilds", "flipped")
_BOOL_FACTS = ("ready_declared", "kong_replacement", "robbed_kong", "last_tile", "first_turn", "bao_hit")


def win_context_json(context: WinContext, private: tuple[Tile, ...] = ()) -> dict[str, Any]:
    """The WinContext without what the win event and hand_start already say, as plain JSON.

    The win is written while the hand is still open, so the `private` wild kinds (a 宝 only the ready
    seats saw) are left out of `wilds`: the audit finds them in hand_end.  The prevailing wind is
    written only when it is not the default 东 (the table does not track it, so it never is: a wind
    written at every win would read like a tile named before it was public)."""
    wind = {} if context.prevailing_wind == Tile.EAST else {"prevailing_wind": str(context.prevailing_wind)}
    return {
        **{name: getattr(context, name) for name in _BOOL_FACTS}, **wind,
        "consecutive_dealer": context.consecutive_dealer,
        "kongs_by_side": [list(k) for k in context.kongs_by_side],
        "wilds": [str(t) for t in context.wilds if t not in private], "flipped": [str(t) for t in context.flipped],
        "exposed_by_side": [[side, [str(m) for m in melds]] for side, melds in context.exposed_by_side],
        "ready_sides": list(context.ready_sides),
        "extra": {key: _plain(value) for key, value in context.extra},
    }


def win_context_from_json(data: Mapping[str, Any], *, winner: int, dealer: int, discarder: int | None,
                          win_tile: Tile | None, sides: tuple[int, ...]) -> WinContext:
    """The WinContext a win event recorded; raises ValueError naming the first fact that is malformed."""
    def want(name: str, ok: bool) -> None:
        if not ok:
            raise ValueError(f"context.{name} is malformed")

    for name in _BOOL_FACTS:
        want(name, isinstance(data.get(name), bool))
    want("consecutive_dealer", _is_int(data.get("consecutive_dealer")))
    want("prevailing_wind", isinstance(data.get("prevailing_wind", "1z"), str))
    for name in _TILE_FACTS:
        want(name, _all(data.get(name), lambda t: isinstance(t, str)))
    want("kongs_by_side", _all(data.get("kongs_by_side"), lambda k: _all(k, _is_int) and len(k) == 3))
    want("exposed_by_side", _all(data.get("exposed_by_side"), lambda e: isinstance(e, list) and len(e) == 2
                                 and _is_int(e[0]) and _all(e[1], lambda m: isinstance(m, str))))
    want("ready_sides", _all(data.get("ready_sides"), _is_int))
    want("extra", isinstance(data.get("extra"), dict))
    return WinContext(
        winner=winner, dealer=dealer, discarder=discarder, win_tile=win_tile, sides=sides,
        prevailing_wind=Tile.parse(data.get("prevailing_wind", "1z")),
        **{name: data[name] for name in _BOOL_FACTS}, consecutive_dealer=data["consecutive_dealer"],
        kongs_by_side=tuple(tuple(k) for k in data["kongs_by_side"]),
        wilds=tuple(map(Tile.parse, data["wilds"])), flipped=tuple(map(Tile.parse, data["flipped"])),
        exposed_by_side=tuple((side, tuple(parse_meld(m) for m in melds)) for side, melds in data["exposed_by_side"]),
        ready_sides=tuple(data["ready_sides"]),
        extra=tuple((key, _frozen(value)) for key, value in data["extra"].items()))


def _plain(value: Any) -> Any:
    """A region fact as JSON: numbers, text, flags and tuples of them (a Tile would not come back)."""
    if isinstance(value, (tuple, list)):
        return [_plain(v) for v in value]
    if value is None or (isinstance(value, (bool, int, float, str)) and not isinstance(value, Tile)):
        return value
    raise TypeError(f"a win fact {value!r} cannot be recorded: give the scorer plain numbers, text or tuples")


def _frozen(value: Any) -> Any:
    return tuple(_frozen(v) for v in value) if isinstance(value, list) else value


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _all(value: Any, check) -> bool:
    return isinstance(value, list) and all(check(v) for v in value)


__all__ = ["win_context_from_json", "win_context_json"]


def is_first_turn(players: tuple[int, ...], dealer: int, seat: int, discarder: int | None, draws: int,
                  earlier_wins: int, kong_taken: bool) -> bool:
    """天和, 地和, 人和 (广东鸡胡 [001:43-47]): the dealer's win on his dealt tiles, another seat's
    self-draw on its first draw, or a win on the dealer's first discard; the hand's first win, no
    kong made.  A claim (吃, 碰) ends 地和 too, and the table does not see claims: but a claim skips a
    seat's draw, so the `draws` since the deal number the seats from the dealer to the winner only
    when nobody claimed before the winner drew.  (HandState and the audit both judge it here.)"""
    if earlier_wins or kong_taken:
        return False
    if discarder is not None:
        return discarder == dealer and draws == 0
    return draws == (players.index(seat) - players.index(dealer)) % len(players)


def taken_astray(take: Mapping[str, Any] | None) -> bool:
    """A take (as its `take` event or journal row has it) out of draw order: into the reserve once the
    live wall was spent, off another stack, a tail tile nobody's 杠 asked for.  Nobody wins self-drawn
    on it (the win check offers no 自摸; the audit finds one) unless it was then credited as the
    seat's own kong replacement (杠 pressed after it was taken: a 杠上开花 is the seat's)."""
    return take is not None and take.get("in_order") is False
