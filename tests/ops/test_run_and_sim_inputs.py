"""`run` and `sim` keep the promise for every value a person gives them: a wrong one is one line
naming it and what to do, exit status 2, never a traceback, and nothing is lost — faults, socket
URLs in a configuration and in --listen, a configuration's house options, an MQTT password, a
configuration saved with a BOM, a speed that is not a number, --registry over a file of one's own,
an empty value."""

import asyncio
import json
import os
from pathlib import Path

import pytest

from drivers.errors import PortError
from drivers.serial_transport import check_url
from firmware.cli import main
from firmware.config import ConfigError, load_config
from simulator import SimulatedTable, SimulatorError
from tests.ops.support import cli, needs_no_default_config

BOARDS = '[devices]\nmotor = "/dev/a"\nrfid = "/dev/b"\n'


pytestmark = pytest.mark.usefixtures("plain_user")     # (tests/ops/conftest.py)


def refused(capsys, *words: str) -> str:
    """The one line on stderr, checked for `words`."""
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("mahjong-table: error: ") and "Traceback" not in err, err
    for word in words:
        assert word in err, (word, err)
    return err


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


# -- 1. --fault: checked before the run starts, as `sim` checks it ------------------------------------------

@pytest.mark.parametrize("fault", ["nonsense", "corrupt=2", "corrupt=-1", "corrupt=nan", "jam=99:99"])
def test_run_refuses_a_wrong_fault_in_one_line_before_it_starts(tmp_path, capsys, fault):
    needs_no_default_config()
    assert main(["run", "--hands", "1", "--speed", "0", "--db", str(tmp_path / "t.db"), "--fault", fault]) == 2
    refused(capsys, "--fault ", repr(fault))
    assert "against the built-in simulator" not in capsys.readouterr().out


@pytest.mark.parametrize("command", ["run", "sim"])
@pytest.mark.parametrize("faults, words", [
    (["corrupt=0.01", "corrupt=0.05"], "'corrupt=0.05' gives corrupt on the motor wire again ('corrupt=0.01' gave it)"),
    (["corrupt=0.01", "rfid:corrupt=0.01"], "'rfid:corrupt=0.01' gives corrupt on the rfid wire again"),
    (["jam=2:6", "jam=2:3"], "'jam=2:3' gives a jam of lane 2 again"),
    (["hatch_open", "hatch_open"], "'hatch_open' gives hatch_open again"),
], ids=["corrupt", "a wire twice", "jam", "hatch_open"])
def test_a_fault_given_twice_is_refused_not_the_last_taken(tmp_path, capsys, monkeypatch, command, faults, words):
    """`--fault corrupt=0.01 --fault corrupt=0.05` ran with 0.05 without a word, as a house option
    given twice did: one line naming it, exit 2, before anything starts.  (What would start is
    stood in for: taken, `sim` would serve until Ctrl-C.)"""
    needs_no_default_config()
    monkeypatch.setattr("firmware.cli.cmd_run._run_configured", lambda *args: 0)
    monkeypatch.setattr("firmware.cli.cmd_sim._serve", lambda *args: asyncio.sleep(0, 0))
    given = [arg for fault in faults for arg in ("--fault", fault)]
    rest = ["--hands", "1", "--db", str(tmp_path / "t.db")] if command == "run" else [
        "--registry", str(tmp_path / "tiles.json")]
    assert main([command, "--speed", "0", *rest, *given]) == 2
    refused(capsys, "--fault ", words, "give each fault once")
    assert not (tmp_path / "t.db").exists() and not (tmp_path / "tiles.json").exists()


def test_two_faults_of_a_kind_on_different_lanes_or_wires_are_two_faults():
    from simulator import parse_faults

    faults = parse_faults(["jam=1:3", "jam=2", "display:corrupt=0.1", "corrupt=0.02", "overcurrent=dice",
                           "overcurrent=mixer"])
    assert faults.jams == {1: 3, 2: 0} and faults.overcurrent == {10, 0}
    assert [faults.wire[device].corrupt for device in ("display", "motor", "rfid")] == [0.1, 0.02, 0.02]


