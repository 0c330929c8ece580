"""Every mode driven through the real host and client: hot-seat to the end, Fool's Gold
against bots to a settled round, joining over TCP, a host lost and back, failures."""

from __future__ import annotations

import asyncio

import pytest

from net import protocol as p
from net.client import Client, Disconnected
from net.clock import FakeClock
from net.host import Host
from nuggets import odds
from tui.flows.messages import PlayBots
from tui.games.foolsgold.screen import FoolsGoldScreen
from tui.games.nuggets.screen import NuggetsScreen
from tui.screens.common import MessageScreen
from tui.screens.lobby import LobbyScreen
from tui.screens.menu import MenuScreen

from .harness import keys_for, log_text, make_app, until
from .helpers import screen_text


@pytest.mark.timeout(240)  # a whole game: 20 s on a quiet machine, 86 s at load 13
@pytest.mark.slow
async def test_hotseat_dice_to_the_end(tmp_path):
    """Two people and a bot on one keyboard, played by keys until the supply is empty."""
    seats = [("Ann", False), ("Bob", False), ("Robo", True)]
    # a supply of 25 (of 77): a whole game, in a third of the turns
    app = make_app(tmp_path, start=("hotseat", seats),
                   table_options={"seed": "hotseat-1", "bot_pace": 0.0, "supply": 25})
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, NuggetsScreen), "the table opens")
        screen: NuggetsScreen = app.screen
        await until(pilot, lambda: screen.view is not None, "a first view")
        assert len(screen.my_seats) == 2
        presses = 0
        banners = set()
        while not screen.view.over:
            await until(pilot, lambda: screen.acting_seat is not None or screen.view.over,
                        "a keyboard seat's turn, or the end")
            view = screen.view
            if view.over:
                break
            banners.add(screen.query_one("#banner").text)
            phase = view.phase
            if phase in ("roll", "choose"):
                await pilot.press("enter")
            elif phase == "take":
                await pilot.press("t")
            else:
                best = odds.best_keep(view.rolled, view.kept)
                await pilot.press(*keys_for(view.rolled, best))
                kept_after = view.kept + [f.value for f in best]
                roll_on = odds.expected_roll(kept_after)
                stop = odds.expected_stop(kept_after)
                await pilot.press("enter" if roll_on is not None and roll_on > stop else "t")
            presses += 1
            old = view
            # the host's answer; after a set-aside the screen sends its roll on (or take) by
            # itself once the set-aside is answered (a "choose" view, passed through): the
            # next key waits for that too, or it would land on the next roll
            await until(pilot, lambda old=old, kept=phase == "keep": screen.view is not old
                        and not (kept and screen.view.phase == "choose"), "the host answers")
        assert screen.view.over, "the game did not end"
        text = screen_text(app)
        assert "Game over" in text
        assert sum(screen.view.holdings) == 25 and screen.view.supply == 0
        # hot-seat banners name whose turn it is (a moment may cover a short turn)
        assert any(b.startswith(">>> ") for b in banners)
        assert any("Ann" in b for b in banners) and any("Bob" in b for b in banners)
        assert presses > 10
        assert "Seed revealed" in log_text(screen) and "matches the hash" in log_text(screen)
        # a rematch: p plays the same game again with the same people and bot
        assert "p Play again" in screen_text(app).splitlines()[-1]
        assert "p plays again; q leaves the table." in text
        await pilot.press("p")
        await until(pilot, lambda: isinstance(app.screen, NuggetsScreen)
                    and app.screen is not screen and app.screen.view is not None,
                    "a new game's table")
        again: NuggetsScreen = app.screen
        assert not again.view.over and again.view.supply == 25  # the same settings again
        assert list(again.view.players) == list(screen.view.players)
        assert len(again.my_seats) == 2 and "Play again" not in screen_text(app)
        await pilot.press("q")
        await until(pilot, lambda: "Leave this game?" in screen_text(app), "a game in play asks")
        await pilot.press("y")
        await until(pilot, lambda: isinstance(app.screen, MenuScreen), "back at the menu")


