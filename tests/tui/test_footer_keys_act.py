"""A footer shows only keys that act (issue 47 item 7): on every screen a first-timer
meets, each key the footer offers is pressed in a fresh app brought to that screen,
and something must happen (another screen, a change on this one, or the app ending).
Bots and the host run on a fake clock that the test does not advance, so nothing on a
table moves unless the key moved it."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Awaitable, Callable

import pytest

from net.clock import FakeClock
from tui.games.foolsgold.screen import FoolsGoldScreen
from tui.games.nuggets.screen import NuggetsScreen
from tui.screens.lobby import LobbyScreen
from tui.screens.menu import MenuScreen

from .harness import make_app, until
from .helpers import screen_text

pytestmark = [pytest.mark.timeout(240), pytest.mark.slow]

Reach = Callable[[object, object], Awaitable[None]]


def shown_keys(app) -> list[tuple[str, str]]:
    """(key, description) of every key the footer offers now."""
    return [(key, binding.description)
            for key, (_node, binding, enabled, _tip) in app.screen.active_bindings.items()
            if binding.show and enabled]


def state(app) -> tuple:
    return (app.is_running, len(app.screen_stack), type(app.screen).__name__,
            screen_text(app) if app.is_running else "")


async def each_key_acts(tmp_path, reach: Reach, **app_options) -> list[str]:
    """Bring a fresh app to the screen for each key its footer shows; press it."""
    fresh = iter(range(1000))

    def new_app():
        home = tmp_path / f"app{next(fresh)}"  # its own saves: no table left by the last
        home.mkdir()
        os.environ["MOTHERLODE_DATA_DIR"] = str(home / "data")  # put back by the fixture's
        return make_app(home, **app_options)

    app = new_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await reach(pilot, app)
        keys = shown_keys(app)
    assert keys, "the footer shows no key"
    silent = []
    for key, description in keys:
        app = new_app()
        async with app.run_test(size=(80, 24)) as pilot:
            await reach(pilot, app)
            await pilot.pause()
            before = state(app)
            await pilot.press(key)
            # a key that does something does it within half a second
            with contextlib.suppress(AssertionError):
                await until(pilot, lambda a=app, b=before: not a.is_running or state(a) != b,
                            f"{key} does something", deadline=0.5, step=0.01)
            if app.is_running and state(app) == before:
                silent.append(f"{key} {description}")
    assert not silent, f"shown, but pressing them did nothing: {silent}"
    return [f"{k} {d}" for k, d in keys]


async def at_menu(pilot, app) -> None:
    await until(pilot, lambda: isinstance(app.screen, MenuScreen), "the menu")


def opened_from_menu(key: str, needle: str) -> Reach:
    async def reach(pilot, app) -> None:
        await at_menu(pilot, app)
        await pilot.press(key)
        await until(pilot, lambda: needle in screen_text(app), needle)
    return reach


async def test_the_menu(tmp_path):
    keys = await each_key_acts(tmp_path, at_menu)
    assert "q Quit" in keys


@pytest.mark.parametrize("key, needle", [
    ("f", "how many bots?"),
    ("h", "hot-seat"),
    ("s", "Settings"),
    ("r", "Rules"),
    ("o", "Host which game?"),
    ("j", "Join"),
], ids=["bots", "hotseat", "settings", "rules", "host", "join"])
async def test_the_screens_the_menu_opens(tmp_path, key, needle):
    await each_key_acts(tmp_path, opened_from_menu(key, needle))


async def test_a_lan_lobby_as_its_owner(tmp_path):
    async def reach(pilot, app) -> None:
        await at_menu(pilot, app)
        await pilot.press("o")
        await until(pilot, lambda: "Host which game?" in screen_text(app), "the picker")
        await pilot.press("enter")
        await until(pilot, lambda: "Listen on" in screen_text(app), "where to listen")
        await pilot.press("ctrl+s")
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")

    keys = await each_key_acts(tmp_path, reach, lan_port=0, lan_bind="127.0.0.1",
                               announce=False)
    assert "b Add bot" in keys


def solo_table(game: str, screen_type: type, ready: Callable[[object], bool]) -> Reach:
    async def reach(pilot, app) -> None:
        await until(pilot, lambda: isinstance(app.screen, screen_type), "the table")
        await until(pilot, lambda: app.screen.view is not None and ready(app.screen.view),
                    "the moment")
    return reach


async def test_a_dice_table_at_the_start_of_my_turn(tmp_path):
    await each_key_acts(
        tmp_path, solo_table("nuggets", NuggetsScreen, lambda v: v.current == 0),
        start=("solo", "nuggets", 1), host_clock=FakeClock(),
        table_options={"seed": "footer-keys", "bot_pace": 5.0, "first_player": 0})


async def test_a_dice_table_after_a_roll(tmp_path):
    async def reach(pilot, app) -> None:
        await solo_table("nuggets", NuggetsScreen, lambda v: v.current == 0)(pilot, app)
        await pilot.press("enter")
        await until(pilot, lambda: app.screen.view.phase != "roll", "the roll")

    await each_key_acts(tmp_path, reach, start=("solo", "nuggets", 1),
                        host_clock=FakeClock(),
                        table_options={"seed": "footer-keys", "bot_pace": 5.0,
                                       "first_player": 0})


async def test_a_card_table(tmp_path):
    keys = await each_key_acts(
        tmp_path, solo_table("foolsgold", FoolsGoldScreen, lambda v: bool(v.hand)),
        start=("solo", "foolsgold", 2), host_clock=FakeClock(),
        table_options={"seed": "footer-keys", "bot_pace": 5.0})
    assert "g Grab!" in keys
