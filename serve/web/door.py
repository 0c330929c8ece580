"""The web door itself (:class:`WebDoor`, a ``serve.door.Door``): textual-serve's
``Server`` with our page, every connection counted (``serve.web.counted``), every
request guarded (``serve.web.guard``), and one app per tab, capped in number and per
address, each playing from its browser's home (``serve.web.browsers``).

One browser, one app: a browser's new tab (a reload, a second tab, a phone back from
sleep) replaces its previous app. The old tab is told (``["goodbye", words]``, which
the page shows when its socket closes) and its app stopped before the new one starts,
so the new app finds the seat token free and takes the seat back; the others see the
seat away, then back. A replacement is paid from the browser's own bucket of app
starts, not its address's. See ``serve.web`` for the whole door."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import secrets
import shlex
import shutil
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import aiohttp_jinja2
from aiohttp import WSMsgType, web
from textual_serve.app_service import AppService
from textual_serve.server import Server, to_int

from net import budgets as b
from net.identity import GUEST_ENV
from net.served import LINK_ENV, Links
from serve.door import GOODBYE, MARK_HEADER, DoorBudgets, Session
from serve.inflow import Inflow
from serve.resize import MAX_SIZE, Coalesced
from serve.warm import Warm
from serve.web.browsers import COOKIE_AGE, PLAYER_COOKIE, Browsers
from serve.web.counted import Conn, Counted
from serve.web.forked import TabApp
from serve.web.frames import FrameError, read_frame, refusal
from serve.web.guard import HOST_HEADER, Guard, address_of, allowed_hosts
from serve.web.link import TimedWebSocket, keep_timing

log = logging.getLogger(__name__)

TEMPLATES = Path(__file__).resolve().parent.parent / "templates"
TITLE = "Motherlode"
MAX_WIDTH, MAX_HEIGHT = MAX_SIZE  # the largest terminal an app is given
RESIZE_EVERY = 0.1  # seconds: a tab's window changes reach its app at most this often
WEB_PER_ADDRESS = 4  # tabs (apps) at once from one address
REPLACE_WITHIN = 60.0  # seconds: a browser's tab after its last one ended replaces it
TOUCH_ENV = "MOTHERLODE_TOUCH"  # "1": the tab's page says its screen is touched
STOPPED = "This game stopped. Open this page again to play on."
MOVED = ("This game moved to another tab of this browser. Play again here to take it "
         "back.")


class _Tab:
    """A browser's live tab: its socket, and when its app has ended."""

    def __init__(self) -> None:
        self.websocket: web.WebSocketResponse | None = None  # once it is prepared
        self.done = asyncio.Event()