@pytest.mark.slow
async def test_foolsgold_against_bots_to_a_settled_round(tmp_path):
    """Solo Fool's Gold on a fake host clock: keep cards moving, call a bot's grab,
    grab a nugget, and see the reveal and the round result."""
    clock = FakeClock()
    app = make_app(tmp_path, start=("solo", "foolsgold", 2), host_clock=clock,
                   table_options={"seed": "cards-7", "bot_pace": 0.5})
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, FoolsGoldScreen), "the table opens")
        screen: FoolsGoldScreen = app.screen
        await until(pilot, lambda: screen.view is not None, "a first view")
        called = grabbed = False

        async def play() -> bool:
            """Ann's part now, then 0.1 s of the host's clock; True once settled."""
            nonlocal called, grabbed
            view = screen.view
            if view.settled or view.round_no > 1:
                return True
            hand = view.hand or []
            if view.grabbed and not called and view.grabbed[0][0] != 0:
                await pilot.press("f")
                called = True
            elif view.grabbed and not grabbed:
                await pilot.press("g")
                grabbed = True
            elif not view.frozen and len(hand) == 6:
                await pilot.press("1")
            elif not view.frozen and len(hand) == 5 and (
                    view.start == 0 or view.incoming_sizes[0]):
                await pilot.press("d")
            clock.advance(0.1)
            return False

        await until(pilot, play, "the round settles", deadline=120, step=0.002)
        assert called and grabbed
        lines = log_text(screen)
        assert "called \"Fool's Gold!\"" in lines
        assert "hand is revealed" in lines
        assert "Round settled" in lines
        # the same game again once the match is over: against the same number of bots
        again = app.flows.leave.again()
        assert isinstance(again, PlayBots) and (again.game, again.bots) == ("foolsgold", 2)
        assert not screen.finished and not screen.can_play_again()
        assert "Play again" not in screen_text(app)


async def _table_host(game="nuggets", seats=2, bots=1, **settings) -> Host:
    host = Host()
    await host.start(bind="127.0.0.1", port=0)
    host.create_table("Test table", game, seats=seats, bots=bots, bot_pace=0.0,
                      seed="tcp-1", **settings)
    return host


@pytest.mark.slow
async def test_join_over_tcp_lobby_then_table(tmp_path):
    host = await _table_host()
    try:
        app = make_app(tmp_path, start=("join", "127.0.0.1", host.port))
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby opens")
            await until(pilot, lambda: "not ready" in screen_text(app), "the seats show")
            text = screen_text(app)
            assert "Gold Nuggets at Test table" in text
            assert "Rusty" in text or "(bot)" in text
            await pilot.press("r")  # ready: the table is full, so the game starts
            await until(pilot, lambda: isinstance(app.screen, NuggetsScreen), "the game starts")
            screen = app.screen
            await until(pilot, lambda: screen.view is not None, "a view")
            assert "Seed hash" in log_text(screen)
            await until(pilot, lambda: screen.acting_seat == 1, "my turn")
            await pilot.press("enter")
            await until(pilot, lambda: screen.view.phase != "roll"
                        or screen.view.current != 1, "my roll is confirmed")
            await pilot.press("c")
            await until(pilot, lambda: "Say something" in screen_text(app), "the chat box")
            await pilot.press(*"gl hf", "enter")
            await until(pilot, lambda: "Ann: gl hf" in log_text(screen), "the chat line")
    finally:
        await host.close()


