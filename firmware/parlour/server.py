"""The parlour's page and its API, on the web view's own pieces (firmware/web/server.py): the same
access rule (this machine trusted, any other needs the token), the same envelopes, stylesheet
and helpers, the same server runner.

    GET /                       the page: every table at a glance, the recent hands across tables
    GET /api/parlour            {now, broker, tables, recent, totals} (the page's whole view)
    GET /api/parlour/hands      ?table=&day=YYYY-MM-DD&limit=50 — hands from the store, newest first
    GET /api/parlour/changes    ?limit=50 — tables that came, went, were lost, latched or cleared a fault
    /websocket                  the whole view on connect, then again after each change (at most
                                every half second, and every 5 s regardless); a slow page gets the
                                latest view, never a backlog
"""

from __future__ import annotations

import asyncio
import json
import weakref
from pathlib import Path
from typing import Any, Awaitable, Callable

from aiohttp import WSMsgType, web

from ..records.history import HistoryError
from ..web.api import ApiError, check_arguments, day_arg, int_arg
from ..web.server import SETTINGS, STATIC, AppServer, Host, WebSettings, _access, _error, _json, json_errors
from .watcher import ParlourWatcher

PAGE = Path(__file__).with_name("static") / "parlour.html"
WATCHER = web.AppKey("watcher", ParlourWatcher)
SOCKETS = web.AppKey("parlour_sockets", weakref.WeakSet)
PUSH_EVERY = 0.5
REFRESH = 5.0
MAX_LIMIT = 500
PARLOUR_HOST = Host("parlour page", "logged by the parlour", "the parlour watches on")


def build_app(watcher: ParlourWatcher, settings: WebSettings = WebSettings()) -> web.Application:
    app = web.Application(middlewares=[json_errors(PARLOUR_HOST), _access])
    app[SETTINGS] = settings
    app[WATCHER] = watcher
    app[SOCKETS] = weakref.WeakSet()
    html = PAGE.read_text(encoding="utf-8")
    app.router.add_get("/", _page(html))
    app.router.add_static("/static/", STATIC)
    app.router.add_get("/api/parlour", _api("/api/parlour", (), _view))
    app.router.add_get("/api/parlour/hands", _api("/api/parlour/hands", ("table", "day", "limit"), _hands))
    app.router.add_get("/api/parlour/changes", _api("/api/parlour/changes", ("limit",), _changes))
    app.router.add_get("/websocket", _websocket)
    app.on_shutdown.append(_close_sockets)
    return app


def _page(html: str) -> Callable[[web.Request], Awaitable[web.StreamResponse]]:
    async def handler(request: web.Request) -> web.StreamResponse:
        return web.Response(text=html, content_type="text/html", headers={"Cache-Control": "no-cache"})
    return handler


def _api(path: str, arguments: tuple[str, ...], method: Callable[[ParlourWatcher, dict[str, Any]], Awaitable[Any]]):
    async def handler(request: web.Request) -> web.Response:
        try:
            params = dict(request.query)
            check_arguments(path, arguments, params)        # a misspelt filter is said, not ignored
            return _json(await method(request.app[WATCHER], params))
        except ApiError as error:
            return _error(error.status, str(error))
    return handler


async def _view(watcher: ParlourWatcher, params: dict[str, Any]) -> dict[str, Any]:
    return watcher.snapshot()


async def _hands(watcher: ParlourWatcher, params: dict[str, Any]) -> list[dict[str, Any]]:
    limit = min(MAX_LIMIT, int_arg(params, "limit", 50, minimum=1) or 50)
    try:
        return await watcher.hands(table=params.get("table") or None, day=day_arg(params), limit=limit)
    except HistoryError as error:
        raise ApiError(400, str(error)) from None


async def _changes(watcher: ParlourWatcher, params: dict[str, Any]) -> list[dict[str, Any]]:
    return await watcher.changes(min(MAX_LIMIT, int_arg(params, "limit", 50, minimum=1) or 50))


async def _websocket(request: web.Request) -> web.WebSocketResponse:
    ws = web.WebSocketResponse(heartbeat=30)
    await ws.prepare(request)
    request.app[SOCKETS].add(ws)
    watcher = request.app[WATCHER]
    changed = asyncio.Event()
    changed.set()
    watcher.listen(changed.set)
    pusher = asyncio.create_task(_push(ws, watcher, changed), name="parlour-page")
    try:
        async for message in ws:             # the page only listens; its messages are ignored
            if message.type == WSMsgType.ERROR:
                break
    finally:
        watcher.unlisten(changed.set)
        pusher.cancel()
        await asyncio.gather(pusher, return_exceptions=True)
    return ws


async def _push(ws: web.WebSocketResponse, watcher: ParlourWatcher, changed: asyncio.Event) -> None:
    """The latest view, after a change (or every REFRESH seconds), never more than one in flight."""
    try:
        while not ws.closed:
            try:
                async with asyncio.timeout(REFRESH):      # not wait_for: on 3.11 it can swallow a cancel
                    await changed.wait()
            except asyncio.TimeoutError:
                pass
            changed.clear()
            await ws.send_str(json.dumps(watcher.snapshot(), ensure_ascii=False))
            await asyncio.sleep(PUSH_EVERY)
    except ConnectionError:
        pass


async def _close_sockets(app: web.Application) -> None:
    for ws in list(app[SOCKETS]):
        await ws.close(code=1001, message=b"the parlour is stopping")


class ParlourServer(AppServer):
    """The parlour's page, API and WebSocket, served as the table's web view is (the same connection cap)."""

    def __init__(self, settings: WebSettings, watcher: ParlourWatcher) -> None:
        super().__init__(settings, build_app(watcher, settings))


__all__ = ["ParlourServer", "build_app"]
