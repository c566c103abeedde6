"""`mahjong-table`: one entry point, a subcommand per job.

Each subcommand lives in a module `cmd_<name>.py` in this package that defines
`register(subparsers) -> None`; modules are found by name, so adding a command touches no
other file.  A user mistake raises `UserError`: one line on stderr, exit status 2, no traceback.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys

from .errors import UserError


class OneLineParser(argparse.ArgumentParser):
    """argparse, but a usage error is one line naming the problem (exit 2)."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(
        prog="mahjong-table",
        description="Controller for an automatic mahjong table (全自动麻将机).",
    )
    parser.add_argument("--version", action=_VersionAction)
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=OneLineParser)
    subparsers.required = True
    for module in _command_modules():
        module.register(subparsers)
    return parser


class _VersionAction(argparse.Action):
    """`--version`: the installed package's version, looked up only when asked (start-up stays cheap)."""

    def __init__(self, option_strings, dest, **kwargs) -> None:
        super().__init__(option_strings, dest, nargs=0, help="print the version and exit")

    def __call__(self, parser, namespace, values, option_string=None) -> None:
        from importlib.metadata import PackageNotFoundError, version
        try:
            number = version("mahjong-table")
        except PackageNotFoundError:          # a source tree that was never installed
            number = "(not installed)"
        print(f"mahjong-table {number}")
        parser.exit(0)


def _command_modules() -> list:
    names = sorted(info.name for info in pkgutil.iter_modules(__path__) if info.name.startswith("cmd_"))
    return [importlib.import_module(f"{__name__}.{name}") for name in names]


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.handler(args) or 0)
    except UserError as error:
        print(f"mahjong-table: error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
