"""The web server: aiohttp in the controller's own loop, the pages, the API, the WebSocket.

It listens on 127.0.0.1 unless configured; any other address needs a token from the config
(`[web] token`), which a client not on this machine sends as `X-Api-Key`, `Authorization: Bearer`,
`?token=` (a page opened so keeps it in a cookie for its own requests) — Moonraker's way.  The
server only reads the table: the one request that acts, a simulator key, exists only when the
table is the simulator, and it needs a JSON body (a cross-site form cannot send one).
"""

from __future__ import annotations

import asyncio
import hmac
import ipaddress
import json
import logging
import time
import weakref
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Awaitable, Callable, Mapping

from aiohttp import WSMsgType, web

from ..records.history import History
from ..service import NETWORK_CLOSED, network_closed
from ..version import package_version
from .api import METHODS, ApiError, Context, check_arguments, hands_export, hours_export, objects_arg
from .live import Client, LiveTable

STATIC = Path(__file__).with_name("static")
# path → (the page's body in static/pages/, the menu entry it belongs to)
PAGES = {"/": ("table", "table"), "/history": ("history", "history"), "/hours": ("hours", "hours"),
         "/hand": ("hand", "history"), "/sim": ("sim", "sim")}
TOKEN_COOKIE = "mjt_token"
CONTEXT = web.AppKey("context", Context)
SOCKETS = web.AppKey("sockets", weakref.WeakSet)
SETTINGS = web.AppKey("settings", object)


# Web connections open at once.  The pages share the controller's file descriptors with the boards'
# ports: a crowd of idle connections (tabs left open, a scanner on the parlour's network) must never
# leave a board's port unable to reopen after its adapter is pulled, so one over the cap is refused.
MAX_CONNECTIONS = 64
FIRST_REQUEST_S = 10.0         # a new connection brings its first whole request within this, or is closed
_BUSY = "503: this table's web view has too many open connections; close some of its pages and try again\n"
BUSY_RESPONSE = (f"HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\nRetry-After: 10\r\n"
                 f"Connection: close\r\nContent-Length: {len(_BUSY)}\r\n\r\n{_BUSY}").encode()
log = logging.getLogger("firmware.web")


class WebError(Exception):
    """The server cannot start as configured; one line saying what to change."""


@dataclass(frozen=True)
class WebSettings:
    host: str = "127.0.0.1"
    port: int = 8080
    token: str | None = None

    @property
    def loopback(self) -> bool:
        return is_loopback(self.host)


def is_loopback(host: str | None) -> bool:
    if host in ("localhost",):
        return True
    try:
        return ipaddress.ip_address((host or "").strip("[]")).is_loopback
    except ValueError:
        return False


def parse_listen(text: str, token: str | None = None) -> WebSettings:
    """"127.0.0.1:8080", "[::1]:8080", "0.0.0.0:8080" (needs a token) → WebSettings."""
    host, sep, port_text = text.rpartition(":")
    if not sep or not host or not port_text.isdigit():
        raise WebError(f"listen address {text!r}: give HOST:PORT, e.g. 127.0.0.1:8080")
    if int(port_text) > 65535:            # the shape is right: name the number, not the shape
        raise WebError(f"listen address {text!r}: port {int(port_text)} is out of range; give a port from 1 to 65535, "
                       "e.g. 127.0.0.1:8080")
    host = host.strip("[]")
    if host != "localhost":
        try:
            ipaddress.ip_address(host)
        except ValueError:
            raise WebError(f"listen address {text!r}: HOST must be an IP address (127.0.0.1, 0.0.0.0, ::1) or localhost") from None
    settings = WebSettings(host, int(port_text), token)
    if not settings.loopback and not token:
        raise WebError(f"listening on {host} lets other machines in: set a token in the config ([web] token = \"…\"), "
                       "or listen on 127.0.0.1")
    return settings


