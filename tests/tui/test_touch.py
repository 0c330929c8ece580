"""Issue 37, item 3 (the app's part): a phone's sizes get a layout, not the size notice,
and the touch bar plays a whole game by clicks alone (the real app, host and bots)."""

from __future__ import annotations

import pytest

from net.clock import FakeClock
from tui.games.foolsgold.screen import FoolsGoldScreen
from tui.games.nuggets.screen import NuggetsScreen
from tui.screens.menu import MenuScreen
from tui.widgets.touchbar import TouchBar

from .helpers import footer_text, screen_text
from .test_modes import log_text, make_app, until

PHONE = (42, 30)  # a 390 px phone upright
SIDEWAYS = (90, 18)  # the same phone on its side


def _bar(app) -> dict[str, str]:
    """The touch bar's buttons shown now: id -> label."""
    bars = [bar for bar in app.screen.query(TouchBar) if bar.has_class("-shown")]
    return {str(b.id): str(b.label) for bar in bars for b in bar.children}


async def _click(pilot, ident: str) -> None:
    await pilot.click(f"#{ident}")


@pytest.mark.timeout(240)  # a whole game against a bot
@pytest.mark.slow
@pytest.mark.parametrize("size", [PHONE, SIDEWAYS], ids=["42x30", "90x18"])
async def test_a_whole_gold_nuggets_game_by_touch_alone(tmp_path, monkeypatch, size):
    monkeypatch.setenv("MOTHERLODE_TOUCH", "1")  # as the web door runs the app
    app = make_app(tmp_path, start=("solo", "nuggets", 1),
                   table_options={"seed": "touch-1", "bot_pace": 0.0, "supply": 12})
    async with app.run_test(size=size) as pilot:
        await until(pilot, lambda: isinstance(app.screen, NuggetsScreen), "the table opens")
        screen: NuggetsScreen = app.screen
        await until(pilot, lambda: screen.view is not None, "a first view")
        text = screen_text(app)
        assert "needs a terminal" not in text
        assert "Supply ◆ 12" in text and "Ann 0" in text  # the scores
        rolled = False
        for _ in range(3000):
            if screen.view.over:
                break
            buttons = _bar(app)
            if "touch-advised" in buttons:  # the advisor's set-aside, then its play
                await _click(pilot, "touch-advised")
            elif "touch-roll" in buttons:
                await _click(pilot, "touch-roll")
                rolled = True
            else:
                await pilot.pause(0.002)
            if rolled and screen.view.rolled and screen.acting_seat == 0:
                # the dice, small where the big ones do not fit, are on screen
                shown = screen_text(app)
                assert any(f"[{m}]" in shown for m in "NL2345"), shown
        await until(pilot, lambda: screen.view.over, "the game ends")
        assert "Game over" in screen_text(app)
        # no play is left: the bar offers the footer's Advisor and Leave
        await until(pilot, lambda: set(_bar(app)) == {"touch-advisor", "touch-app-leave"},
                    "the bar of a game that is over")
        await _click(pilot, "touch-app-leave")
        await until(pilot, lambda: isinstance(app.screen, MenuScreen), "back at the menu")


@pytest.mark.timeout(240)  # a round on a fake clock: slow on a loaded machine
@pytest.mark.slow
@pytest.mark.parametrize("size", [PHONE, SIDEWAYS], ids=["42x30", "90x18"])
async def test_a_fools_gold_round_by_touch_alone(tmp_path, monkeypatch, size):
    monkeypatch.setenv("MOTHERLODE_TOUCH", "1")
    clock = FakeClock()
    app = make_app(tmp_path, start=("solo", "foolsgold", 2), host_clock=clock,
                   table_options={"seed": "cards-7", "bot_pace": 0.5})
    async with app.run_test(size=size) as pilot:
        await until(pilot, lambda: isinstance(app.screen, FoolsGoldScreen), "the table opens")
        screen: FoolsGoldScreen = app.screen
        await until(pilot, lambda: screen.view is not None and screen.view.hand, "the deal")
        text = screen_text(app)
        assert "needs a terminal" not in text
        # the hand, the piles and the scores are in sight
        first = screen.view.hand[0].name
        assert first in text and "Draw" in text and "Trash" in text and "pts" in text, text
        clicked: set[str] = set()
        clicked_n: list[str] = []
        for _ in range(4000):
            view = screen.view
            if view.settled or view.round_no > 1:
                break
            buttons = _bar(app)
            if view.grabbed:  # the race: call a bot's bluff, or grab a nugget
                order = ("touch-call", "touch-grab")
            elif len(clicked_n) < 12:  # keep the cards moving a while
                order = (*(f"touch-discard-{i}" for i in range(6)), "touch-draw")
            else:  # then grab first
                order = ("touch-grab",)
            pick = next((b for b in order if b in buttons), None)
            if pick is not None:
                await _click(pilot, pick)
                clicked.add(pick.rstrip("012345").rstrip("-"))
                clicked_n.append(pick)
            clock.advance(0.1)
            await pilot.pause(0.002)
        await until(pilot, lambda: screen.view.settled or screen.view.round_no > 1,
                    "the round settles")
        assert "Round settled" in log_text(screen)
        # the cards moved by taps, and the race was joined by one (a grab, or a call on
        # a bot's grab, whichever the bots' pace left open)
        assert {"touch-draw", "touch-discard"} <= clicked, clicked
        assert clicked & {"touch-grab", "touch-call"}, clicked


async def test_the_touch_bar_shows_the_footer_keys_and_toggles(tmp_path, monkeypatch):
    monkeypatch.delenv("MOTHERLODE_TOUCH", raising=False)
    app = make_app(tmp_path, start=("solo", "foolsgold", 2),
                   table_options={"seed": "cards-7", "bot_pace": 0.5})
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, FoolsGoldScreen), "the table opens")
        screen: FoolsGoldScreen = app.screen
        await until(pilot, lambda: screen.view is not None and screen.view.hand, "the deal")
        assert _bar(app) == {}  # in a terminal: no bar unless asked for
        app.toggle_touch()
        await pilot.pause()
        footer = await footer_text(pilot)
        labels = set(_bar(app).values())
        # the footer's keys of this screen, one button each (the discard: one a card)
        assert "Grab!" in labels and "Grab!" in footer and "Leave" in labels
        assert ("Draw" in labels) == ("d Draw" in footer)
        assert ("Discard 1" in labels) == ("1-6 Discard" in footer)
        app.toggle_touch()
        await pilot.pause()
        assert _bar(app) == {}
