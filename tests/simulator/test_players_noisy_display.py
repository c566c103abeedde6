"""The simulated players at a display that loses instructions (a noisy wire: `display:drop`).

The display protocol has no acknowledgement; the controller paints the page showing again every
second (firmware/display_watch.py).  Until then the display may still show the last hand's dice
and indicator.  The players used to count the break, and the 财神's place, from dice the display
still showed from the hand before: they dealt from the wrong stacks (the table said 请按顺序取牌 and
waited for ever) or set aside the wrong tile (campaign seeds 880033 and 880011).  A person reads the
dice on the table and waits for the display to agree; so do they now."""

import asyncio

from firmware.simulated import run_simulated
from rulesets.regions import get_region
from simulator import parse_faults
from simulator.players import SimulatedPlayers
from simulator.table import SimulatedTable
from tests.asyncio_support import run


async def play_at_a_noisy_display(region_id: str, seed: int, hands: int, drop: float):
    ruleset = get_region(region_id).resolve({})
    table = SimulatedTable(seed=seed, speed=0, tile_sets=(ruleset.tiles, ruleset.tiles),
                           faults=parse_faults((f"display:drop={drop}",)))
    await table.start("pty")
    crews = []

    def players(table_, ruleset_, seed_):
        people = SimulatedPlayers(table_, ruleset_, seed=seed_)
        crews.append(people.crew)
        return people

    try:
        result = await run_simulated(ruleset, hands=hands, seed=seed, table=table, players=players)
    finally:
        await table.stop()
    return result, crews[0]


def players_at_a_table(region_id: str):
    """A simulated table not started (its display driven by the test) and its players' crew."""
    ruleset = get_region(region_id).resolve({})
    table = SimulatedTable(seed=1, speed=0, tile_sets=(ruleset.tiles, ruleset.tiles))
    return table, SimulatedPlayers(table, ruleset, seed=1).crew


def test_the_players_count_the_break_from_the_dice_on_the_table_not_a_stale_display():
    """温州: two rolls for the break, a third for the 财神, which the dealer takes out of the wall;
    three instructions in ten to the display lost."""
    result, crew = run(play_at_a_noisy_display("wenzhou", 2, hands=3, drop=0.3), timeout=240)
    assert result.hands == 3
    assert crew.errors == []


def test_dice_that_never_agree_with_the_display_are_looked_at_again_then_the_display_is_followed(monkeypatch):
    """The dice on the table rolled again after the table had taken their roll (as across its
    restart): the display never agrees with them.  The players look again for a few seconds, then
    count the break from the display, which is what the table counts from."""
    from simulator.motor_board import MotorBoardSim
    roll = MotorBoardSim._run_dice

    async def rolled_again(self, count):
        await roll(self, count)
        if self.world.dice:
            self.world.dice = tuple(7 - value for value in self.world.dice)   # every face other than the one told
    monkeypatch.setattr(MotorBoardSim, "_run_dice", rolled_again)
    result, crew = run(play_at_a_noisy_display("hainan", 1, hands=1, drop=0.0), timeout=120)
    assert result.hands == 1
    assert crew.errors == []


def test_the_last_hand_s_indicator_still_shown_is_not_taken_for_this_hand_s(monkeypatch):
    """温州: a display that never hears the indicator line cleared shows the last hand's 财神 until
    this hand's is shown.  The dealer takes the 财神 out once this hand's is shown, not at once."""
    from simulator.display_sim import DisplaySim
    execute = DisplaySim._execute

    def deaf_to_the_clearing(self, text):
        if text.replace(" ", "") not in ('main.t_ind.txt=""', 't_ind.txt=""'):
            execute(self, text)
    monkeypatch.setattr(DisplaySim, "_execute", deaf_to_the_clearing)
    result, crew = run(play_at_a_noisy_display("wenzhou", 3, hands=3, drop=0.0), timeout=240)
    assert result.hands == 3
    assert crew.errors == []


def test_a_garbled_message_line_is_waited_out_not_read_as_the_phase_moving_on():
    """A bit flipped on the wire can leave text the display still shows (请配沛 for 请配牌) until the
    page is painted again.  A player waiting for the deal to end read it as the hand over and waited
    for the next hand instead (campaign 925019, 钻牌); it is waited out, as a blank line is."""
    from drivers.table_ui import Phase
    table, crew = players_at_a_table("hainan")

    async def garbled_then_painted_again() -> None:
        display = table.display
        display.set_text("main", "t_msg", "请配牌")
        waiting = asyncio.create_task(crew.until(lambda s: s.phase is not Phase.DEAL))
        display.set_text("main", "t_msg", "请配沛")
        for _ in range(5):                          # (the waiter looks at every change in a turn or two)
            await asyncio.sleep(0)
        assert not waiting.done()
        display.set_text("main", "t_msg", "请配牌")
        display.set_text("main", "t_msg", "请出牌")
        assert (await waiting).phase is Phase.PLAY

    run(garbled_then_painted_again(), timeout=30)


def test_a_garbled_message_line_as_the_players_stop_looking_again_is_waited_out(monkeypatch):
    """The dice never agreed with the display, and as the players stopped looking again (after
    `REPAINTED_WITHIN_S`) the message line was garbled (请卿牌 for 请配牌): they read it as the hand
    over and waited for the next hand (campaign 940012, 钻牌).  The next readable line is read."""
    from drivers.table_ui import Phase
    from simulator.players import deal
    monkeypatch.setattr(deal, "REPAINTED_WITHIN_S", 0.0)        # the look again ends at once
    table, crew = players_at_a_table("zuanpai")

    async def garbled_as_the_look_ends() -> None:
        display = table.display
        display.set_text("main", "t_msg", "请配牌")
        dealing = crew.eyes.look()
        display.set_text("main", "t_msg", "请卿牌")
        looking = asyncio.create_task(deal.looked_again(crew, dealing, lambda s: False,
                                                        lambda s: s.phase is Phase.DEAL,
                                                        lambda s: s.phase is not Phase.DEAL))
        for _ in range(5):
            await asyncio.sleep(0)
        assert not looking.done()
        display.set_text("main", "t_msg", "请配牌")
        assert (await looking).phase is Phase.DEAL

    run(garbled_as_the_look_ends(), timeout=30)
