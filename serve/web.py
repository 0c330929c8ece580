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
- Holds against a hostile LAN (issue 20): every connection is counted in the process's
  ledger (``net.budgets``) from accept to close, per address; a request must finish its
  headers within ``header_timeout`` seconds; ``Host`` and ``Origin`` must name an address
  the server listens on (403 otherwise: no cross-site use, no DNS rebinding); with a
  password, a page asks for it and a cookie holding a random session token follows;
  every resize is clamped; the apps inherit no secret from the server's environment.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import html
import ipaddress
import logging
import re
import secrets
import shlex
import shutil
import socket
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import aiohttp_jinja2
from aiohttp import WSMsgType, web
from textual_serve.app_service import AppService
from textual_serve.server import Server, to_int

from net import budgets as b
from net.latency import DelayMeter
from net.served import LINK_ENV, Links
from serve.resize import Coalesced
from serve.wrapped import Wrapped

log = logging.getLogger(__name__)

TEMPLATES = Path(__file__).resolve().parent / "templates"
# a Host header: a name or an address, an optional port (anything else is refused)
HOST_HEADER = re.compile(r"^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]{1,253})(:\d{1,5})?$")
TITLE = "Motherlode"
COOKIE = "motherlode_session"
# the server's variables an app must not see (a secret, or the server's own terminal)
SECRET_ENV = ("MOTHERLODE_SERVE_PASSWORD",)
MAX_WIDTH, MAX_HEIGHT = 400, 200
RESIZE_EVERY = 0.1  # seconds: a tab's window changes reach its app at most this often
WEB_PER_ADDRESS = 4  # tabs (apps) at once from one address
LOGIN_PAGE = """<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>Motherlode</title>
<style>body{{background:#0c181f;color:#e0e0e0;font-family:monospace;display:flex;
align-items:center;justify-content:center;height:90vh}}input{{font:inherit}}</style></head>
<body><form method="post" action="/login"><p>This Motherlode server asks for its
password.</p><p>{problem}</p><input type="password" name="password" autofocus
autocomplete="current-password"> <input type="submit" value="Play"></form></body></html>
"""


