"""The players' shortcuts count what the plain way counts: a part's options shared between parts
that differ only by empty ranks or by the end they are read from (or, for honours, by order) and
summed over groups of ranks apart, seven pairs counted from one tally per hand, the distance after
a claim's discard and after each discard (standard, one suit, all pungs) worked out in one pass,
and what is remembered or read late (the tail's replacement, the flowers per set of wilds, the
fours in hand, the table's facts for a judgement) is what the plain reading gives."""

from __future__ import annotations

import itertools
import random
from functools import lru_cache

from rulesets.regions import get_region
from rulesets.tiles import Tile, parse_tiles
from rulesets.winning import Shapes
from simulator.players import PlayStyle
from simulator.players.brain import Brain
from simulator.players.rules import RegionPlay
from simulator.players.shanten import FAR, Parts, Shanten, _normal
from tests.simulator.test_players_parts import player_with


@lru_cache(maxsize=None)
def _options(counts: tuple[int, ...], runs: bool, may_pair: bool) -> set[tuple[int, int, int]]:
    """Every (melds, partial melds, pair) reading of one part, not pruned: by brute force."""
    i = next((k for k, c in enumerate(counts) if c), None)
    if i is None:
        return {(0, 0, 0)}
    found: set[tuple[int, int, int]] = set()
    n = len(counts)
    groups = [((i,), (0, 0, 0), may_pair)]
    if counts[i] >= 3:
        groups.append(((i, i, i), (1, 0, 0), may_pair))
    if counts[i] >= 2:
        groups.append(((i, i), (0, 1, 0), may_pair))
        if may_pair:
            groups.append(((i, i), (0, 0, 1), False))
    if runs:
        groups += [(take, gain, may_pair) for take, gain in
                   (((i, i + 1, i + 2), (1, 0, 0)), ((i, i + 1), (0, 1, 0)), ((i, i + 2), (0, 1, 0)))
                   if all(k < n and counts[k] >= take.count(k) for k in take)]
    for take, gain, pair_left in groups:
        rest = list(counts)
        for k in take:
            rest[k] -= 1
        for m, t, p in _options(tuple(rest), runs, pair_left):
            found.add((m + gain[0], t + gain[1], p + gain[2]))
    return found


def _pareto(options: set[tuple[int, int, int]]) -> tuple[tuple[int, int, int], ...]:
    return tuple(sorted(o for o in options
                        if not any(x != o and all(a >= b for a, b in zip(x, o)) for x in options)))


def test_a_part_has_the_options_of_its_every_reading():
    parts = Parts()
    rng = random.Random(3)
    for runs, size in ((True, 9), (False, 7)):
        for _ in range(300):
            counts = tuple(rng.choice((0, 0, 0, 1, 1, 2, 3, 4)) for _ in range(size))
            if sum(counts) > 14:         # more than a hand holds
                continue
            assert parts._sets[parts.part(counts, runs)] == _pareto(_options(counts, runs, True)), counts
    for counts in itertools.product(range(3), repeat=4):       # empty ranks at either end, and between
        padded = (0,) * 2 + counts + (0,) * 3
        assert parts._sets[parts.part(padded, True)] == _pareto(_options(padded, True, True)), padded


def test_the_distance_after_each_discard_with_fours_as_two_pairs_and_few_melds_needed():
    rng = random.Random(14)
    shapes = Shapes(seven_pairs=True, four_as_two_pairs=True)
    counters = [Shanten(shapes=shapes), Shanten([Tile.M5], shapes=shapes), Shanten(shapes=Shapes(seven_pairs=True))]
    wall = [Tile(k) for k in range(34) for _ in range(4)]
    for _ in range(300):
        shanten = rng.choice(counters)
        needed = rng.choice((0, 1, 2, 4, 4))
        kinds = rng.sample(wall, 3 * needed + 2)
        if rng.random() < 0.3:       # a four (two pairs where a four counts as two)
            kind = rng.choice(kinds[:4])
            kinds = [kind] * 4 + [k for k in kinds if k != kind][:3 * needed - 2]
        together = shanten.after_each_discard(kinds, needed, set(kinds), seven_pairs_ok=True)
        for kind, rest in each_discard(kinds):
            assert together[kind] == shanten.best(rest, needed, seven_pairs_ok=True), (sorted(kinds), kind)


