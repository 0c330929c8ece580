"""Alerts at the web door in a real browser (issue 61): Wendy's tab is hidden (another
tab came to the front, as a person switches tabs) when her turn comes; the app rings
its bell and the page marks the tab's title; back in front, the title is the page's
own again. Headless Chromium over the DevTools protocol (``tests/serve/browser.py``);
the seed makes Wendy (seat 2) start, so her turn comes as the game starts."""

from __future__ import annotations

import asyncssh
import pytest

from tests.serve.browser import CHROMIUM, REQUIRED, Browser
from tests.serve.helpers import Player, ServeProcess

pytestmark = [
    pytest.mark.slow,
    pytest.mark.timeout(120),
    pytest.mark.skipif(CHROMIUM is None and not REQUIRED,
                       reason="no chromium here (.ci/run installs it and requires it)"),
]


async def test_the_title_changes_at_your_turn_while_the_page_is_hidden(tmp_path):
    serve = await ServeProcess.start(tmp_path / "data", "--game", "nuggets", "--seats", "2",
                                     "--seed", "web-alert-1", "--web", "0")
    bob = None
    try:
        bob = await Player.connect(serve.ssh_port, "bob", asyncssh.generate_private_key(
            "ssh-ed25519"), size=(100, 30))
        await bob.wait_for("Tables at this host", 30)
        bob.send(b"\r")
        await bob.wait_for(r"owner: you")
        async with Browser.open(tmp_path / "profile") as browser:
            await browser.call("Page.navigate", url=f"http://127.0.0.1:{serve.web_port}/")
            await browser.wait_for("Your name at the table")
            await browser.click(550, 380)
            await browser.call("Input.insertText", text="Wendy")
            await browser.wait_for("Wendy")
            await browser.key("Enter", "Enter", 13)
            await browser.wait_for("You play as Wendy")
            await browser.key("Enter", "Enter", 13)
            await bob.wait_for(r"2\. Wendy")
            await browser.call("Input.insertText", text="r")
            await bob.wait_for(r"2\. Wendy +ready")
            own = await browser.evaluate("document.title")
            assert "(!)" not in own
            front = await browser.call("Target.createTarget", url="about:blank")
            await browser.until("document.hidden", "Wendy's tab hidden")
            bob.send(b"r")  # the game starts: Wendy's turn
            await bob.wait_for("Wendy's turn")
            await browser.until("document.title.startsWith('(!) ')", "the title marked")
            assert await browser.evaluate("document.title") == f"(!) A game needs you - {own}"
            # back in front: the page's own title
            await browser.call("Target.closeTarget", targetId=front["targetId"])
            await browser.call("Page.bringToFront")
            await browser.until("!document.hidden", "Wendy's tab in front")
            await browser.until(f"document.title === {own!r}", "the title back")
    finally:
        if bob is not None:
            await bob.close()
        await serve.stop()
    assert "Traceback" not in serve.output
