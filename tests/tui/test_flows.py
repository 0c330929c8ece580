"""The app conducts flows: screens and the command palette ask for one with a typed
message (`tui.flows.messages`), the app hands it to the flow that opens it, and screens
read the saves through the service the app hands them (`tui.saves.Saves`)."""

from __future__ import annotations

import ast
from pathlib import Path
from types import SimpleNamespace

from net.catalogue import games
from tui.flows import messages as m
from tui.saves import Saves
from tui.screen_text import screen_text
from tui.screens.join import JoinScreen
from tui.screens.menu import MenuScreen
from tui.screens.replays import ReplaysScreen
from tui.screens.stats import StatsScreen

from .harness import make_app, until

ROOT = Path(__file__).resolve().parents[2]


def recording(flow) -> list:
    """Replace ``flow.open`` with a recorder (nothing opens); the messages it gets."""
    got: list = []
    flow.open = got.append
    return got


async def test_the_join_screen_posts_join_game_and_it_reaches_the_join_flow(tmp_path):
    app = make_app(tmp_path)
    posted: list = []

    def hook(message) -> None:
        if isinstance(message, m.OpenFlow):
            posted.append(message)

    async with app.run_test(size=(80, 24), message_hook=hook) as pilot:
        await pilot.press("j")  # the menu's "Join a LAN game"
        await until(pilot, lambda: isinstance(app.screen, JoinScreen), "the join form")
        assert any(isinstance(message, m.FindGame) for message in posted)
        joins = recording(app.flows.join)
        app.screen.query_one("#address").value = "192.168.1.20:7001"
        await pilot.press("enter")
        await until(pilot, lambda: joins, "the join flow gets the message")
    [join] = joins
    assert isinstance(join, m.JoinGame)
    assert (join.host, join.port, join.watch) == ("192.168.1.20", 7001, False)
    assert any(message is join for message in posted)  # posted by the screen, bubbled up


async def test_every_menu_choice_asks_for_a_flow_by_its_type(tmp_path):
    from tui.screens.menu import RESUME, menu, opens
    from tui.screens.served import fixed
    from tui.screens.served import opens as served_opens

    app = make_app(tmp_path)
    flows = app.flows
    OPENS, MENU, SERVED_OPENS, FIXED = opens(), menu(), served_opens(), fixed()
    assert {ident for ident, _, _ in [RESUME, *MENU]} == set(OPENS)
    for ident, opener in OPENS.items():
        message = opener()
        assert isinstance(message, m.OpenFlow), ident
        assert type(message) in flows.local, ident
    assert {ident for ident, _, _ in FIXED} == set(SERVED_OPENS)
    for ident, opener in SERVED_OPENS.items():
        assert type(opener()) in flows.serving, ident
    for game in games():
        bots = OPENS[f"{game.key}-bots"]()
        assert isinstance(bots, m.PlayBots) and (bots.game, bots.bots) == (game.key, None)
        assert flows.local[m.PlayBots] is flows.solo
    assert flows.local[m.JoinGame] is flows.join
    assert flows.serving[m.JoinGame] is flows.served  # served: the table this player was at
    assert m.FindGame not in flows.serving and m.HostGame not in flows.serving


async def test_a_menu_key_reaches_its_flow(tmp_path):
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        hosts = recording(app.flows.host)
        solos = recording(app.flows.solo)
        await pilot.press("o", games()[0].letter)
        await until(pilot, lambda: hosts and solos, "both flows")
    assert [type(message) for message in hosts] == [m.HostGame]
    assert [(type(s), s.game) for s in solos] == [(m.PlayBots, games()[0].key)]


async def test_the_palette_posts_the_menus_own_messages(tmp_path):
    from tui.commands import GameCommands
    from tui.screens.menu import opens

    OPENS = opens()

    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        commands = {name: run for name, run, _ in GameCommands(app.screen)._commands()}
        menu_of = {"Host a LAN game": "host", "Join a LAN game": "join", "Replays": "replays",
                   "Player stats": "stats", "Rules": "rules", "Settings": "settings"}
        for name, ident in menu_of.items():
            posted: list = []
            app.post_message = posted.append  # what the command asks for; nothing opens
            try:
                commands[name]()
            finally:
                del app.post_message
            [message] = posted
            assert type(message) is type(OPENS[ident]()), name
            assert app.flows.route(message) is not None, name