def test_the_distance_after_a_claim_is_the_best_of_each_discard():
    for region, hand in (("sichuan", "1123456m55p789s"), ("wuhan", "2223m456p7788s5z"), ("hainan", "11223344m556p7z")):
        brain = Brain(RegionPlay(get_region(region).resolve()), PlayStyle())
        player = player_with(hand)
        kinds = player.kinds()
        needed = brain.needed(player) - 1
        for wilds in ((), (Tile.M2,), (Tile.P5, Tile.RED)):
            plain = min([FAR] + [brain.distance(player, [k for i, k in enumerate(kinds) if i != kinds.index(d)],
                                                wilds, needed) for d in set(kinds) if d not in wilds])
            assert brain._best_after_claim(player, kinds, wilds, needed) == plain, (region, wilds)


def each_discard(kinds: list[Tile]):
    """(kind, the hand less one tile of it) for each kind held."""
    for kind in set(kinds):
        rest = list(kinds)
        rest.remove(kind)
        yield kind, rest


def _random_hand(rng: random.Random, needed: int) -> list[Tile]:
    """A hand of 3 × `needed` + 2 tiles, often with a pung or four (the counts a discard changes)."""
    wall = [Tile(k) for k in range(34) for _ in range(4)]
    kinds = rng.sample(wall, 3 * needed + 2)
    if rng.random() < 0.4:
        kind = rng.choice(kinds)
        copies = rng.choice((3, 4))
        kinds = [kind] * copies + [k for k in kinds if k != kind][:3 * needed + 2 - copies]
    return kinds


def _counters() -> list[Shanten]:
    """Counters without wilds, with a wild, and with a wild whose stand-in plays its face."""
    parts = Parts()
    return [Shanten(parts=parts), Shanten([Tile.M5], parts=parts),
            Shanten([Tile.S2], {Tile.WHITE: Tile.S2}, parts=parts)]


def _random_cases(seed: int, cases: int = 400):
    """(counter, melds needed, hand, rng) for `cases` random hands, the counters sharing one memo."""
    rng = random.Random(seed)
    counters = _counters()
    for _ in range(cases):
        shanten = rng.choice(counters)
        needed = rng.choice((1, 2, 3, 4, 4))
        yield shanten, needed, _random_hand(rng, needed), rng


def test_the_standard_count_after_each_discard_of_one_suit_with_honours():
    for shanten, needed, kinds, rng in _random_cases(21):
        only_suit = rng.choice((None, "m", "p", "s"))
        together = shanten.standard_after_each(kinds, needed, set(kinds), only_suit=only_suit)
        for kind, rest in each_discard(kinds):
            assert together[kind] == shanten.standard(rest, needed, only_suit=only_suit), (sorted(kinds), kind)


def test_the_all_pungs_count_after_each_discard():
    for shanten, needed, kinds, _ in _random_cases(22):
        together = shanten.all_pungs_after_each(kinds, needed, set(kinds))
        for kind, rest in each_discard(kinds):
            assert together[kind] == shanten.all_pungs(rest, needed), (sorted(kinds), kind)


def test_a_part_less_each_tile_and_the_count_of_a_join():
    parts = Parts()
    rng = random.Random(23)
    for runs, size in ((True, 9), (False, 7)):
        for _ in range(200):
            counts = tuple(rng.choice((0, 0, 1, 1, 2, 3, 4)) for _ in range(size))
            for rank, less in enumerate(parts.parts_less(counts, runs)):
                left = counts[:rank] + (counts[rank] - 1,) + counts[rank + 1:]
                plain = parts.part(left, runs) if counts[rank] and any(left) else 0
                assert less == plain, (counts, rank)
    state = parts.joined(0, parts.part((1, 1, 0, 2), True), 4)
    other = parts.part((0, 3, 1, 1), True)
    assert parts.least_joined(state, other, 4) == parts.least(parts.joined(state, other, 4), 4)


