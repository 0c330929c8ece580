"""What every seat sees when one player's line drops, and how an app comes back on its
own: the real app against a real TCP host on 127.0.0.1, the other player a client.

- A drop: the others read who dropped, when a bot plays for them and that they can
  come back; then that a stand-in plays; then that they are back.
- A served app whose terminal detached (what the SSH door signals): away for the others
  at once, and its seat back at once when the player re-attaches.
- A host that went away: the app says so, counts down, tries again on its own (or at
  once with j) and takes its seat back with no key pressed."""

from __future__ import annotations

import asyncio

import pytest

from net import protocol as p
from net.client import Client, Reconnected
from net.clock import FakeClock
from net.host import Host
from tests.tui.harness import into_game, next_message
from tui.games.foolsgold.cards import Seats
from tui.games.foolsgold.screen import FoolsGoldScreen
from tui.games.nuggets.holdings import Holdings
from tui.games.nuggets.screen import NuggetsScreen

from .harness import log_text, make_app, until
from .helpers import screen_text

pytestmark = pytest.mark.timeout(60)


async def _host(game="nuggets", clock=None, **settings):
    host = Host(clock=clock)
    await host.start(bind="127.0.0.1", port=0)
    table = host.create_table("Den", game, seats=3, bots=1, bot_pace=0.5,
                              seed=f"comeback-{game}", first_player=0, **settings)
    return host, table


def _seat(table, name):
    return next(seat for seat in table.seats if seat.name == name)


def _seats_text(screen) -> str:
    """What the game's seats widget shows (Gold Nuggets' holdings, Fool's Gold's seats)."""
    widget = screen.query_one(Holdings if isinstance(screen, NuggetsScreen) else Seats)
    return widget.render().plain


def _marked_away(screen, name) -> bool:
    text = _seats_text(screen)
    if isinstance(screen, NuggetsScreen):  # its players share lines, 3 spaces apart
        text = text.replace("   ", "\n")
    line = next(row for row in text.splitlines() if f" {name} " in f" {row} ")
    return "away" in line


@pytest.mark.parametrize("game, screen_type", [("nuggets", NuggetsScreen),
                                               ("foolsgold", FoolsGoldScreen)])
@pytest.mark.slow
async def test_the_others_read_who_dropped_when_a_bot_plays_and_that_they_are_back(
        tmp_path, game, screen_type):
    clock = FakeClock(1000.0)
    host, table = await _host(game, clock=clock, grace=20.0)
    try:
        app = make_app(tmp_path, start=("join", "127.0.0.1", host.port))
        async with app.run_test(size=(80, 24)) as pilot:
            bob = await Client.connect("127.0.0.1", host.port, "Bob", reconnect=False)
            screen = await into_game(pilot, app, bob, screen_type)
            assert not _marked_away(screen, "Bob") and not _marked_away(screen, "Ann")
            token = bob.welcome.token
            bob._writer.transport.abort()  # Bob's line drops: no goodbye
            await until(pilot, lambda: "Bob's connection dropped" in log_text(screen),
                        "the drop, at once (no time passes on the host's clock)")
            # the seats say it too, where the players are (not only the log)
            await until(pilot, lambda: _marked_away(screen, "Bob"), "Bob marked away")
            assert not _marked_away(screen, "Ann")
            line = log_text(screen)
            assert "a bot plays for Bob in 20 s (" in line
            assert "Bob can take the seat back any time this game" in line
            await bob.close()
            clock.advance(20.0)  # the grace period: a stand-in plays Bob
            await until(pilot, lambda: "Bob is played by a stand-in bot" in log_text(screen),
                        "the stand-in")
            assert _seat(table, 'Bob').standin
            assert _marked_away(screen, "Bob")  # a stand-in plays: Bob is still away
            back = await Client.connect("127.0.0.1", host.port, "Bob", token=token)
            await until(pilot, lambda: "Bob is back and has the seat again" in log_text(screen),
                        "Bob back")
            await until(pilot, lambda: not _marked_away(screen, "Bob"), "Bob's mark gone")
            assert not _seat(table, 'Bob').standin
            await back.close()
    finally:
        await host.close()


@pytest.mark.slow
async def test_a_detached_served_app_is_away_at_once_and_reattaching_takes_the_seat_back(
        tmp_path):
    """What the SSH door's SIGUSR1 and SIGUSR2 do in the app, seen from Bob's seat."""
    host, table = await _host("nuggets", grace=30.0)
    try:
        app = make_app(tmp_path, start=("join", "127.0.0.1", host.port))
        async with app.run_test(size=(80, 24)) as pilot:
            bob = await Client.connect("127.0.0.1", host.port, "Bob")
            screen = await into_game(pilot, app, bob, NuggetsScreen)
            loop = asyncio.get_running_loop()
            dropped = loop.time()
            app.on_player_detached()  # the player's SSH line dropped
            notice = await asyncio.wait_for(
                next_message(bob, p.Notice, lambda n: n.event == "away"), 5)
            assert notice.name == "Ann" and loop.time() - dropped < 2.0
            assert not _seat(table, 'Ann').member.connected
            assert _seat(table, 'Ann').away_since is not None and not _seat(table, 'Ann').standin
            # the app stays away (no attempt) however long the player is gone: the time is
            # what is tested (a second of the real clock the app's retries run on)
            await asyncio.sleep(1.0)
            assert not _seat(table, 'Ann').member.connected
            back = loop.time()
            app.on_player_attached()  # the player re-attached
            notice = await asyncio.wait_for(
                next_message(bob, p.Notice, lambda n: n.event == "back"), 5)
            assert notice.name == "Ann" and loop.time() - back < 2.0
            await until(pilot, lambda: "you have your seat back" in screen_text(app),
                        "Ann's screen says so")
            assert _seat(table, 'Ann').member.connected and app.screen is screen
            await bob.close()
    finally:
        await host.close()


@pytest.mark.slow
async def test_an_app_whose_host_is_gone_says_so_and_comes_back_with_no_key(tmp_path):
    host, table = await _host("nuggets", grace=30.0)
    port = host.port
    try:
        app = make_app(tmp_path, start=("join", "127.0.0.1", port))
        async with app.run_test(size=(80, 24)) as pilot:
            bob = await Client.connect("127.0.0.1", port, "Bob", retry_for=float("inf"))
            screen = await into_game(pilot, app, bob, NuggetsScreen)
            # the host's machine goes away (no bye): the line drops for everyone
            host._server.close()
            await host._server.wait_closed()
            for peer in list(host._peers):
                peer.abort()
            await until(pilot, lambda: "The host is gone; trying again in" in screen_text(app),
                        "the countdown", deadline=50)
            assert "(q leaves, j tries now)" in screen_text(app)
            # j while the host is still gone: a try at once, and the countdown again
            await pilot.press("j")
            await until(pilot, lambda: "The host is gone" in screen_text(app), "still gone")
            await host.start("127.0.0.1", port)  # the host is back: nobody presses a key
            await until(pilot, lambda: "Reconnected: you have your seat back" in
                        screen_text(app), "back on its own", deadline=50)
            assert app.screen is screen and _seat(table, 'Ann').member.connected
            await asyncio.wait_for(next_message(bob, Reconnected), 20)
            await bob.close()
    finally:
        await host.close()
