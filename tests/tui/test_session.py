"""The player's path through a LAN table, in the real app against a real TCP host on
127.0.0.1: a seat taken back after the app died, a spectator arriving mid-game, a full
table that offers to watch, and leaving that says what it does.

The hosts run on a fake clock, so no bot acts and no grace runs out unless a test
moves the clock."""

from __future__ import annotations

import json

import pytest

from net.client import Client
from net.clock import FakeClock
from net.host import Host
from net.seats import SeatStore, SeatToken
from net.views import to_plain
from tests import waiting
from tui.flows.messages import JoinGame
from tui.games.foolsgold.screen import FoolsGoldScreen
from tui.games.nuggets.screen import NuggetsScreen
from tui.screens.common import MessageScreen, PickScreen
from tui.screens.lobby import LobbyScreen
from tui.screens.menu import MenuScreen

from .harness import make_app, until
from .helpers import screen_text


async def _host(game="foolsgold", seats=2, bots=1, start=False, **settings):
    clock = FakeClock(1000.0)
    host = Host(clock=clock)
    await host.start(bind="127.0.0.1", port=0)
    table = host.create_table("Den", game, seats=seats, bots=bots, bot_pace=0.5,
                              seed=f"session-{game}", **settings)
    if start:
        host.start_game(table)
    return host, table, clock


def _seat_files() -> list[dict]:
    store = SeatStore()
    if not store.directory.is_dir():
        return []
    return [json.loads(path.read_text()) for path in sorted(store.directory.glob("*.json"))]


async def _seated_in_game(pilot, app, screen_type):
    await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
    await until(pilot, lambda: "not ready" in screen_text(app), "our seat")
    await pilot.press("r")  # the table is full: ready starts the game
    await until(pilot, lambda: isinstance(app.screen, screen_type), "the table")
    screen = app.screen
    await until(pilot, lambda: screen.view is not None, "a first view")
    return screen


@pytest.mark.slow
async def test_a_restarted_app_takes_its_seat_back_with_the_same_hand(tmp_path):
    """The app dies mid-game (its connection drops without a leave, as a killed
    process's does); the next join from this machine takes the seat back, hand and
    all: within the grace period, and after it from the stand-in."""
    host, table, clock = await _host()
    try:
        first = make_app(tmp_path, start=("join", "127.0.0.1", host.port))
        async with first.run_test(size=(80, 24)) as pilot:
            screen = await _seated_in_game(pilot, first, FoolsGoldScreen)
            hand = screen.view.hand
            assert hand and screen.seat == 1
            files = _seat_files()
            assert [(f["host"], f["port"], f["table"], f["name"]) for f in files] == [
                ("127.0.0.1", host.port, "Den", "Ann")]
            path = next(SeatStore().directory.glob("*.json"))
            assert path.stat().st_mode & 0o777 == 0o600
            first.on_terminal_signal()  # what SIGTERM or SIGHUP does: no leave
        await waiting.until(lambda: not table.seats[1].member.connected, "the seat is away")

        for after_grace in (False, True):
            if after_grace:
                clock.advance(table.settings.grace + 1)
                assert table.seats[1].standin
            again = make_app(tmp_path, start=("join", "127.0.0.1", host.port))
            async with again.run_test(size=(80, 24)) as pilot:
                await until(pilot, lambda a=again: isinstance(a.screen, FoolsGoldScreen),
                            "straight to the table")
                screen = again.screen
                await until(pilot, lambda s=screen: s.view is not None, "a view")
                assert screen.seat == 1 and again.session.welcome.resumed
                assert to_plain(screen.view.hand) == table.driver.view(1)["hand"]
                if not after_grace:
                    assert screen.view.hand == hand
                assert [s.name for s in table.seats] == [table.seats[0].name, "Ann"]
                assert table.seats[1].member.connected and not table.seats[1].standin
                again.on_terminal_signal()
            await waiting.until(lambda: not table.seats[1].member.connected, "away again")
    finally:
        await host.close()


async def test_a_stale_token_is_dropped_quietly_and_the_player_joins_anew(tmp_path):
    host, table, _ = await _host(game="nuggets", seats=3)
    try:
        store = SeatStore()
        stale = SeatToken("127.0.0.1", host.port, "Den", "Ann", "99.not-a-token", 1e10)
        held = store.hold(stale)
        held.release()
        app = make_app(tmp_path, start=("join", "127.0.0.1", host.port))
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
            assert not isinstance(app.screen, MessageScreen)
            assert not app.session.welcome.resumed
            files = _seat_files()
            assert len(files) == 1 and files[0]["token"] == app.session.welcome.token
    finally:
        await host.close()


