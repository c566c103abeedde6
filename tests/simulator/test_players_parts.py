"""The players' parts on their own: change notification, reading the screens, counting the
wall, the distance to a complete hand, and a few of the AI's decisions."""

from __future__ import annotations

import asyncio
import random

import pytest

from drivers.motor_protocol import Key, LiftPosition
from drivers.table_ui import RESTARTED, Phase, kong_from_question
from rulesets.regions import get_region
from rulesets.reserve import wall_count
from rulesets.tiles import Tile, parse_tiles
from rulesets.walls import Break, Layer, Slot
from rulesets.winning import Shapes
from simulator import SimulatedTable
from simulator.changes import Changes
from simulator.players import PlayStyle, SimulatedPlayers, flower_kinds
from simulator.players.brain import JUDGEMENTS_PER_DECISION, Brain
from simulator.players.hand_play import HandPlay
from simulator.players.knowledge import TableView
from simulator.players.player import Player
from simulator.players.rules import RegionPlay, WinFacts
from simulator.players.screen import Eyes, parse_rolls, tiles_in
from simulator.players.shanten import Shanten
from simulator.players.wall import LiveWall, WallMismatch
from tests.asyncio_support import run
from tests.simulator.test_players_referee import Referee, table_for

pytestmark = pytest.mark.timeout(30)


# -- change notification ------------------------------------------------------------------------

def test_changes_wake_waiters_and_never_spin():
    async def main():
        changes = Changes()
        seen = changes.version
        waiter = asyncio.create_task(changes.wait(seen))
        for _ in range(20):
            await asyncio.sleep(0)
        assert not waiter.done()
        changes.notify()
        assert await waiter == seen + 1
        assert await changes.wait(seen) == seen + 1          # already changed: returns at once
        cancelled = asyncio.create_task(changes.wait(changes.version))
        await asyncio.sleep(0)
        cancelled.cancel()
        await asyncio.gather(cancelled, return_exceptions=True)
        assert changes._waiters == []
    run(main())


def test_a_waiter_that_cares_about_one_thing_is_woken_only_by_a_change_of_it():
    """The set mender waits for the fault page only: the table's other changes (nearly all) do not
    wake it, and it keeps its place ahead of the waiters that came after it."""
    async def main():
        changes = Changes()
        fault_page = False
        woken: list[str] = []

        async def wait(name: str, relevant=None) -> None:
            await changes.wait(changes.version, relevant)
            woken.append(name)

        mender = asyncio.create_task(wait("mender", lambda: fault_page))
        await asyncio.sleep(0)
        player = asyncio.create_task(wait("player"))
        await asyncio.sleep(0)
        changes.notify()                    # a change of something else
        await player
        for _ in range(5):
            await asyncio.sleep(0)
        assert woken == ["player"] and not mender.done()
        player = asyncio.create_task(wait("player"))
        await asyncio.sleep(0)
        fault_page = True
        changes.notify()
        await asyncio.gather(mender, player)
        assert woken == ["player", "mender", "player"] and changes._waiters == []
    run(main())


def test_the_screen_seat_displays_and_lifts_announce_changes():
    async def main():
        table = SimulatedTable(seed=1, speed=0)
        v = table.changes.version
        table.display.set_text("main", "t_msg", Phase.DEAL.value)
        assert await table.changed(v) > v
        v = table.changes.version
        table.display.set_text("main", "t_msg", Phase.DEAL.value)        # same text: no change
        table.world.set_seat_text(2, 1, "请掷骰子 第1次")
        assert table.changes.version == v + 1
        table.display._execute('main.t_dice.txt="2+5"')                 # what the controller's bytes do
        table.world.set_centre(LiftPosition.DOWN)
        assert table.changes.version == v + 3
        assert table.display.text("main", "t_dice") == "2+5" and table.world.seat_displays[2][1] == "请掷骰子 第1次"
    run(main())


def test_idle_players_wait_without_looking_again():
    async def main():
        table = SimulatedTable(seed=1, speed=0)
        ruleset = get_region("dongbei").resolve()
        players = SimulatedPlayers(table, ruleset, seed=1)
        looks = 0
        look = players.crew.eyes.look

        def counting():
            nonlocal looks
            looks += 1
            return look()
        players.crew.eyes.look = counting
        task = asyncio.create_task(players.run())
        for _ in range(200):
            await asyncio.sleep(0)
        assert looks == 1 and players.journal == []
        table.display.set_text("main", "t_msg", Phase.IDLE.value)
        for _ in range(50):
            await asyncio.sleep(0)
        assert looks == 2
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
    run(main())


