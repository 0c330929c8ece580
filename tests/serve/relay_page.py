"""A browser at a friend's place, for ``tests/serve/test_via.py``: run inside the friends'
network namespace (``ip netns exec NS python -m tests.serve.relay_page URL NAME DIR``), it
opens URL in headless Chromium (``tests/serve/browser.py``; its DevTools socket is on
that namespace's loopback, so the browser is driven from inside), types NAME, joins the
highlighted table and waits for its lobby, then leaves the table (its seat free again).
It prints ``lobby after N s`` and exits 0, or
prints what the page showed and exits 1."""

from __future__ import annotations

import asyncio
import sys
import time
from pathlib import Path

from tests.serve.browser import Browser


async def reach_lobby(url: str, name: str, profile: Path) -> int:
    start = time.monotonic()
    async with Browser.open(profile) as browser:
        try:
            await browser.call("Page.navigate", url=url)
            await browser.wait_for("Your name at the table")
            await browser.click(550, 380)  # focus the terminal
            await browser.call("Input.insertText", text=name)
            await browser.wait_for(name)
            await browser.key("Enter", "Enter", 13)
            await browser.wait_for(f"You play as {name}")
            await browser.wait_for(r"Gold Nuggets at 'Gold Nuggets table'")
            await browser.key("Enter", "Enter", 13)  # join the highlighted table
            await browser.wait_for(rf"\. {name} +not ready +\(you\)")
            reached = time.monotonic() - start
            browser.fresh_screen()
            await browser.call("Input.insertText", text="q")  # leave: the seat is free
            await browser.wait_for("Leave this table")
            await browser.call("Input.insertText", text="y")
            await browser.wait_for(r"Gold Nuggets at 'Gold Nuggets table'")
        except AssertionError as error:
            print(error, flush=True)
            return 1
    print(f"lobby after {reached:.1f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(reach_lobby(sys.argv[1], sys.argv[2], Path(sys.argv[3]))))
