"""The simulated Nextion display: it executes our instruction subset and keeps the screen as data.

`screen` holds, for every page and component of the layout, the last text, number and
visibility the controller drew; `page` is the page showing.  `touch()` plays a finger on a
component; `reboot()` a power glitch (page 0, every component back to its default, the
start-up and ready returns sent again).  Wrong instructions answer with the Nextion error codes
(bkcmd ≥ 2), as a real display would.  Every change of what is shown is announced on `changes` (simulator/changes.py),
so players can await the screen instead of polling it.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Callable

from drivers.display_layout import LAYOUT, DisplayLayout
from drivers.nextion import (Code, InstructionDecoder, NextionError, NumberReturned, PageShown,
                             Ready, Result, Started, StringReturned, Touch, encode_return,
                             parse_instruction)
from drivers.stream import ByteStream

from .changes import Changes


@dataclass
class ComponentState:
    text: str = ""
    value: int = 0
    visible: bool = True


class DisplaySim:
    def __init__(self, layout: DisplayLayout = LAYOUT, changes: Changes | None = None) -> None:
        self.layout = layout
        self.changes = changes if changes is not None else Changes()
        self.log: deque[str] = deque(maxlen=1000)
        self.watchers: list[Callable[[str, str, str], None]] = []     # (page, component, text) at each new text
        self.errors = 0
        self.boots = 1
        self._stream: ByteStream | None = None
        self._power_on()

    def _power_on(self) -> None:
        """What a display shows when it starts: page 0, every component at its default."""
        self.page = self.layout.pages[0].name
        self.screen: dict[str, dict[str, ComponentState]] = {
            page.name: {c.name: ComponentState() for c in page.components} for page in self.layout.pages}
        self.bkcmd = 2                 # the Nextion default
        self._decoder = InstructionDecoder()

    def attach(self, stream: ByteStream) -> None:
        self._stream = stream
        stream.set_receiver(self._on_bytes, lambda exc: None)
        self._send(Started())
        self._send(Ready())

    def reboot(self) -> None:
        """The display restarts (a power glitch): the screen is lost, start-up returns follow."""
        self.boots += 1
        self._power_on()
        self.changes.notify()
        self._send(Started())
        self._send(Ready())

    def _send(self, item: object) -> None:
        if self._stream is not None:
            self._stream.write(encode_return(item))  # type: ignore[arg-type]

    # -- what a person sees and does ---------------------------------------------------------------

    def text(self, page: str, component: str) -> str:
        return self.screen[page][component].text

    def value(self, page: str, component: str) -> int:
        return self.screen[page][component].value

    def set_text(self, page: str, component: str, text: str) -> None:
        """Draw a text as the controller would (for in-process drivers such as tests)."""
        state = self.screen[page][component]
        if state.text != text:
            state.text = text
            self._shown(page, component, text)
            self.changes.notify()

    def _shown(self, page: str, component: str, text: str) -> None:
        """A new text is on the screen: whoever watches sees it, however soon it is replaced."""
        for watcher in self.watchers:
            watcher(page, component, text)

    def set_value(self, page: str, component: str, value: int) -> None:
        state = self.screen[page][component]
        if state.value != value:
            state.value = value
            self.changes.notify()

    def touch(self, page: str, component: str) -> None:
        """Press and release a component (the page must be showing, as on a real screen)."""
        if page != self.page:
            raise ValueError(f"page {page!r} is not showing (the display shows {self.page!r})")
        p = self.layout.page(page)
        c = p.component(component)
        self._send(Touch(p.id, c.id, True))
        self._send(Touch(p.id, c.id, False))

    # -- instructions --------------------------------------------------------------------------------

    def _on_bytes(self, data: bytes) -> None:
        for item in self._decoder.feed(data):
            if isinstance(item, NextionError):
                self._fail(Code.BUFFER_OVERFLOW)
                continue
            self.log.append(item)
            self._execute(item)

    def _fail(self, code: int) -> None:
        self.errors += 1
        if self.bkcmd >= 2:
            self._send(Result(code))

    def _ok(self) -> None:
        if self.bkcmd in (1, 3):
            self._send(Result(Code.SUCCESS))

    def _resolve(self, target: str) -> tuple[str, str] | int:
        page, _, component = target.rpartition(".")
        page = page or self.page
        if page not in self.screen:
            return Code.INVALID_PAGE
        if component not in self.screen[page]:
            return Code.INVALID_COMPONENT
        return page, component

    def _execute(self, text: str) -> None:
        try:
            ins = parse_instruction(text)
        except NextionError:
            self._fail(Code.INVALID_INSTRUCTION)
            return
        if ins.op == "page":
            name = str(ins.target)
            page = self.layout.page_by_id(int(name)) if name.isdigit() else (
                self.layout.page(name) if name in self.screen else None)
            if page is None:
                self._fail(Code.INVALID_PAGE)
                return
            if self.page != page.name:
                self.page = page.name
                self.changes.notify()
        elif ins.op in ("txt", "val", "vis"):
            where = self._resolve(ins.target)
            if isinstance(where, int):
                self._fail(where)
                return
            page, component = where
            kind = self.layout.page(page).component(component).kind
            state = self.screen[page][component]
            before = (state.text, state.value, state.visible)
            if ins.op == "txt":
                if kind == "number":
                    self._fail(Code.INVALID_VARIABLE)
                    return
                state.text = str(ins.value)
                if state.text != before[0]:
                    self._shown(page, component, state.text)
            elif ins.op == "val":
                if kind != "number":
                    self._fail(Code.INVALID_VARIABLE)
                    return
                state.value = int(ins.value)
            else:
                state.visible = bool(ins.value)
            if (state.text, state.value, state.visible) != before:
                self.changes.notify()
        elif ins.op == "set":
            if ins.target == "bkcmd":
                self.bkcmd = int(ins.value)
        elif ins.op == "sendme":
            self._send(PageShown(self.layout.page(self.page).id))
        elif ins.op == "get":
            target, _, attr = str(ins.value).rpartition(".")
            where = self._resolve(target)
            if isinstance(where, int) or attr not in ("txt", "val"):
                self._fail(where if isinstance(where, int) else Code.INVALID_VARIABLE)
                return
            state = self.screen[where[0]][where[1]]
            self._send(StringReturned(state.text) if attr == "txt" else NumberReturned(state.value))
            return
        self._ok()
