"""The web door in a real browser: headless Chromium (Debian's ``chromium``, which
``.ci/run`` installs) loads the page from ``motherlode serve --web``, a name is typed,
a table joined, and the host sees the player sit down. Driven over the DevTools
protocol (a websocket), on 127.0.0.1 only. With ``MOTHERLODE_SCREENSHOT_DIR`` set, the
screenshot of the lobby is kept there (``docs/screenshots/web-lobby.png``)."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import itertools
import json
import os
import re
import shutil
import time
from pathlib import Path

import aiohttp  # the web extra, which `make test` installs
import pyte
import pytest

from tests.serve.test_ssh import serving

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
# CI (.ci/run) installs Chromium and sets MOTHERLODE_REQUIRE_BROWSER: there a missing
# browser fails the run instead of skipping the one test that loads the page for real.
REQUIRED = bool(os.environ.get("MOTHERLODE_REQUIRE_BROWSER"))
pytestmark = [
    pytest.mark.timeout(120),
    pytest.mark.skipif(CHROMIUM is None and not REQUIRED,
                       reason="no chromium here (.ci/run installs it and requires it)"),
]


def test_ci_has_the_browser():
    assert CHROMIUM is not None or not REQUIRED, "CI needs Debian's chromium (.ci/run)"

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run",
         "--remote-debugging-port=0", "--window-size=1100,760"]


class Browser:
    """Chromium with one page, driven over the DevTools protocol."""

    def __init__(self, proc, http, ws) -> None:
        self.proc, self.http, self.ws = proc, http, ws
        self.ids = itertools.count(1)
        self.waiting: dict[int, asyncio.Future] = {}
        # what the page's websocket receives, read through pyte: the screen it shows
        self.screen = pyte.Screen(137, 37)
        self.stream = pyte.ByteStream(self.screen)
        self.reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        async for message in self.ws:
            data = json.loads(message.data)
            if "id" in data and data["id"] in self.waiting:
                self.waiting.pop(data["id"]).set_result(data)
            elif data.get("method") == "Network.webSocketFrameReceived":
                frame = data["params"]["response"]
                if frame["opcode"] == 2:
                    self.stream.feed(base64.b64decode(frame["payloadData"]))

    @property
    def text(self) -> str:
        return "\n".join(line.rstrip() for line in self.screen.display)

    async def wait_for(self, pattern: str, timeout: float = 40.0) -> None:
        deadline = time.monotonic() + timeout
        while not re.search(pattern, self.text):
            assert time.monotonic() < deadline, f"no {pattern!r} in the page:\n{self.text}"
            await asyncio.sleep(0.05)

    @classmethod
    @contextlib.asynccontextmanager
    async def open(cls, profile: Path):
        proc = await asyncio.create_subprocess_exec(
            CHROMIUM, *FLAGS, f"--user-data-dir={profile}", "about:blank",
            stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL)
        try:
            port_file = profile / "DevToolsActivePort"
            deadline = time.monotonic() + 30
            while not (port_file.exists() and port_file.read_text().strip()):
                assert time.monotonic() < deadline, "chromium did not start"
                await asyncio.sleep(0.1)
            port = int(port_file.read_text().split()[0])
            async with aiohttp.ClientSession() as http:
                async with http.get(f"http://127.0.0.1:{port}/json/list") as listing:
                    pages = [t for t in await listing.json() if t["type"] == "page"]
                async with http.ws_connect(pages[0]["webSocketDebuggerUrl"],
                                           max_msg_size=64 << 20) as ws:
                    browser = cls(proc, http, ws)
                    try:
                        yield browser
                    finally:
                        browser.reader.cancel()
        finally:
            with contextlib.suppress(ProcessLookupError):
                proc.kill()
            await proc.wait()

    async def call(self, method: str, **params) -> dict:
        ident = next(self.ids)
        self.waiting[ident] = asyncio.get_running_loop().create_future()
        await self.ws.send_json({"id": ident, "method": method, "params": params})
        message = await asyncio.wait_for(self.waiting[ident], 30)
        assert "error" not in message, message
        return message.get("result", {})

    async def key(self, text: str, code: str, key_code: int) -> None:
        for kind in ("keyDown", "keyUp"):
            await self.call("Input.dispatchKeyEvent", type=kind, key=text, code=code,
                            windowsVirtualKeyCode=key_code, nativeVirtualKeyCode=key_code,
                            **({"text": "\r"} if kind == "keyDown" and text == "Enter" else {}))


async def wait_for_line(serve, text: str, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while text not in serve.output:
        assert time.monotonic() < deadline, f"no {text!r} from the server:\n{serve.output}"
        await asyncio.sleep(0.05)


@pytest.mark.slow
async def test_a_browser_types_a_name_and_reaches_the_lobby(tmp_path):
    async with serving(tmp_path, "--web", "0", "--game", "nuggets") as (serve, _):
        async with Browser.open(tmp_path / "profile") as browser:
            await browser.call("Page.enable")
            await browser.call("Network.enable")
            # a 1100x760 window at font size 16 holds about 137x37 cells
            await browser.call("Page.navigate", url=f"http://127.0.0.1:{serve.web_port}/")
            await browser.wait_for("Your name at the table")
            for kind in ("mousePressed", "mouseReleased"):  # focus the terminal
                await browser.call("Input.dispatchMouseEvent", type=kind, x=550, y=380,
                                   button="left", clickCount=1)
            await browser.call("Input.insertText", text="Wendy")
            await browser.wait_for("Wendy")
            await browser.key("Enter", "Enter", 13)
            await browser.wait_for("You play as Wendy")
            await browser.wait_for(r"Gold Nuggets at 'Gold Nuggets table'")
            await browser.key("Enter", "Enter", 13)  # join the highlighted table
            await browser.wait_for(r"1\. Wendy +not ready +\(you\)")
            await wait_for_line(serve, "Gold Nuggets table: Wendy joined")
            shot = await browser.call("Page.captureScreenshot", format="png")
            png = base64.b64decode(shot["data"])
            assert png.startswith(b"\x89PNG") and len(png) > 10_000
            keep = os.environ.get("MOTHERLODE_SCREENSHOT_DIR")
            if keep:
                Path(keep, "web-lobby.png").write_bytes(png)
