"""House options change where indicators lie, what leaves play, the dead wall and the seats:
each variant plays whole hands whose recorders pass the audit."""

import io

import pytest

from firmware.records.audit import audit_events, read_events
from firmware.simulated import run_simulated
from rulesets.regions import get_region
from tests.asyncio_support import run

VARIANTS = [
    ("guizhou", {"ming_ji": "on"}), ("guizhou", {"ming_ji": "on", "ming_ji_kong": "move"}),
    ("guizhou", {"ji_trigger": "self_draw", "ji_wrap": "none"}),
    ("hebei", {"hun_reading": "red_and_kind"}), ("hebei", {"dead_wall": "none"}),
    ("yunnan", {"weipai_reading": "both_of_last_stack"}), ("yunnan", {"weipai_wall_end": "kept"}),
    ("zuanpai", {"zuan_wall": "upper_house", "zuan_dice": "1"}),
    ("zuanpai", {"da_que": "on"}), ("luoshan", {"caishen_tile": "set_aside", "break_start": "at"}),
    ("baida", {"baida_mode": "daidi", "baida_tile": "set_aside"}), ("changchun", {"reserve_reading": "R-A"}),
    ("changchun", {"reserve_reading": "R-C", "bao_count": "tiles", "bao_dice": "2"}), ("guangdong", {"ghost": "flip"}),
    ("guangdong", {"ghost": "white"}), ("hangzhou", {"caishen": "flip"}), ("nanchang", {"jing_position": "tail_top"}),
    ("guangshui", {"empty_side": "0", "removed_suit": "p"}), ("xiangyang", {"empty_side": "2"}),
    ("seventeen_tile", {"hand_reading": "stacks17"}), ("changsha", {"variant": "zhuanzhuan", "birds": "6"}),
    ("guangdong_jihu", {"flowers": "without", "horses": "8"}), ("wuhan", {"dead_wall": "4_tiles"}),
    ("lisi", {"reserve_reading": "R-A"}), ("shanghai", {"dead_wall": "7_stacks"}), ("dabao", {"que_yi_men": "on"}),
    ("dabao", {"reserve_kongs": "grows"}), ("hebei", {"fan_combine": "multiply"}),
    ("hainan", {"break_start": "at"}), ("sichuan", {"break_dice": "1"}), ("baida", {"baida_mode": "daidi", "baida_white": "both"}),
    ("baida", {"baida_white_count": "one"}),
]


@pytest.mark.parametrize("region_id, options", VARIANTS, ids=[f"{r}-{'-'.join(o.values())}" for r, o in VARIANTS])
def test_option_variant_plays_and_audits(region_id, options):
    events = io.StringIO()
    result = run(run_simulated(get_region(region_id).resolve(options), hands=6, seed=5, events=events), timeout=180)
    log = read_events(events.getvalue().splitlines())
    assert result.hands == 6 and audit_events(log) == []
    start = next(e for e in log if e["event"] == "hand_start")
    assert all(start["options"][key] == value for key, value in options.items())
