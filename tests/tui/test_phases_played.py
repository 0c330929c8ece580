"""Footers and status lines through games played: Gold Nuggets over TCP, hot-seat, a
Fool's Gold round on the host's clock, the lobby's ready line, joining a game under
way."""

from __future__ import annotations

import asyncio

import pytest

from net import protocol as p
from net.client import Client
from net.clock import FakeClock
from net.host import Host
from tests.tui.harness import dealt, labels, pass_a_card, solo_fools_gold
from tests.tui.helpers import ALWAYS
from tui.games.foolsgold.screen import FoolsGoldScreen
from tui.games.nuggets.screen import NuggetsScreen
from tui.screens.common import MessageScreen
from tui.screens.lobby import LobbyScreen

from .harness import make_app, until
from .helpers import footer_text, screen_text

#: at a table of people, React works too (issue 61)
PEOPLE = ALWAYS | {"React"}


async def _nuggets_host(clock: FakeClock, **settings) -> Host:
    host = Host(clock=clock)
    await host.start(bind="127.0.0.1", port=0)
    host.create_table("Den", "nuggets", seats=2, bots=1, bot_pace=1.0, seed="phases-2",
                      first_player=1, **settings)
    return host


async def _let_the_bot_play(pilot, clock, screen) -> None:
    """Move the host's clock on until it is this keyboard's turn again."""

    def back() -> bool:
        if screen.acting_seat is not None or screen.view.over:
            return True
        clock.advance(0.5)
        return False

    await until(pilot, back, "the bot finishes its turn", step=0.005)


@pytest.mark.slow
async def test_gold_nuggets_footer_and_status_turn_by_turn_over_tcp(tmp_path):
    """Ann against a bot: the lobby, her roll, her set-aside, the bot's turn seen from
    her seat, and a bust (hers or the bot's), each with the footer and status it needs."""
    clock = FakeClock()
    host = await _nuggets_host(clock)
    try:
        app = make_app(tmp_path, start=("join", "127.0.0.1", host.port))
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
            await until(pilot, lambda: "Press s to start." in screen_text(app), "the owner")
            assert labels(await footer_text(pilot)) == {
                "Ready", "Start", "Remove bot", "Pace", "Chat", "Leave", "Keys"}
            await pilot.press("s")
            await until(pilot, lambda: isinstance(app.screen, NuggetsScreen), "the game")
            screen = app.screen
            await until(pilot, lambda: screen.acting_seat == 1, "Ann's turn")
            bot = screen.view.players[0]
            assert labels(await footer_text(pilot)) == {"Roll on"} | PEOPLE
            assert "enter rolls all seven dice." in screen_text(app)
            await pilot.press("enter")
            await until(pilot, lambda: screen.view.phase != "roll", "the roll")
            assert screen.view.phase == "keep"  # this seed's first roll is no bust
            assert labels(await footer_text(pilot)) == {"Roll on", "Advised"} | PEOPLE
            assert "Pick dice (1-7," in screen_text(app)
            await pilot.press("space")  # the advisor's set-aside: now t takes it
            footer = labels(await footer_text(pilot))
            assert {"Roll on", "Advised", "Take"} <= footer
            assert "Set aside " in screen_text(app)
            await pilot.press("t")
            await until(pilot, lambda: screen.view.current == 0, "the bot's turn")
            assert labels(await footer_text(pilot)) == PEOPLE  # nothing to play
            assert f"{bot} is playing." in screen_text(app)
            # play on (roll, set aside the advised dice and roll on) until a bust
            busts = 0
            for _ in range(60):
                await _let_the_bot_play(pilot, clock, screen)
                if screen.view.over:
                    break
                log = "\n".join(line.plain for line in screen.query_one("#log").lines)
                if "went bust" in log:
                    busts = log.count("went bust")
                    break
                before = screen.view
                phase = before.phase
                if phase == "take":  # all seven set aside: only t works
                    assert labels(await footer_text(pilot)) == {"Take", "Advised"} | PEOPLE
                    assert "All seven dice set aside: t takes" in screen_text(app)
                    await pilot.press("enter")  # not accepted: nothing changes
                    await pilot.pause()
                    assert screen.view is before
                await pilot.press({"keep": "space", "take": "t"}.get(phase, "enter"))
                if phase == "keep":
                    await pilot.press("enter")
                await until(pilot, lambda before=before: screen.view is not before, "a move")
            assert busts, "nobody went bust in 60 moves"
            # after the bust it is not Ann's to roll unless it is her turn now
            await footer_text(pilot)
            now = screen.now()
            assert labels(await footer_text(pilot)) == (
                {"Roll on"} | PEOPLE if now.phase == "roll" else PEOPLE)
            assert now.status in screen_text(app)
    finally:
        await host.close()


