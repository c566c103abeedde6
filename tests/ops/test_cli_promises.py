"""issue 13 item 8: the CLI keeps its promises — --version, --fault help, pure JSONL on stdout,
diagram formats by extension, CJK-aware columns, run --config checks enrolment first and leaves no
empty events file, break refuses extra rolls, enroll creates its state folder or says how."""

import json
import os
import re
import shutil
import stat
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

import pytest

from firmware.cli.columns import cells
from firmware.panel import Settings
from simulator import SimulatedTable
from tests.ops.support import clean_env, cli, needs_no_default_config, one_line_error


def write_tags(path: Path) -> Path:
    """The registry export `sim --registry` writes, for a simulated table of seed 0."""
    table = SimulatedTable(seed=0)
    path.write_text(json.dumps({uid.hex(): {"tile": str(i.kind), "set": i.set_index, "copy": i.copy}
                                for uid, i in table.registry().items()}), encoding="utf-8")
    return path


def write_config(tmp_path: Path, state: Path, ports=("/nonexistent/motor", "/nonexistent/rfid")) -> Path:
    path = tmp_path / "table.toml"
    path.write_text(f'[devices]\nmotor = "{ports[0]}"\nrfid = "{ports[1]}"\n'
                    f'[storage]\nstate_dir = "{state}"\nevents_dir = "{state / "events"}"\n', encoding="utf-8")
    return path


def test_version(tmp_path):
    proc = cli(["--version"], tmp_path)
    assert proc.returncode == 0 and proc.stdout == f"mahjong-table {version('mahjong-table')}\n"


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full on this system")
@pytest.mark.parametrize("command", [
    ["rules", "show", "changchun"], ["rules", "list"], ["hand", "changchun", "111m234p789s46s99p5s", "--win-tile", "5s"],
    ["diagram"], ["audit", "RECORDER", "--json"], ["records", "--json", "--folder", "TMP", "--db", "TMP/table.db"],
    ["--version"], ["rules", "--help"],
])
def test_output_that_cannot_be_written_is_one_line_not_a_traceback(tmp_path, command):
    """`… > /dev/full` (a full card) gave a 15-line traceback in every command: only a closed pipe was
    handled.  Now one line says the output could not be written and why, and the status is 2."""
    recorder = Path(__file__).parents[1] / "records" / "data" / "hebei_put_back_lines_cut.jsonl"
    argv = [str(recorder) if word == "RECORDER" else word.replace("TMP", str(tmp_path)) for word in command]
    with open("/dev/full", "w") as full:
        proc = subprocess.run([sys.executable, "-m", "firmware", *argv], stdout=full, stderr=subprocess.PIPE,
                              text=True, env=clean_env(tmp_path), cwd=tmp_path, timeout=120)
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr == ("mahjong-table: error: cannot write the output (No space left on device); make room "
                           "where it goes, or send it elsewhere, and run the command again\n")


