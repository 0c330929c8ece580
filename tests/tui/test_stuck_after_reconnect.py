"""Seats taken back after a drop (an SSH player's terminal detached and re-attached,
a joined player's line dropped) play on through busts: the next roll after a bust
shows at once, never hidden behind the busting roll for the rest of its beat (what
looked like a game stuck after a bust, in testing ``serve --via``)."""

from __future__ import annotations

import asyncio

import pytest

from net.client import Client
from net.host import Host
from tests.tui.harness import into_game
from tui.games.nuggets.dice import DiceTray
from tui.games.nuggets.screen import NuggetsScreen

from ..net.helpers import play_nuggets
from .harness import log_text, make_app, until
from .helpers import screen_text

pytestmark = pytest.mark.timeout(90)


@pytest.mark.slow
async def test_after_a_reconnect_the_roll_after_a_bust_shows_and_the_game_plays_on(tmp_path):
    host = Host()
    await host.start(bind="127.0.0.1", port=0)
    table = host.create_table("Den", "nuggets", seats=2, seed="stuck-1", first_player=0, grace=30.0)
    try:
        app = make_app(tmp_path, start=("join", "127.0.0.1", host.port))
        async with app.run_test(size=(80, 24)) as pilot:
            bob = await Client.connect("127.0.0.1", host.port, "Bob")
            screen = await into_game(pilot, app, bob, NuggetsScreen)
            bob_plays = asyncio.create_task(play_nuggets(bob))  # Bob plays at once
            # Ann's terminal detaches (the SSH door's signal) and Bob's line drops; both
            # come back to their seats
            app.on_player_detached()
            bob._writer.transport.abort()
            # the host has seen Ann's line go (Bob's client dials back on its own)
            await until(pilot, lambda: not next(s for s in table.seats if s.member
                                                and s.member.name == "Ann").member.connected,
                        "the host sees Ann's line down")
            app.on_player_attached()
            await until(pilot, lambda: "Reconnected" in screen_text(app), "the resume",
                        deadline=50)
            before = log_text(screen).count("went bust")
            dice = screen.query_one(DiceTray)
            while True:
                view = screen.view
                if view.over or log_text(screen).count("went bust") - before >= 2:
                    break
                if view.phase == "keep":  # a roll is on the table: its dice show
                    assert dice.faces == tuple(view.rolled), \
                        f"the busting roll hides {view.rolled}\n{screen_text(app)}"
                if screen.acting_seat is None:
                    await until(pilot, lambda old=view: screen.view is not old
                                or screen.acting_seat is not None, "a move", step=0.01)
                    continue
                # Ann's turn: she plays at once (enter rolls, space space the advice)
                await pilot.press({"keep": "space", "take": "t"}.get(view.phase, "enter"))
                if view.phase == "keep":
                    await pilot.press("space")
                await until(pilot, lambda old=view: screen.view is not old,
                            f"the host answers Ann in phase {view.phase}")
            assert view.over or log_text(screen).count("went bust") - before >= 2
            assert app.screen is screen
            bob_plays.cancel()
            await bob.close()
    finally:
        await host.close()