async def test_a_kept_seat_that_cannot_be_locked_joins_anew_rather_than_fail(
    tmp_path, monkeypatch
):
    """A state directory that cannot be written (read-only, full): the kept token cannot
    be locked, so the player joins as a new player instead of seeing an error. (Tests
    run as root, where a read-only directory is still writable, so ``hold`` is made to
    fail as it would.)"""
    host, table, _ = await _host(game="nuggets", seats=3)
    try:
        store = SeatStore()
        store.hold(SeatToken("127.0.0.1", host.port, "Den", "Ann", "1.x", 1e10)).release()

        def read_only(self, seat):
            raise PermissionError(13, "Permission denied", str(self.directory))

        monkeypatch.setattr(SeatStore, "hold", read_only)
        app = make_app(tmp_path, start=("join", "127.0.0.1", host.port))
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
            assert not app.session.welcome.resumed
            await until(pilot, lambda: "Ann" in screen_text(app), "the lobby drawn")
    finally:
        await host.close()


async def test_two_apps_on_one_machine_never_take_each_others_seat(tmp_path):
    """A seat file is locked while its app runs: a second join with the same name
    from this machine gets a seat of its own."""
    host, table, _ = await _host(game="nuggets", seats=3)
    try:
        one = make_app(tmp_path, start=("join", "127.0.0.1", host.port))
        async with one.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: isinstance(one.screen, LobbyScreen), "the first lobby")
            two = make_app(tmp_path, start=("join", "127.0.0.1", host.port))
            async with two.run_test(size=(80, 24)) as pilot2:
                await until(pilot2, lambda: isinstance(two.screen, LobbyScreen), "the second")
                assert [s.name for s in table.seats] == [table.seats[0].name, "Ann", "Ann 2"]
                assert one.session.seats == [1] and two.session.seats == [2]
    finally:
        await host.close()


@pytest.mark.parametrize("game,screen_type", [("nuggets", NuggetsScreen),
                                              ("foolsgold", FoolsGoldScreen)])
@pytest.mark.slow
async def test_a_late_spectator_sees_the_table_at_once(tmp_path, game, screen_type):
    host, table, _ = await _host(game=game, seats=2, bots=2, start=True)
    try:
        app = make_app(tmp_path, start=("join", "127.0.0.1", host.port, True))
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, screen_type), f"{game} table")
            screen = app.screen
            await until(pilot, lambda: screen.view is not None, "the public view")
            assert to_plain(screen.view) == table.driver.wire_view(None)  # as sent
            name = table.seats[0].name
            await until(pilot, lambda: name in screen_text(app), "the players' names")
            assert "You are watching" in screen_text(app)
    finally:
        await host.close()


async def test_a_full_table_offers_to_watch_with_one_key(tmp_path):
    host, table, _ = await _host(game="nuggets", seats=2, bots=2, start=True)
    try:
        app = make_app(tmp_path, start=("join", "127.0.0.1", host.port))
        async with app.run_test(size=(80, 24)) as pilot:
            # a started game (every seat taken too): it says the game has started
            await until(pilot, lambda: "The game has started" in screen_text(app),
                        "the message")
            text = screen_text(app)
            assert "w: watch the game" in text and "motherlode join" not in text
            await pilot.press("w")
            await until(pilot, lambda: isinstance(app.screen, NuggetsScreen), "watching")
            assert app.session.seats == [] and app.screen.view is not None
    finally:
        await host.close()


@pytest.mark.slow
async def test_q_offers_step_away_or_give_up_and_both_do_what_they_say(tmp_path):
    host, table, clock = await _host(game="nuggets", seats=2, bots=1)
    try:
        app = make_app(tmp_path, start=("join", "127.0.0.1", host.port))
        async with app.run_test(size=(80, 24)) as pilot:
            await _seated_in_game(pilot, app, NuggetsScreen)
            await pilot.press("q")
            await until(pilot, lambda: "Step away" in screen_text(app), "the question")
            assert isinstance(app.screen, PickScreen)
            text = screen_text(app)
            assert "Step away: keep my seat, a bot plays until I am back" in text
            assert "Give up my seat for good" in text
            await pilot.press("enter")  # the first choice: step away
            await until(pilot, lambda: "You stepped away" in screen_text(app), "the message")
            assert "join the same table again" in screen_text(app)
            await waiting.until(lambda: table.seats[1].standin, "a stand-in plays at once")
            member = table.seats[1].member
            assert member is not None and member in table.members and not member.connected
            assert len(_seat_files()) == 1  # kept: the next join takes the seat back

            await pilot.press("enter")
            await until(pilot, lambda: isinstance(app.screen, MenuScreen), "the menu")
            app.post_message(JoinGame("127.0.0.1", host.port))
            await until(pilot, lambda: isinstance(app.screen, NuggetsScreen), "back at it")
            assert app.session.welcome.resumed and app.session.seats == [1]
            assert not table.seats[1].standin and table.seats[1].member.connected

            await pilot.press("q")
            await until(pilot, lambda: isinstance(app.screen, PickScreen), "the question")
            await pilot.press("down", "enter")  # give up my seat
            await until(pilot, lambda: isinstance(app.screen, MenuScreen), "the menu")
            await waiting.until(lambda: table.seats[1].member is None, "the seat is given up")
            assert table.seats[1].standin and _seat_files() == []
    finally:
        await host.close()


