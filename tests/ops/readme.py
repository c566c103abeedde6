"""Reading README.md as a newcomer does: its sections, their code blocks, the commands in them."""

from __future__ import annotations

import re

from tests.ops.support import ROOT

README = ROOT / "README.md"
PI_SECTION = "On a Raspberry Pi"
CONSOLE_SECTION = "Playing the simulated table by hand"


def sections() -> dict[str, str]:
    """'## Heading' → the text under it (the part before the first heading is '')."""
    parts = re.split(r"^## (.+)$", README.read_text(encoding="utf-8"), flags=re.M)
    found = {"": parts[0]}
    for heading, body in zip(parts[1::2], parts[2::2]):
        found[heading.strip()] = body
    return found


def blocks(text: str, lang: str = "sh") -> list[list[str]]:
    """The lines of each fenced block of that language, comments and blank lines dropped."""
    found = re.findall(rf"^```{lang}\n(.*?)^```", text, flags=re.M | re.S)
    return [[_strip_comment(line) for line in block.splitlines() if _strip_comment(line)] for block in found]


def _strip_comment(line: str) -> str:
    return re.sub(r"\s+#.*$", "", line).strip() if not line.lstrip().startswith("#") else ""


def commands(text: str) -> list[str]:
    """Every `mahjong-table …` command in a text: in sh blocks (each part of an `&&` chain) and in
    inline code spans."""
    found = []
    for block in blocks(text):
        for line in block:
            found += [part.strip() for part in line.split("&&") if re.search(r"(^|/)mahjong-table ", part.strip())]
    outside = re.sub(r"^```.*?^```", "", text, flags=re.M | re.S)
    found += [span for span in re.findall(r"`([^`\n]+)`", outside) if span.startswith("mahjong-table ")]
    return found
