"""The table's configuration file (TOML): which ports the boards are on, where state is kept.

Every mistake is one line naming the file, the field and what to do (`ConfigError`).
See deploy/config.toml for a commented example.
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

DEFAULT_BAUDRATE = 115200


class ConfigError(Exception):
    """A configuration file that cannot be used; the message is one line."""


@dataclass(frozen=True)
class DeviceConfig:
    motor: str
    rfid: str
    display: str | None = None
    baudrate: int = DEFAULT_BAUDRATE


@dataclass(frozen=True)
class WebConfig:
    """[web]: where the web view listens (firmware/web) and the token any address other than this
    machine's needs."""

    listen: str | None = None
    token: str | None = None


@dataclass(frozen=True)
class TableConfig:
    devices: DeviceConfig | None                 # None: the built-in simulator
    ruleset: str | None = None                   # None: the front panel's saved choice
    options: dict[str, str] = field(default_factory=dict)
    state_dir: Path = field(default_factory=lambda: default_state_dir())
    events_dir: Path | None = None
    source: str = "(defaults)"
    web: WebConfig = field(default_factory=WebConfig)


def default_state_dir() -> Path:
    base = os.environ.get("XDG_STATE_HOME") or os.path.join(os.path.expanduser("~"), ".local", "state")
    return Path(base) / "mahjong-table"


SECTIONS = {"devices": {"motor", "rfid", "display", "baudrate"}, "table": {"ruleset", "options"},
            "storage": {"state_dir", "events_dir"}, "web": {"listen", "token"}}


def load_config(path: str | Path) -> TableConfig:
    path = Path(path)
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigError(f"{path}: no such file; copy deploy/config.toml there and edit the ports") from None
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{path}: not valid TOML ({error}); fix the line it names") from None
    except OSError as error:
        raise ConfigError(f"{path}: cannot read it ({error.strerror})") from None
    return parse_config(raw, str(path))


def parse_config(raw: dict[str, Any], source: str = "config") -> TableConfig:
    for section, value in raw.items():
        if section not in SECTIONS:
            raise ConfigError(f"{source}: unknown section [{section}]; sections are {', '.join(f'[{s}]' for s in SECTIONS)}")
        if not isinstance(value, dict):
            raise ConfigError(f"{source}: [{section}] must be a table of settings")
        for key in value:
            if key not in SECTIONS[section]:
                raise ConfigError(f"{source}: unknown field {section}.{key}; fields of [{section}] are {', '.join(sorted(SECTIONS[section]))}")
    devices = _devices(raw.get("devices"), source)
    table = raw.get("table", {})
    ruleset = table.get("ruleset")
    if ruleset is not None and not isinstance(ruleset, str):
        raise ConfigError(f"{source}: table.ruleset must be a ruleset id in quotes, e.g. \"changchun\"")
    options = table.get("options", {})
    if not isinstance(options, dict) or not all(isinstance(v, str) for v in options.values()):
        raise ConfigError(f"{source}: table.options must be a table of strings, e.g. {{ reserve_reading = \"R-B\" }}")
    storage = raw.get("storage", {})
    state_dir = Path(_string(storage, "state_dir", source, str(default_state_dir())))
    events = storage.get("events_dir")
    return TableConfig(devices, ruleset, dict(options), state_dir,
                       Path(_string(storage, "events_dir", source)) if events is not None else None, source,
                       _web(raw.get("web"), source))


def _web(section: dict[str, Any] | None, source: str) -> WebConfig:
    """[web] listen = "127.0.0.1:8080", token = "…" (both optional)."""
    if section is None:
        return WebConfig()
    listen = _string(section, "listen", source) if "listen" in section else None
    token = _string(section, "token", source) if "token" in section else None
    if token is not None and len(token) < 16:
        raise ConfigError(f"{source}: web.token is too short to keep anyone out; give at least 16 characters "
                          "(e.g. the output of `python3 -c 'import secrets; print(secrets.token_urlsafe())'`)")
    return WebConfig(listen, token)


def _devices(section: dict[str, Any] | None, source: str) -> DeviceConfig | None:
    if section is None:
        return None
    for needed in ("motor", "rfid"):
        if needed not in section:
            raise ConfigError(f"{source}: devices.{needed} is missing; name its port, e.g. "
                              f"\"/dev/serial/by-id/usb-…-{needed}-if00\" or \"socket://host:port\"")
    baudrate = section.get("baudrate", DEFAULT_BAUDRATE)
    if not isinstance(baudrate, int) or baudrate <= 0:
        raise ConfigError(f"{source}: devices.baudrate must be a whole number such as 115200")
    display = section.get("display")
    return DeviceConfig(_string(section, "motor", source), _string(section, "rfid", source),
                        _string(section, "display", source) if display is not None else None, baudrate)


def _string(section: dict[str, Any], key: str, source: str, default: str | None = None) -> str:
    value = section.get(key, default)
    if not isinstance(value, str) or not value:
        raise ConfigError(f"{source}: {key} must be a non-empty string in quotes")
    return value