def test_a_simulator_that_does_not_start_is_one_line(tmp_path, capsys, monkeypatch):
    needs_no_default_config()

    async def not_serving(self):
        raise SimulatorError("the simulator process did not serve within 15 s")
    monkeypatch.setattr("simulator.spawn.SimulatorProcess.start", not_serving)
    assert main(["run", "--hands", "1", "--speed", "0", "--db", str(tmp_path / "t.db")]) == 1
    err = capsys.readouterr().err
    assert err == "mahjong-table: the built-in simulator failed: the simulator process did not serve within 15 s\n"


# -- 2. socket URLs: in a configuration, at the transport, in `sim --listen` ---------------------------------

@pytest.mark.parametrize("url, words", [
    ("socket://nohost.invalid:notaport", "PORT from 1 to 65535"),
    ("socket://127.0.0.1:99999", "PORT from 1 to 65535"),
    ("socket://127.0.0.1:0", "PORT from 1 to 65535"),
    ("socket://[::1:5", "PORT from 1 to 65535"),
    ("socket://:7000", "socket://HOST:PORT"),
    ("bogus://x", "unsupported URL scheme 'bogus'"),
    ("rfc2217://host:2217", "unsupported URL scheme 'rfc2217'"),
    ("loop://", "loop:// ports have no file descriptor"),
])
def test_a_config_refuses_a_url_the_transport_cannot_open(tmp_path, capsys, url, words):
    config = write(tmp_path / "table.toml", f'[devices]\nmotor = "{url}"\nrfid = "/dev/b"\n')
    with pytest.raises(ConfigError) as caught:
        load_config(config)
    assert str(caught.value).startswith(f"{config}: devices.motor = {url!r} is not a port the table can open: ")
    assert words in str(caught.value)
    assert main(["run", "--config", str(config), "--hands", "1", "--speed", "0"]) == 2
    refused(capsys, f"{config}: devices.motor", words)


@pytest.mark.parametrize("port", ["socket://127.0.0.1:7000", "socket://[::1]:7000", "socket://table.local:1",
                                  "SOCKET://127.0.0.1:7000", "/dev/serial/by-id/usb-x-if00"])
def test_a_config_accepts_a_device_path_or_a_socket_url(tmp_path, port):
    config = write(tmp_path / "table.toml", f'[devices]\nmotor = "{port}"\nrfid = "/dev/b"\n')
    assert load_config(config).devices.motor == port


@pytest.mark.parametrize("url", ["socket://nohost.invalid:notaport", "socket://127.0.0.1:99999", "socket://[::1:5"])
def test_the_transport_names_a_malformed_socket_url_in_one_line(url):
    with pytest.raises(PortError, match=r"write socket URLs as socket://HOST:PORT, PORT from 1 to 65535"):
        check_url(url)


@pytest.mark.parametrize("listen", ["socket://127.0.0.1:notaport", "socket://127.0.0.1:99999", "socket://[::1:5",
                                    "socket://127.0.0.1:65535", "socket://127.0.0.1:65534",
                                    "socket://127.0.0.1:0/extra", "socket://user@127.0.0.1:0"])
def test_sim_refuses_a_listen_address_it_cannot_serve(capsys, listen):
    assert main(["sim", "--listen", listen]) == 2
    refused(capsys, f"--listen {listen}: ", "PORT from 1 to 65533", "or 0 for any free port")


def test_the_simulated_table_names_a_listen_address_it_cannot_serve():
    """`python -m simulator serve` and tests start the table directly: one line there too."""
    async def main_():
        table = SimulatedTable(seed=0)
        with pytest.raises(SimulatorError, match=r"cannot listen on 'socket://127.0.0.1:65535': .* 1 to 65533"):
            await table.start("socket://127.0.0.1:65535")
        await table.stop()
    asyncio.run(main_())


# -- 3. [table] options belong to the configuration's ruleset ------------------------------------------------

