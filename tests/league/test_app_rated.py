"""The app: after a rated game every seat sees its change in the table's log ("Rated:
Ann new, 1 of 10 games; ..."): a hot-seat game on this machine (its own league, the
hot-seat players rated by name), played by keys to its end."""

from __future__ import annotations

import pytest

from nuggets import odds
from tests.tui.harness import keys_for, log_text, make_app, until
from tui.games.nuggets.screen import NuggetsScreen

pytestmark = [pytest.mark.slow, pytest.mark.timeout(240)]


async def test_a_hotseat_game_ends_with_the_rated_line(tmp_path):
    seats = [("Ann", False), ("Bob", False)]
    app = make_app(tmp_path, start=("hotseat", seats),
                   table_options={"seed": "rated-1", "bot_pace": 0.0, "supply": 6})
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, NuggetsScreen), "the table opens")
        screen: NuggetsScreen = app.screen
        await until(pilot, lambda: screen.view is not None, "a first view")
        while not screen.view.over:
            await until(pilot, lambda: screen.acting_seat is not None or screen.view.over,
                        "a keyboard seat's turn, or the end")
            view = screen.view
            if view.over:
                break
            if view.phase in ("roll", "choose"):
                await pilot.press("enter")
            elif view.phase == "take":
                await pilot.press("t")
            else:
                best = odds.best_keep(view.rolled, view.kept)
                await pilot.press(*keys_for(view.rolled, best), "t")
            old = view
            await until(pilot, lambda old=old: screen.view is not old
                        and screen.view.phase != "choose", "the host answers")
        await until(pilot, lambda: "Rated: " in log_text(screen), "the rated line")
        rated = [line for line in log_text(screen).splitlines() if "Rated: " in line]
        assert len(rated) == 1
        assert "Ann new, 1 of 10 games" in rated[0] and "Bob new, 1 of 10 games" in rated[0]
