"""Faults at the table: they latch, show with their code, and clear only when a person acknowledges."""

import asyncio
import io

from drivers.messages import FaultCode
from drivers.motor_protocol import Key, Motor
from firmware.records.audit import audit_events, read_events
from firmware.simulated import run_simulated
from rulesets.regions import REGION_IDS, get_region
from simulator import parse_faults
from simulator.table import SimulatedTable
from tests.asyncio_support import run
from tests.busy_machine import LINK_EPISODE_CODES
from drivers.table_ui import (CHANGE_TILES, ENTRY, LAY_HAND, LAY_MELDS, NEW_HOUSE_RULES, NOT_A_WIN, RULES_KEPT,
                              RULES_NEXT_HAND, WIN_FROM, Phase)
from tests.firmware.scripted_players import DealerWins, WallWalker
from rulesets.tiles import parse_tiles


async def play(region_id, seed, hands, faults=(), helper=None, players=None):
    ruleset = get_region(region_id).resolve()
    table = SimulatedTable(seed=seed, speed=0, tile_sets=(ruleset.tiles, ruleset.tiles), faults=parse_faults(faults))
    await table.start("pty")
    events = io.StringIO()
    task = asyncio.create_task(helper(table)) if helper else None
    extra = {"players": players} if players is not None else {}
    try:
        await run_simulated(ruleset, hands=hands, seed=seed, events=events, table=table, **extra)
    finally:
        if task is not None:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
        await table.stop()
    return read_events(events.getvalue().splitlines())


def test_a_jammed_lane_latches_until_acknowledged_then_the_build_resumes():
    """The fault page shows E01 and stays, even once the jam is cleared, until a person presses 确认."""
    pages = []

    async def technician(table):
        while table.display.page != "fault":
            await table.changed(table.changes.version)
        code = table.display.text("fault", "t_code")
        table.clear_jam(1)                                   # the cause is gone: the latch stays
        pages.append(("before 确认", table.display.page, code))
        table.press("front", Key.CONFIRM)
        pages.append(("pressed", None, None))
        while table.display.page == "fault":
            await table.changed(table.changes.version)
        pages.append(("after", table.display.page, None))

    log = run(play("sichuan", 3, 1, ("jam=1:10",), technician), timeout=120)
    faults = [e for e in log if e["event"] == "fault" and e["code"] not in LINK_EPISODE_CODES]
    assert pages == [("before 确认", "fault", "E01"), ("pressed", None, None), ("after", "main", None)]
    assert faults and faults[0]["code"] == "E01" and faults[0]["latched"]
    assert audit_events(log) == [] and any(e["event"] == "hand_end" for e in log)


def test_a_fault_that_clears_shows_the_one_still_latched():
    """A jam (E01) waiting for a person, then the hatch opened and closed meanwhile: once the hatch's
    E12 clears, the fault page shows the jam again (it used to stay on E12 — 关好检修盖 with the hatch
    closed — and a person's 确认 seemed to do nothing)."""
    seen = []

    async def technician(table):
        async def until(condition):
            while not condition():
                await table.changed(table.changes.version)

        def shown():
            return table.display.page, table.display.text("fault", "t_code")
        await until(lambda: shown() == ("fault", "E01"))
        table.inject_fault("hatch_open")                    # unlatched and opened (a person with the key)
        await until(lambda: shown() == ("fault", "E12"))
        table.clear_fault("hatch_open")
        await until(lambda: shown() != ("fault", "E12"))
        seen.append(shown())
        table.clear_jam(1)
        table.press("front", Key.CONFIRM)
        await until(lambda: table.display.page == "main")
        seen.append(shown()[0])

    log = run(play("sichuan", 3, 1, ("jam=1:10",), technician), timeout=60)
    assert seen == [("fault", "E01"), "main"]
    assert audit_events(log) == [] and any(e["event"] == "hand_end" for e in log)


