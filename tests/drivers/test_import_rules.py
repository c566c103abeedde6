"""The rooms' import rules (DESIGN §3), checked on the source: drivers/, simulator/, rulesets/,
firmware/hand/ and who may import the controller."""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.timeout(30)

# Standard-library modules that do I/O, run concurrently or read a clock: not in the pure rules.
IMPURE = {"asyncio", "os", "io", "socket", "sqlite3", "serial", "serial_asyncio", "subprocess", "threading",
          "time", "datetime", "random", "secrets", "pathlib", "shutil", "tempfile", "logging", "select", "signal"}


def module_of(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def resolved_imports(path: Path) -> set[str]:
    """Every module a file imports, relative imports resolved to full dotted names."""
    package = module_of(path) if path.name == "__init__.py" else module_of(path).rpartition(".")[0]
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - node.level + 1]
                names.add(".".join(base + ([node.module] if node.module else [])))
            elif node.module:
                names.add(node.module)
    return names


def imports(package: str) -> dict[str, set[str]]:
    return {str(path.relative_to(ROOT)): resolved_imports(path) for path in sorted((ROOT / package).rglob("*.py"))}


def tops(names: set[str]) -> set[str]:
    return {name.split(".")[0] for name in names}


def test_drivers_import_nothing_of_ours():
    for path, names in imports("drivers").items():
        assert not tops(names) & {"rulesets", "simulator", "firmware"}, path


def test_simulator_never_imports_firmware():
    for path, names in imports("simulator").items():
        assert "firmware" not in tops(names), path


# Build tools run by a developer (`python -m …`), never imported by the rules at run time.
RULESET_TOOLS = {"rulesets/winning/build_tables.py", "rulesets/regions/build_summaries.py"}


def test_rulesets_are_pure():
    for path, names in imports("rulesets").items():
        if path in RULESET_TOOLS:
            continue
        assert not tops(names) & ({"drivers", "simulator", "firmware"} | IMPURE), (path, tops(names) & IMPURE)


def test_the_hand_sees_only_its_ports_the_rules_and_the_table_words():
    for path, names in imports("firmware/hand").items():
        ours = {n for n in names if n.split(".")[0] in {"firmware", "drivers", "simulator"}}
        allowed = {n for n in ours if n.startswith("firmware.hand") or n == "drivers.table_ui"}
        assert ours == allowed, (path, ours - allowed)
        assert not tops(names) & IMPURE - {"secrets"}, path     # the salt is drawn with `secrets`


def test_only_the_session_the_harness_and_the_commands_import_the_controller():
    for path, names in imports("firmware").items():
        if path in ("firmware/controller.py", "firmware/hub_ports.py",    # the hub and its views for the parts
                    "firmware/session.py", "firmware/journal.py",         # the session, its journal
                    "firmware/plates.py",                                 # and its hand over's lifts
                    "firmware/between_hands.py", "firmware/session_upkeep.py",    # its sets, its upkeep
                    "firmware/simulated.py") \
                or path.startswith("firmware/cli/"):
            continue
        assert "firmware.controller" not in names, path


def test_only_the_transport_adapter_imports_pyserial_asyncio():
    users = [path for package in ("drivers", "simulator", "firmware", "rulesets")
             for path, names in imports(package).items() if "serial_asyncio" in tops(names)]
    assert users == ["drivers/serial_transport.py"]
