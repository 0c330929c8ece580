"""Snapshots at 80x24 (pytest-textual-snapshot): menu, both tables, the advisor, ASCII.

Deterministic: fixed views from the real rules engine, no clock text, no timers left
running at capture. Update with `pytest tests/tui --snapshot-update` after a deliberate
change, and look at the SVGs before committing them.
"""

from __future__ import annotations

import pytest
from textual.widgets import Input

from tests.tui.harness import foolsgold_table, nuggets_table, snapshot_app

from .harness import make_app, until

SIZE = (80, 24)


def test_menu(snap_compare, tmp_path):
    assert snap_compare(snapshot_app(tmp_path), terminal_size=SIZE)


@pytest.mark.slow
def test_nuggets_table(snap_compare, tmp_path):
    assert snap_compare(snapshot_app(tmp_path),
                        terminal_size=SIZE, run_before=nuggets_table(False))


def test_nuggets_table_with_advisor(snap_compare, tmp_path):
    assert snap_compare(snapshot_app(tmp_path),
                        terminal_size=SIZE, run_before=nuggets_table(True))


def test_foolsgold_table(snap_compare, tmp_path):
    assert snap_compare(snapshot_app(tmp_path),
                        terminal_size=SIZE, run_before=foolsgold_table())


def test_nuggets_table_ascii(snap_compare, tmp_path):
    assert snap_compare(snapshot_app(tmp_path, True), terminal_size=SIZE,
                        run_before=nuggets_table(True, ascii_mode=True))


def test_foolsgold_table_ascii(snap_compare, tmp_path):
    assert snap_compare(snapshot_app(tmp_path, True), terminal_size=SIZE,
                        run_before=foolsgold_table(ascii_mode=True))


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
        await until(pilot, lambda: isinstance(pilot.app.screen, LobbyScreen)
                    and pilot.app.session.table and len(pilot.app.session.table.seats) == 2,
                    "the lobby, two seats")
        pilot.app.session.send(p.Chat(text="[bold]howdy[/] partners"))
        await until(pilot, lambda: any("howdy" in str(log.lines)
                                       for log in pilot.app.screen.query("#chat-log")),
                    "the chat line")

    app = make_app(tmp_path)
    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


# -- the screens this round changed, at 80x24 and at 120x40 (a large terminal centres
# the table) -------------------------------------------------------------------------

BIG = (120, 40)


def test_menu_big(snap_compare, tmp_path):
    assert snap_compare(snapshot_app(tmp_path), terminal_size=BIG)


@pytest.mark.slow
def test_nuggets_table_big(snap_compare, tmp_path):
    assert snap_compare(snapshot_app(tmp_path),
                        terminal_size=BIG, run_before=nuggets_table(True))


@pytest.mark.slow
def test_foolsgold_table_big(snap_compare, tmp_path):
    assert snap_compare(snapshot_app(tmp_path),
                        terminal_size=BIG, run_before=foolsgold_table())


def _chat_over_the_table():
    async def run_before(pilot) -> None:
        from tui.screens.common import ChatScreen

        await foolsgold_table()(pilot)
        await pilot.app.push_screen(ChatScreen())
        await pilot.pause()

    return run_before


@pytest.mark.slow
def test_chat_over_the_table(snap_compare, tmp_path):
    assert snap_compare(snapshot_app(tmp_path),
                        terminal_size=SIZE, run_before=_chat_over_the_table())


def test_chat_over_the_table_big(snap_compare, tmp_path):
    assert snap_compare(snapshot_app(tmp_path),
                        terminal_size=BIG, run_before=_chat_over_the_table())


def _help_of_the_dice():
    async def run_before(pilot) -> None:
        await nuggets_table(False)(pilot)
        await pilot.press("f1")
        await pilot.pause()

    return run_before


@pytest.mark.slow
def test_help(snap_compare, tmp_path):
    assert snap_compare(snapshot_app(tmp_path),
                        terminal_size=SIZE, run_before=_help_of_the_dice())


@pytest.mark.slow
def test_help_big(snap_compare, tmp_path):
    assert snap_compare(snapshot_app(tmp_path),
                        terminal_size=BIG, run_before=_help_of_the_dice())


def _form(key: str):
    async def run_before(pilot) -> None:
        menu = pilot.app.screen
        await pilot.press(*key)
        # the screen the key opens, laid out: one pause was not always enough at load 5
        await until(pilot, lambda: pilot.app.screen is not menu, "the screen the key opens",
                    step=None)
        # a steady text cursor: a blinking one is drawn or not by how long the machine
        # took to get here (under load the blink's half second passed: a flake)
        for field in pilot.app.screen.query(Input):
            field.cursor_blink = False
        await pilot.pause()

    return run_before


@pytest.mark.slow
def test_settings(snap_compare, tmp_path):
    assert snap_compare(snapshot_app(tmp_path),
                        terminal_size=SIZE, run_before=_form("s"))


def test_settings_big(snap_compare, tmp_path):
    assert snap_compare(snapshot_app(tmp_path),
                        terminal_size=BIG, run_before=_form("s"))


def test_too_small(snap_compare, tmp_path):
    assert snap_compare(snapshot_app(tmp_path),
                        terminal_size=(36, 12), run_before=nuggets_table(False))


def test_replays_empty(snap_compare, tmp_path):
    assert snap_compare(snapshot_app(tmp_path),
                        terminal_size=SIZE, run_before=_form("p"))


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
    assert snap_compare(snapshot_app(tmp_path),
                        terminal_size=SIZE, run_before=_form("t"))
