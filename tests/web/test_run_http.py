"""`mahjong-table run --http HOST:PORT` and `[web]` in the config: the address printed, mistakes in one line."""

import socket
import subprocess
import sys
import time

import pytest

from firmware.cli import main
from firmware.config import ConfigError, parse_config
from tests.processes import interrupt


def run_cli(*args, timeout=120):
    return subprocess.run([sys.executable, "-m", "firmware", "run", *args], capture_output=True, text=True, timeout=timeout)


def test_run_prints_the_web_address_and_serves_while_it_plays(tmp_path):
    proc = run_cli("--ruleset", "wuhan", "--hands", "1", "--speed", "0", "--db", str(tmp_path / "t.db"),
                   "--http", "127.0.0.1:0")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0].startswith("no configuration: running")
    assert lines[1].startswith("web view at http://127.0.0.1:") and "api/state" in lines[1]
    assert sum("; next dealer seat" in line for line in lines) == 1


def test_the_config_names_where_the_web_view_listens(tmp_path):
    config = tmp_path / "config.toml"
    config.write_text('[devices]\nmotor = "/dev/null"\nrfid = "/dev/zero"\n[web]\nlisten = "127.0.0.1:0"\n', encoding="utf-8")
    proc = run_cli("--config", str(config), "--simulate", "--ruleset", "wuhan", "--hands", "1", "--speed", "0",
                   "--db", str(tmp_path / "t.db"))
    assert proc.returncode == 0, proc.stderr
    assert any(line.startswith("web view at http://127.0.0.1:") for line in proc.stdout.splitlines())


@pytest.mark.parametrize("address, words", [
    ("0.0.0.0:8080", "set a token in the config"),
    ("8080", "give HOST:PORT"),
    ("table.local:8080", "must be an IP address"),
    ("127.0.0.1:80000", "port 80000 is out of range; give a port from 1 to 65535"),   # was "give HOST:PORT"
])
def test_a_wrong_address_is_one_line_and_status_2(tmp_path, capsys, address, words):
    assert main(["run", "--hands", "1", "--db", str(tmp_path / "t.db"), "--http", address]) == 2
    err = capsys.readouterr().err.strip()
    assert words in err and "\n" not in err and err.startswith("mahjong-table: error: --http")


def test_an_address_already_taken_is_one_line(tmp_path, capsys):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["run", "--hands", "1", "--speed", "0", "--db", str(tmp_path / "t.db"), "--http", f"127.0.0.1:{port}"]) == 2
    err = capsys.readouterr().err.strip()
    assert f"cannot listen on 127.0.0.1:{port}" in err and "--http HOST:PORT" in err and "\n" not in err


BOARDS = {"devices": {"motor": "/dev/ttyUSB0", "rfid": "/dev/ttyUSB1"}}


def test_the_web_section_is_checked_like_the_rest():
    config = parse_config({**BOARDS, "web": {"listen": "0.0.0.0:8080", "token": "x" * 20}})
    assert config.web.listen == "0.0.0.0:8080" and config.web.token == "x" * 20
    assert parse_config(BOARDS).web.listen is None
    with pytest.raises(ConfigError, match="web.token is too short"):
        parse_config({**BOARDS, "web": {"token": "short"}})
    with pytest.raises(ConfigError, match="unknown field web.port"):
        parse_config({**BOARDS, "web": {"port": 8080}})


def test_on_real_boards_the_view_is_read_only(tmp_path):
    """The real-board path (the standalone simulator's ptys named in a config): the state answers,
    there is no simulator object, and no key can be pressed from the web."""
    import json
    import urllib.error
    import urllib.request
    registry = tmp_path / "registry.json"
    sim = subprocess.Popen([sys.executable, "-m", "firmware", "sim", "--speed", "0", "--seed", "4", "--json",
                            "--registry", str(registry)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    table = None
    try:
        where = json.loads(sim.stdout.readline())
        config = tmp_path / "table.toml"
        config.write_text(f'[devices]\nmotor = "{where["motor"]}"\nrfid = "{where["rfid"]}"\ndisplay = "{where["display"]}"\n'
                          f'[table]\nruleset = "changchun"\n[storage]\nstate_dir = "{tmp_path / "state"}"\n'
                          f'[web]\nlisten = "127.0.0.1:0"\n', encoding="utf-8")
        enrolled = subprocess.run([sys.executable, "-m", "firmware", "enroll", "--config", str(config), "--import", str(registry)],
                                  capture_output=True, text=True, timeout=60)
        assert enrolled.returncode == 0, enrolled.stderr
        table = subprocess.Popen([sys.executable, "-m", "firmware", "run", "--config", str(config), "--hands", "1"],
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        assert table.stdout.readline().startswith("running 长春麻将 (changchun) on the boards of")
        address = table.stdout.readline().split()[3]
        assert address.startswith("http://127.0.0.1:")
        status = {"table": {"lifecycle": "starting"}}
        deadline = time.monotonic() + 60
        while status["table"]["lifecycle"] == "starting" and time.monotonic() < deadline:   # the boards open first
            with urllib.request.urlopen(address + "api/state", timeout=30) as response:
                status = json.load(response)["result"]["status"]
            time.sleep(0.1)
        assert status["table"]["ruleset"] == "changchun" and "sim" not in status
        press = urllib.request.Request(address + "api/sim/key", data=b'{"panel": 0, "key": "dice"}',
                                       headers={"Content-Type": "application/json"}, method="POST")
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(press, timeout=30)
        assert refused.value.code == 404 and "read-only" in json.load(refused.value)["error"]["message"]
    finally:
        interrupt(table, sim)


def test_a_network_closed_to_internet_sockets_names_the_drop_in_that_opens_it(tmp_path, capsys, network_closed):
    """Under the shipped systemd unit (RestrictAddressFamilies=AF_UNIX) an internet socket is refused
    its address family: the one line says which drop-in opens the network, not "choose another address"
    (asyncio alone skips a refused family: the run printed an address that served nothing)."""
    assert main(["run", "--hands", "1", "--speed", "0", "--db", str(tmp_path / "t.db"), "--http", "127.0.0.1:0"]) == 2
    err = capsys.readouterr().err.strip()
    assert "cannot listen on 127.0.0.1:0" in err and "deploy/network.conf" in err and "\n" not in err, err
