"""The simulator seen and touched from the web page — only when the table is the simulator.

`SimulatorPort` is all the web server needs of a simulated table: what a person standing at it
would see (`physical_state()`: the lifts, the walls' stack heights, how many tiles lie taken on
the table top and in each read zone, the dice, the hatch, the seat displays, the lamps), a finger
on a key (`press()`) and on a button of the public display (`touch()`).  Never a tile's face: the
faces the page draws face up come from the public table state (firmware/web/live.py), not from the
simulator.

`InProcessSimulator` implements the port over a `simulator.SimulatedTable` running in this
process; `ControlledSimulator` over the simulator's control channel (the simulator in its own
process).
"""

from __future__ import annotations

import asyncio
from typing import Any, Protocol

from drivers.display_layout import LAYOUT
from drivers.motor_protocol import LiftPosition, lamps_lit
from drivers.table_ui import KEY_LABELS_ZH, Key, Panel

SEAT_KEYS = (Key.TING, Key.HU, Key.KONG, Key.CONFIRM, Key.DICE, Key.LEFT, Key.RIGHT, Key.LIFT)
FRONT_KEYS = (Key.CONFIRM, Key.DICE, Key.LEFT, Key.RIGHT, Key.MENU, Key.BACK, Key.STOP, Key.LIFT)


class SimulatorPort(Protocol):
    def physical_state(self) -> dict[str, Any]:
        """What a person at the table sees (JSON; see docs/api.md `sim`): never a tile's face."""

    def press(self, panel: int, key: Key, long: bool = False) -> None:
        """Press `key` on panel 0–3 (a seat) or 4 (the front panel)."""

    async def touch(self, page: str, button: str) -> None:
        """Touch `button` of the display's `page` (`parse_touch`); TouchRefused when that page is not
        the one showing."""


class PressError(ValueError):
    """A key press the panels do not have, or a button the display lacks (one line, for the API's 400)."""


class TouchRefused(ValueError):
    """A touch on a page the display is not showing (one line, for the API's 409)."""


def panel_keys() -> dict[str, list[dict[str, str]]]:
    """Every key of every panel, for the page's buttons: {"0": [{"key": "ting", "label": "听"}, …], "front": …}."""
    def keys(which: tuple[Key, ...]) -> list[dict[str, str]]:
        return [{"key": k.name.lower(), "label": KEY_LABELS_ZH[k]} for k in which]
    out = {str(seat): keys(SEAT_KEYS) for seat in range(4)}
    out["front"] = keys(FRONT_KEYS)
    return out


def parse_press(panel: Any, key: Any, long: Any = False) -> tuple[int, Key, bool]:
    """A press from the API's JSON: panel 0–3 or "front"/4, a key name or label of that panel."""
    if panel in ("front", Panel.FRONT.value):
        number, allowed = int(Panel.FRONT), FRONT_KEYS
    elif isinstance(panel, int) and not isinstance(panel, bool) and 0 <= panel <= 3:
        number, allowed = panel, SEAT_KEYS
    else:
        raise PressError(f"panel {panel!r}: give a seat 0-3 or \"front\"")
    if not isinstance(key, str):
        raise PressError(f"key {key!r}: give a key name such as \"ting\" or its label \"听\"")
    try:
        parsed = Key.parse(key)
    except ValueError as error:
        raise PressError(str(error)) from None
    if parsed not in allowed:
        raise PressError(f"panel {panel} has no key {parsed.name.lower()}; its keys are "
                        + ", ".join(k.name.lower() for k in allowed))
    if not isinstance(long, bool):
        raise PressError(f"long {long!r}: give true or false")
    return number, parsed, long


def parse_touch(page: Any, button: Any) -> tuple[str, str]:
    """A touch from the API's JSON: a page of the display's layout and one of its buttons."""
    pages = {p.name: p for p in LAYOUT.pages}
    if not isinstance(page, str) or page not in pages:
        raise PressError(f"page {page!r}: give a page of the display: {', '.join(pages)}")
    buttons = [c.name for c in pages[page].components if c.kind == "button"]
    if button not in buttons:
        raise PressError(f"page {page} has no button {button!r}; its buttons are {', '.join(buttons)}")
    return page, button


