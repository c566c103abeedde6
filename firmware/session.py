"""A session at the table: the first build, then hand after hand with the two sets alternating.

While a hand is played on one set, the other is shuffled and built under the table; at the
hand over the players push the old set in, the plates go down for the new walls and rise.
"""

from __future__ import annotations

import asyncio

from drivers.motor_protocol import Key, LiftPosition, Panel
from drivers.table_ui import Phase

from .controller import TableController
from .hand_flow import HandFlow
from .set_builder import SetBuilder
from .wall_map import WallMap

CENTRE_LIFT = 4


class TableSession:
    def __init__(self, controller: TableController, hands: int | None = None) -> None:
        self.ctl = controller
        self.hands = hands
        self.played = 0
        controller.set_builder = SetBuilder(controller)
        controller.hand_flow = HandFlow(controller)
        self._build: asyncio.Task | None = None

    async def run(self) -> int:
        """Play `hands` hands (or until cancelled); return how many were played."""
        ctl = self.ctl
        await ctl.start()
        try:
            ctl.session = ctl.ledger.start_session(ctl.ruleset.id, dict(ctl.ruleset.options))
            ctl.recorder.emit("session_start", 0, ruleset=ctl.ruleset.id, options=dict(ctl.ruleset.options),
                              session=ctl.session)
            await ctl.table.start()
            ctl.presenter.phase(Phase.BUILDING)
            next_set = await ctl.set_builder.build()
            await ctl.table.set_built()
            while True:
                await self.hand_over(next_set)
                self._build = asyncio.create_task(ctl.set_builder.build(), name="build-next-set")
                await ctl.hand_flow.play(next_set)
                self.played += 1
                next_set = await self._build
                self._build = None
                if self.hands is not None and self.played >= self.hands:
                    await ctl.table.finish()
                    return self.played
                chosen = ctl.take_pending_choice()
                if chosen is not None:
                    self._switch(chosen)
                await ctl.table.next_hand()
        finally:
            if self._build is not None:
                self._build.cancel()
                await asyncio.gather(self._build, return_exceptions=True)
            await ctl.stop()

    def _switch(self, ruleset) -> None:
        """The panel chose another ruleset that plays with the same tiles: a new ledger session."""
        ctl = self.ctl
        ctl.ruleset = ruleset
        ctl.session = ctl.ledger.start_session(ruleset.id, dict(ruleset.options))
        ctl.dealer = ruleset.players[0]
        ctl.dealer_repeats = 0
        ctl.recorder.emit("session_start", 0, ruleset=ruleset.id, options=dict(ruleset.options), session=ctl.session)
        ctl.presenter.ruleset(ruleset.region.name)

    async def hand_over(self, next_set: WallMap) -> None:
        """Push the old tiles in, lower the plates onto the new walls and raise them."""
        ctl = self.ctl
        motor = ctl.devices.motor
        sides = tuple(s for s in ctl.ruleset.players if ctl.ruleset.stacks_per_side[s])
        ctl.presenter.phase(Phase.PUSH_IN)
        await ctl.motion(lambda: motor.centre_lift(LiftPosition.DOWN))
        await ctl.lifts_at((CENTRE_LIFT,), LiftPosition.DOWN)
        await ctl.next_key(tuple(ctl.ruleset.players) + (Panel.FRONT,), (Key.CONFIRM,))
        await ctl.table.pushed_in()
        await ctl.motion(lambda: motor.side_lifts(LiftPosition.DOWN, sides))
        await ctl.lifts_at(sides, LiftPosition.DOWN)
        await ctl.motion(lambda: motor.side_lifts(LiftPosition.UP, sides))
        await ctl.lifts_at(sides, LiftPosition.UP)
        await ctl.motion(lambda: motor.centre_lift(LiftPosition.UP))
        await ctl.lifts_at((CENTRE_LIFT,), LiftPosition.UP)
        await ctl.builder_state.raise_walls()
        for side in ctl.ruleset.players:
            ctl.presenter.seat_status(side, side == ctl.dealer, ctl.totals[side])
        ctl.presenter.dealer(ctl.dealer, ctl.dealer_repeats)
        await ctl.table.walls_up()
