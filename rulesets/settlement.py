"""What a hand is worth and who pays: scoring items and payments per side.

A `Settlement` lists the scoring items (each with its Chinese name, pinyin and value), the hand's
total in the region's unit, and a payment per side (positive = receives).  Payments sum to zero
unless the region says otherwise (e.g. kong money paid at a drawn hand), which `balanced` records.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Item:
    """One scoring item: 门清 ×2, 碰碰胡 3 番, 暗刻 8 和 …"""

    key: str            # stable id, e.g. "menqing"
    zh: str             # 门清
    pinyin: str         # menqing
    value: int          # in `unit`
    unit: str = "fan"   # "fan" (番, doublings), "tai" (台), "points", "times" (a multiplier), "chips"

    def describe(self) -> str:
        units = {"fan": "番", "tai": "台", "points": "分", "times": "×", "chips": "筹", "hu": "和"}
        unit = units.get(self.unit, self.unit)
        return f"{self.zh} ({self.pinyin}) ×{self.value}" if self.unit == "times" else f"{self.zh} ({self.pinyin}) {self.value}{unit}"


@dataclass(frozen=True)
class Settlement:
    items: tuple[Item, ...]
    total: int                              # the hand's value (points per payer before seat factors)
    payments: tuple[int, int, int, int]     # per side; positive receives
    unit: str = "points"
    notes: tuple[str, ...] = field(default=())
    balanced: bool = True                   # payments sum to zero

    def __post_init__(self) -> None:
        if self.balanced and sum(self.payments) != 0:
            raise ValueError(f"payments {self.payments} do not sum to zero")


def payments_from(debts: dict[int, int], winner: int) -> tuple[int, int, int, int]:
    """Each debtor pays the winner its amount; the winner receives the sum."""
    payments = [0, 0, 0, 0]
    for side, amount in debts.items():
        payments[side] -= amount
        payments[winner] += amount
    return tuple(payments)  # type: ignore[return-value]


def add_payments(*parts: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
    return tuple(sum(p[i] for p in parts) for i in range(4))  # type: ignore[return-value]
