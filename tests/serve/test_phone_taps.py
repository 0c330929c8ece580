"""Issue 47, "Done when": a phone's double taps. Headless Chromium emulates a 390x844
phone with touch (``tests/serve/browser.py``) at the web door of ``motherlode serve``,
and taps every button of the touch bar twice within 200 ms, in each state of the lobby
and of both games that the play reaches: the second tap never does a different thing
than the first. (Fool's Gold's call, which a bot's grab may or may not bring, and both
games' game-over bars are made sure of in ``test_phone_taps_end.py``.) What a tap did
is read from the app's own trail of taps (``MOTHERLODE_TOUCH_TRAIL``: the button it
ran, or that it ignored the tap), and what the screen showed from the page's terminal.

And the bar as the page draws it is watched frame by frame (``BarWatch``): a button
keeps its place while it exists (before and after every state change), and no place
shows a different button within two seconds of its last one, on one screen.

The waits are on what the page shows and what the trail says, bounded by deadlines;
no sleep stands for a wait (the one sleep is the gap between the two taps)."""

from __future__ import annotations

import asyncio
import json
import re
import time
from pathlib import Path

import pytest

from tests.serve.browser import (
    CHROMIUM,
    PHONE,
    REQUIRED,
    Browser,
    bar_matches_footer,
    buttons_drawn,
)
from tests.serve.test_phone import _my_turn, _sit_down, _tap, _until
from tests.serve.test_ssh import serving
from tui.widgets.touchbar import TAP_GUARD

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(CHROMIUM is None and not REQUIRED,
                       reason="no chromium here (.ci/run installs it and requires it)"),
]

#: the words of each dialog a tap may open (closed by ``Prober.close_dialog``)
DIALOGS = ("Say something", "Leave the game?", "Leave this table?", "Leave and close",
           "from whom?")
MEMORY = 2.0  # seconds no place of the bar shows a different button after its last
GAPS = (0.03, 0.07, 0.11)  # the second tap's delay, in turn (the spec: within 200 ms)
#: a frame the page had for less than this before more bytes came is the first part of
#: a redraw, never seen whole (the page draws at most 60 frames a second)
TORN = 0.01


def bar_cells(lines: list[str]) -> dict[tuple[int, int], str]:
    """The buttons drawn: (left edge column, row of the words) -> the words."""
    return {(left, row): label for label, left, row, _ in buttons_drawn(lines)}


def screen_of(text: str) -> str | None:
    """Which screen the page shows: the lobby, a game's table, or another (a menu)."""
    if "hand in pts" in text:
        return "foolsgold"
    if "Supply" in text:
        return "nuggets"
    if "owner:" in text:
        return "lobby"
    return None


class BarWatch:
    """Every frame the page draws, the touch bar's buttons in their places, kept for
    the frames whose bar agrees with the footer and that the page shows a while
    (:data:`TORN`): a frame half drawn is left out, one whose rest is still on its
    way too (a screen's redraw that came in two of the websocket's messages, the new
    screen's top over the old one's bar)."""

    def __init__(self, browser: Browser) -> None:
        self.browser = browser
        self.frames: list[tuple[float, str, dict[tuple[int, int], str]]] = []
        self.pending: tuple[float, str, dict[tuple[int, int], str]] | None = None
        stream = browser.stream
        feed = stream.feed

        def watched(data: bytes) -> None:
            at = browser.received_at  # when the page had these bytes (its clock)
            if self.pending is not None and at - self.pending[0] >= TORN:
                self.frames.append(self.pending)  # the last frame stood: kept
            self.pending = None
            feed(data)
            self.look(at)

        stream.feed = watched  # type: ignore[method-assign]

    def look(self, at: float) -> None:
        lines = self.browser.screen.display
        text = "\n".join(lines)
        screen = screen_of(text)
        if screen is None or not bar_matches_footer(lines):
            return
        cells = bar_cells(lines)
        if cells and (not self.frames or self.frames[-1][1:] != (screen, cells)):
            self.pending = (at, screen, cells)

    def changed_within_memory(self) -> list[str]:
        """Each place that showed a button, then a different one, within the memory
        (on one screen: a new screen's bar is a bar of its own)."""
        seen: dict[tuple[str, tuple[int, int]], tuple[str, float]] = {}
        wrong = []
        frames = self.frames + ([self.pending] if self.pending is not None else [])
        for at, screen, cells in frames:
            for place, label in cells.items():
                last = seen.get((screen, place))
                if last is not None and last[0] != label and at - last[1] < MEMORY:
                    wrong.append(f"{screen} {place}: {last[0]!r} then {label!r} "
                                 f"{at - last[1]:.2f} s later")
                seen[(screen, place)] = (label, at)
        return wrong


