"""A table for the ops tests: the simulator in its own process (as real boards are), its ports as
ptys under the test's folder, the tiles enrolled on the folder's card, and a config naming them."""

import contextlib
from pathlib import Path

from simulator.spawn import SimulatorProcess
from tests.reliability.campaign import card_of, enroll_from, write_config


@contextlib.asynccontextmanager
async def simulated_table(folder: Path, region: str, seed: int, *, enrolled: bool = True):
    """(the simulator, the config naming its ports); `enrolled` False leaves the card's registry empty."""
    async with SimulatorProcess("--seed", str(seed), "--speed", "0", "--ruleset", region, "--players-seed", str(seed),
                                "--listen", f"pty:{folder / 'ports'}") as sim:
        if enrolled:
            await enroll_from(sim, folder)
        else:
            card_of(folder).mkdir(parents=True, exist_ok=True)
        yield sim, write_config(folder, sim.endpoints)