def options_config(tmp_path: Path, table: str) -> Path:
    return write(tmp_path / "table.toml", f"{BOARDS}[table]\n{table}\n[storage]\nstate_dir = \"{tmp_path / 'state'}\"\n")


def session_options(events: Path) -> dict:
    return next(json.loads(line) for line in events.read_text(encoding="utf-8").splitlines()
                if json.loads(line)["event"] == "session_start")["options"]


def test_options_without_a_ruleset_apply_to_a_ruleset_that_has_them_and_never_stop_the_table(tmp_path, capsys):
    """The owner picks sichuan (on the panel; --ruleset here): the configuration's reserve_reading is
    left out with a warning naming the file, and the table starts, then and at the next start."""
    config = options_config(tmp_path, 'options = { reserve_reading = "R-A" }')
    base = ["run", "--config", str(config), "--simulate", "--hands", "1", "--speed", "0"]
    assert main([*base, "--ruleset", "sichuan"]) == 0
    assert main(base) == 0                                   # the saved choice, sichuan, with the same file
    out = capsys.readouterr().out
    warning = f"warning: {config}: table.options reserve_reading left out: sichuan has no such house option"
    assert out.count(warning) == 2 and "running 四川麻将 (sichuan)" in out
    events = tmp_path / "events.jsonl"
    assert main([*base, "--ruleset", "changchun", "--events", str(events)]) == 0
    assert session_options(events)["reserve_reading"] == "R-A"
    assert "left out" not in capsys.readouterr().out


def test_options_of_the_configurations_ruleset_stay_with_it(tmp_path, capsys):
    config = options_config(tmp_path, 'ruleset = "changchun"\noptions = { reserve_reading = "R-C" }')
    events = tmp_path / "events.jsonl"
    base = ["run", "--config", str(config), "--simulate", "--hands", "1", "--speed", "0"]
    assert main([*base, "--ruleset", "changchun", "--events", str(events)]) == 0
    assert session_options(events)["reserve_reading"] == "R-C"
    assert main([*base, "--ruleset", "sichuan"]) == 0           # another ruleset: they do not follow it
    assert "left out" not in capsys.readouterr().out


def test_an_option_error_names_the_file_or_the_flag_it_came_from(tmp_path, capsys):
    config = options_config(tmp_path, 'options = { reserve_reading = "R-Z" }')
    base = ["run", "--config", str(config), "--simulate", "--ruleset", "changchun", "--hands", "1", "--speed", "0"]
    assert main(base) == 2
    refused(capsys, f"error: {config}: table.options: option reserve_reading of changchun does not allow 'R-Z'")
    assert main(["run", "--simulate", "--ruleset", "changchun", "--option", "reserve_reading=R-Q", "--hands", "1",
                 "--db", str(tmp_path / "t.db")]) == 2
    refused(capsys, "error: --option reserve_reading=R-Q: option reserve_reading of changchun does not allow 'R-Q'")
    assert main(["rules", "show", "sichuan", "--option", "nope=1"]) == 2
    refused(capsys, "error: --option nope=1: sichuan has no house option 'nope'")


@pytest.mark.parametrize("command", [
    ["rules", "show", "changchun"],
    ["hand", "changchun", "111m234p789s46s99p5s", "--win-tile", "5s"],
    ["run", "--simulate", "--ruleset", "changchun", "--hands", "1", "--speed", "0", "--db", "DB"],
])
@pytest.mark.parametrize("values, said", [(("1", "2"), "(1 and 2)"), (("2", "2"), "(2 both times)")])
def test_a_house_option_given_twice_is_refused_not_last_wins(tmp_path, capsys, command, values, said):
    """`--option kong_value=1 --option kong_value=2` played 2 without a word (a probe): which was meant is
    the person's to say, as for any flag given twice; the same value twice is refused too."""
    argv = [str(tmp_path / "t.db") if word == "DB" else word for word in command]
    options = [word for value in values for word in ("--option", f"kong_value={value}")]
    assert main([*argv, *options]) == 2
    refused(capsys, f"error: --option kong_value given twice {said}: give it once")


