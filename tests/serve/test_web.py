"""The web door of ``motherlode serve --web``: a real server process, a websocket
client with a pyte screen, on 127.0.0.1. (A real browser: ``test_browser.py``.)"""

from __future__ import annotations

import asyncio
import re

import aiohttp  # the web extra, which `make test` installs
import pytest

from tests.serve.helpers import serving
from tests.serve.web import Tab

pytestmark = pytest.mark.timeout(90)


@pytest.mark.slow
async def test_the_page_is_offline_and_follows_the_request_host(tmp_path):
    async with serving(tmp_path, "--web", "0") as (serve, _):
        base = f"http://127.0.0.1:{serve.web_port}"
        async with aiohttp.ClientSession() as http:
            async with http.get(base + "/", headers={"Host": "localhost:8080"}) as page:
                assert page.status == 200
                html = await page.text()
            assert 'data-session-websocket-url="ws://localhost:8080/ws"' in html
            assert "googleapis" not in html and "https://" not in html
            urls = re.findall(r'(?:href|src|url\()\s*=?\s*"([^"]+)"', html)
            assert urls and all(u.startswith("http://localhost:8080/") for u in urls)
            font = re.search(r'url\("http://localhost:8080(/static/fonts/[^"]+\.ttf)"', html)
            assert font is not None
            async with http.get(base + font[1]) as got:
                assert got.status == 200 and len(await got.read()) > 10_000
            async with http.get(base + "/", headers={"Host": "evil\"><script>"}) as bad:
                assert bad.status == 400


@pytest.mark.slow
async def test_a_websocket_client_reaches_the_lobby(tmp_path):
    async with serving(tmp_path, "--web", "0", "--game", "nuggets") as (serve, _):
        async with aiohttp.ClientSession() as http:
            url = f"http://127.0.0.1:{serve.web_port}/ws?width=100&height=30"
            async with http.ws_connect(url) as ws:
                tab = Tab(ws)
                await tab.wait_for("Your name at the table")
                await tab.type("Wendy")
                await tab.wait_for("Wendy")
                await tab.type("\r")
                await tab.wait_for("You play as Wendy")
                await tab.wait_for("Gold Nuggets at 'Gold Nuggets table'")
                await tab.type("\r")
                await tab.wait_for(r"1\. Wendy +not ready +\(you\)")
                await tab.type("q")
                await tab.wait_for("Leave this table")


@pytest.mark.slow
async def test_web_sessions_are_capped(tmp_path):
    async with serving(tmp_path, "--web", "0", "--max-sessions", "1") as (serve, _):
        async with aiohttp.ClientSession() as http:
            url = f"http://127.0.0.1:{serve.web_port}/ws?width=100&height=30"
            async with http.ws_connect(url) as first:
                tab = Tab(first)
                await tab.wait_for("Your name at the table")
                async with http.ws_connect(url) as second:
                    other = Tab(second)
                    await asyncio.wait_for(other.closed.wait(), 20)
                    assert b"busy" in other.raw
                await tab.type("Ann")
                await tab.wait_for("Ann")
