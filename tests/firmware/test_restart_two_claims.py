"""四川 血战, two 胡 on one discard across a restart: both claimants press 胡 again on the note.  The
one whose check had begun (he had answered a question) waited for it to go on; the other pressed
again, the table checked him (验牌中), and by the time play showed again the first had let his
chance pass: he never pressed, and the table and the players waited for each other (found by the
fault campaign: 四川, seed 4060, a kill during 一炮多响)."""

from drivers.motor_protocol import Key
from tests.asyncio_support import run
from tests.firmware.test_restart import crash_and_restart, stop_after_a_press


def test_both_claimants_of_one_discard_claim_again_after_a_restart(tmp_path, monkeypatch):
    people: dict = {}

    def a_claimant_answered(table, panel, key) -> bool:
        """A claimant pressed 确认 on his check's question while another 胡 on the same discard waits."""
        if key != Key.CONFIRM or "players" not in people:
            return False
        claimants = []
        for action in reversed(people["players"].journal):     # the 胡 since the last draw or discard
            if action.what in ("discard", "draw"):
                break
            if action.what == "hu":
                claimants.append(action.seat)
        return len(set(claimants)) >= 2 and panel in claimants

    holder, stop_hook = stop_after_a_press(monkeypatch, a_claimant_answered)

    def hook(players, stop) -> None:
        people["players"] = players
        stop_hook(players, stop)

    db = str(tmp_path / "table.db")
    result, before, after = run(crash_and_restart("sichuan", 1, db, players_hook=hook), timeout=60)
    assert holder.get("stopped")
    again = [a.seat for a in people["players"].journal if a.what == "hu" and a.detail.startswith("again")]
    assert len(set(again)) == 2, again
    assert result.hands == 2
