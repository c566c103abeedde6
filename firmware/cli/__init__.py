"""`mahjong-table`: one entry point, a subcommand per job.

Each subcommand lives in a module `cmd_<name>.py` in this package that defines
`register(subparsers) -> None`; modules are found by name, so adding a command touches no
other file.  A user mistake raises `UserError`: one line on stderr, exit status 2, no traceback.

Start-up is cheap: only the chosen command's module is imported (it brings the rulesets, the
drivers or the controller with it).  For the list of commands in `--help` or in a usage error,
the other modules are not imported: their one-line help is read from their source, from the
`subparsers.add_parser("name", help="…")` call in `register` (a module written otherwise is
simply imported).
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import re
import sys
from pathlib import Path

from ..logs import journal_stderr
from .errors import UserError
from .streams import OutputLost, quiet_when_closed

_ADD_PARSER = re.compile(r'subparsers\.add_parser\(\s*"([\w-]+)"\s*,\s*help="([^"\\]*)"', re.S)


class OneLineParser(argparse.ArgumentParser):
    """argparse, but a usage error is one line naming the problem (exit 2), and an option that takes
    one value is refused when given twice."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")

    def _print_message(self, message: str, file=None) -> None:  # type: ignore[override]
        """argparse drops a help text it cannot write without a word (status 0); here the error goes
        on, and `--help > /dev/full` is said like any output that cannot be written."""
        if message:
            (file or sys.stderr).write(message)

    def parse_known_args(self, args=None, namespace=None):  # type: ignore[override]
        self._refuse_repeated(sys.argv[1:] if args is None else list(args))
        return super().parse_known_args(args, namespace)

    def _refuse_repeated(self, args: list[str]) -> None:
        """`--hands 2 … --hands 3`: argparse keeps the last without a word; which one was meant is the
        person's to say.  Options that repeat by design (`--option`, `--fault`) and flags are not
        counted; a subcommand's own options are counted by its own parser."""
        seen: dict[argparse.Action, str] = {}
        for token in args:
            if token == "--":
                break
            name = token.split("=", 1)[0]
            action = self._long_option(name) if token.startswith("--") else None
            if action is None or action.nargs == 0 or isinstance(action, argparse._AppendAction):
                continue
            if action in seen:
                self.error(f"{seen[action]} given twice: give it once")
            seen[action] = name

    def _long_option(self, name: str) -> argparse.Action | None:
        """The action of a long option as written, or as argparse takes an abbreviation of it."""
        if name in self._option_string_actions:
            return self._option_string_actions[name]
        actions = {action for option, action in self._option_string_actions.items() if option.startswith(name)}
        return actions.pop() if self.allow_abbrev and len(actions) == 1 else None


def build_parser(argv: list[str] | None = None) -> argparse.ArgumentParser:
    """The parser; only the command named in `argv` is imported and registered in full (with
    `argv` None, every command is)."""
    parser = OneLineParser(
        prog="mahjong-table",
        description="Controller for an automatic mahjong table (全自动麻将机).",
    )
    parser.add_argument("--version", action=_VersionAction)
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=OneLineParser)
    subparsers.required = True
    chosen = _chosen_command(argv) if argv is not None else None
    for module_name in _command_module_names():
        summary = _summary(module_name) if argv is not None else None
        if summary is None or summary[0] == chosen:
            importlib.import_module(f"{__name__}.{module_name}").register(subparsers)
        else:
            subparsers.add_parser(summary[0], help=summary[1])  # listed only: never the one that runs
    return parser


class _VersionAction(argparse.Action):
    """`--version`: the installed package's version, looked up only when asked (start-up stays cheap)."""

    def __init__(self, option_strings, dest, **kwargs) -> None:
        super().__init__(option_strings, dest, nargs=0, help="print the version and exit")

    def __call__(self, parser, namespace, values, option_string=None) -> None:
        from ..version import package_version
        print(f"mahjong-table {package_version('(not installed)')}")
        parser.exit(0)


def _command_module_names() -> list[str]:
    return sorted(info.name for info in pkgutil.iter_modules(__path__) if info.name.startswith("cmd_"))


def _chosen_command(argv: list[str]) -> str | None:
    """The command word: the first argument that is not an option (the top level has no options
    that take a value)."""
    return next((arg for arg in argv if not arg.startswith("-")), None)


def _summary(module_name: str) -> tuple[str, str] | None:
    """(command, one-line help) from the module's source, or None if it cannot be read there."""
    try:
        source = (Path(__path__[0]) / f"{module_name}.py").read_text(encoding="utf-8")
    except OSError:
        return None
    found = _ADD_PARSER.search(source)
    return (found.group(1), found.group(2)) if found else None


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    # under systemd every line on stderr carries its priority; a closed pipe silences, never stops, a run
    with quiet_when_closed(), journal_stderr():
        return _main(argv)


def _main(argv: list[str]) -> int:
    try:
        parser = build_parser(argv)         # (inside: Ctrl-C while it imports the command was a traceback)
        args = parser.parse_args(argv)      # (inside: --help and --version write output too)
        status = int(args.handler(args) or 0)
        sys.stdout.flush()          # (output still buffered fails here, where it can be said, not at exit)
        return status
    except OutputLost as error:
        print(f"mahjong-table: error: cannot write the output ({error.strerror}); make room where it goes, or "
              "send it elsewhere, and run the command again", file=sys.stderr)
        return 2
    except UserError as error:
        print(f"mahjong-table: error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
