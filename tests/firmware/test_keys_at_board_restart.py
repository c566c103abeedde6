"""A motor board that restarts loses the keys it had not reported; the controller then asks for every
unanswered key again (已重启 未应答的键请再按) and drops those it had queued, or they would count twice.
Those it drops are recorded, as every key dropped unanswered is (`keys_dropped`)."""

import io
import json
from types import SimpleNamespace

from drivers.table_ui import Key
from firmware.build.registry import TileRegistry
from firmware.controller import TableController
from firmware.devices import Devices
from firmware.hand.ports import Press
from firmware.records.recorder import FlightRecorder
from rulesets.regions import get_region
from tests.asyncio_support import run


def test_the_keys_queued_when_the_motor_board_restarts_are_dropped_and_recorded(tmp_path):
    sink = io.StringIO()

    async def restart_with_keys_queued() -> TableController:
        hub = TableController(Devices(SimpleNamespace(seat_text_bytes=16), None), get_region("guangshui").resolve(),
                              TileRegistry(tmp_path / "t.db"), FlightRecorder(sink, clock=lambda: 0.0))
        hub.keys.put(Press(2, Key.HU))
        hub.keys.put(Press(0, Key.CONFIRM))
        hub.links.on_new_session("motor")          # the motor board came back in a new session
        await hub.worker.stop()                    # never started here: nothing to end
        return hub

    hub = run(restart_with_keys_queued())
    assert len(hub.keys) == 0
    (dropped,) = [e for e in map(json.loads, sink.getvalue().splitlines()) if e["event"] == "keys_dropped"]
    assert dropped["why"] == "board_restart"
    assert [(p["panel"], p["key"]) for p in dropped["presses"]] == [(2, "HU"), (0, "CONFIRM")]
