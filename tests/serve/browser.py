"""Headless Chromium driven over the DevTools protocol (a websocket), for the web door's
tests: Debian's ``chromium`` (``.ci/run`` installs it). One page; what its websocket
receives is read through pyte (the screen it shows), the HTTP answers it gets are kept
(``statuses``), and a device can be emulated (a phone at its pixel ratio, with touch).

A phone plays by tapping what the screen shows: ``touch_bar()`` reads the app's touch bar
(its big buttons, drawn in the terminal) from the screen, and ``tap_cell`` /
``tap_button`` / ``tap_text`` tap the page where a cell is drawn, as a thumb would."""

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
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import aiohttp
import pyte

from tests.waiting import until

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
# CI (.ci/run) installs Chromium and sets MOTHERLODE_REQUIRE_BROWSER: there a missing
# browser fails the run instead of skipping the tests that load the page for real.
REQUIRED = bool(os.environ.get("MOTHERLODE_REQUIRE_BROWSER"))

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run",
         "--remote-debugging-port=0"]


@dataclass(frozen=True)
class Device:
    """A screen to emulate: its CSS size, pixel ratio, and whether it is touched."""

    name: str
    width: int
    height: int
    scale: float = 1.0
    touch: bool = False


DESKTOP = Device("desktop", 1100, 760)
PHONE = Device("phone", 390, 844, 3.0, True)
PHONE_SIDEWAYS = Device("phone on its side", 844, 390, 3.0, True)
TABLET = Device("tablet", 820, 1180, 2.0, True)


