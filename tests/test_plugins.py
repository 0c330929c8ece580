"""A game is a typed object on each side, checked when the app first asks for it
(issue 59): an app side that is not a ``tui.plugin.AppGame``, that leaves a required
hook out, or that misspells a hook fails with a sentence naming the game and the hook,
never in silence; every optional hook has its default in the base."""

from __future__ import annotations

import dataclasses
import sys
import types

import pytest

from net import catalogue
from net.games.nuggets import SPEC as NUGGETS
from tui import plugin
from tui.plugin import AppGame, PluginError, check_all, game_of


@pytest.fixture
def fake_game():
    """A game registered under a fresh key whose app side is ``module.APP``."""
    module = types.ModuleType("fake_app_side")
    sys.modules[module.__name__] = module
    spec = dataclasses.replace(NUGGETS, key="fakegame", title="Fake Game", letter="z",
                               app="fake_app_side:APP", order=99)
    catalogue.register(spec)
    try:
        yield module
    finally:
        catalogue.unregister(spec.key)
        plugin._found.pop(spec.key, None)
        del sys.modules[module.__name__]


class Complete(AppGame):
    def table_screen(self, context):
        return None

    def replay_screen(self, replay, seat=None, *, ascii_mode=False):
        return None

    def describe(self, event, names, view=None):
        return None


def test_a_complete_app_side_gets_every_optional_hook_from_the_base(fake_game):
    fake_game.APP = Complete()
    side = game_of("fakegame")
    assert side.guide() is None and side.plain_seat(NUGGETS.moves) is None
    assert side.length_line(None, 2) == "" and side.settings_line(None) == ""
    assert side.rules is None and side.advisor is False


def test_a_misspelt_hook_fails_with_a_sentence(fake_game):
    class Misspelt(Complete):
        def plain_sheet(self):  # plain_seat, misspelt: once ignored in silence
            return None

    fake_game.APP = Misspelt()
    with pytest.raises(PluginError, match=r"Fake Game's app side \(Misspelt\) defines "
                                          r"plain_sheet, which no game has: a misspelt hook"):
        game_of("fakegame")
    with pytest.raises(PluginError, match="plain_sheet"):
        check_all()  # the app's start


def test_a_missing_hook_and_a_wrong_object_fail_with_a_sentence(fake_game):
    class NoDescribe(AppGame):
        def table_screen(self, context):
            return None

        def replay_screen(self, replay, seat=None, *, ascii_mode=False):
            return None

    fake_game.APP = NoDescribe()
    with pytest.raises(PluginError, match="does not define describe"):
        game_of("fakegame")
    plugin._found.pop("fakegame", None)
    fake_game.APP = types.SimpleNamespace(table_screen=None)
    with pytest.raises(PluginError, match="not a tui.plugin.AppGame"):
        game_of("fakegame")


def test_the_games_that_ship_pass_the_check():
    check_all()
    assert {type(game_of(g.key)).__name__ for g in catalogue.games()} >= {
        "NuggetsApp", "FoolsGoldApp"}
