"""`mahjong-table sim` as a user runs it: prints where the devices are, serves until Ctrl-C."""

import json
import os
import signal
import subprocess
import sys

import pytest

from drivers.motor import MotorBoard
from drivers.motor_protocol import ShuffleDone
from tests.asyncio_support import run
from tests.simulator.conftest import collect_until

pytestmark = pytest.mark.timeout(60)


def test_sim_command_serves_until_interrupted(tmp_path):
    registry = tmp_path / "registry.json"
    process = subprocess.Popen(
        [sys.executable, "-m", "firmware", "sim", "--speed", "0", "--seed", "4", "--json",
         "--fault", "corrupt=0.02", "--registry", str(registry)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=os.getcwd())
    try:
        where = json.loads(process.stdout.readline())
        assert set(where) == {"motor", "rfid", "display"}

        async def talk():
            motor = await MotorBoard.open(where["motor"])
            try:
                await motor.shuffle(100)
                await collect_until(motor, ShuffleDone)
            finally:
                await motor.close()
        run(talk())
        process.send_signal(signal.SIGINT)
        assert process.wait(10) == 0
        assert len(json.loads(registry.read_text())) == 272
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        process.stdout.close()
        process.stderr.close()


@pytest.mark.parametrize("args, words", [
    (["--fault", "gremlins"], "unknown fault 'gremlins'"),
    (["--speed", "-1"], "--speed -1.0: must be >= 0"),
    (["--speed", "1e-300"], "--speed 1e-300: slower than 0.01 (a hundredth of real time) would look stopped"),
    (["--sets", "99"], "--sets 99: choose one of"),
    (["--listen", "usb"], "--listen usb: use 'pty'"),
])
def test_user_mistakes_are_one_line_and_exit_2(args, words):
    result = subprocess.run([sys.executable, "-m", "firmware", "sim", *args],
                            capture_output=True, text=True, timeout=30)
    assert result.returncode == 2
    assert words in result.stderr and result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
