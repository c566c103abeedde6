"""The simulator's arguments that `run` and `sim` both take, checked one way for both: a mistake is
one line before anything starts (the simulator's own process would refuse a fault only once serving)."""

from __future__ import annotations

import math
from typing import Any

from .errors import UserError


SLOWEST = 0.01          # the slowest --speed (a hundredth of real time)


def check_speed(speed: float) -> None:
    if not math.isfinite(speed):
        raise UserError(f"--speed {speed}: give a finite speed, e.g. 1 (real time), 10 or 0 (as fast as possible)")
    if speed < 0:
        raise UserError(f"--speed {speed}: must be >= 0 (0 = as fast as possible)")
    if 0 < speed < SLOWEST:                 # (1e-300 was taken: a table that looked stopped, a probe)
        raise UserError(f"--speed {speed:g}: slower than {SLOWEST:g} (a hundredth of real time) would look "
                        f"stopped; give {SLOWEST:g} or more, or 0 (as fast as possible)")


def simulator_faults(faults: list[str]) -> Any:
    """The `--fault` items as the simulator reads them (simulator.parse_faults)."""
    from simulator import parse_faults
    try:
        return parse_faults(faults)
    except ValueError as error:
        raise UserError(f"--fault {error}") from None


__all__ = ["check_speed", "simulator_faults"]
