"""A key pressed before play opens — during the deal or an opening phase — is no claim once it does.

The hand flow runs on `FakePorts` from the deal (or a restart) into play: the deal's tiles are taken
one by one, keys are pressed in between as the hub hands them over (`HandFlow.on_key` first, the
queue if it declines), and the table's machine moves as `firmware.machines` says.  Play waits for
nobody in these tests: once the written-down acts are done, the flow's wait times out (FakePorts),
and the test reads what the table showed, recorded and began until then.
"""

import pytest

from drivers.table_ui import EARLY_KEYS, RESTARTED, SELF_DRAWN, WIN_FROM, Key, Phase, choice_text
from firmware.hand.flow import HandFlow
from firmware.hand.ports import Press
from firmware.hand.state import HandState
from firmware.machines import TABLE_TRANSITIONS
from rulesets.regions import get_region
from rulesets.tiles import Tile
from rulesets.walls import Break, Layer, Slot
from tests.asyncio_support import run
from tests.firmware.fake_ports import FakePorts

NOBODY_ACTS = "nobody at the table|was written down"      # FakePorts: the acts are done, the table waits


class TablePorts(FakePorts):
    """FakePorts whose table machine moves as firmware.machines says; `order` lists the triggers
    stepped and the keys pressed, in the order they happened."""

    def __init__(self, ruleset, state: str) -> None:
        super().__init__(ruleset)
        self.table_state = state
        self.order: list[str] = []

    async def advance(self, trigger: str) -> None:
        self.order.append(trigger)
        self.table_state = next(dest for name, source, dest in TABLE_TRANSITIONS if name == trigger
                                and self.table_state in ([source] if isinstance(source, str) else source))


def a_table(phase: str = "dealing", state: str = "dealing") -> tuple[HandFlow, TablePorts, HandState]:
    """东北 (no opening phase, no indicator), dealer seat 0 (东; 南 西 北 follow); the hand at `phase`."""
    ruleset = get_region("dongbei").resolve()
    ring = ruleset.layout.ring(Break(0, 3))
    wall = {Slot(i, layer): Tile.M1 for i in range(len(ring)) for layer in (Layer.TOP, Layer.BOTTOM)}
    plan = ruleset.dealing.plan(0, ruleset.players)
    hand = HandState(ruleset, 1, 0, [(1, 2)], Break(0, 3), wall, plan.next_head, salt="s", phase=phase)
    ports = TablePorts(ruleset, state)
    flow = HandFlow(ports)
    flow.hand = hand
    return flow, ports, hand


def take_head(flow: HandFlow) -> None:
    """The next tile at the head leaves the wall (a deal tile, or a draw in play)."""
    hand = flow.hand
    stack = hand.ring[hand.tracker.next_head().ring]
    flow.on_wall_change(stack, hand.tracker.stack_tiles(stack) - 1)


def press(flow: HandFlow, ports: TablePorts, key: Press) -> None:
    """As the hub hands a key over: the hand may take it at once (听, 杠), or it waits in the queue."""
    ports.order.append(f"{key.key.name} {key.seat}")
    if not flow.on_key(key):
        ports.keys.put(key)


def the_deal(flow: HandFlow, ports: TablePorts, during: dict[int, Press]) -> list:
    """Acts: every deal tile taken, and `during[n]` pressed right after the n-th."""
    acts = []
    for n in range(flow.hand.deal_size):
        acts.append(lambda: take_head(flow))
        if n in during:
            acts.append(lambda key=during[n]: press(flow, ports, key))
    return acts


