"""The app shell driven by a Pilot: menu, help, rules, settings, and both tables fed
real views, with keys turned into protocol actions."""

from __future__ import annotations

import pytest

from net.games.foolsgold import moves as fm
from net.games.nuggets import moves as nm
from net.views import to_plain
from tui.games.foolsgold.screen import FoolsGoldScreen
from tui.games.nuggets.dice import DiceTray
from tui.games.nuggets.screen import NuggetsScreen
from tui.screens.common import HelpScreen, RulesScreen
from tui.screens.forms import SettingsScreen
from tui.screens.menu import MenuScreen
from tui.settings import Settings

from .harness import make_app
from .helpers import (
    Recorder,
    events,
    foolsgold_view,
    footer_text,
    nuggets_view,
    replace,
    screen_text,
)

HOSTILE = ["[bold]Ann[/]", "[@click=app.quit]Bob", "Cid\x1b[31m\x07", "[/]"]


@pytest.mark.slow
async def test_menu_opens_and_every_choice_has_a_key(tmp_path):
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, MenuScreen)
        text = screen_text(app)
        for label in ("hot-seat", "against bots", "Host a LAN game", "Join a LAN game", "Rules",
                      "Settings", "Quit"):
            assert label in text
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        text = screen_text(app)
        for key in ("h", "n", "f", "o", "j", "r", "s", "q", "ctrl+q"):
            assert f"  {key} " in text
        await pilot.press("escape")
        await pilot.press("r")
        await pilot.pause()
        assert isinstance(app.screen, RulesScreen)
        assert "Gold Nuggets" in screen_text(app)
        await pilot.press("escape", "q")
        await pilot.pause()
    assert app.return_code == 0


async def test_settings_are_saved_and_reloaded(tmp_path):
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("s")
        await pilot.pause()
        assert isinstance(app.screen, SettingsScreen)
        app.screen.query_one("#name").value = "Zed\x1b[2J"
        app.screen.query_one("#ascii").value = True
        app.screen.query_one("#advisor").value = False
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert "Saved to" in screen_text(app)
    loaded = Settings.load(tmp_path / "s.json")
    assert (loaded.name, loaded.ascii, loaded.advisor) == ("Zed", True, False)
    assert app.ascii_mode is True


async def test_hotseat_form_wants_two_seats(tmp_path):
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("h")
        await pilot.pause()
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert "Fill in 2 to 5 seats." in screen_text(app)


async def _nuggets(app, pilot, view, seats=(0,), **kwargs) -> NuggetsScreen:
    screen = NuggetsScreen(list(seats), **kwargs)
    await app.push_screen(screen)
    rolled = [] if view.rolled is None else events(
        {"type": "rolled", "seat": view.current, "faces": view.rolled})
    screen.show_state(view, rolled)
    await pilot.pause()
    return screen


@pytest.mark.slow
async def test_dice_keys_send_a_keep_then_the_roll(tmp_path):
    recorder = Recorder()
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24), message_hook=recorder) as pilot:
        view = nuggets_view(rolled=("nugget", "lasso", "3", "3", "3", "5", "2"))
        screen = await _nuggets(app, pilot, view)
        await pilot.press("n", "f3")
        await pilot.pause()
        assert screen.selected == {0, 2, 3, 4}
        await pilot.press("number_sign")  # shift+3 on a US keyboard: the 3s again, off
        await pilot.pause()
        assert screen.selected == {0}
        await pilot.press("number_sign")
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        assert recorder.actions == [nm.KEEP(faces=["nugget", "3", "3", "3"], seat=0)]
        # the host confirms: the follow-up roll goes out on its own
        after = replace(view, phase="choose", rolled=None, kept=["nugget", "3", "3", "3"],
                     kept_value=4, dice_left=3)
        screen.show_state(after, [])
        await pilot.pause()
        assert recorder.actions[-1] == nm.ROLL(seat=0)


async def test_an_illegal_selection_is_explained_in_place(tmp_path):
    recorder = Recorder()
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24), message_hook=recorder) as pilot:
        view = nuggets_view(rolled=("nugget", "lasso", "3", "3", "3", "5", "2"))
        await _nuggets(app, pilot, view)
        await pilot.press("6")  # a lone 5: a new number needs three dice
        await pilot.pause()
        await pilot.press("t")
        await pilot.pause()
        assert recorder.actions == []
        text = screen_text(app)
        assert "Not allowed: a new number needs three or more dice" in text
        assert "Legal:" in text


