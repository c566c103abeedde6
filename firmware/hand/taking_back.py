"""Taking a take back: the part of the hand's state that undoes takes whose tiles were put back on
the wall (docs/controller.md, "A tile put back"; the screens and the recorder: put_back.py).

What undoing the last takes needs (the tracker keeps its own counts: `WallTracker.take_back`), the
stacks read holding tiles put back that no take yet explains, and the tail takes counted as kongs
that no 杠 claimed (one put back and taken again with a 杠 pending is that kong's) are journaled with
the hand, so a restart in the middle changes nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping, NamedTuple

from rulesets.walls import End, Slot, StackPos

from .tracker import UNDO_KEPT, LastRows, Take, hole, slot_from, slot_json

if TYPE_CHECKING:
    from rulesets.definition import Ruleset

    from .facts import HandFacts

    from .tracker import WallTracker

PUT_BACK_EARLY = "tiles lifted after it by mistake are still out"     # (put_back: not a take that stands)


class _BeforeTake(NamedTuple):
    """The hand as a take found it: whether putting the tile back can undo it, and what that restores."""

    wins: int
    reveals: int
    replaced_a_kong: bool       # the replacement of a 杠 pressed (a seat was credited with the kong)
    replaced_for: int | None
    lapsed: tuple = ()          # the 杠 pending it lapsed, (seat, concealed) each: undone, they stand again


def _before_row(before: _BeforeTake) -> list:
    """A take's `_BeforeTake` as the journal keeps it."""
    return [*before[:4], [list(kong) for kong in before.lapsed]]


class Undone(NamedTuple):
    """A take undone, and the 杠 pending it had lapsed that stand again: (seat, concealed) each."""

    take: Take
    restored: tuple = ()