def test_a_hu_pressed_during_the_deal_starts_no_win_check_and_is_said():
    """西 presses 胡 while the tiles are dealt (nothing to win yet) and 北 presses 杠.  Play opens
    without a win check nobody meant (the seat would be asked to lay a hand, the table waiting on
    it); 请出牌 names the seats whose keys did not count, the recorder lists the keys, no kong is
    declared, and play goes on (the next tile is taken)."""
    flow, ports, hand = a_table()
    ports._acts = the_deal(flow, ports, {5: Press(2, Key.HU), 20: Press(3, Key.KONG, long=True)})
    ports._acts.append(lambda: take_head(flow))                 # play goes on: the next seat draws
    with pytest.raises(TimeoutError, match=NOBODY_ACTS):
        run(flow._run(hand), timeout=5)
    assert "hu" not in ports.order and Phase.WIN_CHECK.value not in ports.screens.phases
    assert not any(line.startswith(WIN_FROM) for line in ports.screens.lines[2])
    assert ports.screens.phases[-1] == f"{Phase.PLAY.value} {EARLY_KEYS}:西 北"
    (dropped,) = ports.recorder.all("keys_dropped")
    assert dropped["why"] == "before_play"
    assert dropped["presses"] == [{"panel": 2, "key": "HU", "long": False}, {"panel": 3, "key": "KONG", "long": True}]
    assert ports.recorder.all("kong_declared") == [] and hand.pending_kong == {}
    assert len(ports.recorder.all("take")) == hand.deal_size + 1
    assert len(ports.keys) == 0


def test_a_hu_pressed_once_play_is_open_starts_the_check_the_dealers_first_turn_too():
    """The dealer sees a win in his dealt hand and presses 胡 during the deal: it does not count
    (请出牌 says so); he presses 胡 again once 请出牌 shows, and that press starts his win check."""
    flow, ports, hand = a_table()
    ports._acts = the_deal(flow, ports, {30: Press(0, Key.HU)})
    ports._acts.append(lambda: press(flow, ports, Press(0, Key.HU)))
    with pytest.raises(TimeoutError, match=NOBODY_ACTS):       # the check waits for his answer
        run(flow._run(hand), timeout=5)
    assert ports.order[-3:] == ["revealed", "HU 0", "hu"]       # begun by the press made in play
    assert f"{Phase.PLAY.value} {EARLY_KEYS}:东" in ports.screens.phases
    assert ports.screens.last(0) == choice_text(WIN_FROM, SELF_DRAWN)
    assert [p["panel"] for p in ports.recorder.all("keys_dropped")[0]["presses"]] == [0]


def test_play_opens_without_a_word_when_nothing_was_pressed_before():
    flow, ports, hand = a_table()
    ports._acts = the_deal(flow, ports, {})
    with pytest.raises(TimeoutError, match=NOBODY_ACTS):
        run(flow._run(hand), timeout=5)
    assert ports.screens.phases[-1] == Phase.PLAY.value
    assert ports.recorder.all("keys_dropped") == []


def test_keys_a_board_sends_again_to_a_controller_restarted_in_play_count_as_pressed_in_play():
    """Restarted in play (the journal held the hand in play, so 请出牌 had been shown): a 杠 and a 胡
    pressed in play before the restart and sent again by the board after it are what they were — the
    kong is declared and the win check begins; nothing is dropped as pressed before play."""
    flow, ports, hand = a_table(phase="playing", state="idle")
    for _ in range(hand.deal_size):
        take_head(flow)
    flow.hand = None
    ports._acts = [lambda: press(flow, ports, Press(1, Key.KONG)), lambda: press(flow, ports, Press(2, Key.HU))]
    with pytest.raises(TimeoutError, match=NOBODY_ACTS):
        run(flow.resume(hand, totals=(0, 0, 0, 0), cause="restart"), timeout=5)
    assert [e["seat"] for e in ports.recorder.all("kong_declared")] == [1]
    assert ports.order[-2:] == ["HU 2", "hu"]
    assert ports.recorder.all("keys_dropped") == []
    assert f"{Phase.PLAY.value} {RESTARTED}" in ports.screens.phases


def test_a_controller_restarted_during_the_deal_drops_the_keys_from_before_play_and_says_which():
    """Restarted during the deal: a 确认 that reached it before it resumed is dropped as pressed before
    the restart (its note asks again), and a 胡 the board sends after it, pressed during the deal, is
    dropped as play opens — recorded both, no win check."""
    flow, ports, hand = a_table(phase="dealing", state="idle")
    for _ in range(10):
        take_head(flow)
    flow.hand = None
    ports.keys.put(Press(1, Key.CONFIRM))
    ports._acts = [lambda: press(flow, ports, Press(3, Key.HU))] + [lambda: take_head(flow)] * (hand.deal_size - 10)
    with pytest.raises(TimeoutError, match=NOBODY_ACTS):
        run(flow.resume(hand, totals=(0, 0, 0, 0), cause="restart"), timeout=5)
    assert "hu" not in ports.order
    assert [(e["why"], [p["panel"] for p in e["presses"]]) for e in ports.recorder.all("keys_dropped")] == [
        ("restart", [1]), ("before_play", [3])]
    assert ports.screens.phases[0] == f"{Phase.DEAL.value} {RESTARTED}"
    assert ports.screens.phases[-1] == f"{Phase.PLAY.value} {EARLY_KEYS}:北"