# -- 4. an MQTT password is never shown --------------------------------------------------------------------

@pytest.mark.parametrize("url, words", [
    ("mqtt://u:secret@127.0.0.1:99999", "'mqtt://u:***@127.0.0.1:99999': Port out of range"),
    ("mqtt://u:secret@[::1", "Invalid IPv6 URL"),
    ("mqtt://u:secret@h:1883/topic", "no path or query"),
    ("tcp://u:secret@h", "'tcp://u:***@h'"),
    ("u:secret@h", "'u:***@h'"),
    ("mqtt://u:sec/ret@h", "write a '/' in the password as %2F"),
    ("mqtt://u:sec/ret@h:x", "as 'x'"),
    ("mqtt://u:sec://ret@h", "'mqtt://u:***@h'"),
])
def test_run_never_shows_the_mqtt_password(tmp_path, capsys, url, words):
    assert main(["run", "--hands", "1", "--db", str(tmp_path / "t.db"), "--mqtt", url, "--table", "t01"]) == 2
    err = refused(capsys, words)
    assert "secret" not in err and "sec/ret" not in err and "ret@" not in err


def test_run_without_a_table_name_never_shows_the_mqtt_password(tmp_path, capsys):
    assert main(["run", "--hands", "1", "--db", str(tmp_path / "t.db"), "--mqtt", "mqtt://u:secret@h"]) == 2
    assert "secret" not in refused(capsys, "--mqtt mqtt://u:***@h: name this table too")


def test_a_config_never_shows_the_mqtt_password(tmp_path):
    config = write(tmp_path / "table.toml", f'{BOARDS}[mqtt]\nurl = "mqtt://u:secret@h:99999"\ntable = "t01"\n')
    with pytest.raises(ConfigError) as caught:
        load_config(config)
    assert "secret" not in str(caught.value) and "mqtt://u:***@h:99999" in str(caught.value)


# -- 5. a configuration saved with a BOM ---------------------------------------------------------------------

def test_a_config_saved_with_a_bom_is_read(tmp_path):
    config = tmp_path / "table.toml"
    config.write_bytes(b"\xef\xbb\xbf" + BOARDS.encode())
    assert load_config(config).devices.motor == "/dev/a"
    config.write_bytes(b'\xef\xbb\xbf[devices]\nmotor = "/dev/\xff"\n')
    with pytest.raises(ConfigError, match=r"line 2: byte 0xff is not UTF-8"):
        load_config(config)
    config.write_bytes(b"\xef\xbb\xbf\n")
    with pytest.raises(ConfigError, match=r"is empty"):
        load_config(config)


# -- 6. a speed that is not a finite number ------------------------------------------------------------------

@pytest.mark.parametrize("command", ["run", "sim"])
@pytest.mark.parametrize("speed", ["nan", "inf", "-inf"])
def test_a_speed_that_is_not_finite_is_refused(tmp_path, capsys, command, speed):
    assert main([command, f"--speed={speed}", *(["--hands", "1"] if command == "run" else [])]) == 2
    refused(capsys, f"--speed {float(speed)}: give a finite speed")


# -- 7. sim --registry and --write-config overwrite only what sim wrote -------------------------------------

@pytest.mark.parametrize("content", [
    b'[devices]\nmotor = "/dev/a"\n',                           # a configuration
    b"SQLite format 3\x00" + bytes(200),                        # a ledger
    b'{"a": 1}', b"{}", b"[]", b'{"zz": {"tile": "1m", "set": 0, "copy": 0}}', b"\xff\xfe",
    b'{"0a0b": {"tile": "1m", "set": 0}}',
])
def test_sim_registry_never_overwrites_a_file_it_did_not_write(tmp_path, capsys, content):
    other = tmp_path / "mine.json"
    other.write_bytes(content)
    assert main(["sim", "--registry", str(other)]) == 2
    refused(capsys, f"--registry {other}: the file exists and was not written by `sim`; name a new file")
    assert other.read_bytes() == content


