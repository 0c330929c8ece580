"""The person's own link at the web door, for lag-fair races (``net.served``): a tab's
app is on loopback, so the door times its own WebSocket pings to the browser."""

from __future__ import annotations

import asyncio
from typing import Any

from aiohttp import WSMsgType, web

from net import tcpinfo
from net.latency import DelayMeter

#: seconds between the door's pings on a person's WebSocket (lag-fair races)
LINK_EVERY = 0.5


class TimedWebSocket(web.WebSocketResponse):
    """A WebSocket that times the round trips of its own pings into ``meter``: the
    person's own link, for lag-fair races (``net.served``). It answers the browser's
    pings itself (``autoping`` off, so that its pongs are seen here)."""

    def __init__(self, meter: DelayMeter, transport: Any = None, **kwargs: Any) -> None:
        super().__init__(autoping=False, **kwargs)
        self.meter = meter
        self.transport = transport  # the browser's HTTP connection
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
                    # a held pong gains nothing: the kernel times the link too
                    self.meter.bound(tcpinfo.of_transport(self.transport))
                continue
            return message


async def keep_timing(websocket: TimedWebSocket) -> None:
    while not websocket.closed:
        await asyncio.sleep(LINK_EVERY)
        try:
            await websocket.ping_now()
        except (ConnectionError, RuntimeError, OSError):
            return
