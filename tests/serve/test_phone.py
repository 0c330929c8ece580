"""Issue 37: a phone is a seat. Headless Chromium emulates a 390x844 phone at DPR 3 with
touch (``tests/serve/browser.py``) and opens the web door of ``motherlode serve --web``
as the product starts it; the player plays by tapping the touch bar the app draws in
the terminal (the page turns it on for a touch screen by itself), and each test reads
the page's own terminal to know what happened. The only keys are the letters of the
player's name, typed at the name prompt (the phone's keyboard: no tap types a name).

With ``MOTHERLODE_SCREENSHOT_DIR`` set, the screenshots a test takes mid-game are kept
there (``docs/screenshots/web-phone-nuggets.png`` and ``web-phone-foolsgold.png``)."""

from __future__ import annotations

import re
import time

import pytest

from tests.serve.browser import CHROMIUM, PHONE, REQUIRED, Browser
from tests.serve.helpers import serving
from tests.serve.phone import (
    NAME,
    NOT_PASSES,
    hand_shown,
    my_turn,
    no_sideways_scroll,
    shoot,
    sit_down,
    until_page,
)
from tests.serve.phone import tap as _tap
from tests.waiting import until

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(CHROMIUM is None and not REQUIRED,
                       reason="no chromium here (.ci/run installs it and requires it)"),
]


async def _start_with_bots(browser: Browser, bots: int) -> None:
    for n in range(bots):
        await browser.settled()
        await _tap(browser, "Add bot")
        await browser.wait_for(rf"{n + 2}\. .+\(bot\) +bot")
    await browser.settled()
    await browser.tap_button("Start")


def _log(text: str) -> str:
    """The table's log on the screen (under its rule), its wrapped lines joined."""
    return " ".join(text.split("─" * 20)[-1].split())


def _my_last_play(text: str) -> str | None:
    """What the log says the player did last: a set-aside is followed by the roll,
    take or steal the same tap asked for (sent once the host has the set-aside)."""
    plays = re.findall(rf"{NAME} (rolled|set aside all seven dice: a bonus turn|"
                       r"set aside|took|stole|went bust)", _log(text))
    return plays[-1] if plays else None


def _turn_passed(text: str) -> bool:
    """The log shows another turn after the player's last take, steal or bust (the
    bot, at once with ``--bot-pace 0``, may have played it whole by now)."""
    log = _log(text)
    ends = list(re.finditer(rf"{NAME} (took|stole|went bust)", log))
    return bool(ends) and "'s turn" in log[ends[-1].end():]


@pytest.mark.timeout(600)  # a whole game; the bot at once (--bot-pace 0), taps at a person's
async def test_a_phone_plays_a_whole_gold_nuggets_game_by_taps(tmp_path):
    """A whole Gold Nuggets game against a bot, played by taps alone on a phone: the
    table joined from the menu, a bot added and the game started from the lobby's
    bar, every turn played with the bar's Advised (the advisor's set-aside, then its
    play) and Roll on; the page shows the game over, the scores whole, and Leave
    goes back to the lobby, which says the game is over once. The seed fixes the
    dice, so the game is the same every run."""
    # a supply of 25 (of 77): a whole game still, every kind of play in it, in a third
    # of the taps (the suite's time: a full supply took 87 s here)
    async with serving(tmp_path, "--web", "0", "--game", "nuggets", "--seed",
                       "phone-1", "--bot-pace", "0", "--set", "supply=25") as (serve, _):
        async with Browser.open(tmp_path / "profile", PHONE) as browser:
            await sit_down(browser, serve.web_port, "Gold Nuggets at")
            await _start_with_bots(browser, 1)
            taps = 0
            shot = False
            deadline = time.monotonic() + 500
            while "Game over" not in browser.text:
                assert time.monotonic() < deadline, f"the game never ended:\n{browser.text}"
                # the player's turn, and the bar offers a play (Roll on and Advised
                # are its first two buttons all turn long, never Leave), or the end
                await until_page(browser, lambda: "Game over" in browser.text
                             or my_turn(browser.text)
                             and {"Advised", "Roll on"} & set(browser.touch_bar()),
                             "a play to tap", timeout=120)
                buttons = browser.touch_bar()
                if "Game over" in browser.text:
                    break
                if not shot and taps >= 6 and "Take" in buttons:
                    # mid-game, dice rolled and a set-aside picked: what a phone shows
                    await shoot(browser, tmp_path, "web-phone-nuggets.png")
                    shot = True
                pick = "Advised" if "Advised" in buttons else "Roll on"
                await _tap(browser, pick)
                taps += 1
                # a play is whole once the log has its roll, take or steal; after a
                # take, a steal or a bust the banner moves on (or a bonus turn is
                # said) before the bar is read again
                await until_page(browser, lambda: _my_last_play(browser.text) != "set aside",
                             "the play after the set-aside")
                if _my_last_play(browser.text) in ("took", "stole", "went bust"):
                    await until_page(browser, lambda: not my_turn(browser.text)
                                 or _turn_passed(browser.text)
                                 or "Game over" in browser.text
                                 or "bonus" in (_my_last_play(browser.text) or ""),
                                 "the turn over")
            await browser.wait_for(rf"Game over: ({NAME}|\S+ \(bot\)) won")
            assert shot
            # the scores at 40 columns: each player's name and nuggets on one line
            assert re.search(rf"{NAME} \d+", browser.text), browser.text
            assert re.search(r"\(bot\) \d+", browser.text), browser.text
            await serve.wait_for_line("game over, won by")
            # over: the same game again, or leave. Play again offers the rematch (issue
            # 61); the only other seat is a bot, so every person has said yes and the
            # same game starts at once, with the same seats
            await until_page(browser, lambda: set(browser.touch_bar()) == {
                "Advisor", "Play again", "React", "Leave"}, "the bar of a game that is over")
            await _tap(browser, "Play again")
            await until_page(browser, lambda: "Supply" in browser.text
                             and "Game over" not in browser.text
                             and "Hattie (bot)" in browser.text, "the same game again")
            await no_sideways_scroll(browser)
            print(f"Gold Nuggets by {taps} taps")


