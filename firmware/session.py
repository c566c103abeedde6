"""A session at the table: the first build, then hand after hand with the two sets alternating.

While a hand is played on one set, the other is shuffled and built under the table; at the hand
over the players push the old set in, the plates go down for the new walls and rise.

The session composes the parts: the hub (firmware.controller), the set builder and the hand flow
(each on its ports), the ledger.  It owns the `SessionState`, and one publish step applies a
settled hand to it and then writes ledger → recorder → display, in that order: the ledger first,
so a crash between them never shows a score that was not kept.
"""

from __future__ import annotations

import asyncio
from typing import Any, Callable

from drivers.motor_protocol import LiftPosition
from drivers.table_ui import Key, Panel, Phase
from rulesets.definition import Ruleset
from rulesets.regions import get_region

from .build.set_builder import SetBuilder
from .build.wall_map import WallMap
from .controller import TableController
from .faults import LatchedFault
from .hand.flow import HandFlow
from .hand.state import HandOutcome, HandState
from .presenter import DisplayMirror
from .records.ledger import HandRecord, Ledger
from .state import SessionState

CENTRE_LIFT = 4


def _scored_items(hand: HandState | None) -> tuple[dict, ...]:
    """What each win (or a draw's settlement) was made of, for the ledger's history."""
    if hand is None:
        return ()
    scored = [(w.seat, w.payout.items) for w in hand.wins]
    if hand.draw is not None and hand.draw.items:
        scored.append((None, hand.draw.items))
    return tuple({"seat": seat, "items": [{"name": i.zh, "pinyin": i.pinyin, "value": i.value, "unit": i.unit}
                                          for i in items]} for seat, items in scored)


class SessionFeed:
    """What anyone may see of the table, read-only (firmware.web.live.TableFeed): the presenter's
    public mirror, the session state, the lifecycle, the latched faults, the recorder's events."""

    def __init__(self, session: "TableSession") -> None:
        self._session = session

    def mirror(self) -> DisplayMirror:
        return self._session.hub.presenter.public_mirror()

    def session_state(self) -> SessionState | None:
        return self._session.state

    def ruleset(self) -> Ruleset:
        return self._session.hub.ruleset

    def lifecycle(self) -> str:
        return str(self._session.hub.table.state)

    def faults(self) -> tuple[LatchedFault, ...]:
        return self._session.hub.faults.latched()

    def listen(self, on_event: Callable[[dict[str, Any]], None], on_change: Callable[[], None]) -> None:
        hub = self._session.hub
        hub.recorder.listen(on_event)
        hub.presenter.listen(on_change)
        hub.watch(on_change)


