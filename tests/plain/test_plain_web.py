"""The web door's plain page (``?plain=1``) in headless Chromium: a whole Gold Nuggets
game played by typing commands into its box, and every line of the seat read back
through the DevTools Accessibility domain, as a screen reader gets it: inside a live
region of role ``log`` (announced politely), each new event a node of its own."""

from __future__ import annotations

import asyncio
import json
import time

import pytest

from tests.plain.helpers import served
from tests.serve.browser import CHROMIUM, PHONE, REQUIRED, Browser
from tests.serve.helpers import ServeProcess
from tests.waiting import until

from .driver import answer

pytestmark = [pytest.mark.timeout(300),
              pytest.mark.skipif(CHROMIUM is None and not REQUIRED,
                                 reason="Chromium is not installed (.ci/run installs it)")]

#: the seat's lines (the page's echo of what was typed, ``p.typed``, left out)
LINES = "Array.from(document.querySelectorAll('#log p:not(.typed)'), p => p.textContent)"
#: every line of the log, the echoes of what was typed among them
EVERY = "Array.from(document.querySelectorAll('#log p'), p => p.textContent)"
#: the newest line's bottom and the command box's top, in the window
NEWEST = """(() => { const all = document.querySelectorAll('#log p');
  return [all[all.length - 1].getBoundingClientRect().bottom,
          document.getElementById('say').getBoundingClientRect().top,
          window.innerHeight]; })()"""


async def _log_in_the_tree(browser: Browser) -> tuple[dict, list[str]]:
    """The accessibility tree's live log: its node, and the text of each line in it."""
    tree = (await browser.call("Accessibility.getFullAXTree"))["nodes"]
    by_id = {node["nodeId"]: node for node in tree}
    logs = [n for n in tree if n.get("role", {}).get("value") == "log"]
    assert len(logs) == 1, [n.get("role") for n in tree][:40]
    node = logs[0]
    lines = []
    for child in node.get("childIds", []):
        paragraph = by_id.get(child)
        if paragraph is None or paragraph.get("ignored"):
            continue
        texts = [by_id[c].get("name", {}).get("value", "") for c in paragraph.get("childIds", [])
                 if c in by_id]
        lines.append(" ".join(t for t in texts if t) or paragraph.get("name", {}).get("value", ""))
    return node, lines


async def _type(browser: Browser, text: str) -> None:
    await browser.evaluate(
        f"(() => {{ const box = document.getElementById('command'); box.value = "
        f"{json.dumps(text)}; document.getElementById('say').requestSubmit(); }})()")


@pytest.mark.slow
async def test_a_whole_game_on_the_plain_page_read_through_the_accessibility_tree(tmp_path):
    serve = await ServeProcess.start(tmp_path / "serve", "--web", "0", "--game", "nuggets",
                                     "--seed", "plain-web", "--bot-pace", "0")
    try:
        async with Browser.open(tmp_path / "profile") as browser:
            await browser.call("Accessibility.enable")
            await browser.call("Page.navigate", url=f"http://127.0.0.1:{serve.web_port}/?plain=1")
            await browser.until(f"{LINES}.some(l => l.startsWith('What is your name'))",
                                "the name asked")
            node, _ = await _log_in_the_tree(browser)
            props = {p["name"]: p["value"]["value"] for p in node.get("properties", [])}
            assert props.get("live") == "polite", props
            await _type(browser, "Ann")
            await browser.until(f"{LINES}.some(l => l.startsWith(\"Type a table's number\"))",
                                "the tables")
            said = 0
            also = served([], "nuggets")  # a table of its own, a bot, ready, start
            deadline = time.monotonic() + 240
            while True:
                assert time.monotonic() < deadline, (await browser.evaluate(LINES))[-15:]
                lines = await browser.evaluate(LINES)
                fresh, said = lines[said:], len(lines)
                for line in fresh:
                    typed = also(line)
                    typed = answer(line) if typed is None else typed
                    if typed is not None and typed != "leave":
                        # a pace, not a wait: slower than the host's rate limit
                        await asyncio.sleep(0.06)
                        await _type(browser, typed)
                if any(line.startswith("Game over: ") for line in lines):
                    break
                await browser.until(f"{LINES}.length > {said}", "a new line", 60)
            # every line the page holds is in the tree, in order, inside the live log

            async def in_the_tree():
                lines = await browser.evaluate(EVERY)  # the echoes of what was typed too
                _, read = await _log_in_the_tree(browser)
                whole = read == lines[-len(read):] and len(read) >= min(len(lines), 50)
                return whole and (lines, read)

            lines, read = await until(in_the_tree, "every line in the tree", 10, step=0.05)
            assert any(line.startswith("Game over: ") for line in read)
            assert any(" rolled " in line for line in read)
    finally:
        await serve.stop()
    assert "Traceback" not in serve.output


@pytest.mark.slow
async def test_what_is_typed_is_in_the_log_and_the_newest_line_shows_above_the_box(tmp_path):
    """Issue 58, finding 7: each command typed is echoed in the log ("> help"), in
    order among the seat's lines; and on a short window whose log runs past the screen,
    the newest line is above the sticky command box, not under it."""
    serve = await ServeProcess.start(tmp_path / "serve", "--web", "0", "--game", "nuggets")
    try:
        async with Browser.open(tmp_path / "profile", PHONE) as browser:
            await browser.call("Page.navigate", url=f"http://127.0.0.1:{serve.web_port}/?plain=1")
            await browser.until(f"{LINES}.some(l => l.startsWith('What is your name'))",
                                "the name asked")
            await _type(browser, "Ann")
            await browser.until(f"{LINES}.some(l => l.startsWith(\"Type a table's number\"))",
                                "the tables")
            for _ in range(6):  # the log runs well past a short window
                count = len(await browser.evaluate(LINES))
                await _type(browser, "help")
                await browser.until(f"{LINES}.length > {count}", "help's answer")
            every = await browser.evaluate(EVERY)
            assert every.count("> help") == 6 and "> Ann" in every, every
            assert every.index("> Ann") < every.index("> help"), every
            bottom, box, window = await until(
                lambda: browser.evaluate(NEWEST), "the page laid out", 5, step=0.05)
            scrolled = await browser.evaluate("document.scrollingElement.scrollTop")
            assert scrolled > 0, "the log never ran past the window"
            assert bottom <= box + 1, (bottom, box, window)  # above the box, whole
    finally:
        await serve.stop()
    assert "Traceback" not in serve.output
