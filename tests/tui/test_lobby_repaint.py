"""A lobby change repaints what changed, and lays the screen out only when a size may
change (issue 48: key to every other screen). Each seat's ready flag, the line under
the seats and an unchanged title cost a repaint of one widget or nothing; a new seat,
a line too long for the width, or a longer line in a ``width: auto`` widget lay the
screen out again, and what is shown is always the new text."""

from __future__ import annotations

import pytest
from rich.text import Text
from textual.widgets import Static

from net import protocol as p
from tui.screens.lobby import LobbyScreen
from tui.widgets.board import show_text

from .harness import make_app
from .helpers import screen_text

pytestmark = pytest.mark.timeout(60)


def info(ready: bool, *, names: tuple[str, ...] = ("Ann", "Bob", "Cy")) -> p.TableInfo:
    return p.TableInfo(name="Den", game="foolsgold", phase="lobby", owner=0, seats=[
        p.SeatInfo(seat=n, name=name, kind="human", ready=ready and n == 1, connected=True)
        for n, name in enumerate(names)],
        settings=p.TableSettings(seats=4, difficulty="normal", first_player=None,
                                 seeded=False, grace=30,
                                 game={"grab_timeout": 10, "call_window": 5},
                                 bot_pace=0.9, hotseat=False), spectators=0)


class Layouts:
    """Counts the screen's layouts (``Screen._refresh_layout``) and which widgets each
    refresh repainted."""

    def __init__(self, screen) -> None:
        self.count = 0
        self.painted: set[str] = set()
        layout, timer = screen._refresh_layout, screen._on_timer_update

        def counted(*args, **kwargs):
            self.count += 1
            return layout(*args, **kwargs)

        def painted():
            self.painted |= {w.id or type(w).__name__ for w in screen._dirty_widgets}
            return timer()

        screen._refresh_layout = counted
        screen._on_timer_update = painted

    def reset(self) -> None:
        self.count = 0
        self.painted = set()


async def test_a_ready_flag_repaints_its_seats_without_a_layout(tmp_path):
    app = make_app(tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        lobby = LobbyScreen()
        await app.push_screen(lobby)
        lobby.show_table(info(False), [0], True)
        await pilot.pause()
        assert "2. Bob  not ready" in screen_text(app)
        spy = Layouts(lobby)
        for ready in (True, False, True):
            lobby.show_table(info(ready), [0], True)
            await pilot.pause()
            shown = screen_text(app)
            assert ("2. Bob  ready" in shown) == ready and ("Bob  not ready" in shown) != ready
        assert spy.count == 0, "a ready flag laid the screen out again"
        assert spy.painted <= {"lobby-seats", "lobby-next"}, spy.painted
        # the same table again: nothing to repaint
        spy.reset()
        lobby.show_table(info(True), [0], True)
        await pilot.pause()
        assert spy.count == 0 and not spy.painted & {"lobby-seats", "lobby-title", "lobby-info"}
        # a fourth player: one line more, so the screen is laid out again
        lobby.show_table(info(True, names=("Ann", "Bob", "Cy", "Dee")), [0], True)
        await pilot.pause()
        assert spy.count >= 1 and "4. Dee" in screen_text(app)


async def test_a_line_that_would_wrap_or_an_auto_width_lays_out_again(tmp_path):
    app = make_app(tmp_path)
    async with app.run_test(size=(40, 20)) as pilot:
        lobby = LobbyScreen()
        await app.push_screen(lobby)
        await pilot.pause()
        static = lobby.query_one("#lobby-next", Static)
        show_text(static, Text("short"))
        await pilot.pause()
        spy = Layouts(lobby)
        show_text(static, Text("longer"))  # one line, still within the width
        await pilot.pause()
        assert spy.count == 0 and "longer" in screen_text(app)
        show_text(static, Text("a line far too long for forty columns, so it wraps"))
        await pilot.pause()
        assert spy.count >= 1 and static.size.height == 2, static.size
        static.styles.width = "auto"
        show_text(static, Text("x"))
        await pilot.pause()
        spy.reset()
        show_text(static, Text("wider"))  # same lines, but its width is the text's own
        await pilot.pause()
        assert spy.count >= 1 and static.size.width >= len("wider")
