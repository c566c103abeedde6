"""The technician's page on the public display (protocol.md §7.3 `service`): what runs here, how
its links are and the room on its card, read at the table without a laptop.

A long press of 菜单 on the front panel opens it (a short press opens the rules menu, as before).
返回, a long 菜单 again, or the page's own 返回 button leave it; a short 菜单 leaves it for the rules
menu.  While it shows, its lines are drawn again once a second (the presenter sends only the lines
that changed).  Nothing on it is secret: the version, the ruleset, counters and fault codes.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Callable, Mapping

from drivers.display import DisplayStatistics
from drivers.link import LinkStatistics
from drivers.nextion import ENCODING
from drivers.table_ui import Key

from .faults import BOARDS_ZH

LINES = 8                    # t_line0–t_line7
LINE_BYTES = 48              # a line's room on the display, in GB2312 bytes (protocol.md §7.3)
REFRESH_S = 1.0


@dataclass(frozen=True)
class ServiceFacts:
    """What the page shows, read from the controller when it is drawn."""

    version: str
    ruleset: str                          # the ruleset's id
    uptime_s: float                       # since the controller started
    links: Mapping[str, LinkStatistics]   # "motor", "rfid"
    links_down: tuple[str, ...]           # the boards whose link is down now
    display: DisplayStatistics | None     # None: no public display configured
    faults: tuple[str, ...]               # the labels latched now (E01 …)
    card: tuple[int, int] | None = None   # the storage card's room at the last look (free, total MB)


def service_lines(facts: ServiceFacts) -> list[str]:
    """The page's eight lines, each clipped to the display's room."""
    lines = [f"版本 {facts.version}  规则 {facts.ruleset}",
             f"运行 {_clock(facts.uptime_s)}",
             *(_link_line(board, stats, board in facts.links_down) for board, stats in facts.links.items()),
             _display_line(facts.display),
             f"故障 {' '.join(facts.faults) if facts.faults else '无'}",
             f"存储卡 剩余{facts.card[0]}MB 共{facts.card[1]}MB" if facts.card else "存储卡 未查",
             "按返回或长按菜单离开"]
    lines += [""] * (LINES - len(lines))
    return [_clipped(line) for line in lines[:LINES]]


def _link_line(board: str, stats: LinkStatistics, down: bool) -> str:
    rtt = "无" if stats.srtt_ms is None else f"{stats.srtt_ms:.0f}ms"
    state = "断开" if down else "正常"
    return (f"{BOARDS_ZH.get(board, board)} {state} 重传{stats.retransmits} 错包{stats.crc_errors} "
            f"超时{stats.timeouts} 恢复{stats.resumptions} 往返{rtt}")


def _display_line(stats: DisplayStatistics | None) -> str:
    if stats is None:
        return "显示屏 未配置"
    return f"显示屏 指令{stats.instructions} 拒收{stats.failures} 重启{stats.reboots}"


def _clock(seconds: float) -> str:
    whole = int(seconds)
    return f"{whole // 3600}:{whole // 60 % 60:02d}:{whole % 60:02d}"


def _clipped(line: str) -> str:
    """At most LINE_BYTES bytes of GB2312, never half a character."""
    while len(line.encode(ENCODING, errors="replace")) > LINE_BYTES:
        line = line[:-1]
    return line


class ServicePage:
    """Whether the page shows, the keys and the button that open and leave it, and its refresh."""

    def __init__(self, facts: Callable[[], ServiceFacts], draw: Callable[[list[str]], None],
                 show: Callable[[bool], None]) -> None:
        self._facts = facts
        self._draw = draw              # the lines, onto the page (whether it shows or not)
        self._show = show              # the page up (True) or the main page back (False)
        self._open = asyncio.Event()

    @property
    def is_open(self) -> bool:
        return self._open.is_set()

    def wants(self, key: Key, long: bool, menu_open: bool) -> bool:
        """A front-panel key that is the page's: a long 菜单 outside the rules menu opens it; while it
        shows, 菜单 and 返回 are its."""
        if self.is_open:
            return key in (Key.MENU, Key.BACK)
        return key == Key.MENU and long and not menu_open

    def press(self, key: Key, long: bool) -> bool:
        """One key it `wants`; False when the key goes on (a short 菜单 leaves for the rules menu)."""
        if not self.is_open:
            self.open()
            return True
        self.close()
        return not (key == Key.MENU and not long)

    def touch(self, button: str) -> None:
        if button == "b_back" and self.is_open:
            self.close()

    def open(self) -> None:
        self._draw(service_lines(self._facts()))
        self._open.set()
        self._show(True)

    def close(self) -> None:
        self._open.clear()
        self._show(False)

    async def run(self) -> None:
        """Draw the lines again once a second while the page shows; wait, doing nothing, while not."""
        while True:
            await self._open.wait()
            await asyncio.sleep(REFRESH_S)
            if self.is_open:
                self._draw(service_lines(self._facts()))


__all__ = ["LINES", "LINE_BYTES", "ServiceFacts", "ServicePage", "service_lines"]