async def test_a_served_app_refuses_what_has_no_served_route(tmp_path):
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.served = ("127.0.0.1", 1, str(tmp_path))
        for message in (m.HostGame(), m.FindGame(), m.ShowReplays(), m.StartHotseat([])):
            assert app.flows.route(message) is None
            app.flows.open(message)
        await pilot.pause()
        assert sum("not available" in n.message for n in app._notifications) == 4
        assert isinstance(app.screen, MenuScreen)
        app.served = None


class FakeSaves(Saves):
    """A saves service with no database: what the screens show comes from here."""

    def __init__(self) -> None:
        self.asked: list[str] = []
        self.deleted: list[str] = []

    def hotseat_waiting(self) -> bool:
        self.asked.append("hotseat_waiting")
        return True

    def kept(self, limit):
        self.asked.append("kept")
        game = SimpleNamespace(id="g1", when=0.0, game=games()[0].key,
                               players=["Zed", "Yma"], result=lambda: "Zed won")
        return [game], None

    def delete(self, ident):
        self.deleted.append(ident)
        return None

    def stats(self, *, bots=False):
        self.asked.append("stats")
        return [], "The saves database is damaged (a test)."


async def test_screens_read_the_saves_through_the_service_the_app_hands_them(tmp_path):
    saves = FakeSaves()
    app = make_app(tmp_path, saves=saves)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, MenuScreen) and app.screen.saves is saves
        assert "Resume a saved hot-seat game" in screen_text(app)
        await pilot.press("p")
        await until(pilot, lambda: isinstance(app.screen, ReplaysScreen), "the replays")
        assert app.screen.saves is saves
        await until(pilot, lambda: "Zed, Yma; Zed won" in screen_text(app), "the fake game")
        replays = recording(app.flows.replay)
        await pilot.press("enter")
        await until(pilot, lambda: replays, "a replay asked for")
        assert isinstance(replays[0], m.OpenReplay) and replays[0].game == "g1"
        del app.flows.replay.open  # the flow opens again (stats are its own too)
        await pilot.press("d", "y")
        await until(pilot, lambda: saves.deleted == ["g1"], "the delete")
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, MenuScreen), "back at the menu")
        await pilot.press("t")
        await until(pilot, lambda: isinstance(app.screen, StatsScreen), "the stats")
        assert app.screen.saves is saves
        await until(pilot, lambda: "damaged (a test)" in screen_text(app), "the problem")


def _runtime_imports(path: Path) -> set[str]:
    """The modules ``path`` imports, outside ``if TYPE_CHECKING:`` blocks."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    typing_only = {id(node) for block in ast.walk(tree) if isinstance(block, ast.If)
                   and ast.unparse(block.test) == "TYPE_CHECKING"
                   for node in ast.walk(block)}
    found: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found |= {f"{node.module}.{alias.name}" for alias in node.names}
    return found


def test_no_screen_opens_the_saves_itself():
    """Screens, widgets and games' screens get the saves through `tui.saves.Saves`:
    none imports the saves database, the kept seats or sqlite."""
    forbidden = ("net.saves", "net.seats", "net.paths", "sqlite3")
    checked = 0
    for folder in ("tui/screens", "tui/widgets", "tui/games"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            checked += 1
            bad = {name for name in _runtime_imports(path)
                   if name.startswith(forbidden) and name.split(".")[0] != "tui"}
            assert not bad, f"{path.relative_to(ROOT)} opens the saves itself: {sorted(bad)}"
    assert checked > 20


def test_the_saves_checker_sees_an_import_of_the_store(tmp_path):
    path = tmp_path / "screen.py"
    path.write_text("from typing import TYPE_CHECKING\n"
                    "if TYPE_CHECKING:\n    from net.saves import Saved\n"
                    "def f():\n    from net.saves import Store\n")
    assert "net.saves.Store" in _runtime_imports(path)
    assert "net.saves.Saved" not in _runtime_imports(path)


def test_the_app_is_a_conductor_of_at_most_300_lines():
    lines = (ROOT / "tui" / "app.py").read_text(encoding="utf-8").count("\n")
    assert lines <= 300, f"tui/app.py has {lines} lines"


def test_no_screen_calls_the_app_by_a_string():
    """The string router is gone: nothing in ``tui`` calls ``menu_choice``."""
    for path in sorted((ROOT / "tui").rglob("*.py")):
        assert "menu_choice" not in path.read_text(encoding="utf-8"), path
