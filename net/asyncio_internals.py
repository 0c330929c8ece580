"""asyncio's internals the host uses, in one place, checked on ``CHECKED_ON``.

The selector loop's accept: asyncio (3.11-3.12) logs and re-arms a retry for every
attempt of a backlog when ``accept()`` fails with EMFILE, which at 1024 descriptors
spins a core and writes thousands of lines a second. ``guard_accept`` replaces the
loop's ``_accept_connection`` with ``AcceptGuard``, which backs off and logs rarely,
and otherwise accepts as asyncio does, through its ``_accept_connection2``,
``_start_serving`` and ``_remove_reader``. A loop without them is left alone.

A new Python: ``tests/test_internals.py`` fails loudly for each method in ``WRAPPED``
whose parameters changed; read the new code, fix the use here, write the version.
"""

from __future__ import annotations

import asyncio
import errno
import logging
import time
from typing import Any

log = logging.getLogger("net.budgets")  # where the host's budgets log, as before

#: the Python these uses were read against
CHECKED_ON = "3.11.7"

#: (module, class, name) -> the parameters as checked on ``CHECKED_ON``
WRAPPED: dict[tuple[str, str, str], str] = {
    ("asyncio.selector_events", "BaseSelectorEventLoop", "_accept_connection"):
        "(self, protocol_factory, sock, sslcontext=None, server=None, backlog=100, "
        "ssl_handshake_timeout=60.0, ssl_shutdown_timeout=30.0)",
    ("asyncio.selector_events", "BaseSelectorEventLoop", "_accept_connection2"):
        "(self, protocol_factory, conn, extra, sslcontext=None, server=None, "
        "ssl_handshake_timeout=60.0, ssl_shutdown_timeout=30.0)",
    ("asyncio.selector_events", "BaseSelectorEventLoop", "_start_serving"):
        "(self, protocol_factory, sock, sslcontext=None, server=None, backlog=100, "
        "ssl_handshake_timeout=60.0, ssl_shutdown_timeout=30.0)",
    ("asyncio.selector_events", "BaseSelectorEventLoop", "_remove_reader"): "(self, fd)",
}

RESOURCE_ERRORS = (errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM)


class AcceptGuard:
    """Back-off and a quiet log for one loop's accept errors."""

    def __init__(self, loop: asyncio.AbstractEventLoop, every: float) -> None:
        self.loop = loop
        self.every = every
        self.delay = 0.1
        self.last_log = -1e9
        self.suppressed = 0
        self.original = loop._accept_connection  # type: ignore[attr-defined]

    def __call__(self, protocol_factory: Any, sock: Any, *args: Any, **kwargs: Any) -> None:
        loop: Any = self.loop
        for _ in range(kwargs.get("backlog", args[2] if len(args) > 2 else 100)):
            try:
                conn, addr = sock.accept()
                conn.setblocking(False)
            except (BlockingIOError, InterruptedError, ConnectionAbortedError):
                self.delay = 0.1
                return
            except OSError as exc:
                if exc.errno not in RESOURCE_ERRORS:
                    raise
                self._note(exc)
                # stop listening for a while (growing), then try again: no spin
                loop._remove_reader(sock.fileno())
                loop.call_later(self.delay, loop._start_serving, protocol_factory, sock,
                                *args, **kwargs)
                self.delay = min(self.delay * 2, 2.0)
                return
            else:
                self.delay = 0.1
                accept = loop._accept_connection2(protocol_factory, conn, {"peername": addr},
                                                  *_accept2_args(args, kwargs))
                loop.create_task(accept)

    def _note(self, exc: OSError) -> None:
        now = time.monotonic()
        if now - self.last_log >= self.every:
            extra = f" ({self.suppressed} more since the last line)" if self.suppressed else ""
            log.warning("accept() is out of descriptors: %s; backing off%s", exc, extra)
            self.last_log = now
            self.suppressed = 0
        else:
            self.suppressed += 1


def _accept2_args(args: tuple, kwargs: dict) -> tuple:
    # _accept_connection(factory, sock, sslcontext, server, backlog, hs_timeout, sd_timeout)
    # _accept_connection2(factory, conn, extra, sslcontext, server, hs_timeout, sd_timeout)
    names = ("sslcontext", "server", "backlog", "ssl_handshake_timeout",
             "ssl_shutdown_timeout")
    values = dict(zip(names, args, strict=False))
    values.update(kwargs)
    from asyncio import constants

    return (values.get("sslcontext"), values.get("server"),
            values.get("ssl_handshake_timeout", constants.SSL_HANDSHAKE_TIMEOUT),
            values.get("ssl_shutdown_timeout", constants.SSL_SHUTDOWN_TIMEOUT))


def guard_accept(loop: asyncio.AbstractEventLoop, every: float) -> None:
    """Make ``loop``'s accept() back off and log rarely when out of descriptors.

    asyncio (3.11-3.12) logs and re-arms a retry for every attempt of a backlog when
    ``accept()`` fails with EMFILE, which at 1024 descriptors spins a core and writes
    thousands of lines a second. A selector loop only; others are left alone."""
    if not hasattr(loop, "_accept_connection") or isinstance(
            loop._accept_connection, AcceptGuard):
        return
    loop._accept_connection = AcceptGuard(loop, every)  # type: ignore[attr-defined]
