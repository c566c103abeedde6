"""A hand entered on the seat panel (the read zone could not read it) lists a kong's four tiles:
the controller takes the kongs out instead of judging 15 concealed tiles (a crash, or a wrongful
诈胡), when the entry leaves no doubt which tiles they are."""

from firmware.hand.melds import kongs_from_entry
from rulesets.hand import MeldKind
from rulesets.tiles import parse_tiles


def test_a_kong_entered_with_the_hand_is_taken_out_as_a_kong():
    tiles = parse_tiles("8888s555p678m11z666s")                 # 15 tiles: one kong too many
    melds, rest = kongs_from_entry(tiles, [False], 14)
    assert [m.kind for m in melds] == [MeldKind.KONG] and str(melds[0].tiles[0]) == "8s"
    assert len(rest) == 11


def test_a_concealed_kong_stays_concealed_when_the_seat_declared_only_concealed_ones():
    melds, _ = kongs_from_entry(parse_tiles("8888s555p678m11z666s"), [True], 14)
    assert melds[0].kind is MeldKind.CONCEALED_KONG


def test_an_ambiguous_entry_is_judged_as_entered():
    tiles = parse_tiles("8888s5555p78m11z666s")                 # 15 tiles, two kinds held four times
    assert kongs_from_entry(tiles, [False], 14) == ((), tiles)
    normal = parse_tiles("888s555p678m11z666s")                 # a winning count: nothing to take out
    assert kongs_from_entry(normal, [], 14) == ((), normal)


def test_a_kind_held_four_times_across_a_chow_and_a_pung_is_not_taken_for_the_kong():
    """A probe at the table (云南 杠上开花 entered on the panel, melds first): 3万 ×4 for the kong, then
    123条 44筒 222条 222字 — 2条 is held four times too, so the entry was called ambiguous and judged as
    15 concealed tiles: 诈胡.  Only 3万 was entered four in a row: it is the kong."""
    tiles = parse_tiles("3333m123s44p222s222z")
    melds, rest = kongs_from_entry(tiles, [True], 14)
    assert [str(m.tiles[0]) for m in melds] == ["3m"] and melds[0].kind is MeldKind.CONCEALED_KONG
    assert rest == parse_tiles("123s44p222s222z")
