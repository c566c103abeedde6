"""The rooms' import rules (DESIGN §3) for drivers/ and simulator/, checked on the source."""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.timeout(30)


def imports(package: str) -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for path in sorted((ROOT / package).rglob("*.py")):
        names: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names.update(alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names.add(node.module.split(".")[0])
        found[str(path.relative_to(ROOT))] = names
    return found


def test_drivers_import_nothing_of_ours():
    for path, names in imports("drivers").items():
        assert not names & {"rulesets", "simulator", "firmware"}, path


def test_simulator_never_imports_firmware():
    for path, names in imports("simulator").items():
        assert "firmware" not in names, path


def test_only_the_transport_adapter_imports_pyserial_asyncio():
    users = [path for package in ("drivers", "simulator", "firmware", "rulesets")
             for path, names in imports(package).items() if "serial_asyncio" in names]
    assert users == ["drivers/serial_transport.py"]
