"""The scoring worker's own side, and the wire both sides speak (firmware/worker.py starts it).

Run as `python -m firmware.worker_side`: it gives rulesets the suit win table (mapped from its kept
file, firmware/win_tables.py), builds the rest, then answers calls one at a time until its input
ends.  A call is a frame (4-byte length, then a pickle of the function, by name, and its plain-data
arguments; a region's ruleset travels as its region id and house options), and so is each answer.

Kept apart from `firmware.worker` (the controller's side, which runs on the event loop) so that the
worker process never imports asyncio: a third of a worker's start-up went to importing it, and the
controller starts a worker with every start and after every worker death.
"""

from __future__ import annotations

import functools
import io
import os
import pickle
import struct
import sys
from typing import Any

from rulesets.definition import Ruleset
from rulesets.regions import REGION_IDS, get_region
from rulesets.winning import prepare

from .win_tables import use_kept_table

LENGTH = struct.Struct(">I")


class _Pickler(pickle.Pickler):
    """A region's ruleset travels as its name and options: it holds functions of its own (some
    made as it is resolved) that a pickle cannot carry, and the worker has the same regions."""

    def reducer_override(self, obj: Any) -> Any:
        if isinstance(obj, Ruleset) and obj.region.id in REGION_IDS and get_region(obj.region.id) is obj.region:
            return _ruleset, (obj.region.id, obj.options)
        return NotImplemented


def dumps(value: Any) -> bytes:
    """A call or an answer as it goes down or up the pipe."""
    buffer = io.BytesIO()
    _Pickler(buffer, pickle.HIGHEST_PROTOCOL).dump(value)
    return buffer.getvalue()


@functools.lru_cache(maxsize=8)
def _ruleset(region_id: str, options: tuple[tuple[str, str], ...]) -> Ruleset:
    """In the worker: the ruleset a call names, resolved once per region and options."""
    return get_region(region_id).resolve(dict(options))


def serve(stdin: Any, stdout: Any) -> None:
    """The worker's side: answer calls until the controller closes our input."""
    use_kept_table()            # the suit table mapped from its file (built and kept the first time)
    prepare()                   # (the honour tables with 南昌's honour chows: built at its first call)
    while True:
        head = stdin.read(LENGTH.size)
        if len(head) < LENGTH.size:
            return                                  # the controller is gone or done with us
        request = stdin.read(LENGTH.unpack(head)[0])
        try:
            fn, args = pickle.loads(request)
            answer = (True, fn(*args))
        except Exception as error:                  # the caller's error, raised in the controller
            _say_where(error)
            answer = (False, error)
        try:
            frame = dumps(answer)
        except Exception as error:                  # an answer that cannot travel: say so instead
            frame = dumps((False, RuntimeError(f"the worker's answer could not be sent: {error}")))
        stdout.write(LENGTH.pack(len(frame)) + frame)
        stdout.flush()


def _say_where(error: Exception) -> None:
    """Where a call failed, on the worker's standard error (the service's log): the error travels to
    the controller without its traceback, which whoever mends the fault needs."""
    import traceback                                # (only when something failed: it costs the start-up)
    print("the scoring worker's call failed:", file=sys.stderr)
    traceback.print_exception(error, file=sys.stderr)
    sys.stderr.flush()


if __name__ == "__main__":
    out = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)                                   # a stray print goes to stderr, not into the frames
    try:
        serve(sys.stdin.buffer, out)
    except (BrokenPipeError, KeyboardInterrupt):
        pass
