"""Issue 47, "Done when", the states ``test_phone_taps.py`` cannot count on reaching:
Fool's Gold's "Fool's Gold!" call (someone else grabbed, the phone may call) and both
games' game-over bars. The same phone, trail and checks (``Prober``, ``BarWatch`` and
``Trail`` from there): every button of each state tapped twice within 200 ms, and the
second tap never does a different thing than the first; the bar's places watched
frame by frame.

The call is made sure of by a second person at the table, Bob, a real client over
loopback through the host's protocol (``net.client.Client`` at the game port) who
grabs the moment each round is dealt: an instant bluff, so the phone's bar shows
"Fool's Gold!" every round. The games end fast: Fool's Gold at two seats, a match of
one round (``--set round_cap=1``, the house rule: the higher score wins, and the
phone's call of Bob's bluff leaves him the lower), Gold Nuggets with one nugget in the
supply against a bot at once (``--set supply=1 --bot-pace 0``). A game-over bar's
buttons but the advisor's leave the game (Play again and Leave, each back to the
table's lobby), so each is tapped at the end of a game of its own: the owner starts
the next from the lobby (from the menu, had Leave gone there)."""

from __future__ import annotations

import asyncio
import contextlib
import time

import pytest

from net import protocol as p
from net.client import Client, Disconnected
from net.games.foolsgold import moves as fm
from tests.serve.browser import CHROMIUM, PHONE, REQUIRED, Browser
from tests.serve.helpers import serving
from tests.serve.phone import (
    DIALOGS,
    BarWatch,
    Prober,
    Trail,
    changed,
    my_turn,
    screen_of,
    shoot,
    sit_down,
)
from tests.serve.phone import tap as _tap
from tests.serve.phone import told as _told
from tests.waiting import until

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(CHROMIUM is None and not REQUIRED,
                       reason="no chromium here (.ci/run installs it and requires it)"),
]

TABLE = "Camp"
CALL = "Fool's Gold!"


class Bob:
    """The second person: says ready in the lobby (and once a game is over), and grabs
    the moment each round is dealt (a bluff: no draw since the deal), once a round;
    never calls."""

    def __init__(self, client: Client) -> None:
        self.client = client
        self.grabbed: list[tuple[int, int]] = []  # (match, round) he grabbed in
        self.match = 0
        self.errors: list[p.Error] = []
        self.task = asyncio.create_task(self._play())

    @classmethod
    async def sit(cls, port: int) -> Bob:
        client = await Client.connect("127.0.0.1", port, "Bob", table=TABLE, reconnect=False)
        return cls(client)

    async def _play(self) -> None:
        async for message in self.client:
            if isinstance(message, p.TableUpdate) and message.table.phase != "playing":
                # the lobby, or a game over: ready for the next
                mine = next((s for s in message.table.seats if s.seat == self.client.seat),
                            None)
                if mine is not None and not mine.ready:
                    await self.client.send(p.Ready())
            elif isinstance(message, p.Started):
                self.match += 1
            elif isinstance(message, p.State) and message.seat == self.client.seat:
                view = message.view
                live = not (view.grabbed or view.settled or view.frozen) \
                    and view.winner is None
                if live and (self.match, view.round_no) not in self.grabbed:
                    self.grabbed.append((self.match, view.round_no))
                    await self.client.send(fm.GRAB())
            elif isinstance(message, p.Error):
                self.errors.append(message)
            elif isinstance(message, Disconnected):
                return

    async def close(self) -> None:
        self.task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self.task
        await self.client.close()