def test_the_pung_or_flush_distance_after_each_discard_is_each_discards_distance():
    """上海 (at least 碰碰胡 or a flush): the one-pass distances against the memoised distance of
    each hand less one tile, with shown melds that rule out one shape or the other."""
    from rulesets.hand import MeldKind
    brain = Brain(RegionPlay(get_region("shanghai").resolve()), PlayStyle())
    assert brain.hints.all_pungs_or_flush
    rng = random.Random(24)
    shown = ((), ((MeldKind.PUNG, "555p"),), ((MeldKind.CHOW, "345m"),), ((MeldKind.PUNG, "111z"),))
    for _ in range(150):
        melds = rng.choice(shown)
        needed = 4 - len(melds)
        kinds = _random_hand(rng, needed)
        meld_tiles = "".join(tiles for _, tiles in melds)
        player = player_with("".join(str(k) for k in kinds) + meld_tiles)
        for kind, tiles in melds:
            wanted = list(parse_tiles(tiles))
            uids = [u for u, k in player.hand.items() if k in wanted and not wanted.remove(k)]
            player.add_meld(kind, uids)
        for wilds in ((), (Tile.P2,)):
            brain.new_hand()
            hand = player.kinds()
            together = brain._discard_distances(player, hand, wilds, set(hand))
            for kind in set(hand):
                rest = list(hand)
                rest.remove(kind)
                assert together[kind] == brain.distance(player, rest, wilds), (sorted(hand), melds, kind)


def test_a_one_suit_count_that_cannot_matter_is_not_worked_out_per_discard(monkeypatch):
    """上海: a hand of pungs and pairs spread over the three suits is far from every flush; one more
    than a flush's count could not beat the all-pungs count of any discard (no discard brings a
    count below the whole hand's), so no suit's count is worked out per discard, and the distances
    are what counting every suit gives."""
    brain = Brain(RegionPlay(get_region("shanghai").resolve()), PlayStyle())
    player = player_with("111m222p333s44m55p6s7s")
    hand = player.kinds()
    shanten = brain.rules.tools(())[1]
    assert shanten.flush_after_each(hand, 4, set(hand), "mps", below=3) == []
    per_suit = []
    real = Shanten._standard_after_each
    monkeypatch.setattr(Shanten, "_standard_after_each", lambda *a: per_suit.append(1) or real(*a))
    together = brain._discard_distances(player, hand, (), set(hand))
    assert per_suit == []
    for kind in set(hand):
        rest = list(hand)
        rest.remove(kind)
        assert together[kind] == brain.distance(player, rest, ())


def test_seven_pairs_that_cannot_matter_are_not_counted_per_discard(monkeypatch):
    """A concealed hand with no pair is six from seven pairs, farther than any of its discards'
    standard counts: no discard brings seven pairs below the whole hand's count, so it is counted
    once, not per discard; and a hand of pairs is still counted per discard, each as `best` says."""
    shanten = Shanten(shapes=Shapes(seven_pairs=True))
    counted = []
    real = Shanten._seven_pairs_from
    monkeypatch.setattr(Shanten, "_seven_pairs_from", lambda *a: counted.append(1) or real(*a))
    for tiles, per_discard in (("123m456m789m123p45p", False), ("1122m3344p5566s78s", True)):
        kinds = list(parse_tiles(tiles))
        counted.clear()
        together = shanten.after_each_discard(kinds, 4, set(kinds), seven_pairs_ok=True)
        assert (len(counted) > 1) is per_discard, tiles
        for kind, rest in each_discard(kinds):
            assert together[kind] == shanten.best(rest, 4, seven_pairs_ok=True), (tiles, kind)


def test_a_suit_is_read_from_either_end_and_in_groups_apart():
    """`_normal` reads a suit from the end giving the lesser counts and `options` sums the options of
    groups two empty ranks apart: both against every reading of the suit as it lies."""
    parts = Parts()
    rng = random.Random(25)
    for _ in range(400):
        counts = tuple(rng.choice((0, 0, 0, 1, 1, 2, 3)) for _ in range(9))
        if not any(counts) or sum(counts) > 14:
            continue
        for may_pair in (True, False):
            found = parts.options(_normal(counts, True), True, may_pair)
            assert tuple(sorted(found)) == _pareto(_options(counts, True, may_pair)), (counts, may_pair)
    assert _normal((0, 3, 1, 0, 0, 1, 1, 2, 0), True) == _normal((0, 0, 2, 1, 1, 0, 0, 1, 3), True)


