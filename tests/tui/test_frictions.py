"""Small frictions of issue 18: wide names keep the columns, a passing size is no reason
to complain, the served menu's footer fits, the web's name prompt is centered, and the
first run asks the player's name once."""

from __future__ import annotations

import json

import pytest
from rich.cells import cell_len

from net.client import Client
from net.host import Host
from tests.tui.harness import served_app, serving
from tui.app import MotherlodeApp
from tui.flows.window import SMALL_SETTLE
from tui.games.foolsgold.screen import FoolsGoldScreen
from tui.games.nuggets.screen import NuggetsScreen
from tui.screens.lobby import LobbyScreen
from tui.screens.menu import MenuScreen
from tui.screens.served import FirstNameScreen, NameScreen, ServedMenuScreen
from tui.settings import Settings

from .harness import make_app, until
from .helpers import foolsgold_view, footer_text, screen_text

WIDE = ["李小龍", "🦊🦊 Fox"]


def _column(line: str, word: str) -> int:
    """The terminal cell at which ``word`` starts in ``line``."""
    return cell_len(line[: line.index(word)])


async def test_wide_names_keep_the_lobby_in_columns(tmp_path):
    host = Host()
    await host.start(bind="127.0.0.1", port=0)
    host.create_table("Den", "nuggets", seats=4, bot_pace=0.0, seed="wide")
    clients = []
    try:
        app = make_app(tmp_path, start=("join", "127.0.0.1", host.port))
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
            for name in WIDE:
                clients.append(await Client.connect("127.0.0.1", host.port, name))
            await until(pilot, lambda: "Waiting for 李小龍, 🦊🦊 Fox" in screen_text(app), "both")
            lines = {name: next(line for line in screen_text(app).splitlines()
                                if line.startswith(f" {i + 1}. "))
                     for i, name in enumerate(["Ann", *WIDE])}
            columns = {_column(line, "not ready") for line in lines.values()}
            assert len(columns) == 1, lines
    finally:
        for client in clients:
            await client.close()
        await host.close()


async def test_wide_names_keep_the_card_table_in_columns(tmp_path):
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = FoolsGoldScreen(0, ["Ann", "李小龍李小龍李小龍李小龍", "🦊🦊🦊🦊🦊🦊🦊🦊", "Dee"])
        await app.push_screen(screen)
        screen.show_state(foolsgold_view(), [])
        await pilot.pause()
        rows = [line for line in screen_text(app).splitlines()
                if any(n in line for n in ("Ann", "李", "🦊", "Dee"))][:4]
        # the hand column (its count of 5 or 6) starts at the same cell on every row
        assert len({cell_len(row.split("│")[0].rstrip()) for row in rows}) == 1, rows


@pytest.mark.slow
async def test_a_passing_small_size_says_nothing_and_a_lasting_one_does(tmp_path):
    """The SSH door repaints a re-attached terminal by shrinking it a row for a moment:
    no "Make the window bigger" for that. A size that stays small is still said."""
    lan, directory = await serving(tmp_path)
    try:
        app = served_app(tmp_path, lan, directory)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, ServedMenuScreen), "the menu")
            await pilot.resize_terminal(80, 13)  # (below 40x14 every layout is too small)
            await pilot.resize_terminal(80, 24)  # as serve.ssh.child's repaint, 50 ms apart
            # the time is what is tested: a size that passed says nothing, even once the
            # time a small size must last to be said (SMALL_SETTLE) has gone by
            await pilot.pause(SMALL_SETTLE + 0.1)
            assert not [n for n in app._notifications if "bigger" in n.message]
            await pilot.resize_terminal(36, 12)  # a size that lasts is said
            await until(pilot, lambda: any("this one is 36x12" in n.message
                                           for n in app._notifications), "the warning")
            await pilot.resize_terminal(80, 24)  # and it goes once the size is right
            await pilot.pause()
            assert not [n for n in app._notifications if "bigger" in n.message]
    finally:
        await directory.close()
        await lan.close()


