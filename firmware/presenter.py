"""What the table shows: the public display and the seat displays.

The presenter is the only writer of both.  It takes only public facts for the public display;
private information (a 长春 宝) has its own method that writes one seat's display and nothing
else.  Seat lines are cut at a character boundary to the longest line the motor board reported
in its handshake (Constant.SEAT_TEXT_BYTES).

`public_mirror()` is what anyone may see of both (the web view, firmware/web): every page of the
public display as drawn, and each seat's lines, line 1 left out while it holds private information.

Everything on the public display is Chinese and GB2312 (the display's fonts, protocol.md §7.1): a
text with a character outside GB2312 would reach the screen as "?", so the presenter says so in
the log (a bug to fix where the text is made).  Seats are named as the people at the table name
them: by their seat wind counted from the dealer (东 the dealer, then 南 西 北 in the order of
play), so the labels follow the dealer from hand to hand.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Callable, Protocol, Sequence

from drivers.nextion import ENCODING
from drivers.table_ui import FAULT_WAITS, RESTARTED, Phase, seat_status

from .faults import LatchedFault

log = logging.getLogger(__name__)

class DisplayLike(Protocol):
    def show_page(self, page: str) -> None: ...
    def set_text(self, page: str, component: str, text: str) -> None: ...
    def set_number(self, page: str, component: str, value: int) -> None: ...


SeatWriter = Callable[[int, int, str], None]     # queues one seat line (the controller sends it in order)
PhaseListener = Callable[[Phase, str], None]
SEATS = 4
WINDS_ZH = "东南西北"
EMPTY_SEAT = "空"                                  # a side that sits out (3-player rulesets)


def seat_winds(dealer: int, sides: Sequence[int]) -> dict[int, str]:
    """Each playing side's seat wind: the dealer is 东, then 南 西 北 in the order of play
    (side i+1 plays after side i); a side that sits out has none."""
    order = sorted(sides)
    first = order.index(dealer) if dealer in order else 0
    return {side: WINDS_ZH[(index - first) % len(order)] for index, side in enumerate(order)}


def gb2312_safe(text: str) -> bool:
    """Whether the public display can draw `text` (its fonts are GB2312)."""
    try:
        text.encode(ENCODING)
    except UnicodeEncodeError:
        return False
    return True


@dataclass(frozen=True)
class DisplayMirror:
    """The public display as drawn (page → component → text or number) and the seat lines anyone
    may read: (line 0, line 1), line 1 None while it holds private information (a 宝)."""

    page: str
    pages: dict[str, dict[str, str | int]]
    seats: tuple[tuple[str, str | None], ...]


def fit(text: str, limit: int) -> str:
    """Cut `text` to at most `limit` UTF-8 bytes without splitting a character."""
    out = []
    size = 0
    for char in text:
        size += len(char.encode())
        if size > limit:
            break
        out.append(char)
    return "".join(out)


class Presenter:
    def __init__(self, display: DisplayLike | None, seat_writer: SeatWriter, seat_text_bytes: int,
                 seat_lamps: Callable[[int, bool, bool], None] | None = None) -> None:
        self._display = display
        self._seat_writer = seat_writer
        self._seat_lamps = seat_lamps                    # (side, dealer, ready): the seat panel's lamps
        self._seat_text_bytes = seat_text_bytes
        self._shown: dict[tuple[str, str], object] = {}
        self._seats: dict[tuple[int, int], str] = {}
        self._private: set[int] = set()                  # seats whose line 1 holds private information
        self._listeners: list[Callable[[], None]] = []
        self._phase_listeners: list[PhaseListener] = []
        self._phase: Phase | None = None
        self._carried = ""                               # said with the next phase shown (`carry`)
        self._sides: tuple[int, ...] = tuple(range(SEATS))
        self._ruleset_name = ""
        self._dealer = 0
        self.page = "main"

    # -- the public mirror ---------------------------------------------------------------------

    def listen(self, listener: Callable[[], None]) -> None:
        """`listener()` runs after anything shown changed (it must not block)."""
        self._listeners.append(listener)

    def on_phase(self, listener: PhaseListener) -> None:
        """`listener(phase, detail)` runs when the message line moves to another phase (the log's
        progress lines); it must not block."""
        self._phase_listeners.append(listener)

    def _changed(self) -> None:
        for listener in self._listeners:
            listener()

    def public_mirror(self) -> DisplayMirror:
        pages: dict[str, dict[str, str | int]] = {}
        for (page, component), value in self._shown.items():
            pages.setdefault(page, {})[component] = value  # type: ignore[assignment]
        seats = tuple((self._seats.get((side, 0), ""), None if side in self._private else self._seats.get((side, 1), ""))
                      for side in range(SEATS))
        return DisplayMirror(self.page, pages, seats)

    # -- public display ------------------------------------------------------------------------

    def _text(self, component: str, text: str, page: str = "main", *, again: bool = False) -> None:
        """Show `text` (`again`: even if this process last showed the same)."""
        if again or self._shown.get((page, component)) != text:
            if not gb2312_safe(text):
                log.warning("display %s.%s: %r has characters outside GB2312; the display shows them as ?",
                            page, component, text)
            self._shown[(page, component)] = text
            if self._display is not None:
                self._display.set_text(page, component, text)
            self._changed()

    def _number(self, component: str, value: int) -> None:
        if self._shown.get(("main", component)) != value:
            self._shown[("main", component)] = value
            if self._display is not None:
                self._display.set_number("main", component, value)
            self._changed()

    def repaint(self, pages: tuple[str, ...] | None = None) -> int:
        """Send again what the display should show (every component of `pages`, all pages by
        default, then the page showing): after the display rebooted or fell silent, and a little at
        a time while it runs, since a lost instruction is never reported.  Returns how many went."""
        if self._display is None:
            return 0
        sent = 0
        for (page, component), value in self._shown.items():
            if pages is None or page in pages:
                if isinstance(value, int):
                    self._display.set_number(page, component, value)
                else:
                    self._display.set_text(page, component, str(value))
                sent += 1
        self._display.show_page(self.page)
        return sent

    def seat_sides(self) -> tuple[int, ...]:
        """The sides whose seat displays show a line."""
        return tuple(sorted({side for side, _ in self._seats}))

    def repaint_seats(self) -> None:
        """Send every seat display line again (the motor board rebooted: its seat displays are blank)."""
        for (side, line), text in self._seats.items():
            self._seat_writer(side, line, text)

    def show_page(self, page: str) -> None:
        if page != self.page:
            self.page = page
            if self._display is not None:
                self._display.show_page(page)
            self._changed()

    def phase(self, phase: Phase, detail: str = "") -> None:
        if phase is Phase.BUILDING:
            # under the table: what is carried waits for the next phase people are asked something in
            # (a hand voided at a restart said 洗牌中 上局作废 for a moment, then a push-in without it)
            carried = ""
        else:
            carried, self._carried = self._carried, ""
        detail = " ".join(part for part in (detail, carried) if part)
        self._message(phase, detail)
        if phase != self._phase:
            self._phase = phase
            for listener in self._phase_listeners:
                listener(phase, detail)

    def carry(self, detail: str) -> None:
        """Say `detail` with the next phase shown too, whatever shows it (a restart's note: a resumed
        opening phase, 换三张 or 起手小和, wrote its own line over the one that said it) — but 洗牌中, which
        asks nobody anything: the push-in after it says it."""
        self._carried = detail

    def carry_also(self, detail: str) -> None:
        """`carry`, after what is carried already (the last hand's result, said with the push-in)."""
        self._carried = " ".join(part for part in (self._carried, detail) if part)

    def note(self, detail: str) -> None:
        """Say `detail` after the phase shown now (a board that rebooted: keys it lost are pressed again)."""
        if self._phase is not None:
            self._message(self._phase, detail)

    def _message(self, phase: Phase, detail: str) -> None:
        """The public line.  A restart note is shown after the phase alone: the same words still up
        from an earlier note (a board's reboot, another process's) would change nothing on the
        screen, and nobody would see that the keys not answered are to be pressed again."""
        if RESTARTED in detail:
            self._text("t_msg", phase.value, again=True)
        self._text("t_msg", phase.value + (f" {detail}" if detail else ""))

    def drop_note(self) -> None:
        """The phase shown now without what was said with it (a restart note, a warning): the table
        moved on.  A note left up for the rest of a hand hid the next one: the same words again
        change nothing on the screen, and nobody sees that keys are to be pressed again."""
        if self._phase is not None:
            self._text("t_msg", self._phase.value)

    def phase_text(self, text: str) -> None:
        """A message line outside a hand (enrolment, service)."""
        self._text("t_msg", text)


    def ruleset(self, name: str, sides: Sequence[int] = tuple(range(SEATS))) -> None:
        """The ruleset's name, and the sides that play it (a 3-player ruleset leaves one empty)."""
        self._ruleset_name = name
        self._text("t_ruleset", name)
        self._sides = tuple(sides)
        self._seat_names()

    def rules_waiting(self, name: str | None) -> None:
        """Rules saved on the panel and not played yet, beside the rules in play until they start
        (`ruleset`), or none (taken back): said only in a note, the next phase wrote over them within a
        second (a verifying probe)."""
        self._text("t_ruleset", self._ruleset_name if name is None else f"{self._ruleset_name}→{name}")

    def round(self, text: str) -> None:
        self._text("t_round", text)

    def dealer(self, side: int, repeats: int) -> None:
        """The dealer: 东 on the seat labels (the others follow), and the 连庄 count."""
        self._dealer = side
        self._text("t_dealer", "东家坐庄" + (f" 连庄{repeats}" if repeats else ""))
        self._seat_names()

    def _seat_names(self) -> None:
        winds = seat_winds(self._dealer, self._sides)
        for side in range(SEATS):
            self._text(f"t_name{side}", winds.get(side, EMPTY_SEAT))

    def seat_name(self, side: int, dealer: int | None = None) -> str:
        """How the table names a side in a message ("南家"), counted from `dealer` (default: the
        dealer shown now)."""
        wind = seat_winds(self._dealer if dealer is None else dealer, self._sides).get(side)
        return f"{wind}家" if wind else f"边{side}"

    def dice(self, rolls: list[tuple[int, ...]]) -> None:
        self._text("t_dice", " / ".join("+".join(map(str, roll)) for roll in rolls))

    def stacks_left(self, live_tiles: int) -> None:
        self._number("n_left", (live_tiles + 1) // 2)

    def public_indicators(self, indicator_names: list[str], wild_names: list[str]) -> None:
        """Public indicator tiles and the wilds they make — never a private one."""
        self._text("t_ind", " ".join(indicator_names))
        self._text("t_wild", " ".join(wild_names))

    def scores(self, totals: tuple[int, ...]) -> None:
        for side, total in enumerate(totals):
            self._text(f"t_score{side}", f"{total:+d}")

    def menu(self, view: dict[str, str], open_: bool) -> None:
        """The front-panel menu page (firmware.panel.Menu.view)."""
        for component, text in view.items():
            self._text(component, text, "menu")
        self.show_page("menu" if open_ else "main")

    def service(self, lines: list[str]) -> None:
        """The technician's page's lines (firmware.service_page); the page is shown apart."""
        for index, text in enumerate(lines):
            self._text(f"t_line{index}", text, "service")

    def fault(self, fault: LatchedFault) -> None:
        """The fault page, in Chinese: the code, what happened (and where), what to do."""
        self._text("t_code", fault.label, "fault")
        self._text("t_text", fault.text_zh, "fault")
        self._text("t_hint", fault.hint.todo_zh, "fault")
        self.show_page("fault")

    def fault_line(self, fault: LatchedFault | None) -> None:
        """The main page's fault line: a fault under the table while a hand goes on (its page
        waits for the hand's end), blank when there is none."""
        self._text("t_fault", f"{fault.label} {fault.text_zh} {FAULT_WAITS}" if fault is not None else "")

    # -- seat displays -------------------------------------------------------------------------

    def seat(self, side: int, line: int, text: str) -> None:
        text = fit(text, self._seat_text_bytes)
        if self._seats.get((side, line)) != text:
            self._seats[(side, line)] = text
            self._seat_writer(side, line, text)
            self._changed()

    def seat_status(self, side: int, dealer: bool, score: int, ready: bool = False) -> None:
        self.seat(side, 0, seat_status(dealer, score, ready))
        if self._seat_lamps is not None:
            self._seat_lamps(side, dealer, ready)

    def prompt(self, side: int, text: str) -> None:
        was_private = side in self._private
        self._private.discard(side)
        before = self._seats.get((side, 1))
        self.seat(side, 1, text)
        if was_private and self._seats.get((side, 1)) == before:
            self._changed()                          # the same text, now public: the mirror changed

    def private(self, side: int, text: str) -> None:
        """Private information for one seat only (a 宝): line 1 of that seat's display, left out of
        the public mirror until a prompt replaces it."""
        self._private.add(side)
        self.seat(side, 1, text)
