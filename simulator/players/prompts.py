"""Answering a winner's prompts on his seat display (docs/table-flow.md §4, 胡).

After 胡 the controller asks, on the winner's line 1: `点炮:<choice>` (◀ ▶ to the discarder,
确认), `摆副露后确认` (lay shown melds, concealed kongs and flowers; 确认), `摆手牌后确认` (lay
everything; 确认), `胡牌:<tile>` on a discard (◀ ▶ to the winning tile; 确认), or, when the read
zone fails, `录入:<tile> <n>` (◀ ▶ to each tile, 确认 adds it, 胡 ends).  The answer shows as
`胡 +N` or `诈胡`.  Each seat is answered on its own, whenever its line changes; several winners
of one discard are answered side by side.  When the table says it restarted and is back at play
with nothing asked of a winner still waiting, his 胡 was lost (or its check abandoned): he presses
胡 again and answers from the start — unless his line shows the verdict of the hand he laid: a board
rebooted while the check went on (a restarted controller clears every seat's line), and 胡 pressed
again by a seat out of play (血战) would get no answer.  Once his hand was laid, a `胡 +N` is this
claim's even after he pressed 胡 again: the table shows a win only once its journal holds it, and
a 胡 from a seat that won already (no tile taken since, and none is while he waits) is told his
`胡 +N` again — the same line as a repaint after a board's reboot, and as true.  A `诈胡` is never
told again (胡 pressed again after it starts a new check): one shown after 胡 again, before the hand
is laid again, is a repaint, and he waits for the check his 胡 starts.
"""

from __future__ import annotations

from dataclasses import dataclass

from drivers.motor_protocol import Key
from drivers.table_ui import (CUT_OFF, ENTRY, LAY_HAND, LAY_MELDS, NOT_A_WIN, SELF_DRAWN, WIN_DONE, WIN_FROM,
                              WIN_TILE, Phase, parse_choice, relative_name)
from rulesets.tiles import Tile

from .crew import Crew
from .screen import tiles_in

MAX_STEPS = 60          # ◀ ▶ presses on one question before settling for what is shown


@dataclass(frozen=True)
class WinClaim:
    """What a winner lays and answers."""

    seat: int
    discarder: int | None
    win_tile: Tile
    shown: tuple[bytes, ...]           # melds, concealed kongs and flowers
    everything: tuple[bytes, ...]      # shown + the hand (the won tile included)
    entry: tuple[Tile, ...]            # for manual entry: every tile laid, melds first


@dataclass
class _Seat:
    claim: WinClaim
    last: str | None = None            # the line we last answered (its effect is not shown yet)
    restarts: int = 0                  # the table restarts seen when this seat last acted
    laid: bool = False
    laid_before: bool = False          # laid before 胡 was pressed again: a 胡 +N now is told again for it
    entered: int = 0
    steps: int = 0
    again: bool = False                # the restart note came while another seat's check ran: 胡 again at play
    cut_off: bool = False              # 截胡: a nearer seat's 胡 on the same discard is judged instead


def _answer(crew: Crew, state: _Seat, line: str) -> bool:
    """Press what the line asks for; False when it asks nothing of us."""
    claim = state.claim
    seat = claim.seat
    if line == LAY_MELDS:
        crew.table.lay(seat, list(claim.shown))
        crew.press(seat, Key.CONFIRM)
        return True
    if line == LAY_HAND:
        crew.table.lay(seat, list(claim.everything))
        state.laid = True
        crew.press(seat, Key.CONFIRM)
        return True
    choice = parse_choice(line)
    if choice is None:
        return False
    question, current = choice
    if question == WIN_FROM:
        target = SELF_DRAWN if claim.discarder is None else relative_name(seat, claim.discarder, crew.sides)
        return _steer(crew, state, current.split()[0] == target if current.split() else False)
    if question == WIN_TILE:
        shown = tiles_in(current)
        return _steer(crew, state, bool(shown) and shown[0] == claim.win_tile)
    if question == ENTRY:
        state.laid = True
        if state.entered >= len(claim.entry):
            crew.press(seat, Key.HU)
            return True
        shown = tiles_in(current)
        if shown and shown[0] == claim.entry[state.entered]:
            state.entered += 1
            state.steps = 0
            crew.press(seat, Key.CONFIRM)
            return True
        return _steer(crew, state, False)
    return False          # 宝:… or anything else: not a question for us


def _asks(line: str) -> bool:
    """The line is a question of the win check (not a 宝, a verdict or nothing)."""
    choice = parse_choice(line)
    return line in (LAY_MELDS, LAY_HAND) or (choice is not None and choice[0] in (WIN_FROM, WIN_TILE, ENTRY))


def _press_again(crew: Crew, state: _Seat) -> _Seat:
    """The table restarted and asks nothing of this winner: 胡 again, the answers from the start."""
    crew.press(state.claim.seat, Key.HU)
    crew.log(state.claim.seat, "hu", "again, after a restart")
    return _asked_again(crew, state)