class _RefusedRequests(logging.LoggerAdapter):
    """aiohttp's own log of a request it could not read (a client's malformed bytes: a request line too
    long, no HTTP at all): one warning line, not a traceback in the table's journal for each."""

    def process(self, msg: Any, kwargs: Any) -> tuple[Any, Any]:
        error = kwargs.pop("exc_info", None)            # its traceback is aiohttp's parser, not ours
        why = " ".join(str(error).split())[:160] if isinstance(error, BaseException) else ""
        return (f"web view: {msg} refused ({why})" if why else f"web view: {msg}"), kwargs

    def exception(self, msg: object, *args: object, exc_info: Any = True, **kwargs: Any) -> None:
        if isinstance(exc_info, ConnectionError):      # a client that went as it was answered: nothing wrong
            self.debug(msg, *args, exc_info=exc_info, **kwargs)   # here (a line each, at warning, was noise)
            return
        self.warning(msg, *args, exc_info=exc_info, **kwargs)


# -- the app ------------------------------------------------------------------------------------------

def build_app(live: LiveTable, history: History | None, settings: WebSettings = WebSettings()) -> web.Application:
    app = web.Application(middlewares=[json_errors(TABLE_HOST), _access])
    app[CONTEXT] = Context(live, history, package_version(), time.monotonic())   # uptime: not the wall clock, which can jump
    app[SOCKETS] = weakref.WeakSet()
    app[SETTINGS] = settings
    for path, (name, nav) in PAGES.items():
        app.router.add_get(path, _page(render_page(name, nav)))
    app.router.add_static("/static/", STATIC)
    app.router.add_get("/websocket", _websocket)
    app.router.add_get("/api/server/info", _http("server.info"))
    app.router.add_get("/api/state", _http("table.objects.query"))
    app.router.add_get("/api/sessions", _http("history.sessions"))
    app.router.add_get("/api/hands", _http("history.hands"))
    app.router.add_get("/api/hands.csv", _csv(hands_export, "hands.csv"))
    app.router.add_get("/api/hands/{id}", _http("history.hand"))
    app.router.add_get("/api/hands/{id}/events", _http("history.hand_events"))
    app.router.add_get("/api/hours", _http("history.hours"))
    app.router.add_get("/api/hours.csv", _csv(hours_export, "hours.csv"))
    app.router.add_get("/api/sim/state", _http("sim.state"))
    app.router.add_post("/api/sim/key", _http("sim.key"))
    app.router.add_post("/api/sim/touch", _http("sim.touch"))
    app.on_shutdown.append(_close_sockets)
    return app


def render_page(name: str, nav: str) -> str:
    """A page: the shared shell (head, menu) around its body; the body's first line is its title."""
    body = (STATIC / "pages" / f"{name}.html").read_text(encoding="utf-8")
    first, _, rest = body.partition("\n")
    title = first.removeprefix("<!--").removesuffix("-->").strip()
    shell = (STATIC / "shell.html").read_text(encoding="utf-8")
    return shell.replace("@TITLE@", title).replace("@NAV@", nav).replace("@BODY@", rest)


def _page(html: str) -> Callable[[web.Request], Awaitable[web.StreamResponse]]:
    async def handler(request: web.Request) -> web.StreamResponse:
        return web.Response(text=html, content_type="text/html", headers={"Cache-Control": "no-cache"})
    return handler


def _error(status: int, message: str) -> web.Response:
    return web.json_response({"error": {"code": status, "message": message}}, status=status,
                             dumps=lambda o: json.dumps(o, ensure_ascii=False))


def _json(result: Any) -> web.Response:
    return web.json_response({"result": result}, dumps=lambda o: json.dumps(o, ensure_ascii=False))


async def _params(request: web.Request) -> dict[str, Any]:
    params: dict[str, Any] = dict(request.query)
    params.update(request.match_info)
    if request.method == "POST":
        if request.content_type != "application/json":
            raise ApiError(415, "send the arguments as a JSON body (Content-Type: application/json)")
        try:
            body = await request.json()
        except LookupError:
            raise ApiError(415, f"charset {request.charset!r}: send the JSON body as UTF-8") from None
        except (ValueError, RecursionError):
            raise ApiError(400, "the body is not JSON (or nests deeper than any argument does)") from None
        if not isinstance(body, dict):
            raise ApiError(400, "the body must be a JSON object")
        params.update(body)
    return params


