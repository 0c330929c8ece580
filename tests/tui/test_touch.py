"""Issue 37, item 3 (the app's part): a phone's sizes get a layout, not the size notice,
and the touch bar plays a whole game by clicks alone (the real app, host and bots)."""

from __future__ import annotations

import pytest
from textual.widgets import Button

from net.clock import FakeClock
from tui.games.foolsgold.screen import FoolsGoldScreen
from tui.games.nuggets.screen import NuggetsScreen
from tui.screens.common import ChatScreen, ConfirmScreen, HelpScreen, MessageScreen, PickScreen
from tui.screens.menu import MenuScreen
from tui.screens.served import NameScreen
from tui.widgets.touchbar import TAP_GUARD, TouchBar

from .harness import log_text, make_app, until
from .helpers import footer_text, screen_text

#: a 390 px phone upright: the web door's page on Chromium's 390x844 phone
#: (``tests/serve/browser.PHONE``) is 41 columns by 40 rows (issue 58: measured)
PHONE = (41, 40)
SIDEWAYS = (90, 18)  # the same phone on its side


def _bar(app) -> dict[str, str]:
    """The touch bar's buttons shown now: id -> label."""
    bars = [bar for bar in app.screen.query(TouchBar) if bar.has_class("-shown")]
    return {str(b.id): str(b.label) for bar in bars for b in bar.query(Button)}


async def _click(pilot, ident: str) -> bool:
    """Click the button once it has settled; False when it went before that (the
    moment passed: a race ended, the bar was rebuilt for the next view)."""
    # a button just mounted has its place on the screen after a layout or two (the
    # bar sets its columns once its buttons are in): click where it stays
    seen = [None]

    def settled() -> str:
        found = pilot.app.screen.query(f"#{ident}")
        if not found:
            return "gone"
        region = found.first().region
        if region.area and region == seen[0]:
            return "still"
        seen[0] = region
        return ""

    if await until(pilot, settled, f"#{ident} settles", step=None) == "gone":
        return False
    await pilot.click(f"#{ident}")
    return True


@pytest.mark.timeout(240)  # a whole game against a bot
@pytest.mark.slow
@pytest.mark.parametrize("size", [PHONE, SIDEWAYS], ids=["41x40", "90x18"])
async def test_a_whole_gold_nuggets_game_by_touch_alone(tmp_path, monkeypatch, size):
    monkeypatch.setenv("MOTHERLODE_TOUCH", "1")  # as the web door runs the app
    app = make_app(tmp_path, start=("solo", "nuggets", 1),
                   table_options={"seed": "touch-1", "bot_pace": 0.0, "supply": 12})
    async with app.run_test(size=size) as pilot:
        await until(pilot, lambda: isinstance(app.screen, NuggetsScreen), "the table opens")
        screen: NuggetsScreen = app.screen
        await until(pilot, lambda: screen.view is not None, "a first view")
        text = screen_text(app)
        assert "needs a terminal" not in text
        assert "Supply ◆ 12" in text and "Ann 0" in text  # the scores
        rolled = False
        for _ in range(3000):
            if screen.view.over:
                break
            buttons = _bar(app)
            if "touch-advised" in buttons:  # the advisor's set-aside, then its play
                await _click(pilot, "touch-advised")
            elif "touch-roll" in buttons:
                await _click(pilot, "touch-roll")
                rolled = True
            else:
                await until(pilot, lambda: screen.view.over or {"touch-advised", "touch-roll"}
                            & set(_bar(app)), "something to tap", step=0.002)
            if rolled and screen.view.rolled and screen.acting_seat == 0:
                # the dice, small where the big ones do not fit, are on screen
                shown = screen_text(app)
                assert any(f"[{m}]" in shown for m in "NL2345"), shown
        await until(pilot, lambda: screen.view.over, "the game ends")
        assert "Game over" in screen_text(app)
        # no play is left: the bar offers the footer's Play again, Advisor and Leave (the
        # seed's game is won on the bot's turn: the footer once missed Play again there,
        # redone only when the seat's play keys changed, and they do not at that end)
        await until(pilot, lambda: set(_bar(app).values()) == {"Play again", "Advisor",
                                                               "Leave"},
                    "the bar of a game that is over")
        await _click(pilot, "touch-app-leave")
        await until(pilot, lambda: isinstance(app.screen, MenuScreen), "back at the menu")


