"""The systemd unit (issue 13 item 2, issue 10 item 4): Type=notify with a watchdog, hardened to an
exposure of at most 3.0, serial devices only, the configured events folder, the default config."""

import shutil
import subprocess

import pytest

from firmware.config import CONFIG_ENV, DEFAULT_CONFIG_PATH, load_config
from tests.ops.support import ROOT
from tests.ops.unit_file import UNIT, read_unit, service

EXPOSURE_LIMIT = 3.0


def test_the_unit_waits_for_ready_and_restarts_a_hung_controller():
    assert service("Type") == "notify" and service("NotifyAccess") == "main"
    assert int(service("WatchdogSec")) > 0 and service("Restart") == "on-failure"


@pytest.mark.parametrize("key, value", [
    ("NoNewPrivileges", "yes"), ("ProtectSystem", "strict"), ("PrivateTmp", "yes"), ("ProtectHome", "yes"),
    ("DevicePolicy", "closed"), ("CapabilityBoundingSet", ""), ("RestrictAddressFamilies", "AF_UNIX"),
])
def test_the_unit_is_hardened(key, value):
    assert service(key) == value


def test_only_serial_devices_are_allowed():
    allowed = read_unit()["Service"]["DeviceAllow"]
    assert allowed and all(rule.split()[0] in ("char-ttyUSB", "char-ttyACM") and rule.split()[1] == "rw"
                           for rule in allowed), allowed
    assert read_unit()["Service"].get("PrivateUsers", ["no"])[-1] == "no"    # the dialout group must stay mapped
    assert read_unit()["Service"].get("PrivateDevices", ["no"])[-1] == "no"  # it would hide the serial devices


def test_the_unit_writes_only_the_configured_state_and_events_folders():
    config = load_config(ROOT / "deploy" / "config.toml")
    state_dirs = service("StateDirectory").split()
    assert [f"/var/lib/{d}" for d in state_dirs] == [str(config.state_dir), str(config.events_dir)]
    assert service("ReadWritePaths") == str(config.state_dir)
    assert service("StateDirectoryMode") == "0750" and service("UMask") == "0077"


def test_the_unit_uses_the_default_config_and_a_new_recorder_per_start():
    assert service("Environment") == f"{CONFIG_ENV}={DEFAULT_CONFIG_PATH}"
    start = service("ExecStart").split()
    assert start == ["/opt/mahjong-table/bin/mahjong-table", "run"]      # no --events: never one file truncated


def test_systemd_rates_the_unit_at_most_3(tmp_path):
    tool = shutil.which("systemd-analyze")
    if tool is None:
        pytest.skip("systemd-analyze is not installed: the exposure of the unit is not measured here")
    proc = subprocess.run([tool, "security", "--offline=yes", f"--threshold={int(EXPOSURE_LIMIT * 10)}", str(UNIT)],
                          capture_output=True, text=True, timeout=60)
    exposure = float(proc.stdout.rsplit("Overall exposure level for mahjong-table.service:", 1)[1].split()[0])
    assert exposure <= EXPOSURE_LIMIT and proc.returncode == 0, proc.stdout[-3000:]


def test_systemd_reads_the_unit_without_a_complaint(tmp_path):
    tool = shutil.which("systemd-analyze")
    if tool is None:
        pytest.skip("systemd-analyze is not installed: the unit's syntax is not verified here")
    program = tmp_path / "mahjong-table"                      # ExecStart must exist for verify
    program.write_text("#!/bin/sh\n")
    program.chmod(0o755)
    unit = tmp_path / "mahjong-table.service"
    unit.write_text(UNIT.read_text(encoding="utf-8").replace("/opt/mahjong-table/bin/mahjong-table", str(program)),
                    encoding="utf-8")
    proc = subprocess.run([tool, "verify", "--man=no", str(unit)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0 and proc.stderr.strip() == "", proc.stderr


DROP_IN = ROOT / "deploy" / "network.conf"


def test_the_network_drop_in_opens_internet_sockets_to_the_private_ranges_only():
    """The web view, a broker and boards on the network need internet sockets, which the unit refuses;
    the shipped drop-in opens them, and IPAddressDeny=any of the unit still holds past its allowed ranges."""
    service_lines = read_unit(DROP_IN)["Service"]
    assert service_lines["PrivateNetwork"] == ["no"]
    assert service_lines["RestrictAddressFamilies"] == ["AF_UNIX AF_INET AF_INET6"]
    assert "IPAddressDeny" not in service_lines and service("IPAddressDeny") == "any"
    allowed = service_lines["IPAddressAllow"][0].split()
    assert "localhost" in allowed and "any" not in allowed and "0.0.0.0/0" not in allowed


def test_systemd_reads_the_unit_with_its_network_drop_in_and_rates_it_at_most_3(tmp_path):
    tool = shutil.which("systemd-analyze")
    if tool is None:
        pytest.skip("systemd-analyze is not installed: the unit with its drop-in is not verified here")
    program = tmp_path / "mahjong-table"
    program.write_text("#!/bin/sh\n")
    program.chmod(0o755)
    unit = tmp_path / "mahjong-table.service"           # a drop-in's [Service] lines come after the unit's
    drop_in = DROP_IN.read_text(encoding="utf-8")
    unit.write_text(UNIT.read_text(encoding="utf-8").replace("/opt/mahjong-table/bin/mahjong-table", str(program))
                    + drop_in[drop_in.index("[Service]"):], encoding="utf-8")
    proc = subprocess.run([tool, "verify", "--man=no", str(unit)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0 and proc.stderr.strip() == "", proc.stderr
    proc = subprocess.run([tool, "security", "--offline=yes", f"--threshold={int(EXPOSURE_LIMIT * 10)}", str(unit)],
                          capture_output=True, text=True, timeout=60)
    exposure = float(proc.stdout.rsplit("Overall exposure level for mahjong-table.service:", 1)[1].split()[0])
    assert exposure <= EXPOSURE_LIMIT and proc.returncode == 0, proc.stdout[-3000:]
