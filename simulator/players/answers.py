"""Answering what the table asks because it cannot see it (docs/table-flow.md, issue 16).

Every person at the table answers his own seat display as soon as it asks:
- `第N杠来自:<choice>` after his N-th exposed kong of the hand: ◀ ▶ to who gave the tile (or 补杠),
  确认 — asked again after a restart, he answers for the kong it names;
- `跟庄第N圈:<无|有>`: whether the N-th round's four discards all matched, ◀ ▶, 确认;
- `起手小和按胡 无则确认` after the deal (长沙): 胡 with an opening small win, else 确认; then
  `摆起手牌后确认`: lay the whole dealt hand, 确认;
- `亮副露后确认` / `亮手牌后确认` in the settlement round: lay the shown melds (and flowers), 确认;
  then everything, 确认;
- `特殊杠:<choice>` after the deal (长春): ◀ ▶ to a special kong the dealt tiles still held make (with
  every addition, none for the dealer), or 无; `摆特殊杠后确认`: lay it, 确认; `特殊杠补牌 N`: take N
  tiles from the tail.
- 沈阳 亮牌 (`show_liang`, at the seat's own turn after its draw, never once it has declared 听): ▶;
  `摆亮牌后确认`: lay one each of 东南西北 (only while a live tile is left for the 过杠's replacement) or
  of 中发白, 确认; `亮牌补牌 1`: take the replacement from the tail; `亮牌 <set>` once shown.  Within the
  house option `liang_window` (first_draw: only within the first round of draws, as the table counts).
  A restart note before the table judged it: ▶ again (unless the table is asking to lay it: laid again);
  `摆亮牌后确认` with nothing to show (a ▶ pressed twice): 确认, which the table refuses.  The table's
  `亮牌补牌`/`亮牌 <set>` is the truth whenever it comes (the set becomes a meld; one replacement a hand).
- `拉庄:<无|有>` (十六张, to each payer of a dealer's win): the style's `la_zhuang` chance of 有.
- `财飘:<无|一飘|二飘|三飘>` (杭州, to the winner of a 爆头): 无 — these players never discard a 财神 (the
  brain keeps its wilds), so they made no 飘.
- `承包:<无|下家|对家|上家>` (上海, to a winner): 无 — these players do not count their claims by side.
Each line is answered once (a line that comes back after another is a new question).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from drivers.motor_protocol import Key
from drivers.table_ui import (CAI_PIAO, CHENGBAO, FIRST_YAOJI, FOLLOW_DEALER, LA_ZHUANG, LAY_CLOSED_KONGS, LAY_LIANG,
                              LAY_OPEN_KONGS, LAY_OPENING, LAY_SPECIAL, LIANG, LIANG_REFUSED, LIANG_REPLACE, NO,
                              NOT_DISCARDED, OPENING_ASK, SAN_CHI, SHOW_HAND, SHOW_MELDS, SPECIAL_KONG, SPECIAL_REFUSED,
                              SPECIAL_REPLACE, WON_ON, YAOJI_CLAIMED, YES, kong_from_nth, parse_choice, seat_name)
from rulesets.hand import Meld, MeldKind
from rulesets.scoring.changsha import opening_small_wins
from rulesets.special_kongs import SpecialKind, best_declaration, kongs_of, replacements_of
from rulesets.liang_pai import REPLACEMENTS, SETS, set_named
from rulesets.tiles import Tile

from .screen import Screen

if TYPE_CHECKING:
    from .crew import Crew

MAX_STEPS = 12          # ◀ ▶ presses on one question before settling for what is shown


@dataclass(frozen=True)
class LaidKong:
    """A special kong a seat laid and confirmed, until the table says it judged it."""

    kind: SpecialKind
    tiles: tuple[Tile, ...]
    uids: list[bytes]
    owed: int                       # its replacements
    counted: bool                   # they count as kongs for the reserve
    meld: Meld | None = None        # the meld this lay made; None once laid again (a refusal may then be
                                    # "shown already", and the meld stays)


class Answers:
    def __init__(self, crew: "Crew") -> None:
        self.crew = crew
        self.kong_givers: dict[int, list[str]] = {}     # seat → who gave each exposed kong it made this hand
        self._kongs_told: dict[int, int] = {}      # seat → the highest N of 第N杠来自 it answered
        self._kongs_asked: dict[int, int] = {}     # seat → the highest N of 第N杠来自 its line showed
        self._kongs_made_at: dict[int, list[int]] = {}   # seat → the table's restarts seen when each was made
        self._replied: dict[int, str] = {}
        self._steps: dict[int, int] = {}
        self._special: dict[int, tuple] = {}       # seat → (kind, tiles) it chose to show
        self._owed: dict[int, int] = {}            # seat → replacements to take once the table says so
        self._counted_owed: dict[int, bool] = {}   # seat → its owed replacements count as kongs for the reserve
        self._laid: dict[int, LaidKong] = {}       # seat → a special kong it laid that the table has not judged
        self._liang: dict[int, tuple[str, list[bytes]]] = {}   # seat → the 亮牌 it is laying (set name, tiles)
        self._liang_replaced: set[int] = set()     # seats that took their 东南西北 过杠's replacement this hand
        self._la_zhuang: dict[int, bool] = {}      # seat → its answer to the 拉庄 question standing

    def forget(self, keep_owed: bool = False, new_hand: bool = True) -> None:
        """A new hand, or a restart note: nothing is owed, nothing was answered.  `keep_owed`: the
        note came at 亮特殊杠 — a board rebooted, the controller goes on judging the special kong laid,
        and asks for its replacements (补N) once judged: they stay owed; and the special kong chosen
        is still the one laid if the table asks for it (摆特殊杠后确认: the choice was heard).  Who
        gave each kong is a fact of the hand: kept through a restart note (`new_hand` False)."""
        if not keep_owed:
            self._owed.clear()
            self._counted_owed.clear()
            self._special.clear()
        if new_hand:
            self.kong_givers.clear()
            self._kongs_told.clear()
            self._kongs_asked.clear()
            self._kongs_made_at.clear()
            self._laid.clear()
            self._liang.clear()                 # (a 亮牌 pressed outlives a restart note: judged or pressed again)
            self._liang_replaced.clear()
        self._replied.clear()
        self._steps.clear()
        self._la_zhuang.clear()

    def owed_replacements(self) -> bool:
        return bool(self._owed)

    def owes(self, seat: int, screen: Screen) -> bool:
        """This seat has made an exposed kong it has not yet said the giver of.  A question its line
        showed and no longer shows was answered, if not by him: a bounced 确认 can answer it before
        he steers, and the table does not ask again (campaign 650029: he waited for it for ever)."""
        told = self._kongs_told.get(seat, 0)
        asked = self._kongs_asked.get(seat, 0)
        if asked > told and self._kong_question(seat, screen) != asked:
            told = asked
        # a kong made before the table last restarted may be unknown to it (its 杠 lost with a board's
        # RAM: the question never comes; campaign 760029, 云南): only the later ones are waited for
        made_at = self._kongs_made_at.get(seat, [])
        return any(at == self.crew.restarts for at in made_at[told:])

    @staticmethod
    def _kong_question(seat: int, screen: Screen) -> int | None:
        choice = parse_choice(screen.prompt(seat))
        return None if choice is None else kong_from_nth(choice[0])

    def expect_kong(self, seat: int, answer: str) -> None:
        """This seat made an exposed kong: it will be asked who gave the tile (第N杠来自)."""
        self.kong_givers.setdefault(seat, []).append(answer)
        self._kongs_made_at.setdefault(seat, []).append(self.crew.restarts)
        self._replied.pop(seat, None)

    def respond(self, screen: Screen) -> None:
        if not screen.any_prompt and not self._replied:
            return                  # nothing asked, nothing answered before: nothing to do
        for seat in self.crew.sides:
            line = screen.prompt(seat)
            if self._replied.get(seat) == line:
                continue
            self._replied.pop(seat, None)
            if line and self._answer(seat, line):     # (an empty line asks nothing: most of the time)
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
        if line in (LAY_OPEN_KONGS, LAY_CLOSED_KONGS):
            crew.table.lay(seat, player.kong_uids(concealed_too=line == LAY_CLOSED_KONGS))
            crew.press(seat, Key.CONFIRM)
            crew.log(seat, "show", "kongs" if line == LAY_CLOSED_KONGS else "exposed kongs")
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
        if line == LAY_SPECIAL and seat not in self._special and seat in self._laid:
            # laid and confirmed, and asked again before it was judged: the 确认 was lost (a board
            # rebooted as it was pressed; 已重启 says so): the same kong is confirmed again
            laid = self._laid[seat]
            self._special[seat] = (laid.kind, laid.tiles)
        if line == LAY_SPECIAL and seat in self._special:
            self._show_special(seat)
            return True
        if line.startswith(SPECIAL_REPLACE) or line == SPECIAL_REFUSED:
            laid = self._laid.pop(seat, None)           # judged: the table knows that kong
            if line == SPECIAL_REFUSED and laid is not None and laid.meld is not None:
                self._take_back(seat, laid, laid.meld)
            if line == SPECIAL_REFUSED:
                # no replacement follows a refusal: a kong laid again that the table had accepted before
                # a restart (it asks for any replacements still owed first) is refused as already shown
                self._owed.pop(seat, None)
                self._counted_owed.pop(seat, None)
            elif laid is not None and seat not in self._owed:
                self._owed[seat], self._counted_owed[seat] = laid.owed, laid.counted   # asked after a restart
        if line.startswith(SPECIAL_REPLACE) and seat in self._owed:
            self._replace(seat)
            return True
        if (line == LAY_LIANG or line.startswith(LIANG)) and self._liang_line(seat, line):
            return True
        choice = parse_choice(line)
        if choice is None:
            return False
        question, current = choice
        nth = kong_from_nth(question)
        if nth is not None:
            self._kongs_asked[seat] = max(self._kongs_asked.get(seat, 0), nth)
        if nth is not None and nth <= len(self.kong_givers.get(seat, ())):
            want = self.kong_givers[seat][nth - 1]
            return self._steer(seat, current == want, lambda: self._told_kong(seat, nth, want))
        if question == SPECIAL_KONG and crew.view is not None:
            found = self._laid_again(seat) or self._declaration(seat)
            want = found[0].zh if found else NO
            return self._steer(seat, current == want, lambda: self._special.update({seat: found}) if found else None)
        if question == LA_ZHUANG:
            want = YES if self._la_zhuang.setdefault(seat, crew.rng.random() < crew.style.la_zhuang) else NO
            return self._steer(seat, current == want, lambda: crew.log(seat, "la_zhuang", want))
        if question == CAI_PIAO:
            return self._steer(seat, current == NO, lambda: crew.log(seat, question, NO))
        if question in (CHENGBAO, SAN_CHI, FIRST_YAOJI, YAOJI_CLAIMED):
            want = self._claims_answer(seat, question)
            return self._steer(seat, current == want, lambda: crew.log(seat, question, want))
        if question.startswith(FOLLOW_DEALER) and crew.view is not None:
            round_number = int("".join(c for c in question if c.isdigit()) or 0)
            want = YES if crew.view.followed(round_number) else NO
            return self._steer(seat, current == want, lambda: crew.log(seat, "follow_dealer", f"{round_number} {want}"))
        return False

    def _claims_answer(self, seat: int, question: str) -> str:
        """What the claims and discards everyone saw answer: 承包 (上海), 三吃承包 (杭州), and who discarded the
        hand's first 1条 and who 碰/杠'd it (贵州)."""
        view = self.crew.view
        if view is None:                # (between hands: nothing seen to answer from)
            return NOT_DISCARDED if question == FIRST_YAOJI else NO
        sides = self.crew.sides
        if question in (CHENGBAO, SAN_CHI):
            return seat_name(seat, view.chengbao_side(seat) if question == CHENGBAO else view.fed_three(seat), sides)
        first = view.first_yaoji()
        if question == FIRST_YAOJI:
            return seat_name(seat, first[0] if first else None, sides, NOT_DISCARDED)
        if first is not None and first[2]:
            return WON_ON
        return seat_name(seat, first[1] if first else None, sides)

    # -- 长春 opening special kongs --------------------------------------------------------------

    def _declaration(self, seat: int):
        player = self.crew.players[seat]
        dealt = [kind for uid, kind in player.hand.items() if uid in player.dealt]
        version = self.crew.ruleset.option("win_version")
        return best_declaration(dealt, version, additions_allowed=seat != self.crew.view.dealer)

    def _laid_again(self, seat: int):
        """A special kong this seat laid and confirmed, asked about again before the table judged it
        (a restarted controller whose journal never held it asks from the question on): the same
        kong, still lying in the zone, is declared again."""
        laid = self._laid.get(seat)
        return None if laid is None else (laid.kind, laid.tiles)

    def _show_special(self, seat: int) -> None:
        """Lay the chosen special kong and make it a shown meld; its kongs count as the table counts them."""
        crew = self.crew
        kind, tiles = self._special.pop(seat)
        laid = self._laid.get(seat)
        if laid is not None and laid.kind == kind:      # laid before: confirmed again, counted once
            crew.table.lay(seat, laid.uids)
            crew.press(seat, Key.CONFIRM)
            self._owed[seat], self._counted_owed[seat] = laid.owed, laid.counted
            self._laid[seat] = replace(laid, meld=None)     # a refusal now may be "shown already"
            crew.log(seat, "special_kong", f"{kind.zh} again")
            return
        player = crew.players[seat]
        uids = []
        for tile in tiles:
            uids.append(next(u for u, k in player.hand.items() if k == tile and u in player.dealt and u not in uids))
        crew.table.lay(seat, uids)
        crew.press(seat, Key.CONFIRM)
        meld = player.add_meld(MeldKind.SPECIAL, uids)
        crew.view.seats[seat].melds.append(meld)
        self._owed[seat] = replacements_of(meld, kind)
        self._counted_owed[seat] = self._counted()
        self._laid[seat] = LaidKong(kind, tiles, uids, self._owed[seat], self._counted_owed[seat], meld)
        if self._counted():
            crew.wall.declare_kongs(kongs_of(meld, kind) - self._owed[seat])
        crew.log(seat, "special_kong", f"{kind.zh} {' '.join(t.zh for t in tiles)}")

    def _take_back(self, seat: int, laid: LaidKong, meld: Meld) -> None:
        """The table refused the special kong just laid (its read missed a tile, say): as a person
        would, the tiles go back into the hand, the meld goes, and so do the kongs it counted."""
        crew = self.crew
        crew.players[seat].take_back(meld)
        crew.view.seats[seat].melds.remove(meld)
        if laid.counted:
            crew.wall.declare_kongs(laid.owed - kongs_of(meld, laid.kind))
        crew.log(seat, "special_kong", f"{laid.kind.zh} refused: taken back")

    def _replace(self, seat: int) -> None:
        crew = self.crew
        counted = self._counted_owed.pop(seat, False)
        for _ in range(self._owed.pop(seat)):
            uid = crew.wall.take_tail(counted)
            crew.players[seat].receive(uid)
            crew.players[seat].last_drawn = uid
            crew.log(seat, "tail", "special kong" if seat not in self._liang else "亮牌")

    # -- 沈阳 亮牌 ------------------------------------------------------------------------------------

    def liang_set(self, seat: int, can_replace: bool) -> tuple[str, list[bytes]] | None:
        """A set this seat may show now (东南西北 needs a live tile left for its replacement), or None."""
        crew = self.crew
        player = crew.players[seat]
        window = crew.ruleset.option("liang_window")
        if player.ready or window == "off" or crew.view is None:
            return None
        if window == "first_draw":
            dealt = crew.ruleset.dealing.plan(crew.view.dealer, crew.ruleset.players).next_head
            if crew.wall.head_taken - dealt >= len(crew.sides):
                return None
        for name, kinds in SETS.items():
            if name in self.shown_sets(seat) or (name == "东南西北" and not can_replace):
                continue
            uids = [player.uids_of(kind, 1) for kind in kinds]
            if all(uids):
                return name, [u[0] for u in uids]
        return None

    def shown_sets(self, seat: int) -> set[str]:
        """The 亮牌 sets this seat has on the table (its special melds)."""
        return {name for m in self.crew.players[seat].meld_tuple()
                if m.kind is MeldKind.SPECIAL and (name := set_named(m.tiles)) is not None}

    async def show_liang(self, seat: int, can_replace: bool) -> tuple[bool, bytes | None]:
        """Show a 亮牌 if the hand holds one: (shown, the replacement drawn for a 东南西北 过杠)."""
        found = self.liang_set(seat, can_replace)
        if found is None:
            return False, None
        from .crew import OVER
        crew = self.crew
        drawn_before = crew.players[seat].last_drawn
        self._liang[seat] = found
        self._press_liang(seat)
        while True:
            restarts = crew.restarts
            # a restart note before the table judged it: the ▶ may be lost (the note asks for unanswered
            # keys again), so once his line neither asks him to lay it (that is answered again: `_answer`)
            # nor judges it, ▶ again
            screen = await crew.until(lambda s: seat not in self._liang or s.phase in OVER or (
                crew.restarts > restarts and s.prompt(seat) != LAY_LIANG and not s.prompt(seat).startswith(LIANG)))
            if seat not in self._liang or screen.phase in OVER:
                break
            self._press_liang(seat)
        self._liang.pop(seat, None)
        shown = found[0] in self.shown_sets(seat)
        drawn = crew.players[seat].last_drawn
        return shown, drawn if shown and drawn != drawn_before else None

    def _press_liang(self, seat: int) -> None:
        self.crew.press(seat, Key.RIGHT)
        self.crew.log(seat, "liang", self._liang[seat][0])

    def _liang_line(self, seat: int, line: str) -> bool:
        """Answer a line of a 亮牌: lay the set he is showing (none: 确认 on an empty hand of it, a ▶
        pressed twice across a restart, which the table refuses); the table's judgement is the truth
        whenever it comes: a set it says is shown is a meld, and a 过杠 draws its replacement once."""
        crew = self.crew
        if line == LAY_LIANG:
            if seat in self._liang:
                crew.table.lay(seat, list(self._liang[seat][1]))
            crew.press(seat, Key.CONFIRM)
            return True
        if line == LIANG_REFUSED:
            if seat in self._liang:
                crew.log(seat, "liang", f"{self._liang.pop(seat)[0]} refused")
            return True
        name = next(n for n, owed in REPLACEMENTS.items() if owed) if line.startswith(LIANG_REPLACE) \
            else line.removeprefix(f"{LIANG} ")
        if name not in SETS:
            return False
        self._liang_meld(seat, name)
        if line.startswith(LIANG_REPLACE):
            if seat not in self._liang_replaced:        # (the line shown again after a board's reboot)
                self._liang_replaced.add(seat)
                self._owed[seat], self._counted_owed[seat] = 1, True
                self._replace(seat)
            return True
        crew.log(seat, "liang", f"{name} shown")
        self._liang.pop(seat, None)
        return True

    def _liang_meld(self, seat: int, name: str) -> None:
        """The set the table says this seat shows, as a meld (once): the tiles he laid, or one each
        of its kinds from his hand."""
        player = self.crew.players[seat]
        if name in self.shown_sets(seat):
            return
        laying = self._liang.get(seat)
        uids = list(laying[1]) if laying is not None and laying[0] == name else \
            [found[0] for kind in SETS[name] if (found := player.uids_of(kind, 1))]
        if len(uids) == len(SETS[name]):
            self.crew.view.seats[seat].melds.append(player.add_meld(MeldKind.SPECIAL, uids))

    def _counted(self) -> bool:
        return self.crew.ruleset.option("special_kongs_count") == "yes"

    def _told_kong(self, seat: int, nth: int, giver: str) -> None:
        self._kongs_told[seat] = max(self._kongs_told.get(seat, 0), nth)
        self.crew.log(seat, "kong_from", f"{nth} {giver}")

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