def test_a_shuffle_the_board_stopped_by_itself_is_asked_again_once_the_fault_is_cleared():
    """The mixer trips (over-current) as the first shuffle begins: the board stops every motor by
    itself (SafeStop) and sends no ShuffleDone.  Once a person acknowledges the fault, the shuffle is
    asked again and the table plays (campaign 820038, 上海: an emergency stop during the next set's
    shuffle left the build waiting for a ShuffleDone that never came, for ever)."""
    seen = []

    async def technician(table):
        table.trip_overcurrent(Motor.MIXER)                 # (armed before the controller's first shuffle)
        while table.display.page != "fault":
            await table.changed(table.changes.version)
        seen.append(table.display.text("fault", "t_code"))
        table.press("front", Key.CONFIRM)

    log = run(play("sichuan", 3, 1, (), technician), timeout=60)
    assert seen == [f"E{FaultCode.OVER_CURRENT:02d}"]
    assert any(e["event"] == "hand_end" for e in log) and audit_events(log) == []

ACKNOWLEDGE = "按确认"         # a latched fault's page, once its cause is gone


def test_a_fault_over_the_open_menu_keeps_its_page_and_gives_the_menu_back_when_it_clears():
    """The owner is choosing rules in the menu when the hatch is opened: the fault page shows; the
    menu's keys pressed meanwhile do nothing (recorded as dropped); once the hatch is closed the menu
    is back as the owner left it (it used to give way to the main page while still open, and an
    arrow pressed on the fault page replaced the fault with the menu)."""
    seen = []

    async def owner(table):
        async def until(condition):
            while not condition():
                await table.changed(table.changes.version)

        await until(lambda: "请出牌" in table.display.text("main", "t_msg"))
        table.press("front", Key.MENU)
        await until(lambda: table.display.page == "menu")
        opened = table.display.text("menu", "t_ruleset")
        table.press("front", Key.RIGHT)                      # the next region's line
        await until(lambda: table.display.text("menu", "t_ruleset") != opened)
        chosen = table.display.text("menu", "t_ruleset")
        table.inject_fault("hatch_open")
        await until(lambda: table.display.page == "fault")
        table.press("front", Key.RIGHT)                      # not the menu's while the fault is shown
        table.press("front", Key.BACK)
        table.clear_fault("hatch_open")                      # (reported behind the two keys, in order)
        # opened while the next set was being built under the table (a busy machine's race), the board
        # latched it and the page asks for 确认 once the hatch is closed: the owner presses it, as asked
        await until(lambda: table.display.page != "fault" or ACKNOWLEDGE in table.display.text("fault", "t_hint"))
        if table.display.page == "fault":
            table.press("front", Key.CONFIRM)
            await until(lambda: table.display.page != "fault")
        seen.append((table.display.page, table.display.text("menu", "t_ruleset") == chosen))
        table.press("front", Key.BACK)
        await until(lambda: table.display.page == "main")
        seen.append(table.display.page)

    log = run(play("sichuan", 3, 3, (), owner), timeout=120)
    assert seen == [("menu", True), "main"]
    dropped = [e for e in log if e["event"] == "keys_dropped" and e["why"] == "fault_shown"]
    assert [p["key"] for e in dropped for p in e["presses"]] == ["RIGHT", "BACK"]
    assert audit_events(log) == []

async def break_the_zones(table):
    """Once play begins, the four read-zone antennas die: a win must be entered on the seat panel."""
    while "请出牌" not in table.display.text("main", "t_msg"):
        await table.changed(table.changes.version)
    for unit in (4, 5, 6, 7):
        table.kill_antenna(unit)


def test_a_dead_read_zone_falls_back_to_entry_on_the_seat_panel():
    """The zones die during play; the dealer's win is entered on the seat panel and scored."""
    log = run(play("dongbei", 1, 1, (), break_the_zones, players=DealerWins), timeout=120)
    assert any(e["event"] == "zone_fallback" for e in log)
    win = next(e for e in log if e["event"] == "win")
    assert sorted(win["tiles"]) == sorted(str(t) for t in parse_tiles(DealerWins.HAND))
    assert any(e["event"] == "fault" and e["code"] == "E20" for e in log)
    assert audit_events(log) == []