@pytest.mark.slow
async def test_hotseat_footer_belongs_to_whoever_moves(tmp_path):
    app = make_app(tmp_path, start=("hotseat", [("Ann", False), ("Bob", False)]),
                   table_options={"seed": "hot-phases", "first_player": 0})
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, NuggetsScreen), "the table")
        screen = app.screen
        await until(pilot, lambda: screen.view is not None, "a view")
        assert labels(await footer_text(pilot)) == {"Roll on"} | ALWAYS
        first = screen.view.current
        await pilot.press("enter")
        await until(pilot, lambda: screen.view.phase != "roll" or screen.view.current != first,
                    "the roll")
        if screen.view.phase == "keep":
            await pilot.press("space", "t")
        await until(pilot, lambda: screen.view.current != first, "the other's turn")
        other = screen.view.players[screen.view.current]
        assert labels(await footer_text(pilot)) == {"Roll on"} | ALWAYS
        assert f">>> {other}'s turn <<<" in screen_text(app) or "BUST" in screen_text(app)
        assert "enter rolls all seven dice." in screen_text(app)


@pytest.mark.slow
async def test_fools_gold_footer_and_status_through_a_round(tmp_path):
    """Solo Fool's Gold on a host clock that moves only when told: before and after a
    draw, waiting for a card, the frozen race after a bot's grab, after Ann's grab, the
    call window open then closed, no nuggets left, and the round over."""
    clock = FakeClock()
    app = solo_fools_gold(tmp_path, clock, first_player=1)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await dealt(app, pilot)
        assert screen.view.start != screen.seat  # a bot starts: Ann waits for a card
        assert labels(await footer_text(pilot)) == {"Grab!", "Leave", "Keys"}
        assert "Waiting for a card from your right neighbour." in screen_text(app)
        seen = set()

        async def play() -> bool:
            view = screen.view
            if view.grabbed or view.settled:
                return True
            now = screen.now()
            if now.phase not in seen:
                seen.add(now.phase)
                footer = labels(await footer_text(pilot))
                expected = {"draw": {"Draw", "Grab!"}, "discard": {"Pass", "Grab!"},
                            "wait-card": {"Grab!"}}[now.phase]
                assert footer == expected | {"Leave", "Keys"}, (now, footer)
                assert now.status in screen_text(app)
            await pass_a_card(pilot, now, clock)
            return False

        await until(pilot, play, "a grab", deadline=120, step=0.002)
        assert {"draw", "discard", "wait-card"} <= seen
        await until(pilot, lambda: screen.view.grabbed or screen.view.settled, "a grab")
        assert screen.view.grabbed[0][0] != screen.seat  # a bot grabbed first
        assert labels(await footer_text(pilot)) == {"Grab!", "Fool's Gold!", "Leave", "Keys"}
        assert "g grabs a nugget, f calls \"Fool's Gold!\"" in screen_text(app)
        await pilot.press("g")
        await until(pilot, lambda: screen.seat in {s for s, _ in screen.view.grabbed},
                    "Ann's grab")
        if screen.view.caller is None and screen.view.nuggets_left == 0:
            # two bots, two nuggets: the race is over, and Ann may still call
            assert labels(await footer_text(pilot)) == {"Fool's Gold!", "Leave", "Keys"}
            assert "f calls \"Fool's Gold!\"" in screen_text(app)
            assert "Waiting for the race to end." not in screen_text(app)
        # the call window closes on the host's clock: nothing to press, the round settles

        def closed() -> bool:
            if screen.view.settled or screen.view.round_no > 1:
                return True
            clock.advance(0.25)
            return False

        await until(pilot, closed, "the call window closes", step=0.005)
        await until(pilot, lambda: screen.view.settled, "the round settles")
        assert labels(await footer_text(pilot)) == {"Leave", "Keys"}
        assert "Points of this round in ( )" in screen_text(app)
        assert "Waiting for the race to end." not in screen_text(app)


