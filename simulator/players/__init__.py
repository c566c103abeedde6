"""Simulated players: people at the simulated table who play legal hands of any region.

`SimulatedPlayers(table, ruleset, seed=…, style=PlayStyle())` plays hand after hand through the
physical model (simulator/table.py), reading only what the table shows (docs/table-flow.md).

Modules: screen (reading the displays), wall (the ring and the live count), knowledge (the
shared table top), player (one private hand), shanten and brain (the AI), rules (the region as
players need it), crew (the people and their habits), deal, hand_play and prompts (the hand),
simulated (the loop over hands), style (the knobs).
"""

from .brain import Claim, Discard, SelfKong
from .crew import Action, Stats
from .prompts import WinClaim
from .rules import flower_kinds
from .simulated import SimulatedPlayers
from .style import PlayStyle

__all__ = ["Action", "Claim", "Discard", "PlayStyle", "SelfKong", "SimulatedPlayers", "Stats", "WinClaim",
           "flower_kinds"]
