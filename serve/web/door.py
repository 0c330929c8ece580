"""The web door itself (:class:`WebDoor`, a ``serve.door.Door``): textual-serve's
``Server`` with our page, every connection counted (``serve.web.counted``), every
request guarded (``serve.web.guard``), and one app per tab, capped in number and per
address, each with a scratch directory of its own. See ``serve.web`` for the whole
door."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import shlex
import shutil
import tempfile
import time
from pathlib import Path
from typing import Any

import aiohttp_jinja2
from aiohttp import WSMsgType, web
from textual_serve.app_service import AppService
from textual_serve.server import Server, to_int

from net import budgets as b
from net.served import LINK_ENV, Links
from serve.door import GOODBYE, DoorBudgets, Session
from serve.resize import Coalesced
from serve.web.counted import Conn, Counted
from serve.web.guard import HOST_HEADER, Guard, address_of, allowed_hosts
from serve.web.link import TimedWebSocket, keep_timing

log = logging.getLogger(__name__)

TEMPLATES = Path(__file__).resolve().parent.parent / "templates"
TITLE = "Motherlode"
# the server's variables an app must not see (a secret, or the server's own terminal)
SECRET_ENV = ("MOTHERLODE_SERVE_PASSWORD",)
MAX_WIDTH, MAX_HEIGHT = 400, 200
RESIZE_EVERY = 0.1  # seconds: a tab's window changes reach its app at most this often
WEB_PER_ADDRESS = 4  # tabs (apps) at once from one address


class _App(AppService):
    """An app whose environment carries none of the server's secrets."""

    def _build_environment(self, width: int = 80, height: int = 24) -> dict[str, str]:
        environment = super()._build_environment(width=width, height=height)
        for name in SECRET_ENV:
            environment.pop(name, None)
        return environment


