"""`mahjong-table run --http HOST:PORT` and `[web]` in the config: the address printed, mistakes in one line."""

import socket
import subprocess
import sys

import pytest

from firmware.cli import main
from firmware.config import ConfigError, parse_config


def run_cli(*args, timeout=120):
    return subprocess.run([sys.executable, "-m", "firmware", "run", *args], capture_output=True, text=True, timeout=timeout)


def test_run_prints_the_web_address_and_serves_while_it_plays(tmp_path):
    proc = run_cli("--ruleset", "wuhan", "--hands", "1", "--speed", "0", "--db", str(tmp_path / "t.db"),
                   "--http", "127.0.0.1:0")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0].startswith("no configuration: running")
    assert lines[1].startswith("web view at http://127.0.0.1:") and "api/state" in lines[1]
    assert sum(line.startswith("hand ") for line in lines) == 1


def test_the_config_names_where_the_web_view_listens(tmp_path):
    config = tmp_path / "config.toml"
    config.write_text('[web]\nlisten = "127.0.0.1:0"\n', encoding="utf-8")
    proc = run_cli("--config", str(config), "--ruleset", "wuhan", "--hands", "1", "--speed", "0", "--db", str(tmp_path / "t.db"))
    assert proc.returncode == 0, proc.stderr
    assert any(line.startswith("web view at http://127.0.0.1:") for line in proc.stdout.splitlines())


@pytest.mark.parametrize("address, words", [
    ("0.0.0.0:8080", "set a token in the config"),
    ("8080", "give HOST:PORT"),
    ("table.local:8080", "must be an IP address"),
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


def test_the_web_section_is_checked_like_the_rest():
    config = parse_config({"web": {"listen": "0.0.0.0:8080", "token": "x" * 20}})
    assert config.web.listen == "0.0.0.0:8080" and config.web.token == "x" * 20
    assert parse_config({}).web.listen is None
    with pytest.raises(ConfigError, match="web.token is too short"):
        parse_config({"web": {"token": "short"}})
    with pytest.raises(ConfigError, match="unknown field web.port"):
        parse_config({"web": {"port": 8080}})