class _App(AppService):
    """An app whose environment carries none of the server's secrets."""

    def _build_environment(self, width: int = 80, height: int = 24) -> dict[str, str]:
        environment = super()._build_environment(width=width, height=height)
        for name in SECRET_ENV:
            environment.pop(name, None)
        return environment


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
                 password: str | None = None, ledger: b.Ledger | None = None,
                 per_address: int = WEB_PER_ADDRESS,
                 links: Links | None = None) -> None:
        super().__init__(shlex.join(argv), host="127.0.0.1", port=0, title=TITLE,
                         templates_path=TEMPLATES)
        self.argv = argv
        self.max_sessions = max_sessions
        self.per_address = per_address
        self.links = links  # lag-fair races: the measurements of each tab's link
        self.sessions = 0
        self.by_address: dict[str, int] = {}
        self.password = password
        self.ledger = ledger or b.Ledger()
        self.allowed: set[str] = set()  # host names and addresses Host/Origin may name
        self._tokens: dict[str, float] = {}  # session cookie -> when it was given
        self._failures: dict[str, int] = {}  # wrong passwords per address
        self._runner: web.AppRunner | None = None
        self._listener: asyncio.Server | None = None
        self._services: set[AppService] = set()
        self._conns: dict[Any, _Conn] = {}  # transport -> its count in the ledger

    async def start(self, bind: str | None, port: int) -> int:
        """Listen; returns the port. Raises OSError."""
        app = await self._make_app()
        app.middlewares.append(self._guard)
        app.router.add_post("/login", self.handle_login)
        self._runner = web.AppRunner(app, handle_signals=False, access_log=None,
                                     keepalive_timeout=self.ledger.budgets.header_timeout)
        await self._runner.setup()
        loop = asyncio.get_running_loop()
        try:
            self._listener = await loop.create_server(self._protocol, bind or None, port,
                                                      reuse_address=True)
        except OSError:
            await self._runner.cleanup()
            raise
        self.port = self._listener.sockets[0].getsockname()[1]
        self.allowed = allowed_hosts(bind)
        return self.port

    # -- every connection, counted ------------------------------------------------------

    def _protocol(self) -> asyncio.Protocol:
        assert self._runner is not None and self._runner.server is not None
        return _Counted(self, self._runner.server)

    # -- the guard: Host, Origin, the password -----------------------------------------

    @web.middleware
    async def _guard(self, request: web.Request,
                     handler: Callable[[web.Request], Awaitable[web.StreamResponse]],
                     ) -> web.StreamResponse:
        conn = self._conns.get(request.transport)
        if conn is not None:
            conn.busy()
        try:
            self._check_host(request)
            if self.password is not None and request.path != "/login" \
                    and not self._signed_in(request):
                if request.path == "/":
                    return web.Response(text=LOGIN_PAGE.format(problem=""),
                                        content_type="text/html")
                raise web.HTTPUnauthorized(text="Sign in first: open / and give the "
                                           "password.")
            return await handler(request)
        finally:
            if conn is not None:
                conn.done()

    def _check_host(self, request: web.Request) -> None:
        host = request.headers.get("Host", "")
        if not HOST_HEADER.match(host):
            raise web.HTTPBadRequest(text="A bad Host header.")
        if host_name(host) not in self.allowed:
            raise web.HTTPForbidden(text=f"This server does not answer to {host!r}; use "
                                    "one of the addresses it prints.")
        origin = request.headers.get("Origin")
        if origin is not None:
            scheme, _, rest = origin.partition("://")
            if scheme not in ("http", "https") or not HOST_HEADER.match(rest) or \
                    host_name(rest) not in self.allowed:
                raise web.HTTPForbidden(text="Cross-site requests are refused.")

    def _signed_in(self, request: web.Request) -> bool:
        token = request.cookies.get(COOKIE, "")
        return any(hmac.compare_digest(token, known) for known in list(self._tokens))

    async def handle_login(self, request: web.Request) -> web.StreamResponse:
        address = _address(request.transport)
        failures = self._failures.get(address, 0)
        await asyncio.sleep(min(0.5 * failures, 8.0))  # a growing delay per address
        form = await request.post()
        given = form.get("password")
        ok = isinstance(given, str) and hmac.compare_digest(
            given.encode("utf-8", "replace"), (self.password or "").encode())
        if not ok:
            self._failures[address] = failures + 1
            if len(self._failures) > 4096:
                self._failures.clear()
            return web.Response(status=403, content_type="text/html", text=LOGIN_PAGE.format(
                problem=html.escape("That was not the password.")))
        self._failures.pop(address, None)
        token = secrets.token_urlsafe(32)
        self._tokens[token] = time.time()
        if len(self._tokens) > 1024:  # the oldest sign-ins go first
            for old in sorted(self._tokens, key=self._tokens.__getitem__)[:256]:
                del self._tokens[old]
        response = web.HTTPSeeOther("/")
        response.set_cookie(COOKIE, token, httponly=True, samesite="Strict", path="/")
        raise response

    async def close(self) -> None:
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
        address = _address(request.transport)
        busy = None
        if self.sessions >= self.max_sessions:
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
        self.sessions += 1
        self.by_address[address] = self.by_address.get(address, 0) + 1
        conn = self._conns.get(request.transport)
        if conn is not None:
            conn.playing()
        scratch = Path(tempfile.mkdtemp(prefix="motherlode-web-"))
        try:
            return await self._session(request, scratch)
        finally:
            self.sessions -= 1
            left = self.by_address.get(address, 1) - 1
            if left > 0:
                self.by_address[address] = left
            else:
                self.by_address.pop(address, None)
            shutil.rmtree(scratch, ignore_errors=True)

    async def _session(self, request: web.Request, scratch: Path) -> web.StreamResponse:
        link = None
        if self.links is not None:
            link, meter = self.links.new()
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
                timing = asyncio.get_running_loop().create_task(_keep_timing(websocket))
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


class _Counted(Wrapped):
    """aiohttp's protocol for one connection, counted in the ledger (it has slots: it
    cannot be patched, so it is wrapped). aiohttp's protocol is built only for a
    connection the ledger admits: a loop opening sockets is turned away for the cost of
    a write and a close."""

    def __init__(self, door: WebDoor, make_inner: Callable[[], Any]) -> None:
        self.door = door
        self.make_inner = make_inner

    def connection_made(self, transport: Any) -> None:
        self.transport = transport
        conn = _Conn(self.door, transport)
        self.door._conns[transport] = conn
        if conn.arrive():
            self.inner = self.make_inner()
            self.inner.connection_made(transport)

    def connection_lost(self, exc: Exception | None) -> None:
        conn = self.door._conns.pop(self.transport, None)
        if conn is not None:
            conn.gone()
        super().connection_lost(exc)


