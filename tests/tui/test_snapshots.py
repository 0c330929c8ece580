"""Snapshots at 80x24 (pytest-textual-snapshot): menu, both tables, the advisor, ASCII.

Deterministic: fixed views from the real rules engine, no clock text, no timers left
running at capture. Update with `pytest tests/tui --snapshot-update` after a deliberate
change, and look at the SVGs before committing them.
"""

from __future__ import annotations

import pytest

from tui.app import MotherlodeApp
from tui.games.foolsgold.screen import FoolsGoldScreen
from tui.games.nuggets.screen import NuggetsScreen
from tui.settings import Settings

from .helpers import events, foolsgold_view, nuggets_view, replace

SIZE = (80, 24)


def _app(tmp_path, ascii_mode=False) -> MotherlodeApp:
    return MotherlodeApp(settings=Settings(name="Ann"), settings_path=tmp_path / "s.json",
                         ascii_mode=ascii_mode)


def _nuggets_table(advisor: bool, ascii_mode: bool = False):
    async def run_before(pilot) -> None:
        screen = NuggetsScreen([0, 1], advisor=advisor, hotseat=True, ascii_mode=ascii_mode)
        await pilot.app.push_screen(screen)
        view = nuggets_view(rolled=("nugget", "lasso", "3", "3", "3", "5", "2"),
                            names=("Ann", "Bob"))
        view = replace(view, supply=61, holdings=[9, 7])
        screen.show_state(view, events({"type": "turn", "seat": 0},
                                 {"type": "rolled", "seat": 0, "faces": view.rolled}))
        await pilot.press("n", "f3")
        await pilot.pause()

    return run_before


def _foolsgold_table(ascii_mode: bool = False):
    async def run_before(pilot) -> None:
        screen = FoolsGoldScreen(0, ["Ann", "Bob", "Cid", "Dee"], ascii_mode=ascii_mode)
        await pilot.app.push_screen(screen)
        view = foolsgold_view(grabbed=[[2, 10.0], [3, 10.153]], frozen=True, nuggets_left=1)
        screen.show_state(view, events(
            {"type": "drew", "seat": 1, "pile": "draw"},
            {"type": "grabbed", "seat": 2, "at": 10.0, "order": 1, "nuggets_left": 2},
            {"type": "grabbed", "seat": 3, "at": 10.153, "order": 2, "nuggets_left": 1}))
        screen.query_one("#foolsgold-table").remove_class("-flash")  # no flash in a snapshot
        await pilot.pause()

    return run_before


def test_menu(snap_compare, tmp_path):
    assert snap_compare(_app(tmp_path), terminal_size=SIZE)


@pytest.mark.slow
def test_nuggets_table(snap_compare, tmp_path):
    assert snap_compare(_app(tmp_path), terminal_size=SIZE, run_before=_nuggets_table(False))


def test_nuggets_table_with_advisor(snap_compare, tmp_path):
    assert snap_compare(_app(tmp_path), terminal_size=SIZE, run_before=_nuggets_table(True))


def test_foolsgold_table(snap_compare, tmp_path):
    assert snap_compare(_app(tmp_path), terminal_size=SIZE, run_before=_foolsgold_table())


def test_nuggets_table_ascii(snap_compare, tmp_path):
    assert snap_compare(_app(tmp_path, True), terminal_size=SIZE,
                        run_before=_nuggets_table(True, ascii_mode=True))


def test_foolsgold_table_ascii(snap_compare, tmp_path):
    assert snap_compare(_app(tmp_path, True), terminal_size=SIZE,
                        run_before=_foolsgold_table(ascii_mode=True))


def test_lobby(snap_compare, tmp_path):
    """The lobby of a table joined over TCP: seats, bots, ready flags, settings, chat."""
    from net import protocol as p
    from net.host import Host
    from tui.flows.messages import JoinGame
    from tui.screens.lobby import LobbyScreen

    async def run_before(pilot) -> None:
        host = Host()
        await host.start(bind="127.0.0.1", port=0)
        host.create_table("Saloon", "foolsgold", seats=4, bots=1, seed="lobby")
        pilot.app.post_message(JoinGame("127.0.0.1", host.port))
        for _ in range(500):
            await pilot.pause(0.001)
            if isinstance(pilot.app.screen, LobbyScreen) and pilot.app.session.table \
                    and len(pilot.app.session.table.seats) == 2:
                break
        pilot.app.session.send(p.Chat(text="[bold]howdy[/] partners"))
        for _ in range(500):
            await pilot.pause(0.001)
            if "howdy" in str(pilot.app.screen.query_one("#chat-log").lines):
                break

    app = MotherlodeApp(settings=Settings(name="Ann"), settings_path=tmp_path / "s.json",
                        announce=False, discover=False)
    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


