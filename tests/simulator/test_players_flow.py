"""What the simulated players physically do at the table, phase by phase, without the controller:
the tests (and the referee of test_players_referee.py) write the screens as the controller would."""

from __future__ import annotations

import asyncio

import pytest

from drivers.motor_protocol import Key, LiftPosition
from drivers.table_ui import Phase, roll_prompt
from rulesets.regions import get_region
from rulesets.tiles import Tile
from simulator import SimulatedTable
from simulator.players import PlayStyle, SimulatedPlayers
from simulator.players.hand_play import HandPlay
from simulator.players.knowledge import TableView
from simulator.world import WorldObserver
from tests.asyncio_support import run
from tests.simulator.test_players_referee import Referee, referee_hands, table_for

pytestmark = pytest.mark.timeout(60)

KONGS = PlayStyle(kong=1.0, keep_pairs=1.0, defensive=0.0)
CAREFUL = PlayStyle(defensive=1.0)


class Recorder(WorldObserver):
    def __init__(self) -> None:
        self.walls: list[tuple[int, int, int]] = []
        self.keys: list[tuple[int, Key, bool]] = []

    def wall_changed(self, side: int, stack: int, tiles: int) -> None:
        self.walls.append((side, stack, tiles))

    def key_pressed(self, panel: int, key: Key, long: bool) -> None:
        self.keys.append((int(panel), key, long))


async def settle(rounds: int = 50) -> None:
    for _ in range(rounds):
        await asyncio.sleep(0)


async def stop(task: asyncio.Task) -> None:
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)


def test_push_in_waits_for_the_open_centre_then_sweeps_and_confirms():
    async def main():
        table = SimulatedTable(seed=2, speed=0)
        ruleset = get_region("dongbei").resolve()
        seen = Recorder()
        table.world.observers.append(seen)
        players = SimulatedPlayers(table, ruleset, seed=2)
        task = asyncio.create_task(players.run())
        assert len(table.world.out) == 136                       # the loose set at power-up
        table.display.set_text("main", "t_msg", Phase.PUSH_IN.value)
        await settle()
        assert len(table.world.out) == 136 and seen.keys == []    # the centre is still closed
        table.world.set_centre(LiftPosition.DOWN)
        await settle()
        assert table.world.out == {} and len(table.world.mixer) == 272
        assert seen.keys == [(0, Key.CONFIRM, False)]             # one seat confirms, once
        table.world.set_seat_text(3, 0, "闲 +0")                   # something else changes: no second push
        await settle()
        assert seen.keys == [(0, Key.CONFIRM, False)]
        await stop(task)
    run(main())


def test_a_dice_prompt_is_answered_once_by_the_prompted_seat():
    async def main():
        table = SimulatedTable(seed=2, speed=0)
        seen = Recorder()
        table.world.observers.append(seen)
        players = SimulatedPlayers(table, get_region("changchun").resolve(), seed=2)
        task = asyncio.create_task(players.run())
        table.display.set_text("main", "t_msg", Phase.DICE.value)
        table.world.set_seat_text(2, 1, roll_prompt(1))
        await settle()
        table.display.set_text("main", "t_dice", "3+4")          # the roll shows; the prompt lingers
        await settle()
        assert seen.keys == [(2, Key.DICE, False)]
        table.world.set_seat_text(2, 1, roll_prompt(2))            # the second roll of 长春
        await settle()
        assert seen.keys == [(2, Key.DICE, False)] * 2
        await stop(task)
    run(main())


