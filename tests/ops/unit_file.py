"""Reading deploy/mahjong-table.service as systemd does: sections of KEY=VALUE lines, keys repeatable."""

from __future__ import annotations

from pathlib import Path

from tests.ops.support import ROOT

UNIT = ROOT / "deploy" / "mahjong-table.service"


def read_unit(path: Path = UNIT) -> dict[str, dict[str, list[str]]]:
    sections: dict[str, dict[str, list[str]]] = {}
    current = None
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            current = sections.setdefault(line.strip("[]"), {})
            continue
        key, _, value = line.partition("=")
        assert current is not None, f"{path}: {line!r} outside a section"
        current.setdefault(key.strip(), []).append(value.strip())
    return sections


def service(key: str) -> str:
    """The one value of a [Service] key (the last one, as systemd reads a repeated scalar)."""
    return read_unit()["Service"][key][-1]
