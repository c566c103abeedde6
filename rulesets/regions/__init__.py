"""The regional rulesets: one module per region, each defining `REGION`.

The ids are the sections of RULES.md §35; `REGION_IDS` keeps the order of that table.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the region definitions are imported when a region is asked for, not with the ids
    from ..definition import Region

REGION_IDS = (
    "changchun", "jilin", "dongbei", "shenyang", "neimenggu", "hebei", "seventeen_tile",
    "shanghai", "nanjing", "luoshan", "hangzhou", "wenzhou", "zuanpai", "baida", "nanchang",
    "guangdong", "guangdong_jihu", "sixteen_tile", "bazhi", "changsha", "guizhou", "sichuan",
    "yichang", "wuhan", "guangshui", "xiangyang", "hainan", "lisi", "dabao", "yunnan", "guannan",
)


class UnknownRegion(KeyError):
    def __init__(self, region_id: str) -> None:
        super().__init__(region_id)
        self.message = f"unknown ruleset {region_id!r}; choose one of: {', '.join(REGION_IDS)}"

    def __str__(self) -> str:
        return self.message


def get_region(region_id: str) -> Region:
    if region_id not in REGION_IDS:
        raise UnknownRegion(region_id)
    return importlib.import_module(f"{__name__}.{region_id}").REGION


def all_regions() -> tuple[Region, ...]:
    return tuple(get_region(region_id) for region_id in REGION_IDS)