@pytest.mark.timeout(240)  # a round on a fake clock: slow on a loaded machine
@pytest.mark.slow
@pytest.mark.parametrize("size", [PHONE, SIDEWAYS], ids=["41x40", "90x18"])
async def test_a_fools_gold_round_by_touch_alone(tmp_path, monkeypatch, size):
    monkeypatch.setenv("MOTHERLODE_TOUCH", "1")
    clock = FakeClock()
    app = make_app(tmp_path, start=("solo", "foolsgold", 2), host_clock=clock,
                   table_options={"seed": "cards-7", "bot_pace": 0.5})
    async with app.run_test(size=size) as pilot:
        await until(pilot, lambda: isinstance(app.screen, FoolsGoldScreen), "the table opens")
        screen: FoolsGoldScreen = app.screen
        await until(pilot, lambda: screen.view is not None and screen.view.hand, "the deal")
        # the hand, the piles and the scores are in sight, once the first view is laid
        # out (the narrow layout's class comes with the first resize)
        first = screen.view.hand[0].name
        await until(pilot, lambda: all(word in screen_text(app) for word in
                                       (first, "Draw", "Trash", "pts")), "the table laid out")
        assert "needs a terminal" not in screen_text(app)
        clicked: set[str] = set()
        clicked_n: list[str] = []

        async def play() -> bool:
            """A tap, if one is to be made, then 0.1 s of the host's clock."""
            view = screen.view
            if view.settled or view.round_no > 1:
                return True
            buttons = _bar(app)
            if view.grabbed:  # the race: call a bot's bluff, or grab a nugget
                order = ("touch-call", "touch-grab")
            elif len(clicked_n) < 12:  # keep the cards moving a while
                order = (*sorted(b for b in buttons if b.startswith("touch-pass-card-")),
                         "touch-draw")
            else:  # then grab first
                order = ("touch-grab",)
            pick = next((b for b in order if b in buttons), None)
            if pick is not None and await _click(pilot, pick):
                clicked.add("touch-pass" if pick.startswith("touch-pass") else pick)
                clicked_n.append(pick)
            clock.advance(0.1)
            return False

        await until(pilot, play, "the round settles", deadline=180, step=0.002)
        assert "Round settled" in log_text(screen)
        if screen.view.round_no == 1 and screen.view.winner is None:
            # the status says all it has to at a phone's 41 columns too (it wraps)
            shown = " ".join(screen_text(app).split())
            assert "match points under pts. The next round starts shortly." in shown, shown
        # the cards moved by taps, and the race was joined by one (a grab, or a call on
        # a bot's grab, whichever the bots' pace left open)
        assert {"touch-draw", "touch-pass"} <= clicked, clicked
        assert clicked & {"touch-grab", "touch-call"}, clicked