def test_a_display_that_reboots_is_waited_out_not_read_as_the_phase_moving_on():
    """A display rebooting shows nothing until the controller paints it again: a player waiting for
    最后一张 to give way saw the blank line as the hand moving on and stopped playing it; the table,
    restarted by the same power cut, asked for 确认 again and nobody pressed it (campaign 620190, 大包)."""
    async def main():
        table = SimulatedTable(seed=1, speed=0)
        crew = SimulatedPlayers(table, get_region("dabao").resolve(), seed=1).crew
        table.display.set_text("main", "t_msg", Phase.LAST_TILE.value)
        waiting = asyncio.create_task(crew.until(lambda s: s.phase is not Phase.LAST_TILE))
        for _ in range(20):
            await asyncio.sleep(0)
        table.display.reboot()
        for _ in range(20):
            await asyncio.sleep(0)
        assert not waiting.done()
        table.display.set_text("main", "t_msg", f"{Phase.LAST_TILE.value} 已重启 未应答的键请再按")
        for _ in range(20):
            await asyncio.sleep(0)
        assert not waiting.done()
        table.display.set_text("main", "t_msg", Phase.HAND_OVER.value)
        screen = await asyncio.wait_for(waiting, 5)
        assert screen.phase is Phase.HAND_OVER
    run(main())


def test_a_win_check_nobody_at_the_seat_asked_for_is_taken_back_once():
    """A 胡 the board delivered late began a check its seat never asked for (campaign 620183, 四川): he
    takes it back with a long 胡, once per question shown; a seat answering its own claim does not."""
    table = SimulatedTable(seed=1, speed=0)
    crew = SimulatedPlayers(table, get_region("sichuan").resolve(), seed=1).crew
    table.display.set_text("main", "t_msg", Phase.WIN_CHECK.value)
    table.world.set_seat_text(1, 1, "点炮:自摸")
    table.world.set_seat_text(2, 1, "点炮:自摸")
    crew.claiming.add(2)
    for _ in range(3):
        crew.service(crew.eyes.look())
    assert [(a.seat, a.what) for a in crew.journal if a.what in ("press", "withdraw")] == [(1, "press"), (1, "withdraw")]
    assert crew.journal[0].detail == "HU long"


def test_a_kong_giver_question_that_went_unanswered_by_the_seat_is_owed_no_longer():
    """A bounced 确认 answered 第1杠来自 before the seat steered to the giver; the table moved on to
    最后一张 and asked nothing again, and he waited for the question for ever (campaign 650029, 云南).
    Owed until the question has shown; once it has gone, answered."""
    table = SimulatedTable(seed=1, speed=0)
    crew = SimulatedPlayers(table, get_region("yunnan").resolve(), seed=1).crew
    crew.answers.expect_kong(2, "上家")
    table.display.set_text("main", "t_msg", Phase.PLAY.value)
    assert crew.answers.owes(2, crew.eyes.look())                  # due, not shown yet
    table.world.set_seat_text(2, 1, f"{kong_from_question(1)}:下家")
    asked = crew.eyes.look()
    crew.service(asked)
    assert crew.journal[-1].detail == "RIGHT"                      # steering to 上家
    assert crew.answers.owes(2, asked)
    table.world.set_seat_text(2, 1, "")
    table.display.set_text("main", "t_msg", Phase.LAST_TILE.value)
    assert not crew.answers.owes(2, crew.eyes.look())