async def test_the_lobby_line_follows_who_is_ready(tmp_path):
    """The owner read "Everyone is ready" while two players were listed "not ready":
    the line is derived again from every table update."""
    host = Host()
    await host.start(bind="127.0.0.1", port=0)
    host.create_table("Den", "nuggets", seats=4, bot_pace=0.0, seed="lobby")
    clients = []
    try:
        app = make_app(tmp_path, start=("join", "127.0.0.1", host.port))
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
            bob = await Client.connect("127.0.0.1", host.port, "Bob")
            clients.append(bob)
            await until(pilot, lambda: "Waiting for Bob to get ready" in screen_text(app),
                        "Bob is awaited")
            assert "Start" not in labels(await footer_text(pilot))
            await bob.send(p.Ready(ready=True))
            await until(pilot, lambda: "Everyone else is ready: press s" in screen_text(app),
                        "everyone is ready")
            assert "Start" in labels(await footer_text(pilot))
            cy = await Client.connect("127.0.0.1", host.port, "Cy")
            clients.append(cy)
            # a new player is new terms: Bob's "ready" was for a table without Cy
            await until(pilot, lambda: "Waiting for Bob, Cy to get ready" in screen_text(app),
                        "Bob and Cy are awaited")
            assert "Everyone" not in screen_text(app)
            assert "Start" not in labels(await footer_text(pilot))
            await bob.send(p.Ready(ready=True))
            await until(pilot, lambda: "Waiting for Cy to get ready" in screen_text(app),
                        "Cy is awaited")
            assert "Start" not in labels(await footer_text(pilot))
            await bob.send(p.Ready(ready=False))
            await until(pilot, lambda: "Waiting for Bob, Cy to get ready" in screen_text(app),
                        "Bob is awaited again")
    finally:
        for client in clients:
            await client.close()
        await host.close()


@pytest.mark.slow
async def test_joining_a_running_game_says_it_started_and_offers_to_watch(tmp_path):
    """3 of 8 seats taken and playing: not "The table is full"."""
    host = Host()
    await host.start(bind="127.0.0.1", port=0)
    host.create_table("Den", "foolsgold", seats=8, bots=2, bot_pace=0.0, seed="started")
    owner = await Client.connect("127.0.0.1", host.port, "Bob")
    try:
        await owner.send(p.Start())
        while not isinstance(await asyncio.wait_for(owner.recv(), 10), p.Started):
            pass
        app = make_app(tmp_path, start=("join", "127.0.0.1", host.port))
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, MessageScreen), "a message")
            # read once drawn: the message may be pushed before the menu's first frame
            await until(pilot, lambda: screen_text(app).strip(), "the message drawn")
            text = screen_text(app)
            assert "The game has started" in text and "The table is full" not in text
            assert "w: watch the game" in text
            # the footer offers it too, beside the way out, named as the box names it
            assert labels(await footer_text(pilot)) == {"Watch the game", "Back"}
            await pilot.press("w")
            await until(pilot, lambda: isinstance(app.screen, FoolsGoldScreen), "watching")
            screen = app.screen
            await until(pilot, lambda: screen.view is not None, "a view")
            assert labels(await footer_text(pilot)) == {"Leave", "Keys", "React"}
    finally:
        await owner.close()
        await host.close()


def test_each_game_table_says_when_its_game_is_over():
    """Leaving a finished game needs no confirmation: each game's table knows what
    over means for its view; the shared table never guesses from another game's."""
    from tui.games.foolsgold.screen import FoolsGoldScreen
    from tui.games.nuggets.screen import NuggetsScreen
    from tui.screens.table import TableScreen

    from .helpers import foolsgold_view, nuggets_view, replace

    cards = FoolsGoldScreen(0, ["Ann", "Bob", "Cy", "Di"])
    cards.view = foolsgold_view()
    assert not cards.finished
    cards.view = foolsgold_view(winner=2)
    assert cards.finished
    dice = NuggetsScreen([0])
    dice.view = nuggets_view()
    assert not dice.finished
    dice.view = replace(nuggets_view(), over=True)
    assert dice.finished
    dice.view = foolsgold_view(winner=2)  # another game's view is not this game's end
    assert not dice.finished
    shared = TableScreen()
    shared.view = foolsgold_view(winner=2)
    assert not shared.finished
