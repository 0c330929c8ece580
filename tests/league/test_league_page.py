"""Done when: a Chromium test. The web door's /league shows the host's standings in
big type; a rated game ending updates it within 2 s, without a reload; it sits behind
the door's password and its Host and Origin checks, and needs no seat."""

from __future__ import annotations

import sys
import time

import aiohttp
import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from net.clock import FakeClock
from net.host import Host
from net.saves import Store
from serve.web import WebDoor
from serve.web.league import LeaguePage
from tests.league.helpers import nc_game
from tests.serve.browser import CHROMIUM, REQUIRED, Browser
from tests.serve.web import APP

pytestmark = [pytest.mark.timeout(120)]


@pytest.fixture
async def served(tmp_path, monkeypatch):
    store = Store(tmp_path / "data", "tables")
    host = Host(clock=FakeClock(5.0), store=store)
    await host.start("127.0.0.1", 0)
    door = await _with_league(tmp_path, monkeypatch, store, host)
    try:
        yield host, door
    finally:
        await door.stop()
        await host.close()
        store.close()


async def _with_league(tmp_path, monkeypatch, store, host):
    """A web door (its app a stand-in: no seat is taken here) with the standings of
    ``host``'s store at /league, told of each rated game as ``motherlode serve`` does."""
    monkeypatch.setenv("MOTHERLODE_SERVE_PASSWORD", "not for apps")
    door = WebDoor([sys.executable, "-c", APP, str(tmp_path / "app.log")], password="sesame")
    door.league = LeaguePage(store)
    host.league.on_rated(door.league.rated)
    await door.start("127.0.0.1", 0)
    return door


async def test_the_league_is_behind_the_password_host_and_origin_checks(served):
    host, door = served
    base = f"http://127.0.0.1:{door.port}"
    async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as http:
        async with http.get(base + "/league") as page:
            assert page.status == 200 and 'name="league"' in await page.text()  # sign in
        async with http.get(base + "/league.json") as data:
            assert data.status == 401
        async with http.post(base + "/login", data={"password": "sesame", "league": "1"},
                             allow_redirects=False) as login:
            assert login.status == 303 and login.headers["Location"] == "/league"
        async with http.get(base + "/league.json") as data:
            assert data.status == 200 and (await data.json())["boards"] == []
        async with http.get(base + "/league.json", headers={"Host": "evil.example"}) as data:
            assert data.status == 403
        async with http.get(base + "/league.json",
                            headers={"Origin": "http://evil.example"}) as data:
            assert data.status == 403


@pytest.mark.slow
@pytest.mark.skipif(CHROMIUM is None and not REQUIRED,
                    reason="no chromium here (.ci/run installs it and requires it)")
async def test_a_game_ending_updates_the_page_within_two_seconds(served, tmp_path):
    host, door = served
    async with Browser.open(tmp_path / "profile") as browser:
        await browser.call("Page.navigate", url=f"http://127.0.0.1:{door.port}/league")
        await browser.until("!!document.getElementById('password')", "the password form")
        await browser.evaluate("document.getElementById('password').value = 'sesame';"
                               "document.forms[0].submit(); true")
        await browser.until("document.body.dataset.version === '0'", "the empty standings")
        assert "No rated games yet" in await browser.evaluate("document.body.innerText")
        await browser.evaluate("window.notReloaded = true")
        size = await browser.evaluate(
            "parseFloat(getComputedStyle(document.querySelector('h1')).fontSize)")
        assert size >= 30  # big type, for a TV across the room (6vh of 760 px)

        client, _ = await nc_game(host, "Saloon", "Ann", Ed25519PrivateKey.generate())
        await client.next("rated")
        rated_at = time.monotonic()
        await browser.until("document.body.dataset.version === '1'", "the new standings", 2.0)
        took = time.monotonic() - rated_at
        text = await browser.evaluate("document.body.innerText")
        assert "Gold Nuggets: All time" in text and "Ann" in text and "Normal bot" in text
        assert "new (1 of 10)" in text
        assert await browser.evaluate("window.notReloaded === true")  # live, not reloaded
        assert took < 2.0
