"""The plain page keeps its seat as the app page does (issue 56, item 2), in headless
Chromium against a real ``motherlode serve``: Ann plays on ``/?plain=1``, Bob in the
plain seat over SSH at the same table. Ann reloads the page mid-game: her new page is
back in her seat with no name asked, and Bob's lines say her connection dropped, then
that she is back, never that she left."""

from __future__ import annotations

import asyncio
import json

import asyncssh
import pytest

from tests.serve.browser import CHROMIUM, REQUIRED, Browser
from tests.serve.helpers import ServeProcess
from tests.waiting import until

from .driver import Seat

pytestmark = [pytest.mark.timeout(240),
              pytest.mark.skipif(CHROMIUM is None and not REQUIRED,
                                 reason="Chromium is not installed (.ci/run installs it)")]

LINES = "Array.from(document.querySelectorAll('#log p'), p => p.textContent)"


async def _type(browser: Browser, text: str) -> None:
    await browser.evaluate(
        f"(() => {{ const box = document.getElementById('command'); box.value = "
        f"{json.dumps(text)}; document.getElementById('say').requestSubmit(); }})()")


async def _page_line(browser: Browser, start: str, what: str, deadline: float = 60) -> None:
    try:
        await browser.until(f"{LINES}.some(l => l.startsWith({json.dumps(start)}))", what,
                            deadline)
    except AssertionError as error:
        raise AssertionError(f"{error}; the page says: {(await browser.evaluate(LINES))[-12:]}"
                             ) from None


async def _reading(seat: Seat) -> None:
    while await seat.line(120) is not None:
        pass


@pytest.mark.slow
async def test_a_reload_of_the_plain_page_mid_game_takes_the_seat_back(tmp_path):
    serve = await ServeProcess.start(tmp_path / "serve", "--web", "0", "--game", "nuggets",
                                     "--seed", "plain-reload", "--grace", "60")
    key = asyncssh.generate_private_key("ssh-ed25519")
    conn = await asyncio.wait_for(asyncssh.connect(
        "127.0.0.1", serve.ssh_port, username="bob", known_hosts=None, encoding=None,
        client_keys=[key], agent_path=None, password=None), 20)  # fmt: skip
    proc = await conn.create_process("plain", stderr=asyncssh.STDOUT)
    bob = Seat(proc.stdout.readline, proc.stdin.write)
    reading = asyncio.ensure_future(_reading(bob))
    try:
        # Bob opens the table's lobby first (he owns it), then Ann joins from the page
        await until(lambda: any(line.startswith("Type a table's number") for line in bob.lines),
                    "Bob's tables", 30)
        bob.send("1")
        await until(lambda: any(line.startswith("Table ") for line in bob.lines),
                    "Bob's lobby", 30)
        async with Browser.open(tmp_path / "profile") as browser:
            url = f"http://127.0.0.1:{serve.web_port}/?plain=1"
            await browser.call("Page.navigate", url=url)
            await _page_line(browser, "What is your name", "the name asked")
            await _type(browser, "Ann")
            await _page_line(browser, "Type a table's number", "the tables")
            await _type(browser, "1")
            await _page_line(browser, "Table ", "Ann's lobby")
            # a reload in the lobby: the seat waits for her too, and comes back
            mark = len(bob.lines)
            await browser.call("Page.reload")
            await _page_line(browser, "Back to your seat at table", "the lobby seat back", 30)
            await until(lambda: any(line.startswith("Ann is back") for line in bob.lines[mark:]),
                        "Bob told Ann is back in the lobby", 30)
            said = bob.lines[mark:]
            assert any(line.startswith("Ann's connection dropped") for line in said), said
            assert not [line for line in said if "Ann left" in line], said
            await _page_line(browser, "Table ", "Ann's lobby again")
            await _type(browser, "ready")
            bob.send("ready")
            await until(lambda: any("Type start to begin" in line for line in bob.lines),
                        "everyone ready", 30)
            bob.send("start")
            await _page_line(browser, "The game starts", "the game, on Ann's page")
            mark = len(bob.lines)
            # the reload: the old page's seat hangs up, the new page takes it back
            await browser.call("Page.reload")
            await _page_line(browser, "Back to your seat at table", "the seat back, unasked", 30)
            await until(lambda: any(line.startswith("Ann is back") for line in bob.lines[mark:]),
                        "Bob told Ann is back", 30)
            page = await browser.evaluate(LINES)
            assert not any(line.startswith("What is your name") for line in page), page
            said = bob.lines[mark:]
            dropped = next(i for i, line in enumerate(said)
                           if line.startswith("Ann's connection dropped"))
            back = next(i for i, line in enumerate(said) if line.startswith("Ann is back"))
            assert dropped < back, said
            assert not [line for line in said if "Ann left" in line or "stand-in" in line], said
            # and Ann plays on from the new page: her questions are answered at her seat
            await _type(browser, "who")
            await _page_line(browser, "seat 1: bob", "Ann's who, after the reload")
            who = [line for line in await browser.evaluate(LINES) if line.startswith("seat 1")]
            assert "Ann, you" in who[-1], who
    finally:
        conn.close()
        reading.cancel()
        await serve.stop()
    assert "Traceback" not in serve.output
