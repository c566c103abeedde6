"""Text columns that line up in a terminal whatever the script: a CJK character takes two cells.

`len()` counts characters, not terminal cells, so 武汉红中赖子杠 (7 characters, 14 cells) shifts
every column after it.  Widths here follow Unicode's East Asian Width (UAX #11): wide (W) and
fullwidth (F) characters take two cells, combining marks none, everything else one.
"""

from __future__ import annotations

import unicodedata
from typing import Sequence


def cells(text: str) -> int:
    """How many terminal cells `text` takes."""
    width = 0
    for char in text:
        if unicodedata.combining(char):
            continue
        width += 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1
    return width


def pad(text: str, width: int, align: str = "<") -> str:
    """`text` padded with spaces to `width` cells ('<' left-aligned, '>' right-aligned)."""
    fill = " " * max(width - cells(text), 0)
    return text + fill if align == "<" else fill + text


def table(header: Sequence[str], rows: Sequence[Sequence[str]], align: str, gap: int = 2) -> list[str]:
    """Lines of a table: each column as wide as its widest cell; `align` has one '<' or '>' per
    column; the last column is not padded (nothing follows it)."""
    widths = [max(cells(str(row[i])) for row in [header, *rows]) for i in range(len(header))]
    lines = []
    for row in [header, *rows]:
        parts = [pad(str(value), widths[i], align[i]) for i, value in enumerate(row)]
        parts[-1] = str(row[-1]) if align[-1] == "<" else parts[-1]
        lines.append((" " * gap).join(parts).rstrip())
    return lines