def test_a_kong_made_before_the_table_restarted_is_not_waited_for_at_the_last_tile():
    """A power cut lost the 杠 with the board's RAM: the restarted table knows no such kong and never
    asks who gave it, and the seat waited for the question at 最后一张 for ever (campaign 760029, 云南).
    A kong made since the restart still is waited for."""
    table = SimulatedTable(seed=1, speed=0)
    crew = SimulatedPlayers(table, get_region("yunnan").resolve(), seed=1).crew
    crew.answers.expect_kong(3, "上家")
    table.display.set_text("main", "t_msg", Phase.PLAY.value)
    assert crew.answers.owes(3, crew.eyes.look())
    table.display.set_text("main", "t_msg", f"{Phase.LAST_TILE.value} {RESTARTED}")
    assert crew.restarts == 1
    assert not crew.answers.owes(3, crew.eyes.look())
    crew.answers.expect_kong(3, "对家")
    assert crew.answers.owes(3, crew.eyes.look())


def test_a_kong_question_asked_again_at_the_last_tile_is_answered_before_the_confirm_for_the_draw():
    """A kong made before the table restarted is not waited for at 最后一张 (above); when the
    restarted table does know it and asks who gave it just then, the seat's 确认 for 荒庄 answered
    the question with its first choice, naming a wrong giver.  He now answers the question first."""
    async def main():
        table = SimulatedTable(seed=1, speed=0)
        crew = SimulatedPlayers(table, get_region("yunnan").resolve(), seed=1).crew
        crew.answers.expect_kong(3, "上家")
        table.display.set_text("main", "t_msg", Phase.PLAY.value)
        crew.eyes.look()
        table.display.set_text("main", "t_msg", f"{Phase.LAST_TILE.value} {RESTARTED}")
        table.world.set_seat_text(3, 1, f"{kong_from_question(1)}:下家")
        play = HandPlay(crew, None, TableView(crew.sides, 0))
        ending = asyncio.create_task(play.exhausted(3))
        for choice in ("对家", "上家"):               # he steers: the table shows each choice in turn
            await crew_pressed(crew, 3, lambda a: a.what == "press")
            table.world.set_seat_text(3, 1, f"{kong_from_question(1)}:{choice}")
        await crew_pressed(crew, 3, lambda a: a.what == "kong_from")
        assert not [a for a in crew.journal if a.what == "confirm"]     # the draw not confirmed yet
        table.world.set_seat_text(3, 1, "")                              # the answer taken
        await crew_pressed(crew, 3, lambda a: a.what == "confirm")
        whats = [(a.what, a.detail) for a in crew.journal if a.seat == 3 and a.what in ("kong_from", "confirm")]
        assert whats == [("kong_from", "1 上家"), ("confirm", "荒庄")]
        table.display.set_text("main", "t_msg", Phase.HAND_OVER.value)
        await asyncio.wait_for(ending, 5)
    run(main())


async def crew_pressed(crew, seat: int, what, within: float = 5.0) -> None:
    """Until the crew's journal holds a new action of `seat` that `what` holds for."""
    before = len(crew.journal)

    async def seen() -> None:
        while not any(a.seat == seat and what(a) for a in list(crew.journal)[before:]):
            await asyncio.sleep(0)
    await asyncio.wait_for(seen(), within)


def test_at_speed_0_a_thought_gives_the_table_a_turn_only_after_something_it_can_sense():
    """A player's moment of thought lets the virtual clock run either way; the loop turns to the
    table only once the players did something its boards sense (here a key), not at every thought."""
    async def main():
        table = SimulatedTable(seed=1, speed=0)
        crew = SimulatedPlayers(table, get_region("dongbei").resolve(), seed=1).crew
        turns = 0

        async def count_turns():
            nonlocal turns
            while True:
                await asyncio.sleep(0)
                turns += 1
        counter = asyncio.create_task(count_turns())
        await asyncio.sleep(0)
        start, before = table.clock.now(), turns
        for _ in range(5):
            await crew.think()
        assert turns == before and table.clock.now() == pytest.approx(start + 5 * crew.style.think)
        crew.press(0, Key.TING)
        await crew.think()
        assert turns == before + 1
        await crew.think()
        assert turns == before + 1
        counter.cancel()
        await asyncio.gather(counter, return_exceptions=True)
    run(main())


def test_a_virtual_clock_advanced_without_waiting_runs_its_due_timers_at_the_next_turn():
    async def main():
        table = SimulatedTable(seed=1, speed=0)
        fired = []
        table.clock.call_later(2.0, lambda: fired.append(table.clock.now()))
        table.clock.advance(1.0)
        await asyncio.sleep(0)
        assert fired == []
        table.clock.advance(1.5)
        assert fired == []                  # due now: it runs when the loop next turns
        await asyncio.sleep(0)
        assert fired == [2.5]
        with pytest.raises(ValueError, match="speed 0"):
            SimulatedTable(seed=1, speed=1.0).clock.advance(1.0)
    run(main())


