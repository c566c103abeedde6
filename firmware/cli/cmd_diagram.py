"""`mahjong-table diagram`: the controller's state machines as a picture (or DOT text).

The format follows the file's extension: .dot/.gv get DOT text; .svg and .png are rendered by
Graphviz's `dot`, and refused in one line when it is not installed (never DOT text in a .svg).
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from pathlib import Path

from firmware.machines import dot_text

from .errors import UserError
from .files import refuse_empty
from .whole_file import write_whole, written_by_another

TEXT_SUFFIXES = (".dot", ".gv")
RENDERED_SUFFIXES = (".svg", ".png")


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("diagram", help="render the state machines (SVG or PNG with Graphviz, or DOT text)",
                                   description="Render the table, set-builder and fault machines.  Without --out, DOT "
                                               "text on stdout.  --out FILE picks the format by its extension: .dot or "
                                               ".gv for DOT text; .svg or .png rendered by Graphviz's `dot` (refused, "
                                               "in one line, where Graphviz is not installed).",
                                   epilog="examples:\n"
                                          "  mahjong-table diagram --out machines.dot\n"
                                          "  mahjong-table diagram",
                                   formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", metavar="FILE", help="write to FILE: .dot/.gv (DOT text), .svg or .png (needs Graphviz `dot`)")
    parser.set_defaults(handler=render)


def render(args: argparse.Namespace) -> int:
    refuse_empty(args, {"out": "machines.svg"})
    dot = dot_text()
    if args.out is None:
        sys.stdout.write(dot)
        return 0
    out = Path(args.out)
    suffix = out.suffix.lower()
    if suffix in TEXT_SUFFIXES:
        _write(out, dot)
        print(f"wrote DOT text to {out}")
        return 0
    if suffix not in RENDERED_SUFFIXES:
        raise UserError(f"--out {out}: name a .svg or .png file (rendered with Graphviz) or a .dot/.gv file (DOT text)")
    tool = shutil.which("dot")
    if tool is None:
        raise UserError(f"--out {out}: Graphviz `dot` is not installed (sudo apt install graphviz); "
                        f"or write DOT text with --out {out.with_suffix('.dot')}")
    try:
        with written_by_another(out) as drawn:      # (a dot cut short leaves no half a picture, nor the earlier gone)
            _draw(tool, suffix, dot, drawn, out)
    except OSError as error:
        raise UserError(f"cannot write {out} ({error.strerror})") from None
    print(f"wrote {out}")
    return 0


def _draw(tool: str, suffix: str, dot: str, drawn: Path, out: Path) -> None:
    """Graphviz draws `dot` into `drawn`; a failure is one line naming `out`, the file asked for."""
    try:
        result = subprocess.run([tool, f"-T{suffix[1:]}", "-o", str(drawn)], input=dot, text=True, capture_output=True)
    except OSError as error:
        raise UserError(f"cannot run {tool} ({error.strerror})") from None
    if result.returncode != 0:
        detail = result.stderr.strip().splitlines()[-1] if result.stderr.strip() else f"exit status {result.returncode}"
        raise UserError(f"dot could not render {out}: {detail.replace(str(drawn), str(out))}")


def _write(path: Path, text: str) -> None:
    try:
        write_whole(path, text)             # (a full card leaves no half-written file, and the earlier one)
    except OSError as error:
        raise UserError(f"cannot write {path} ({error.strerror})") from None
