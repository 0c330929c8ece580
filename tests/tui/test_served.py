"""The app's served mode (what `motherlode serve` runs per session), with a real LAN
host and table directory in this process: the menu lists this host's tables, a new
table is owned by whoever started it, a second player joins or watches, and nothing of
the local menu (hosting, hot-seat, files) is reachable."""

from __future__ import annotations

import pytest

from tests.tui.harness import served_app, serving
from tui.flows.messages import FindGame, HostGame, OpenReplay
from tui.screens.lobby import LobbyScreen
from tui.screens.menu import MenuScreen
from tui.screens.served import NameScreen, ServedMenuScreen

from .harness import until
from .helpers import screen_text


@pytest.mark.slow
async def test_the_served_menu_lists_tables_and_a_new_one_is_yours(tmp_path):
    lan, directory = await serving(tmp_path)
    try:
        app = served_app(tmp_path, lan, directory)
        async with app.run_test(size=(100, 30)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, ServedMenuScreen), "the menu")
            await until(pilot, lambda: "Gold Nuggets at 'Main'" in screen_text(app), "tables")
            assert "You play as Ann" in screen_text(app)
            assert not any(isinstance(s, MenuScreen) for s in app.screen_stack)
            await pilot.press("o")  # the local menu's "host": nothing happens here
            await pilot.press("h")
            assert isinstance(app.screen, ServedMenuScreen)
            app.post_message(HostGame())
            app.post_message(OpenReplay("/etc/passwd"))
            app.post_message(FindGame())  # the LAN join form: any address, from the server
            await until(pilot, lambda: any("not available" in n.message
                                           for n in app._notifications), "a refusal")
            assert isinstance(app.screen, ServedMenuScreen)
            assert sum("not available" in n.message for n in app._notifications) == 3
            from tui.commands import GameCommands  # the palette (ctrl+p) offers none of them

            names = [name for name, _, _ in GameCommands(app.screen)._commands()]
            assert "Rules" in names
            assert not {"Host a LAN game", "Join a LAN game", "Replays"} & set(names)
            await pilot.press("f")  # a new Fool's Gold table
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "its lobby")
            await until(pilot, lambda: "owner: you" in screen_text(app), "owned by Ann")
            assert "Fool's Gold at Ann's table" in screen_text(app)
            assert [t.name for t in lan.host.tables.tables.values()] == ["Main", "Ann's table"]
            await pilot.press("q", "y")
            await until(pilot, lambda: isinstance(app.screen, ServedMenuScreen), "back")
    finally:
        await directory.close()
        await lan.close()


@pytest.mark.slow
async def test_a_second_player_joins_the_chosen_table_and_watches_a_started_one(tmp_path):
    lan, directory = await serving(tmp_path)
    table = lan.host.create_table("Dice", "nuggets", seats=2, bots=1)
    try:
        app = served_app(tmp_path, lan, directory, name="Bob")
        async with app.run_test(size=(100, 30)) as pilot:
            await until(pilot, lambda: "'Dice'" in screen_text(app), "the tables")
            await pilot.press("down", "enter")  # the second table: Dice
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "its lobby")
            await until(pilot, lambda: "Gold Nuggets at Dice" in screen_text(app), "Dice")
            assert table.seats[1].name == "Bob"
            await pilot.press("q", "y")
            await until(pilot, lambda: isinstance(app.screen, ServedMenuScreen), "back")
            lan.host.create_table("Busy", "nuggets", seats=2, bots=2)
            lan.host.start_game(lan.host.tables.find("Busy"))
            await until(pilot, lambda: "'Busy'" in screen_text(app), "the new table")
            app.screen.query_one("#menu").highlighted = 2
            await pilot.press("w")
            await until(pilot, lambda: "You are watching" in screen_text(app)
                        or "watching" in screen_text(app).lower(), "watching Busy")
    finally:
        await directory.close()
        await lan.close()


@pytest.mark.slow
async def test_the_web_asks_the_name_first(tmp_path):
    lan, directory = await serving(tmp_path)
    try:
        app = served_app(tmp_path, lan, directory, name="Server", named=False)
        async with app.run_test(size=(100, 30)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, NameScreen), "the question")
            await pilot.press("enter")  # nothing typed: asked again
            await until(pilot, lambda: "visible character" in screen_text(app), "again")
            await pilot.press(*"Zoe", "enter")
            await until(pilot, lambda: isinstance(app.screen, ServedMenuScreen), "the menu")
            await until(pilot, lambda: "You play as Zoe" in screen_text(app), "the name")
            await pilot.press("q")
            await until(pilot, lambda: app.return_code == 0, "quit ends the session")
    finally:
        await directory.close()
        await lan.close()