# -- reading the screens ------------------------------------------------------------------------

def test_reading_the_screens():
    table = SimulatedTable(seed=1, speed=0)
    display = table.display
    display.set_text("main", "t_msg", "换三张 :对家")
    display.set_text("main", "t_dice", "6+5 / 3+3")
    display.set_text("main", "t_ind", "五万")
    display.set_text("main", "t_wild", "五万 六万")
    table.world.set_seat_text(1, 0, "庄 +12 听")
    table.world.set_seat_text(1, 1, "宝:红中 骰子=换宝")
    screen = Eyes(table).look()
    assert screen.phase is Phase.EXCHANGE and screen.detail == ":对家"
    assert screen.rolls() == ((6, 5), (3, 3))
    assert screen.indicators() == (Tile.M5,) and screen.wilds() == (Tile.M5, Tile.M6)
    assert screen.dealer((0, 1, 2, 3)) == 1 and screen.bao(1) == Tile.RED and screen.bao(0) is None
    assert parse_rolls("2+5 / x") == ((2, 5),) and tiles_in("东风 白 foo") == (Tile.EAST, Tile.WHITE)


# -- the wall as counted ------------------------------------------------------------------------

def raised(ruleset, seed=1):
    table = table_for(ruleset, seed)
    referee = Referee(table, ruleset, seed=seed)
    table.world.mixer.extend(table.world.out.values())
    table.world.out.clear()
    referee._raise_walls(0)
    return table


def test_live_wall_counts_like_the_reserve_policy_and_refuses_the_reserve():
    ruleset = get_region("changchun").resolve()          # 留7墩, R-B
    table = raised(ruleset)
    ring = ruleset.layout.ring(Break(2, 5))
    wall = LiveWall(table, ruleset, ring)
    for position in range(53):
        wall.take_deal(position)
    assert wall.live == 136 - 53 - 14
    wall.take_tail(kong=True)                            # one kong: still 7 full stacks + the lone tile
    assert wall.kongs == 1 and wall.live == 136 - 53 - 1 - 15
    assert wall.live == wall_count(ruleset.reserve, 136, 53, 1, 1).live
    while wall.live:
        wall.take_head()
    with pytest.raises(WallMismatch):
        wall.take_head()
    assert wall.remaining == ruleset.reserve.reserved_tiles(1, 1)


def test_live_wall_checks_the_physical_stack_and_passes_a_set_aside_tile():
    ruleset = get_region("wenzhou").resolve()
    table = raised(ruleset)
    ring = ruleset.layout.ring(Break(1, 3))
    wall = LiveWall(table, ruleset, ring)
    tail_top = Slot(len(ring) - 1, Layer.TOP)
    wall.set_aside(tail_top)                             # the 财神 leaves play: a tail-side take
    assert wall.tail_taken == 1 and wall.kongs == 0
    assert wall.next_tail() == Slot(len(ring) - 1, Layer.BOTTOM)
    pos = ring[0]
    table.take(pos.wall, pos.stack)                      # someone took the head tile behind our back
    with pytest.raises(WallMismatch):
        wall.take_deal(0)


def yunnan_wall_at_its_end(options):
    """A 云南 wall with the two 尾牌 shown and every other tile but one drawn from the head."""
    from simulator.players.hand_play import HandPlay
    ruleset = get_region("yunnan").resolve(options)
    table = raised(ruleset)
    ring = ruleset.layout.ring(Break(0, 3))
    wall = LiveWall(table, ruleset, ring)
    for taken in (0, 2):                                 # 尾牌上面两张: the tops of the last two stacks
        slot = ring.tail_slot(taken)
        wall.shown[slot] = Tile.M1
    players = SimulatedPlayers(table, ruleset, seed=1)
    play = HandPlay(players.crew, wall, TableView(players.crew.sides, 0))
    while wall.remaining > 5:
        wall.take_head()
    return wall, play, ring