async def _to_the_table(prober: Prober) -> None:
    """From the lobby (or the menu, after a Leave) into the next game: the table
    joined again if need be, and Start tapped once everyone is ready; back once the
    game's table shows. A dialog the last double tap's second tap opened (it may show
    late: Leave twice at a game's end asks, in the lobby, whether to leave the table)
    is closed first, as a person would."""
    browser = prober.browser
    deadline = time.monotonic() + 60
    while screen_of(browser.text) in (None, "lobby"):
        assert time.monotonic() < deadline, f"never: the game's table\n{browser.text}"
        await browser.settled()
        if any(words in browser.text for words in DIALOGS):
            await prober.close_dialog()
        elif "owner:" not in browser.text and f"at '{TABLE}'" in browser.text:
            await browser.tap_text(f"at '{TABLE}'")
            await browser.wait_for("owner:")
        elif "Start" in browser.touch_bar():
            await _tap(browser, "Start")
            with contextlib.suppress(AssertionError):  # else: look again
                await until(lambda: screen_of(browser.text) not in (None, "lobby")
                            or any(words in browser.text for words in DIALOGS),
                            "the game's table, or a dialog", 10, step=0.05)
        else:
            await changed(browser, "Start comes (everyone ready)")


async def _next_bar(prober: Prober, deadline: float, told) -> tuple[str, set[str]] | None:
    """The settled page's text and its bar's buttons, within ``deadline`` (``told()``
    says why not); None if a dialog was open (closed now: look again)."""
    browser = prober.browser
    assert time.monotonic() < deadline, told()
    await browser.settled()
    if any(words in browser.text for words in DIALOGS):
        await prober.close_dialog()
        return None
    return browser.text, set(browser.touch_bar())


async def _probe_over(prober: Prober, over: set[str], done: set[str]) -> str:
    """The game-over bar shown: tap twice the first of its buttons not yet tapped;
    returns it."""
    browser = prober.browser
    buttons = set(browser.touch_bar())
    over |= buttons
    label = min(buttons - done, key=lambda b: (b in ("Play again", "Leave"), b))
    done.add(label)
    await prober.double_tap(label)
    await prober.close_dialog()
    return label


@pytest.mark.timeout(420)
async def test_a_phone_double_tap_never_does_two_things_at_a_call_or_a_match_over(
        tmp_path, monkeypatch):
    """Fool's Gold at two seats, the phone against Bob: each round Bob grabs at once,
    and the phone's bar shows "Fool's Gold!" (with Leave); both tapped twice in the
    first round (Leave's question answered by staying), the call single in the rest.
    Then the match over: each button of its bar tapped twice, one a match."""
    trail = Trail(tmp_path / "trail.jsonl")
    monkeypatch.setenv("MOTHERLODE_TOUCH_TRAIL", str(trail.path))
    # a long call window: the call state lasts while the phone taps Leave and stays;
    # a match of one round (the house rule's cap): the call decides it
    async with serving(tmp_path, "--web", "0", "--game", "foolsgold", "--name", TABLE,
                       "--seats", "2", "--seed", "calls-1",
                       "--set", "call_window=30", "--set", "round_cap=1") as (serve, _):
        async with Browser.open(tmp_path / "profile", PHONE) as browser:
            watch = BarWatch(browser)
            prober = Prober(browser, trail, watch)
            await sit_down(browser, serve.web_port, f"at '{TABLE}'")
            bob = await Bob.sit(serve.game_port)
            try:
                wanted = {CALL, "Leave"}  # the call state's; the game over's are added
                called: set[str] = set()  # the call state's buttons tapped twice
                over: set[str] = set()  # the game-over bar's buttons
                done: set[str] = set()  # ... tapped twice
                shots: list[str] = []
                calls = 0
                deadline = time.monotonic() + 330
                await _to_the_table(prober)
                while not (wanted <= called and over and over <= done):
                    seen = await _next_bar(prober, deadline, lambda: _told(
                        tmp_path, called | done, prober, browser)
                        + "\n".join(serve.lines[-30:]))
                    if seen is None:
                        continue
                    text, buttons = seen
                    if "wins the match" in text and "Play again" in buttons:
                        if "over" not in shots:
                            await shoot(browser, tmp_path, "phone-foolsgold-over.png")
                            shots.append("over")
                        await _probe_over(prober, over, done)
                    elif "owner:" in text or f"at '{TABLE}'" in text and "hand in" not in text:
                        await _to_the_table(prober)
                    elif CALL in buttons and not wanted <= called:
                        if "call" not in shots:
                            await shoot(browser, tmp_path, "phone-foolsgold-call.png")
                            shots.append("call")
                        label = min(buttons - called, key=lambda b: b == CALL)
                        await prober.double_tap(label)
                        await prober.close_dialog()
                        called.add(label)
                        calls += label == CALL
                    elif CALL in buttons:  # the call state already probed: call, once
                        before = browser.text
                        await browser.tap_button(CALL)
                        await browser.settled(before)
                        calls += 1
                    else:
                        await changed(browser, "Bob's grab, or the next round")
                assert {CALL, "Leave"} <= called
                assert {"Play again", "Leave"} <= over, over
                assert not bob.errors, bob.errors
                probed = {label for _, label in prober.probed}
                assert {CALL, "Leave", "Play again"} <= probed, probed
                wrong = watch.changed_within_memory()
                (tmp_path / "frames.txt").write_text("\n".join(
                    f"{at:.2f} {screen} {sorted(cells.items())}"
                    for at, screen, cells in watch.frames), encoding="utf-8")
                assert not wrong, "\n".join(wrong)
                print(f"Fool's Gold: {len(prober.probed)} double taps, {calls} calls, "
                      f"Bob grabbed in rounds {bob.grabbed}, over bar {sorted(over)}, "
                      f"gaps {min(prober.gaps):.3f}-{max(prober.gaps):.3f} s, "
                      f"{len(watch.frames)} bars watched")
            finally:
                await bob.close()


