"""Where the table reports to: the broker's address, the table's name, credentials and TLS.

Checked once, when the configuration or the command line is read, so a mistake is one line
(`FleetError`) before the table starts; this module imports no MQTT client, so checking a
configuration stays cheap.
"""

from __future__ import annotations

import re
import ssl
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote, urlsplit

SCHEMES = {"mqtt": (1883, False), "mqtts": (8883, True)}
PARLOUR_CLIENT_ID = "mjt-parlour"   # the parlour's default client id (cmd_parlour's --client-id)
TABLE_NAME = re.compile(r"^[A-Za-z0-9_-]{1,32}$")     # safe in a topic and in a Home Assistant id


class FleetError(Exception):
    """A broker address, table name or TLS setting that cannot be used; the message is one line."""


@dataclass(frozen=True)
class BrokerSettings:
    host: str
    port: int = 1883
    user: str | None = None
    password: str | None = field(default=None, repr=False)
    tls: bool = False
    ca_file: str | None = None               # a CA bundle for a broker with its own certificate

    def url(self) -> str:
        """The address as a person reads it: never the password."""
        host = f"[{self.host}]" if ":" in self.host else self.host
        who = f"{self.user}@" if self.user else ""
        return f"{'mqtts' if self.tls else 'mqtt'}://{who}{host}:{self.port}"


@dataclass(frozen=True)
class FleetSettings:
    """One table's reporting: where, under which name, and how hard to try."""

    broker: BrokerSettings
    table: str
    discovery_prefix: str = "homeassistant"
    status_interval: float = 0.5          # at most two status messages a second: the latest wins
    heartbeat: float = 60.0               # the status is sent again at least this often
    ack_timeout: float = 10.0             # a broker that does not acknowledge in time is left and retried
    keepalive: int = 30
    backoff: tuple[float, float] = (1.0, 30.0)     # the first wait after a failure, and the longest
    event_limit: int = 1000               # public events kept while the broker is away (oldest dropped)
    outbox_limit: int = 10000             # settled hands kept on disk while the broker is away


def parse_broker_url(text: str, *, user: str | None = None, password: str | None = None,
                     tls: bool | str | None = None) -> BrokerSettings:
    """"mqtt://host[:port]" or "mqtts://host[:port]", with an optional "user:password@".

    `user` and `password` come from the configuration when the URL does not carry them; `tls` is
    True (the system's CAs), a CA file's path (which implies TLS), or False/None (the scheme decides).
    """
    example = "give mqtt://HOST[:PORT] or mqtts://HOST[:PORT], e.g. mqtt://192.168.1.10:1883"
    shown = shown_url(text)
    try:
        parts = urlsplit(text.strip())
        port = parts.port
    except ValueError as error:
        raise FleetError(f"broker {shown!r}: {_unreadable(text, shown, error)}; {example}") from None
    if parts.scheme not in SCHEMES:
        raise FleetError(f"broker {shown!r}: {example}")
    if not parts.hostname:
        raise FleetError(f"broker {shown!r}: no host; {example}")
    if parts.path not in ("", "/") or parts.query or parts.fragment:
        raise FleetError(f"broker {shown!r}: a broker address has no path or query; {example}")
    default_port, secure = SCHEMES[parts.scheme]
    if port is not None and not 1 <= port <= 65535:      # port 0 was taken silently as the default
        raise FleetError(f"broker {shown!r}: port {port} is out of range; give a port from 1 to 65535 (1883 when omitted)")
    if parts.username is not None and user is not None:
        raise FleetError(f"broker {shown!r}: the user is given twice (in the URL and as the user setting); keep one")
    user = unquote(parts.username) if parts.username is not None else user
    password = unquote(parts.password) if parts.password is not None else password
    if password is not None and not user:          # (":pw@host" dropped the password without a word)
        raise FleetError(f"broker {shown!r}: a password without a user; give the user too")
    ca_file = None
    if isinstance(tls, str):
        ca_file = check_ca_file(tls)
        secure = True
    elif tls:
        secure = True
    return BrokerSettings(parts.hostname, default_port if port is None else port, user, password, secure, ca_file)


def shown_url(text: str) -> str:
    """`text` as an error may show it: a password in it (`user:password@`) becomes `user:***@`.  Works
    on any text, a URL urlsplit refuses too; everything up to the last '@' after the scheme is the
    login (a password may hold '/' or '@'), so a doubtful case hides more, never less."""
    scheme, sep, rest = text.partition("://") if "://" in text else ("", "", text)
    login, at, after = rest.rpartition("@")
    if not at or ":" not in login:
        return text
    return f"{scheme}{sep}{login.partition(':')[0]}:***@{after}"


def _unreadable(text: str, shown: str, error: ValueError) -> str:
    """urlsplit's complaint, without the password: told of the shown text when the URL has one (a
    password holding '/' ends the host early, and its first part would be named as the port)."""
    if shown == text:
        return str(error)
    try:
        urlsplit(shown.strip()).port
    except ValueError as hidden:
        return str(hidden)
    return "cannot read it as a URL (write a '/' in the password as %2F)"


def check_ca_file(path: str) -> str:
    """The CA file, read now as the TLS context will read it: a folder, a missing file or one that holds
    no PEM certificate is one line here, not a failure of the reporting once the table runs."""
    candidate = Path(path).expanduser()
    if candidate.is_dir():
        raise FleetError(f"TLS CA file {path!r} is a folder; give the broker's CA certificate file (PEM) or tls = true")
    if not candidate.is_file():
        raise FleetError(f"TLS CA file {path!r}: no such file; give the broker's CA certificate (PEM) or tls = true")
    try:
        ssl.create_default_context(cafile=str(candidate))
    except (ssl.SSLError, OSError, ValueError) as error:
        why = " ".join(str(getattr(error, "reason", None) or error).split())[:120]
        raise FleetError(f"TLS CA file {path!r} holds no certificate the TLS library can read ({why}); give the "
                         "broker's CA certificate in PEM (-----BEGIN CERTIFICATE-----)") from None
    return str(candidate)


def check_table_name(name: str) -> str:
    if not TABLE_NAME.match(name or ""):
        raise FleetError(f"table name {name!r}: use 1 to 32 letters, digits, '-' or '_' (it becomes the topic "
                         "mahjong/<name>/…), e.g. t03")
    if table_client_id(name) == PARLOUR_CLIENT_ID:
        raise FleetError(f"table name {name!r}: its broker client id {PARLOUR_CLIENT_ID} is the parlour's, and two "
                         "clients with one id knock each other off the broker; choose another name, e.g. t03")
    return name


def table_client_id(name: str) -> str:
    """The client id a table connects with (the broker allows one connection per id)."""
    return f"mjt-{name}"


__all__ = ["PARLOUR_CLIENT_ID", "BrokerSettings", "FleetError", "FleetSettings", "check_ca_file", "check_table_name",
           "parse_broker_url", "shown_url", "table_client_id"]
