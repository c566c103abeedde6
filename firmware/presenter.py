"""What the table shows: the public display and the seat displays.

The presenter is the only writer of both.  It takes only public facts for the public display;
private information (a 长春 宝) has its own method that writes one seat's display and nothing
else.  Seat lines are cut at a character boundary to the longest line the motor board reported
in its handshake (Constant.SEAT_TEXT_BYTES).

`public_mirror()` is what anyone may see of both (the web view, firmware/web): every page of the
public display as drawn, and each seat's lines, line 1 left out while it holds private information.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Protocol

from drivers.table_ui import Phase, seat_status

class DisplayLike(Protocol):
    def show_page(self, page: str) -> None: ...
    def set_text(self, page: str, component: str, text: str) -> None: ...
    def set_number(self, page: str, component: str, value: int) -> None: ...


SeatWriter = Callable[[int, int, str], None]     # queues one seat line (the controller sends it in order)
SEATS = 4


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
    def __init__(self, display: DisplayLike | None, seat_writer: SeatWriter, seat_text_bytes: int) -> None:
        self._display = display
        self._seat_writer = seat_writer
        self._seat_text_bytes = seat_text_bytes
        self._shown: dict[tuple[str, str], object] = {}
        self._seats: dict[tuple[int, int], str] = {}
        self._private: set[int] = set()                  # seats whose line 1 holds private information
        self._listeners: list[Callable[[], None]] = []
        self.page = "main"

    # -- the public mirror ---------------------------------------------------------------------

    def listen(self, listener: Callable[[], None]) -> None:
        """`listener()` runs after anything shown changed (it must not block)."""
        self._listeners.append(listener)

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

    def _text(self, component: str, text: str, page: str = "main") -> None:
        if self._shown.get((page, component)) != text:
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

    def show_page(self, page: str) -> None:
        if page != self.page:
            self.page = page
            if self._display is not None:
                self._display.show_page(page)
            self._changed()

    def phase(self, phase: Phase, detail: str = "") -> None:
        self._text("t_msg", phase.value + (f" {detail}" if detail else ""))

    def phase_text(self, text: str) -> None:
        """A message line outside a hand (enrolment, service)."""
        self._text("t_msg", text)


    def ruleset(self, name: str) -> None:
        self._text("t_ruleset", name)

    def round(self, text: str) -> None:
        self._text("t_round", text)

    def dealer(self, side: int, repeats: int) -> None:
        self._text("t_dealer", f"庄家 座位{side}" + (f" 连庄{repeats}" if repeats else ""))

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

    def seat_names(self, names: list[str]) -> None:
        for side, name in enumerate(names):
            self._text(f"t_name{side}", name)

    def menu(self, view: dict[str, str], open_: bool) -> None:
        """The front-panel menu page (firmware.panel.Menu.view)."""
        for component, text in view.items():
            self._text(component, text, "menu")
        self.show_page("menu" if open_ else "main")

    def fault(self, code: str, text: str, hint: str) -> None:
        self._text("t_code", code, "fault")
        self._text("t_text", text, "fault")
        self._text("t_hint", hint, "fault")
        self.show_page("fault")

    # -- seat displays -------------------------------------------------------------------------

    def seat(self, side: int, line: int, text: str) -> None:
        text = fit(text, self._seat_text_bytes)
        if self._seats.get((side, line)) != text:
            self._seats[(side, line)] = text
            self._seat_writer(side, line, text)
            self._changed()

    def seat_status(self, side: int, dealer: bool, score: int, ready: bool = False) -> None:
        self.seat(side, 0, seat_status(dealer, score, ready))

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