@pytest.mark.timeout(420)
async def test_a_phone_double_tap_never_does_two_things_at_a_gold_nuggets_game_over(
        tmp_path, monkeypatch):
    """Gold Nuggets against a bot at once, one nugget in the supply: the game played
    by single taps (Advised, Roll on) to its end, then each button of the game-over
    bar tapped twice (Advisor, which stays; Play again and Leave, one a game)."""
    trail = Trail(tmp_path / "trail.jsonl")
    monkeypatch.setenv("MOTHERLODE_TOUCH_TRAIL", str(trail.path))
    async with serving(tmp_path, "--web", "0", "--game", "nuggets", "--name", TABLE,
                       "--seed", "over-1", "--bot-pace", "0",
                       "--set", "supply=1") as (serve, _):
        async with Browser.open(tmp_path / "profile", PHONE) as browser:
            watch = BarWatch(browser)
            prober = Prober(browser, trail, watch)
            await sit_down(browser, serve.web_port, f"at '{TABLE}'")
            await _tap(browser, "Add bot")
            await browser.wait_for(r"2\. .+\(bot\) +bot")
            await _to_the_table(prober)
            over: set[str] = set()  # the game-over bar's buttons
            done: set[str] = set()  # ... tapped twice
            games = 1
            shot = False
            deadline = time.monotonic() + 330
            while not (over and over <= done):
                seen = await _next_bar(prober, deadline, lambda: _told(
                    tmp_path, done, prober, browser) + "\n".join(serve.lines[-30:]))
                if seen is None:
                    continue
                text, buttons = seen
                if "Game over" in text and "Play again" in buttons:
                    if not shot:
                        await shoot(browser, tmp_path, "phone-nuggets-over.png")
                        shot = True
                    await _probe_over(prober, over, done)
                elif "owner:" in text or f"at '{TABLE}'" in text and "Supply" not in text:
                    await _to_the_table(prober)
                    games += 1
                elif my_turn(text) and (pick := next(
                        (b for b in ("Advised", "Roll on", "Roll") if b in buttons), None)):
                    before = browser.text
                    await browser.tap_button(pick)
                    await browser.settled(before)
                else:
                    await changed(browser, "the bot's move")
            assert {"Play again", "Leave"} <= over, over
            assert games == len(over & {"Play again", "Leave"})  # one game a way out
            wrong = watch.changed_within_memory()
            assert not wrong, "\n".join(wrong)
            print(f"Gold Nuggets: {games} games, over bar {sorted(over)}, "
                  f"{len(prober.probed)} double taps, gaps "
                  f"{min(prober.gaps):.3f}-{max(prober.gaps):.3f} s, "
                  f"{len(watch.frames)} bars watched")