def _http(method: str) -> Callable[[web.Request], Awaitable[web.Response]]:
    async def handler(request: web.Request) -> web.Response:
        try:
            return _json(await METHODS[method](request.app[CONTEXT], await _params(request)))
        except ApiError as error:
            return _error(error.status, str(error))
    return handler


def _csv(export: Callable[[Context, Mapping[str, Any]], Awaitable[str]], filename: str):
    async def handler(request: web.Request) -> web.Response:
        try:
            text = await export(request.app[CONTEXT], dict(request.query))
        except ApiError as error:
            return _error(error.status, str(error))
        return web.Response(text=text, content_type="text/csv", charset="utf-8",
                            headers={"Content-Disposition": f'attachment; filename="{filename}"'})
    return handler


@dataclass(frozen=True)
class Host:
    """Who serves the app, as a request that failed by a bug is told: the table's web view and the
    parlour's page share the middleware, and a parlour's 500 must not speak of a table."""
    name: str          # in the log line
    logged: str        # where the traceback went
    goes_on: str       # what the failure did not stop


TABLE_HOST = Host("web view", "logged on the table", "the table plays on")


def json_errors(host: Host) -> Callable[..., Awaitable[web.StreamResponse]]:
    """The middleware answering errors as `{"error": …}`, a bug's 500 naming `host`."""
    @web.middleware
    async def middleware(request: web.Request,
                         handler: Callable[[web.Request], Awaitable[web.StreamResponse]]) -> web.StreamResponse:
        return await _json_errors(request, handler, host)
    return middleware


async def _json_errors(request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]],
                       host: Host) -> web.StreamResponse:
    """The API answers every error as `{"error": …}` in one line (an unknown path, a wrong method, a
    body too large), and a request that fails by a bug is logged and answered 500, never a traceback."""
    try:
        return await handler(request)
    except web.HTTPException as error:
        if not (request.path == "/api" or request.path.startswith(("/api/", "/websocket"))) or error.status < 400:
            raise
        if request.path.startswith("/websocket"):
            return _error(error.status, "open /websocket as a WebSocket (docs/api.md)")
        return _error(error.status, _HTTP_ERRORS.get(error.status, error.reason))
    except (asyncio.CancelledError, ConnectionError):
        raise
    except Exception:
        log.exception("%s: %s %s failed", host.name, request.method, request.path)
        return _error(500, f"{request.method} {request.path} failed ({host.logged}); {host.goes_on}")


_HTTP_ERRORS = {
    404: "no such API path: see docs/api.md for the paths",
    405: "this path does not take that method: see docs/api.md",
    413: "the body is too large: the API's arguments take a few hundred bytes",
}


# -- access --------------------------------------------------------------------------------------------

def _offered_token(request: web.Request) -> str | None:
    auth = request.headers.get("Authorization", "")
    return (request.headers.get("X-Api-Key") or (auth[7:] if auth.startswith("Bearer ") else None)
            or request.query.get("token") or request.cookies.get(TOKEN_COOKIE))


@web.middleware
async def _access(request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]) -> web.StreamResponse:
    """Clients on this machine are trusted; any other needs the configured token."""
    settings: WebSettings = request.app[SETTINGS]  # type: ignore[assignment]
    if is_loopback(request.remote):
        return await handler(request)
    offered = _offered_token(request)
    if settings.token is None or offered is None or not hmac.compare_digest(offered.encode(), settings.token.encode()):
        return _error(401, "this table needs its token: open the page with ?token=… (see [web] token in the config)")
    response = await handler(request)
    if request.query.get("token") and not response.prepared:
        response.set_cookie(TOKEN_COOKIE, settings.token, httponly=True, samesite="Strict")
    return response


# -- the WebSocket: JSON-RPC 2.0 ---------------------------------------------------------------------------

