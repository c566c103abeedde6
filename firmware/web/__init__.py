"""See the table: a live page and an API for the table, its history and its hours.

    live = LiveTable(sim=None)                     # sim: a SimulatorPort, only against the simulator
    server = WebServer(parse_listen("127.0.0.1:8080"), live, History(db_path))
    address = await server.start()
    live.attach(session.public_feed())             # once the session is composed
    …
    await server.stop()

Pieces: live.py (the state objects and the clients that follow them), public_filter.py (what every
message passes), api.py (the methods, once for HTTP and the WebSocket), server.py (aiohttp, access,
JSON-RPC), sim.py (the simulator seen and touched), static/ (the pages, served from the package:
no CDN, it works offline on a Pi).  docs/api.md documents the API.
"""

from .live import LiveTable, TableFeed
from .server import WebError, WebServer, WebSettings, parse_listen
from .sim import InProcessSimulator, SimulatorPort

__all__ = ["InProcessSimulator", "LiveTable", "SimulatorPort", "TableFeed", "WebError", "WebServer", "WebSettings",
           "parse_listen"]
