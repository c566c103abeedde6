"""`mahjong-table diagram`: the controller's state machines as a picture (or DOT text)."""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys

from firmware.machines import dot_text

from .errors import UserError


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("diagram", help="render the state machines (PNG with Graphviz, else DOT text)",
                                   description="Render the table, set-builder and fault machines. With Graphviz's "
                                               "`dot` installed and --out FILE.png, a PNG; otherwise DOT text.")
    parser.add_argument("--out", metavar="FILE", help="write to FILE (.png needs Graphviz `dot`; anything else gets DOT text)")
    parser.set_defaults(handler=render)


def render(args: argparse.Namespace) -> int:
    dot = dot_text()
    if args.out is None:
        sys.stdout.write(dot)
        return 0
    if args.out.endswith(".png"):
        tool = shutil.which("dot")
        if tool is None:
            text_path = args.out[:-4] + ".dot"
            _write(text_path, dot)
            print(f"Graphviz `dot` is not installed: wrote DOT text to {text_path} (install graphviz for a PNG)")
            return 0
        result = subprocess.run([tool, "-Tpng", "-o", args.out], input=dot, text=True, capture_output=True)
        if result.returncode != 0:
            raise UserError(f"dot could not render {args.out}: {result.stderr.strip().splitlines()[-1] if result.stderr else 'unknown error'}")
        print(f"wrote {args.out}")
        return 0
    _write(args.out, dot)
    print(f"wrote DOT text to {args.out}")
    return 0


def _write(path: str, text: str) -> None:
    try:
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(text)
    except OSError as error:
        raise UserError(f"cannot write {path} ({error.strerror})") from None
