"""A board's port named as something that is no serial port (a plain file, a folder, /dev/null) is
refused at once in one line, status 2 (E25 on a display): it was tried again for ever on a table that
had run before, with the advice "check that the device is connected and not used by another
program", and on a first start it stopped with status 1 and nothing on the display (a probe)."""

from __future__ import annotations

import pytest

from drivers.errors import NotASerialPort
from firmware.devices import open_devices
from tests.asyncio_support import run
from tests.ops.support import cli, one_line_error
from tests.ops.test_cli_promises import write_tags


@pytest.mark.parametrize("kind", ["file", "folder", "null"])
def test_run_refuses_a_port_that_is_no_serial_port_in_one_line(tmp_path, kind):
    (tmp_path / "plain.txt").write_text("not a port\n", encoding="utf-8")
    port = {"file": str(tmp_path / "plain.txt"), "folder": str(tmp_path), "null": "/dev/null"}[kind]
    config = tmp_path / "table.toml"
    config.write_text(f'[devices]\nmotor = "{port}"\nrfid = "/dev/zero"\n[storage]\nstate_dir = "{tmp_path / "state"}"\n',
                      encoding="utf-8")
    assert cli(["enroll", "--config", str(config), "--import", str(write_tags(tmp_path / "tags.json"))],
               tmp_path).returncode == 0
    proc = cli(["run", "--config", str(config), "--hands", "1"], tmp_path, timeout=60)
    one_line_error(proc, port, "not a serial port")


def test_a_table_that_ran_before_does_not_wait_for_a_file_to_become_a_port(tmp_path):
    (tmp_path / "plain.txt").write_text("", encoding="utf-8")

    async def opening():
        async with open_devices(str(tmp_path / "plain.txt"), "/dev/zero", sessions={"motor": None}, patient=True):
            pass
    with pytest.raises(NotASerialPort, match="is a plain file, not a serial port"):
        run(opening(), timeout=30)
