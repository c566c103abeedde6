"""截胡 played at the table: where one discard makes one winner and two seats press 胡 on it, the
farther one first, the table judges the one nearer the discarder (南昌, seed 2: seat 2's discard in
hand 3 completes the hands of seats 0 and 3; seat 3 sits next after seat 2).  The simulated players
leave 截胡 to the nearest seat; here every seat that can win presses, the farthest first."""

import io

from firmware.records.audit import audit_events, read_events
from firmware.simulated import run_simulated
from rulesets.regions import get_region
from simulator.players import hand_play
from tests.asyncio_support import run


def every_winner_presses(monkeypatch, cases: list) -> None:
    plain = hand_play.HandPlay.after_discard

    async def after_discard(self, seat, discard):
        if self.play.discard_win and not self.play.multiple_winners:
            last = self.wall.live <= 0
            winners = [o for o in self.view.after(seat) if self.win_on(self.players[o], discard.kind, seat, last)]
            if len(winners) >= 2:
                cases.append((seat, winners))
                claims = [self.claim_for(self.players[w], seat, discard.kind, discard.uid) for w in reversed(winners)]
                _, over = await self.declare_wins(claims)
                if over:
                    return hand_play.Next(over=True)
        return await plain(self, seat, discard)
    monkeypatch.setattr(hand_play.HandPlay, "after_discard", after_discard)


def test_two_hu_on_one_discard_the_nearer_seat_wins(monkeypatch):
    cases: list = []
    every_winner_presses(monkeypatch, cases)
    events = io.StringIO()
    result = run(run_simulated(get_region("nanchang").resolve(), hands=3, seed=2, events=events), timeout=180)
    log = read_events(events.getvalue().splitlines())
    assert cases == [(2, [3, 0])], f"the seed's hands changed: no discard two seats could win on ({cases})"
    (cut,) = [e for e in log if e["event"] == "win_cut_off"]
    assert (cut["seat"], cut["by"], cut["discarder"]) == (0, 3, 2)
    assert [(e["seat"], e["from"]) for e in log if e["event"] == "win" and e["hand"] == cut["hand"]] == [(3, 2)]
    assert not any(e["event"] == "false_win" for e in log)
    assert audit_events(log) == [] and result.hands == 3
