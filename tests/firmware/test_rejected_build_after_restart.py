"""A controller stopped while the next set was being built under a hand in play: the restarted one
resumed the hand and the build; the build failed its check (a tile missing), a person mended the set,
the next hand was played — and then the controller stopped with a traceback, MachineError "Can't
trigger event set_built from state settling!" (a harsher campaign: 2 region runs of 8; the probe's
script hit it in 4 runs of 11).  The rejected build's task was never let go of: no next set was built
beside that hand, and its stale answer (None) sent the table back to a first build from `settling`.

The moment is a race at speed 0 (the check often lands before the stop); the session's own step is
checked here: the set built anew once the rejected one is mended lets go of the resumed build."""

from __future__ import annotations

import asyncio

from firmware.between_hands import SetsBetweenHands
from tests.asyncio_support import run


class _Hub:
    def __init__(self) -> None:
        self.advanced: list[str] = []

    async def advance(self, trigger: str) -> None:
        self.advanced.append(trigger)


def test_the_set_built_anew_after_a_rejected_resumed_build_lets_go_of_that_build():
    async def go() -> tuple[object, object, list[str]]:
        hub = _Hub()

        async def no_rules_chosen() -> None:                # no rules chosen while the set waited
            return None
        sets = SetsBetweenHands(hub, None, None, None, None, None, lambda: None, no_rules_chosen)
        sets.rejected = object()                            # the resumed build was rejected…

        async def rejected_build() -> None:
            return None
        sets._build = asyncio.ensure_future(rejected_build())       # …its task, done, still held

        async def set_aside() -> None:                      # a person mended the set
            sets.rejected = None

        async def build_next() -> str:
            return "the set built anew"
        sets._set_aside, sets.build_next = set_aside, build_next
        below = await sets.first_build()
        return below, sets.under_way, hub.advanced

    below, build, advanced = run(go(), timeout=10)
    assert below == "the set built anew" and advanced == ["set_built"]
    assert not build            # let go of: the next hand builds its next set beside it, as usual
