"""The app's "Host a LAN game" finds saved tables (a host that crashed or was closed
mid-game) and offers to restore them: you take your own seat back at once."""

from __future__ import annotations

import pytest

from net import protocol as p
from net import saves as persist
from net.clock import FakeClock
from net.host import Host
from tests.hardening.harness import Raw, drive
from tui.games.nuggets.screen import NuggetsScreen
from tui.screens.common import PickScreen

from .harness import make_app, until
from .helpers import screen_text


async def _saved_lan_table() -> tuple[dict, int]:
    """Ann's table with two bots, stopped on Ann's turn; returns her view and seat."""
    clock = FakeClock()
    host = Host(store=persist.Store.default("tables"), clock=clock)
    await host.start("127.0.0.1", 0)
    table = host.create_table("Ann's table", "nuggets", seats=3, bots=2, seed="lan",
                              bot_pace=0.0, supply=30)  # fmt: skip
    ann = await Raw.open(host.port)
    welcome = await ann.hello("Ann")
    await ann.send(p.Ready())
    await drive(clock, lambda: table.phase == "playing")
    seat = welcome.seat
    if table.driver.view(None)["current"] != seat:
        await drive(clock, lambda: table.driver.view(None)["current"] == seat)
    view = table.driver.view(seat)
    await host.close()  # the host went away half-way
    return view, seat


@pytest.mark.slow
async def test_host_offers_the_saved_table_and_you_sit_down_again(tmp_path):
    view, seat = await _saved_lan_table()
    app = make_app(tmp_path, lan_port=0, lan_bind="127.0.0.1")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("o")
        await until(pilot, lambda: isinstance(app.screen, PickScreen), "the offer")
        await until(pilot, lambda: "Saved LAN tables" in screen_text(app), "the offer drawn")
        assert "Saved LAN tables" in screen_text(app) and "Restore 1 saved table" in (
            screen_text(app)
        )
        await pilot.press("enter")
        await until(pilot, lambda: "Listen on" in screen_text(app), "where to listen")
        await pilot.press("ctrl+s")
        await until(pilot, lambda: isinstance(app.screen, NuggetsScreen), "the table")
        screen = app.screen
        await until(pilot, lambda: screen.view is not None, "the saved position")
        assert screen.my_seats == [seat]
        for key in ("holdings", "supply", "current", "phase"):
            assert getattr(screen.view, key) == view[key], key
        assert app.session.welcome.resumed
        assert screen.acting_seat == seat  # your turn, as when the host went away
        await pilot.press("enter")  # and you play on
        await until(pilot, lambda: screen.view.phase != "roll", "the roll")


async def test_giving_up_the_saved_tables_keeps_them_for_replays(tmp_path):
    await _saved_lan_table()
    store = persist.Store.default("tables")
    app = make_app(tmp_path, lan_port=0, lan_bind="127.0.0.1")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("o")
        await until(pilot, lambda: isinstance(app.screen, PickScreen), "the offer")
        await pilot.press("down", "down", "enter")
        await until(pilot, lambda: "Host which game?" in screen_text(app), "the game choice")
    assert store.unfinished() == []
    kept = [store.load(k.id) for k in store.kept()]
    assert [s.status for s in kept] == ["abandoned"]
    assert kept[0].replay() is not None