@pytest.mark.slow
async def test_a_lost_host_is_said_and_the_seat_comes_back(tmp_path):
    """The host's network goes away mid-game (connections cut, nothing listening);
    the screen says so while the client retries; when the host listens again the
    client resumes its seat."""
    client_clock = FakeClock()
    host = await _table_host()
    port = host.port
    try:
        app = make_app(tmp_path, start=("join", "127.0.0.1", port), client_clock=client_clock)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
            await pilot.press("r")
            await until(pilot, lambda: isinstance(app.screen, NuggetsScreen), "the game")
            screen = app.screen
            await until(pilot, lambda: screen.view is not None, "a view")
            # the host vanishes: stop listening and cut every connection, without a bye
            host._server.close()
            await host._server.wait_closed()
            for peer in list(host._peers):
                peer.abort()
            # the first attempt (at once) fails: nothing listens; the countdown to the next
            await until(pilot, lambda: "The host is gone; trying again in 1 s" in
                        screen_text(app), "the reconnect message")
            assert "(q leaves, j tries now)" in screen_text(app)
            client_clock.advance(0.6)  # attempt 2 fails too
            await until(pilot, lambda: "The host is gone; trying again in" in screen_text(app),
                        "still gone, counting down to the next attempt")
            await host.start(bind="127.0.0.1", port=port)  # the host is back

            def resumed() -> bool:
                """Reconnected yet? Else a second more of the client's clock."""
                if "Reconnected" in screen_text(app):
                    return True
                client_clock.advance(1.0)
                return False

            await until(pilot, resumed, "the resume", step=0.01)
            assert isinstance(app.screen, NuggetsScreen)
            app.session._clear_reconnected()  # what the timer does after a few seconds
            await pilot.pause()
            assert "Reconnected" not in screen_text(app)
            # the seat works again: an action reaches the host and comes back
            await until(pilot, lambda: screen.acting_seat == 1, "my turn")
            before = screen.view
            await pilot.press("enter")
            await until(pilot, lambda: screen.view is not before, "the host answers again")
    finally:
        await host.close()


async def test_unreachable_host_is_a_clear_message(tmp_path):
    server = await asyncio.start_server(lambda r, w: None, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    server.close()
    await server.wait_closed()
    app = make_app(tmp_path, start=("join", "127.0.0.1", port))
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: "Cannot reach the host" in screen_text(app), "a message")
        text = screen_text(app)
        assert isinstance(app.screen, MessageScreen)
        assert "Traceback" not in text and "Errno" not in text
        assert f"Nothing answers at 127.0.0.1:{port}: is the host running" in text
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, MenuScreen), "back at the menu")


async def test_a_full_table_is_a_clear_message(tmp_path):
    host = await _table_host(seats=2, bots=2)
    try:
        app = make_app(tmp_path, start=("join", "127.0.0.1", host.port))
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: "The table is full" in screen_text(app), "a message")
            assert isinstance(app.screen, MessageScreen)
    finally:
        await host.close()


async def test_another_protocol_version_is_a_clear_message(tmp_path):
    async def future_host(reader, writer):
        await reader.readline()
        writer.write(b'{"type":"error","code":"bad_version","message":"This host speaks '
                     b'protocol 2; you speak 1."}\n')
        await writer.drain()
        writer.close()

    server = await asyncio.start_server(future_host, "127.0.0.1", 0)
    try:
        port = server.sockets[0].getsockname()[1]
        app = make_app(tmp_path, start=("join", "127.0.0.1", port))
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: "Different versions" in screen_text(app), "a message")
            assert "protocol 2" in screen_text(app)
    finally:
        server.close()
        await server.wait_closed()


async def test_hostile_chat_and_names_in_the_lobby_stay_literal(tmp_path):
    host = await _table_host(seats=3, bots=0)
    try:
        app = make_app(tmp_path, start=("join", "127.0.0.1", host.port))
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
            other = await Client.connect("127.0.0.1", host.port, "[@click=app.quit]Eve\x1b[31m")
            try:
                await other.send(p.Chat(text="[bold]hi[/] [/] \x1b]0;pwned\x07 [@click=app.quit]"))
                await until(pilot, lambda: "[bold]hi[/]" in screen_text(app), "the chat line")
                text = screen_text(app)
                assert "[@click=app.quit]Eve" in text
                assert "\x1b" not in text and "pwned" not in text
                await pilot.click("#chat-log")
                await pilot.pause()
                assert app.is_running
            finally:
                await other.close()
    finally:
        await host.close()


