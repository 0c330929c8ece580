"""The web front door of ``motherlode serve --web`` (textual-serve, the ``web`` extra).

Each browser tab gets its own app process in served mode, as an SSH session does; the
app asks the player's name (a browser has no user name to go by). What this adds to
textual-serve's ``Server``:

- Works offline: our own page template, with the font textual-serve ships
  (``serve/templates/app_index.html``), and no URL outside this host.
- Works from another machine: the page's websocket and static URLs come from the
  request's ``Host`` header (checked), not from the bind address, so binding 0.0.0.0
  still gives other machines a URL they can dial.
- Sessions are capped; each gets a fresh scratch directory for its settings, removed
  when the tab closes.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import shlex
import shutil
import tempfile
from pathlib import Path
from typing import Any

import aiohttp_jinja2
from aiohttp import WSMsgType, web
from textual_serve.app_service import AppService
from textual_serve.server import Server, to_int

from net.latency import DelayMeter
from net.served import LINK_ENV, Links

log = logging.getLogger(__name__)

TEMPLATES = Path(__file__).resolve().parent / "templates"
# a Host header: a name or an address, an optional port (anything else is refused)
HOST_HEADER = re.compile(r"^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]{1,253})(:\d{1,5})?$")
TITLE = "Motherlode"
#: seconds between the door's pings on a person's WebSocket (lag-fair races)
LINK_EVERY = 0.5


class TimedWebSocket(web.WebSocketResponse):
    """A WebSocket that times the round trips of its own pings into ``meter``: the
    person's own link, for lag-fair races (``net.served``). It answers the browser's
    pings itself (``autoping`` off, so that its pongs are seen here)."""

    def __init__(self, meter: DelayMeter, **kwargs: Any) -> None:
        super().__init__(autoping=False, **kwargs)
        self.meter = meter
        self._pings: dict[bytes, float] = {}
        self._count = 0

    async def ping_now(self) -> None:
        self._count += 1
        ident = self._count.to_bytes(8, "big")
        if len(self._pings) > 16:  # a browser that never answers
            self._pings.clear()
        self._pings[ident] = asyncio.get_running_loop().time()
        await self.ping(ident)

    async def receive(self, timeout: float | None = None) -> Any:  # type: ignore[override]
        while True:
            message = await super().receive(timeout)
            if message.type is WSMsgType.PING:
                await self.pong(message.data)
                continue
            if message.type is WSMsgType.PONG:
                sent = self._pings.pop(bytes(message.data or b""), None)
                if sent is not None:
                    self.meter.add(asyncio.get_running_loop().time() - sent)
                continue
            return message


async def _keep_timing(websocket: TimedWebSocket) -> None:
    while not websocket.closed:
        await asyncio.sleep(LINK_EVERY)
        try:
            await websocket.ping_now()
        except (ConnectionError, RuntimeError, OSError):
            return


class WebDoor(Server):
    """See the module docstring. ``argv`` is the served app's command line."""

    def __init__(self, argv: list[str], *, max_sessions: int = 16,
                 links: Links | None = None) -> None:
        super().__init__(shlex.join(argv), host="127.0.0.1", port=0, title=TITLE,
                         templates_path=TEMPLATES)
        self.argv = argv
        self.max_sessions = max_sessions
        self.links = links  # lag-fair races: the measurements of each tab's link
        self.sessions = 0
        self._runner: web.AppRunner | None = None
        self._site: web.TCPSite | None = None
        self._services: set[AppService] = set()

    async def start(self, bind: str | None, port: int) -> int:
        """Listen; returns the port. Raises OSError."""
        self._runner = web.AppRunner(await self._make_app(), handle_signals=False,
                                     access_log=None)
        await self._runner.setup()
        self._site = web.TCPSite(self._runner, bind or None, port)
        try:
            await self._site.start()
        except OSError:
            await self._runner.cleanup()
            raise
        server = self._site._server
        assert server is not None
        self.port = server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        return self.port

    async def close(self) -> None:
        for service in list(self._services):
            with contextlib.suppress(Exception):
                await asyncio.wait_for(service.stop(), 5.0)
        if self._runner is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._runner.cleanup(), 5.0)

    async def on_startup(self, app: web.Application) -> None:
        """``motherlode serve`` prints the addresses itself."""

    # -- the page ----------------------------------------------------------------------

    def _origin(self, request: web.Request) -> str:
        host = request.headers.get("Host", "")
        if not HOST_HEADER.match(host):
            raise web.HTTPBadRequest(text="A bad Host header.")
        return f"{request.scheme}://{host}"

    @aiohttp_jinja2.template("app_index.html")
    async def handle_index(self, request: web.Request) -> dict[str, Any]:
        origin = self._origin(request)
        router = request.app.router
        static = str(router["static"].url_for(filename="/")).rstrip("/") + "/"
        websocket = origin.replace("http", "ws", 1) + str(router["websocket"].url_for())
        return {
            "font_size": min(max(to_int(request.query.get("fontsize", "16"), 16), 8), 40),
            "app_websocket_url": websocket,
            "config": {"static": {"url": f"{origin}{static}"}},
            "application": {"name": TITLE},
        }

    # -- one tab, one app ----------------------------------------------------------------

    async def handle_websocket(self, request: web.Request) -> web.StreamResponse:
        if self.sessions >= self.max_sessions:
            websocket = web.WebSocketResponse()
            await websocket.prepare(request)
            await websocket.send_bytes(b"The server is busy: every place is taken. "
                                       b"Try again in a while.\r\n")
            await websocket.close()
            return websocket
        self.sessions += 1
        scratch = Path(tempfile.mkdtemp(prefix="motherlode-web-"))
        try:
            return await self._session(request, scratch)
        finally:
            self.sessions -= 1
            shutil.rmtree(scratch, ignore_errors=True)

    async def _session(self, request: web.Request, scratch: Path) -> web.StreamResponse:
        link = None
        if self.links is not None:
            link, meter = self.links.new()
            websocket: web.WebSocketResponse = TimedWebSocket(meter, heartbeat=15,
                                                              max_msg_size=1 << 16)
        else:
            websocket = web.WebSocketResponse(heartbeat=15, max_msg_size=1 << 16)
        width = min(max(to_int(request.query.get("width", "80"), 80), 10), 400)
        height = min(max(to_int(request.query.get("height", "24"), 24), 5), 200)
        dirs = " ".join(f"MOTHERLODE_{kind.upper()}_DIR={shlex.quote(str(scratch / kind))}"
                        for kind in ("config", "state", "data", "log"))
        if link is not None:
            dirs += f" {LINK_ENV}={shlex.quote(link)}"
        service = AppService(
            f"env {dirs} {self.command}", write_bytes=websocket.send_bytes,
            write_str=websocket.send_str, close=websocket.close,
            download_manager=self.download_manager, debug=False,
        )  # fmt: skip
        self._services.add(service)
        timing = None
        try:
            await websocket.prepare(request)
            if isinstance(websocket, TimedWebSocket):
                timing = asyncio.get_running_loop().create_task(_keep_timing(websocket))
            await service.start(width, height)
            try:
                await self._process_messages(websocket, service)
            finally:
                await service.stop()
        except asyncio.CancelledError:
            with contextlib.suppress(Exception):
                await websocket.close()
        except Exception:  # one tab's failure is logged, never the server's
            log.exception("web session failed")
        finally:
            if timing is not None:
                timing.cancel()
            if link is not None and self.links is not None:
                self.links.drop(link)
            self._services.discard(service)
            with contextlib.suppress(Exception):
                await service.stop()
        return websocket
