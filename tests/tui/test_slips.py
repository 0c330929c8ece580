"""Issue 37, item 5: the small-screen slips a new user saw, each shown on the whole
screen of the real app at the size it was seen at (80x24, 60x20)."""

from __future__ import annotations

import re

import pytest

from net import protocol as p
from net.client import Client
from net.clock import FakeClock
from net.host import Host
from tests.tui.harness import last_turn, next_message
from tui.games.foolsgold.screen import FoolsGoldScreen
from tui.games.nuggets.advisor import advice_lines
from tui.games.nuggets.screen import NuggetsScreen
from tui.screens.common import MessageScreen
from tui.screens.menu import MenuScreen

from .harness import log_text, make_app, until
from .helpers import Recorder, foolsgold_view, footer_text, nuggets_view, replace, screen_text

pytestmark = pytest.mark.timeout(60)


def _words(text: str) -> str:
    return " ".join(text.split())


async def test_the_steal_advice_is_whole_at_80x24(tmp_path):
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = NuggetsScreen([0], advisor=True)
        await app.push_screen(screen)
        view = last_turn()  # a lasso and a 5 on the table: their set-aside steals
        screen.show_state(view, [])
        await pilot.press("1", "2")
        await pilot.pause()
        lines = screen_text(app).splitlines()
        start = next(i for i, line in enumerate(lines) if line.startswith(" Advisor"))
        end = next(i for i, line in enumerate(lines) if line.startswith("─"))
        panel = _words(" ".join(lines[start:end]))
        advice = advice_lines(view, ["lasso", "5"])
        assert "steal 5 from Bob" in advice[0]
        for line in advice:
            assert _words(line) in panel, (line, "\n".join(lines))


async def test_a_card_foot_says_how_far_to_a_set_and_nothing_more(tmp_path):
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = FoolsGoldScreen(0, ["Ann", "Bob", "Cid", "Dee"])
        await app.push_screen(screen)
        screen.show_state(foolsgold_view(), [])
        await pilot.pause()
        feet = [line for line in screen_text(app).splitlines() if "/3 set" in line]
        assert len(feet) == 1, screen_text(app)
        # six cards, each foot "3/3 set" alone: no art letter (a, c, f...) after it
        assert re.fullmatch(r"(│ *\d/\d set *│){6}", feet[0]), feet[0]


async def test_the_card_table_footer_follows_the_phase(tmp_path):
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = FoolsGoldScreen(0, ["Ann", "Bob", "Cid", "Dee"])
        await app.push_screen(screen)
        full = foolsgold_view(start=0, incoming_sizes=[0, 0, 0, 0])
        five = replace(full, hand=full.hand[:5], hand_sizes=[5, 5, 5, 5])
        screen.show_state(five, [])
        footer = await footer_text(pilot)
        assert "d draws from the draw pile." in screen_text(app)
        assert "d Draw" in footer and "Pass" not in footer, footer
        screen.show_state(full, [])
        footer = await footer_text(pilot)
        assert "Pass a card: 1-6" in screen_text(app)
        assert "1-6 Pass" in footer and "Draw" not in footer, footer


async def test_a_table_hidden_by_the_size_notice_takes_no_keys(tmp_path):
    recorder = Recorder()
    app = make_app(tmp_path)
    async with app.run_test(size=(36, 12), message_hook=recorder) as pilot:
        screen = NuggetsScreen([0], advisor=False)
        await app.push_screen(screen)
        screen.show_state(nuggets_view(), [])
        await pilot.pause()
        assert "needs a terminal" in screen_text(app)
        await pilot.press("1", "n", "t", "enter", "space")
        assert screen.selected == frozenset() and recorder.actions == []
        assert "Take" not in await footer_text(pilot)
        await pilot.resize_terminal(80, 24)
        await pilot.press("1")
        assert screen.selected == {0}
        assert "Take" in await footer_text(pilot)


@pytest.mark.parametrize("size", [(80, 24), (60, 20)])
async def test_the_menu_footer_is_whole(tmp_path, size):
    app = make_app(tmp_path)
    async with app.run_test(size=size) as pilot:
        await until(pilot, lambda: isinstance(app.screen, MenuScreen), "the menu")
        footer = await footer_text(pilot)
        assert footer.rstrip().endswith("? Keys"), footer
        assert "q Quit" in footer


async def test_game_over_offers_no_steal(tmp_path):
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = NuggetsScreen([0], advisor=True)
        await app.push_screen(screen)
        view = nuggets_view(rolled=("lasso", "lasso", "lasso", "5", "5", "5", "nugget"))
        over = replace(view, over=True, winners=[0], phase="over", rolled=None,
                       kept=["lasso"] * 3, can_steal=True)
        screen.show_state(over, [])
        await pilot.pause()
        text = screen_text(app)
        assert "Game over: Ann won!" in text
        assert "steal" not in text, text


@pytest.mark.slow
async def test_a_person_back_without_the_seat_token_watches_their_stand_in(tmp_path):
    """Ann's line drops and a stand-in plays her seat; she comes back from an app
    without the seat's token: she is offered to watch (the box's line and its footer
    say the same), and is told she watches her own seat played by a stand-in, not that
    "Ann 2" is her name."""
    clock = FakeClock(1000.0)
    host = Host(clock=clock)
    await host.start(bind="127.0.0.1", port=0)
    table = host.create_table("Den", "nuggets", seats=3, bots=1, bot_pace=0.5,
                              seed="slips", first_player=0, grace=20.0)
    try:
        ann = await Client.connect("127.0.0.1", host.port, "Ann", reconnect=False)
        bob = await Client.connect("127.0.0.1", host.port, "Bob", reconnect=False)
        await ann.send(p.Ready())
        await bob.send(p.Ready())
        await next_message(bob, p.State)  # the game is on
        assert table.phase == "playing"
        ann._writer.transport.abort()  # Ann's line drops: no goodbye
        await ann.close()
        await next_message(bob, p.Notice, lambda n: n.event == "away")
        clock.advance(20.0)  # the grace period: a stand-in plays Ann
        await next_message(bob, p.Notice, lambda n: n.event == "standin")
        app = make_app(tmp_path, start=("join", "127.0.0.1", host.port))
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, MessageScreen), "the refusal")
            await pilot.pause()
            text = screen_text(app)
            assert "w: watch the game   esc: back" in text
            footer = await footer_text(pilot)
            assert "esc Back" in footer and "OK" not in footer, footer
            await pilot.press("w")
            await until(pilot, lambda: isinstance(app.screen, NuggetsScreen), "the table")
            screen = app.screen
            await until(pilot, lambda: "You are watching Ann's game" in log_text(screen),
                        "what is true")
            said = log_text(screen)
            assert ("You are watching Ann's game as a spectator (Ann 2 here): a stand-in bot "
                    "plays Ann's seat.") in said
            assert "is your name here" not in said
        await bob.close()
    finally:
        await host.close()
