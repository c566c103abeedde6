"""`mahjong-table parlour`: every table of a parlour on one page, read from the MQTT broker the
tables report to (`run --mqtt URL --table NAME`, docs/fleet.md).  It runs until Ctrl-C."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import signal
import sqlite3
from pathlib import Path
from typing import Iterator

from firmware.fleet.settings import PARLOUR_CLIENT_ID

from .errors import UserError
from .streams import stop_signal_heard, stop_signals

DEFAULT_HTTP = "127.0.0.1:8088"


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "parlour", help="watch every table of a parlour through an MQTT broker, on one page, until Ctrl-C",
        description="Subscribe to every table's status, events and settled hands on the broker (mahjong/+/…), "
                    "keep the hands and the tables' comings and goings in a SQLite store, and serve one page: "
                    "every table's state and faults at a glance, hours and hands today per table, the recent "
                    "hands across tables.  A broker that is down is tried again with back-off; the page says so.",
        epilog="examples:\n"
               "  mahjong-table parlour --mqtt mqtt://127.0.0.1:1883\n"
               "  mahjong-table parlour --mqtt mqtt://127.0.0.1:1883 --http 127.0.0.1:8089 --db parlour.db",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--mqtt", required=True, metavar="URL",
                        help="the broker, mqtt://[USER:PASSWORD@]HOST[:PORT] or mqtts://… for TLS, "
                             "e.g. mqtt://127.0.0.1:1883")
    parser.add_argument("--http", default=DEFAULT_HTTP, metavar="HOST:PORT",
                        help=f"where the page listens (default {DEFAULT_HTTP}); any address but this machine's "
                             "needs --token-file")
    parser.add_argument("--db", metavar="FILE", help="the parlour's store (default: parlour.db in the state directory)")
    parser.add_argument("--client-id", default=PARLOUR_CLIENT_ID, metavar="ID",
                        help="the MQTT client id; the broker keeps this id's session, so hands sent while the "
                             "parlour is away wait for it (default mjt-parlour; one id per parlour)")
    parser.add_argument("--ca", metavar="FILE", help="the broker's CA certificate (PEM), for a broker with its own")
    parser.add_argument("--token-file", metavar="FILE",
                        help="a file holding the token another machine's browser must give (?token=…)")
    parser.set_defaults(handler=run_parlour)


def run_parlour(args: argparse.Namespace) -> int:
    from firmware.config import default_state_dir
    from firmware.fleet.settings import FleetError, parse_broker_url, shown_url
    from firmware.web import WebError, parse_listen
    from .files import refuse_empty

    refuse_empty(args, {"mqtt": "mqtt://parlour:PASSWORD@127.0.0.1:1883", "http": "127.0.0.1:8088",
                        "db": "parlour.db", "client_id": "mjt-parlour", "ca": "ca.pem", "token_file": "parlour.token"})
    try:
        broker = parse_broker_url(args.mqtt, tls=args.ca)
    except FleetError as error:
        raise UserError(f"--mqtt {shown_url(args.mqtt)}: {error}") from None     # never its password
    _check_client_id(args.client_id)
    token = _token(args.token_file)
    try:
        parse_listen(args.http, token or "a token of 16 chars")        # the address itself
    except WebError as error:
        raise UserError(f"--http {args.http}: {error}") from None
    try:
        settings = parse_listen(args.http, token)
    except WebError:
        raise UserError(f"--http {args.http}: other machines could open the page; give --token-file FILE "
                        "(a token of 16 characters or more), or listen on 127.0.0.1") from None
    from firmware.parlour.store import check_store
    from .files import ensure_dir, folder_of_named_file, open_database
    if args.db:
        db = Path(args.db)
        folder_of_named_file(db, "parlour's store", "--db")       # (never created: a typo would start a new store)
    else:
        db = ensure_dir(default_state_dir(), "parlour's store", "--db") / "parlour.db"
    open_database(check_store, db, "parlour's store", "--db")     # here, not on the writer thread: one line, no log
    return asyncio.run(_watch(broker, settings, db, args.client_id))


def _token(path: str | None) -> str | None:
    if path is None:
        return None
    try:
        token = Path(path).read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError) as error:
        raise UserError(f"--token-file {path}: cannot read it ({getattr(error, 'strerror', None) or error})") from None
    if len(token) < 16:
        raise UserError(f"--token-file {path}: the token is too short to keep anyone out; give at least 16 characters")
    return token


CLIENT_ID_MOST = 65535        # bytes: MQTT writes a client id's length in two bytes


def _check_client_id(client_id: str) -> None:
    """An id MQTT can carry (a longer one failed at every connection, a traceback each time: a probe)."""
    try:
        size = len(client_id.encode("utf-8"))
    except UnicodeEncodeError:
        raise UserError(f"--client-id {client_id!r}: not UTF-8 text; give an id such as mjt-parlour") from None
    if size > CLIENT_ID_MOST:
        raise UserError(f"--client-id: {size} bytes; MQTT carries at most {CLIENT_ID_MOST} (brokers often "
                        "take 23): give a short id such as mjt-parlour")


async def _watch(broker, settings, db: Path, client_id: str) -> int:
    from firmware.parlour.server import ParlourServer
    from firmware.parlour.watcher import ParlourWatcher
    from firmware.records.foreign_db import ForeignDatabase
    from firmware.web import WebError

    watcher = ParlourWatcher(broker, db, client_id=client_id)
    try:
        await watcher.start()
    except ForeignDatabase as error:            # (checked at the start already: a file changed since)
        raise UserError(f"{error}; choose another with --db") from None
    except sqlite3.Error as error:
        raise UserError(f"{db}: cannot use it as the parlour's store ({error}); move it away or choose another "
                        "with --db") from None
    server = ParlourServer(settings, watcher)
    try:
        try:
            address = await server.start()
        except WebError as error:
            raise UserError(str(error)) from None
        with _signals() as stopped:             # caught before the line that says Ctrl-C stops it
            _say(f"parlour page at {address}; watching {broker.url()} (mahjong/+/…); Ctrl-C stops")
            _say(f"stopped by {await stopped}")
        return 0
    finally:
        await server.stop()
        await watcher.stop()


@contextlib.contextmanager
def _signals() -> Iterator[asyncio.Future]:
    """A future that SIGINT, SIGTERM or SIGHUP (its terminal closed) completes with the signal's name."""
    loop = asyncio.get_running_loop()
    stopped: asyncio.Future[str] = loop.create_future()
    signals = (signal.SIGINT, *stop_signals())
    for sig in signals:
        loop.add_signal_handler(sig, lambda name=sig.name: stopped.done() or stopped.set_result(stop_signal_heard(name)))
    try:
        yield stopped
    finally:
        for sig in signals:
            loop.remove_signal_handler(sig)


def _say(line: str) -> None:
    print(line, flush=True)


__all__ = ["register", "run_parlour"]
