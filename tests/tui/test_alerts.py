"""Alerts (issue 61) in pieces: the ``alerts`` setting (bell by default; a value it does
not know is the default), saved from the Settings screen; what each game says needs
the person; and how an alert is given by the setting and the terminal's focus. The
same in a real terminal: ``tests/hardening/test_alerts_tmux.py``; in a browser:
``tests/serve/test_browser_alerts.py``; at the plain seat: ``tests/plain/``."""

from __future__ import annotations

import pytest

from net.games.foolsgold import views as fv
from net.games.nuggets import views as nv
from tests.tui.harness import make_app
from tui.alerts import alert, notification
from tui.plugin import game_of
from tui.screen_text import screen_text
from tui.screens.forms import SettingsScreen
from tui.settings import ALERTS, Settings


def test_the_setting_is_the_bell_by_default_and_keeps_only_its_values(tmp_path):
    assert Settings().alerts == "bell" and ALERTS == ("off", "bell", "desktop")
    assert Settings(alerts="loud").alerts == "bell"
    Settings(alerts="desktop").save(tmp_path / "s.json")
    assert Settings.load(tmp_path / "s.json").alerts == "desktop"


async def test_the_settings_screen_saves_alerts(tmp_path):
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("s")
        await pilot.pause()
        assert isinstance(app.screen, SettingsScreen)
        assert "Alerts when a game needs you" in screen_text(app)
        app.screen.query_one("#alerts").value = "off"
        await pilot.press("ctrl+s")
        await pilot.pause()
    assert Settings.load(tmp_path / "s.json").alerts == "off"


def test_each_game_says_what_needs_the_person():
    names = ["Ann", "Bob", "Cy"]
    nuggets, fools = game_of("nuggets"), game_of("foolsgold")
    assert nuggets.alert(nv.Turn(seat=0), [0], names) == "Your turn in Gold Nuggets."
    assert nuggets.alert(nv.Turn(seat=1), [0], names) is None
    assert nuggets.alert(nv.BonusTurn(seat=0), [0], names) == "Your turn in Gold Nuggets."
    stole = nv.Stole(seat=2, victim=0, amount=3, value=3)
    assert nuggets.alert(stole, [0], names) == "Cy stole 3 nuggets from you."
    assert nuggets.alert(stole, [1], names) is None
    first = fv.Grabbed(seat=1, at=1.0, order=1, nuggets_left=2)
    assert fools.alert(first, [0], names) == \
        "Race in Fool's Gold: Bob grabbed. Grab or call now!"
    assert fools.alert(first, [1], names) is None  # Bob's own grab
    assert fools.alert(fv.Grabbed(seat=2, at=1.2, order=2, nuggets_left=1), [0], names) is None


class Driver:
    def __init__(self) -> None:
        self.written: list[str] = []

    def write(self, data: str) -> None:
        self.written.append(data)


class App:
    """What ``alert`` reads of the app: its settings, bell, focus and terminal."""

    is_headless = False

    def __init__(self, alerts: str, focused: bool) -> None:
        self.settings = Settings(alerts=alerts)
        self.app_focus = focused
        self._driver = Driver()
        self.bells = 0

    def bell(self) -> None:
        self.bells += 1


@pytest.mark.parametrize(("alerts", "focused", "done", "bells", "written"), [
    ("off", False, "", 0, []),
    ("bell", False, "bell", 1, []),
    ("desktop", True, "bell", 1, []),
    ("desktop", False, "desktop", 1, [notification("Your turn")]),
])
def test_an_alert_by_the_setting_and_the_focus(alerts, focused, done, bells, written):
    app = App(alerts, focused)
    assert alert(app, "Your turn") == done
    assert app.bells == bells and app._driver.written == written


def test_a_notification_is_osc_777_and_osc_9_with_nothing_of_the_text_escaping():
    assert notification("Your turn") == ("\x1b]777;notify;Motherlode;Your turn\x07"
                                         "\x1b]9;Motherlode: Your turn\x07")
    assert notification("Bo\x07b;\x1b]2;x stole") == (
        "\x1b]777;notify;Motherlode;Bo b  ]2 x stole\x07\x1b]9;Motherlode: Bo b  ]2 x stole\x07")
