"""Boards on each other's ports (the motor board's cable in the RFID board's adapter): the run stops in
one line naming the port and what to check, and shows E26 on the table's display, naming the board,
so the people at the table see why it does not play (before, the display kept whatever it showed)."""

import subprocess
import sys

from tests.asyncio_support import run
from tests.ops.simulated_table import simulated_table
from tests.reliability.campaign import _child_env


async def start_with_the_ports_swapped(folder):
    async with simulated_table(folder, "hainan", 5) as (sim, config):
        text = config.read_text(encoding="utf-8")
        motor, rfid = sim.endpoints.motor, sim.endpoints.rfid
        config.write_text(text.replace(f'motor = "{motor}"', "motor = \"@RFID@\"")
                              .replace(f'rfid = "{rfid}"', f'rfid = "{motor}"').replace("@RFID@", rfid),
                          encoding="utf-8")
        done = subprocess.run([sys.executable, "-m", "firmware", "run", "--config", str(config), "--ruleset", "hainan"],
                              capture_output=True, text=True, env={**_child_env(), "MAHJONG_TABLE_CONFIG": ""},
                              timeout=120)
        view = await sim.control.table()
    return done, view, rfid


def test_boards_on_each_other_s_ports_stop_the_run_in_one_line_with_e26_on_the_display(tmp_path):
    done, view, rfid = run(start_with_the_ports_swapped(tmp_path), timeout=180)
    assert done.returncode == 1
    lines = done.stderr.strip().splitlines()
    assert lines == [f"mahjong-table: the table stopped: motor board at {rfid} answers as the RFID board, not the "
                     "MOTOR board: check which port is which"]
    assert view.page == "fault"
    assert view.components["fault.t_code"].text == "E26"
    assert view.components["fault.t_text"].text == "主板通信不兼容（电机板）"
    assert view.components["fault.t_hint"].text == "请技术人员检查接线与主板固件"
