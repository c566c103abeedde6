"""Every example in every `--help` and in the README runs (issue 13 item 8), and every value an
option's help gives "e.g." is one of its command's runnable examples."""

from __future__ import annotations

import functools
import re
import shlex
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.ops import readme
from tests.ops.support import ROOT, clean_env, cli, needs_no_default_config


def help_text(args: list[str]) -> str:
    return _help_text(tuple(args))


@functools.lru_cache(maxsize=None)
def _help_text(args: tuple[str, ...]) -> str:
    proc = subprocess.run([sys.executable, "-m", "firmware", *args, "--help"], capture_output=True, text=True,
                          cwd=ROOT, timeout=60)
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr
    return proc.stdout


def _choices(text: str) -> list[str]:
    """The commands a help lists under its COMMAND (or SUBCOMMAND) argument."""
    _, found, rest = text.partition("COMMAND\n")
    return re.findall(r"^    ([a-z]+)\b", rest.split("\n\n", 1)[0], flags=re.M) if found else []


def command_paths() -> list[tuple[str, ...]]:
    """Every command and subcommand, as the helps list them."""
    paths: list[tuple[str, ...]] = []
    for command in _choices(help_text([])):
        paths.append((command,))
        paths += [(command, sub) for sub in _choices(help_text([command]))]
    return paths


PATHS = command_paths()


def examples(text: str) -> list[str]:
    _, _, tail = text.partition("\nexamples:\n")
    return [line.strip() for line in tail.splitlines() if line.strip().startswith("mahjong-table ")]


def help_examples() -> list[str]:
    return [example for path in PATHS for example in examples(help_text(list(path)))]


def readme_examples() -> list[str]:
    """README commands this file runs: all but the Pi section's and the console walk-through's,
    which tests/ops/test_pi_install.py and tests/ops/test_console.py follow line by line."""
    return [command for heading, text in readme.sections().items()
            if heading not in (readme.PI_SECTION, readme.CONSOLE_SECTION) for command in readme.commands(text)]


def test_every_command_has_examples():
    assert len(PATHS) >= 10
    assert [path for path in PATHS if len(path) == 1 and path != ("rules",) and not examples(help_text(list(path)))] == []
    assert [path for path in PATHS if len(path) == 2 and not examples(help_text(list(path)))] == []


def test_the_readme_sections_the_other_tests_follow_exist():
    assert readme.commands(readme.sections()[readme.PI_SECTION])
    assert readme.commands(readme.sections()[readme.CONSOLE_SECTION])


def argument_helps(text: str) -> list[str]:
    """Each argument's help of a --help text, its wrapped lines joined."""
    body = text.split("\nexamples:\n")[0]
    entries: list[str] = []
    for section in re.split(r"^(?:positional arguments|options):\n", body, flags=re.M)[1:]:
        for line in section.split("\n\n")[0].splitlines():
            if re.match(r"^  \S", line):
                entries.append(line.strip())
            elif entries:
                entries[-1] += " " + line.strip()
    return entries


@pytest.mark.parametrize("path", PATHS, ids=" ".join)
def test_every_value_given_as_an_example_is_in_a_run_example(path):
    text = help_text(list(path))
    runnable = " ".join(examples(text))
    for entry in argument_helps(text):
        for fragment in re.findall(r"e\.g\. (.+?)(?:\)|; |$)", entry):
            for value in re.split(r", | or ", fragment):
                assert value.strip() in runnable, f"`{' '.join(path)} --help` gives e.g. {value!r}: no example runs it"


def test_the_example_values_are_found():
    """The check above reads what it should: these values are in today's helps."""
    values = [" ".join(entry.split()) for entry in argument_helps(help_text(["rules", "break"])) if "e.g." in entry]
    assert values == ["--dice A,B[;C,D…] the rolls in order, e.g. 2,5 or '6,5;5,6'"]


@pytest.fixture(scope="module")
def workspace(tmp_path_factory) -> Path:
    """A user's folder with what the examples name: a simulator's tags.json and sim.toml (written by
    `sim` itself) and a flight recorder events.jsonl (written by `run`)."""
    needs_no_default_config()
    folder = tmp_path_factory.mktemp("examples")
    sim = cli(["sim", "--speed", "0", "--registry", "tags.json", "--write-config", "sim.toml", "--console"], folder,
              input="quit\n")
    assert sim.returncode == 0, sim.stderr
    run = cli(["run", "--hands", "1", "--speed", "0", "--events", "events.jsonl"], folder)
    assert run.returncode == 0, run.stderr
    return folder


def run_example(command: str, folder: Path) -> None:
    args = shlex.split(command)
    assert Path(args[0]).name == "mahjong-table"
    args = args[1:]
    if args[0] == "run":
        assert "--hands" in args or "help" in args, f"{command!r} would run until Ctrl-C"
    process = subprocess.Popen([sys.executable, "-m", "firmware", *args], cwd=folder, env=clean_env(folder),
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    serving = args[0] in ("sim", "parlour") and "help" not in args
    if serving and "--console" in args:
        process.stdin.write("quit\n")                       # a person types quit
        process.stdin.flush()
    elif serving:
        for line in process.stdout:                          # served: say so, then Ctrl-C
            if line.startswith("{") or "Ctrl-C" in line:
                break
        process.send_signal(signal.SIGINT)
    try:
        out, err = process.communicate(timeout=180)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    assert process.returncode == 0 and "Traceback" not in err, (command, process.returncode, err[-2000:])


@pytest.mark.parametrize("command", help_examples())
def test_every_help_example_runs(command, workspace):
    run_example(command, workspace)


@pytest.mark.parametrize("command", readme_examples())
def test_every_readme_example_runs(command, workspace):
    run_example(command, workspace)