class TakingBack:
    """HandState's takes undone (a mix-in: it reads the hand's tracker, wins, indicators and phase)."""

    tracker: WallTracker
    ruleset: Ruleset
    wins: list
    reveals: list
    phase: str
    deal_size: int
    bao_used: set
    pending_kong: dict[int, bool]
    facts: HandFacts
    last_take: Take | None
    replaced_for: int | None
    over: bool

    def draws_after_deal(self) -> int: ...

    def begin_undo(self) -> None:
        # the last takes': what put_back checks and restores
        self._before_takes: LastRows[_BeforeTake] = LastRows(_before_row, UNDO_KEPT)
        self._standing: dict[StackPos, int] = {}     # stacks read holding tiles put back whose takes stand
        self._unclaimed: set[Slot] = set()           # tail takes counted as kongs that no 杠 pressed claimed

    def note_take(self, take: Take) -> None:
        """A take is being made (before the hand reacts to it): what undoing it checks and restores."""
        self._before_takes.append(_BeforeTake(len(self.wins), len(self.reveals),
                                              take.reason == "kong" and bool(self.pending_kong), self.replaced_for))

    def note_lapsed(self, lapsed: Mapping[int, bool]) -> None:
        """The take just noted lapsed these pending 杠 (seat → concealed): undoing it restores them
        (the kong's maker drew from the head by mistake and put it straight back)."""
        self._before_takes.replace_last(self._before_takes[-1]._replace(lapsed=tuple(lapsed.items())))

    def undo_json(self) -> dict[str, Any]:
        return self._undo_json(self._before_takes.json())

    def undo_journal_parts(self) -> tuple[dict[str, Any], dict[str, str]]:
        """`undo_json()` with a hole where the rows of the last takes go, and their text
        (`tracker.encode_with`)."""
        return self._undo_json(hole("before_takes")), {"before_takes": self._before_takes.text()}

    def _undo_json(self, before_takes: Any) -> dict[str, Any]:
        return {"before_takes": before_takes,
                "put_back_standing": [[pos.wall, pos.stack, tiles] for pos, tiles in self._standing.items()],
                "unclaimed_kongs": sorted(slot_json(slot) for slot in self._unclaimed)}

    def restore_undo(self, data: Mapping[str, Any]) -> None:
        """From a journal (an older one has neither: nothing to undo)."""
        self._before_takes = LastRows(_before_row, UNDO_KEPT, (
            _BeforeTake(*before[:4], tuple(map(tuple, before[4] if len(before) > 4 else ())))
            for before in data.get("before_takes", ())))
        self._standing = {StackPos(wall, stack): tiles for wall, stack, tiles in data.get("put_back_standing", ())}
        self._unclaimed = {slot_from(slot) for slot in data.get("unclaimed_kongs", ())}

    def put_back(self, pos: StackPos, tiles: int) -> tuple[list[Undone], str]:
        """`pos`'s sensor reads `tiles`, more than the hand counts: tiles were put back.  The hand's last
        takes from the stacks holding tiles put back are undone as if never made, last first, for as
        long as the last take is from one of them and can be undone — so stacks lifted from in turn
        and put back in any order are all undone once all are back.  Only a take that changed nothing
        beyond the wall's count can be undone (a tail take nobody's 杠 asked for counts a kong for the
        reserve: that is undone too; a head draw that lapsed a 杠 pending: undone, the 杠 stands
        again): one that replaced a 杠 or set an indicator aside, completed the deal, was the 宝's, was
        跟庄's fourth draw, or came before a win or an indicator shown, stands, as does every take
        outside the deal, the reveals after it and play.  Returns the takes undone and,
        while `pos` still holds tiles its takes do not explain, why (PUT_BACK_EARLY: tiles lifted
        after it by mistake are still out; else its take stands)."""
        self._standing[pos] = tiles
        undone, why = self._unwind()
        self._standing = {stack: read for stack, read in self._standing.items()
                          if read > self.tracker.stack_tiles(stack)}
        return undone, why if pos in self._standing else ""

    def stack_counted(self, pos: StackPos, tiles: int) -> bool:
        """`pos` reads `tiles` and made no take: a stack holding a tile put back may be as counted
        again (returns whether it now is: the tile was taken again)."""
        if pos not in self._standing:
            return False
        if tiles > self.tracker.stack_tiles(pos):
            self._standing[pos] = tiles
            return False
        del self._standing[pos]
        return True

    def kong_unclaimed(self, take: Take) -> None:
        """A tail take counted as a kong that no 杠 pressed claimed (`claim_retaken` may, later)."""
        self._unclaimed.add(take.slot)

    @property
    def last_take_unclaimed(self) -> bool:
        """The hand's last take is a tail tile counted as a kong that no 杠 claimed."""
        last = self.tracker.last_takes(1)
        return bool(last) and last[0].slot in self._unclaimed

    def claim_last_take(self) -> Slot | None:
        """The hand's last take, a tail tile no 杠 claimed, claimed now by the 杠 pressed after it (the
        replacement taken before the press): its slot, or None if the last take is no such tile.  Put
        back after this, it stands, as a 杠's replacement does."""
        if not self.last_take_unclaimed or not self._before_takes:
            return None
        slot = self.tracker.last_takes(1)[0].slot
        self._unclaimed.discard(slot)
        self._before_takes.replace_last(self._before_takes[-1]._replace(replaced_a_kong=True))
        return slot

    def claim_retaken(self, pos: StackPos) -> Slot | None:
        """`pos`'s tile put back was taken again: the slot of its take if that was a kong no 杠
        claimed (now claimed), else None."""
        slot = next((slot for slot in self._unclaimed if self.tracker.ring[slot.ring] == pos), None)
        self._unclaimed.discard(slot)
        return slot

    def recount_standing(self, sensors: Mapping[int, tuple[int, ...]]) -> None:
        """After nobody watched: the stacks holding tiles put back whose takes stood, as the sensors
        read them now (one taken again meanwhile is as counted)."""
        for pos in list(self._standing):
            row = sensors.get(pos.wall, ())
            if pos.stack < len(row):
                self.stack_counted(pos, row[pos.stack])

    @property
    def tiles_put_back_stand(self) -> bool:
        """Some stack holds a tile put back whose take stands (the screen asks for it again)."""
        return bool(self._standing)

    def _unwind(self) -> tuple[list[Undone], str]:
        extra = {pos: tiles - self.tracker.stack_tiles(pos) for pos, tiles in self._standing.items()}
        takes, why = self._undoable(extra)
        return self._undo(len(takes)), why

    def put_backs_found(self, higher: Mapping[StackPos, int]) -> tuple[list[Take], str | None]:
        """Stacks found holding more tiles than the hand counts (`higher`: stack → tiles) after nobody
        watched: the hand's last takes put back meanwhile, last first (`take_back` undoes them), when
        they are exactly those tiles and can be undone; else why the walls cannot be this hand's.  A
        stack read so before, its take standing, is no news."""
        extra = {pos: tiles - self.tracker.stack_tiles(pos) for pos, tiles in higher.items()
                 if self._standing.get(pos) != tiles}
        takes, _ = self._undoable(extra)
        if len(takes) == sum(extra.values()):
            return takes, None
        pos = next(pos for pos, count in extra.items() if count > sum(1 for take in takes if take.stack == pos))
        return [], f"stack {pos.stack} of side {pos.wall} holds {higher[pos]} tile(s); this hand had left " \
                   f"{self.tracker.stack_tiles(pos)}"

    def take_back(self, count: int) -> list[Undone]:
        """Undo the hand's last `count` takes (`put_backs_found` named them), last first."""
        return self._undo(count)

    def _undoable(self, extra: Mapping[StackPos, int]) -> tuple[list[Take], str]:
        """The hand's last takes, last first, that tiles put back (`extra`: stack → tiles more than
        counted) undo: for as long as the last take is from a stack with tiles still unexplained and
        can be undone.  And why the walk stopped short ("" once every tile is explained).  Nothing
        is changed."""
        left = dict(extra)
        takes = self.tracker.last_takes(len(self._before_takes))
        for index, take in enumerate(takes):
            if not any(count > 0 for count in left.values()):
                return takes[:index], ""
            if left.get(take.stack, 0) <= 0:
                return takes[:index], PUT_BACK_EARLY if not take.in_order else "not the last taken"
            later = takes[:index]            # (undone before it: the counts it is judged by are without them)
            why = self._stands(take, self._before_takes[-1 - index],
                               self.tracker.head_taken - sum(1 for t in later if t.end is End.HEAD),
                               self.draws_after_deal() - sum(1 for t in later if t.reason == "draw"))
            if why:
                return takes[:index], why
            left[take.stack] -= 1
        if any(count > 0 for count in left.values()):
            return takes, "taken before the takes this hand keeps to undo"
        return takes, ""

    def _undo(self, count: int) -> list[Undone]:
        undone = []
        for _ in range(count):
            take = self.tracker.take_back()
            self._unclaimed.discard(take.slot)
            if self.facts.shown_take == take.slot:          # 云南 尾牌 put back: no 杠上开花 is owed for it
                self.facts.shown_take = None
            before = self._before_takes.pop()
            self.replaced_for = before.replaced_for
            self.pending_kong.update(before.lapsed)
            undone.append(Undone(take, before.lapsed))
        self.last_take = next(reversed(self.tracker.taken.values()), None)
        return undone

    def _stands(self, take: Take, before: _BeforeTake, head_taken: int, draws: int) -> str:
        """Why `take`, put back, cannot be undone ("" if it can); `head_taken` and `draws` count the
        head takes and draws with it, without the takes after it."""
        if before.replaced_a_kong:
            return "a 杠's replacement"
        if take.reason in ("set_aside", "special"):
            return "an indicator set aside" if take.reason == "set_aside" else "a special kong's replacement"
        if take.reason == "deal" and head_taken == self.deal_size:
            return "it completed the deal"
        if self.over or self.phase not in ("dealing", "revealing", "playing"):
            return f"the hand is at {self.phase}, not in play"
        if take.slot in self.bao_used:
            return "the 宝's tile"
        if take.reason == "draw" and self.ruleset.has_phase("follow_dealer") and draws % 4 == 0:
            return "跟庄 was asked at it"
        if (before.wins, before.reveals) != (len(self.wins), len(self.reveals)):
            return "a win or an indicator came after it"
        return ""