class Trail:
    """The app's trail of taps (one JSON line each: the button, and whether it ran)."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def read(self) -> list[dict]:
        if not self.path.exists():
            return []
        lines = self.path.read_text(encoding="utf-8").splitlines()
        return [json.loads(line) for line in lines if line.endswith("}")]


class Prober:
    """Double taps on a phone, each checked against the trail and the screen."""

    def __init__(self, browser: Browser, trail: Trail, watch: BarWatch) -> None:
        self.browser, self.trail, self.watch = browser, trail, watch
        self.probed: list[tuple[str, str]] = []  # (state, button)
        self.gaps: list[float] = []
        self.moved: list[str] = []

    async def double_tap(self, label: str) -> list[dict]:
        """Tap ``label`` twice, ``GAPS`` apart in turn; returns what the taps ran."""
        browser = self.browser
        await browser.settled()
        before = bar_cells(browser.screen.display)
        screen_before = screen_of(browser.text)
        state = " | ".join(sorted(before.values()))
        buttons = browser.touch_bar()
        assert label in buttons, f"no {label!r} to tap:\n{browser.text}"
        column, row = buttons[label]
        box = await browser.evaluate(
            "(() => { const r = document.querySelector('#terminal .xterm-screen')"
            ".getBoundingClientRect(); return [r.x, r.y, r.width, r.height]; })()")
        columns, rows = browser.terminal_size()
        x = round(box[0] + (column + 0.5) * box[2] / columns)
        y = round(box[1] + (row + 0.5) * box[3] / rows)
        count = len(self.trail.read())
        shown = browser.steady  # a countdown's ticks are no sign of the tap
        gap = GAPS[len(self.gaps) % len(GAPS)]
        first = time.monotonic()
        await browser.tap(x, y)
        # the finger's own gap from the first touch (the first tap's round trips to
        # the browser count in it): the one sleep here
        await asyncio.sleep(max(0.0, first + gap - time.monotonic()))
        second = time.monotonic()
        await browser.tap(x, y)
        self.gaps.append(second - first)
        assert second - first < 0.2, f"the taps were {second - first:.3f} s apart"
        # the first tap reached the app, and the page shows what it did (or both taps
        # ran, and the second undid the first: Ready twice is not ready again)
        deadline = time.monotonic() + 30
        while True:
            taps = self.trail.read()[count:]
            if taps and (browser.steady != shown or sum(t["ran"] for t in taps) >= 2):
                break
            assert time.monotonic() < deadline, \
                f"the tap on {label!r} never showed:\n{taps}\n{browser.text}"
            await asyncio.sleep(0.02)
        browser.forget_settled()  # settled once more: the page quiet a while
        await browser.settled()
        taps = self.trail.read()[count:]
        ran = [t for t in taps if t["ran"]]
        assert ran and ran[0]["label"] == label, (label, taps)
        # the second tap: the same button again, or nothing (a blank place, a button
        # still in its press, a place that just changed hands)
        assert all((t["action"], t["label"]) == (ran[0]["action"], label) for t in ran), \
            (label, taps)
        self.probed.append((state, label))
        after = bar_cells(browser.screen.display)
        if screen_of(browser.text) == screen_before:  # a new screen's bar is its own
            self._kept_places(before, after)
        return ran

    def _kept_places(self, before: dict, after: dict) -> None:
        """A button in the bar before and after the change is where it was."""
        where = {label: place for place, label in before.items()}
        for place, label in after.items():
            if label in where:
                assert where[label] == place, (label, where[label], place, before, after)

    async def close_dialog(self) -> None:
        """A dialog the probe opened (chat, leave): closed by a tap, as a person would,
        and tapped again if it is still there a while later, as a person would too (a
        tap within ``TAP_GUARD`` of the double tap, in the same place, is ignored by
        design)."""
        browser = self.browser
        deadline = time.monotonic() + 60
        while any(words in browser.text for words in DIALOGS):
            assert time.monotonic() < deadline, f"never: the dialog closed\n{browser.text}"
            text = browser.text
            before = text
            if "Say something to the table" in text or "from whom?" in text:
                await browser.tap_button("Cancel")
            elif "Leave the game?" in text:
                await browser.tap_text("Stay at the table")
            elif "Leave this table?" in text or "Leave and close" in text:
                await browser.tap_button("No")
            again = time.monotonic() + max(2.0, 4 * TAP_GUARD)
            while browser.text == before and time.monotonic() < again:
                await asyncio.sleep(0.05)
            await browser.settled()


async def _lobby(prober: Prober, bots: int) -> None:
    """Every button of the owner's lobby, twice: Ready, Chat, Leave, Add bot, Remove
    bot; then the bots seated, Start."""
    browser = prober.browser
    for label in ("Ready", "Chat", "Leave", "Add bot"):
        await prober.double_tap(label)
        await prober.close_dialog()
    log = _chat_log(browser.text)
    assert "leaves the table" not in log, log  # Add bot's double never removed one
    await _until(browser, lambda: "Remove bot" in browser.touch_bar(), "Remove bot")
    await prober.double_tap("Remove bot")
    await _until(browser, lambda: "Add bot" in browser.touch_bar(), "Add bot back")
    log = _chat_log(browser.text)
    assert "sits down" in log and "leaves the table" in log, log
    while len(re.findall(r"\(bot\) +bot", browser.text)) < bots:
        await _tap(browser, "Add bot")
        await browser.settled()
    await _until(browser, lambda: "Start" in browser.touch_bar(), "Start")
    await prober.double_tap("Start")


def _told(tmp_path: Path, kinds: set, prober: Prober, browser: Browser) -> str:
    """What the probes did, for a failure's message (and kept in the test's folder)."""
    told = "\n".join([f"kinds {sorted(kinds)}", *(f"{s} -> {label}" for s, label in
                                                   prober.probed),
                       f"moved {prober.moved}", browser.text])
    (tmp_path / "probes.txt").write_text(told, encoding="utf-8")
    return told


def _chat_log(text: str) -> str:
    return " ".join(text.split())


def _kind(label: str, passes: bool) -> str:
    return "Pass" if passes else label


@pytest.mark.timeout(420)
async def test_a_phone_double_tap_never_does_two_things_in_fools_gold(tmp_path,
                                                                       monkeypatch):
    """The lobby, then a Fool's Gold round against two bots: each state's every
    button tapped twice (Draw; a pass, one a card; Grab!; Fool's Gold! if a bot's
    grab brings it, which ``test_phone_taps_end.py`` makes sure of; Leave, whose
    question is answered by staying), the cards kept moving by single taps in
    between."""
    trail = Trail(tmp_path / "trail.jsonl")
    monkeypatch.setenv("MOTHERLODE_TOUCH_TRAIL", str(trail.path))
    async with serving(tmp_path, "--web", "0", "--game", "foolsgold", "--seed",
                       "phone-2") as (serve, _):
        async with Browser.open(tmp_path / "profile", PHONE) as browser:
            watch = BarWatch(browser)
            prober = Prober(browser, trail, watch)
            await _sit_down(browser, serve.web_port, "Fool's Gold at")
            await _lobby(prober, bots=2)
            await browser.wait_for(r"Round 1: collect a set")
            lobby = len(prober.probed)  # the game's probes come after
            done: set[tuple[frozenset, str]] = set()
            fixed = {"Draw", "Grab!", "Fool's Gold!", "Leave"}
            wanted = {"Draw", "Pass", "Grab!", "Leave"}
            deadline = time.monotonic() + 300
            while not wanted <= {_kind(b, b not in fixed) for _, b in prober.probed[lobby:]}:
                assert time.monotonic() < deadline, \
                    _told(tmp_path, set(), prober, browser) + "\n".join(serve.lines[-30:])
                await browser.settled()
                if any(words in browser.text for words in DIALOGS):
                    await prober.close_dialog()  # a single tap met a new Leave
                    continue
                buttons = set(browser.touch_bar())
                kinds = {_kind(b, b not in fixed) for _, b in prober.probed[lobby:]}
                state = frozenset(_kind(b, b not in fixed) for b in buttons)
                # Grab! ends the round: tapped once the cards have moved both ways
                todo = [b for b in sorted(buttons)
                        if (state, _kind(b, b not in fixed)) not in done
                        and (b != "Grab!" or {"Draw", "Pass"} <= kinds)]
                if todo:
                    label = todo[0]
                    done.add((state, _kind(label, label not in fixed)))
                    await prober.double_tap(label)
                    await prober.close_dialog()
                    continue
                # every button of this state tapped twice: play on by single taps
                passes = sorted(buttons - fixed)
                pick = passes[0] if passes else "Draw" if "Draw" in buttons else None
                if pick is None:
                    await asyncio.sleep(0.05)  # nothing to tap until a card comes
                    continue
                before = browser.text
                await browser.tap_button(pick)
                prober.moved.append(pick)
                await browser.settled(before)
            kinds = {_kind(label, label not in fixed) for _, label in prober.probed[lobby:]}
            assert wanted <= kinds, _told(tmp_path, kinds, prober, browser)
            assert {"Add bot", "Remove bot", "Ready", "Chat", "Leave", "Start"} <= \
                {label for _, label in prober.probed[:lobby]}
            wrong = watch.changed_within_memory()
            assert not wrong, "\n".join(wrong)
            assert {screen for _, screen, _ in watch.frames} == {"lobby", "foolsgold"}
            print(f"Fool's Gold: {len(prober.probed)} double taps, gaps "
                  f"{min(prober.gaps):.3f}-{max(prober.gaps):.3f} s, "
                  f"{len(watch.frames)} bars watched")


@pytest.mark.timeout(420)
async def test_a_phone_double_tap_never_does_two_things_in_gold_nuggets(tmp_path,
                                                                         monkeypatch):
    """The lobby, then Gold Nuggets against a bot (at once, ``--bot-pace 0``): each
    state's every button tapped twice over three of the player's turns (Roll on,
    Advised, Take, Advisor, Leave...), Leave's question answered by staying."""
    trail = Trail(tmp_path / "trail.jsonl")
    monkeypatch.setenv("MOTHERLODE_TOUCH_TRAIL", str(trail.path))
    async with serving(tmp_path, "--web", "0", "--game", "nuggets", "--seed", "taps-2",
                       "--bot-pace", "0") as (serve, _):
        async with Browser.open(tmp_path / "profile", PHONE) as browser:
            watch = BarWatch(browser)
            prober = Prober(browser, trail, watch)
            await _sit_down(browser, serve.web_port, "Gold Nuggets at")
            await _lobby(prober, bots=1)
            await browser.wait_for("Supply")
            done: set[tuple[frozenset, str]] = set()
            turns = 0
            was_mine = False
            deadline = time.monotonic() + 240
            while turns < 4 and "Game over" not in browser.text:
                assert time.monotonic() < deadline, f"never three turns:\n{browser.text}"
                await browser.settled()
                if any(words in browser.text for words in DIALOGS):
                    await prober.close_dialog()
                    continue
                mine = _my_turn(browser.text)
                if mine and not was_mine:
                    turns += 1
                was_mine = mine
                buttons = set(browser.touch_bar())
                state = frozenset(buttons)
                todo = [b for b in sorted(buttons) if (state, b) not in done]
                if todo:
                    label = todo[0]
                    done.add((state, label))
                    await prober.double_tap(label)
                    await prober.close_dialog()
                    continue
                pick = next((b for b in ("Advised", "Roll on", "Roll") if b in buttons), None)
                if pick is None:  # the bot's turn
                    await asyncio.sleep(0.05)
                    continue
                before = browser.text
                await browser.tap_button(pick)
                await browser.settled(before)
            labels = {label for _, label in prober.probed}
            assert {"Ready", "Chat", "Leave", "Add bot", "Remove bot", "Start"} <= labels
            assert len(labels - {"Ready", "Chat", "Leave", "Add bot", "Remove bot",
                                 "Start"}) >= 2, labels  # the game's own buttons
            wrong = watch.changed_within_memory()
            assert not wrong, "\n".join(wrong)
            print(f"Gold Nuggets: {len(prober.probed)} double taps over {turns} turns, "
                  f"labels {sorted(labels)}, {len(watch.frames)} bars watched")
