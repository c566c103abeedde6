"""The configuration file and the front-panel menu (remembered across restarts)."""

import pytest

from drivers.motor_protocol import Key
from firmware.config import ConfigError, load_config, parse_config, unstable_port_names
from firmware.panel import Menu, Settings
from rulesets.regions import REGION_IDS


def test_the_sample_config_loads():
    config = load_config("deploy/config.toml")
    assert config.devices.motor == "/dev/mahjong-motor" and config.devices.baudrate == 115200


@pytest.mark.parametrize("raw, words", [
    ({"devices": {"rfid": "/dev/x"}}, "devices.motor is missing"),
    ({"device": {}}, "unknown section [device]"),
    ({"devices": {"motor": "/dev/a", "rfid": "/dev/b", "baud": 9600}}, "unknown field devices.baud"),
    ({"devices": {"motor": "/dev/a", "rfid": "/dev/b", "baudrate": "fast"}}, "devices.baudrate = 'fast' must be a whole number"),
    ({"table": {"options": {"reserve_reading": 2}}}, "table.options must be a table of strings"),
])
def test_config_mistakes_are_one_line_naming_the_field(raw, words):
    with pytest.raises(ConfigError) as caught:
        parse_config(raw, "table.toml")
    assert words in str(caught.value) and "\n" not in str(caught.value) and str(caught.value).startswith("table.toml")


def test_bad_toml_names_the_file(tmp_path):
    path = tmp_path / "c.toml"
    path.write_text("[devices\nmotor=", encoding="utf-8")
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_config(path)


def test_menu_chooses_a_ruleset_and_an_option_and_settings_remember_it(tmp_path):
    menu = Menu.starting_at("changchun", {})
    menu.press(Key.MENU)
    menu.press(Key.RIGHT)                       # → jilin
    assert menu.region_id == REGION_IDS[1]
    menu.press(Key.LEFT)                        # back to changchun
    menu.press(Key.CONFIRM)                     # to the first option line
    line = menu.view()
    assert line["t_opt0"] == "→开牌：跳过点数墩"             # the cursor, the label and the value in Chinese
    menu.press(Key.CONFIRM)                     # cycle break_start: skip → at
    assert menu.options["break_start"] == "at"
    assert menu.press(Key.LIFT) == "save"
    settings = Settings(tmp_path / "s.db")
    settings.save_choice(menu.region_id, menu.options)
    settings.close()
    again = Settings(tmp_path / "s.db")
    assert again.ruleset_choice() == ("changchun", {"break_start": "at"})


def test_a_saved_choice_that_became_invalid_falls_back(tmp_path):
    settings = Settings(tmp_path / "s.db")
    settings.put("ruleset", "atlantis")
    assert settings.ruleset_choice() == ("changchun", {})


def test_a_port_numbered_by_the_kernel_is_warned_of_and_a_stable_name_is_not():
    config = parse_config({"devices": {"motor": "/dev/ttyUSB0", "rfid": "/dev/serial/by-id/usb-FTDI_rfid-if00",
                                       "display": "/dev/ttyACM1"}}, "table.toml")
    warnings = unstable_port_names(config.devices)
    assert len(warnings) == 2
    assert warnings[0].startswith("devices.motor = '/dev/ttyUSB0' is numbered by the kernel")
    assert warnings[1].startswith("devices.display = '/dev/ttyACM1'") and "/dev/serial/by-id/" in warnings[1]
    assert unstable_port_names(load_config("deploy/config.toml").devices) == ()


def test_the_panel_s_saved_house_options_are_the_rules_a_start_plays(tmp_path):
    """A probe at the table: options chosen on the front panel were dropped at every start (the saved
    ruleset kept, its options not), so a restart found the journaled hand under other rules and
    voided it.  With no ruleset named on the command line or in the configuration, a start plays the
    panel's choice as saved, options and all; the configuration's options give way to the panel's."""
    import argparse

    from firmware.cli.cmd_run import _choose_ruleset
    from firmware.config import TableConfig
    from firmware.panel import Settings

    db = tmp_path / "table.db"
    settings = Settings(db)
    settings.save_choice("changchun", {"break_start": "at", "kong_value": "2"})
    settings.close()
    config = TableConfig(devices=None, options={"kong_value": "5", "bao_dice": "2"})
    ruleset = _choose_ruleset(argparse.Namespace(ruleset=None, option=[]), config, db)
    options = dict(ruleset.options)
    assert ruleset.id == "changchun"
    assert (options["break_start"], options["kong_value"], options["bao_dice"]) == ("at", "2", "2")
    pinned = _choose_ruleset(argparse.Namespace(ruleset="changchun", option=[]), config, db)
    assert dict(pinned.options)["break_start"] == "skip"       # named on the command line: its own options


@pytest.mark.parametrize("second", ["link", "localhost"])
def test_one_device_under_two_names_is_refused_in_one_line(tmp_path, second):
    """A by-id link and the node it points at, or localhost and 127.0.0.1: the second name failed only
    later, as "held open by another program (another mahjong-table?)", or took the motor link down
    and up twice a second (a probe)."""
    link = tmp_path / "usb-motor-if00"
    link.symlink_to("/dev/null")
    ports = {"link": ("/dev/null", str(link)), "localhost": ("socket://127.0.0.1:7001", "socket://localhost:7001")}
    motor, rfid = ports[second]
    with pytest.raises(ConfigError) as caught:
        parse_config({"devices": {"motor": motor, "rfid": rfid}}, "table.toml")
    text = str(caught.value)
    assert "devices.motor and devices.rfid are both" in text and "one device" in text and "\n" not in text


def test_two_devices_are_two_devices(tmp_path):
    config = parse_config({"devices": {"motor": "/dev/null", "rfid": "/dev/zero",
                                       "display": "socket://127.0.0.1:7002"}}, "table.toml")
    assert config.devices.rfid == "/dev/zero"
