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

import re
import time

import pytest

from tests.serve.browser import (
    CHROMIUM,
    PHONE,
    REQUIRED,
    Browser,
)
from tests.serve.helpers import serving
from tests.serve.phone import (
    DIALOGS,
    BarWatch,
    Prober,
    Trail,
    changed,
    my_turn,
    sit_down,
    told,
    until_page,
)
from tests.serve.phone import tap as _tap

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(CHROMIUM is None and not REQUIRED,
                       reason="no chromium here (.ci/run installs it and requires it)"),
]


async def _lobby(prober: Prober, bots: int) -> None:
    """Every button of the owner's lobby, twice: Ready, Chat, Leave, Add bot, Remove
    bot; then the bots seated, Start."""
    browser = prober.browser
    for label in ("Ready", "Chat", "Leave", "Add bot"):
        await prober.double_tap(label)
        await prober.close_dialog()
    log = _chat_log(browser.text)
    assert "leaves the table" not in log, log  # Add bot's double never removed one
    await until_page(browser, lambda: "Remove bot" in browser.touch_bar(), "Remove bot")
    await prober.double_tap("Remove bot")
    await until_page(browser, lambda: "Add bot" in browser.touch_bar(), "Add bot back")
    log = _chat_log(browser.text)
    assert "sits down" in log and "leaves the table" in log, log
    while len(re.findall(r"\(bot\) +bot", browser.text)) < bots:
        await _tap(browser, "Add bot")
        await browser.settled()
    await until_page(browser, lambda: "Start" in browser.touch_bar(), "Start")
    await prober.double_tap("Start")


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
            await sit_down(browser, serve.web_port, "Fool's Gold at")
            await _lobby(prober, bots=2)
            await browser.wait_for(r"Round 1: collect a set")
            lobby = len(prober.probed)  # the game's probes come after
            done: set[tuple[frozenset, str]] = set()
            fixed = {"Draw", "Grab!", "Fool's Gold!", "Leave"}
            wanted = {"Draw", "Pass", "Grab!", "Leave"}
            deadline = time.monotonic() + 300
            while not wanted <= {_kind(b, b not in fixed) for _, b in prober.probed[lobby:]}:
                assert time.monotonic() < deadline, \
                    told(tmp_path, set(), prober, browser) + "\n".join(serve.lines[-30:])
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
                    await changed(browser, "a card comes")  # nothing to tap until then
                    continue
                before = browser.text
                await browser.tap_button(pick)
                prober.moved.append(pick)
                await browser.settled(before)
            kinds = {_kind(label, label not in fixed) for _, label in prober.probed[lobby:]}
            assert wanted <= kinds, told(tmp_path, kinds, prober, browser)
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
            await sit_down(browser, serve.web_port, "Gold Nuggets at")
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
                mine = my_turn(browser.text)
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
                    await changed(browser, "the bot's move")
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