@pytest.mark.slow
async def test_steal_picks_a_victim(tmp_path):
    """The dialog says what each steal does, and never offers a steal of nothing."""
    recorder = Recorder()
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24), message_hook=recorder) as pilot:
        view = nuggets_view(rolled=("lasso", "lasso", "lasso", "nugget", "2", "4", "4"),
                            names=("Ann", "Bob", "Cid", "Dee"))
        view = replace(view, holdings=[0, 5, 8, 0])
        await _nuggets(app, pilot, view)
        await pilot.press("l", "s")  # three lassos alone are worth nothing to steal
        await pilot.pause()
        assert "worth nothing to steal" in screen_text(app)
        assert "Steal" not in await footer_text(pilot)
        assert "from whom" not in screen_text(app) and recorder.actions == []
        await pilot.press("escape")
        await pilot.press("l", "n", "s")
        await pilot.pause()
        text = screen_text(app)
        assert "Steal 1 from whom?" in text
        assert "take 1 from Bob: 5 -> 4" in text and "take 1 from Cid: 8 -> 7" in text
        assert "Dee" not in text.split("Steal 1 from whom?")[1]  # nothing to take there
        await pilot.press("down", "enter")
        await pilot.pause()
        assert recorder.actions == [nm.KEEP(faces=["nugget"] + ["lasso"] * 3, seat=0)]
        screen = app.screen
        screen.show_state(replace(view, phase="choose", rolled=None,
                               kept=["lasso"] * 3 + ["nugget"], dice_left=3, can_steal=True),
                          [])
        await pilot.pause()
        assert recorder.actions[-1] == nm.STOP(steal_from=2, seat=0)


@pytest.mark.slow
async def test_a_steal_of_nothing_is_refused_with_a_reason(tmp_path):
    recorder = Recorder()
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24), message_hook=recorder) as pilot:
        view = nuggets_view(rolled=("lasso", "lasso", "lasso", "nugget", "2", "4", "4"),
                            names=("Ann", "Bob"))
        await _nuggets(app, pilot, view)  # Bob has no nuggets
        await pilot.press("l", "n", "s")
        await pilot.pause()
        assert "(nobody to steal" in screen_text(app)  # the status, wrapped
        assert "Steal" not in await footer_text(pilot)  # not in the footer
        assert recorder.actions == []


async def test_no_action_out_of_turn_and_the_advisor_toggles(tmp_path):
    recorder = Recorder()
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24), message_hook=recorder) as pilot:
        view = nuggets_view()
        screen = await _nuggets(app, pilot, view, seats=(1,))
        await pilot.press("1", "enter", "t")
        await pilot.pause()
        assert recorder.actions == []
        assert "Ann is playing." in screen_text(app)
        footer = await footer_text(pilot)
        assert "Roll" not in footer and "Take" not in footer and "Advisor" in footer
        assert "Best to win" in screen_text(app)
        await pilot.press("a")
        await pilot.pause()
        assert "Best to win" not in screen_text(app)
        assert screen.advisor_on is False


async def test_bust_is_a_moment_that_clears_itself(tmp_path):
    """The busting roll stays on the table for a beat, under a banner that says what a
    bust costs (this turn's set-aside, nothing held); then the next turn shows."""
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _nuggets(app, pilot, nuggets_view())
        busting = ["2", "2", "3", "3", "4", "4", "5"]
        screen.show_state(replace(nuggets_view(), current=1, phase="roll", rolled=None),
                          events({"type": "rolled", "seat": 0, "faces": busting},
                           {"type": "bust", "seat": 0, "lost": 4}))
        await pilot.pause()
        text = screen_text(app)
        assert "BUST! Ann scores nothing this turn" in text and "loses" not in text
        assert screen.query_one(DiceTray).faces == tuple(busting)
        screen._end_moment()  # the timers' callbacks, called now instead of waiting
        screen.end_bust()
        await pilot.pause()
        assert "Bob's turn" in screen_text(app)
        assert screen.query_one(DiceTray).faces is None


