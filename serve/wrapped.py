"""A protocol that wraps another, built only once a connection is admitted: both doors
screen a socket at accept (``serve.ssh.screen.Screen``, ``serve.web.counted.Counted``)
and hand it to their server's own protocol (asyncssh's, aiohttp's) only if the ledger
lets it in, so a loop opening sockets never costs that protocol's construction."""

from __future__ import annotations

import asyncio
from typing import Any


class Wrapped(asyncio.Protocol):
    """Forwards everything to ``inner`` once a subclass has set it (in
    ``connection_made``); before that, or for a refused socket, nothing is forwarded."""

    inner: Any = None
    transport: Any = None

    def data_received(self, data: bytes) -> None:
        if self.inner is not None:
            self.inner.data_received(data)

    def eof_received(self) -> bool | None:
        return self.inner.eof_received() if self.inner is not None else None

    def connection_lost(self, exc: Exception | None) -> None:
        if self.inner is not None:
            self.inner.connection_lost(exc)

    def pause_writing(self) -> None:
        if self.inner is not None:
            self.inner.pause_writing()

    def resume_writing(self) -> None:
        if self.inner is not None:
            self.inner.resume_writing()
