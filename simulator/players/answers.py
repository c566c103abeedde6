"""Answering what the table asks because it cannot see it (docs/table-flow.md, issue 16).

Every person at the table answers his own seat display as soon as it asks:
- `明杠来自:<choice>` after an exposed kong: ◀ ▶ to who gave the tile (or 补杠), 确认;
- `跟庄第N圈:<无|有>`: whether the N-th round's four discards all matched, ◀ ▶, 确认;
- `起手小和按胡 无则确认` after the deal (长沙): 胡 with an opening small win, else 确认; then
  `摆起手牌后确认`: lay the whole dealt hand, 确认;
- `亮副露后确认` / `亮手牌后确认` in the settlement round: lay the shown melds (and flowers), 确认;
  then everything, 确认;
- `特殊杠:<choice>` after the deal (长春): ◀ ▶ to a special kong the dealt tiles still held make (with
  every addition, none for the dealer), or 无; `摆特殊杠后确认`: lay it, 确认; `特殊杠补牌 N`: take N
  tiles from the tail.
Each line is answered once (a line that comes back after another is a new question).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from drivers.motor_protocol import Key
from drivers.table_ui import (FOLLOW_DEALER, KONG_FROM, LAY_OPENING, LAY_SPECIAL, NO, OPENING_ASK, SHOW_HAND,
                              SHOW_MELDS, SPECIAL_KONG, SPECIAL_REPLACE, YES, parse_choice)
from rulesets.hand import MeldKind
from rulesets.scoring.changsha import opening_small_wins
from rulesets.special_kongs import best_declaration, kongs_of, replacements_of

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
        self._special: dict[int, tuple] = {}       # seat → (kind, tiles) it chose to show
        self._owed: dict[int, int] = {}            # seat → replacements to take once the table says so

    def forget(self) -> None:
        """A new hand: nothing is owed, nothing was answered."""
        self.kong_givers.clear()
        self._replied.clear()
        self._steps.clear()
        self._special.clear()
        self._owed.clear()

    def owed_replacements(self) -> bool:
        return bool(self._owed)

    def owes(self, seat: int) -> bool:
        """This seat still has to say who gave one of its kongs."""
        return bool(self.kong_givers.get(seat))

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
        if line == LAY_SPECIAL and seat in self._special:
            self._show_special(seat)
            return True
        if line.startswith(SPECIAL_REPLACE) and seat in self._owed:
            self._replace(seat)
            return True
        choice = parse_choice(line)
        if choice is None:
            return False
        question, current = choice
        if question == KONG_FROM and self.kong_givers.get(seat):
            return self._steer(seat, current == self.kong_givers[seat][0], lambda: self.kong_givers[seat].pop(0))
        if question == SPECIAL_KONG and crew.view is not None:
            found = self._declaration(seat)
            want = found[0].zh if found else NO
            return self._steer(seat, current == want, lambda: self._special.update({seat: found}) if found else None)
        if question.startswith(FOLLOW_DEALER) and crew.view is not None:
            round_number = int("".join(c for c in question if c.isdigit()) or 0)
            want = YES if crew.view.followed(round_number) else NO
            return self._steer(seat, current == want, lambda: crew.log(seat, "follow_dealer", f"{round_number} {want}"))
        return False

    # -- 长春 opening special kongs --------------------------------------------------------------

    def _declaration(self, seat: int):
        player = self.crew.players[seat]
        dealt = [kind for uid, kind in player.hand.items() if uid in player.dealt]
        version = self.crew.ruleset.option("win_version")
        return best_declaration(dealt, version, additions_allowed=seat != self.crew.view.dealer)

    def _show_special(self, seat: int) -> None:
        """Lay the chosen special kong and make it a shown meld; its kongs count as the table counts them."""
        crew = self.crew
        kind, tiles = self._special.pop(seat)
        player = crew.players[seat]
        uids = []
        for tile in tiles:
            uids.append(next(u for u, k in player.hand.items() if k == tile and u in player.dealt and u not in uids))
        crew.table.lay(seat, uids)
        crew.press(seat, Key.CONFIRM)
        meld = player.add_meld(MeldKind.SPECIAL, uids)
        crew.view.seats[seat].melds.append(meld)
        self._owed[seat] = replacements_of(meld, kind)
        if self._counted():
            crew.wall.declare_kongs(kongs_of(meld, kind) - self._owed[seat])
        crew.log(seat, "special_kong", f"{kind.zh} {' '.join(t.zh for t in tiles)}")

    def _replace(self, seat: int) -> None:
        crew = self.crew
        for _ in range(self._owed.pop(seat)):
            uid = crew.wall.take_tail(self._counted())
            crew.players[seat].receive(uid)
            crew.players[seat].last_drawn = uid
            crew.log(seat, "tail", "special kong")

    def _counted(self) -> bool:
        return self.crew.ruleset.option("special_kongs_count") == "yes"

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
