"""Calls for the scoring worker's tests, in a module the worker process can import by name."""

import os
from pathlib import Path


def die_the_first_time(flag: str) -> str:
    """The first call ends the worker process mid-call (leaving `flag`); the next one answers."""
    if not os.path.exists(flag):
        Path(flag).touch()
        os._exit(7)
    return "answered"
