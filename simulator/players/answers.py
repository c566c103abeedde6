"""Answering what the table asks because it cannot see it (docs/table-flow.md, issue 16).

Every person at the table answers his own seat display as soon as it asks:
- `明杠来自:<choice>` after an exposed kong: ◀ ▶ to who gave the tile (or 补杠), 确认;
- `跟庄第N圈:<无|有>`: whether the N-th round's four discards all matched, ◀ ▶, 确认;
- `起手小和按胡 无则确认` after the deal (长沙): 胡 with an opening small win, else 确认; then
  `摆起手牌后确认`: lay the whole dealt hand, 确认;
- `亮副露后确认` / `亮手牌后确认` in the settlement round: lay the shown melds (and flowers), 确认;
  then everything, 确认.
Each line is answered once (a line that comes back after another is a new question).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from drivers.motor_protocol import Key
from drivers.table_ui import (FOLLOW_DEALER, KONG_FROM, LAY_OPENING, NO, OPENING_ASK, SHOW_HAND, SHOW_MELDS, YES,
                              parse_choice)
from rulesets.scoring.changsha import opening_small_wins

from .screen import Screen

if TYPE_CHECKING:
    from .crew import Crew

MAX_STEPS = 12          # ◀ ▶ presses on one question before settling for what is shown


class Answers:
    def __init__(self, crew: "Crew") -> None:
        self.crew = crew
        self.kong_givers: dict[int, list[str]] = {}     # seat → the answers it owes, oldest first
        self._replied: dict[int, str] = {}
        self._steps: dict[int, int] = {}

    def forget(self) -> None:
        """A new hand: nothing is owed, nothing was answered."""
        self.kong_givers.clear()
        self._replied.clear()
        self._steps.clear()

    def expect_kong(self, seat: int, answer: str) -> None:
        """This seat made an exposed kong: it will be asked who gave the tile."""
        self.kong_givers.setdefault(seat, []).append(answer)
        self._replied.pop(seat, None)

    def respond(self, screen: Screen) -> None:
        for seat in self.crew.sides:
            line = screen.prompt(seat)
            if self._replied.get(seat) == line:
                continue
            self._replied.pop(seat, None)
            if self._answer(seat, line):
                self._replied[seat] = line

    # -- one line ----------------------------------------------------------------------------

    def _answer(self, seat: int, line: str) -> bool:
        crew = self.crew
        player = crew.players[seat]
        if line == SHOW_MELDS:
            crew.table.lay(seat, player.shown_uids())
            crew.press(seat, Key.CONFIRM)
            crew.log(seat, "show", "melds")
            return True
        if line == SHOW_HAND:
            crew.table.lay(seat, player.all_uids())
            crew.press(seat, Key.CONFIRM)
            crew.log(seat, "show", "hand")
            return True
        if line == OPENING_ASK:
            declare = bool(opening_small_wins(player.kinds()))
            crew.press(seat, Key.HU if declare else Key.CONFIRM)
            if declare:
                crew.log(seat, "opening", " ".join(i.zh for i in opening_small_wins(player.kinds())))
            return True
        if line == LAY_OPENING:
            crew.table.lay(seat, list(player.hand))
            crew.press(seat, Key.CONFIRM)
            return True
        choice = parse_choice(line)
        if choice is None:
            return False
        question, current = choice
        if question == KONG_FROM and self.kong_givers.get(seat):
            return self._steer(seat, current == self.kong_givers[seat][0], lambda: self.kong_givers[seat].pop(0))
        if question.startswith(FOLLOW_DEALER) and crew.view is not None:
            round_number = int("".join(c for c in question if c.isdigit()) or 0)
            want = YES if crew.view.followed(round_number) else NO
            return self._steer(seat, current == want, lambda: crew.log(seat, "follow_dealer", f"{round_number} {want}"))
        return False

    def _steer(self, seat: int, on_target: bool, done) -> bool:
        steps = self._steps.get(seat, 0)
        if on_target or steps >= MAX_STEPS:
            self._steps.pop(seat, None)
            self.crew.press(seat, Key.CONFIRM)
            done()
        else:
            self._steps[seat] = steps + 1
            self.crew.press(seat, Key.RIGHT)
        return True


__all__ = ["Answers"]