@pytest.mark.parametrize("command, named", [
    (["audit", "LOOP"], "LOOP"),
    (["audit", "RECORDER", "LOOP"], "LOOP"),
    (["run", "--hands", "1", "--speed", "0", "--events", "LOOP", "--db", "TMP/t.db"], "--events LOOP"),
    (["run", "--hands", "1", "--speed", "0", "--db", "LOOP"], "--db LOOP"),
    (["enroll", "--registry", "LOOP"], "--registry LOOP"),
    (["sim", "--write-config", "LOOP"], "--write-config LOOP"),
    (["sim", "--registry", "LOOP", "--write-config", "TMP/sim.toml"], "--registry LOOP"),
])
def test_a_loop_of_symbolic_links_is_one_line(tmp_path, monkeypatch, capsys, command, named):
    """`ln -s loop2 loop1; ln -s loop1 loop2`: `audit loop1` and `sim` were a 30-line traceback
    (Path.resolve: RuntimeError), `run --events loop1` started and failed every write as E24, and
    `--db loop1` said the ledger was damaged.  Each is now one line naming it, before anything is written."""
    from firmware.cli import main
    loop = tmp_path / "loop1"
    loop.symlink_to(tmp_path / "loop2")
    (tmp_path / "loop2").symlink_to(loop)
    recorder = Path(__file__).parents[1] / "records" / "data" / "hebei_put_back_lines_cut.jsonl"
    words = {"LOOP": str(loop), "RECORDER": str(recorder)}
    argv = [words.get(word) or word.replace("TMP", str(tmp_path)) for word in command]
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "xdg"))
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err == (f"mahjong-table: error: {named.replace('LOOP', str(loop))} is a loop of symbolic links (they lead "
                   "back to each other, never to a file); name the file itself\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["loop1", "loop2"]       # nothing written


@pytest.mark.parametrize("command", ["run", "sim"])
def test_fault_help_is_on_stdout_with_status_0(tmp_path, command):
    proc = cli([command, "--fault", "help"], tmp_path)
    assert proc.returncode == 0 and proc.stderr == ""
    assert "jam=LANE[:PUSHES]" in proc.stdout and "hatch_open" in proc.stdout


def test_events_on_stdout_are_pure_json_lines(tmp_path):
    needs_no_default_config()
    proc = cli(["run", "--hands", "1", "--speed", "0", "--events", "-"], tmp_path)
    assert proc.returncode == 0, proc.stderr
    events = [json.loads(line) for line in proc.stdout.splitlines()]        # every line is JSON
    assert events[0]["event"] == "recorder_start" and events[1]["event"] == "session_start"
    assert any(e["event"] == "hand_end" for e in events)
    assert "against the built-in simulator" in proc.stderr and "hand 1: " in proc.stderr
    assert "1 hand(s) played" in proc.stderr


def test_diagram_refuses_a_picture_without_graphviz(tmp_path):
    env = clean_env(tmp_path, PATH=str(tmp_path / "empty-bin"))
    for name in ("m.svg", "m.png"):
        proc = cli(["diagram", "--out", name], tmp_path, env=env)
        one_line_error(proc, "Graphviz `dot` is not installed", "--out m.dot")
        assert not (tmp_path / name).exists()
    one_line_error(cli(["diagram", "--out", "m.txt"], tmp_path), "name a .svg or .png file")


def fake_dot(folder: Path) -> Path:
    """A `dot` that records how it was called and writes the format it was asked for."""
    folder.mkdir()
    script = folder / "dot"
    script.write_text("#!/bin/sh\n"
                      "echo \"$@\" > \"$(dirname \"$0\")/args\"\n"
                      "cat > \"$(dirname \"$0\")/input\"\n"
                      "printf 'rendered %s' \"$1\" > \"$3\"\n")
    script.chmod(0o755)
    return folder


@pytest.mark.parametrize("name, flag", [("m.svg", "-Tsvg"), ("M.PNG", "-Tpng")])
def test_diagram_renders_by_the_extension(tmp_path, name, flag):
    tools = fake_dot(tmp_path / "bin")
    proc = cli(["diagram", "--out", name], tmp_path, env=clean_env(tmp_path, PATH=f"{tools}:/usr/bin:/bin"))
    assert proc.returncode == 0, proc.stderr
    drawn = (tools / "args").read_text().split()       # drawn under a temporary name, then renamed
    assert drawn[:2] == [flag, "-o"] and Path(drawn[2]).parent == tmp_path.resolve()
    assert (tools / "input").read_text().startswith("digraph")
    assert (tmp_path / name).read_text() == f"rendered {flag}"
    assert not [p.name for p in tmp_path.iterdir() if p.name.startswith(".")]      # no temporary left


@pytest.mark.parametrize("earlier", [None, "<svg>earlier</svg>"])
def test_a_picture_dot_could_not_finish_leaves_nothing_and_keeps_the_earlier_one(tmp_path, earlier):
    """Graphviz wrote `-o m.svg` in place: cut short (a full card), half a picture was left at the name."""
    tools = tmp_path / "bin"
    tools.mkdir()
    (tools / "dot").write_text("#!/bin/sh\nprintf '<svg>half' > \"$3\"\necho \"Error: $3: No space left on device\" >&2\nexit 1\n")
    (tools / "dot").chmod(0o755)
    folder = tmp_path / "out"
    folder.mkdir()
    if earlier is not None:
        (folder / "m.svg").write_text(earlier)
    proc = cli(["diagram", "--out", "m.svg"], tmp_path, cwd=folder, env=clean_env(tmp_path, PATH=f"{tools}:/usr/bin:/bin"))
    one_line_error(proc, "dot could not render m.svg: Error: m.svg: No space left on device")
    assert sorted(p.name for p in folder.iterdir()) == ([] if earlier is None else ["m.svg"])
    if earlier is not None:
        assert (folder / "m.svg").read_text() == earlier


def test_diagram_svg_with_the_real_graphviz(tmp_path):
    if shutil.which("dot") is None:
        pytest.skip("Graphviz `dot` is not installed: the real SVG is not drawn here")
    proc = cli(["diagram", "--out", "m.svg"], tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "<svg" in (tmp_path / "m.svg").read_text()


def test_rules_list_columns_line_up_with_chinese_names(tmp_path):
    proc = cli(["rules", "list"], tmp_path)
    assert proc.returncode == 0
    lines = proc.stdout.splitlines()
    row = re.compile(r"^\S+ +\S+ +\S+ +\S+ +\S+")          # id, name, tiles, players, hand
    ends = {cells(row.match(line).group(0)) for line in lines}
    assert len(ends) == 1, ends                                # the title column starts at one cell
    assert any("武汉红中赖子杠" in line for line in lines)        # the longest name is among them


def test_run_config_checks_enrolment_before_running_and_leaves_no_events_file(tmp_path):
    state = tmp_path / "state"
    config = write_config(tmp_path, state)
    proc = cli(["run", "--config", str(config), "--hands", "1"], tmp_path)
    one_line_error(proc, "no tiles are enrolled", "mahjong-table enroll --config")
    assert proc.stdout == ""                                   # no "running … on the boards" first
    assert not (state / "events").exists() or list((state / "events").iterdir()) == []


def test_a_run_that_stops_before_any_event_leaves_no_empty_events_file(tmp_path):
    state = tmp_path / "state"
    config = write_config(tmp_path, state)
    assert cli(["enroll", "--config", str(config), "--import", str(write_tags(tmp_path / "tags.json"))],
               tmp_path).returncode == 0
    proc = cli(["run", "--config", str(config), "--hands", "1"], tmp_path)
    assert proc.returncode == 1 and "no serial port /nonexistent/motor" in proc.stderr
    assert list((state / "events").iterdir()) == []


def test_run_refuses_faults_on_real_boards(tmp_path):
    config = write_config(tmp_path, tmp_path / "state")
    one_line_error(cli(["run", "--config", str(config), "--fault", "jam=1"], tmp_path), "add --simulate")


def test_break_refuses_extra_rolls(tmp_path):
    proc = cli(["rules", "break", "changchun", "--dealer", "0", "--dice", "6,5;5,6" + ";1,1" * 500], tmp_path)
    one_line_error(proc, "--dice gave 502 rolls but this break uses 2")
    assert cli(["rules", "break", "changchun", "--dealer", "0", "--dice", "6,5;5,6"], tmp_path).returncode == 0


def test_enroll_creates_the_state_folder_owner_only(tmp_path):
    state = tmp_path / "new" / "state"
    config = write_config(tmp_path, state)
    proc = cli(["enroll", "--config", str(config), "--import", str(write_tags(tmp_path / "tags.json"))], tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert stat.S_IMODE(state.stat().st_mode) == 0o750 and (state / "tiles.db").is_file()


@pytest.mark.parametrize("command, flag", [
    (["run", "--hands", "1", "--speed", "0", "--db", "FILE"], "--db"),
    (["enroll", "--registry", "FILE"], "--registry"),
    (["parlour", "--mqtt", "mqtt://127.0.0.1:1", "--db", "FILE"], "--db"),
])
def test_a_file_named_in_a_folder_that_is_not_there_is_refused_not_made(tmp_path, monkeypatch, capsys, command, flag):
    """`run --db /srv/typo/deeper/x.db` created the folders at any depth and started a new ledger,
    scores from zero (a probe); `--events` refused the same mistake.  A folder a person names must be
    there; only the configured state folder is created (the test above)."""
    from firmware.cli import main

    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "xdg"))
    file = tmp_path / "typo" / "deeper" / "x.db"
    assert main([str(file) if word == "FILE" else word for word in command]) == 2
    assert capsys.readouterr().err == (f"mahjong-table: error: {flag} {file}: the folder {file.parent} does not "
                                       f"exist; check the path for a typo, or create the folder first "
                                       f"(mkdir -p {file.parent})\n")
    assert not (tmp_path / "typo").exists()


def test_enroll_says_in_one_line_how_to_create_a_folder_it_cannot(tmp_path, monkeypatch, capsys):
    """As on a fresh Pi before the install step: /var/lib is root's.  (In-process, because the
    tests may run as root, who may create anything: the refusal is made by Path.mkdir here.)"""
    from firmware.cli import main

    state = tmp_path / "var" / "lib" / "mahjong-table"
    config = write_config(tmp_path, state)
    real_mkdir = Path.mkdir

    def refuse(self, *args, **kwargs):
        if self == state:
            raise PermissionError(13, "Permission denied", str(self))
        return real_mkdir(self, *args, **kwargs)

    monkeypatch.setattr(Path, "mkdir", refuse)
    assert main(["enroll", "--config", str(config), "--import", str(write_tags(tmp_path / "tags.json"))]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"cannot create {state} for the tile registry (Permission denied)" in err
    assert "sudo install -d -o " in err and f"-m 0750 {state}" in err


def test_a_state_folder_that_is_a_file_is_one_line(tmp_path):
    (tmp_path / "state").write_text("")
    config = write_config(tmp_path, tmp_path / "state")
    one_line_error(cli(["enroll", "--config", str(config), "--import", str(write_tags(tmp_path / "tags.json"))],
                       tmp_path), f"{tmp_path / 'state'} is a file, not a folder")


def test_a_simulated_run_never_changes_the_real_tables_choice(tmp_path):
    state = tmp_path / "state"
    config = write_config(tmp_path, state)
    state.mkdir()
    real = Settings(state / "table.db")
    real.save_choice("changchun", {})
    real.close()
    proc = cli(["run", "--config", str(config), "--simulate", "--ruleset", "sichuan", "--hands", "1", "--speed", "0"],
               tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("simulating: running 四川麻将 (sichuan) against the built-in simulator")
    assert Settings(state / "table.db").ruleset_choice()[0] == "changchun"
    assert Settings(state / "simulator" / "table.db").ruleset_choice()[0] == "sichuan"


def test_without_a_configuration_the_simulator_keeps_its_own_state_folder(tmp_path):
    needs_no_default_config()
    proc = cli(["run", "--ruleset", "sichuan", "--hands", "1", "--speed", "0"], tmp_path)
    assert proc.returncode == 0, proc.stderr
    xdg = tmp_path / "xdg" / "mahjong-table"
    assert (xdg / "simulator" / "table.db").is_file() and not (xdg / "table.db").exists()


@pytest.mark.parametrize("data", [b"", b"\xff\xfe\x00", b"[1, 2]", b'{"zz": {"tile": "1m"}}', b"not json"])
def test_any_byte_of_a_registry_export_is_one_line(tmp_path, data):
    config = write_config(tmp_path, tmp_path / "state")
    export = tmp_path / "tags.json"
    export.write_bytes(data)
    one_line_error(cli(["enroll", "--config", str(config), "--import", str(export)], tmp_path),
                   "is not a registry export")


GOOD = {"e004010a21582f87": {"tile": "3z", "set": 0, "copy": 2}}


@pytest.mark.parametrize("export, words", [
    ({}, None),                                                     # nothing to import: imports nothing
    ({"e0040a": {"tile": "1m", "set": 7, "copy": 0}}, "tag e0040a: set 7: a table's sets are 0 and 1"),
    ({"e0040a": {"tile": "1m", "set": "0", "copy": 0}}, "tag e0040a: set '0'"),
    ({"e0040a": {"tile": "1m", "set": 0, "copy": 9}}, "tag e0040a: copy 9 of 1m: give 0 to 3"),
    ({"e0040a": {"tile": "1f", "set": 0, "copy": 1}}, "tag e0040a: copy 1 of 1f: give 0 to 0"),
    ({"e0040a": {"tile": "9z", "set": 0, "copy": 0}}, "tile '9z' is no tile a table holds"),
    ({"zz": {"tile": "1m", "set": 0, "copy": 0}}, "tag 'zz': a UID is written in hex"),
    ({"e0040a": [1, 2]}, "tag e0040a: give {\"tile\", \"set\", \"copy\"}"),
    ({"e0040a": {"tile": "1m", "set": 0, "copy": 0}, "e0040b": {"tile": "1m", "set": 0, "copy": 0}},
     "tags e0040a and e0040b are both set 0 1m copy 0"),
    # one tag written in both cases: it was refused by SQLite's own words, advising --replace
    ({"e0040a": {"tile": "1m", "set": 0, "copy": 1}, "E0040A": {"tile": "1m", "set": 0, "copy": 2}},
     "tags e0040a and E0040A are the same tag"),
])
def test_a_registry_export_is_checked_entry_by_entry_before_anything_is_saved(tmp_path, capsys, export, words):
    from firmware.build.registry import TileRegistry
    from firmware.cli import main

    config = write_config(tmp_path, tmp_path / "state")
    path = tmp_path / "tags.json"
    path.write_text(json.dumps({**GOOD, **export}), encoding="utf-8")
    status = main(["enroll", "--config", str(config), "--import", str(path)])
    out, err = capsys.readouterr()
    registry = TileRegistry(tmp_path / "state" / "tiles.db")
    try:
        enrolled = sum(registry.sets().values())
    finally:
        registry.close()
    if words is None:
        assert status == 0 and "imported 1 tags" in out and enrolled == 1
    else:
        assert status == 2 and words in err and "is not a registry export" in err and err.count("\n") == 1, err
        assert enrolled == 0


def test_a_wrong_export_leaves_no_registry_behind(tmp_path, capsys):
    from firmware.cli import main

    config = write_config(tmp_path, tmp_path / "state")
    (tmp_path / "deep.json").write_text("[" * 200000 + "]" * 200000, encoding="utf-8")
    for export in ("missing.json", "deep.json"):
        assert main(["enroll", "--config", str(config), "--import", str(tmp_path / export)]) == 2
        assert capsys.readouterr().err.count("\n") == 1
    assert not (tmp_path / "state" / "tiles.db").exists()


def test_an_import_says_each_tag_s_set_so_set_is_refused_beside_it(tmp_path, capsys):
    from firmware.cli import main

    config = write_config(tmp_path, tmp_path / "state")
    assert main(["enroll", "--config", str(config), "--import", str(write_tags(tmp_path / "tags.json")), "--set", "1"]) == 2
    assert "--set does not go with --import" in capsys.readouterr().err


@pytest.mark.parametrize("command, flag", [(["run", "--simulate", "--hands", "1", "--speed", "0"], "--db"),
                                           (["enroll", "--simulate"], "--registry")])
@pytest.mark.parametrize("data", [b"\x00" * 100, b"SQLite format 3\x00" + b"\xff" * 200, os.urandom(512)])
def test_a_database_file_that_is_not_one_is_one_line(tmp_path, command, flag, data):
    junk = tmp_path / "junk.db"
    junk.write_bytes(data)
    one_line_error(cli([*command, flag, str(junk)], tmp_path), str(junk), f"choose another with {flag}")


@pytest.mark.parametrize("data, words", [(b"\xff\n", "events.jsonl:1: not UTF-8"),
                                         (b'{"event":"x"}\n\n{', "events.jsonl:1: x has no field `t`"),
                                         (b"[1]\n", "events.jsonl:1: not an event")])
def test_any_byte_of_a_recorder_is_one_line(tmp_path, data, words):
    path = tmp_path / "events.jsonl"
    path.write_bytes(data)
    one_line_error(cli(["audit", str(path)], tmp_path), words)
    one_line_error(cli(["audit", str(tmp_path)], tmp_path), "Is a directory")


def test_an_empty_recorder_is_not_sound(tmp_path):
    path = tmp_path / "events.jsonl"
    path.write_bytes(b"")
    proc = cli(["audit", str(path)], tmp_path)
    assert proc.returncode == 1 and "a recorder with no events proves nothing" in proc.stdout
    assert "sound" not in proc.stdout.split(":")[-1]


def test_events_never_overwrites_a_file(tmp_path, capsys, monkeypatch):
    """`--events FILE` naming the ledger, a configuration or any other file refuses and leaves it as
    it was; an earlier run's recorder is kept beside the new one, and the run says where."""
    from firmware.cli import main

    needs_no_default_config()
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "xdg"))
    monkeypatch.delenv("MAHJONG_TABLE_CONFIG", raising=False)
    other = tmp_path / "table.toml"
    other.write_text("[devices]\n", encoding="utf-8")
    assert main(["run", "--simulate", "--hands", "1", "--speed", "0", "--events", str(other)]) == 2
    err = capsys.readouterr().err
    assert "exists and is not a flight recorder" in err and err.count("\n") == 1
    assert other.read_text(encoding="utf-8") == "[devices]\n"
    events = tmp_path / "events.jsonl"
    for _ in range(2):
        assert main(["run", "--simulate", "--hands", "1", "--speed", "0", "--events", str(events)]) == 0
    kept = [p for p in tmp_path.glob("events.*.jsonl")]
    assert len(kept) == 1 and f"kept as {kept[0]}" in capsys.readouterr().err
    assert main(["audit", str(kept[0])]) == 0 and main(["audit", str(events)]) == 0


def test_an_empty_registry_export_is_refused_and_makes_no_registry(tmp_path, capsys):
    """`{}` said "imported 0 tags" and made an empty registry, which a table then could not play on."""
    from firmware.cli import main

    config = write_config(tmp_path, tmp_path / "state")
    path = tmp_path / "tags.json"
    path.write_text("{}", encoding="utf-8")
    assert main(["enroll", "--config", str(config), "--import", str(path)]) == 2
    err = capsys.readouterr().err
    assert "it holds no tags" in err and err.count("\n") == 1, err
    assert not (tmp_path / "state" / "tiles.db").exists()


def test_ctrl_c_while_the_command_is_imported_is_status_130_not_a_traceback(monkeypatch, capsys):
    """Ctrl-C in the first quarter second (the command's modules being imported) printed a 25–49-line
    KeyboardInterrupt traceback (a probe); a Pi is slower, so that window is wider there."""
    import firmware.cli as cli_module

    def interrupted(argv):
        raise KeyboardInterrupt
    monkeypatch.setattr(cli_module, "build_parser", interrupted)
    assert cli_module.main(["rules", "list"]) == 130
    assert capsys.readouterr().err == ""


def test_a_parlour_client_id_mqtt_cannot_carry_is_one_line(tmp_path):
    """Past 65,535 bytes it was a traceback at every connection (`struct.error`), and the parlour
    went on trying (a probe)."""
    proc = cli(["parlour", "--mqtt", "mqtt://127.0.0.1:1", "--client-id", "x" * 70000], tmp_path, timeout=60)
    one_line_error(proc, "--client-id: 70000 bytes; MQTT carries at most 65535")


def test_an_import_that_leaves_a_set_short_says_so(tmp_path):
    """An export missing one tile was imported as "imported 271 tags" and nothing more; the set was then
    rejected at every build, and the enrolment could not add the one tile (a probe)."""
    tags = json.loads(write_tags(tmp_path / "tags.json").read_text(encoding="utf-8"))
    del tags[next(iter(tags))]
    (tmp_path / "short.json").write_text(json.dumps(tags), encoding="utf-8")
    config = write_config(tmp_path, tmp_path / "state")
    proc = cli(["enroll", "--config", str(config), "--import", str(tmp_path / "short.json")], tmp_path)
    assert proc.returncode == 0 and "imported 271 tags" in proc.stdout
    assert proc.stderr.count("\n") == 1 and "is not whole" in proc.stderr, proc.stderr
    assert "set 0: 135 tags, set 1: 136 tags" in proc.stderr or "set 0: 136 tags, set 1: 135 tags" in proc.stderr


def test_whole_sets_say_nothing():
    from firmware.cli.cmd_enroll import sets_not_whole
    assert sets_not_whole({0: 136, 1: 136}) is None and sets_not_whole({1: 144}) is None
    assert "set 1 is not whole" in sets_not_whole({0: 136, 1: 135})
    assert "a set is not whole" in sets_not_whole({0: 136, 1: 144})
