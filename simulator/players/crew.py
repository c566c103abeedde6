"""The people at one table: their eyes, their hands, the shared table top, and their manners.

`Crew` holds what every module of the players needs: the table, the region, the AI, each seat's
`Player`, a journal of what they did, and the habits every person at the table has — wait for
the screens to change instead of staring at them (`until`), roll the dice when one's seat display
says so and answer what it asks (`service`; the questions are answers.py's), and notice when the
table says it restarted (`restarts`): a key pressed as it stopped may never have been seen, so
whoever still waits on one presses it again.
"""

from __future__ import annotations

import random
from collections import deque
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable

from drivers.motor_protocol import Key
from drivers.table_ui import LAY_MELDS, RESTARTED, ROLL_BAO, ROLL_DICE, WIN_FROM, Phase, parse_choice
from rulesets.definition import Ruleset
from rulesets.tiles import Tile

from .answers import Answers
from .brain import Brain
from .knowledge import TableView
from .wall import LiveWall
from .player import Player
from .rules import RegionPlay
from .screen import Eyes, Screen, phase_of
from .style import PlayStyle

if TYPE_CHECKING:
    from ..table import SimulatedTable

OVER = (Phase.PUSH_IN, Phase.DICE, Phase.DEAL, Phase.IDLE, Phase.BUILDING, Phase.HAND_OVER)


class HandEnded(Exception):
    """The screens say the hand is over (or another began): back to waiting for the next one."""


class PlayersError(RuntimeError):
    """Something the players cannot make sense of (a foreign tile in hand, a wall not as counted)."""


@dataclass(frozen=True)
class Action:
    """One thing a player did, for tests and for a person reading along."""

    t: float              # table clock
    seat: int
    what: str             # "take", "draw", "tail", "discard", "pung", "chow", "kong", "flower", "ting", "hu", "press" …
    detail: str = ""


@dataclass
class Stats:
    hands: int = 0
    wins: int = 0
    self_drawn: int = 0
    discard_wins: int = 0
    false_wins: int = 0
    draws: int = 0
    kongs: int = 0
    pungs: int = 0
    chows: int = 0
    flowers: int = 0
    ready: int = 0
    per_hand: list[str] = field(default_factory=list)    # "win", "draw" (as the players saw it)


