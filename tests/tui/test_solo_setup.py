"""Solo set-up as a first-timer meets it (issue 47): in "how many bots?" a digit seats
that many, and the bots' difficulty is offered there (d), kept in the settings."""

from __future__ import annotations

import pytest

from tui.screens.common import BotsPick
from tui.screens.menu import MenuScreen

from .helpers import screen_text
from .test_modes import make_app, until

pytestmark = pytest.mark.timeout(60)


async def test_three_seats_three_bots_and_d_offers_the_difficulty(tmp_path):
    app = make_app(tmp_path, table_options={"seed": "setup", "bot_pace": 0.0})
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, MenuScreen), "the menu")
        await pilot.press("f")  # Fool's Gold against bots
        await until(pilot, lambda: isinstance(app.screen, BotsPick), "how many bots")
        text = screen_text(app)
        assert "how many bots?" in text and "Bots: normal (d changes)" in text
        assert "1-7, or up/down and enter: choose" in text
        await pilot.press("d")
        await until(pilot, lambda: "Bots: hard (d changes)" in screen_text(app), "hard")
        assert app.settings.difficulty == "hard"
        await pilot.press("3")
        await until(pilot, lambda: app.session is not None and app.session.table is not None
                    and len(app.session.table.seats) == 4, "three bots and Ann")
        bots = [s for s in app.session.table.seats if s.kind == "bot"]
        assert len(bots) == 3 and app.session.table.settings.difficulty == "hard"


@pytest.mark.parametrize("size", [(80, 24), (60, 20)])
async def test_settings_show_save_and_back_whole(tmp_path, size):
    """Settings whole at 80x24 and 60x20 (issue 47): Save and Back on the screen, and
    an off box without the X that read as on."""
    from tui.screens.forms import SettingsScreen

    app = make_app(tmp_path)
    async with app.run_test(size=size) as pilot:
        await until(pilot, lambda: isinstance(app.screen, MenuScreen), "the menu")
        await pilot.press("s")
        await until(pilot, lambda: isinstance(app.screen, SettingsScreen), "settings")
        await pilot.pause()
        for button in ("#save", "#back"):
            region = app.screen.query_one(button).region
            assert region.height >= 1 and region.bottom <= size[1] - 1, (button, region)
        assert "▐X▌ ASCII mode" not in screen_text(app) and "ASCII mode" in screen_text(app)