class _Conn:
    """One TCP connection to the web door, in the ledger from accept to close: pending
    until it is a tab's websocket; closed if it takes ``header_timeout`` seconds to
    send a request (or sits idle that long between two)."""

    def __init__(self, door: WebDoor, transport: Any) -> None:
        self.door = door
        self.transport = transport
        self.address = _address(transport)
        self.stage: str | None = None
        self.timer: asyncio.TimerHandle | None = None
        self.active = 0

    def arrive(self) -> bool:
        """A new connection: pending (True), or turned away at once (a loop opening
        sockets)."""
        why = self.door.ledger.arrive(self, _Conn.refuse)
        if why is not None:
            self.refuse(why)
            return False
        self.arm()
        return True

    def enter(self, stage: str) -> bool:
        return self.door.ledger.settle(self, stage, _Conn.refuse)

    def arm(self) -> None:
        self.disarm()
        self.timer = asyncio.get_running_loop().call_later(
            self.door.ledger.budgets.header_timeout, self._too_slow)

    def disarm(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None

    def _too_slow(self) -> None:
        if self.active == 0 and self.stage == b.PENDING:
            self.refuse("A request must arrive whole within "
                        f"{self.door.ledger.budgets.header_timeout:g} seconds.")

    def refuse(self, why: str) -> None:
        with contextlib.suppress(Exception):
            body = why.encode()
            self.transport.write(b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: "
                                 b"text/plain; charset=utf-8\r\nConnection: close\r\n"
                                 b"Content-Length: " + str(len(body)).encode() +
                                 b"\r\n\r\n" + body)
            self.transport.close()

    def busy(self) -> None:
        self.active += 1
        self.disarm()

    def done(self) -> None:
        self.active -= 1
        if self.active == 0 and self.stage == b.PENDING:
            self.arm()  # the next request on a kept-alive connection must be quick too

    def playing(self) -> None:
        """A tab's websocket: it plays (the door's session caps count those)."""
        self.disarm()
        self.enter(b.SEATED)

    def gone(self) -> None:
        self.disarm()
        self.door.ledger.settle(self, None, _Conn.refuse)


def _address(transport: Any) -> str:
    peer = transport.get_extra_info("peername") if transport is not None else None
    return str(peer[0]) if isinstance(peer, tuple) else ""


def clamp(width: Any, height: Any) -> tuple[int, int]:
    """A terminal size a tab may ask for: 10-400 x 5-200 (anything else is clamped)."""
    w = to_int(width, 80) if isinstance(width, str) else width if isinstance(width, int) \
        else 80
    h = to_int(height, 24) if isinstance(height, str) else height if isinstance(height, int) \
        else 24
    return min(max(w, 10), MAX_WIDTH), min(max(h, 5), MAX_HEIGHT)


def host_name(host: str) -> str:
    """The name or address of a ``Host`` header (no port, no brackets), lower case."""
    if host.startswith("["):
        return host[1:host.index("]")].lower() if "]" in host else host.lower()
    return host.rsplit(":", 1)[0].lower() if host.count(":") == 1 else host.lower()


def allowed_hosts(bind: str | None) -> set[str]:
    """What ``Host`` and ``Origin`` may name: the address listened on, or, bound to every
    interface, every local address, loopback, and this machine's names."""
    from net.discovery import local_addresses

    names = {"localhost", "127.0.0.1", "::1"}
    if bind in (None, "", "0.0.0.0", "::"):
        names |= {a.lower() for a in local_addresses()}
        hostname = socket.gethostname().lower()
        names |= {hostname, f"{hostname}.local", socket.getfqdn().lower()}
    else:
        names = {str(bind).lower()}
        with contextlib.suppress(ValueError):
            if ipaddress.ip_address(bind).is_loopback:  # type: ignore[arg-type]
                names |= {"localhost", "127.0.0.1", "::1"}
    return names