@pytest.mark.slow  # 0.6-0.7 s
async def test_the_next_roll_is_never_hidden_behind_the_busting_roll(tmp_path):
    """Bob rolls within the busting roll's beat (a player over the network presses
    enter at once): his dice show, under his banner, not Ann's bust for the rest of the
    beat (what looked like a game stuck after a bust, in testing serve --via)."""
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _nuggets(app, pilot, nuggets_view(), seats=(1,))
        busting = ["2", "2", "3", "3", "4", "4", "5"]
        screen.show_state(replace(nuggets_view(), current=1, phase="roll", rolled=None),
                          events({"type": "rolled", "seat": 0, "faces": busting},
                           {"type": "bust", "seat": 0, "lost": 4}))
        await pilot.pause()
        assert "BUST! Ann scores nothing this turn" in screen_text(app)
        bobs = ["nugget", "lasso", "2", "3", "4", "5", "5"]
        screen.show_state(replace(nuggets_view(), current=1, phase="keep", rolled=bobs),
                          events({"type": "rolled", "seat": 1, "faces": bobs}))
        await pilot.pause()
        assert screen.query_one(DiceTray).faces == tuple(bobs)
        text = screen_text(app)
        assert "BUST!" not in text and "Bob, your turn" in text


async def test_hotseat_keys_wait_a_moment_after_the_turn_changes_hands(tmp_path):
    """A double enter at the end of Ann's turn does not roll for Bob."""
    recorder = Recorder()
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24), message_hook=recorder) as pilot:
        view = replace(nuggets_view(), phase="choose", rolled=None, kept=["nugget"], dice_left=6)
        screen = await _nuggets(app, pilot, view, seats=(0, 1), hotseat=True, turn_pause=5.0)
        screen.show_state(replace(view, current=1, phase="roll", kept=[], dice_left=7), [])
        await pilot.pause()
        await pilot.press("enter")  # meant for Ann's turn, which is over
        await pilot.pause()
        assert recorder.actions == []
        screen.release_keys()  # the timer's callback, called now instead of waiting
        await pilot.press("enter")
        await pilot.pause()
        assert recorder.actions == [nm.ROLL(seat=1)]


@pytest.mark.slow
async def test_space_takes_the_advisors_set_aside_and_enter_alone_asks_first(tmp_path):
    from nuggets import chances

    recorder = Recorder()
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24), message_hook=recorder) as pilot:
        view = nuggets_view()
        screen = await _nuggets(app, pilot, view)
        # The panel's "best to win" (2 players: the exact chance to win).
        best = [f.value for f in chances.best_keep(to_plain(view))[0]]
        await pilot.press("space")
        await pilot.pause()
        assert sorted(screen._chosen()) == sorted(best) and recorder.actions == []
        await pilot.press("escape", "enter")  # nothing selected: the advisor's pick, asked
        await pilot.pause()
        assert sorted(screen._chosen()) == sorted(best) and recorder.actions == []
        assert "enter again: set aside" in screen_text(app)
        await pilot.press("enter")
        await pilot.pause()
        assert recorder.actions == [nm.KEEP(faces=best, seat=0)]
        # confirmed once: from now on one enter with nothing selected plays it
        again = nuggets_view(rolled=("nugget", "nugget", "2", "4", "4", "5", "5"))
        screen.show_state(again, events({"type": "rolled", "seat": 0, "faces": again.rolled}))
        await pilot.pause()
        best = [f.value for f in chances.best_keep(to_plain(again))[0]]
        await pilot.press("enter")
        await pilot.pause()
        assert recorder.actions[-1] == nm.KEEP(faces=best, seat=0)
        assert "enter again" not in screen_text(app)