class Crew:
    def __init__(self, table: "SimulatedTable", ruleset: Ruleset, seed: int, style: PlayStyle) -> None:
        self.table = table
        self.ruleset = ruleset
        self.style = style
        self.sides = tuple(ruleset.players)
        self.eyes = Eyes(table)
        self.rules = RegionPlay(ruleset)
        self.brain = Brain(self.rules, style)
        self.players = {s: Player(s, self.identify, random.Random(f"{seed}/player/{s}")) for s in self.sides}
        self.rng = random.Random(f"{seed}/table")
        self.journal: deque[Action] = deque(maxlen=50_000)
        self.stats = Stats()
        self.errors: list[str] = []
        self.answers = Answers(self)
        self.view: TableView | None = None          # the hand being played (what everyone knows of it)
        self.wall: LiveWall | None = None           # …and its wall, as the players count it
        self.indicators_at_deal = ""               # the indicator line as the deal began: the last hand's, or none
        self._answered: dict[int, str] = {}
        self.claiming: set[int] = set()     # seats whose 胡 is being answered (prompts.answer_win)
        self._withdrawn: dict[int, str] = {}     # seat → the line a long 胡 took back
        self.restarts = 0                   # times the message line newly said the table restarted
        self.restart_phase: Phase | None = None     # the phase the last note came with (验牌中: a board rebooted)
        self._restart_shown = False
        self._restarts_serviced = 0
        self._actions_shown = 0                 # table.actions at the last thought the table had a turn
        table.display.watchers.append(self._read_message)      # people see a message, however brief

    def identify(self, uid: bytes) -> Tile:
        """A player looks at a tile he holds."""
        found = self.table.identify(uid)
        if found is None:
            raise PlayersError(f"tile {uid.hex()} is not one of this table's tiles")
        return found.kind

    def log(self, seat: int, what: str, detail: str = "") -> None:
        self.journal.append(Action(self.table.clock.now(), seat, what, detail))

    def press(self, seat: int, key: Key, long: bool = False) -> None:
        self.table.press(seat, key, long)
        self.log(seat, "press", key.name + (" long" if long else ""))

    # -- habits --------------------------------------------------------------------------------

    def service(self, screen: Screen) -> None:
        """Roll when one's seat display asks (请掷骰子 …, 请掷骰子定宝), once per prompt; answer the
        table's questions (who gave a kong, 跟庄, 起手小和, the settlement round's hands); after a
        restart every prompt standing is answered again."""
        if self._restarts_serviced != self.restarts:
            self._restarts_serviced = self.restarts
            self._answered.clear()
            self._withdrawn.clear()
            self.answers.forget(keep_owed=self.restart_phase is Phase.SPECIAL_KONGS, new_hand=False)
        self.answers.respond(screen)
        if not screen.any_prompt and not self._answered:
            return                  # no prompt, none answered before: no roll asked
        for seat in self.sides:
            line = screen.prompt(seat)
            self._withdraw_unasked(seat, line)
            if self._answered.get(seat) not in (None, line):
                del self._answered[seat]           # the prompt went away: the next one is new
            if line.startswith(ROLL_DICE) and self._answered.get(seat) != line:
                self._answered[seat] = line
                self.press(seat, Key.DICE)
                self.log(seat, "roll", "宝" if line.startswith(ROLL_BAO) else line)

    def _withdraw_unasked(self, seat: int, line: str) -> None:
        """A win check on a seat that pressed no 胡 for it (one the board delivered late, after his
        last check): he takes it back with a long 胡, as a person who sees a question he never asked."""
        if self._withdrawn.get(seat) not in (None, line):
            del self._withdrawn[seat]
        choice = parse_choice(line)
        asks = line == LAY_MELDS or (choice is not None and choice[0] == WIN_FROM)
        if asks and seat not in self.claiming and self._withdrawn.get(seat) != line:
            self._withdrawn[seat] = line
            self.press(seat, Key.HU, long=True)
            self.log(seat, "withdraw", line)

    def _read_message(self, page: str, component: str, text: str) -> None:
        """The public message line changed: a restart note newly shown counts once."""
        if (page, component) != ("main", "t_msg"):
            return
        shown = RESTARTED in text
        if shown and not self._restart_shown:
            self.restarts += 1
            self.restart_phase = phase_of(text)
            self.log(-1, "restart_seen", text)
        self._restart_shown = shown

    def forget_prompts(self) -> None:
        self._answered.clear()
        self.answers.forget()

    def dice_agree(self, screen: Screen) -> bool:
        """The last roll the display shows is the one the dice on the table show.  A display that lost
        an instruction (a noisy wire) shows the last hand's rolls until it is painted again (within a
        second: firmware/display_watch.py); a person reads the dice on the table and waits for the
        display to agree before counting the break from it."""
        rolls = screen.rolls()
        return bool(rolls) and rolls[-1] == tuple(self.table.world.dice)

    async def until(self, predicate: Callable[[Screen], bool]) -> Screen:
        """Wait (without polling) until the screens satisfy `predicate`; roll dice meanwhile.  A blank
        public line (the display rebooting, not painted again yet), or one no phase word begins (an
        instruction garbled on a noisy wire: 请配沛 for 请配牌, until it is painted again) says nothing: it
        is waited out, as a person waits for a screen that went dark or reads nonsense, never read as
        the phase having moved on."""
        while True:
            screen = self.eyes.look()
            self.service(screen)
            if screen.msg and screen.phase is not None and predicate(screen):
                return screen
            await self.eyes.changed(screen.version)

    async def think(self) -> None:
        """A moment's thought.  At speed 0 the table gets a turn of the loop only if the players did
        something its boards sense since its last turn (a take, a key): thinking alone shows it
        nothing, and a turn at every thought was a third of the simulated table's turns."""
        if not self._thought_alone():
            await self._thought_with_table()

    def _thought_alone(self) -> bool:
        """`think` where the table needs no turn (speed 0, nothing new sensed): the clock moves on at
        once (most of them: the players pause before every act; no coroutine is made for it)."""
        clock = self.table.clock
        if clock.speed == 0 and self.table.actions == self._actions_shown:
            clock.advance(self.style.think)
            return True
        return False

    async def _thought_with_table(self) -> None:
        self._actions_shown = self.table.actions
        await self.table.clock.sleep(self.style.think)

    async def pause(self, allowed: tuple[Phase, ...] = ()) -> Screen:
        """A moment to think before acting; waits out a fault; raises HandEnded when the hand
        is no longer running (a phase of `OVER` that is not `allowed`)."""
        if not self._thought_alone():         # (`think`)
            await self._thought_with_table()
        screen = self.eyes.look()
        self.service(screen)
        if screen.phase is Phase.FAULT:
            screen = await self.until(lambda s: s.phase is not Phase.FAULT)
        if screen.phase in OVER and screen.phase not in allowed:
            raise HandEnded(screen.msg)
        return screen