class EntersATileTooMany(DealerWins):
    """The dealer enters 15 tiles on the seat panel (a person's slip), sees 诈胡, then the wall is
    walked to its end and 荒庄 confirmed."""

    HAND = "123m456m789m123p555p"

    async def after_deal(self) -> None:
        dealer = self.dealer()
        await self.press_and_see(dealer, Key.HU)
        if self.line(dealer, 1).startswith(WIN_FROM):
            await self.press_and_see(dealer, Key.CONFIRM)
        for prompt in (LAY_MELDS, LAY_HAND):
            await self.until(lambda: self.line(dealer, 1) == prompt)
            await self.press_and_see(dealer, Key.CONFIRM)
        await self.until(lambda: self.line(dealer, 1).startswith(ENTRY))
        await self.enter(dealer, parse_tiles(self.HAND))
        await self.until(lambda: self.line(dealer, 1) == NOT_A_WIN)
        await WallWalker.after_deal(self)


def test_a_hand_entered_with_a_tile_too_many_is_not_a_win_and_the_table_goes_on():
    """A wrong count entered on the seat panel is the person's slip: 诈胡 with the reason, never a crash."""
    log = run(play("dongbei", 1, 1, (), break_the_zones, players=EntersATileTooMany), timeout=120)
    false_win = next(e for e in log if e["event"] == "false_win")
    assert len(false_win["tiles"]) == 15 and "15 concealed tiles" in false_win["failures"][0]
    assert [e["result"] for e in log if e["event"] == "hand_end"] == ["draw"]
    assert audit_events(log) == []


async def owner_at_the_menu(settings: str, keys: tuple[Key, ...], said: list[str], when: str = "请出牌") -> list[dict]:
    """Two 长春 hands; when the public line first shows `when` (the first 请出牌) the owner presses `keys`
    on the front panel.  `said`: every text the public line shows from then on.  The recorder's events."""
    async def owner(table):
        while when not in table.display.text("main", "t_msg"):
            await table.changed(table.changes.version)
        table.display.watchers.append(lambda page, component, text: component == "t_msg" and said.append(text))
        for key in keys:
            table.press("front", key)

    return await two_changchun_hands(owner, settings)


async def two_changchun_hands(owner, settings: str, *, owner_ends: bool = False) -> list[dict]:
    """Two 长春 hands on a simulated table, `owner(table)` at it meanwhile (waited for at the end when
    `owner_ends`); the panel's choice saved in `settings`.  The recorder's events."""
    ruleset = get_region("changchun").resolve()
    table = SimulatedTable(seed=2, speed=0, tile_sets=(ruleset.tiles, ruleset.tiles))
    await table.start("pty")
    events = io.StringIO()
    task = asyncio.create_task(owner(table))
    try:
        await run_simulated(ruleset, hands=2, seed=2, events=events, table=table, settings_path=settings)
        if owner_ends:
            await task
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        await table.stop()
    return read_events(events.getvalue().splitlines())


def test_the_front_panel_chooses_the_next_ruleset_and_remembers_it(tmp_path):
    from firmware.panel import Settings
    said: list[str] = []
    # 长春 → 吉林 (same tiles), saved
    log = run(owner_at_the_menu(str(tmp_path / "s.db"), (Key.MENU, Key.RIGHT, Key.LIFT), said), timeout=120)
    starts = [e["ruleset"] for e in log if e["event"] == "hand_start"]
    assert starts == ["changchun", "jilin"]
    assert any(RULES_NEXT_HAND in text for text in said)      # the owner is told it waits for the next hand
    assert any(e["event"] == "ruleset_chosen" and e["ruleset"] == "jilin" for e in log)
    assert Settings(tmp_path / "s.db").ruleset_choice()[0] == "jilin"
    assert audit_events(log) == []


def test_rules_saved_before_the_walls_rise_are_the_next_hand_s(tmp_path):
    """Saved while the first set was being built (the push-in and the rise still to come), 吉林 was
    played only from the hand after: `新规则下局生效`, and hand 1 paid by 长春's rules; then a new
    session put the scores back to zero behind it (a probe, at every push-in)."""
    said: list[str] = []
    log = run(owner_at_the_menu(str(tmp_path / "s.db"), (Key.MENU, Key.RIGHT, Key.LIFT), said, when="洗牌中"),
              timeout=120)
    assert [e["ruleset"] for e in log if e["event"] == "hand_start"] == ["jilin", "jilin"]
    assert [e["ruleset"] for e in log if e["event"] == "session_start"] == ["changchun", "jilin"]
    assert [e["hand"] for e in log if e["event"] == "hand_end"] == [1, 2]
    assert audit_events(log) == []