async def _websocket(request: web.Request) -> web.WebSocketResponse:
    ws = web.WebSocketResponse(heartbeat=30)
    await ws.prepare(request)
    ctx = request.app[CONTEXT]
    request.app[SOCKETS].add(ws)
    client = Client()
    writer = asyncio.create_task(_write(ws, client), name="web-socket-writer")
    try:
        async for message in ws:
            if message.type == WSMsgType.BINARY:     # a request in a binary frame: said, not ignored
                reply: str | None = _rpc_error(None, -32700, "a binary frame is not read: send each request as a "
                                                             "text frame of JSON")
            elif message.type == WSMsgType.TEXT:
                reply = await rpc_reply(ctx, client, message.data)
            else:
                continue
            if reply is not None and not client.offer(reply):
                ctx.live.drop(client)
                break
            # one request a turn: a socket's buffered burst, answered in one go, held the loop (fifty
            # clients of 250 requests: 1.9 s, and the motor board stopped its motors: a probe)
            await asyncio.sleep(0)
    finally:
        ctx.live.unsubscribe(client)
        if not client.dropped:
            client.close()
        await writer
    return ws


async def _write(ws: web.WebSocketResponse, client: Client) -> None:
    """Send the client's queue in order; a dropped client's socket is closed with code 4000."""
    try:
        while (message := await client.queue.get()) is not None:
            await ws.send_str(message)
    except ConnectionError:
        pass
    if client.dropped:
        await ws.close(code=4000, message=b"too slow: subscribe again or read /api/state")


async def rpc_reply(ctx: Context, client: Client, text: str) -> str | None:
    """One JSON-RPC request → its encoded reply (None for a notification, which has no id)."""
    try:
        request = json.loads(text)
    except (ValueError, RecursionError):
        return _rpc_error(None, -32700, "parse error: the message is not JSON (or nests deeper than any request does)")
    if not isinstance(request, dict) or request.get("jsonrpc") != "2.0" or not isinstance(request.get("method"), str):
        return _rpc_error(request.get("id") if isinstance(request, dict) else None, -32600,
                          "invalid request: send {\"jsonrpc\": \"2.0\", \"method\": …, \"id\": …}")
    rid, method, params = request.get("id"), request["method"], request.get("params", {})
    if rid is not None and (isinstance(rid, bool) or not isinstance(rid, (str, int, float))):
        return _rpc_error(None, -32600, "invalid request: the id is a string or a number")
    if not isinstance(params, dict):
        return _rpc_error(rid, -32602, "invalid params: give them as an object")
    try:
        if method == "table.objects.subscribe":
            check_arguments(method, ("objects",), params)
            result: Any = ctx.live.subscribe(client, objects_arg(params))
        elif method in METHODS:
            result = await METHODS[method](ctx, params)
        else:
            return _rpc_error(rid, -32601, f"method not found: {method}; see docs/api.md")
    except ApiError as error:
        return _rpc_error(rid, -32601 if error.status == 404 else -32602 if error.status == 400 else error.status, str(error))
    except Exception:                   # a bug: said and logged; the socket and its subscription stay
        log.exception("web view: %s failed", method)
        return _rpc_error(rid, -32603, f"internal error: {method} failed (logged on the table); the table plays on")
    if "id" not in request:             # a notification: no answer (an id of null is answered)
        return None
    return json.dumps({"jsonrpc": "2.0", "id": rid, "result": result}, ensure_ascii=False)


def _rpc_error(rid: Any, code: int, message: str) -> str:
    return json.dumps({"jsonrpc": "2.0", "id": rid, "error": {"code": code, "message": message}}, ensure_ascii=False)


async def _close_sockets(app: web.Application) -> None:
    for ws in list(app[SOCKETS]):
        await ws.close(code=1001, message=b"the table is stopping")


# -- running ---------------------------------------------------------------------------------------------

