"""The in-process transport: a pair of asyncio streams joined in memory, so local play
(solo, hot-seat) runs the very host and client that LAN play does."""

from __future__ import annotations

import asyncio
from typing import Any


class PipeWriter:
    """The writing end of an in-process connection (duck-types StreamWriter)."""

    def __init__(self, reader: asyncio.StreamReader, name: str) -> None:
        self._reader = reader
        self._name = name
        self._closed = False

    def write(self, data: bytes) -> None:
        if not self._closed:
            self._reader.feed_data(data)

    async def drain(self) -> None:
        if self._closed:
            raise ConnectionResetError("the in-process connection is closed")
        await asyncio.sleep(0)

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            self._reader.feed_eof()

    def is_closing(self) -> bool:
        return self._closed

    async def wait_closed(self) -> None:
        return None

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return (self._name, 0) if name == "peername" else default
