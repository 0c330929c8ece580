"""The web door reads a tab's frames as the LAN protocol reads a line (issue 56, items
3 and 5), on a real ``motherlode serve``: a frame nested 5,000 deep, on the plain page
and on the app page, is refused with ``too_deep`` and the tab plays on (no traceback
in the server's log); the password keeps the page a person came for (``?plain=1``)."""

from __future__ import annotations

import asyncio
import json
import os

import aiohttp
import pytest

from tests.serve.helpers import ServeProcess

pytestmark = pytest.mark.timeout(120)

DEEP = "[" * 5000 + "]" * 5000  # 10 KB: under the socket's frame limit of 64 KiB


class Texts:
    """A websocket's text frames, each decoded, as they come."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws
        self.frames: list[list] = []

    async def read_until(self, condition, what: str, deadline: float = 30.0):
        async def one() -> None:
            message = await self.ws.receive()
            if message.type == aiohttp.WSMsgType.TEXT:
                self.frames.append(json.loads(message.data))
            elif message.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED,
                                  aiohttp.WSMsgType.CLOSING):
                raise AssertionError(f"the tab was closed while waiting for {what}: "
                                     f"{self.frames[-5:]}")

        loop = asyncio.get_running_loop()
        end = loop.time() + deadline
        while not (found := condition(self.frames)):
            assert loop.time() < end, f"never happened within {deadline} s: {what}: " \
                f"{self.frames[-5:]}"
            try:
                await asyncio.wait_for(one(), max(0.05, end - loop.time()))
            except TimeoutError:
                continue
        return found


def _lines(frames: list[list]) -> list[str]:
    return [f[1] for f in frames if f and f[0] == "line"]


def _errors(frames: list[list]) -> list[dict]:
    return [f[1] for f in frames if f and f[0] == "error"]


async def test_a_frame_nested_deep_is_refused_on_both_pages_and_the_tab_plays_on(tmp_path):
    serve = await ServeProcess.start(tmp_path / "serve", "--web", "0", "--game", "nuggets")
    base = f"http://127.0.0.1:{serve.web_port}"
    try:
        async with aiohttp.ClientSession() as http:
            # the plain page: refused in a line of its own, then the name is asked on
            async with http.ws_connect(f"{base}/ws?plain=1") as ws:
                plain = Texts(ws)
                await plain.read_until(lambda f: any(
                    line.startswith("What is your name") for line in _lines(f)), "the name")
                await ws.send_str(DEEP)
                refused = await plain.read_until(_errors, "the refusal")
                assert refused[0]["code"] == "too_deep", refused
                assert "nesting deeper than" in refused[0]["message"]
                await ws.send_str(json.dumps(["stdin", "Ann\n"]))
                await plain.read_until(lambda f: any(
                    line.startswith("Type a table's number") for line in _lines(f)),
                    "the tables, after the refusal")
            # the app page: refused, and the tab's app goes on answering
            async with http.ws_connect(f"{base}/ws?width=80&height=24") as ws:
                app = Texts(ws)
                await ws.send_str(DEEP)
                refused = await app.read_until(_errors, "the refusal")
                assert refused[0]["code"] == "too_deep"
                await ws.send_str('{"not": "a list"}')
                await app.read_until(lambda f: len(_errors(f)) >= 2, "the second refusal")
                await ws.send_str(json.dumps(["ping", "still here"]))
                await app.read_until(lambda f: ["pong", "still here"] in f, "the pong")
                assert not ws.closed
    finally:
        await serve.stop()
    assert "RecursionError" not in serve.output
    assert "Traceback" not in serve.output


PASSWORD = "gold rush 1849"


async def test_the_password_keeps_the_plain_page_a_person_came_for(tmp_path):
    os.environ["MOTHERLODE_SERVE_PASSWORD"] = PASSWORD
    try:
        serve = await ServeProcess.start(tmp_path / "serve", "--web", "0", "--password")
    finally:
        del os.environ["MOTHERLODE_SERVE_PASSWORD"]
    base = f"http://127.0.0.1:{serve.web_port}"
    try:
        async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as http:
            async with http.get(f"{base}/?plain=1") as page:
                form = await page.text()
            assert 'name="plain" value="1"' in form and 'for="password"' in form
            # a wrong password: asked again, still for the plain page
            async with http.post(f"{base}/login", data={"password": "nope", "plain": "1"},
                                 allow_redirects=False) as wrong:
                assert wrong.status == 403
                assert 'name="plain" value="1"' in await wrong.text()
            async with http.post(f"{base}/login", data={"password": PASSWORD, "plain": "1"},
                                 allow_redirects=False) as right:
                assert right.status == 303
                assert right.headers["Location"] == "/?plain=1"
            async with http.get(f"{base}/?plain=1") as page:
                assert 'role="log"' in await page.text()  # the plain page itself
            # the app page's form has no such field, and its login lands on /
            async with http.get(f"{base}/") as page:
                assert "Motherlode" in await page.text()
        async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as http:
            async with http.get(f"{base}/") as page:
                assert 'name="plain"' not in await page.text()
            async with http.post(f"{base}/login", data={"password": PASSWORD},
                                 allow_redirects=False) as right:
                assert right.headers["Location"] == "/"
            # the form's field is a choice, never an address: anything else is the app page
            async with http.post(f"{base}/login", data={"password": PASSWORD,
                                                        "plain": "//evil.example"},
                                 allow_redirects=False) as odd:
                assert odd.headers["Location"] == "/"
    finally:
        await serve.stop()
    assert "Traceback" not in serve.output