class Browser:
    """Chromium with one page, driven over the DevTools protocol."""

    def __init__(self, proc, http, ws, size: tuple[int, int]) -> None:
        self.proc, self.http, self.ws = proc, http, ws
        self.ids = itertools.count(1)
        self.waiting: dict[int, asyncio.Future] = {}
        self.screen = pyte.Screen(*size)
        self.stream = pyte.ByteStream(self.screen)
        self.statuses: list[tuple[str, int]] = []  # (url, status) of every HTTP answer
        self.sockets: list[str] = []  # the websockets the page opened, by URL
        self.loads = 0  # pages loaded whole (Page.loadEventFired)
        #: when the page received the websocket's last message (the browser's clock, s)
        self.received_at = 0.0
        self._settled_on: str | None = None  # the screen settled() last saw settle
        self.reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        async for message in self.ws:
            data = json.loads(message.data)
            method = data.get("method")
            if "id" in data and data["id"] in self.waiting:
                self.waiting.pop(data["id"]).set_result(data)
            elif method == "Network.webSocketFrameReceived":
                frame = data["params"]["response"]
                self.received_at = data["params"]["timestamp"]
                if frame["opcode"] == 2:
                    self.stream.feed(base64.b64decode(frame["payloadData"]))
            elif method == "Network.responseReceived":
                response = data["params"]["response"]
                self.statuses.append((response["url"], int(response["status"])))
            elif method == "Network.webSocketCreated":
                self.sockets.append(data["params"]["url"])
                width, height = self.terminal_size()
                self.screen.resize(height, width)
                self.screen.reset()
            elif method == "Page.loadEventFired":
                self.loads += 1

    @property
    def text(self) -> str:
        return "\n".join(line.rstrip() for line in self.screen.display)

    @property
    def steady(self) -> str:
        """The text, what a screen redraws on its own taken out (``steady``)."""
        return steady(self.text)

    def fresh_screen(self) -> None:
        """A new page draws from scratch: forget the last one's screen."""
        self.screen.reset()

    async def wait_for(self, pattern: str, timeout: float = 40.0) -> float:
        start = time.monotonic()
        await until(lambda: re.search(pattern, self.text),
                    lambda: f"{pattern!r} in the page:\n{self.text}", timeout, step=0.05)
        return time.monotonic() - start

    @classmethod
    @contextlib.asynccontextmanager
    async def open(cls, profile: Path, device: Device = DESKTOP):
        assert CHROMIUM is not None
        flags = [*FLAGS, f"--window-size={device.width},{device.height}",
                 f"--force-device-scale-factor={device.scale:g}"]
        proc = await asyncio.create_subprocess_exec(
            CHROMIUM, *flags, f"--user-data-dir={profile}", "about:blank",
            stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL)
        try:
            port_file = profile / "DevToolsActivePort"
            await until(lambda: port_file.exists() and port_file.read_text().strip(),
                        "chromium starts", 30, step=0.1)
            port = int(port_file.read_text().split()[0])
            async with aiohttp.ClientSession() as http:
                async with http.get(f"http://127.0.0.1:{port}/json/list") as listing:
                    pages = [t for t in await listing.json() if t["type"] == "page"]
                async with http.ws_connect(pages[0]["webSocketDebuggerUrl"],
                                           max_msg_size=64 << 20) as ws:
                    # the screen the page's terminal will be: guessed big, resized later
                    browser = cls(proc, http, ws, (200, 60))
                    try:
                        await browser.call("Page.enable")
                        await browser.call("Network.enable")
                        if device is not DESKTOP:
                            await browser.emulate(device)
                        yield browser
                    finally:
                        browser.reader.cancel()
        finally:
            with contextlib.suppress(ProcessLookupError):
                proc.kill()
            await proc.wait()

    async def emulate(self, device: Device) -> None:
        await self.call("Emulation.setDeviceMetricsOverride", width=device.width,
                        height=device.height, deviceScaleFactor=device.scale,
                        mobile=device.touch)
        if device.touch:
            await self.call("Emulation.setTouchEmulationEnabled", enabled=True,
                            maxTouchPoints=5)
            await self.call("Emulation.setEmitTouchEventsForMouse", enabled=True)

    async def call(self, method: str, **params) -> dict:
        return await self.answer(await self.send(method, **params))

    async def send(self, method: str, **params) -> asyncio.Future:
        """Send a command without waiting for its answer (``answer`` waits): commands
        sent one after another reach the page in order, as a finger's touches do."""
        ident = next(self.ids)
        waiting = self.waiting[ident] = asyncio.get_running_loop().create_future()
        await self.ws.send_json({"id": ident, "method": method, "params": params})
        return waiting

    @staticmethod
    async def answer(waiting: asyncio.Future) -> dict:
        message = await asyncio.wait_for(waiting, 30)
        assert "error" not in message, message
        return message.get("result", {})

    async def evaluate(self, expression: str):
        result = await self.call("Runtime.evaluate", expression=expression,
                                 returnByValue=True)
        return result["result"].get("value")

    async def until(self, expression: str, what: str, timeout: float = 30.0):
        """Poll a JavaScript expression until it is truthy; returns its value."""
        return await until(lambda: self.evaluate(expression), f"in the page: {what}", timeout,
                           step=0.05)

    async def key(self, text: str, code: str, key_code: int) -> None:
        for kind in ("keyDown", "keyUp"):
            await self.call("Input.dispatchKeyEvent", type=kind, key=text, code=code,
                            windowsVirtualKeyCode=key_code, nativeVirtualKeyCode=key_code,
                            **({"text": "\r"} if kind == "keyDown" and text == "Enter" else {}))

    async def click(self, x: int, y: int) -> None:
        for kind in ("mousePressed", "mouseReleased"):
            await self.call("Input.dispatchMouseEvent", type=kind, x=x, y=y, button="left",
                            clickCount=1)

    async def tap(self, x: int, y: int) -> None:
        for waiting in await self.tap_sent(x, y):
            await self.answer(waiting)

    async def tap_sent(self, x: int, y: int) -> list[asyncio.Future]:
        """A tap's touches sent, their answers not waited for (``answer`` each)."""
        return [await self.send("Input.dispatchTouchEvent", type="touchStart",
                                touchPoints=[{"x": x, "y": y}]),
                await self.send("Input.dispatchTouchEvent", type="touchEnd",
                                touchPoints=[])]

    async def tap_cell(self, column: int, row: int) -> None:
        """Tap the middle of a cell of the page's terminal (the size it asked for)."""
        box = await self.evaluate(
            "(() => { const r = document.querySelector('#terminal .xterm-screen')"
            ".getBoundingClientRect(); return [r.x, r.y, r.width, r.height]; })()")
        columns, rows = self.terminal_size()
        x = box[0] + (column + 0.5) * box[2] / columns
        y = box[1] + (row + 0.5) * box[3] / rows
        await self.tap(round(x), round(y))

    async def tap_text(self, text: str) -> None:
        """Tap the first place the screen shows ``text`` (its middle)."""
        found = find_text(self.screen.display, text)
        assert found is not None, f"no {text!r} to tap in the page:\n{self.text}"
        await self.tap_cell(*found)

    def touch_bar(self) -> dict[str, tuple[int, int]]:
        """The touch bar's buttons shown now: label -> the cell in its middle."""
        return touch_bar(self.screen.display)

    async def tap_button(self, label: str) -> None:
        buttons = self.touch_bar()
        assert label in buttons, f"no {label!r} button in the page:\n{self.text}"
        await self.tap_cell(*buttons[label])

    def forget_settled(self) -> None:
        """The next ``settled()`` waits for a quiet page even if it shows what it
        showed when it last settled (a change and its undoing)."""
        self._settled_on = None

    async def settled(self, before: str | None = None, timeout: float = 30.0) -> None:
        """Wait until the screen is not ``before`` (the screen a tap was made on), its
        touch bar agrees with its footer (every button's words are a footer key's,
        and the footer names no key the bar lacks), and then it stays the same a
        while: the app draws a change in a few frames (the words, then the footer
        and the bar a frame or two later), and a tap on a bar not yet redrawn
        would land on the button that moves into its place. The while is 0.25 s,
        or twice what the tap took to show (a loaded machine draws slower). A
        countdown ticking (``steady``) is no change."""
        start = time.monotonic()
        quiet = 0.25
        if before is None and self.steady == self._settled_on:
            return  # nothing drawn since it last settled
        if before is not None:
            before = steady(before)
            await until(lambda: self.steady != before,
                        lambda: f"the page changes:\n{self.text}", timeout, step=0.02)
            quiet = min(2.0, max(quiet, 2 * (time.monotonic() - start)))
        shown: list = [None, 0.0]  # what the page showed, since when

        def still() -> bool:
            if not bar_matches_footer(self.screen.display):
                shown[0] = None
                return False
            if self.steady != shown[0]:
                shown[:] = [self.steady, time.monotonic()]
                return False
            return time.monotonic() - shown[1] >= quiet

        await until(still, lambda: f"the page settles:\n{self.text}",
                    max(0.0, timeout - (time.monotonic() - start)), step=0.02)
        self._settled_on = shown[0]

    async def screenshot(self, scale: float = 1.0) -> bytes:
        """The page as drawn (at the device's pixel ratio), or ``scale`` of that."""
        clip = {}
        if scale != 1.0:
            width, height = await self.evaluate("[window.innerWidth, window.innerHeight]")
            clip = {"clip": {"x": 0, "y": 0, "width": width, "height": height,
                             "scale": scale}}
        shot = await self.call("Page.captureScreenshot", format="png", **clip)
        return base64.b64decode(shot["data"])

    def terminal_size(self) -> tuple[int, int]:
        """The size the page's last websocket asked for (``?width=&height=``; a page
        without a terminal, the plain page, asks for none: 80x24)."""
        query = parse_qs(urlparse(self.sockets[-1]).query)
        return int(query.get("width", ["80"])[0]), int(query.get("height", ["24"])[0])


