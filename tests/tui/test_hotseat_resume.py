"""Hot-seat dice games are saved as they are played: leave half-way, and the menu
offers "Resume"; the game goes on from the same position and finishes, and its record
is kept for replays."""

from __future__ import annotations

import pytest

from net import saves as persist
from nuggets import odds
from tui.games.nuggets.screen import NuggetsScreen
from tui.screens.common import PickScreen
from tui.screens.menu import MenuScreen

from .harness import keys_for, make_app, until
from .helpers import screen_text


async def _play(pilot, screen: NuggetsScreen, moves: int | None) -> int:
    """Play the keyboard's seats by keys: ``moves`` moves, or to the end."""
    done = 0
    while not screen.view.over and (moves is None or done < moves):
        await until(pilot, lambda: screen.acting_seat is not None or screen.view.over,
                    "a keyboard seat's turn, or the end")
        view = screen.view
        if view.over:
            break
        phase = view.phase
        if phase in ("roll", "choose"):
            await pilot.press("enter")
        elif phase == "take":
            await pilot.press("t")
        else:
            best = odds.best_keep(view.rolled, view.kept)
            await pilot.press(*keys_for(view.rolled, best))
            await pilot.press("t" if len(view.kept) + len(best) >= 4 else "enter")
        done += 1
        old = view
        # the host's answer; after a set-aside the screen sends its roll on (or take) by
        # itself once the set-aside is answered (a "choose" view, passed through): the
        # next key waits for that too, or it would land on the next roll
        await until(pilot, lambda old=old, kept=phase == "keep": screen.view is not old
                    and not (kept and screen.view.phase == "choose"), "the host answers")
    return done


@pytest.mark.slow
async def test_leave_half_way_resume_from_the_menu_and_finish(tmp_path):
    seats = [("Ann", False), ("Bob", False), ("Robo", True)]
    app = make_app(
        tmp_path,
        start=("hotseat", seats),
        table_options={"seed": "resume-1", "bot_pace": 0.0, "supply": 25},
    )
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, NuggetsScreen), "the table opens")
        screen = app.screen
        await until(pilot, lambda: screen.view is not None, "a first view")
        await _play(pilot, screen, 6)
        await until(pilot, lambda: screen.acting_seat is not None, "our turn")
        before = screen.view
        await pilot.press("q")
        assert "Resume it from the menu" in screen_text(app)
        await pilot.press("y")
        await until(pilot, lambda: isinstance(app.screen, MenuScreen), "the menu")
        await until(pilot, lambda: "Resume a saved hot-seat game" in screen_text(app), "Resume")
        # every choice shows at 80x24 with Resume among them: no hidden Quit
        menu = app.screen.query_one("#menu")
        # (the logo gives way to the name once Resume is listed: a layout later)
        await until(pilot, lambda: menu.max_scroll_y == 0, "every choice shown")
        assert "Quit" in screen_text(app)
        store = persist.Store.default("hotseat")
        assert len(store.unfinished()) == 1

        await pilot.press("u")
        await until(pilot, lambda: isinstance(app.screen, PickScreen), "the saved games")
        await until(pilot, lambda: "Ann, Bob" in screen_text(app), "the saved games drawn")
        assert "Gold Nuggets at" in screen_text(app)
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, NuggetsScreen), "the table again")
        resumed = app.screen
        await until(pilot, lambda: resumed.view is not None, "the saved position")
        assert resumed.my_seats == [0, 1]
        for key in ("holdings", "supply", "current", "phase", "kept", "rolled"):
            assert getattr(resumed.view, key) == getattr(before, key), key
        await _play(pilot, resumed, None)
        assert resumed.view.over
        await pilot.press("q")
        await until(pilot, lambda: isinstance(app.screen, MenuScreen), "the menu")
        assert "Resume a saved hot-seat game" not in screen_text(app)
    assert store.unfinished() == []
    records = store.kept()
    assert len(records) == 1
    record = store.load(records[0].id)
    assert record.status == "finished" and record.replay().over
