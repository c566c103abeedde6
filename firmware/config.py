"""The table's configuration file (TOML): which ports the boards are on, where state is kept.

Where it is found (`find_config`): `--config FILE`, else `$MAHJONG_TABLE_CONFIG`, else
/etc/mahjong-table/config.toml if that exists; with none of them the commands run the built-in
simulator.  A configuration must name the boards: one that does not is an error, never a quiet
fall-back to the simulator (a table with a broken config must not play a simulated game).

Every mistake is one line naming the file, the field and what to do (`ConfigError`): a file that
is missing, empty, a directory, not UTF-8 or not TOML; an unknown section or field; a value of
the wrong type or out of range.  See deploy/config.toml for a commented example.
"""

from __future__ import annotations

import os
import re
import stat
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping
from urllib.parse import urlsplit

DEFAULT_BAUDRATE = 115200
BAUDRATE_RANGE = (1200, 4_000_000)            # what USB UARTs and our boards' MCUs can run
DEFAULT_CONFIG_PATH = Path("/etc/mahjong-table/config.toml")
CONFIG_ENV = "MAHJONG_TABLE_CONFIG"
SIMULATOR_SUBDIR = "simulator"                # a simulated run's state, apart from the table's
# the kernel numbers USB serial adapters in the order they appear: after a reboot or a replug two
# boards can swap these names, and a port opened again (a display put back) may be another board's
KERNEL_NUMBERED_PORT = re.compile(r"/dev/tty(USB|ACM)[0-9]+")


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
class MqttConfig:
    """[mqtt]: the broker this table reports to and the name it reports under (docs/fleet.md).
    `tls` is true (the system's CAs), a CA certificate's path, or false (mqtts:// in the url also
    turns it on)."""

    url: str | None = None
    table: str | None = None
    user: str | None = None
    password: str | None = field(default=None, repr=False)
    tls: bool | str = False


@dataclass(frozen=True)
class TableConfig:
    devices: DeviceConfig | None                 # None: the built-in simulator (no file in use)
    ruleset: str | None = None                   # None: the front panel's saved choice
    options: dict[str, str] = field(default_factory=dict)
    state_dir: Path = field(default_factory=lambda: default_state_dir())
    events_dir: Path | None = None
    source: str = "(defaults)"
    web: WebConfig = field(default_factory=WebConfig)
    mqtt: MqttConfig = field(default_factory=MqttConfig)

    @property
    def simulator_state_dir(self) -> Path:
        """Where a simulated run keeps its ledger and settings: never the real table's files."""
        return self.state_dir / SIMULATOR_SUBDIR


def default_state_dir() -> Path:
    base = os.environ.get("XDG_STATE_HOME") or os.path.join(os.path.expanduser("~"), ".local", "state")
    return Path(base) / "mahjong-table"


def find_config(explicit: str | None, environ: Mapping[str, str] | None = None,
                default: Path | None = None) -> Path | None:
    """The configuration file to use, or None for the built-in simulator.

    An explicit `--config` or `$MAHJONG_TABLE_CONFIG` must exist (load_config says so in one line);
    the default path is used only when it exists, so a development machine without one simulates.
    """
    if explicit:
        return Path(explicit)
    named = (os.environ if environ is None else environ).get(CONFIG_ENV, "")
    if named:
        return Path(named)
    default = DEFAULT_CONFIG_PATH if default is None else default
    return default if default.exists() else None


def load_config(path: str | Path) -> TableConfig:
    path = Path(path)
    raw = parse_toml(_read_text(path), path)
    return parse_config(raw, str(path))


def _read_text(path: Path) -> str:
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise ConfigError(f"{path}: no such file; copy deploy/config.toml there and edit the ports") from None
    except IsADirectoryError:
        raise ConfigError(f"{path}: is a directory; name the configuration file itself, e.g. {path / 'config.toml'}") from None
    except OSError as error:
        raise ConfigError(f"{path}: cannot read it ({error.strerror}); check its permissions") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        raise ConfigError(f"{path}: line {line}: byte 0x{data[error.start]:02x} is not UTF-8; "
                          "save the file as UTF-8") from None
    text = text.removeprefix("\ufeff")     # a BOM (Notepad's "UTF-8 with BOM") is not TOML, but harmless
    if not text.strip():
        raise ConfigError(f"{path}: is empty; copy deploy/config.toml there and edit the ports")
    return text


def parse_toml(text: str, path: Path | str) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        detail = " ".join(str(error).split())
        raise ConfigError(f"{path}: not valid TOML ({detail}); fix the line it names") from None
    except RecursionError:
        raise ConfigError(f"{path}: not valid TOML (nested too deeply)") from None