class AppServer:
    """An aiohttp app served in the controller's loop (or the parlour's): `await start()` → its
    address; `await stop()`.  At most `max_connections` connections are open at once."""

    def __init__(self, settings: WebSettings, app: web.Application, max_connections: int = MAX_CONNECTIONS) -> None:
        self.settings = settings
        self.app = app
        self.max_connections = max_connections
        self.refused = 0                        # connections refused over the cap, in all
        self._refusing = False                  # the cap reached: said once in the log until it is not
        self._refused_before = 0                # `refused` when this refusing began
        self._runner: web.AppRunner | None = None
        self._listener: asyncio.AbstractServer | None = None
        self.address: str | None = None
        self.first_request_s = FIRST_REQUEST_S
        self.silent_closed = 0                  # connections closed for sending no request in time
        self._silent: dict[Any, asyncio.TimerHandle] = {}     # connections no request came on yet: their timers
        app.middlewares.insert(0, self._heard)

    async def start(self) -> str:
        runner = web.AppRunner(self.app, access_log=None, handle_signals=False, logger=_RefusedRequests(log, {}))
        await runner.setup()
        try:
            self._listener = await asyncio.get_running_loop().create_server(
                lambda: self._connection(runner.server), self.settings.host, self.settings.port, reuse_address=True)
        except OSError as error:
            await runner.cleanup()
            raise WebError(f"cannot listen on {self.settings.host}:{self.settings.port} ({error.strerror}); "
                           + (NETWORK_CLOSED if network_closed(error) else "choose another address with --http HOST:PORT")
                           ) from None
        sockets = self._listener.sockets
        if not sockets:         # asyncio skips a family whose socket is refused: every one was (the unit's)
            self._listener.close()
            await runner.cleanup()
            raise WebError(f"cannot listen on {self.settings.host}:{self.settings.port} (no socket of its address "
                           f"family may be opened); {NETWORK_CLOSED}")
        self._runner = runner
        port = sockets[0].getsockname()[1]
        host = f"[{self.settings.host}]" if ":" in self.settings.host else self.settings.host
        self.address = f"http://{host}:{port}/"
        return self.address

    def connections(self) -> int:
        """Web connections open now (those refused over the cap are closed as they come)."""
        server = self._runner.server if self._runner is not None else None
        return len(server.connections) if server is not None else 0

    def _connection(self, server: web.Server | None) -> asyncio.BaseProtocol:
        """aiohttp's handler for a new connection, or `_Refused` once `max_connections` are open."""
        assert server is not None, "the runner is set up before the listener starts"
        if len(server.connections) < self.max_connections:
            if self._refusing:
                self._refusing = False
                log.warning("web view: connections accepted again (%d refused while %d were open)",
                            self.refused - self._refused_before, self.max_connections)
            handler = server()
            self._silent[handler] = asyncio.get_running_loop().call_later(self.first_request_s,
                                                                          self._close_if_silent, handler)
            return handler
        self.refused += 1
        if not self._refusing:
            self._refusing, self._refused_before = True, self.refused - 1
            log.warning("web view: %d connections open, refusing more (503) so the boards' ports keep their file "
                        "descriptors: close some of its pages", self.max_connections)
        return _Refused()

    @web.middleware
    async def _heard(self, request: web.Request, handler: Any) -> web.StreamResponse:
        timer = self._silent.pop(request.protocol, None)
        if timer is not None:
            timer.cancel()
        return await handler(request)

    def _close_if_silent(self, handler: Any) -> None:
        """A connection that brought no whole request in `first_request_s` is closed: sixty-four that
        sent nothing filled the cap and kept everyone out of the web view for good (a probe; aiohttp
        times out a connection only after its first request)."""
        if self._silent.pop(handler, None) is None:
            return
        if handler.transport is not None and not handler.transport.is_closing():
            self.silent_closed += 1
            handler.force_close()               # (closes its transport)

    async def stop(self) -> None:
        for timer in self._silent.values():
            timer.cancel()
        self._silent.clear()
        if self._listener is not None:
            self._listener.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        if self._listener is not None:
            await self._listener.wait_closed()
            self._listener = None


class WebServer(AppServer):
    """The table's web view: its pages, API and WebSocket on `live` and `history`."""

    def __init__(self, settings: WebSettings, live: LiveTable, history: History | None,
                 max_connections: int = MAX_CONNECTIONS) -> None:
        super().__init__(settings, build_app(live, history, settings), max_connections)
        self.live = live


class _Refused(asyncio.Protocol):
    """A connection over the cap: told why in one response, then closed."""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.WriteTransport)
        transport.write(BUSY_RESPONSE)
        transport.close()


__all__ = ["AppServer", "Host", "TABLE_HOST", "WebError", "WebServer", "WebSettings", "build_app", "json_errors", "is_loopback", "parse_listen", "rpc_reply"]
