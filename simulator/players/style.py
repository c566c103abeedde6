"""How the simulated players play: a few knobs, all probabilities drawn from the seeded RNG."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class PlayStyle:
    """The table's temperament.  Every chance is per decision unless said otherwise."""

    pong: float = 0.8             # pong when it does not set the hand back
    chi: float = 0.5              # chow from 上家 when it does not set the hand back
    kong: float = 0.95            # make a kong (exposed, added, concealed) when one is possible
    keep_pairs: float = 0.4       # per hand and player: prefer pungs (pairs kept), so more kongs
    defensive: float = 0.15       # per hand: a careful hand, everyone plays safe into 荒庄 …
    defend_from: float = 0.9      # …once this share of the live wall (at the start of play) is left
    declare_optional: float = 0.5 # declare 听 where it is optional (always where it shows the 宝)
    think: float = 0.4            # virtual seconds a player takes per action (0 at speed 0)
    la_zhuang: float = 0.5        # 十六张: a payer of the dealer's win asks 拉庄 (a third of his debt carried)

    def __post_init__(self) -> None:
        for name in ("pong", "chi", "kong", "keep_pairs", "defensive", "defend_from", "declare_optional", "la_zhuang"):
            value = getattr(self, name)
            if not 0.0 <= value <= 1.0:
                raise ValueError(f"PlayStyle.{name} is a chance between 0 and 1, got {value}")
        if self.think < 0:
            raise ValueError(f"PlayStyle.think is virtual seconds >= 0, got {self.think}")
