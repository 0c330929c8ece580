"""Solo set-up as a first-timer meets it (issue 47): in "how many bots?" a digit seats
that many, and the bots' difficulty is offered there (d), kept in the settings."""

from __future__ import annotations

import pytest

from tui.screens.common import BotsPick
from tui.screens.menu import MenuScreen

from .harness import make_app, until
from .helpers import screen_text

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
        # each level is said in words where it is chosen (issue 58, finding 8)
        assert "hard: quicker and sharper, a challenge" in screen_text(app)
        assert app.settings.difficulty == "hard"
        await pilot.press("3")
        # a first game of Fool's Gold: the guided first round is offered; 2 just plays
        await until(pilot, lambda: "Your first game of Fool's Gold" in screen_text(app),
                    "the guide offered")
        await pilot.press("2")
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


@pytest.mark.parametrize("game, letter", [("nuggets", "n"), ("foolsgold", "f")])
async def test_a_first_game_offers_a_guided_round_once(tmp_path, game, letter):
    """Issue 47: a person's first game of each, from the menu, offers a guided first
    round; taken, a Guide box says the step in front of them at the relaxed pace, and
    x ends it; the offer is made once (kept in the settings)."""
    from net.clock import FakeClock
    from tui.plugin import game_of
    from tui.screens.table import TableScreen
    from tui.widgets.guide import Guide

    app = make_app(tmp_path, host_clock=FakeClock(),
                   table_options={"seed": "guide", "bot_pace": 5.0, "first_player": 0})
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, MenuScreen), "the menu")
        await pilot.press(letter)
        await until(pilot, lambda: isinstance(app.screen, BotsPick), "how many bots")
        await pilot.press("1")
        await until(pilot, lambda: "Your first game of" in screen_text(app), "the offer")
        assert "A guided first round" in screen_text(app)
        await pilot.press("1")
        await until(pilot, lambda: isinstance(app.screen, TableScreen)
                    and app.screen.query(Guide), "the table and its guide")
        screen = app.screen
        assert app.session.table.settings.pace == "relaxed"
        assert app.settings.guided == [game]
        box = screen.query_one(Guide)
        def on_screen() -> bool:  # the words whole, inside the box's border
            shown = " ".join(screen_text(app).replace("│", " ").split())
            return bool(box.text) and " ".join(box.text.split()) in shown

        await until(pilot, on_screen, "the guide's words on the screen")
        footer = screen_text(app).splitlines()[-1]
        assert "x End guide" in footer
        await pilot.press("x")
        await until(pilot, lambda: not screen.query(Guide), "the guide ended")
        assert "End guide" not in screen_text(app).splitlines()[-1]
        assert game_of(game).guide() is not None
        await pilot.press("q")
        await until(pilot, lambda: "Leave this game?" in screen_text(app), "asked")
        await pilot.press("y")
        await until(pilot, lambda: isinstance(app.screen, MenuScreen), "back at the menu")
        # the second time: no offer, straight to the table at the normal pace
        await pilot.press(letter)
        await until(pilot, lambda: isinstance(app.screen, BotsPick), "how many bots")
        await pilot.press("1")
        await until(pilot, lambda: isinstance(app.screen, TableScreen), "the table")
        assert not app.screen.query(Guide)
        assert app.session.table.settings.pace == "normal"


async def test_the_dice_guide_follows_each_step_and_ends_after_two_turns(tmp_path):
    """The guide's words follow the table (roll, pick, choose, the others' turns) and
    the box goes by itself once the person's second turn is over, saying so."""
    from tui.games.nuggets.screen import NuggetsScreen
    from tui.widgets.guide import Guide

    from .harness import log_text

    app = make_app(tmp_path, table_options={"seed": "guide-steps", "bot_pace": 0.2,
                                            "first_player": 0})
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, MenuScreen), "the menu")
        await pilot.press("n")
        await until(pilot, lambda: isinstance(app.screen, BotsPick), "how many bots")
        await pilot.press("1")
        await until(pilot, lambda: "Your first game of" in screen_text(app), "the offer")
        await pilot.press("1")
        await until(pilot, lambda: isinstance(app.screen, NuggetsScreen)
                    and app.screen.view is not None and app.screen.query(Guide), "guided")
        screen: NuggetsScreen = app.screen
        said: list[str] = []
        for _ in range(2000):
            boxes = screen.query(Guide)
            if not boxes:
                break
            text = boxes.first().text
            if text and (not said or said[-1] != text):
                said.append(text)
            if screen.acting_seat is None:  # the others' turns: what the guide says meanwhile
                await until(pilot, lambda t=text: screen.acting_seat is not None
                            or not screen.query(Guide) or screen.query(Guide).first().text != t,
                            "my turn, or the guide's next words", step=0.005)
                continue
            old = screen.view
            if old.phase == "roll":
                await pilot.press("enter")
            else:
                await pilot.press("space")
                await pilot.pause()
                if screen.view is old:
                    await pilot.press("space")
            await until(pilot, lambda old=old: screen.view is not old, "the host answers")
        assert not screen.query(Guide), "the guide never ended"
        joined = " | ".join(said)
        assert "Your turn. Press enter to roll all seven dice." in joined
        assert "Set aside at least one die" in joined
        assert "The others take their turns" in joined
        assert "The guided round is over" in log_text(screen)
        assert "End guide" not in screen_text(app).splitlines()[-1]