def test_sim_registry_overwrites_its_own_export(tmp_path):
    needs_no_default_config()
    for seed in ("0", "1"):
        proc = cli(["sim", "--speed", "0", "--seed", seed, "--registry", "tags.json", "--console"], tmp_path,
                   input="quit\n")
        assert proc.returncode == 0, proc.stderr
    tags = json.loads((tmp_path / "tags.json").read_text(encoding="utf-8"))
    table = SimulatedTable(seed=1)
    assert set(tags) == {uid.hex() for uid in table.registry()}


@pytest.mark.parametrize("flag, example", [("--registry", "tags.json"), ("--write-config", "sim.toml")])
def test_sim_names_a_folder_as_a_folder(tmp_path, capsys, flag, example):
    assert main(["sim", flag, str(tmp_path)]) == 2
    refused(capsys, f"{flag} {tmp_path}: is a folder; name a file, e.g. {flag} {tmp_path / example}")


def test_sim_refuses_an_export_to_a_folder_that_is_not_there_before_it_writes_either(tmp_path, capsys):
    """The registry was written, then the configuration failed: half of what was asked, and status 2."""
    assert main(["sim", "--registry", str(tmp_path / "tags.json"), "--write-config", str(tmp_path / "no" / "sim.toml")]) == 2
    refused(capsys, f"--write-config {tmp_path / 'no' / 'sim.toml'}: {tmp_path / 'no'} is not a folder you can write in")
    assert not (tmp_path / "tags.json").exists()


def test_sim_refuses_one_file_for_both_exports(tmp_path, capsys):
    assert main(["sim", "--registry", "x.json", "--write-config", str(tmp_path / "x.json")]) == 2
    refused(capsys, "are the same file; name two files")
    assert not (tmp_path / "x.json").exists()


# -- 8. an empty value is refused, never read as no flag ------------------------------------------------------

@pytest.mark.parametrize("flag", ["events", "db", "config", "http", "mqtt", "table", "ruleset"])
def test_run_refuses_an_empty_value(tmp_path, capsys, flag):
    assert main(["run", "--hands", "1", "--speed", "0", f"--{flag}", ""]) == 2
    refused(capsys, f"--{flag} is empty; give a value, e.g. --{flag} ")
    assert not (tmp_path / "xdg").exists()                      # nothing was opened, nothing played


def test_a_recorder_name_that_is_not_utf8_is_refused_before_any_file_is_made(tmp_path, capsys):
    """It failed deep in the run with the codec's words, not naming --events, and left an empty recorder."""
    name = os.fsdecode(bytes(tmp_path) + b"/\xff.jsonl")
    assert main(["run", "--hands", "1", "--speed", "0", "--db", str(tmp_path / "t.db"), "--events", name]) == 2
    refused(capsys, "--events", "the name is not UTF-8 text")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("command", [
    ["parlour", "--mqtt", "mqtt://127.0.0.1:1883", "--db", ""],
    ["parlour", "--mqtt", "mqtt://127.0.0.1:1883", "--token-file", ""],
    ["records", "--db", ""], ["records", "--folder", " "], ["records", "move", "--to", ""],
    ["enroll", "--registry", ""], ["enroll", "--simulate", "--import", ""],
    ["audit", "events.jsonl", "--ledger", ""], ["diagram", "--out", ""],
])
def test_the_other_commands_refuse_an_empty_value_too(tmp_path, capsys, monkeypatch, command):
    """Before, `parlour --db ""` opened the default store, `records --db ""` the default ledger,
    `enroll --import ""` began an enrolment by hand and `audit --ledger ""` said "sound" without the
    ledger: the flag was read as given not at all."""
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "xdg"))
    flag = command[-2]
    assert main(command) == 2
    refused(capsys, f"{flag} is empty; give a value, e.g. {flag} ")
    assert not (tmp_path / "xdg").exists()                      # nothing was opened


@pytest.mark.parametrize("flag", ["--registry", "--write-config"])
def test_sim_refuses_an_empty_file_name(capsys, flag):
    assert main(["sim", flag, ""]) == 2
    refused(capsys, f"{flag} is empty; name a file")
