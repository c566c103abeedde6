"""A file a command writes for a person is there whole or not at all (a probe: on a full card,
`diagram --out`, `sim --registry` and `sim --write-config` said "cannot write" and left a half-written
file at the name, over the earlier one).  The commands run with a file-size limit (RLIMIT_FSIZE: a
write past it fails part-way, as on a full card, without a small file system to mount), and the
shared writer with a write that fails part-way (ENOSPC)."""

import errno
import json
import os
import resource

import pytest

from firmware.cli.cmd_sim import CONFIG_MARK
from firmware.cli.whole_file import write_whole
from tests.ops.support import cli, needs_no_default_config, one_line_error

LIMIT = 64          # bytes a file may grow to in the command's process: fewer than any of the three writes


def limited_files() -> None:
    """(in the child) A write beyond LIMIT bytes fails with EFBIG; Python ignores SIGXFSZ."""
    resource.setrlimit(resource.RLIMIT_FSIZE, (LIMIT, resource.getrlimit(resource.RLIMIT_FSIZE)[1]))


def earlier_export() -> str:
    """An export `sim --registry` wrote before (so the command may overwrite it)."""
    return json.dumps({"0a0b0c0d": {"tile": "1m", "set": 0, "copy": 0}}, indent=1) + "\n" + " " * LIMIT


COMMANDS = {
    "diagram": (["diagram", "--out", "m.dot"], "m.dot", "digraph earlier {}\n" + "#" * LIMIT, "cannot write m.dot"),
    "registry": (["sim", "--speed", "0", "--registry", "t.json", "--console"], "t.json", earlier_export(),
                 "cannot write --registry t.json"),
    "config": (["sim", "--speed", "0", "--write-config", "s.toml", "--console"], "s.toml",
               f"{CONFIG_MARK}: earlier\n" + "#" * LIMIT, "cannot write --write-config s.toml"),
}


@pytest.mark.parametrize("earlier", [False, True], ids=["new", "over-an-earlier-file"])
@pytest.mark.parametrize("command", COMMANDS)
def test_a_write_that_fails_part_way_leaves_nothing_and_keeps_the_earlier_file(tmp_path, command, earlier):
    needs_no_default_config()
    args, name, before, words = COMMANDS[command]
    folder = tmp_path / "out"
    folder.mkdir()
    if earlier:
        (folder / name).write_text(before, encoding="utf-8")
    proc = cli(args, tmp_path, cwd=folder, input="quit\n", preexec_fn=limited_files)
    one_line_error(proc, words, "File too large")
    assert sorted(p.name for p in folder.iterdir()) == ([name] if earlier else [])
    if earlier:
        assert (folder / name).read_text(encoding="utf-8") == before


def test_the_three_write_whole_files_where_there_is_room(tmp_path):
    needs_no_default_config()
    (tmp_path / "m.dot").write_text("digraph earlier {}\n", encoding="utf-8")
    assert cli(["diagram", "--out", "m.dot"], tmp_path).returncode == 0
    proc = cli(["sim", "--speed", "0", "--registry", "t.json", "--write-config", "s.toml", "--console"], tmp_path,
               input="quit\n")
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "m.dot").read_text(encoding="utf-8").startswith("digraph") and "earlier" not in (tmp_path / "m.dot").read_text()
    assert len(json.loads((tmp_path / "t.json").read_text(encoding="utf-8"))) == 272
    assert (tmp_path / "s.toml").read_text(encoding="utf-8").startswith(CONFIG_MARK)
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []


def failing_after(monkeypatch, taken: int) -> None:
    """os.write takes `taken` bytes, then the card is full."""
    real = os.write
    left = [taken]

    def write(fd, data):
        if not left[0]:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        done = real(fd, bytes(data[:left[0]]))
        left[0] -= done
        return done

    monkeypatch.setattr(os, "write", write)


@pytest.mark.parametrize("earlier", [None, b"kept as it was\n"])
def test_the_writer_removes_its_temporary_and_keeps_the_earlier_file(tmp_path, monkeypatch, earlier):
    target = tmp_path / "m.dot"
    if earlier is not None:
        target.write_bytes(earlier)
    failing_after(monkeypatch, 100)
    with pytest.raises(OSError) as raised:
        write_whole(target, "x" * 5000)
    assert raised.value.errno == errno.ENOSPC
    assert [p.name for p in tmp_path.iterdir()] == ([] if earlier is None else ["m.dot"])
    if earlier is not None:
        assert target.read_bytes() == earlier


def test_the_writer_keeps_the_earlier_files_permissions_and_a_link(tmp_path):
    real = tmp_path / "real.toml"
    real.write_text("old", encoding="utf-8")
    real.chmod(0o640)
    link = tmp_path / "link.toml"
    link.symlink_to(real.name)
    write_whole(link, "new")
    assert link.is_symlink() and real.read_text(encoding="utf-8") == "new"
    assert real.stat().st_mode & 0o777 == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.toml", "real.toml"]


def test_the_writer_writes_a_pipe_straight(tmp_path):
    """/dev/stdout or a named pipe is not a file to replace: written as before."""
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    reader = os.open(pipe, os.O_RDONLY | os.O_NONBLOCK)
    try:
        write_whole(pipe, "through\n")
        assert os.read(reader, 100) == b"through\n"
    finally:
        os.close(reader)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pipe"]