@pytest.mark.slow
async def test_cards_keys_send_actions_and_the_first_grab_flashes(tmp_path):
    recorder = Recorder()
    app = make_app(tmp_path)
    bells = []
    app.bell = lambda: bells.append(1)
    async with app.run_test(size=(80, 24), message_hook=recorder) as pilot:
        host_time = [10.0]
        screen = FoolsGoldScreen(0, ["Ann", "Bob", "Cid", "Dee"], host_now=lambda: host_time[0])
        await app.push_screen(screen)
        screen.show_state(foolsgold_view(), [])  # six cards: discard or grab
        await pilot.pause()
        await pilot.press("3", "d", "space", "f", "9")  # no draw with six, no call yet
        await pilot.pause()
        assert recorder.actions == [fm.DISCARD(
            card=fm.CardRef(name="Calamity Kate", variant="f", kind="prospector"))]
        five = foolsgold_view()
        screen.show_state(replace(five, hand=five.hand[:5], hand_sizes=[5, 5, 5, 5],
                                  incoming_sizes=[2, 0, 1, 0]), [])
        await pilot.pause()
        await pilot.press("d", "space", "g")  # five cards and two coming in
        await pilot.pause()
        assert recorder.actions[1:] == [fm.DRAW(), fm.DRAW(), fm.GRAB()]
        # one key a card (issue 47): with a card waiting, a card's number draws it and
        # passes the card of that number; an empty slot's number does nothing
        await pilot.press("1", "6")
        await pilot.pause()
        assert recorder.actions[4:] == [fm.DRAW(), fm.DISCARD(
            card=fm.CardRef(name="Owl", variant="a", kind="animal"))]
        del recorder.actions[4:]
        # the grab reaches the host only through the next view; f waits for one too
        await pilot.press("f")
        await pilot.pause()
        assert fm.CALL() not in recorder.actions
        grabbed = foolsgold_view(grabbed=[[2, 10.0], [3, 10.153]], frozen=True, nuggets_left=1,
                                 call_closes=15.0, deadline=15.0)
        grab = events({"type": "grabbed", "seat": 2, "at": 10.0, "order": 1, "nuggets_left": 2})
        screen.show_state(grabbed, grab)
        # the flash lasts half a second of wall time: look before anything can end it
        assert screen.query_one("#foolsgold-table").has_class("-flash")
        assert bells == [1]
        await pilot.pause()
        text = screen_text(app)
        assert "Cid GRABBED!" in text
        assert "+153ms" in text
        assert "(call window: 5.0 s)" in text
        await pilot.press("f")
        await pilot.pause()
        assert recorder.actions[-1] == fm.CALL()
        host_time[0] = 13.5
        screen._update_banner(screen.view)  # what the countdown's timer does
        await pilot.pause()
        assert "(call window: 1.5 s)" in screen_text(app)
        assert screen._countdown is not None
        screen.show_state(replace(grabbed, caller=1), [])
        await pilot.pause()
        assert screen._countdown is None and "Bob called Fool's Gold!" in screen_text(app)


@pytest.mark.parametrize("ascii_mode", [False, True])
@pytest.mark.slow
async def test_hostile_names_show_literally_and_crash_nothing(tmp_path, ascii_mode):
    app = make_app(tmp_path, ascii_mode=ascii_mode)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = FoolsGoldScreen(0, HOSTILE, ascii_mode=ascii_mode)
        await app.push_screen(screen)
        grab = events({"type": "grabbed", "seat": 1, "order": 1, "at": 1.0, "nuggets_left": 2})
        screen.show_state(foolsgold_view(), grab)
        await pilot.pause()
        text = screen_text(app)
        assert "[bold]Ann[/]" in text
        assert "[@click=app.quit]Bob grabbed" in text
        assert "\x1b" not in text
        await pilot.click(offset=(5, 4))  # where the click-markup name is drawn
        await pilot.pause()
        assert app.is_running
        await app.push_screen(NuggetsScreen([0], ascii_mode=ascii_mode))
        app.screen.show_state(nuggets_view(names=HOSTILE[:2]), [])
        await pilot.pause()
        assert "[bold]Ann[/]" in screen_text(app)
        if ascii_mode:
            assert screen_text(app).split("\n")[3].isascii()


@pytest.mark.slow
async def test_resizing_keeps_the_table_whole(tmp_path):
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await _nuggets(app, pilot, nuggets_view())
        for size in ((120, 40), (60, 20), (80, 24)):
            await pilot.resize_terminal(*size)
            await pilot.pause()
        text = screen_text(app)
        assert "NUGGET" in text and "Set aside" in text


async def test_an_unexpected_error_is_logged_and_the_screen_says_where(tmp_path, capfd):
    app = make_app(tmp_path)

    def boom() -> None:
        raise RuntimeError("boom")

    with pytest.raises(RuntimeError):
        async with app.run_test(size=(80, 24)) as pilot:
            app.call_later(boom)
            await pilot.pause()
    assert app.crash_log is not None and app.crash_log.parent == tmp_path / "log"
    assert "RuntimeError: boom" in app.crash_log.read_text()
    assert str(app.crash_log) in app.crash_message
    printed = capfd.readouterr().err
    assert "unexpected error" in printed and "The details are in" in printed
    assert "Traceback" not in printed


def test_no_color_is_respected(tmp_path, monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    app = make_app(tmp_path)
    assert app.no_color