def test_with_no_face_down_tail_tile_left_a_kong_takes_the_last_shown_tile():
    """云南 尾牌 at the end of the wall (weipai_wall_end=drawn_last, the default): with every unshown
    tile gone, the 4 left are the two shown tops and the tiles under them, still live; a kong takes
    the last shown tile as its replacement (before the option, a player made the kong, found no tile
    it might take, gave up the hand, and the table waited: a stall in the fault campaign)."""
    wall, play, ring = yunnan_wall_at_its_end({})
    assert play.can_kong() and wall.replacement() == wall.next_tail()  # one unshown tile is left
    wall.take_head()
    assert wall.remaining == 4 and wall.live > 0 and wall.next_tail() is None
    assert play.can_kong()
    wall.take_tail(kong=True)
    assert ring.tail_slot(0) in wall.taken and wall.kongs == 1
    assert wall.next_tail() == ring.tail_slot(1)         # the tile under it is face down: the next replacement


def test_with_the_shown_tiles_kept_the_wall_ends_before_them_and_no_kong_wants_them():
    """weipai_wall_end=kept: the shown tiles and those under them are never drawn but by a 杠上开花, so the
    hand is 荒庄 when only they are left; the last live tile makes no kong (none would be left after it)."""
    wall, play, _ = yunnan_wall_at_its_end({"weipai_wall_end": "kept"})
    assert wall.live == 1 and not play.can_kong()
    wall.take_head()
    assert wall.remaining == 4 and wall.live == 0 and not play.can_kong()
    with pytest.raises(WallMismatch):
        wall.take_head()


# -- distance to a complete hand ----------------------------------------------------------------

@pytest.mark.parametrize("tiles, expected", [
    ("123555m456p789s11z", -1), ("123m456p789s1z55m9p", 1), ("123m456p789s1234z", 2), ("123m456p789s11z56m", 0),
    ("1112345678999m", 0), ("19m19p19s1234567z", 8), ("11223344556677m", -1),
])
def test_shanten_standard(tiles, expected):
    assert Shanten().standard(parse_tiles(tiles), 4) == expected


def test_shanten_with_wilds_pairs_and_pungs():
    wild = Shanten([Tile.M5])
    assert wild.standard(parse_tiles("123m456p789s1z2z5m5m"), 4) == 0      # a 5m stands in: ready
    assert Shanten().standard(parse_tiles("123m456p789s1z2z5m5m"), 4) == 1
    assert wild.standard(parse_tiles("123m456p789s111z5m7z"), 4) == -1
    assert Shanten().seven_pairs(parse_tiles("1122m3344p5566s7z")) == 0
    assert Shanten().all_pungs(parse_tiles("111m222p333s44z567m"), 4) == 1
    assert Shanten().standard(parse_tiles("111m222p"), 2) == 0            # two melds declared


def _plain_shanten(counts: list[int], needed: int, only_suit: str | None = None) -> int:
    """The standard-shape distance by brute force over the whole hand (no split into suits, no
    pruning): every way to read it as melds, partial melds and at most one pair."""
    seen: dict[tuple[tuple[int, ...], int], set[tuple[int, int, int]]] = {}

    def readings(c: tuple[int, ...], pair: int) -> set[tuple[int, int, int]]:
        if (c, pair) in seen:
            return seen[(c, pair)]
        i = next((k for k, n in enumerate(c) if n), None)
        found = {(0, 0, 0)} if i is None else set()
        if i is not None:
            suited = i < 27
            room = 8 - i % 9 if suited else 0          # tiles of the suit above i

            def take(ks: tuple[int, ...], gain: tuple[int, int, int]) -> None:
                rest = list(c)
                for k in ks:
                    rest[k] -= 1
                if min(rest) >= 0:
                    for m, t, p in readings(tuple(rest), pair + gain[2]):
                        found.add((m + gain[0], t + gain[1], p + gain[2]))
            take((i, i, i), (1, 0, 0))
            if room >= 2:
                take((i, i + 1, i + 2), (1, 0, 0))
            if not pair:
                take((i, i), (0, 0, 1))
            take((i, i), (0, 1, 0))
            if room >= 1:
                take((i, i + 1), (0, 1, 0))
            if room >= 2:
                take((i, i + 2), (0, 1, 0))
            take((i,), (0, 0, 0))
        seen[(c, pair)] = found
        return found

    if only_suit is not None:
        base = "mps".index(only_suit) * 9
        counts = [n if base <= k < base + 9 or k >= 27 else 0 for k, n in enumerate(counts)]
    best = min(2 * needed - 2 * min(m, needed) - min(t, needed - min(m, needed)) - p
               for m, t, p in readings(tuple(counts[:34]), 0))
    return max(-1, best)