class WebDoor(Server):
    """See ``serve.web``. ``argv`` is the served app's command line."""

    name = "web"

    def __init__(self, argv: list[str], *, max_sessions: int = 16,
                 password: str | None = None, ledger: b.Ledger | None = None,
                 per_address: int = WEB_PER_ADDRESS,
                 links: Links | None = None, root: Path | None = None,
                 warm: Warm | None = None) -> None:
        super().__init__(shlex.join(argv), host="127.0.0.1", port=0, title=TITLE,
                         templates_path=TEMPLATES)
        self.argv = argv
        self.max_sessions = max_sessions
        self.per_address = per_address
        self.links = links  # lag-fair races: the measurements of each tab's link
        # the warm parent the apps are forked from (``serve.warm``, shared with the SSH
        # door; its owner closes it); None: each app is a fresh interpreter
        self.warm = warm
        self._live: dict[int, Session] = {}  # the tabs playing, by a number of their own
        self._numbers = itertools.count()
        self.by_address: dict[str, int] = {}
        self.ledger = ledger or b.Ledger()
        self._runner: web.AppRunner | None = None
        self._listener: asyncio.Server | None = None
        self._services: set[TabApp] = set()
        self._untracked: set[web.WebSocketResponse] = set()  # tabs with no cookie
        self._conns: dict[Any, Conn] = {}  # transport -> its count in the ledger
        self.guard = Guard(password, self._conns)
        self.browsers = Browsers(root)  # cookies and homes (root: the serve folder)
        self._tabs: dict[str, _Tab] = {}  # each browser's live tab, by its key
        self._ended: dict[str, float] = {}  # when each browser's last tab ended
        self._turns: dict[str, tuple[asyncio.Lock, int]] = {}  # a browser's tabs in turn
        self.closing = False
        #: this door's own mark on every answer (``MARK_HEADER``): ``serve --via`` checks
        #: from outside that a port reaches this very door
        self.mark = secrets.token_hex(8)
        self._names: set[str] = set()  # more names the page may be asked for by
        self.league: Any = None  # the standings page (``serve.web.league``), if set

    async def start(self, bind: str | None, port: int) -> int:
        """Listen; returns the port. Raises OSError."""
        app = await self._make_app()
        app.middlewares.extend((self._player_cookie, self.guard.middleware))
        app.router.add_post("/login", self.guard.handle_login)
        if self.league is not None:
            self.league.install(app)
        app.on_response_prepare.append(self._marked)
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
        self.guard.allowed = allowed_hosts(bind) | self._names
        if self.warm is not None:
            self.warm.up()
        return self.port

    def allow_hosts(self, names: set[str]) -> None:
        """Answer to these names too (a relay's, ``serve.via``): ``Host`` and ``Origin``
        may name them."""
        names = {name.lower() for name in names if name}
        self._names |= names
        self.guard.allowed |= names

    async def _marked(self, request: web.Request, response: web.StreamResponse) -> None:
        response.headers[MARK_HEADER] = self.mark

    # -- every connection, counted ------------------------------------------------------

    def _protocol(self) -> asyncio.Protocol:
        assert self._runner is not None and self._runner.server is not None
        return Counted(self.ledger, self._conns, self._runner.server)

    def forwarded(self) -> asyncio.Protocol:
        return self._protocol()

    # -- the end -------------------------------------------------------------------------

    async def stop(self, goodbye: str = GOODBYE) -> None:
        """Tell every tab ``goodbye`` (its page shows the words when its socket closes),
        then stop every tab's app and close the door."""
        self.closing = True
        for tab in list(self._tabs.values()):
            if tab.websocket is not None:
                await self._tell(tab.websocket, goodbye)
        for websocket in list(self._untracked):
            await self._tell(websocket, goodbye)
        for service in list(self._services):
            with contextlib.suppress(Exception):
                await service.end()
        if self._listener is not None:
            self._listener.close()
            for transport in list(self._conns):
                transport.close()
        if self._runner is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._runner.cleanup(), 5.0)
        self.browsers.close()

    @staticmethod
    async def _tell(websocket: web.WebSocketResponse, words: str) -> None:
        """Words for the page to show once its socket closes (``app_index.html``)."""
        with contextlib.suppress(Exception):
            await asyncio.wait_for(websocket.send_json(["goodbye", words]), 2.0)

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

    @web.middleware
    async def _player_cookie(self, request: web.Request,
                             handler: Callable[[web.Request], Awaitable[web.StreamResponse]],
                             ) -> web.StreamResponse:
        """Every browser gets its player cookie with its first page."""
        response = await handler(request)
        if (not response.prepared and response.content_type == "text/html"
                and self.browsers.key_of(request.cookies.get(PLAYER_COOKIE)) is None):
            response.set_cookie(PLAYER_COOKIE, self.browsers.issue(), httponly=True,
                                samesite="Strict", path="/", max_age=COOKIE_AGE)
        return response

    async def handle_index(self, request: web.Request) -> web.StreamResponse:
        """The page: the app's terminal, or with ``?plain=1`` the plain seat's log of
        lines and its command box (``serve.web.plain``)."""
        plain = request.query.get("plain") == "1"
        return aiohttp_jinja2.render_template(
            "plain_index.html" if plain else "app_index.html", request,
            self._page(request, plain))

    def _page(self, request: web.Request, plain: bool) -> dict[str, Any]:
        origin = self._origin(request)
        router = request.app.router
        static = str(router["static"].url_for(filename="/")).rstrip("/") + "/"
        websocket = origin.replace("http", "ws", 1) + str(router["websocket"].url_for())
        if plain:
            websocket += "?plain=1"
        return {
            # asked for (?fontsize=N), else "auto": the page fits it to the screen
            "font_size": (min(max(to_int(request.query["fontsize"], 16), 8), 40)
                          if "fontsize" in request.query else "auto"),
            "app_websocket_url": websocket,
            "config": {"static": {"url": f"{origin}{static}"}},
            "application": {"name": TITLE},
        }

    # -- one tab, one app ----------------------------------------------------------------

    async def handle_websocket(self, request: web.Request) -> web.StreamResponse:
        address = address_of(request.transport)
        key = self.browsers.key_of(request.cookies.get(PLAYER_COOKIE))
        tab = _Tab()
        async with self._turn(key):  # a browser's tabs replace each other one at a time
            old = self._tabs.get(key) if key is not None else None
            busy = self._busy(address, key, old)
            if busy is not None:
                websocket = web.WebSocketResponse()
                await websocket.prepare(request)
                await websocket.send_bytes(busy.encode() + b"\r\n")
                await websocket.close()
                return websocket
            if old is not None:  # the browser's other tab: told, its app stopped first
                if old.websocket is not None:
                    await self._tell(old.websocket, MOVED)
                    with contextlib.suppress(Exception):
                        await old.websocket.close()
                with contextlib.suppress(asyncio.TimeoutError):
                    await asyncio.wait_for(old.done.wait(), 15.0)
            if key is not None:
                self._tabs[key] = tab
        number = next(self._numbers)
        self._live[number] = Session(self.name, None, address, time.time())
        self.by_address[address] = self.by_address.get(address, 0) + 1
        conn = self._conns.get(request.transport)
        if conn is not None:
            conn.playing()
        home, scratch = None, False
        try:
            home, scratch = self.browsers.home(key)
            return await self._session(request, key, home, tab)
        finally:
            tab.done.set()
            if key is not None and self._tabs.get(key) is tab:
                del self._tabs[key]
            del self._live[number]
            left = self.by_address.get(address, 1) - 1
            if left > 0:
                self.by_address[address] = left
            else:
                self.by_address.pop(address, None)
            if scratch and home is not None:
                shutil.rmtree(home, ignore_errors=True)
            if key is not None:
                self._ended[key] = time.monotonic()
                if len(self._ended) > 4096:  # the longest ago go first
                    for stale in sorted(self._ended, key=self._ended.__getitem__)[:1024]:
                        del self._ended[stale]

    def _busy(self, address: str, key: str | None, old: _Tab | None) -> str | None:
        """Why a new tab cannot play now, or None (an app start is taken). A browser's
        tab that replaces its live one, or follows one that just ended, is no new
        session: the caps on tabs are not asked, and its start is the browser's own."""
        if self.closing:
            return "The server is shutting down."
        if old is None:
            if len(self._live) >= self.max_sessions:
                return "The server is busy: every place is taken. Try again in a while."
            if self.by_address.get(address, 0) >= self.per_address:
                return (f"Too many tabs from your address ({address}) are open here (at "
                        f"most {self.per_address}); close one and try again.")
        ended = self._ended.get(key) if key is not None else None
        again = old is not None or (ended is not None
                                    and time.monotonic() - ended < REPLACE_WITHIN)
        # every tab starts an app: churn is capped
        return self.ledger.start_app(address, again=key if again else None)

    @contextlib.asynccontextmanager
    async def _turn(self, key: str | None) -> AsyncIterator[None]:
        if key is None:
            yield
            return
        lock, waiting = self._turns.get(key) or (asyncio.Lock(), 0)
        self._turns[key] = (lock, waiting + 1)
        try:
            async with lock:
                yield
        finally:
            lock, waiting = self._turns[key]
            if waiting > 1:
                self._turns[key] = (lock, waiting - 1)
            else:
                del self._turns[key]

    async def _session(self, request: web.Request, key: str | None, home: Path,
                       tab: _Tab) -> web.StreamResponse:  # fmt: skip
        link = None
        if self.links is not None:
            link, meter = self.links.new(address_of(request.transport))
            websocket: web.WebSocketResponse = TimedWebSocket(
                meter, request.transport, heartbeat=15, max_msg_size=1 << 16
            )
        else:
            websocket = web.WebSocketResponse(heartbeat=15, max_msg_size=1 << 16)
        tab.websocket = websocket
        if key is None:
            self._untracked.add(websocket)
        width, height = clamp(request.query.get("width"), request.query.get("height"))
        extra = {f"MOTHERLODE_{kind.upper()}_DIR": str(home / kind)
                 for kind in ("config", "state", "data", "log")}
        if link is not None:
            extra[LINK_ENV] = link
        if key is None:  # a scratch folder (no cookie): no identity to keep, a guest
            extra[GUEST_ENV] = "1"
        if request.query.get("touch") == "1":  # the page's screen is touched: the app
            extra[TOUCH_ENV] = "1"  # may show its keys as buttons
        plain = request.query.get("plain") == "1"  # the plain page (serve.web.plain)
        service = None if plain else TabApp(
            self.argv, extra, home, self.warm, write_bytes=websocket.send_bytes,
            write_str=websocket.send_str, close=websocket.close,
            download_manager=self.download_manager, debug=False,
        )  # fmt: skip
        if service is not None:
            self._services.add(service)
        timing = None
        try:
            await websocket.prepare(request)
            if isinstance(websocket, TimedWebSocket):
                timing = asyncio.get_running_loop().create_task(keep_timing(websocket))
            if service is None:
                from serve.web.plain import plain_session

                await plain_session(websocket, [*self.argv, "--plain"], extra, home,
                                    self.warm)
            else:
                await service.start(width, height)
                watch = asyncio.get_running_loop().create_task(
                    self._until_ended(service, websocket))
                try:
                    await self._process_messages(websocket, service, (width, height))
                finally:
                    watch.cancel()
                    await service.end()
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
            if service is not None:
                self._services.discard(service)
                with contextlib.suppress(Exception):
                    await service.end()
            self._untracked.discard(websocket)
        return websocket

    async def _until_ended(self, service: TabApp, websocket: web.WebSocketResponse) -> None:
        """An app that ended without a word (killed, crashed): its tab is told and
        closed, rather than left on a screen that no longer answers."""
        if service._task is not None:
            await asyncio.wait({service._task})
        if not websocket.closed and not self.closing:
            await self._tell(websocket, STOPPED)
            with contextlib.suppress(Exception):
                await websocket.close()

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
        inflow = Inflow()  # keys reach the app at most its rate (``serve.inflow``)
        async for message in websocket:
            if message.type != WSMsgType.TEXT:
                continue
            try:
                kind, data = read_frame(message.data)
            except FrameError as error:  # refused as the LAN protocol refuses it
                await websocket.send_str(refusal(error))
                continue
            if kind == "stdin" and isinstance(data, str):
                keys = data.encode("utf-8", "replace")
                await inflow.take(len(keys))
                await app_service.send_bytes(keys)
            elif kind == "resize" and isinstance(data, dict):
                resizes.want(clamp(data.get("width"), data.get("height")))
            elif kind == "ping" and isinstance(data, str | int | float):
                await websocket.send_json(["pong", data])
            elif kind == "blur":
                await app_service.blur()
            elif kind == "focus":
                await app_service.focus()


def clamp(width: Any, height: Any) -> tuple[int, int]:
    """A terminal size a tab may ask for: 10-240 x 5-80 (anything else is clamped)."""
    w = to_int(width, 80) if isinstance(width, str) else width if isinstance(width, int) \
        else 80
    h = to_int(height, 24) if isinstance(height, str) else height if isinstance(height, int) \
        else 24
    return min(max(w, 10), MAX_WIDTH), min(max(h, 5), MAX_HEIGHT)