SECTIONS = {"devices": {"motor", "rfid", "display", "baudrate"}, "table": {"ruleset", "options"},
            "storage": {"state_dir", "events_dir"}, "web": {"listen", "token"},
            "mqtt": {"url", "table", "user", "password", "tls"}}


def parse_config(raw: dict[str, Any], source: str = "config") -> TableConfig:
    """A checked TableConfig from parsed TOML; ConfigError (one line) on the first mistake."""
    _check_layout(raw, source)
    table = raw.get("table", {})
    storage = raw.get("storage", {})
    ruleset = _ruleset(table, source)
    options = _options(table, source)
    state_dir = _directory(storage, "state_dir", source) or default_state_dir()
    events_dir = _directory(storage, "events_dir", source)
    devices = _devices(raw.get("devices"), source)
    return TableConfig(devices, ruleset, options, state_dir, events_dir, source, _web(raw.get("web"), source),
                       _mqtt(raw.get("mqtt"), source))


def _check_layout(raw: dict[str, Any], source: str) -> None:
    for section, value in raw.items():
        if section not in SECTIONS:
            what = f"section [{section}]" if isinstance(value, dict) else f"setting {section!r} outside any section"
            raise ConfigError(f"{source}: unknown {what}; sections are {', '.join(f'[{s}]' for s in SECTIONS)}")
        if not isinstance(value, dict):
            raise ConfigError(f"{source}: [{section}] must be a table of settings")
        for key in value:
            if key not in SECTIONS[section]:
                raise ConfigError(f"{source}: unknown field {section}.{key}; fields of [{section}] are "
                                  f"{', '.join(sorted(SECTIONS[section]))}")


def _web(section: dict[str, Any] | None, source: str) -> WebConfig:
    """[web] listen = "127.0.0.1:8080", token = "…" (both optional)."""
    if section is None:
        return WebConfig()
    listen = _string(section, "listen", "web.listen", source) if "listen" in section else None
    token = _string(section, "token", "web.token", source) if "token" in section else None
    if token is not None and len(token) < 16:
        raise ConfigError(f"{source}: web.token is too short to keep anyone out; give at least 16 characters "
                          "(e.g. the output of `python3 -c 'import secrets; print(secrets.token_urlsafe())'`)")
    return WebConfig(listen, token)


def _mqtt(section: dict[str, Any] | None, source: str) -> MqttConfig:
    """[mqtt] url = "mqtt://host:1883", table = "t03" (both, or neither), user, password, tls."""
    if section is None:
        return MqttConfig()
    from .fleet.settings import FleetError, check_table_name, parse_broker_url
    text = {key: _string(section, key, f"mqtt.{key}", source) for key in ("url", "table", "user", "password")
            if key in section}
    tls = section.get("tls", False)
    if not isinstance(tls, bool) and not (isinstance(tls, str) and tls.strip()):
        raise ConfigError(f"{source}: mqtt.tls must be true, false or the path of the broker's CA certificate, in quotes")
    for needed, example in (("url", '"mqtt://192.168.1.10:1883"'), ("table", '"t03"')):
        if needed not in text:
            raise ConfigError(f"{source}: mqtt.{needed} is missing; give it, e.g. {needed} = {example}, "
                              "or leave out the [mqtt] section")
    try:
        parse_broker_url(text["url"], user=text.get("user"), password=text.get("password"), tls=tls)
        check_table_name(text["table"])
    except FleetError as error:
        raise ConfigError(f"{source}: mqtt: {error}") from None
    return MqttConfig(text["url"], text["table"], text.get("user"), text.get("password"), tls)


def _devices(section: dict[str, Any] | None, source: str) -> DeviceConfig:
    if not section:
        raise ConfigError(f"{source}: names no boards; add a [devices] section with the motor and rfid ports "
                          "(see deploy/config.toml), or run the simulator without --config (or with --simulate)")
    for needed in ("motor", "rfid"):
        if needed not in section:
            raise ConfigError(f"{source}: devices.{needed} is missing; name its port, e.g. "
                              f"\"/dev/serial/by-id/usb-…-{needed}-if00\" or \"socket://host:port\"")
    ports = {name: _port(section, name, source) for name in ("motor", "rfid", "display") if name in section}
    seen: dict[object, tuple[str, str]] = {}
    for name, port in ports.items():
        device = _device_of(port)
        same = seen.get(device)
        if same is not None:
            named = f"{port!r}" if same[1] == port else f"{same[1]!r} and {port!r}, one device"
            raise ConfigError(f"{source}: devices.{same[0]} and devices.{name} are both {named}; "
                              "each board has its own port")
        seen[device] = (name, port)
    return DeviceConfig(ports["motor"], ports["rfid"], ports.get("display"), _baudrate(section, source))


