"""A state folder the table cannot write in is named with its real cause.  Before, a folder on a
read-only file system (a failing SD card, or outside the systemd unit's ReadWritePaths) was called
"permission denied" with `sudo chown root <dir>` as the cure, though root owned it already."""

import os
from pathlib import Path

import pytest

from firmware.cli import main


def config_with_state(folder: Path) -> Path:
    state = folder / "state"
    state.mkdir()
    config = folder / "table.toml"
    config.write_text(f'[devices]\nmotor = "/dev/ttyUSB9"\nrfid = "/dev/ttyUSB8"\n[storage]\nstate_dir = "{state}"\n',
                      encoding="utf-8")
    return config


class _ReadOnly:
    f_flag = os.ST_RDONLY


def unwritable(monkeypatch, folder: Path, read_only: bool) -> None:
    """`folder` as the kernel shows it: not writable; on a read-only mount (EROFS) or by its mode (EACCES)."""
    access, statvfs = os.access, os.statvfs
    monkeypatch.setattr(os, "access", lambda path, mode, **kw: False if Path(path) == folder else access(path, mode, **kw))
    if read_only:
        monkeypatch.setattr(os, "statvfs", lambda path: _ReadOnly() if Path(path) == folder else statvfs(path))


def run_table(capsys, config: Path) -> tuple[int, str]:
    code = main(["run", "--config", str(config)])
    return code, capsys.readouterr().err


def test_a_read_only_state_folder_is_named_so_with_what_to_do(tmp_path, monkeypatch, capsys):
    config = config_with_state(tmp_path)
    unwritable(monkeypatch, tmp_path / "state", read_only=True)
    code, err = run_table(capsys, config)
    assert code == 2 and err.count("\n") == 1
    assert f"cannot write in {tmp_path / 'state'} for the tile registry (read-only file system)" in err
    assert "ReadWritePaths" in err and "dmesg" in err
    assert "chown" not in err and "permission denied" not in err


@pytest.mark.parametrize("owner, cure", [("ours", "chmod u+rwx"), ("another's", "sudo chown")])
def test_a_folder_denied_by_its_permissions_says_which_cure(tmp_path, monkeypatch, capsys, owner, cure):
    config = config_with_state(tmp_path)
    unwritable(monkeypatch, tmp_path / "state", read_only=False)
    if owner == "another's":
        monkeypatch.setattr(os, "geteuid", lambda: os.stat(tmp_path / "state").st_uid + 1)
    code, err = run_table(capsys, config)
    assert code == 2 and err.count("\n") == 1 and "(permission denied" in err and cure in err, err