def test_rules_that_need_other_tiles_are_said_with_the_push_in(tmp_path):
    """四川 (108 tiles) chosen on a 长春 table (136): `请更换牌具后重启` was written and the push-in's line
    wrote over it at once (a probe polling every 50 ms never saw it).  Said with the push-in now; the
    table plays on with the rules it has."""
    said: list[str] = []
    left = (len(REGION_IDS) - REGION_IDS.index("sichuan")) % len(REGION_IDS)
    log = run(owner_at_the_menu(str(tmp_path / "s.db"), (Key.MENU, *[Key.LEFT] * left, Key.LIFT), said), timeout=120)
    assert f"{Phase.PLAY.value} 四川麻将:{CHANGE_TILES}" in said and not any(RULES_NEXT_HAND in t for t in said), said
    assert any(text.startswith(Phase.PUSH_IN.value) and "上局" in text and f"四川麻将: {CHANGE_TILES}" in text
               for text in said), said
    assert [e["ruleset"] for e in log if e["event"] == "hand_start"] == ["changchun", "changchun"]


def test_rules_waiting_for_the_next_hand_stay_shown_beside_the_rules_in_play(tmp_path):
    """新规则下局生效 was on the line for about a second (the next take's phase wrote over it): nothing
    showed the choice waiting (a verifying probe).  The ruleset line shows it until it starts."""
    names: list[str] = []

    async def owner(table):
        while "请出牌" not in table.display.text("main", "t_msg"):
            await table.changed(table.changes.version)
        table.display.watchers.append(lambda page, component, text: component == "t_ruleset" and names.append(text))
        for key in (Key.MENU, Key.RIGHT, Key.LIFT):
            table.press("front", key)

    run(two_changchun_hands(owner, str(tmp_path / "s.db")), timeout=120)
    waiting = "长春麻将→吉林麻将"
    assert waiting in names and names[names.index(waiting) + 1:] == ["吉林麻将"], names     # until hand 2 began


def test_new_house_options_waiting_are_shown_as_such(tmp_path):
    """An option of the rules in play changed: the line read 长春麻将→长春麻将 (a soak)."""
    names: list[str] = []

    async def owner(table):
        while "请出牌" not in table.display.text("main", "t_msg"):
            await table.changed(table.changes.version)
        table.display.watchers.append(lambda page, component, text: component == "t_ruleset" and names.append(text))
        # 杠 底注 (the 10th option: the players play the same tiles), its next value
        to_kong_value = [o.key for o in get_region("changchun").options].index("kong_value")
        for key in (Key.MENU, Key.CONFIRM, *[Key.RIGHT] * to_kong_value, Key.CONFIRM, Key.LIFT):
            table.press("front", key)

    run(two_changchun_hands(owner, str(tmp_path / "s.db")), timeout=120)
    assert f"长春麻将→{NEW_HOUSE_RULES}" in names and names[-1] == "长春麻将", names


def test_a_choice_waiting_taken_back_is_said_and_plays_nothing_new(tmp_path):
    said: list[str] = []
    keys = (Key.MENU, Key.RIGHT, Key.LIFT, Key.MENU, Key.LEFT, Key.LIFT)   # 吉林 saved, then 长春 over it
    log = run(owner_at_the_menu(str(tmp_path / "s.db"), keys, said), timeout=120)
    assert any(RULES_KEPT in text for text in said), said
    assert [e["ruleset"] for e in log if e["event"] == "hand_start"] == ["changchun", "changchun"]
    assert sum(e["event"] == "session_start" for e in log) == 1


def test_the_menu_saved_unchanged_starts_no_new_session(tmp_path):
    """A probe at the table: 菜单 then 升降 (the panels' key for the next hand, an easy slip) saved the
    rules in play, and the next hand opened a new session: the scores back to zero, the first dealer
    rolled again."""
    said: list[str] = []
    log = run(owner_at_the_menu(str(tmp_path / "s.db"), (Key.MENU, Key.LIFT), said), timeout=120)
    assert any(e["event"] == "ruleset_chosen" for e in log)
    assert sum(e["event"] == "session_start" for e in log) == 1
    assert [e["hand"] for e in log if e["event"] == "hand_end"] == [1, 2]
    assert not any(RULES_NEXT_HAND in text for text in said)