# -- the screens this round changed, at 80x24 and at 120x40 (a large terminal centres
# the table) -------------------------------------------------------------------------

BIG = (120, 40)


def test_menu_big(snap_compare, tmp_path):
    assert snap_compare(_app(tmp_path), terminal_size=BIG)


@pytest.mark.slow
def test_nuggets_table_big(snap_compare, tmp_path):
    assert snap_compare(_app(tmp_path), terminal_size=BIG, run_before=_nuggets_table(True))


@pytest.mark.slow
def test_foolsgold_table_big(snap_compare, tmp_path):
    assert snap_compare(_app(tmp_path), terminal_size=BIG, run_before=_foolsgold_table())


def _chat_over_the_table():
    async def run_before(pilot) -> None:
        from tui.screens.common import ChatScreen

        await _foolsgold_table()(pilot)
        await pilot.app.push_screen(ChatScreen())
        await pilot.pause()

    return run_before


@pytest.mark.slow
def test_chat_over_the_table(snap_compare, tmp_path):
    assert snap_compare(_app(tmp_path), terminal_size=SIZE, run_before=_chat_over_the_table())


def test_chat_over_the_table_big(snap_compare, tmp_path):
    assert snap_compare(_app(tmp_path), terminal_size=BIG, run_before=_chat_over_the_table())


def _help_of_the_dice():
    async def run_before(pilot) -> None:
        await _nuggets_table(False)(pilot)
        await pilot.press("f1")
        await pilot.pause()

    return run_before


@pytest.mark.slow
def test_help(snap_compare, tmp_path):
    assert snap_compare(_app(tmp_path), terminal_size=SIZE, run_before=_help_of_the_dice())


@pytest.mark.slow
def test_help_big(snap_compare, tmp_path):
    assert snap_compare(_app(tmp_path), terminal_size=BIG, run_before=_help_of_the_dice())


def _form(key: str):
    async def run_before(pilot) -> None:
        await pilot.press(*key)
        await pilot.pause()

    return run_before


@pytest.mark.slow
def test_settings(snap_compare, tmp_path):
    assert snap_compare(_app(tmp_path), terminal_size=SIZE, run_before=_form("s"))


def test_settings_big(snap_compare, tmp_path):
    assert snap_compare(_app(tmp_path), terminal_size=BIG, run_before=_form("s"))


def test_too_small(snap_compare, tmp_path):
    assert snap_compare(_app(tmp_path), terminal_size=(36, 12), run_before=_nuggets_table(False))


def test_replays_empty(snap_compare, tmp_path):
    assert snap_compare(_app(tmp_path), terminal_size=SIZE, run_before=_form("p"))


def _stats_rows() -> None:
    """Fixed figures in the saves database, one name full of markup and escapes."""
    from net.saves import Store
    from net.saves.stats import INSERT, Tally

    store = Store.default("tables")
    rows = []
    for n, (game, names, winners) in enumerate([
        ("nuggets", ["Ann", "[b]Bob[/b]\x1b[31m"], [0]),
        ("nuggets", ["Ann", "[b]Bob[/b]\x1b[31m"], [1]),
        ("foolsgold", ["Ann", "Cid", "[b]Bob[/b]\x1b[31m"], [2]),
    ]):
        tally = Tally(len(names))
        for name in ("turns", "gained", "busts", "steals", "rounds", "grabs", "bluffs",
                     "calls", "calls_right"):
            tally.counts[name] = [(n + 2 + i * 3) % 7 + (name in ("turns", "gained")) * 9
                                  for i in range(len(names))]
        rows += tally.rows(f"game-{n}", game, [(s, "human") for s in names], winners, 0.0)
    store._commits.commit(lambda conn: conn.executemany(INSERT, rows))
    store.close()


def test_stats(snap_compare, tmp_path):
    _stats_rows()
    assert snap_compare(_app(tmp_path), terminal_size=SIZE, run_before=_form("t"))
