"""The web view never starves the table: its pages share the controller's file descriptors with the
boards' ports, so connections over `MAX_CONNECTIONS` are refused with a one-line 503 (and said once
in the log), and the view takes connections again once some close."""

from __future__ import annotations

import asyncio
import logging
import re

from firmware.web.live import LiveTable
from firmware.web.server import WebServer, parse_listen
from tests.asyncio_support import run

CAP = 8


async def _get(port: int, path: str = "/api/state") -> bytes:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode())
    answer = await reader.read()
    writer.close()
    return answer


async def _ask_on(connection) -> bytes:
    """One request on a connection kept alive: the answer's head (its body read too)."""
    reader, writer = connection
    writer.write(b"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    head = await reader.readuntil(b"\r\n\r\n")
    length = int(re.search(rb"Content-Length: (\d+)", head).group(1))
    await reader.readexactly(length)
    return head


async def _until(condition, what: str) -> None:
    async def poll() -> None:
        while not await condition():
            await asyncio.sleep(0.01)
    try:
        await asyncio.wait_for(poll(), 30)
    except TimeoutError:
        raise AssertionError(f"never: {what}") from None


def test_connections_over_the_cap_are_refused_in_one_line_and_taken_again_once_some_close(caplog):
    async def go() -> None:
        server = WebServer(parse_listen("127.0.0.1:0"), LiveTable(), None, max_connections=CAP)
        port = int((await server.start()).rstrip("/").rsplit(":", 1)[1])
        idle = []
        try:
            for _ in range(CAP):                                    # tabs left open: connected, saying nothing
                idle.append(await asyncio.open_connection("127.0.0.1", port))

            async def all_open() -> bool:
                return server.connections() == CAP
            await _until(all_open, f"{CAP} idle connections open")
            flood = [await _get(port) for _ in range(3 * CAP)]     # a crowd more
            assert all(answer.startswith(b"HTTP/1.1 503 ") for answer in flood), flood[0]
            assert flood[0].endswith(b"too many open connections; close some of its pages and try again\n")
            assert server.connections() == CAP                      # none of the crowd was kept open
            assert server.refused == 3 * CAP
            for _, writer in idle[:2]:                              # two pages closed
                writer.close()

            async def served() -> bool:
                return (await _get(port)).startswith(b"HTTP/1.1 200 ")
            await _until(served, "a request served once two connections closed")
        finally:
            for _, writer in idle:
                writer.close()
            await server.stop()

    with caplog.at_level(logging.WARNING, logger="firmware.web"):
        run(go(), timeout=60)
    said = [r.getMessage() for r in caplog.records if r.name == "firmware.web"]
    assert said[0] == (f"web view: {CAP} connections open, refusing more (503) so the boards' ports keep their "
                       "file descriptors: close some of its pages")
    assert len(said) == 2 and re.fullmatch(rf"web view: connections accepted again \((\d+) refused while {CAP} were open\)",
                                            said[1]), said
    assert int(re.search(r"\((\d+) refused", said[1]).group(1)) >= 3 * CAP      # (a try while the two closed is one more)


async def _send(port: int, raw: bytes) -> bytes:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(raw)
    answer = await reader.read()
    writer.close()
    return answer


def test_a_request_the_server_cannot_read_is_refused_with_one_log_line_not_a_traceback(caplog):
    """A client's malformed bytes (a request line past 8 KB, a header without a value's digits, no HTTP
    at all) were logged by aiohttp with a traceback each: any local program could fill the journal."""
    requests = (b"GET /api/state?objects=" + b"a" * 10000 + b" HTTP/1.1\r\nHost: x\r\n\r\n",
                b"POST /api/sim/key HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n",
                b"GET /api/state HTTP/1.1\r\nHost: x\r\n\r\nGARBAGE\r\n\r\n")

    async def go() -> list[bytes]:
        server = WebServer(parse_listen("127.0.0.1:0"), LiveTable(), None)
        port = int((await server.start()).rstrip("/").rsplit(":", 1)[1])
        try:
            return [await _send(port, raw) for raw in requests]
        finally:
            await server.stop()

    with caplog.at_level(logging.DEBUG):
        answers = run(go(), timeout=60)
    assert all(b" 400 Bad Request\r\n" in answer for answer in answers), answers
    refused = [r for r in caplog.records if "Error handling request" in r.getMessage()]
    assert len(refused) >= 2 and all(r.name == "firmware.web" and r.exc_info is None for r in refused), \
        [(r.name, r.getMessage(), r.exc_info) for r in refused]
    assert all("\n" not in r.getMessage() for r in refused)


def test_connections_that_send_no_request_are_closed_and_cannot_lock_the_owner_out():
    """Sixty-four connections that never sent a request filled the cap for good: every page the owner
    opened got the 503 for minutes (a probe). A connection brings its first request in time, or is
    closed; one that did (a page's keep-alive, a WebSocket) is aiohttp's to time out."""
    async def go() -> None:
        server = WebServer(parse_listen("127.0.0.1:0"), LiveTable(), None, max_connections=CAP)
        server.first_request_s = 0.3
        port = int((await server.start()).rstrip("/").rsplit(":", 1)[1])
        idle, talking = [], None
        try:
            talking = await asyncio.open_connection("127.0.0.1", port)        # a page, kept alive
            assert (await _ask_on(talking)).startswith(b"HTTP/1.1 200 ")
            for _ in range(CAP - 1):                                          # silent ones fill the cap
                idle.append(await asyncio.open_connection("127.0.0.1", port))
            for reader, _ in idle:                                            # …and are closed
                assert await reader.read() == b""

            async def served() -> bool:
                return (await _get(port)).startswith(b"HTTP/1.1 200 ")
            await _until(served, "the owner's page served once the silent connections were closed")
            assert server.silent_closed == CAP - 1
            assert (await _ask_on(talking)).startswith(b"HTTP/1.1 200 ")       # still open
        finally:
            for _, writer in idle + ([talking] if talking else []):
                writer.close()
            await server.stop()
    run(go(), timeout=60)


def test_a_client_gone_as_it_was_answered_is_no_warning(caplog):
    """aiohttp logs a client that vanished mid-answer (`Cannot write to closing transport`): one warning
    line per such client filled the table's log (a probe). Nothing is wrong at the table: debug."""
    from firmware.web.server import _RefusedRequests

    adapter = _RefusedRequests(logging.getLogger("firmware.web"), {})
    with caplog.at_level(logging.DEBUG, logger="firmware.web"):
        adapter.exception("Error handling request from 192.0.2.7", exc_info=ConnectionResetError("Cannot write to closing transport"))
        adapter.exception("Error handling request from 192.0.2.7", exc_info=ValueError("Invalid method"))
    assert [(r.levelno, r.getMessage()) for r in caplog.records] == [
        (logging.DEBUG, "web view: Error handling request from 192.0.2.7 refused (Cannot write to closing transport)"),
        (logging.WARNING, "web view: Error handling request from 192.0.2.7 refused (Invalid method)")]