#: what a screen redraws on its own while nothing happens: Fool's Gold's call window
#: counting down ("(call window: 4.2 s)", its words maybe wrapped)
_TICKING = re.compile(r"(call\s+window:\s+)\d+\.\d(?=\s+s\))")


def steady(text: str) -> str:
    """``text`` with what ticks on its own masked: a page that shows only the countdown
    moving is settled (``Browser.settled``), and a tap is seen by what it changed."""
    return _TICKING.sub(r"\1#.#", text)


def find_text(lines: list[str], text: str) -> tuple[int, int] | None:
    """The (column, row) of the middle of the first ``text`` on the screen."""
    for row, line in enumerate(lines):
        column = line.find(text)
        if column >= 0:
            return column + len(text) // 2, row
    return None


def buttons_drawn(lines: list[str]) -> list[tuple[str, int, int, int]]:
    """The buttons drawn on the screen: words centred under a button's top edge (a run
    of ▔) with its bottom edge (▁) below, each (label, its left edge's column, its
    row, the column of the label's middle). (A text field's edges are drawn so too,
    but its words sit at the left.)"""
    found = []
    for row in range(1, len(lines) - 1):
        above, below = lines[row - 1], lines[row + 1]
        for word in re.finditer(r"\S+(?: \S+)*", lines[row]):
            column = word.start()
            if above[column:column + 1] != "▔" or below[column:column + 1] != "▁":
                continue
            left = column
            while left > 0 and above[left - 1] == "▔":
                left -= 1
            right = column
            while right + 1 < len(above) and above[right + 1] == "▔":
                right += 1
            middle = column + (len(word.group()) - 1) / 2
            if abs(middle - (left + right) / 2) <= 1:
                found.append((word.group(), left, row, column + len(word.group()) // 2))
    return found


def touch_bar(lines: list[str]) -> dict[str, tuple[int, int]]:
    """The buttons drawn on the screen: label -> the cell in its middle."""
    return {label: (middle, row) for label, _, row, middle in buttons_drawn(lines)}


#: the words of a footer that name keys, not what they do ("1-6", "enter", "?")
_KEY_WORD = re.compile(r"^(?:[a-z0-9?+=-]|\d-\d|enter|space|esc|tab|ctrl\+\w|f\d+)$")
#: lines, not words: a dialog's frame around its bar (box drawing and blocks)
_DRAWN = re.compile(r"^[\u2500-\u259f]+$")


def bar_matches_footer(lines: list[str]) -> bool:
    """The touch bar shows the footer's keys: each button's words are a footer key's
    ("Discard 3" of "1-6 Discard"), or begin with one ("Pass Owl" of "1-6 Pass"), or
    name what the screen shows above the bar (a card's name alone, "Rattlesnake");
    and the footer, its buttons' words taken out, has only key names left (and the
    app's ``? Keys``, which the bar leaves out). The footer is the lines just above
    the bar (a screen's bar lies at its very bottom), or under it. A dialog's buttons
    are in its box: whole once the box is drawn whole."""
    buttons = touch_bar(lines)
    if not buttons:
        return True  # no bar (yet): nothing to disagree
    tops = [row for row, line in enumerate(lines) if line.lstrip().startswith("╭")]
    if tops:  # a dialog: its box drawn whole, its buttons inside it
        return any(line.lstrip().startswith("╰") for line in lines[tops[-1]:])
    top = min(row for _, row in buttons.values()) - 1  # the bar's top edge
    last = max(row for _, row in buttons.values()) + 1  # the bar's bottom edge
    families: dict[str, str] = {}  # label -> the footer's words for it
    words = set()
    for label in buttons:
        family = re.sub(r" \d$", "", label)
        families[label] = family
        words |= set(family.split()) | {label.split()[0]}

    def footer_line(line: str) -> bool:
        return bool(line.strip()) and all(
            word in words or word == "Keys" or _KEY_WORD.match(word) or _DRAWN.match(word)
            for word in line.split())

    above = []
    row = top - 1
    while row >= 0 and not lines[row].strip():  # the bar's blank places above its buttons
        row -= 1
    # a footer's line: every word a button's or a key's, or its last line (the app's
    # "? Keys" ends it), whatever else it names (a key the bar lacks: a bar not yet
    # drawn, or a frame half drawn, the last screen's bar still under the new footer)
    while row >= 0 and (footer_line(lines[row]) or lines[row].rstrip().endswith("? Keys")):
        above.insert(0, lines[row])
        row -= 1
    footer = " ".join([*above, *lines[last + 1:]])
    shown = "\n".join(lines[:row + 1])
    found = set()
    for label, family in families.items():
        first = label.split()[0]
        if family in footer:
            found.add(family)
        elif first in footer:
            found.add(first)
        elif label not in shown:
            return False
    # the longest first ("Advisor", "Advised")
    for family in sorted(found, key=len, reverse=True):
        footer = footer.replace(family, " ")
    footer = footer.replace("Keys", " ")
    return all(_KEY_WORD.match(word) or _DRAWN.match(word) for word in footer.split())