def test_the_log_names_each_dropped_key_and_why():
    from firmware.table_log import describe
    presses = [{"panel": 2, "key": "HU", "long": False}, {"panel": 4, "key": "DICE", "long": False}]
    level, line = describe({"event": "keys_dropped", "hand": 3, "why": "before_play", "presses": presses})
    assert line == ("hand 3: keys pressed before play began (nothing to claim yet) do not count: "
                    "seat 2 胡, front panel 骰子")


# -- at a simulated table ---------------------------------------------------------------------------

def test_at_a_simulated_table_a_hu_pressed_during_the_deal_is_no_claim_and_the_hand_is_played_out():
    """The 对家 of the dealer presses 胡 as the first tiles are dealt.  The simulated players, who
    meant nothing by it, play the hand out: no win check is begun for him before a tile is drawn in
    play (one would wait for answers he never gives: a stall), and the recorder lists his 胡."""
    from firmware.simulated import new_table, run_simulated

    ruleset = get_region("dongbei").resolve()
    events: list[dict] = []
    stray: list[int] = []
    early_checks: list[int] = []

    async def play() -> None:
        table = new_table(ruleset, seed=4, speed=0)
        await table.start("pty")

        real_take = table.take

        def take(side: int, stack: int) -> bytes:
            uid = real_take(side, stack)
            if len(stray) == 1:         # the first tile dealt: his 胡 follows it on the board's events
                stray.append(-1)
                table.press(stray[0], Key.HU)
            return uid
        table.take = take

        def on_event(event: dict) -> None:
            events.append(event)
            if event["event"] == "hand_start" and event["hand"] == 1:
                stray.append((event["dealer"] + 2) % 4)

        def on_session(session) -> None:
            check = session.flow.win_check
            real_win = check.win

            async def win(hand, seat: int) -> None:
                if seat == stray[0] and not hand.draws_after_deal():    # his 胡 from the deal, taken as a claim
                    early_checks.append(seat)
                    raise AssertionError(f"a win check for seat {seat} before any draw in play")
                await real_win(hand, seat)
            check.win = win

        try:
            await run_simulated(ruleset, hands=1, table=table, on_event=on_event, on_session=on_session)
        finally:
            await table.stop()

    run(play(), timeout=120)
    assert early_checks == []
    (dropped,) = [e for e in events if e["event"] == "keys_dropped"]
    assert dropped["hand"] == 1 and dropped["why"] == "before_play"
    assert {"panel": stray[0], "key": "HU", "long": False} in dropped["presses"]
    assert [e["hand"] for e in events if e["event"] == "hand_end"] == [1]


class _Wall:
    """A built set of 1m only, as the flow reads it (firmware.hand.ports.BuiltWall)."""

    tile_set = 0

    def in_ring_order(self, ring):
        return {Slot(i, layer): Tile.M1 for i in range(len(ring)) for layer in (Layer.TOP, Layer.BOTTOM)}


def test_keys_pressed_between_hands_count_in_no_hand_and_are_said():
    """南 pressed 胡 and 西 骰子 while the last hand was settled: the next hand begins without them (a
    骰子 would roll its dice unasked), and the recorder names them, as every key dropped is."""
    ports = TablePorts(get_region("dongbei").resolve(), "settling")
    ports.keys.put(Press(1, Key.HU))
    ports.keys.put(Press(2, Key.DICE))
    with pytest.raises(TimeoutError):                   # the new hand waits for its dealer's roll
        run(HandFlow(ports).play(_Wall(), number=2, dealer=0, totals=(0, 0, 0, 0)))
    (dropped,) = ports.recorder.all("keys_dropped")
    assert dropped["why"] == "before_hand"
    assert [(p["panel"], p["key"]) for p in dropped["presses"]] == [(1, "HU"), (2, "DICE")]
    assert len(ports.keys) == 0