class TableSession:
    def __init__(self, controller: TableController, ledger: Ledger, hands: int | None = None) -> None:
        self.hub = controller
        self.ledger = ledger
        self.hands = hands
        self.played = 0
        self.builder = SetBuilder(controller.build_ports())
        self.flow = HandFlow(controller.hand_ports())
        controller.attach(hand=self.flow, build=self.builder)
        self.state: SessionState | None = None
        self._build: asyncio.Task | None = None
        self._hand_started: float | None = None
        self._fault_interval: int | None = None
        controller.watch(self._note_faults)

    async def run(self) -> int:
        """Play `hands` hands (or until cancelled); return how many were played."""
        hub = self.hub
        await hub.start()
        try:
            self._open_session(hub.ruleset)
            await hub.advance("start")
            hub.presenter.phase(Phase.BUILDING)
            next_set = await self.builder.build()
            await hub.advance("set_built")
            while True:
                await self.hand_over(next_set)
                self._build = asyncio.create_task(self.builder.build(), name="build-next-set")
                state = self._state()
                self._hand_started = self.ledger.clock()
                outcome = await self.flow.play(next_set, number=state.hand_number + 1, dealer=state.dealer,
                                               totals=state.totals)
                self.publish(outcome)
                self.played += 1
                next_set = await self._build
                self._build = None
                if self.hands is not None and self.played >= self.hands:
                    await hub.advance("finish")
                    return self.played
                chosen = self._chosen_ruleset()
                if chosen is not None:
                    self._open_session(chosen)
                await hub.advance("next_hand")
        finally:
            if self._build is not None:
                self._build.cancel()
                await asyncio.gather(self._build, return_exceptions=True)
            if self.state is not None:
                self.ledger.end_session(self.state.session_id)
            await hub.stop()

    def public_feed(self) -> SessionFeed:
        """The read-only public view of this table, for the web server (firmware/web)."""
        return SessionFeed(self)

    def _state(self) -> SessionState:
        assert self.state is not None, "a session is open before any hand"
        return self.state

    # -- the publish step ----------------------------------------------------------------------

    def publish(self, outcome: HandOutcome) -> SessionState:
        """Apply a settled hand: the session state, then ledger → recorder → display."""
        hub = self.hub
        before = self._state()
        after = before.after(outcome, hub.ruleset)
        self.ledger.record_hand(after.session_id, HandRecord(outcome.number, outcome.dealer, outcome.result,
                                                             outcome.winners, outcome.payments, outcome.wall_hash,
                                                             self._hand_started, _scored_items(self.flow.hand)))
        self.state = after
        hub.recorder.emit("hand_end", result=outcome.result, winners=list(outcome.winners),
                          payments=list(outcome.payments), totals=list(after.totals), next_dealer=after.dealer,
                          **outcome.end_fields)
        hub.recorder.close_hand()
        self.flow.close()
        self._show_settled(outcome, after)
        return after

    def _show_settled(self, outcome: HandOutcome, state: SessionState) -> None:
        presenter = self.hub.presenter
        presenter.scores(state.totals)
        presenter.dealer(state.dealer, state.dealer_repeats)
        result = "荒庄" if not outcome.winners else "胡 " + " ".join(f"座位{w}" for w in outcome.winners)
        presenter.phase(Phase.HAND_OVER, result)
        for side in self.hub.ruleset.players:
            presenter.seat_status(side, side == state.dealer, state.totals[side])
            if side not in outcome.winners:
                presenter.prompt(side, "")              # a winner keeps "胡 +N" until the next hand

    # -- sessions and the front panel's choice ---------------------------------------------------

    def _open_session(self, ruleset: Ruleset) -> None:
        """A new ledger session (at the start, or when the panel chose rules playable with these tiles):
        scores from zero, the first side deals; hand numbers go on, so a recorder never repeats one."""
        hub = self.hub
        hub.ruleset = ruleset
        if self.state is not None:
            self.ledger.end_session(self.state.session_id)
            self._fault_interval = None
        session_id = self.ledger.start_session(ruleset.id, dict(ruleset.options))
        self.state = SessionState.new(session_id, ruleset, self.state.hand_number if self.state else 0)
        hub.recorder.emit("session_start", hand=0, ruleset=ruleset.id, options=dict(ruleset.options),
                          session=session_id)
        hub.presenter.ruleset(ruleset.region.name)

    def _chosen_ruleset(self) -> Ruleset | None:
        """The ruleset chosen on the panel, if it can be played with the tiles on the table now."""
        choice = self.hub.panel.take_choice()
        if choice is None:
            return None
        region_id, options = choice
        chosen = get_region(region_id).resolve(options)
        current = self.hub.ruleset
        if chosen.tiles.counts != current.tiles.counts or chosen.stacks_per_side != current.stacks_per_side:
            self.hub.presenter.phase_text(f"{chosen.region.name}: 请更换牌具后重启")
            self.hub.recorder.emit("warning", hand=0, message=f"{chosen.id} needs another tile set ({chosen.tiles.name}): "
                                                              "change the tiles and restart the table")
            return None
        return chosen

    # -- table hours: the intervals a fault was latched (the ledger keeps them raw) -------------

    def _note_faults(self) -> None:
        """Called after every change at the hub: open or close the ledger's fault interval."""
        latched = self.hub.faults.latched()
        if latched and self._fault_interval is None and self.state is not None:
            self._fault_interval = self.ledger.fault_started(self.state.session_id, sorted({f.label for f in latched}))
        elif not latched and self._fault_interval is not None:
            self.ledger.fault_ended(self._fault_interval)
            self._fault_interval = None

    # -- between hands -----------------------------------------------------------------------------

    async def hand_over(self, next_set: WallMap) -> None:
        """Push the old tiles in, lower the plates onto the new walls and raise them."""
        hub = self.hub
        motor = hub.devices.motor
        ruleset = hub.ruleset
        sides = tuple(s for s in ruleset.players if ruleset.stacks_per_side[s])
        hub.presenter.phase(Phase.PUSH_IN)
        await hub.motion(lambda: motor.centre_lift(LiftPosition.DOWN))
        await hub.lifts_at((CENTRE_LIFT,), LiftPosition.DOWN)
        await hub.next_key(tuple(ruleset.players) + (Panel.FRONT,), (Key.CONFIRM,))
        await hub.advance("pushed_in")
        await hub.motion(lambda: motor.side_lifts(LiftPosition.DOWN, sides))
        await hub.lifts_at(sides, LiftPosition.DOWN)
        await hub.motion(lambda: motor.side_lifts(LiftPosition.UP, sides))
        await hub.lifts_at(sides, LiftPosition.UP)
        await hub.motion(lambda: motor.centre_lift(LiftPosition.UP))
        await hub.lifts_at((CENTRE_LIFT,), LiftPosition.UP)
        await self.builder.raised()
        state = self._state()
        for side in ruleset.players:
            hub.presenter.seat_status(side, side == state.dealer, state.totals[side])
        hub.presenter.dealer(state.dealer, state.dealer_repeats)
        await hub.advance("walls_up")
