"""The web door's guard (:class:`Guard`), in front of every request: ``Host`` and
``Origin`` must name an address the server listens on (403 otherwise: no cross-site
use, no DNS rebinding); with a password, a page asks for it and a cookie holding a
random session token follows, a wrong password waiting longer each time from its
address. Guesses from one address are answered one at a time, each counted before its
wait, so guesses sent at once queue behind each other and every one of them counts."""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import html
import ipaddress
import re
import secrets
import socket
import time
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import web

# a Host header: a name or an address, an optional port (anything else is refused)
HOST_HEADER = re.compile(r"^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]{1,253})(:\d{1,5})?$")
COOKIE = "motherlode_session"
LOGIN_PAGE = """<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>Motherlode</title>
<style>body{{background:#0c181f;color:#e0e0e0;font-family:monospace;display:flex;
align-items:center;justify-content:center;height:90vh}}input{{font:inherit}}</style></head>
<body><main><form method="post" action="/login"><h1>Motherlode</h1><p>This Motherlode
server asks for its password.</p><p role="alert">{problem}</p><label for="password">Password
</label><input type="password" id="password" name="password" autofocus
autocomplete="current-password"> {keep}<input type="submit" value="Play"></form></main>
</body></html>
"""
#: the page a person asked for, kept through the login (a fixed choice, never a URL
#: taken from the request: no open redirect): the plain page, or the app's
PLAIN_FIELD = '<input type="hidden" name="plain" value="1">'
LEAGUE_FIELD = '<input type="hidden" name="league" value="1">'  # the standings, /league


def login_page(problem: str = "", *, plain: bool = False, league: bool = False) -> str:
    """The password form; ``plain``: it returns to the plain page (``/?plain=1``);
    ``league``: to the standings (``/league``)."""
    keep = LEAGUE_FIELD if league else PLAIN_FIELD if plain else ""
    return LOGIN_PAGE.format(problem=html.escape(problem), keep=keep)


class Guard:
    """See the module docstring. ``conns`` are the door's counted connections, by
    transport (``serve.web.counted``): a request in progress is no idle connection."""

    def __init__(self, password: str | None, conns: dict[Any, Any]) -> None:
        self.password = password
        self.allowed: set[str] = set()  # host names and addresses Host/Origin may name
        self._conns = conns
        self._tokens: dict[str, float] = {}  # session cookie -> when it was given
        self._failures: dict[str, int] = {}  # wrong passwords per address
        self._turns: dict[str, tuple[asyncio.Lock, int]] = {}  # one guess at a time
        #: how the back-off waits (a test gives its own clock)
        self.sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep

    @web.middleware
    async def middleware(self, request: web.Request,
                         handler: Callable[[web.Request], Awaitable[web.StreamResponse]],
                         ) -> web.StreamResponse:
        conn = self._conns.get(request.transport)
        if conn is not None:
            conn.busy()
        try:
            self._check_host(request)
            if self.password is not None and request.path != "/login" \
                    and not self._signed_in(request):
                if request.path in ("/", "/league"):
                    return web.Response(text=login_page(
                        plain=request.query.get("plain") == "1",
                        league=request.path == "/league"), content_type="text/html")
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
        address = address_of(request.transport)
        form = await request.post()
        given = form.get("password")
        plain = form.get("plain") == "1"
        league = form.get("league") == "1"
        lock, waiting = self._turns.get(address) or (asyncio.Lock(), 0)
        self._turns[address] = (lock, waiting + 1)
        try:
            async with lock:  # one guess at a time from an address
                failures = self._failures.get(address, 0)
                self._failures[address] = failures + 1  # counted before the wait
                if len(self._failures) > 4096:
                    self._failures = {address: failures + 1}
                await self.sleep(min(0.5 * failures, 8.0))  # a growing delay
                ok = isinstance(given, str) and hmac.compare_digest(
                    given.encode("utf-8", "replace"), (self.password or "").encode())
                if ok:
                    self._failures.pop(address, None)
        finally:
            lock, waiting = self._turns[address]
            if waiting > 1:
                self._turns[address] = (lock, waiting - 1)
            else:
                del self._turns[address]
        if not ok:
            return web.Response(status=403, content_type="text/html", text=login_page(
                "That was not the password.", plain=plain, league=league))
        token = secrets.token_urlsafe(32)
        self._tokens[token] = time.time()
        if len(self._tokens) > 1024:  # the oldest sign-ins go first
            for old in sorted(self._tokens, key=self._tokens.__getitem__)[:256]:
                del self._tokens[old]
        response = web.HTTPSeeOther("/league" if league else "/?plain=1" if plain else "/")
        response.set_cookie(COOKIE, token, httponly=True, samesite="Strict", path="/")
        raise response


def address_of(transport: Any) -> str:
    """The address a connection comes from ("" if unknown)."""
    peer = transport.get_extra_info("peername") if transport is not None else None
    return str(peer[0]) if isinstance(peer, tuple) else ""


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
