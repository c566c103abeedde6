"""A 听 pressed where the rules have no 报听 (a probe at the table, 四川).  The controller took it:
the seat's line and its lamp said 听, telling the others a hand was ready in rules where nobody
declares one.  It is refused now, said on the display and recorded; where the rules have 报听 it
is declared as before."""

from __future__ import annotations

import pytest

from drivers.table_ui import Key, NO_TING
from firmware.hand.ports import Press
from tests.firmware.test_tile_put_back import dealt

SEAT = 1


@pytest.mark.parametrize("region_id", ["sichuan", "shanghai", "guangdong"])
def test_a_ting_in_rules_without_baoting_is_refused_said_and_recorded(region_id):
    recorded = dealt(region_id)
    recorded.draw()
    assert recorded.flow.on_key(Press(SEAT, Key.TING))
    assert SEAT not in recorded.hand.ready and not recorded.recorded("ready")
    (dropped,) = recorded.recorded("keys_dropped")
    assert dropped["why"] == "no_ready_declaration"
    assert recorded.ports.screens.phases[-1].endswith(NO_TING)


@pytest.mark.parametrize("region_id", ["hainan", "lisi"])
def test_a_ting_where_the_rules_have_baoting_is_declared(region_id):
    recorded = dealt(region_id)
    recorded.draw()
    assert recorded.flow.on_key(Press(SEAT, Key.TING))
    assert SEAT in recorded.hand.ready and recorded.recorded("ready")
    assert not recorded.recorded("keys_dropped")
