"""四川 血战, two 胡 on one discard across a restart: both claimants press 胡 again on the note.  The
one whose check had begun (he had answered a question) waited for it to go on; the other pressed
again, the table checked him (验牌中), and by the time play showed again the first had let his
chance pass: he never pressed, and the table and the players waited for each other (found by the
fault campaign: 四川, seed 4060, a kill during 一炮多响)."""

from drivers.motor_protocol import Key
from simulator.table import SimulatedTable
from tests.asyncio_support import run
from tests.firmware.test_restart import crash_and_restart


def test_both_claimants_of_one_discard_claim_again_after_a_restart(tmp_path, monkeypatch):
    held: dict = {}
    real_press = SimulatedTable.press

    def press(table, panel, key, long=False):
        real_press(table, panel, key, long)
        players = held.get("players")
        if players is None or "stopped" in held or not isinstance(panel, int) or key != Key.CONFIRM:
            return
        claimants = []
        for action in reversed(players.journal):       # the 胡 since the last draw or discard
            if action.what in ("discard", "draw"):
                break
            if action.what == "hu":
                claimants.append(action.seat)
        if len(set(claimants)) >= 2 and panel in claimants:     # a claimant answered his check's question
            held["stopped"] = True
            held["stop"]()

    monkeypatch.setattr(SimulatedTable, "press", press)

    def hook(players, stop) -> None:
        held.update(players=players, stop=stop)

    db = str(tmp_path / "table.db")
    result, before, after = run(crash_and_restart("sichuan", 1, db, players_hook=hook), timeout=60)
    assert held.get("stopped")
    again = [a.seat for a in held["players"].journal if a.what == "hu" and a.detail.startswith("again")]
    assert len(set(again)) == 2, again
    assert result.hands == 2