def _my_cards(text: str) -> tuple[int, int] | None:
    """The player's row of the seats table: (cards in hand, cards incoming)."""
    match = re.search(rf"^\W*{NAME} +(\d+) +(\d+) +-?\d+", text, re.MULTILINE)
    return (int(match[1]), int(match[2])) if match else None




@pytest.mark.timeout(300)
async def test_a_phone_plays_a_fools_gold_round_by_taps(tmp_path):
    """A Fool's Gold round against two bots, played by taps alone on a phone: the bar's
    Draw and its pass buttons, one a card ("Pass Owl"), keep the cards moving (the
    card passed is the one furthest from a set), then Grab! (or "Fool's Gold!" on a
    bot's grab) joins the race; the page shows the round over, and the status says
    whole what happens next. The bots play in real time, so each tap waits for its own
    effect on the screen (the hand one card more or less, the grab or call in the
    log)."""
    async with serving(tmp_path, "--web", "0", "--game", "foolsgold", "--seed",
                       "phone-2") as (serve, _):
        async with Browser.open(tmp_path / "profile", PHONE) as browser:
            await sit_down(browser, serve.web_port, "Fool's Gold at")
            await _start_with_bots(browser, 2)
            await browser.wait_for(r"Round 1: collect a set")
            moved: list[str] = []
            raced: list[str] = []
            shot = False
            over = "Round 1 over"
            deadline = time.monotonic() + 240
            while over not in browser.text:
                assert time.monotonic() < deadline, f"the round never ended:\n{browser.text}"
                await browser.settled()
                buttons = browser.touch_bar()
                calls = [b for b in buttons if "Fool" in b]
                discards = [b for b in buttons if b not in NOT_PASSES]
                cards = _my_cards(browser.text)
                if calls and not raced:  # a bot grabbed: call its bluff
                    pick = calls[0]
                elif len(moved) >= 12 and "Grab!" in buttons and not raced:
                    pick = "Grab!"
                elif discards and cards:
                    if not shot and len(moved) >= 4:
                        await shoot(browser, tmp_path, "web-phone-foolsgold.png")
                        shot = True
                    hand = hand_shown(browser.text)
                    worst = min(hand, key=lambda n: hand[n]).split()[-1] if hand else ""
                    pick = next((b for b in discards if worst and b.endswith(worst)),
                                discards[0])
                elif "Draw" in buttons and cards:
                    pick = "Draw"
                else:  # nothing to do until a card comes, or the race is run (the
                    # round may be over already: settled above, after the loop's check)
                    before = browser.steady
                    await until(lambda b=before: over in browser.text or browser.steady != b,
                                lambda: f"a card comes, or the race is run\n{browser.text}",
                                60, step=0.05)
                    continue
                await browser.tap_button(pick)
                if pick == "Draw" or pick in discards:
                    more = 1 if pick == "Draw" else -1
                    await until_page(browser, lambda c=cards, m=more: over in browser.text
                                 or "Leave the game?" in browser.text
                                 or (_my_cards(browser.text) or c)[0] == c[0] + m,
                                 f"{pick} shown")
                    moved.append(pick)
                else:
                    said = "grabbed" if pick == "Grab!" else "called"
                    await until_page(browser, lambda s=said: over in browser.text
                                 or "Leave the game?" in browser.text
                                 or f"{NAME} {s}" in _log(browser.text), f"{pick} shown")
                    raced.append(pick)
                if "Leave the game?" in browser.text:
                    # real time: a bot's grab changed the bar under the thumb, and the
                    # tap met Leave; a player taps "Stay at the table", and so does this
                    await browser.tap_text("Stay at the table")
                    await browser.wait_for("Round 1", timeout=30)
            # the status, wrapped at 40 columns, says whole what comes next (read before
            # the next round is dealt, 4 s on)
            whole = "match points under pts. The next round starts shortly."
            await until(lambda: whole in " ".join(browser.text.split()),
                        lambda: f"{whole!r}:\n{browser.text}", 3, step=0.05)
            await browser.wait_for(r"Round settled")
            assert shot
            assert "Draw" in moved and set(moved) - NOT_PASSES, moved
            assert raced, "the round's race was joined by a tap"
            await no_sideways_scroll(browser)
            print(f"Fool's Gold: moved {len(moved)}, raced {raced}")
