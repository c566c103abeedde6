"""Where a table reports: the broker URL, the table's name, [mqtt] in the configuration and the
command line — every mistake one line naming what to do, before the table starts."""

import ssl
from pathlib import Path

import pytest

from firmware.cli import main
from firmware.config import ConfigError, parse_config
from firmware.fleet.settings import FleetError, check_table_name, parse_broker_url

BOARDS = {"devices": {"motor": "/dev/ttyUSB0", "rfid": "/dev/ttyUSB1"}}


@pytest.mark.parametrize("url, host, port, tls", [
    ("mqtt://192.168.1.10", "192.168.1.10", 1883, False),
    ("mqtt://broker.local:1884", "broker.local", 1884, False),
    ("mqtts://broker.example", "broker.example", 8883, True),
    ("mqtt://[::1]:1883/", "::1", 1883, False),
])
def test_broker_urls_name_the_host_port_and_tls(url, host, port, tls):
    broker = parse_broker_url(url)
    assert (broker.host, broker.port, broker.tls) == (host, port, tls)


def test_credentials_come_from_the_url_or_the_settings_and_are_never_shown():
    broker = parse_broker_url("mqtt://table%2F3:s%40cret@h:1883")
    assert (broker.user, broker.password) == ("table/3", "s@cret")
    assert "s@cret" not in broker.url() and "s@cret" not in repr(broker)
    assert parse_broker_url("mqtt://h", user="t3", password="pw").user == "t3"


@pytest.mark.parametrize("url, words", [
    ("http://h:1883", "give mqtt://HOST[:PORT]"),
    ("mqtt://", "no host"),
    ("mqtt://h:99999", "out of range"),
    ("mqtt://127.0.0.1:0", "port 0 is out of range; give a port from 1 to 65535"),
    ("mqtt://h:1883/topic", "no path or query"),
    ("192.168.1.10:1883", "give mqtt://HOST[:PORT]"),
])
def test_a_wrong_broker_url_is_one_line(url, words):
    with pytest.raises(FleetError) as caught:
        parse_broker_url(url)
    assert words in str(caught.value) and "\n" not in str(caught.value)


def test_a_user_given_twice_or_a_password_alone_is_refused():
    with pytest.raises(FleetError, match="the user is given twice"):
        parse_broker_url("mqtt://a@h", user="b")
    with pytest.raises(FleetError, match="a password without a user"):
        parse_broker_url("mqtt://h", password="pw")
    with pytest.raises(FleetError, match="a password without a user"):     # (the password was dropped: a probe)
        parse_broker_url("mqtt://:pw@h")


def a_ca_bundle() -> Path:
    """The system's CA bundle: certificates that the TLS library reads (a file of our own would need a
    certificate made for the test)."""
    found = [Path(p) for p in (ssl.get_default_verify_paths().cafile, ssl.get_default_verify_paths().openssl_cafile)
             if p and Path(p).is_file()]
    if not found:
        pytest.skip("no CA bundle on this machine (Debian's ca-certificates): a readable CA file is not tried")
    return found[0]


def test_tls_is_the_scheme_a_flag_or_a_ca_file(tmp_path):
    assert parse_broker_url("mqtt://h", tls=True).tls
    ca = tmp_path / "ca.pem"
    ca.write_bytes(a_ca_bundle().read_bytes())
    broker = parse_broker_url("mqtt://h", tls=str(ca))
    assert broker.tls and broker.ca_file == str(ca) and broker.port == 1883
    with pytest.raises(FleetError, match="no such file"):
        parse_broker_url("mqtt://h", tls=str(tmp_path / "missing.pem"))


@pytest.mark.parametrize("name, ok", [("t03", True), ("hall-A_7", True), ("", False), ("t/03", False),
                                      ("t+", False), ("桌子", False), ("x" * 33, False)])
def test_a_table_name_is_safe_in_a_topic_and_a_home_assistant_id(name, ok):
    if ok:
        assert check_table_name(name) == name
    else:
        with pytest.raises(FleetError, match="use 1 to 32 letters, digits"):
            check_table_name(name)


def test_the_mqtt_section_is_checked_like_the_rest(tmp_path):
    config = parse_config({**BOARDS, "mqtt": {"url": "mqtt://10.0.0.2", "table": "t03", "user": "t03",
                                              "password": "pw", "tls": True}})
    assert config.mqtt.url == "mqtt://10.0.0.2" and config.mqtt.table == "t03" and config.mqtt.tls is True
    assert "pw" not in repr(config)
    assert parse_config(BOARDS).mqtt.url is None