async def test_the_touch_bar_shows_the_footer_keys_and_toggles(tmp_path, monkeypatch):
    monkeypatch.delenv("MOTHERLODE_TOUCH", raising=False)
    app = make_app(tmp_path, start=("solo", "foolsgold", 2),
                   table_options={"seed": "cards-7", "bot_pace": 0.5})
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, FoolsGoldScreen), "the table opens")
        screen: FoolsGoldScreen = app.screen
        await until(pilot, lambda: screen.view is not None and screen.view.hand, "the deal")
        assert _bar(app) == {}  # in a terminal: no bar unless asked for
        app.toggle_touch()
        await pilot.pause()
        footer = await footer_text(pilot)
        labels = set(_bar(app).values())
        # the footer's keys of this screen, one button each (the discard: one a card)
        assert "Grab!" in labels and "Grab!" in footer and "Leave" in labels
        assert ("Draw" in labels) == ("d Draw" in footer)
        # while the footer offers 1-6 Pass, a button passes each name of card in the
        # hand, and says which ("Pass Owl", or shortened by words: "Pass C. Kate")
        bar = app.screen.query_one(TouchBar)
        passes = {b.name: str(b.label) for b in bar.query(Button)
                  if str(b.name).startswith("pass_card(")}
        assert bool(passes) == ("1-6 Pass" in footer)
        if passes:
            hand = {card.name for card in screen.view.hand}
            assert {action[11:-2] for action in passes} == hand, passes
            for action, label in passes.items():
                last = action[11:-2].split()[-1]
                assert label.endswith(last) and len(label) <= bar.label_width(), label
        app.toggle_touch()
        await pilot.pause()
        assert _bar(app) == {}


@pytest.mark.parametrize("size", [PHONE, SIDEWAYS], ids=["41x40", "90x18"])
async def test_every_dialog_answers_by_taps(tmp_path, monkeypatch, size):
    """A dialog takes every tap, so the bar of the screen below is out of reach: each
    dialog has its own keys as buttons in its box (a phone has no y, esc or enter),
    and a tap on one answers as its key does (the name and a chat line as typed)."""
    monkeypatch.setenv("MOTHERLODE_TOUCH", "1")
    app = make_app(tmp_path)
    clock = FakeClock()
    app.touch_clock = clock.now  # the bars' clock: a person's pause is an advance
    async with app.run_test(size=size) as pilot:
        await until(pilot, lambda: isinstance(app.screen, MenuScreen), "the menu")
        cases = [
            (lambda: ConfirmScreen("Leave?"), {"Yes", "No"}, "touch-answer-true", True),
            (lambda: ConfirmScreen("Leave?"), {"Yes", "No"}, "touch-answer-false", False),
            (lambda: MessageScreen("Full", "The table is full.", [("w", "watch the game"),
                                                                  ("esc", "back")]),
             {"Back", "Watch the game"}, "touch-pick-w", "w"),
            (lambda: MessageScreen("Over", "The game is over."), {"OK"}, "touch-close", None),
            (lambda: PickScreen("Steal from", [(1, "Bob: 3")]), {"Cancel"},
             "touch-cancel", None),
            (lambda: HelpScreen([("Keys", [("q", "leave")])]), {"Close"}, "touch-dismiss",
             None),
            (lambda: NameScreen(), {"OK", "Quit"}, "touch-submit", "Pip"),
            (lambda: ChatScreen(), {"Send", "Cancel"}, "touch-send", "howdy"),
        ]
        for make, labels, tap, answer in cases:
            answers: list[object] = []
            dialog = make()
            await app.push_screen(dialog, answers.append)
            await until(pilot, lambda d=dialog: app.screen is d, "the dialog opens")
            await until(pilot, lambda want=labels: set(_bar(app).values()) == want,
                        f"the buttons {labels} of {type(dialog).__name__}")
            typed = app.screen.query("Input")
            if typed:
                typed.first().value = str(answer)
            # a person reads the new dialog first: a tap on the place of the last
            # one's button a moment after it would be ignored (tui.widgets.touchbar)
            clock.advance(TAP_GUARD)
            await _click(pilot, tap)
            await until(pilot, lambda got=answers: got, f"{type(dialog).__name__} answered")
            assert answers == [answer], (type(dialog).__name__, answers)


