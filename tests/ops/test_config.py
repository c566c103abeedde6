"""issue 9 item 7: a configuration names the boards or is refused; every value's type and range is
checked; any byte of any file is one line; where the configuration is looked for."""

from pathlib import Path

import pytest

from firmware.config import (CONFIG_ENV, ConfigError, find_config, load_config, parse_config)

from tests.ops.support import clean_env, cli, one_line_error

BOARDS = {"motor": "/dev/ttyUSB0", "rfid": "/dev/ttyUSB1"}


def write(tmp_path: Path, data: bytes, name: str = "c.toml") -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


@pytest.mark.parametrize("text", ["", "   \n\n", "[table]\nruleset = \"sichuan\"\n", "[devices]\n",
                                  "[storage]\nstate_dir = \"/tmp/x\"\n"])
def test_a_config_that_names_no_boards_is_refused(tmp_path, text):
    with pytest.raises(ConfigError) as caught:
        load_config(write(tmp_path, text.encode()))
    message = str(caught.value)
    assert ("names no boards" in message or "is empty" in message) and "\n" not in message


def test_run_with_a_config_without_boards_exits_2_and_never_simulates(tmp_path):
    config = write(tmp_path, b"[table]\nruleset = \"sichuan\"\n")
    proc = cli(["run", "--config", str(config), "--hands", "1", "--speed", "0"], tmp_path)
    one_line_error(proc, "names no boards", str(config))
    assert "simulator" not in proc.stdout and proc.stdout == ""


@pytest.mark.parametrize("value, accepted", [
    ("115200", True), ("9600", True), ("921600", True), ("1200", True), ("4000000", True),
    ("true", False), ("false", False), ("99999999999999", False), ("0", False), ("-9600", False),
    ("115200.0", False), ('"115200"', False), ("1199", False),
])
def test_baudrate_is_a_whole_number_in_range(tmp_path, value, accepted):
    text = f'[devices]\nmotor = "/dev/a"\nrfid = "/dev/b"\nbaudrate = {value}\n'.encode()
    if accepted:
        assert load_config(write(tmp_path, text)).devices.baudrate == int(value)
        return
    with pytest.raises(ConfigError, match=r"devices\.baudrate = .* must be a whole number from 1200 to 4000000"):
        load_config(write(tmp_path, text))


@pytest.mark.parametrize("raw, words", [
    ({"devices": {"motor": "COM3", "rfid": "/dev/b"}}, "devices.motor = 'COM3' is not a port"),
    ({"devices": {"motor": "/dev/a", "rfid": "/dev/a"}}, "devices.motor and devices.rfid are both '/dev/a'"),
    ({"devices": {"motor": 5, "rfid": "/dev/b"}}, "devices.motor must be a non-empty string"),
    ({"devices": {"motor": "", "rfid": "/dev/b"}}, "devices.motor must be a non-empty string"),
    ({"devices": {**BOARDS, "display": True}}, "devices.display must be a non-empty string"),
    ({"devices": BOARDS, "table": {"ruleset": "atlantis"}}, "table.ruleset = 'atlantis' is not a ruleset"),
    ({"devices": BOARDS, "table": {"ruleset": 3}}, "table.ruleset must be a non-empty string"),
    ({"devices": BOARDS, "table": {"options": {"reserve_reading": ""}}}, "table.options must be a table of strings"),
    ({"devices": BOARDS, "storage": {"state_dir": "relative/dir"}}, "storage.state_dir = 'relative/dir' must be an absolute path"),
    ({"devices": BOARDS, "storage": {"events_dir": False}}, "storage.events_dir must be a non-empty string"),
    ({"devices": BOARDS, "stray": 1}, "unknown setting 'stray' outside any section"),
])
def test_every_value_is_checked_by_name(raw, words):
    with pytest.raises(ConfigError) as caught:
        parse_config(raw, "table.toml")
    assert words in str(caught.value) and "\n" not in str(caught.value), str(caught.value)


def test_a_socket_url_and_home_relative_folders_are_accepted():
    config = parse_config({"devices": {"motor": "socket://127.0.0.1:7000", "rfid": "socket://table.local:7001"},
                           "storage": {"state_dir": "~/table"}, "table": {"ruleset": "sichuan"}})
    assert config.devices.motor.startswith("socket://") and config.state_dir.is_absolute()
    assert config.simulator_state_dir == config.state_dir / "simulator" and config.ruleset == "sichuan"


@pytest.mark.parametrize("data, words", [
    (b'[devices]\nmotor = "/dev/\xff"\n', "line 2: byte 0xff is not UTF-8"),
    (b"\xef\xbb", "line 1: byte 0xef is not UTF-8"),
    (b"\x00\x01\x02", "not valid TOML"),
    (b"[devices\nmotor=", "not valid TOML"),
    (b"[" * 5000, "not valid TOML"),
    (bytes(range(256)), "not UTF-8"),
])
def test_any_byte_of_a_config_file_is_one_line(tmp_path, data, words):
    proc = cli(["run", "--config", str(write(tmp_path, data))], tmp_path)
    one_line_error(proc, words)


def test_a_directory_or_a_missing_file_is_one_line(tmp_path):
    one_line_error(cli(["run", "--config", str(tmp_path)], tmp_path), "is a directory")
    one_line_error(cli(["enroll", "--config", str(tmp_path / "nope.toml")], tmp_path), "no such file")


def test_the_config_is_found_by_flag_then_environment_then_default_path(tmp_path):
    default = write(tmp_path, b"", "default.toml")
    assert find_config("given.toml", {CONFIG_ENV: "env.toml"}, default) == Path("given.toml")
    assert find_config(None, {CONFIG_ENV: "env.toml"}, default) == Path("env.toml")
    assert find_config(None, {CONFIG_ENV: ""}, default) == default
    assert find_config(None, {}, tmp_path / "absent.toml") is None


def test_the_environment_override_is_used_by_run(tmp_path):
    config = write(tmp_path, b'[devices]\nmotor = "/dev/a"\nrfid = "/dev/a"\n')
    env_proc = cli(["run", "--hands", "1"], tmp_path, env={**clean_env(tmp_path), CONFIG_ENV: str(config)})
    one_line_error(env_proc, str(config), "both '/dev/a'")
