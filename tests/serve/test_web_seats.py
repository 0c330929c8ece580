"""The seat follows the browser, not the tab (issue 37, items 2 and 4), end to end: a
real ``motherlode serve`` with its web door, a browser as an aiohttp client with a
cookie jar (the page, then its websocket), and Bob over SSH at the same table.

A reload mid-game is back in the same seat within 15 s with no key pressed, and Bob
sees the seat come back, never a stand-in taking it for good; a second tab takes the
game over and the first is told; another browser is never given the seat; the server
stopping tells the page so, before its app is stopped; after ``serve --resume`` the
same browser lands in its seat."""

from __future__ import annotations

import contextlib
import time

import asyncssh
import pytest

from tests.hardening.ptyapp import free_port
from tests.serve.helpers import Player, ServeProcess
from tests.serve.web import Browser, Tab, goodbyes
from tests.waiting import until

pytestmark = pytest.mark.timeout(150)

MENU = "Tables at this host"
IN_GAME = r"bob's turn|cat, your turn"


async def _game(serve: ServeProcess, browser: Browser) -> tuple[Player, Tab]:
    """Bob (SSH) opens a table, cat (the browser) joins, both ready: the game starts."""
    bob = await Player.connect(serve.ssh_port, "bob", asyncssh.generate_private_key(
        "ssh-ed25519"), size=(100, 30))
    await bob.wait_for(MENU, 30)
    bob.send(b"\r")
    await bob.wait_for(r"owner: you")
    tab = await browser.open_tab()
    await tab.wait_for("Your name at the table")
    await tab.type("cat\r")
    await tab.wait_for("You play as cat")
    await tab.type("\r")
    await bob.wait_for(r"2\. cat")
    await tab.type("r")
    await bob.wait_for(r"2\. cat +ready")
    bob.send(b"r")
    await tab.wait_for(IN_GAME)
    return bob, tab


@pytest.mark.slow
async def test_a_reload_mid_game_is_back_in_the_seat_and_a_second_tab_takes_it(tmp_path):
    serve = await ServeProcess.start(tmp_path / "data", "--game", "nuggets", "--seats", "2",
                                     "--seed", "seats-2", "--grace", "30", "--web", "0")
    browser = Browser(serve.web_port)
    other = Browser(serve.web_port)
    bob = None
    try:
        bob, tab = await _game(serve, browser)
        cookie = browser.cookie
        assert cookie is not None
        # a reload: the old tab's socket closes, the page opens a new one
        await tab.ws.close()
        reloaded = time.monotonic()
        tab = await browser.open_tab()
        await tab.wait_for(IN_GAME, timeout=15)  # no name asked, no key pressed
        took = time.monotonic() - reloaded
        assert took <= 15.0
        await bob.wait_for(r"cat is back", timeout=15)
        assert "stand-in" not in bob.text
        assert browser.cookie == cookie  # the same browser
        home = serve.data / "serve" / "players" / "_web"
        assert len([p for p in home.iterdir() if p.is_dir()]) == 1
        # a second tab of the same browser takes the game; the first is told
        second = await browser.open_tab()
        await until(lambda: tab.closed.is_set(), "the first tab closed", 20)
        assert any("moved to another tab" in words for words in goodbyes(tab))
        await second.wait_for(IN_GAME, timeout=15)
        await bob.wait_for(r"cat is back", timeout=15)
        # another browser is never given cat's seat: it is asked its name, and the
        # name alone does not take the seat
        stranger = await other.open_tab()
        await stranger.wait_for("Your name at the table")
        assert other.cookie is not None and other.cookie != cookie
        await stranger.type("cat\r")
        await stranger.wait_for("You play as cat")
        await stranger.type("\r")
        await stranger.wait_for(r"has started", timeout=20)
        assert "stand-in" not in bob.text
        await second.wait_for(IN_GAME)
        print(f"reload to seat: {took:.2f} s")
    finally:
        if bob is not None:
            await bob.close()
        await browser.close()
        await other.close()
        await serve.stop()


@pytest.mark.slow
async def test_the_page_is_told_the_server_stopped_and_is_seated_after_resume(tmp_path):
    ports = ("--ssh", str(free_port()), "--port", str(free_port()), "--web",
             str(free_port()))
    serve = await ServeProcess.start(tmp_path / "data", "--game", "nuggets", "--seats", "2",
                                     "--seed", "seats-2", *ports)
    browser = Browser(serve.web_port)
    bob = None
    try:
        bob, tab = await _game(serve, browser)
        assert await serve.interrupt() == 0  # Ctrl-C: the game is kept
        await until(lambda: tab.closed.is_set(), "the tab closed", 30)
        words = goodbyes(tab)
        assert words and "server stopped" in words[0] and "open this page again" in words[0]
        assert "Your game session ended" not in words[0]
        with contextlib.suppress(Exception):
            await bob.close()
        serve = await ServeProcess.start(tmp_path / "data", "--resume", *ports)
        tab = await browser.open_tab()
        await tab.wait_for(IN_GAME, timeout=30)
        await tab.wait_for("You have your seat back", timeout=15)
    finally:
        if bob is not None:
            with contextlib.suppress(Exception):
                await bob.close()
        await browser.close()
        await serve.stop()