def test_shanten_standard_agrees_with_brute_force_on_random_hands():
    rng = random.Random(12)
    wall = [Tile(k) for k in range(34) for _ in range(4)]
    for trial in range(400):
        needed = rng.choice((1, 2, 3, 4, 4, 4))
        kinds = rng.sample(wall, 3 * needed + rng.choice((1, 2)))
        only_suit = rng.choice((None, None, None, "m", "p", "s"))
        counts = [0] * 34
        for kind in kinds:
            counts[kind] += 1
        assert Shanten().standard(kinds, needed, only_suit) == _plain_shanten(counts, needed, only_suit), \
            (sorted(kinds), needed, only_suit)


def test_the_distance_after_each_discard_is_the_distance_of_each_rest():
    """`after_each_discard` joins the unchanged suits once for every discard: the same counts as
    one `best` per discard, with wilds, a stand-in, seven pairs, honours and flowers in the hand."""
    rng = random.Random(13)
    shapes = Shapes(seven_pairs=True)
    counters = [Shanten(), Shanten([Tile.M5], shapes=shapes), Shanten([Tile.RED, Tile.P1], shapes=shapes),
                Shanten([Tile.M2], {Tile.WHITE: Tile.M2}, shapes)]
    wall = [Tile(k) for k in range(34) for _ in range(4)] + [Tile(k) for k in range(34, 42)]
    for trial in range(300):
        shanten = rng.choice(counters)
        needed = rng.choice((2, 3, 4, 4, 4))
        kinds = rng.sample(wall, 3 * needed + 2)
        pairs_ok = rng.random() < 0.5
        together = shanten.after_each_discard(kinds, needed, set(kinds), seven_pairs_ok=pairs_ok)
        for kind in set(kinds):
            rest = list(kinds)
            rest.remove(kind)
            assert together[kind] == shanten.best(rest, needed, seven_pairs_ok=pairs_ok), (sorted(kinds), kind)


# -- decisions ------------------------------------------------------------------------------------

def player_with(tiles: str, seat: int = 0, standing: str = "") -> Player:
    uids = {}
    player = Player(seat, lambda uid: uids[uid], random.Random(1))
    for i, tile in enumerate(parse_tiles(tiles)):
        uid = bytes([seat, i])
        uids[uid] = tile
        player.receive(uid)
    wanted = list(parse_tiles(standing))
    for uid, kind in player.hand.items():
        if kind in wanted:
            player.standing.add(uid)
            wanted.remove(kind)
    return player


def facts(view: TableView) -> WinFacts:
    return WinFacts(view.dealer, view.ready_sides(), view.kongs_by_side(), view.exposed_by_side())


def test_discard_keeps_the_hand_near_and_honours_a_void_suit():
    ruleset = get_region("sichuan").resolve()
    brain = Brain(RegionPlay(ruleset), PlayStyle())
    view = TableView((0, 1, 2, 3), 0)
    player = player_with("123456789m1123p9s")
    choice = brain.choose_discard(player, view, 50, facts(view))
    assert choice.kind == Tile.S9                       # the lone 9s helps nothing
    player.void = "p"
    choice = brain.choose_discard(player, view, 50, facts(view))
    assert choice.kind.suit == "p"                      # 缺一门: the void suit goes first


def test_standing_four_go_only_with_the_ready_declaration():
    ruleset = get_region("lisi").resolve()
    brain = Brain(RegionPlay(ruleset), PlayStyle())
    view = TableView((0, 1, 2, 3), 0)
    far = player_with("19m19p19s1234567z5m", standing="1234z")
    assert brain.choose_discard(far, view, 50, facts(view)).uid not in far.standing
    ready = player_with("123m456p789s111z5m7z", standing="5m7z11z")
    choice = brain.choose_discard(ready, view, 50, facts(view))
    assert choice.uid in ready.standing and choice.kind == Tile.RED and choice.declare