@pytest.mark.parametrize("size", [PHONE, SIDEWAYS], ids=["41x40", "90x18"])
async def test_a_phone_reads_the_lobby_whole(tmp_path, monkeypatch, size):
    """At a phone's width the lobby's log wraps at its own width (RichLog's default
    would draw 78 cells and scroll sideways), and a seat's line keeps "(you)"."""
    from net import protocol as p
    from net.host import Host
    from tui.flows.messages import JoinGame
    from tui.screens.lobby import LobbyScreen

    monkeypatch.setenv("MOTHERLODE_TOUCH", "1")
    host = Host()
    await host.start(bind="127.0.0.1", port=0)
    try:
        host.create_table("Saloon", "nuggets", seats=3, bots=1, seed="lobby")
        app = make_app(tmp_path)
        async with app.run_test(size=size) as pilot:
            app.post_message(JoinGame("127.0.0.1", host.port))
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen)
                        and app.session.table and len(app.session.table.seats) == 2,
                        "seated in the lobby")
            said = "Seed revealed: aacd2ab41005c0e6... matches the hash shown at the start"
            app.session.send(p.Chat(text=said))
            await until(pilot, lambda: "matches the hash" in screen_text(app), "the chat")
            await pilot.pause()
            log = app.screen.query_one("#chat-log")
            assert log.max_scroll_x == 0, (log.virtual_size, log.size)
            assert "the start" in screen_text(app)  # wrapped, not cut
            lines = screen_text(app).splitlines()
            mine = next(line for line in lines if "Ann" in line and ". " in line)
            assert "(you)" in mine and "not ready" in mine, screen_text(app)
            assert set(_bar(app).values()) >= {"Ready", "Leave"}
    finally:
        await host.close()


async def test_a_narrow_screen_breaks_the_scores_between_players():
    """At a phone's 41 columns the supply and four players' nuggets take lines, and a player's
    name and nuggets stay on one (a line broke inside "Dusty (bot) 24")."""
    from textual.app import App

    from tui.games.nuggets.holdings import Holdings

    class One(App):
        CSS = "Holdings { padding: 0 1; height: auto; }"

        def compose(self):
            yield Holdings()

    app = One()
    async with app.run_test(size=PHONE) as pilot:
        board = app.query_one(Holdings)
        board.players = ("Pip", "Dusty (bot)", "Nell (bot)", "Calamity Jo")
        board.holdings = (53, 24, 7, 12)
        board.supply = 0
        board.winners = (0,)  # game over, as a phone showed it: "Pip 53 ★"
        await pilot.pause()
        lines = [line.strip() for line in screen_text(app).splitlines() if line.strip()]
        assert len(lines) > 1, lines
        for name, held in zip(board.players, board.holdings, strict=True):
            assert any(f"{name} {held}" in line for line in lines), (name, lines)


@pytest.mark.parametrize("size", [(40, 30), (42, 30), PHONE], ids=["40x30", "42x30", "41x40"])
async def test_a_phone_table_shows_every_name_whole(tmp_path, size):
    """Issue 47 item 6: at a phone's width the seats' names are whole ("Dusty (bo" was
    cut), a long one shortened by its words or wrapped; so are the hand's cards
    ("Panhandle Pet")."""
    from .helpers import foolsgold_view

    names = ["Ann", "Dusty (bot)", "Panhandle Pete (bot)", "Bartholomew Q Longname"[:20]]
    app = make_app(tmp_path)
    async with app.run_test(size=size) as pilot:
        screen = FoolsGoldScreen(0, names)
        await app.push_screen(screen)
        card = {"name": "Panhandle Pete", "kind": "prospector", "variant": "a"}
        view = foolsgold_view()
        screen.show_state(foolsgold_view(hand=[*view.hand[:5], card]), [])
        await until(pilot, lambda: "Owl" in screen_text(app), "the table")
        await pilot.pause()
        text = screen_text(app)
        assert "Dusty (bot)" in text, text
        assert "P. Pete (bot)" in text or ("Panhandle" in text and "Pete (bot)" in text), text
        assert "Bartholomew Q Longna" in text or "B. Q Longna" in text, text
        assert "Panhandle Pete" in text or "P. Pete" in text, text  # the card
        assert "Panhandle Pet " not in text and "Dusty (bo " not in text, text