@pytest.mark.slow
async def test_hosting_a_lan_game_shows_the_address_and_seats_a_joiner(tmp_path):
    """Host a LAN game from the menu: a TCP host runs in the app, its address shows,
    a player joins over TCP, the owner adds a bot and starts; everyone gets the table."""
    app = make_app(tmp_path, lan_port=0, lan_bind="127.0.0.1",
                   table_options={"seed": "lan-1", "bot_pace": 0.0})
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("o")
        await until(pilot, lambda: "Host which game?" in screen_text(app), "the game picker")
        await pilot.press("enter")  # Gold Nuggets
        await until(pilot, lambda: "Listen on" in screen_text(app), "where to listen")
        text = screen_text(app)
        assert "port 7777 on all interfaces" in text and "This machine only (127.0.0.1)" in text
        await pilot.press("ctrl+s")  # the app's test port and interface, as filled in
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
        await until(pilot, lambda: "motherlode join 127.0.0.1:" in screen_text(app),
                    "the address to share")
        port = app.session.host.port
        guest = await Client.connect("127.0.0.1", port, "Bob")
        try:
            await until(pilot, lambda: "Bob" in screen_text(app), "the guest's seat")
            # how long a game lasts, at the players seated (two, then three)
            assert "A game lasts about 12 turns each." in screen_text(app)
            for key in ("minus", "minus", "b"):  # 5 seats -> 3, then a bot
                await pilot.press(key)
            await until(pilot, lambda: "(bot)" in screen_text(app), "the bot")
            assert "3 seats" in screen_text(app)
            await until(pilot, lambda: "about 8 turns each" in screen_text(app), "3 players")
            await pilot.press("s")
            await until(pilot, lambda: "Waiting for Bob" in screen_text(app), "not ready")
            await guest.send(p.Ready())
            await until(pilot, lambda: "Everyone else is ready" in screen_text(app), "all ready")
            await pilot.press("s")
            await until(pilot, lambda: isinstance(app.screen, NuggetsScreen), "the game")
            got = []
            while not any(isinstance(m, p.State) for m in got):
                got.append(await asyncio.wait_for(guest.recv(), 5))
            assert any(isinstance(m, p.Started) for m in got)
        finally:
            await guest.close()
        await pilot.press("q")
        await until(pilot, lambda: "close the table for everyone" in screen_text(app),
                    "the confirmation")
        await pilot.press("y")
        await until(pilot, lambda: isinstance(app.screen, MenuScreen), "the menu")


async def test_join_screen_lists_an_announced_table_live_and_joins_it(tmp_path):
    """A host announces its table with the discovery beacon (on loopback only); the
    join screen shows it as it appears, and enter on it joins over TCP."""
    import socket

    from net import discovery

    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    probe.bind(("127.0.0.1", 0))
    beacon_port = probe.getsockname()[1]
    probe.close()
    host = await _table_host(seats=3, bots=1)
    announcer = discovery.Announcer(mdns=False, beacon=("127.0.0.1", beacon_port), interval=0.05)
    try:
        app = make_app(tmp_path, discover=True,
                       browse_options={"mdns": False, "beacon": ("127.0.0.1", beacon_port)})
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("j")
            await until(pilot, lambda: "None found yet" in screen_text(app), "an empty list")
            await announcer.start(discovery.Announcement(
                game="nuggets", table="Saloon [bold]No.1[/]", seats_free=2, seats_total=3,
                port=host.port, protocol=p.PROTOCOL_VERSION))
            await until(pilot, lambda: "Saloon [bold]No.1[/]" in screen_text(app),
                        "the announced table")
            assert "1 found." in screen_text(app)
            await pilot.press("tab")  # from the address field to the list
            await pilot.press("down", "enter")
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
            await until(pilot, lambda: "Gold Nuggets at Test table" in screen_text(app),
                        "the lobby drawn")
    finally:
        await announcer.close()
        await host.close()