def lamp_names(masks: list[int]) -> dict[str, list[str]]:
    """The lamps lit on each panel ("0"–"3", "front"), by the panels' Chinese names (protocol.md §4.1)."""
    return {("front" if panel == Panel.FRONT else str(panel)): lamps_lit(mask) for panel, mask in zip(Panel, masks)}


def _lift(position: LiftPosition) -> str:
    return LiftPosition(position).name.lower()


class InProcessSimulator:
    """The port over a `SimulatedTable` in this process (firmware.simulated.run_simulated)."""

    def __init__(self, table: Any) -> None:        # a simulator.SimulatedTable
        self._table = table

    def physical_state(self) -> dict[str, Any]:
        world = self._table.world
        return {
            "sides": [{"lift": _lift(side.position),
                       "stacks": [len(stack) for stack in side.plate] if side.position == LiftPosition.UP else [],
                       "built_below": len(side.channel) + len([s for s in side.plate if s]) * (side.position != LiftPosition.UP),
                       "head": side.head is not None}
                      for side in world.sides],
            "centre": _lift(world.centre),
            "hatch_open": world.hatch_open,
            "dice": list(world.dice),
            "on_table": len(world.out),
            "zones": [len(zone) for zone in world.zones],
            "mixer": len(world.mixer),
            "seat_displays": [list(lines) for lines in world.seat_displays],
            "lamps": lamp_names(world.lamps()),
        }

    def press(self, panel: int, key: Key, long: bool = False) -> None:
        self._table.press(panel if panel != Panel.FRONT else "front", key, long)

    async def touch(self, page: str, button: str) -> None:
        from simulator.world import SimulatorError      # (here: a real table's web server never loads it)
        try:
            self._table.touch(page, button)
        except SimulatorError as error:                 # that page is not showing
            raise TouchRefused(str(error)) from None


class ControlledSimulator:
    """The port over the simulator's control channel (the simulator in its own process:
    `firmware.simulated.run_in_process`).  The page reads synchronously, so a watcher task keeps the
    latest view (it waits on the simulator's change counter, never polls); a press is sent at once."""

    def __init__(self, control: Any) -> None:       # a simulator.control.ControlClient
        self._control = control
        self._view: Any = None                      # the latest simulator.control.TableView
        self._task: asyncio.Task | None = None

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._follow(), name="sim-view")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)

    async def _follow(self) -> None:
        while True:
            self._view = view = await self._control.table()
            await self._control.changed(view.version)

    def physical_state(self) -> dict[str, Any]:
        view = self._view
        if view is None:
            return {}
        return {
            "sides": [{"lift": view.lifts.get(f"side{side}", "between"), "stacks": list(view.walls[side]),
                       "built_below": view.below[side] if side < len(view.below) else 0, "head": False}
                      for side in range(4)],
            "centre": view.lifts.get("centre", "between"),
            "hatch_open": view.hatch_open,
            "dice": list(view.dice),
            "on_table": view.on_table,
            "zones": [len(zone) for zone in view.zones],
            "mixer": view.mixer,
            "seat_displays": [list(lines) for lines in view.seats],
            "lamps": lamp_names(list(view.lamps) or [0] * len(Panel)),
        }

    def press(self, panel: int, key: Key, long: bool = False) -> None:
        asyncio.get_running_loop().create_task(
            self._control.press(panel if panel != Panel.FRONT else "front", key.name.lower(), long))

    async def touch(self, page: str, button: str) -> None:
        from simulator.control import ControlError      # (here: a real table's web server never loads it)
        try:
            await self._control.touch(page, button)
        except ControlError as error:                   # that page is not showing, or the channel is gone
            raise TouchRefused(str(error)) from None


__all__ = ["ControlledSimulator", "FRONT_KEYS", "InProcessSimulator", "PressError", "SEAT_KEYS", "SimulatorPort",
           "TouchRefused", "panel_keys", "parse_press", "parse_touch"]
