"""A small codec for the Nextion HMI serial protocol subset we use (protocol.md §7).

Host → display: ASCII instructions ended by FF FF FF (`page main`, `main.t_msg.txt="…"`,
`main.n_left.val=42`, `vis main.t_wild,0`, `bkcmd=2`, `sendme`).  Text is GB2312, the
encoding of the display project's Chinese fonts; GB2312 never produces 0xFF, so a terminator
cannot appear inside text.

Display → host: a code byte, a fixed or delimited body, FF FF FF.  Numeric returns (0x71)
carry 4 raw bytes that may themselves be 0xFF, so fixed-length returns are cut by length, not
by searching for the terminator.

Both directions are here (the simulator plays the display), so a round trip can be tested.
"""

from __future__ import annotations

import re
import struct
from dataclasses import dataclass
from types import MappingProxyType

from .errors import FrameError

TERMINATOR = b"\xff\xff\xff"
ENCODING = "gb2312"
MAX_RETURN = 256          # longest return (string data) before the decoder gives up on it
MAX_INSTRUCTION = 1024


class NextionError(FrameError):
    """Bytes from or to the display that do not form a return or instruction."""


# -- instructions (host → display) ---------------------------------------------------------------

def quote(text: str) -> str:
    """A Nextion string literal body: backslash and quote escaped, newlines as \\r."""
    return (text.replace("\\", "\\\\").replace('"', '\\"')
            .replace("\r\n", "\\r").replace("\n", "\\r").replace("\r", "\\r"))


def unquote(body: str) -> str:
    if "\\" not in body:
        return body         # nothing escaped (most texts): no walk through the characters
    out = []
    i = 0
    while i < len(body):
        ch = body[i]
        if ch == "\\" and i + 1 < len(body):
            nxt = body[i + 1]
            out.append("\n" if nxt == "r" else nxt)
            i += 2
        else:
            out.append(ch)
            i += 1
    return "".join(out)


def encode_instruction(instruction: str) -> bytes:
    """One instruction on the wire (characters outside GB2312 become '?')."""
    return instruction.encode(ENCODING, "replace") + TERMINATOR


def set_text(obj: str, text: str) -> str:
    return f'{obj}.txt="{quote(text)}"'


def set_number(obj: str, value: int) -> str:
    return f"{obj}.val={int(value)}"


def set_visible(obj: str, visible: bool) -> str:
    return f"vis {obj},{1 if visible else 0}"


def show_page(page: str) -> str:
    return f"page {page}"


@dataclass(frozen=True)
class Instruction:
    """A parsed instruction: `op` is 'txt', 'val', 'vis', 'page', 'set' (system variable), or
    the bare command word ('sendme', 'rest', 'get', …) with its argument text in `value`."""

    op: str
    target: str
    value: str | int | bool


_ASSIGN = re.compile(r'^([A-Za-z_][\w.]*)\.(txt|val)=(.*)$', re.S)
_SYSVAR = re.compile(r"^([A-Za-z_]\w*)=(-?\d+)$")


def parse_instruction(text: str) -> Instruction:
    """Parse one instruction (without its terminator); NextionError if it is not one we know."""
    match = _ASSIGN.match(text)
    if match:
        target, attr, value = match.groups()
        if attr == "txt":
            if len(value) < 2 or value[0] != '"' or value[-1] != '"':
                raise NextionError(f"text value is not a quoted string: {text!r}")
            return Instruction("txt", target, unquote(value[1:-1]))
        try:
            return Instruction("val", target, int(value))
        except ValueError:
            raise NextionError(f"number value is not an integer: {text!r}") from None
    match = _SYSVAR.match(text)
    if match:
        return Instruction("set", match.group(1), int(match.group(2)))
    word, _, rest = text.partition(" ")
    if word == "page" and rest:
        return Instruction("page", rest.strip(), True)
    if word == "vis":
        target, _, flag = rest.partition(",")
        if flag.strip() in ("0", "1") and target:
            return Instruction("vis", target.strip(), flag.strip() == "1")
        raise NextionError(f"vis needs OBJECT,0|1: {text!r}")
    if word in ("sendme", "rest", "get", "ref", "click", "sleep", "dim"):
        return Instruction(word, rest.strip(), rest.strip())
    raise NextionError(f"unknown instruction {text!r}")


