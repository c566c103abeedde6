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

from firmware.session import TableSession
from tests.asyncio_support import run


class _Panel:
    @staticmethod
    def take_choice() -> None:
        return None                     # no rules chosen while the set waited


class _Hub:
    def __init__(self) -> None:
        self.advanced: list[str] = []
        self.panel = _Panel()

    async def advance(self, trigger: str) -> None:
        self.advanced.append(trigger)


def test_the_set_built_anew_after_a_rejected_resumed_build_lets_go_of_that_build():
    async def go() -> tuple[object, object, list[str]]:
        session = object.__new__(TableSession)
        session.hub = _Hub()
        session._rejected = object()                        # the resumed build was rejected…
        session._deferred = None                            # (no rules deferred behind a resumed hand)

        async def rejected_build() -> None:
            return None
        session._build = asyncio.ensure_future(rejected_build())     # …its task, done, still held

        async def set_aside() -> None:                      # a person mended the set
            session._rejected = None

        async def build_next() -> str:
            return "the set built anew"
        session._set_aside, session._build_next = set_aside, build_next
        below = await session._first_build()
        return below, session._build, session.hub.advanced

    below, build, advanced = run(go(), timeout=10)
    assert below == "the set built anew" and advanced == ["set_built"]
    assert build is None        # let go of: the next hand builds its next set beside it, as usual