def test_a_discard_choice_judges_a_bounded_number_of_waits():
    """武汉: no wait of 九莲 is a legal 屁胡 without a 2/5/8 pair, and judging all of them was
    ~24 whole-hand judgements for one discard (each ≈1 ms here, 5–20 on a Pi)."""
    rules = RegionPlay(get_region("wuhan").resolve())
    judged = []
    legal_win = rules.legal_win
    rules.legal_win = lambda *args, **kwargs: judged.append(1) or legal_win(*args, **kwargs)  # type: ignore[method-assign]
    brain = Brain(rules, PlayStyle())
    view = TableView((0, 1, 2, 3), 0)
    choice = brain.choose_discard(player_with("1112345678999m5p"), view, 50, facts(view))
    assert choice.kind == Tile.P5                       # the lone 5p still goes
    assert 0 < len(judged) <= JUDGEMENTS_PER_DECISION


def test_claims_follow_the_region():
    view = TableView((0, 1, 2, 3), 0)
    hebei = Brain(RegionPlay(get_region("hebei").resolve()), PlayStyle(pong=1.0))
    player = player_with("55m123p456s789s1z2z", seat=1)
    claim = hebei.claim(player, view, Tile.M5, 0, True, 60)
    assert claim is not None and claim.what == "pung"
    chow = hebei.claim(player_with("46m123p456s789s1z2z", seat=1), view, Tile.M5, 0, True, 60)
    assert chow is None                                  # 河北: no 吃
    dongbei = Brain(RegionPlay(get_region("dongbei").resolve()), PlayStyle(chi=1.0))
    assert dongbei.claim(player_with("46m123p456s789s1z2z", seat=1), view, Tile.M5, 0, True, 60).what == "chow"
    assert dongbei.claim(player_with("46m123p456s789s1z2z", seat=2), view, Tile.M5, 0, True, 60) is None


def test_flower_kinds_follow_the_wilds():
    zuanpai = get_region("zuanpai").resolve()
    assert flower_kinds(zuanpai) == {Tile.GREEN}
    assert flower_kinds(zuanpai, (Tile.GREEN,)) == {Tile.RED}   # 发 is the 钻: 红中 takes its role
    assert len(flower_kinds(get_region("shanghai").resolve())) == 8


def test_players_take_a_bao_win_only_as_the_texts_allow():
    """长春 §1.3: 「听牌者摸到宝牌或者所听之牌为宝牌即赢」 — a ready player wins by drawing the 宝 (摸宝), never by
    reading a discarded 宝 or a held one as a joker; 「未听牌者不许看」 — no 宝 without 听."""
    rules = RegionPlay(get_region("changchun").resolve())
    view = TableView((0, 1, 2, 3), 1)
    hand = list(parse_tiles("111m13m456p789s99s4z"))
    bao = (Tile.NORTH,)

    def legal(discarder, ready, tiles=hand):
        return rules.legal_win(0, tiles, (), (), Tile.NORTH if tiles is hand else tiles[-1], discarder, bao, ready,
                               facts(view), bao=Tile.NORTH)

    assert legal(None, True)                            # 摸宝: the drawn 宝 stands for 2m
    assert not legal(3, True)                           # a discarded 宝 is an ordinary tile
    assert not legal(None, False)                       # no 听, no 宝
    held = list(parse_tiles("111m13m456p789s4z99s"))    # the 宝 held, 9s drawn
    assert not legal(None, True, held)


def test_the_private_bao_on_a_seats_line_is_no_question():
    """「宝:七万 骰子=换宝」 has a question's shape (`question:current`); a player who took it for one waited
    for it to go at 最后一张 after his 确认 was lost with a board's reboot (option campaign 48480, 吉林)."""
    from simulator.players.screen import Screen
    lines = (("闲 +0 听", "宝:七万 骰子=换宝"), ("闲 +0", "第1杠来自:下家"), ("庄 +0", ""), ("闲 +0", "亮手牌后确认"))
    screen = Screen(0, "最后一张", "", "", "", lines, False)
    assert screen.question(0) is None and screen.bao(0) is not None
    assert screen.question(1) == ("第1杠来自", "下家")
    assert screen.question(2) is None and screen.question(3) is None
