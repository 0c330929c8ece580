"""The served menu's League (l): a served app shows the serve host's league, asked of
the serve process (``net.served``'s ``league``), not its own player's folder."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from net.saves import Store
from net.saves.db import FILE
from net.served import ServedError, league
from tests.tui.harness import served_app, serving, until
from tests.tui.helpers import screen_text
from tui.screens.league import LeagueScreen
from tui.screens.served import ServedMenuScreen

pytestmark = pytest.mark.timeout(60)

DB3 = Path(__file__).parent.parent / "saves" / "legacy" / "db3" / FILE


async def test_the_served_menu_shows_the_hosts_league(tmp_path):
    lan, directory = await serving(tmp_path)
    (tmp_path / "host").mkdir()
    shutil.copy(DB3, tmp_path / "host" / FILE)
    lan.host.store = store = Store(tmp_path / "host", "tables")
    try:
        lines, seasons = await league(directory.path, "nuggets")
        assert {x.name for x in lines} == {"Ann", "Bob", "Easy bot", "Normal bot", "Hard bot"}
        assert seasons == []
        with pytest.raises(ServedError, match="no season called 'Spring'"):
            await league(directory.path, None, "Spring")
        app = served_app(tmp_path, lan, directory)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, ServedMenuScreen), "the menu")
            await pilot.press("l")
            await until(pilot, lambda: isinstance(app.screen, LeagueScreen), "the league")
            await until(pilot, lambda: "5 rated players" in screen_text(app), "the standings")
            assert "Hard bot" in screen_text(app) and "new (4 of 10)" in screen_text(app)
            await pilot.press("escape")
            await until(pilot, lambda: isinstance(app.screen, ServedMenuScreen), "back")
    finally:
        await directory.close()
        await lan.close()
        store.close()