def test_keys_that_answer_nothing_in_play_are_recorded_with_the_hand():
    """A probe at the table: the front panel's 确认 and ◀, a seat's 升降, pressed in play, answered
    nothing and were never recorded in a one-hand run (in a longer one, only at the next hand over,
    as pressed between hands).  They are recorded with the hand, as it ends."""
    async def players_slip(table):
        while "请出牌" not in table.display.text("main", "t_msg"):
            await table.changed(table.changes.version)
        table.press("front", Key.CONFIRM)
        table.press("front", Key.LEFT)
        table.press(1, Key.LIFT)

    log = run(play("sichuan", 3, 1, helper=players_slip), timeout=60)
    dropped = [(p["panel"], p["key"]) for e in log if e["event"] == "keys_dropped" and e["why"] == "in_play"
               and e["hand"] == 1 for p in e["presses"]]
    assert {(4, "CONFIRM"), (4, "LEFT"), (1, "LIFT")} <= set(dropped)
    assert audit_events(log) == []


def test_the_hatch_is_latched_again_once_it_is_closed():
    """A probe at the table: forced open once, the service hatch stayed unlatched for the rest of the
    run (nothing sent SetHatchLock)."""
    latched_again = []

    async def technician(table):
        while "请出牌" not in table.display.text("main", "t_msg"):
            await table.changed(table.changes.version)
        table.inject_fault("hatch_open")                    # unlatched and opened (a person with the key)
        assert not table.world.hatch_locked
        table.clear_fault("hatch_open")                     # and closed
        pressed = False
        while not table.world.hatch_locked:
            # opened while the next set was being built under the table (a busy machine's race), the
            # board latched it and the page asks for 确认 once the hatch is closed: pressed, as asked
            if not pressed and table.display.page == "fault" and ACKNOWLEDGE in table.display.text("fault", "t_hint"):
                table.press("front", Key.CONFIRM)
                pressed = True
            await table.changed(table.changes.version)
        latched_again.append(True)

    log = run(play("sichuan", 3, 1, helper=technician), timeout=60)
    assert latched_again and audit_events(log) == []


def test_an_open_hatch_is_shown_and_waited_for_without_spinning():
    """Issue 9: with the hatch open the table showed nothing and refused 23,415 Shuffles in 3 s."""
    seen = {}

    async def technician(table):
        while table.display.page != "fault":
            await table.changed(table.changes.version)
        seen["code"] = table.display.text("fault", "t_code")
        seen["hint"] = table.display.text("fault", "t_hint")
        seen["commands"] = table.motor.link.counters.commands
        table.close_hatch()                                  # no acknowledgement needed: it is an interlock

    log = run(play("sichuan", 3, 1, ("hatch_open",), technician, players=WallWalker), timeout=120)
    assert seen["code"] == "E12" and seen["hint"] == "关好检修盖"
    assert seen["commands"] < 20                              # one refused Shuffle and a snapshot, not thousands
    assert any(e["event"] == "fault" and e["code"] == "E12" and e["source"] == "interlock" for e in log)
    assert any(e["event"] == "hand_end" for e in log) and audit_events(log) == []


def test_a_confirm_before_the_walls_were_pushed_in_asks_for_the_push_in_again(monkeypatch):
    """确认 pressed at 请推牌入池 with the old walls' remains still on the raised plates: the board
    refuses to lower them (NOT_READY).  That ended the controller (found by the fault campaign after a
    restart at the push-in); it now asks for the push-in again, and the hand over goes on."""
    sweeps = []
    real_sweep = SimulatedTable.sweep

    def sweep(table):
        sweeps.append(1)
        if len(sweeps) == 2:                # the hand over after hand 1: nothing pushed in
            return 0
        return real_sweep(table)

    monkeypatch.setattr(SimulatedTable, "sweep", sweep)
    events = run(play("guangshui", 4, 2), timeout=120)
    assert len(sweeps) >= 3
    assert [e["hand"] for e in events if e["event"] == "hand_end"] == [1, 2]
    assert audit_events(events) == []
