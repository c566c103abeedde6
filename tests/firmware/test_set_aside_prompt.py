"""The dealer is told to take the indicator out of the wall (河北 混儿, 温州 财神, 南昌 精).  A probe at
the table: after the deal the public line stayed 请配牌 and every seat's line was empty; only the
indicator field showed the tile, and a hand was drawn on, every draw out of order, until a head draw
reached the 混儿's slot.  Now the dealer's line reads 请取出混儿 until the tile is out."""

import pytest

from drivers.table_ui import SET_ASIDE
from firmware.simulated import run_simulated
from rulesets.regions import get_region
from tests.asyncio_support import run
from tests.firmware.seat_text_hook import hook_seat_text


@pytest.mark.parametrize("region_id, name", [("hebei", "混儿"), ("wenzhou", "财神")])
def test_the_dealer_s_line_asks_for_the_indicator_until_it_is_set_aside(monkeypatch, region_id, name):
    shown: list[tuple[int, str]] = []           # (seat, line 1) as the seat displays got them, in order
    events: list[tuple[int, str]] = []          # the same list, with the set-aside takes and hand starts

    def seat_text(command) -> None:
        if command.line == 1:
            shown.append((command.seat, command.text))
            events.append((command.seat, command.text))
    hook_seat_text(monkeypatch, seat_text)
    dealers: list[int] = []

    def on_event(event: dict) -> None:
        if event["event"] == "hand_start":
            dealers.append(event["dealer"])
        if event["event"] == "take" and event["reason"] == "set_aside":
            events.append((-1, "set_aside"))

    result = run(run_simulated(get_region(region_id).resolve({}), hands=1, seed=2, on_event=on_event), timeout=60)
    assert result.hands == 1
    asked = events.index((dealers[0], f"{SET_ASIDE}{name}"))
    aside = events.index((-1, "set_aside"))
    assert asked < aside
    assert (dealers[0], "") in events[aside:], "the request stayed on the dealer's line"