@pytest.mark.parametrize("region, rolls, dealer", [
    ("changchun", [(2, 3), (6, 5)], 1),       # two rolls: the wall, then the skip
    ("nanjing", [(1, 5), (4, 4)], 0),         # the first roll picks the second roller
    ("changsha", [(6, 2)], 3),                # start at the smaller die's stack
    ("shanghai", [(6, 6)], 2),                # 144 tiles, 18 stacks
    ("guangshui", [(3, 1)], 0),               # three players, 84 tiles
    ("seventeen_tile", [(1, 1)], 0),          # 16-tile hands
])
def test_the_deal_takes_exactly_the_dealt_positions_of_the_ring(region, rolls, dealer):
    async def main():
        ruleset = get_region(region).resolve()
        table = table_for(ruleset, 5)
        for roll in rolls:
            table.force_dice(*roll)
        seen = Recorder()
        table.world.observers.append(seen)
        referee = Referee(table, ruleset, seed=5, dealer=dealer)
        players = SimulatedPlayers(table, ruleset, seed=5)
        task = asyncio.create_task(players.run())
        await referee.run(1)
        await stop(task)
        # the ring as the rules make it from the forced dice, computed here on its own
        ring = ruleset.layout.ring(ruleset.dice.break_for(dealer, ruleset.players, rolls).brk)
        plan = ruleset.dealing.plan(dealer, ruleset.players)
        takes = [(side, stack) for side, stack, _ in seen.walls if table.world.sides[side].plate][:plan.next_head]
        assert takes == [(ring[p // 2].wall, ring[p // 2].stack) for p in range(plan.next_head)]
        hand = referee.hands[0]
        assert hand.rolls[:len(rolls)] == rolls and hand.deal_positions == list(range(plan.next_head))
        assert referee.violations == [] and players.errors == []
    run(main())


def test_kongs_take_their_replacement_from_the_tail_after_the_key():
    total = 0
    for region in ("shenyang", "yichang", "changchun", "guangdong"):
        referee, players = run(referee_hands(region, seed=11, hands=6, style=KONGS), timeout=30)
        assert referee.violations == [] and players.errors == []   # no tail take without 杠 (or a flower)
        kongs = sum(h.kongs for h in referee.hands)
        assert kongs == sum(h.kong_keys for h in referee.hands) == players.stats.kongs
        assert all(t.end == "tail" for h in referee.hands for t in h.takes if t.reason == "kong")
        concealed = [a for a in players.journal if a.what == "kong" and a.detail.startswith("concealed")]
        long_presses = [a for a in players.journal if a.what == "press" and a.detail == "KONG long"]
        assert len(concealed) == len(long_presses)
        # the journal the control channel serves names no face-down tile (protocol.md §10): a concealed
        # kong's kind and a 宝 asked to be changed were named (a probe of the table's secrets)
        assert all(a.detail == "concealed" for a in concealed)
        assert all(a.detail == "" for a in players.journal if a.what == "change_bao")
        total += kongs
    assert total >= 4


@pytest.mark.parametrize("region", ["changchun", "sichuan", "hebei", "luoshan", "wuhan", "shanghai", "lisi"])
def test_a_winner_presses_hu_and_lays_a_legal_hand(region):
    referee, players = run(referee_hands(region, seed=4, hands=5, style=PlayStyle(defensive=0.0)), timeout=30)
    wins = [w for h in referee.hands for w in h.wins]
    assert wins and all(w.legal for w in wins), [w.failures for w in wins]
    assert referee.violations == [] and players.errors == []
    assert players.stats.wins == len(wins) and players.stats.false_wins == 0
    if not get_region(region).resolve().play.discard_win:
        assert all(w.discarder is None for w in wins)


@pytest.mark.parametrize("region", ["changchun", "hebei", "wuhan", "hangzhou", "nanchang", "dabao", "lisi"])
def test_players_never_draw_into_the_reserve_and_confirm_huangzhuang(region):
    referee, players = run(referee_hands(region, seed=8, hands=3, style=CAREFUL), timeout=30)
    assert referee.violations == [] and players.errors == []
    draws = [h for h in referee.hands if h.result == "draw"]
    assert draws, [h.result for h in referee.hands]
    ruleset = get_region(region).resolve()
    for hand in draws:
        head_draws = [t for t in hand.takes if t.reason == "draw"]
        assert all(t.live_before > 0 for t in head_draws)
        assert min(t.live_before for t in head_draws) == 1          # the wall was played to its end
    confirms = [a for a in players.journal if a.what == "confirm"]
    assert len(confirms) >= len(draws)
    assert ruleset.reserve.name != "none"


def test_manual_entry_when_the_read_zone_fails():
    referee, players = run(referee_hands("dongbei", seed=6, hands=2, style=PlayStyle(defensive=0.0),
                                         unreadable_zone=True), timeout=30)
    wins = [w for h in referee.hands for w in h.wins]
    assert wins and all(w.entered for w in wins) and all(w.legal for w in wins)
    assert referee.violations == [] and players.errors == []


def test_changchun_ready_seats_roll_for_the_bao_and_read_it_privately():
    referee, players = run(referee_hands("changchun", seed=3, hands=4), timeout=30)
    assert referee.violations == [] and players.errors == []
    assert players.stats.ready > 0
    bao_rolls = [a for a in players.journal if a.what == "roll" and a.detail == "宝"]
    assert 0 < len(bao_rolls) <= len(referee.hands)                  # the first ready seat of a hand
    tings = [a for a in players.journal if a.what == "ting"]
    assert all(a.seat in referee.sides for a in tings)


def test_yichang_exchanges_three_and_the_dealer_confirms():
    referee, players = run(referee_hands("yichang", seed=9, hands=2), timeout=30)
    assert referee.violations == [] and players.errors == []
    exchanges = [a for a in players.journal if a.what == "exchange"]
    assert len(exchanges) == 4 * len(referee.hands)
    wins = [w for h in referee.hands for w in h.wins]
    assert all(w.legal for w in wins)


def test_a_dead_bao_is_changed_once():
    async def main():
        ruleset = get_region("changchun").resolve()
        table = table_for(ruleset, 1)
        seen = Recorder()
        table.world.observers.append(seen)
        players = SimulatedPlayers(table, ruleset, seed=1)
        view = TableView(ruleset.players, 0)
        play = HandPlay(players.crew, None, view)     # the wall is not needed to look at the 宝
        player = players.crew.players[2]
        player.ready, player.bao = True, Tile.M5
        view.seats[2].ready = True
        view.seats[0].discards += [Tile.M5, Tile.M5]
        play.change_dead_bao()
        assert seen.keys == []
        view.seats[1].discards.append(Tile.M5)
        play.change_dead_bao()
        play.change_dead_bao()
        assert seen.keys == [(2, Key.DICE, False)]
    run(main())


def test_two_tables_in_one_process_play_on_their_own_and_repeat_exactly():
    async def both():
        return await asyncio.gather(referee_hands("shenyang", seed=21, hands=3),
                                    referee_hands("sichuan", seed=22, hands=3))

    (ref_a, pl_a), (ref_b, pl_b) = run(both(), timeout=40)
    ref_a2, pl_a2 = run(referee_hands("shenyang", seed=21, hands=3), timeout=30)
    assert [h.result for h in ref_a.hands] == [h.result for h in ref_a2.hands]
    assert [(a.seat, a.what, a.detail) for a in pl_a.journal] == [(a.seat, a.what, a.detail) for a in pl_a2.journal]
    assert ref_a.violations == ref_b.violations == [] and pl_a.errors == pl_b.errors == []
    assert len(ref_b.hands) == 3


def test_players_at_real_time_speed():
    async def main():
        ruleset = get_region("dongbei").resolve()
        table = SimulatedTable(seed=3, speed=2000, tile_sets=(ruleset.tiles, ruleset.tiles))
        table.clock.start()
        referee = Referee(table, ruleset, seed=3)
        players = SimulatedPlayers(table, ruleset, seed=3)
        task = asyncio.create_task(players.run())
        await referee.run(1)
        await stop(task)
        assert referee.violations == [] and players.errors == [] and referee.hands[0].result
        assert table.clock.now() > 20                      # the players took their time (virtually)
    run(main(), timeout=30)