class WebDoor(Server):
    """See ``serve.web``. ``argv`` is the served app's command line."""

    name = "web"

    def __init__(self, argv: list[str], *, max_sessions: int = 16,
                 password: str | None = None, ledger: b.Ledger | None = None,
                 per_address: int = WEB_PER_ADDRESS,
                 links: Links | None = None) -> None:
        super().__init__(shlex.join(argv), host="127.0.0.1", port=0, title=TITLE,
                         templates_path=TEMPLATES)
        self.argv = argv
        self.max_sessions = max_sessions
        self.per_address = per_address
        self.links = links  # lag-fair races: the measurements of each tab's link
        self._live: dict[int, Session] = {}  # the tabs playing, by a number of their own
        self._numbers = itertools.count()
        self.by_address: dict[str, int] = {}
        self.ledger = ledger or b.Ledger()
        self._runner: web.AppRunner | None = None
        self._listener: asyncio.Server | None = None
        self._services: set[AppService] = set()
        self._conns: dict[Any, Conn] = {}  # transport -> its count in the ledger
        self.guard = Guard(password, self._conns)

    async def start(self, bind: str | None, port: int) -> int:
        """Listen; returns the port. Raises OSError."""
        app = await self._make_app()
        app.middlewares.append(self.guard.middleware)
        app.router.add_post("/login", self.guard.handle_login)
        # the door's own deadlines (``Conn``) close idle sockets and refuse slow requests
        # first; aiohttp's keep-alive timer is only a backstop behind them
        backstop = 2 * self.ledger.budgets.header_timeout + 1.0
        self._runner = web.AppRunner(app, handle_signals=False, access_log=None,
                                     keepalive_timeout=backstop)
        await self._runner.setup()
        loop = asyncio.get_running_loop()
        try:
            self._listener = await loop.create_server(self._protocol, bind or None, port,
                                                      reuse_address=True)
        except OSError:
            await self._runner.cleanup()
            raise
        self.port = self._listener.sockets[0].getsockname()[1]
        self.guard.allowed = allowed_hosts(bind)
        return self.port

    # -- every connection, counted ------------------------------------------------------

    def _protocol(self) -> asyncio.Protocol:
        assert self._runner is not None and self._runner.server is not None
        return Counted(self.ledger, self._conns, self._runner.server)

    # -- the end -------------------------------------------------------------------------

    async def stop(self, goodbye: str = GOODBYE) -> None:
        """Stop every tab's app and close the door. A tab's page shows its own end as
        its socket closes; ``goodbye`` is for doors whose players read words."""
        for service in list(self._services):
            with contextlib.suppress(Exception):
                await asyncio.wait_for(service.stop(), 5.0)
        if self._listener is not None:
            self._listener.close()
            for transport in list(self._conns):
                transport.close()
        if self._runner is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._runner.cleanup(), 5.0)

    async def on_startup(self, app: web.Application) -> None:
        """``motherlode serve`` prints the addresses itself."""

    # -- the door's face (``serve.door.Door``) ------------------------------------------

    @property
    def sessions(self) -> list[Session]:
        return list(self._live.values())

    @property
    def budgets(self) -> DoorBudgets:
        return DoorBudgets(max_sessions=self.max_sessions, per_address=self.per_address,
                           keep_detached=0.0, max_size=(MAX_WIDTH, MAX_HEIGHT),
                           shared=self.ledger.budgets)

    def invite(self, address: str) -> str:
        host = f"[{address}]" if ":" in address else address
        return f"http://{host}:{self.port}"

    def notes(self) -> list[str]:
        return []

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
        address = address_of(request.transport)
        busy = None
        if len(self._live) >= self.max_sessions:
            busy = b"The server is busy: every place is taken. Try again in a while.\r\n"
        elif self.by_address.get(address, 0) >= self.per_address:
            busy = (f"Too many tabs from your address ({address}) are open here (at most "
                    f"{self.per_address}); close one and try again.\r\n").encode()
        elif (too_many := self.ledger.start_app(address)) is not None:
            busy = too_many.encode() + b"\r\n"  # every tab starts an app: churn is capped
        if busy is not None:
            websocket = web.WebSocketResponse()
            await websocket.prepare(request)
            await websocket.send_bytes(busy)
            await websocket.close()
            return websocket
        number = next(self._numbers)
        self._live[number] = Session(self.name, None, address, time.time())
        self.by_address[address] = self.by_address.get(address, 0) + 1
        conn = self._conns.get(request.transport)
        if conn is not None:
            conn.playing()
        scratch = Path(tempfile.mkdtemp(prefix="motherlode-web-"))
        try:
            return await self._session(request, scratch)
        finally:
            del self._live[number]
            left = self.by_address.get(address, 1) - 1
            if left > 0:
                self.by_address[address] = left
            else:
                self.by_address.pop(address, None)
            shutil.rmtree(scratch, ignore_errors=True)

    async def _session(self, request: web.Request, scratch: Path) -> web.StreamResponse:
        link = None
        if self.links is not None:
            link, meter = self.links.new(address_of(request.transport))
            websocket: web.WebSocketResponse = TimedWebSocket(meter, heartbeat=15,
                                                              max_msg_size=1 << 16)
        else:
            websocket = web.WebSocketResponse(heartbeat=15, max_msg_size=1 << 16)
        width, height = clamp(request.query.get("width"), request.query.get("height"))
        dirs = " ".join(f"MOTHERLODE_{kind.upper()}_DIR={shlex.quote(str(scratch / kind))}"
                        for kind in ("config", "state", "data", "log"))
        if link is not None:
            dirs += f" {LINK_ENV}={shlex.quote(link)}"
        service = _App(
            f"env {dirs} {self.command}", write_bytes=websocket.send_bytes,
            write_str=websocket.send_str, close=websocket.close,
            download_manager=self.download_manager, debug=False,
        )  # fmt: skip
        self._services.add(service)
        timing = None
        try:
            await websocket.prepare(request)
            if isinstance(websocket, TimedWebSocket):
                timing = asyncio.get_running_loop().create_task(keep_timing(websocket))
            await service.start(width, height)
            try:
                await self._process_messages(websocket, service, (width, height))
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

    async def _process_messages(self, websocket: web.WebSocketResponse,
                                app_service: AppService, size: tuple[int, int]) -> None:
        """textual-serve's loop, made strict: every resize clamped (not only the first),
        anything malformed ignored, and resizes coalesced (``serve.resize``)."""
        loop = asyncio.get_running_loop()
        telling: set[asyncio.Task] = set()

        def tell(size: tuple[int, int]) -> None:
            task = loop.create_task(app_service.set_terminal_size(*size))
            telling.add(task)
            task.add_done_callback(telling.discard)

        resizes = Coalesced(tell, RESIZE_EVERY, size, loop.call_later)
        try:
            await self._read_messages(websocket, app_service, resizes)
        finally:
            resizes.cancel()

    async def _read_messages(self, websocket: web.WebSocketResponse, app_service: AppService,
                             resizes: Coalesced) -> None:  # fmt: skip
        async for message in websocket:
            if message.type != WSMsgType.TEXT:
                continue
            try:
                envelope = message.json()
            except ValueError:
                continue
            if not isinstance(envelope, list) or not envelope:
                continue
            kind = envelope[0]
            data = envelope[1] if len(envelope) > 1 else None
            if kind == "stdin" and isinstance(data, str):
                await app_service.send_bytes(data.encode("utf-8", "replace"))
            elif kind == "resize" and isinstance(data, dict):
                resizes.want(clamp(data.get("width"), data.get("height")))
            elif kind == "ping" and isinstance(data, str | int | float):
                await websocket.send_json(["pong", data])
            elif kind == "blur":
                await app_service.blur()
            elif kind == "focus":
                await app_service.focus()


def clamp(width: Any, height: Any) -> tuple[int, int]:
    """A terminal size a tab may ask for: 10-400 x 5-200 (anything else is clamped)."""
    w = to_int(width, 80) if isinstance(width, str) else width if isinstance(width, int) \
        else 80
    h = to_int(height, 24) if isinstance(height, str) else height if isinstance(height, int) \
        else 24
    return min(max(w, 10), MAX_WIDTH), min(max(h, 5), MAX_HEIGHT)
