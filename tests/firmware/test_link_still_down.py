"""A reconnection that hangs is said, not silent (河北 campaign 9027: after a motor board's reboot
during a link cut, the first attempt failed and then nothing was logged for 60 s).  While an
episode's reconnection runs, the link keeper says that the link is still down (after
`still_down_every` seconds, then at doubling waits), which attempt is under way and why the last one
failed; it stops once the link is back."""

import asyncio
import logging

from drivers.errors import LinkLost, NoResponse
from drivers.reconnect import Attempt, Reconnected
from firmware import links
from firmware.links import LinkKeeper
from tests.asyncio_support import run


class _Client:
    device = "motor board at /dev/pts/9"

    class link:                     # the episode journals the session it ends with
        session_ref = None


def test_a_reconnection_that_hangs_is_said_until_the_link_is_back(monkeypatch, caplog):
    caplog.set_level(logging.INFO, logger="firmware.link")
    back = asyncio.Event()

    async def reconnect(client, on_attempt):
        on_attempt(Attempt(client.device, 1, True, NoResponse("no answer within 2.0 s"), 0.1))
        await back.wait()          # attempt 2 never ends by itself (a port that will not reopen)
        return Reconnected(client.device, None, True, 1, 1, 2)
    monkeypatch.setattr(links, "reconnect", reconnect)

    async def nothing(*_):
        return None

    def said() -> list[str]:
        return [r.getMessage() for r in caplog.records if "still down" in r.getMessage()]

    async def scenario() -> None:
        keeper = LinkKeeper(lambda *_: None, nothing, lambda *_: None, lambda *_: None, still_down_every=0.01)
        episode = asyncio.ensure_future(keeper.episode("motor", _Client(), LinkLost("silent")))
        while len(said()) < 2:
            await asyncio.sleep(0.005)
        back.set()
        outcome = await episode
        assert outcome.attempts == 2
        await asyncio.sleep(0)                      # the saying stops once back (`run` fails on a task left)
        assert not [t for t in asyncio.all_tasks() if t.get_name() == "still-down-motor" and not t.done()]
        await keeper.close()

    run(scenario(), timeout=10)
    first = said()[0]
    assert first.startswith("motor link still down after") and "attempt 2 under way" in first
    assert "attempt 1 failed (no answer within 2.0 s)" in first