class InstructionDecoder:
    """Display side: bytes → instruction strings (or NextionError items), resynchronising at FF FF FF."""

    def __init__(self) -> None:
        self._pending = bytearray()
        self.overflows = 0

    def feed(self, data: bytes) -> list[str | NextionError]:
        self._pending += data
        parts = self._pending.split(TERMINATOR)
        self._pending = parts.pop()
        out: list[str | NextionError] = []
        for part in parts:
            if part:
                out.append(part.decode(ENCODING, "replace"))
        if len(self._pending) > MAX_INSTRUCTION:
            self._pending.clear()
            self.overflows += 1
            out.append(NextionError(f"more than {MAX_INSTRUCTION} bytes without a terminator"))
        return out


# -- returns (display → host) ----------------------------------------------------------------------

class Code:
    """Return codes used here (Nextion instruction set, 'Format of Device Return Data')."""

    INVALID_INSTRUCTION = 0x00
    SUCCESS = 0x01
    INVALID_COMPONENT = 0x02
    INVALID_PAGE = 0x03
    INVALID_VARIABLE = 0x1A
    BUFFER_OVERFLOW = 0x24
    TOUCH = 0x65
    PAGE = 0x66
    TOUCH_XY = 0x67
    TOUCH_XY_SLEEP = 0x68
    STRING = 0x70
    NUMBER = 0x71
    AUTO_SLEEP = 0x86
    AUTO_WAKE = 0x87
    READY = 0x88


@dataclass(frozen=True)
class Touch:
    page_id: int
    component_id: int
    pressed: bool


@dataclass(frozen=True)
class PageShown:
    page_id: int


@dataclass(frozen=True)
class TouchXY:
    x: int
    y: int
    pressed: bool
    sleeping: bool


@dataclass(frozen=True)
class StringReturned:
    text: str


@dataclass(frozen=True)
class NumberReturned:
    value: int


@dataclass(frozen=True)
class Started:
    """00 00 00 FF FF FF: the display powered up."""


@dataclass(frozen=True)
class Ready:
    """0x88: the display is ready for instructions."""


@dataclass(frozen=True)
class Result:
    """A one-byte result (bkcmd): 0x01 success, anything else names what failed."""

    code: int

    @property
    def ok(self) -> bool:
        return self.code == Code.SUCCESS

    def __str__(self) -> str:
        return f"{_FAILURES.get(self.code, 'unknown return')} (0x{self.code:02X})"


@dataclass(frozen=True)
class SleepChanged:
    sleeping: bool


_FAILURES = MappingProxyType({Code.SUCCESS: "success", Code.INVALID_INSTRUCTION: "invalid instruction",
                              Code.INVALID_COMPONENT: "invalid component", Code.INVALID_PAGE: "invalid page",
                              Code.INVALID_VARIABLE: "invalid variable", Code.BUFFER_OVERFLOW: "buffer overflow"})

DisplayReturn = Touch | PageShown | TouchXY | StringReturned | NumberReturned | Started | Ready | Result | SleepChanged

_STARTUP = b"\x00\x00\x00" + TERMINATOR
_INVALID = b"\x00" + TERMINATOR
_FIXED = MappingProxyType({Code.TOUCH: 7, Code.PAGE: 5, Code.TOUCH_XY: 9, Code.TOUCH_XY_SLEEP: 9,
                          Code.NUMBER: 8})