LOCAL_HOSTS = {"localhost", "127.0.0.1", "::1", "ip6-localhost"}


def _device_of(port: str) -> object:
    """What a port name opens, so one device under two names is seen (a by-id link and the node it
    points at; localhost and 127.0.0.1): the second name only failed later, as "held open by another
    program", or took a board's link down and up twice a second (a probe)."""
    if "://" in port:
        parts = urlsplit(port)
        host = (parts.hostname or "").lower()
        try:
            number = parts.port
        except ValueError:
            number = None                       # (said by the port's own check)
        return ("socket", "127.0.0.1" if host in LOCAL_HOSTS else host, number)
    try:
        found = os.stat(port)
    except OSError:
        return ("path", os.path.realpath(port))   # not there now (unplugged): by its name
    return ("device", found.st_rdev) if stat.S_ISCHR(found.st_mode) else ("path", os.path.realpath(port))


def unstable_port_names(devices: DeviceConfig) -> tuple[str, ...]:
    """A line for each board named by the kernel's order of the adapters, not by the adapter: a
    table that works today, with the names swapped after a reboot, would drive the wrong board."""
    named = (("motor", devices.motor), ("rfid", devices.rfid), ("display", devices.display))
    return tuple(f"devices.{name} = {port!r} is numbered by the kernel in the order the adapters appear, and "
                 "two boards can swap such names after a reboot or a replug; name it by /dev/serial/by-id/… or "
                 "the udev names of deploy/99-mahjong-table.rules"
                 for name, port in named if port is not None and KERNEL_NUMBERED_PORT.fullmatch(port))


def _port(section: dict[str, Any], key: str, source: str) -> str:
    value = _string(section, key, f"devices.{key}", source)
    if "://" in value:                      # the transport reads it as a URL, whatever comes first
        _check_url(value, f"devices.{key}", source)
    elif not value.startswith("/"):
        raise ConfigError(f"{source}: devices.{key} = {value!r} is not a port; give a device path such as "
                          "\"/dev/serial/by-id/…\" or a URL such as \"socket://host:port\"")
    return value


def _check_url(value: str, name: str, source: str) -> None:
    """A URL the transport cannot open is refused now, naming the field, not when the table starts."""
    from drivers.serial_transport import url_problem      # only for a URL: it imports pyserial
    problem = url_problem(value)
    if problem is not None:
        raise ConfigError(f"{source}: {name} = {value!r} is not a port the table can open: {problem}")


def _baudrate(section: dict[str, Any], source: str) -> int:
    value = section.get("baudrate", DEFAULT_BAUDRATE)
    low, high = BAUDRATE_RANGE
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        shown = str(value).lower() if isinstance(value, bool) else repr(value)
        raise ConfigError(f"{source}: devices.baudrate = {shown} must be a whole number from {low} to {high} "
                          f"(the boards use {DEFAULT_BAUDRATE})")
    return value


def _ruleset(section: dict[str, Any], source: str) -> str | None:
    if "ruleset" not in section:
        return None
    value = _string(section, "ruleset", "table.ruleset", source)
    from rulesets.regions import REGION_IDS     # only when a config names one: the import is not free
    if value not in REGION_IDS:
        raise ConfigError(f"{source}: table.ruleset = {value!r} is not a ruleset; see `mahjong-table rules list`")
    return value


def _options(section: dict[str, Any], source: str) -> dict[str, str]:
    options = section.get("options", {})
    if not isinstance(options, dict) or not all(isinstance(v, str) and v for v in options.values()):
        raise ConfigError(f"{source}: table.options must be a table of strings, e.g. {{ reserve_reading = \"R-B\" }}")
    return dict(options)


def _directory(section: dict[str, Any], key: str, source: str) -> Path | None:
    if key not in section:
        return None
    path = Path(_string(section, key, f"storage.{key}", source)).expanduser()
    if not path.is_absolute():
        raise ConfigError(f"{source}: storage.{key} = {str(path)!r} must be an absolute path, e.g. \"/var/lib/mahjong-table\"")
    return path


def _string(section: dict[str, Any], key: str, name: str, source: str) -> str:
    value = section.get(key)
    if not isinstance(value, str) or not value.strip() or any(c in value for c in "\0\n\r"):
        raise ConfigError(f"{source}: {name} must be a non-empty string on one line, in quotes")
    return value
