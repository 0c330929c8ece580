"""The web door as a browser tab sees it: its websocket, its screen read through pyte."""

from __future__ import annotations

import asyncio
import json
import re
import sys

import aiohttp  # the web extra, which `make test` installs
import pyte

from serve.web import WebDoor
from tests.waiting import until

# the app: its environment, then every packet textual-serve sends it, into a file
APP = """
import json, os, sys
out = open(sys.argv[1], "a")
out.write(json.dumps({"secret": os.environ.get("MOTHERLODE_SERVE_PASSWORD")}) + "\\n")
out.flush()
while True:
    head = sys.stdin.buffer.read(5)
    if len(head) < 5:
        break
    body = sys.stdin.buffer.read(int.from_bytes(head[1:], "big"))
    out.write(body.decode("utf-8", "replace") + "\\n")
    out.flush()
    if head[:1] == b"M" and b'"quit"' in body:  # as a Textual app does
        break
"""


class Tab:
    """One browser tab's websocket, its screen read through pyte."""

    def __init__(self, ws, size=(100, 30)) -> None:
        self.ws = ws
        self.screen = pyte.Screen(*size)
        self.stream = pyte.ByteStream(self.screen)
        self.raw = bytearray()
        self.texts: list[str] = []  # the door's own words (["goodbye", ...])
        self.order: list[str] = []  # "text" and "bytes", as they came
        self.closed = asyncio.Event()
        self._pump = asyncio.create_task(self._read())

    async def _read(self) -> None:
        try:
            async for message in self.ws:
                if message.type == aiohttp.WSMsgType.BINARY:
                    self.raw += message.data
                    self.stream.feed(message.data)
                    self.order.append("bytes")
                elif message.type == aiohttp.WSMsgType.TEXT:
                    self.texts.append(message.data)
                    self.order.append("text")
        finally:
            self.closed.set()

    @property
    def text(self) -> str:
        return "\n".join(line.rstrip() for line in self.screen.display)

    async def wait_for(self, pattern: str, timeout: float = 30.0) -> None:
        await until(lambda: re.search(pattern, self.text),
                    lambda: f"{pattern!r} in the tab:\n{self.text}", timeout, step=0.02)

    async def type(self, text: str) -> None:
        await self.ws.send_json(["stdin", text])


async def door(tmp_path, monkeypatch, **kw) -> WebDoor:
    monkeypatch.setenv("MOTHERLODE_SERVE_PASSWORD", "not for apps")
    door = WebDoor([sys.executable, "-c", APP, str(tmp_path / "app.log")], **kw)
    await door.start("127.0.0.1", 0)
    return door


class Browser:
    """A browser: its cookie jar, the page, and one tab (websocket) at a time."""

    def __init__(self, port: int) -> None:
        self.base = f"http://127.0.0.1:{port}"
        self.http = aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))

    async def open_tab(self) -> Tab:
        async with self.http.get(self.base + "/") as page:  # the page sets the cookie
            assert page.status == 200
        ws = await self.http.ws_connect(self.base + "/ws?width=100&height=30")
        return Tab(ws)

    @property
    def cookie(self) -> str | None:
        found = [c for c in self.http.cookie_jar if c.key == "motherlode_player"]
        return found[0].value if found else None

    async def close(self) -> None:
        await self.http.close()


def goodbyes(tab: Tab) -> list[str]:
    return [json.loads(t)[1] for t in tab.texts if json.loads(t)[0] == "goodbye"]