@pytest.mark.parametrize("section, words", [
    ({"url": "mqtt://h"}, "mqtt.table is missing"),
    ({"table": "t1"}, "mqtt.url is missing"),
    ({"url": "ftp://h", "table": "t1"}, "mqtt: broker 'ftp://h'"),
    ({"url": "mqtt://h", "table": "t 1"}, "mqtt: table name 't 1'"),
    ({"url": "mqtt://h", "table": "t1", "tls": 1}, "mqtt.tls must be true, false or the path"),
    ({"url": "mqtt://h", "table": "t1", "port": 1883}, "unknown field mqtt.port"),
    ({"url": 5, "table": "t1"}, "mqtt.url must be a non-empty string"),
])
def test_a_wrong_mqtt_section_is_one_line(section, words):
    with pytest.raises(ConfigError) as caught:
        parse_config({**BOARDS, "mqtt": section}, "table.toml")
    assert words in str(caught.value) and "\n" not in str(caught.value), str(caught.value)


@pytest.mark.parametrize("args, words", [
    (["--mqtt", "mqtt://127.0.0.1:1"], "--mqtt mqtt://127.0.0.1:1: name this table too, --table NAME"),
    (["--table", "t1"], "--table t1: name the broker too, --mqtt URL"),
    (["--mqtt", "tcp://h", "--table", "t1"], "--mqtt tcp://h: broker 'tcp://h'"),
    (["--mqtt", "mqtt://h", "--table", "t/1"], "--table t/1: table name 't/1'"),
    (["--mqtt", "mqtt://h:0", "--table", "t1"], "port 0 is out of range"),
    (["--mqtt", "mqtt://h", "--table", "parlour"], "its broker client id mjt-parlour is the parlour's"),
])
def test_run_refuses_a_half_or_wrong_mqtt_in_one_line(tmp_path, capsys, args, words):
    assert main(["run", "--hands", "1", "--db", str(tmp_path / "t.db"), *args]) == 2
    err = capsys.readouterr().err.strip()
    assert words in err and "\n" not in err and err.startswith("mahjong-table: error:")


@pytest.mark.parametrize("args, words", [
    (["--mqtt", "mqtt:/h"], "--mqtt mqtt:/h: broker 'mqtt:/h': no host"),
    (["--mqtt", "mqtt://h", "--http", "0.0.0.0:8088"], "other machines could open the page; give --token-file"),
    (["--mqtt", "mqtt://h", "--http", "8088"], "give HOST:PORT"),
    (["--mqtt", "mqtt://h", "--token-file", "/nonexistent/token"], "--token-file /nonexistent/token: cannot read it"),
])
def test_parlour_refuses_a_wrong_argument_in_one_line(tmp_path, capsys, args, words):
    assert main(["parlour", "--db", str(tmp_path / "p.db"), *args]) == 2
    err = capsys.readouterr().err.strip()
    assert words in err and "\n" not in err and err.startswith("mahjong-table: error:")


def test_parlour_refuses_a_store_that_is_not_one(tmp_path, capsys):
    store = tmp_path / "p.db"
    store.write_bytes(b"this is not a database" * 100)
    assert main(["parlour", "--mqtt", "mqtt://127.0.0.1:1", "--http", "127.0.0.1:0", "--db", str(store)]) == 2
    err = capsys.readouterr().err.strip()
    assert "cannot use it as the parlour's store" in err and "--db" in err and "\n" not in err


def test_a_ca_file_that_is_no_certificate_or_a_folder_is_one_line_before_the_table_starts(tmp_path):
    """A text file given as the broker's CA certificate was read only once the reporting began: a
    40-line traceback, said as "a disk write failed"."""
    text = tmp_path / "ca.txt"
    text.write_text("not a certificate\n", encoding="utf-8")
    for path, words in ((text, "holds no certificate the TLS library can read"), (tmp_path, "is a folder"),
                        (tmp_path / "none.pem", "no such file")):
        with pytest.raises(FleetError) as caught:
            parse_broker_url("mqtts://broker:8883", tls=str(path))
        assert words in str(caught.value) and "\n" not in str(caught.value), caught.value