async def test_a_spectator_watches_the_cards_without_a_hand(tmp_path):
    host = await _table_host(game="foolsgold", seats=2, bots=1)
    try:
        app = make_app(tmp_path, start=("join", "127.0.0.1", host.port, True))
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
            player = await Client.connect("127.0.0.1", host.port, "Bob")
            await player.send(p.Start())  # Bob owns the table and starts it
            await until(pilot, lambda: isinstance(app.screen, FoolsGoldScreen), "the table")
            screen = app.screen
            await until(pilot, lambda: screen.view is not None, "a public view")
            assert screen.view.hand is None
            # said once, where the status is (not again in the log or the hand)
            await until(pilot, lambda: screen_text(app).count("You are watching") == 1
                        and "spectator sees no one's cards" in screen_text(app),
                        "watching said once")
            footer = screen_text(app).splitlines()[-1]
            assert "Draw" not in footer and "Grab" not in footer  # no keys to play
            await pilot.press("g")
            await pilot.pause()
            assert app.is_running and "You are watching" in screen_text(app)
            await player.close()
    finally:
        await host.close()


@pytest.mark.slow
async def test_quitting_while_hosting_tells_the_players(tmp_path):
    app = make_app(tmp_path, lan_port=0, lan_bind="127.0.0.1")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("o", "down", "enter")  # Fool's Gold
        await until(pilot, lambda: "Listen on" in screen_text(app), "where to listen")
        await pilot.press("ctrl+s")
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
        guest = await Client.connect("127.0.0.1", app.session.host.port, "Bob", reconnect=False)
        await pilot.press("ctrl+q")
        items = []
        while not items or not isinstance(items[-1], Disconnected):
            items.append(await asyncio.wait_for(guest.recv(), 5))
        assert any(isinstance(item, p.Bye) for item in items)
        assert items[-1].error is None  # a goodbye, not a dropped line


async def test_hotseat_form_from_the_menu_seats_people_and_a_bot(tmp_path):
    app = make_app(tmp_path, table_options={"seed": "form", "bot_pace": 0.0})
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("h")
        await until(pilot, lambda: "Gold Nuggets: hot-seat" in screen_text(app), "the form")
        app.screen.query_one("#seat-1").value = "[b]Bob[/b]"
        app.screen.query_one("#bot-2").value = True
        await pilot.press("ctrl+s")
        await until(pilot, lambda: isinstance(app.screen, NuggetsScreen), "the table")
        screen = app.screen
        await until(pilot, lambda: screen.view is not None, "a view")
        assert screen.view.players[:2] == ["Ann", "[b]Bob[/b]"]
        assert "(bot)" in screen.view.players[2]
        assert screen.my_seats == [0, 1]


@pytest.mark.slow
async def test_hosting_where_nothing_can_listen_is_a_clear_message(tmp_path):
    app = make_app(tmp_path, lan_port=0, lan_bind="192.0.2.1")  # TEST-NET: not ours
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("o", "enter")
        await until(pilot, lambda: "Listen on" in screen_text(app), "where to listen")
        await pilot.press("ctrl+s")
        await until(pilot, lambda: "Cannot host a game here" in screen_text(app), "a message")


async def test_a_failure_inside_the_connection_is_logged_and_said(tmp_path):
    """A bug below the screens (here: a client whose stream breaks with an unexpected
    error) is logged under the log directory; the screen says where; the app lives."""
    app = make_app(tmp_path, start=("solo", "nuggets", 1), table_options={"bot_pace": 0.0})
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, NuggetsScreen), "the table")
        client = app.session.client

        async def broken():
            raise RuntimeError("stream broke")

        client.recv = broken  # the reader calls it for the next item
        # any message from the host wakes the reader (a key would not do: were the
        # message shown first, the key would close it)
        app.session.send(p.Chat(text="hello"))
        await until(pilot, lambda: "Something went wrong" in screen_text(app), "the message")
        assert "The details are in" in screen_text(app)
        assert app.crash_log is not None and "stream broke" in app.crash_log.read_text()
        assert app.is_running


async def test_a_host_that_closes_the_table_says_so(tmp_path):
    host = await _table_host()
    app = make_app(tmp_path, start=("join", "127.0.0.1", host.port))
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
        await host.close("the host went home")
        await until(pilot, lambda: "The table closed" in screen_text(app), "the message")
        assert "the host went home" in screen_text(app)
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, MenuScreen), "the menu")