def _asked_again(crew: Crew, state: _Seat) -> _Seat:
    """The seat's state once 胡 is pressed again for the same claim: its answers start over, and
    whether its hand was laid is kept — the table may have judged it and then tells that claim's
    `胡 +N` again, which must end the wait as the first telling would have."""
    # the notes seen so far are answered by this 胡: only a later one asks for it again
    return _Seat(state.claim, restarts=crew.restarts, laid_before=state.laid or state.laid_before)


def _steer(crew: Crew, state: _Seat, on_target: bool) -> bool:
    if on_target or state.steps >= MAX_STEPS:
        state.steps = 0
        crew.press(state.claim.seat, Key.CONFIRM)
    else:
        state.steps += 1
        crew.press(state.claim.seat, Key.RIGHT)
    return True


def _claim_again(crew: Crew, state: _Seat) -> _Seat:
    """Our questions are gone and the table says 请出牌 again without a verdict: the controller
    restarted in the middle of the check (its screens drawn again from the journal) and forgot
    it.  As a person would, press 胡 again; the check starts over from its first question."""
    crew.press(state.claim.seat, Key.HU)
    crew.log(state.claim.seat, "hu", "again: the check was interrupted")
    return _asked_again(crew, state)


def _verdict(state: _Seat, line: str, wins_once: bool = False) -> bool | None:
    """The check's result on the seat's line.  `wins_once` (血战: a winner leaves play): 胡 +N can
    only be this claim's, laid or not (told again when he pressed 胡 again after a reboot note);
    so is it once he laid this claim's hand before pressing 胡 again (`_asked_again`)."""
    won = parse_choice(line) is None and line.startswith(WIN_DONE + " ")
    if won and (wins_once or state.laid_before):
        return True
    if not state.laid:
        return None          # a result from an earlier win (血流成河), or an earlier 诈胡, is not this one's
    if line == NOT_A_WIN or line.startswith(NOT_A_WIN + " "):     # 诈胡, or 诈胡 -4 where it pays (大包)
        return False
    return True if won else None


async def answer_win(crew: Crew, claims: list[WinClaim]) -> dict[int, bool | None]:
    """Answer every winner's prompts until each shows 胡 +N (True) or 诈胡 (False).  When the
    hand ends first (the screens moved on before showing a result) the seat's answer is None."""
    pending = {c.seat: _Seat(c, restarts=crew.restarts) for c in claims}
    crew.claiming.update(pending)               # his own check: never taken back as one he did not ask for
    try:
        return await _answer_win(crew, pending)
    finally:
        crew.claiming.difference_update(c.seat for c in claims)


async def _answer_win(crew: Crew, pending: dict[int, _Seat]) -> dict[int, bool | None]:
    from .crew import OVER
    results: dict[int, bool | None] = {}
    wins_once = crew.ruleset.play.after_win == "xuezhan"
    while pending:
        screen = crew.eyes.look()
        crew.service(screen)
        for seat, state in list(pending.items()):
            line = screen.prompt(seat)
            if crew.restarts > state.restarts:
                verdict = _verdict(state, line, wins_once)
                if verdict is not None:
                    # A board rebooted while the check went on (a restarted controller clears every
                    # seat's line): the verdict that came after the note is this claim's.
                    results[seat] = verdict
                    del pending[seat]
                    continue
                if state.last is not None and crew.restart_phase is Phase.WIN_CHECK:
                    # The note came at 验牌中, during my check: a board rebooted (a restarted controller
                    # says so at play, its checks forgotten) and the check goes on.  My last answer may
                    # be lost with the board: a question shown again is answered again — the one
                    # shown now at once (the table draws the seats' lines before its note: no later
                    # change of the line would wake me for it).
                    state.restarts, state.last = crew.restarts, None
                    if not _asks(line):
                        continue
                elif not _asks(line):
                    state.restarts, state.last = crew.restarts, None      # what it asks from now on is new
                    if screen.phase in (Phase.PLAY, Phase.LAST_TILE):
                        pending[seat] = _press_again(crew, state)
                    else:
                        state.again = True  # 验牌中 for another's 胡 pressed again: mine once play shows
                    continue
                else:
                    # A question shown with the note is the restarted table's, to answer below: it draws
                    # every seat's lines again before its note (campaign 350000: a 胡 the board kept
                    # through the controller's restart was heard after the note and asked at once).
                    state.restarts, state.last = crew.restarts, None
            if line == state.last:
                continue
            if state.last is not None and line.startswith(CUT_OFF + " "):
                state.cut_off = True        # wait: if the nearer claim is no win, play shows again and we claim again
            verdict = _verdict(state, line, wins_once)
            if verdict is not None:
                results[seat] = verdict
                del pending[seat]
                continue
            if state.again and screen.phase in (Phase.PLAY, Phase.LAST_TILE) and not _asks(line):
                pending[seat] = _press_again(crew, state)
                continue
            if _answer(crew, state, line):
                state.last = line
            elif state.last is not None and screen.phase in (Phase.PLAY, Phase.LAST_TILE):
                pending[seat] = _claim_again(crew, state)
        if pending and screen.phase in OVER:
            for seat, state in pending.items():
                results[seat] = False if state.cut_off else None     # a nearer seat won the discard
            break
        if pending:
            await crew.eyes.changed(screen.version)
    return results


__all__ = ["WinClaim", "answer_win"]