def test_the_replacement_is_found_again_only_when_the_wall_changed():
    """`LiveWall.replacement` (remembered until a tile is taken or tiles are shown) against the plain
    search, through a 云南 wall with 尾牌 shown (they are passed over) to its end."""
    from tests.simulator.test_players_parts import yunnan_wall_at_its_end
    wall, play, ring = yunnan_wall_at_its_end({})
    assert wall.replacement() == wall._find_replacement() is not None
    wall.shown = {ring.tail_slot(1): Tile.M2}          # other tiles shown: found again
    assert wall.replacement() == wall._find_replacement()
    wall.shown[ring.tail_slot(3)] = Tile.M3
    assert wall.replacement() == wall._find_replacement()
    for _ in taken_to_the_end(wall):
        assert wall.replacement() == wall._find_replacement()


def test_the_fours_in_hand_are_the_kinds_held_four_times():
    from collections import Counter
    from simulator.players.brain import _fours
    rng = random.Random(26)
    wall = [Tile(k) for k in range(34) for _ in range(4)]
    for _ in range(300):
        kinds = rng.sample(wall, 14)
        if rng.random() < 0.5:
            kind = rng.choice(kinds)
            kinds = [kind] * 4 + [k for k in kinds if k != kind][:10]
        assert _fours(kinds) == sorted(k for k, have in Counter(kinds).items() if have == 4), kinds


def test_the_facts_are_read_only_for_a_judgement_and_decide_the_same():
    """A discard choice reads the table's facts (`HandPlay.facts`) only when it judges a wait: the
    same discards whether they are read then or handed over read."""
    from simulator.players.knowledge import TableView
    from tests.simulator.test_players_parts import facts
    view = TableView((0, 1, 2, 3), 0)
    asked = []

    def reading() -> object:
        asked.append(1)
        return facts(view)

    for region, hands in (("wuhan", ("1123456m789p22s55z", "2345678m3456p99s1z")),
                          ("luoshan", ("123456m789p2245s1z", "1112345678999m5p"))):
        for hand in hands:
            brains = [Brain(RegionPlay(get_region(region).resolve()), PlayStyle()) for _ in range(2)]
            given = brains[0].choose_discard(player_with(hand), view, 50, facts(view))
            asked.clear()
            read = brains[1].choose_discard(player_with(hand), view, 50, reading)
            assert read == given, (region, hand)
            assert len(asked) == len(brains[1]._legal), (region, hand)   # once a judgement, none without


def test_the_tail_search_starts_past_the_tiles_taken_with_tiles_shown():
    """`LiveWall.next_tail` starts where every tile before is taken, 尾牌 shown or not: against a
    search from the wall's first tail position, tile after tile to the end."""
    from simulator.players.wall import LiveWall
    from tests.simulator.test_players_parts import yunnan_wall_at_its_end
    wall, play, ring = yunnan_wall_at_its_end({})

    def plain() -> object:
        fresh = LiveWall.__new__(LiveWall)
        fresh.__dict__.update(wall.__dict__)
        fresh._tail_from = 0
        return LiveWall.next_tail(fresh)

    wall.shown = {ring.tail_slot(0): Tile.M1, ring.tail_slot(2): Tile.M1, ring.tail_slot(5): Tile.M2}
    for _ in taken_to_the_end(wall):
        assert wall.next_tail() == plain()


def taken_to_the_end(wall):
    """The wall's tiles taken one by one, the live ones from the head, then the replacements from the
    tail; a step is yielded before each take (and before the end)."""
    while wall.remaining > 0:
        yield
        if wall.live > 0:
            wall.take_head()
        elif wall.replacement() is not None:
            wall.take_tail(kong=False)
        else:
            return


def test_the_flowers_are_remembered_per_set_of_wilds():
    """`RegionPlay.flowers` (remembered per set of wilds) against the ruleset's own answer, where a
    wild bonus tile changes the set (钻牌: 红中 stands in for a wild 发) and where there are none."""
    from simulator.players.rules import flower_kinds
    for region in ("zuanpai", "hainan", "sichuan", "yunnan"):
        ruleset = get_region(region).resolve()
        rules = RegionPlay(ruleset)
        for wilds in ((), (Tile.GREEN,), (Tile.RED,), (Tile.GREEN, Tile.M5), (), (Tile.GREEN,)):
            assert rules.flowers(wilds) == flower_kinds(ruleset, wilds), (region, wilds)
