"""A 长春 special kong the table refused (its read zone missed a tile of it in both inventories) is
taken back by the player who laid it: the tiles go back into his hand, the meld and the kongs it would
have counted go, and he lays it again when the table asks again.  Before, he kept a meld the table
never accepted and counted its kongs in his own view of the wall (fault campaign, seed 360000: two
诈胡, then the players waited for 最后一张 two live tiles early — a stall)."""

from __future__ import annotations

import io
import json

from firmware.simulated import default_players, run_simulated
from rulesets.regions import get_region
from simulator.rfid_board import RfidBoardSim
from tests.asyncio_support import run


def test_a_refused_special_kong_is_taken_back_and_laid_again(monkeypatch):
    missing = {"on": True}
    real = RfidBoardSim._inventory

    def inventory(board, seat):
        uids = real(board, seat)
        return uids[1:] if missing["on"] else uids       # the antenna misses the first tag laid
    monkeypatch.setattr(RfidBoardSim, "_inventory", inventory)

    def heard(event):
        if event["event"] == "special_kong" and not event["accepted"]:
            missing["on"] = False                        # the first declaration refused: the reader mends
    crews = []

    def players(table, ruleset, seed):
        made = default_players(table, ruleset, seed)
        crews.append(made.crew)
        return made

    events = io.StringIO()
    result = run(run_simulated(get_region("changchun").resolve({"first_dealer": "east"}), hands=2, seed=2, events=events,
                               players=players, on_event=heard), timeout=120)
    log = [json.loads(line) for line in events.getvalue().splitlines()]
    judged = [(e["hand"], e["seat"], e["accepted"]) for e in log if e["event"] == "special_kong"]
    refused = next(j for j in judged if not j[2])
    assert (refused[0], refused[1], True) in judged[judged.index(refused):], judged     # laid again, accepted
    assert not [e for e in log if e["event"] in ("false_win", "zone_fallback")]
    assert result.hands == 2
    assert "special_kong" in {a.what for a in crews[0].journal}