def encode_return(item: DisplayReturn) -> bytes:
    """Display side: one return on the wire."""
    if isinstance(item, Touch):
        body = bytes((Code.TOUCH, item.page_id, item.component_id, int(item.pressed)))
    elif isinstance(item, PageShown):
        body = bytes((Code.PAGE, item.page_id))
    elif isinstance(item, TouchXY):
        body = bytes((Code.TOUCH_XY_SLEEP if item.sleeping else Code.TOUCH_XY,)) + struct.pack(
            ">HHB", item.x, item.y, int(item.pressed))
    elif isinstance(item, StringReturned):
        body = bytes((Code.STRING,)) + item.text.encode(ENCODING, "replace")
    elif isinstance(item, NumberReturned):
        body = bytes((Code.NUMBER,)) + struct.pack("<i", item.value)
    elif isinstance(item, Started):
        return _STARTUP
    elif isinstance(item, Ready):
        body = bytes((Code.READY,))
    elif isinstance(item, SleepChanged):
        body = bytes((Code.AUTO_SLEEP if item.sleeping else Code.AUTO_WAKE,))
    else:
        body = bytes((item.code,))
    return body + TERMINATOR


class ReturnDecoder:
    """Host side: bytes → DisplayReturn items (or NextionError items); never raises.

    Fixed-length returns are cut by length and checked for their terminator; a mismatch drops
    one byte and tries again (a resync).  String returns run to the next FF FF FF.
    """

    def __init__(self) -> None:
        self._buf = bytearray()
        self.resyncs = 0
        self.returns = 0

    def feed(self, data: bytes) -> list[DisplayReturn | NextionError]:
        self._buf += data
        out: list[DisplayReturn | NextionError] = []
        buf = self._buf
        while buf:
            code = buf[0]
            if code == 0x00:
                if len(buf) >= 4 and buf[1:4] == TERMINATOR:
                    size = 4
                elif buf[:6] == _STARTUP:
                    size = 6
                elif len(buf) < 6 and (_STARTUP.startswith(bytes(buf))
                                       or _INVALID.startswith(bytes(buf))):
                    break
                else:
                    self._drop(out, "bytes after 0x00 are not a startup or an error return")
                    continue
            elif code in _FIXED:
                size = _FIXED[code]
                if len(buf) < size:
                    break
                if buf[size - 3:size] != TERMINATOR:
                    self._drop(out, f"return {code:#04x} does not end with FF FF FF")
                    continue
            else:
                end = buf.find(TERMINATOR)
                if end == 0:
                    self._drop(out, "FF FF FF without a return code", 3)
                    continue
                if end < 0:
                    if len(buf) > MAX_RETURN:
                        self._drop(out, f"more than {MAX_RETURN} bytes without a terminator", len(buf))
                    break
                size = end + 3
            item = self._decode(bytes(buf[:size]))
            del buf[:size]
            out.append(item)
            if not isinstance(item, NextionError):
                self.returns += 1
        return out

    def _drop(self, out: list[DisplayReturn | NextionError], why: str, count: int = 1) -> None:
        del self._buf[:count]
        self.resyncs += 1
        out.append(NextionError(why))

    @staticmethod
    def _decode(raw: bytes) -> DisplayReturn | NextionError:
        code, body = raw[0], raw[1:-3]
        if raw == _STARTUP:
            return Started()
        if code == Code.TOUCH:
            return Touch(body[0], body[1], bool(body[2]))
        if code == Code.PAGE:
            return PageShown(body[0])
        if code in (Code.TOUCH_XY, Code.TOUCH_XY_SLEEP):
            x, y, pressed = struct.unpack(">HHB", body)
            return TouchXY(x, y, bool(pressed), code == Code.TOUCH_XY_SLEEP)
        if code == Code.NUMBER:
            return NumberReturned(struct.unpack("<i", body)[0])
        if code == Code.STRING:
            return StringReturned(body.decode(ENCODING, "replace"))
        if code == Code.READY and not body:
            return Ready()
        if code in (Code.AUTO_SLEEP, Code.AUTO_WAKE) and not body:
            return SleepChanged(code == Code.AUTO_SLEEP)
        if not body:
            return Result(code)
        return NextionError(f"unknown return {raw.hex(' ')}")