async def test_the_served_menu_footer_fits_80_columns(tmp_path):
    lan, directory = await serving(tmp_path)
    try:
        app = served_app(tmp_path, lan, directory)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, ServedMenuScreen), "the menu")
            footer = await footer_text(pilot)
            assert footer.rstrip().endswith("q Quit  ? Keys"), footer
            await pilot.press("question_mark")  # rules and settings are in the help
            await pilot.pause()
            assert "rules, settings" in screen_text(app)
    finally:
        await directory.close()
        await lan.close()


async def test_the_web_name_prompt_is_centered(tmp_path):
    lan, directory = await serving(tmp_path)
    try:
        app = served_app(tmp_path, lan, directory, name="Server", named=False)
        async with app.run_test(size=(100, 30)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, NameScreen), "the question")
            await pilot.pause()
            box = app.screen.query_one("#pick-box").region
            assert abs(box.x - (100 - box.right)) <= 1, box  # as much room left as right
            assert abs(box.y - (30 - box.bottom)) <= 2, box  # above as below
    finally:
        await directory.close()
        await lan.close()


def _first_run_app(tmp_path, start=("menu",)) -> MotherlodeApp:
    """An app as `motherlode` opens it: settings read from a file that may not exist."""
    path = tmp_path / "settings.json"
    return make_app(tmp_path, settings=Settings.load(path), settings_path=path, start=start)


async def test_the_first_run_asks_the_name_once_with_the_login_offered(tmp_path):
    app = _first_run_app(tmp_path)
    login = app.settings.name  # the OS login, cleaned
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, FirstNameScreen), "the question")
        field = app.screen.query_one("#name")
        assert field.value == login
        await pilot.press("ctrl+u", *"Zoë", "enter")
        await until(pilot, lambda: isinstance(app.screen, MenuScreen), "the menu")
    saved = json.loads((tmp_path / "settings.json").read_text(encoding="utf-8"))
    assert saved["name"] == "Zoë"
    again = _first_run_app(tmp_path)
    assert again.settings.name == "Zoë"
    async with again.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(again.screen, MenuScreen)  # not asked again


async def test_the_first_run_keeps_the_login_on_esc_and_then_opens_the_shortcut(tmp_path):
    app = _first_run_app(tmp_path, start=("solo", "nuggets", 1))
    login = app.settings.name
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, FirstNameScreen), "the question")
        assert "Keep this name" in await footer_text(pilot)
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, NuggetsScreen), "the game")
        await until(pilot, lambda: app.screen.view is not None, "a view")
        assert login in app.screen.view.players
    assert json.loads((tmp_path / "settings.json").read_text())["name"] == login


async def test_hotseat_and_a_given_name_are_not_asked(tmp_path):
    app = _first_run_app(tmp_path, start=("hotseat", [("Ann", False), ("Bob", False)]))
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, NuggetsScreen), "the game")
    assert not (tmp_path / "settings.json").exists()
    given = _first_run_app(tmp_path)
    given.settings.name, given.settings.named = "Cy", True  # what `--name Cy` does
    async with given.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(given.screen, MenuScreen)


async def test_served_mode_takes_the_name_from_the_door(tmp_path):
    lan, directory = await serving(tmp_path)
    try:
        start = ("served", "127.0.0.1", lan.port, str(directory.path), True)
        path = tmp_path / "door.json"
        app = make_app(tmp_path, settings=Settings.load(path), settings_path=path, start=start)
        assert not app.settings.named
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, ServedMenuScreen), "the menu")
            assert not isinstance(app.screen, FirstNameScreen)
    finally:
        await directory.close()
        await lan.close()


def test_wide_names_keep_the_stats_in_columns():
    from net.saves import Store
    from net.saves.cli import table_lines
    from net.saves.stats import INSERT, Tally

    store = Store.default("tables")
    names = ["Ann", *WIDE]
    tally = Tally(len(names))
    for what in ("turns", "gained", "busts", "steals"):
        tally.counts[what] = [3, 4, 5]
    store._commits.commit(lambda conn: conn.executemany(
        INSERT, tally.rows("game-1", "nuggets", [(n, "human") for n in names], [0], 0.0)))
    rows = store.stats()
    store.close()
    lines = [line for line in table_lines(rows) if any(n in line for n in names)]
    assert len(lines) == 3
    # every row's figures end at the same cell
    assert len({cell_len(line) for line in lines}) == 1, lines
