"""The League screen (l at the menu): this machine's standings, whole at 80x24 and
60x20, stepping through games and seasons (on the database main wrote before the
league, backfilled)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from net.league import ledger
from net.paths import data_dir
from net.saves import Store
from net.saves.db import FILE
from tests.tui.harness import make_app, until
from tests.tui.helpers import screen_text
from tui.screens.league import LeagueScreen
from tui.screens.menu import MenuScreen

pytestmark = pytest.mark.timeout(60)

DB3 = Path(__file__).parent.parent / "saves" / "legacy" / "db3" / FILE


@pytest.fixture
def league():
    shutil.copy(DB3, data_dir() / FILE)
    store = Store.default("tables")
    store.league_change(lambda c: ledger.start_season(c, "Winter 2026", 1.0))
    store.close()


@pytest.mark.parametrize("size", [(80, 24), (60, 20)])
async def test_the_league_screen_is_whole_and_steps_games_and_seasons(tmp_path, league, size):
    app = make_app(tmp_path)
    async with app.run_test(size=size) as pilot:
        await pilot.press("l")
        await until(pilot, lambda: isinstance(app.screen, LeagueScreen), "the league")
        text = screen_text(app)
        assert "League" in text and "Every game, all time: 5 rated players" in text
        for name in ("Ann", "Bob", "Easy bot", "Normal bot", "Hard bot"):
            assert name in text, name
        assert "new (4 of 10)" in text
        width = size[0]
        assert all(len(line.rstrip()) <= width for line in text.splitlines())
        assert ("last played" in text) == (width >= 80)
        await pilot.press("g")
        await until(pilot, lambda: "Gold Nuggets, all time: 5" in screen_text(app), "nuggets")
        await pilot.press("g")
        await until(pilot, lambda: "Fool's Gold, all time: no rated games" in screen_text(app),
                    "fool's gold")
        await pilot.press("s")
        await until(pilot, lambda: "Winter 2026: no rated games" in screen_text(app),
                    "the season")
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, MenuScreen), "the menu")