@pytest.mark.slow
async def test_a_restored_game_says_whom_it_waits_for_on_screen(tmp_path):
    """A host restored its game after a crash: Ann's app takes her seat back and reads
    "Waiting for Bob (... s)" until Bob is back, then the line goes."""
    from net.seats import SeatStore, SeatToken
    from tests.net.helpers import saved_game

    saved, tokens = saved_game("nuggets", tmp_path / "save")
    clock = FakeClock(saved.saved_at + 100.0)
    host = Host(clock=clock)
    table = host.restore(saved)
    await host.start(bind="127.0.0.1", port=0)
    try:
        # what Ann's app kept on disk before the crash
        SeatStore().hold(SeatToken("127.0.0.1", host.port, table.name, "Ann",
                                   tokens["Ann"], 1e10)).release()
        app = make_app(tmp_path, start=("join", "127.0.0.1", host.port))
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, NuggetsScreen), "the table")
            await until(pilot, lambda: "Waiting for Bob (" in screen_text(app), "the wait")
            assert "the game goes on once they are back" in screen_text(app)
            bob = await Client.connect("127.0.0.1", host.port, "Bob", token=tokens["Bob"])
            await until(pilot, lambda: "Waiting for" not in screen_text(app), "the end")
            await bob.close()
    finally:
        await host.close()


def test_a_view_of_the_other_game_is_said_and_never_drawn():
    """A host at fault sends a Gold Nuggets view to a Fool's Gold table: the session
    says so in the status line; no screen gets a view it cannot draw."""
    from types import SimpleNamespace

    from net import protocol as p
    from tui.messages import StatusLine, ViewChanged
    from tui.session import SOLO, Session

    from .helpers import foolsgold_view, nuggets_view

    table = SimpleNamespace(game="foolsgold")
    client = SimpleNamespace(welcome=SimpleNamespace(seats=[0], table=table))
    session = Session(client, SOLO)
    posted: list = []
    session._target = SimpleNamespace(post_message=posted.append)
    session.in_game = True
    session.handle(p.State(seat=0, view=nuggets_view(), events=[], at=0.0))
    assert [type(m) for m in posted] == [StatusLine]
    assert "another game" in posted[0].text
    session.handle(p.State(seat=0, view=foolsgold_view(), events=[], at=0.0))
    assert [type(m) for m in posted] == [StatusLine, ViewChanged]


async def test_back_first_at_a_restored_game_is_told_in_the_log_beside_the_wait():
    """Bob's app comes back to a restarted host before Ann: the status line says the
    game waits for Ann, and the log says Bob has his seat back (the status alone would
    overwrite one news with the other, and Bob would never read that he is back)."""
    from types import SimpleNamespace

    from net import protocol as p
    from net.client import Reconnected
    from tui.messages import LogLine, StatusLine
    from tui.session import SOLO, Session

    seats = [SimpleNamespace(seat=0, name="Ann"), SimpleNamespace(seat=1, name="Bob")]
    table = SimpleNamespace(game="nuggets", phase="playing", seats=seats, waiting=[0],
                            wait_left=20.0, name="Saloon", seed_hash="", owner=0)
    welcome = SimpleNamespace(seats=[1], table=table, token=None, resumed=True)
    session = Session(SimpleNamespace(welcome=welcome), SOLO)
    posted: list = []
    session._target = SimpleNamespace(post_message=posted.append)
    session.in_game = True
    session.handle(Reconnected(welcome))
    session.handle(p.TableUpdate(table=table))  # the host's update that follows
    said = [m.text for m in posted if isinstance(m, StatusLine)]
    logged = [m.text for m in posted if isinstance(m, LogLine)]
    assert said and said[-1].startswith("Waiting for Ann (20 s)")
    assert logged == ["Reconnected: you have your seat back."]
    session.closed = True
    session._waiting(SimpleNamespace(**{**vars(table), "waiting": []}))  # stop the tick
