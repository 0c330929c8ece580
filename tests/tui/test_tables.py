"""The tables as players want them (issue 13): a Fool's Gold hand read at speed, the
moments that matter kept in the log, a visible race, dialogs over the table."""

from __future__ import annotations

import pytest

from net.games.foolsgold import moves as fm
from net.games.foolsgold.views import Card
from tests import waiting
from tui.games.foolsgold import glyphs as card_glyphs
from tui.games.foolsgold.cards import HandView, progress
from tui.games.foolsgold.screen import FoolsGoldScreen
from tui.games.nuggets.screen import NuggetsScreen
from tui.screens.common import ChatScreen

from .harness import make_app
from .helpers import events, foolsgold_view, footer_text, nuggets_view, replace, screen_text


def card(name, variant, kind="animal"):
    return Card(name=name, kind=kind, variant=variant)


OWL_A, OWL_C, KATE, GILA, MULE, OWL_D = foolsgold_view().hand


def test_a_look_follows_from_the_name_alone_and_the_deck_s_names_never_share_one():
    from foolsgold.cards import ANIMAL_NAMES, PROSPECTOR_NAMES

    names = [*ANIMAL_NAMES, *PROSPECTOR_NAMES]
    looks = [card_glyphs.name_look(n) for n in names]
    assert len(set(looks)) == len(names)  # any hand of the standard deck: names apart
    for ascii_mode in (False, True):  # apart without colour too: the art differs
        art = {tuple(card_glyphs.card_lines(card(n, "a"), ascii_mode=ascii_mode)[3:5])
               for n in names}  # fmt: skip
        assert len(art) == len(names)
    # the same in every hand and whatever came before: nothing but the name decides
    assert card_glyphs.name_look("Owl") == looks[0] and card_glyphs.name_look("Mule") == looks[1]
    assert 0 <= card_glyphs.name_look("Unknown Critter") < card_glyphs.LOOKS
    same_colour = [k for k in range(card_glyphs.LOOKS) if card_glyphs.look_colour(k) == 0]
    assert len({k % 8 for k in same_colour}) == len(same_colour)  # a colour: other rows


def test_progress_toward_a_set_closest_first():
    hand = [OWL_A, KATE, OWL_C, MULE, card("Calamity Kate", "b", "prospector")]
    # Mule needs two more, Calamity Kate three
    assert progress(hand) == [("Owl", 2, 3), ("Mule", 1, 3), ("Calamity Kate", 2, 5)]


async def _dice(app, pilot) -> NuggetsScreen:
    """A Gold Nuggets table at seat 0, a roll on it."""
    screen = NuggetsScreen([0])
    await app.push_screen(screen)
    screen.show_state(nuggets_view(), [])
    await pilot.pause()
    return screen


async def _table(app, pilot, view, names=("Ann", "Bob", "Cy", "Dee")):
    screen = FoolsGoldScreen(0, list(names))
    await app.push_screen(screen)
    screen.show_state(view, [])
    await pilot.pause()
    return screen


async def test_the_hand_shows_progress_marks_the_new_card_and_keeps_its_keys(tmp_path):
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        view = foolsgold_view(hand=[OWL_A, KATE, GILA, MULE, OWL_C], slots=[0, 1, 2, 3, 4])
        screen = await _table(app, pilot, view)
        text = screen_text(app)
        assert text.count("2/3 set") == 2 and "1/5 set" in text and "new" not in text
        # Owl a is passed: the other cards keep their keys (the host's slots)
        screen.show_state(foolsgold_view(hand=[KATE, GILA, MULE, OWL_C],
                                         slots=[None, 0, 1, 2, 3]), [])
        await pilot.pause()
        hand = screen.query_one(HandView)
        assert hand.card_at(0) is None and hand.card_at(4) == OWL_C
        assert "1/3 set" in screen_text(app)
        await pilot.press("1")  # four cards: no discard, and the status says what now
        await pilot.pause()
        assert "Waiting for a card from your right neighbour." in screen_text(app)
        screen.show_state(foolsgold_view(hand=[KATE, GILA, MULE, OWL_C, OWL_D],
                                         slots=[4, 0, 1, 2, 3], drawn=0), [])
        await pilot.pause()
        assert hand.card_at(0) == OWL_D and hand.fresh == 0
        assert "1─new" in screen_text(app) or "1━new" in screen_text(app)


async def test_draws_and_passes_fold_into_the_piles_and_the_moments_stay(tmp_path):
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _table(app, pilot, foolsgold_view())
        churn = events({"type": "drew", "seat": 1, "pile": "draw"},
                 {"type": "discarded", "seat": 1, "pile": "incoming", "to": 2}) * 20
        grab = events({"type": "grabbed", "seat": 2, "order": 1, "at": 5.0, "nuggets_left": 2})
        screen.show_state(foolsgold_view(), [*grab, *churn])
        screen.add_log("Bob: nice one")
        screen.show_state(foolsgold_view(), churn)
        await pilot.pause()
        text = screen_text(app)
        assert "Cy grabbed a nugget (#1)" in text and "Bob: nice one" in text
        assert "drew" not in text and "passed a card" not in text
        assert "Your incoming  2" not in text and "Your incoming" in text


async def test_the_race_says_how_many_nuggets_are_left_and_whether_you_have_one(tmp_path):
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        view = foolsgold_view(grabbed=[[1, 10.0]], frozen=True, nuggets_left=2,
                              incoming_sizes=[17, 0, 0, 0])
        screen = await _table(app, pilot, view)
        text = screen_text(app)
        assert "Bob GRABBED! Hands frozen, 2 nuggets left" in text
        assert "Your incoming 17" in text
        assert "g grabs a nugget" in text
        screen.show_state(foolsgold_view(grabbed=[[1, 10.0], [0, 10.4]], frozen=True,
                                         nuggets_left=1), [])
        await pilot.pause()
        assert "1 nugget left: you have one" in screen_text(app)


async def test_chat_sits_over_the_table_and_the_hand_stays_in_sight(tmp_path):
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await _table(app, pilot, foolsgold_view())
        await app.push_screen(ChatScreen())
        await pilot.pause()
        shot = app.export_screenshot().replace("&#160;", " ")
        assert "Say something to the table" in shot
        assert "Calamity" in shot and "Gila" in shot  # the hand, under the dialog
        assert "esc" in screen_text(app).splitlines()[-1]  # the footer shows esc


@pytest.mark.slow
async def test_footers_are_true_to_the_moment(tmp_path):
    from tui.screens.lobby import LobbyScreen


    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _dice(app, pilot)
        footer = await footer_text(pilot)
        assert "Roll on" in footer and "Advised" in footer and "? Keys" in footer
        assert "Pick dice (1-7," in screen_text(app)
        screen.show_state(replace(nuggets_view(), over=True, phase="over", rolled=None,
                               winners=[0]), [])
        footer = await footer_text(pilot)
        assert "Roll on" not in footer and "Take" not in footer and "Leave" in footer

        watcher = FoolsGoldScreen(None, ["Ann", "Bob", "Cy", "Dee"])
        await app.push_screen(watcher)
        watcher.show_state(foolsgold_view(seat=None, hand=None), [])
        footer = await footer_text(pilot)
        assert "Draw" not in footer and "Grab" not in footer and "Leave" in footer

        lobby = LobbyScreen()
        await app.push_screen(lobby)
        from net import protocol as p

        info = p.TableInfo(name="Den", game="nuggets", phase="lobby", owner=0, seats=[
            p.SeatInfo(seat=0, name="Ann", kind="human", ready=False, connected=True),
            p.SeatInfo(seat=1, name="Bob", kind="human", ready=False, connected=True)],
            settings=p.TableSettings(seats=3, difficulty="normal", first_player=None,
                                     seeded=False, grace=30,
                                     game={"grab_timeout": 10, "call_window": 5},
                                     bot_pace=0.9, hotseat=False), spectators=0)
        lobby.show_table(info, [1], False)  # Bob: not the owner
        footer = await footer_text(pilot)
        assert "Ready" in footer and "Start" not in footer and "Add bot" not in footer
        lobby.show_table(info, [0], True)  # Ann, the owner: Bob is not ready yet
        footer = await footer_text(pilot)
        assert "Start" not in footer and "Add bot" in footer
        assert "Waiting for Bob to get ready" in screen_text(app)


async def test_the_menu_footer_is_whole_at_80_columns(tmp_path):
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        footer = screen_text(app).splitlines()[-1]
        for word in ("Hotseat", "Dice", "Cards", "Host", "Join", "Rules", "Settings",
                     "Quit", "Keys"):
            assert word in footer, footer


@pytest.mark.slow
async def test_question_mark_in_a_form_shows_help_and_types_nothing(tmp_path):
    from tui.screens.common import HelpScreen

    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("j")
        await pilot.pause()
        field = app.screen.query_one("#address")
        await pilot.press("1", "question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen) and field.value == "1"
        await pilot.press("escape", "f1")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)


async def test_a_hotseat_game_leaves_the_settings_name_alone(tmp_path):

    from .harness import until

    app = make_app(tmp_path, start=("hotseat", [("Bob", False), ("Cy", False)]),
                        table_options={"seed": "names"})
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, NuggetsScreen), "the table")
        screen = app.screen
        await until(pilot, lambda: screen.view is not None, "a view")
        assert screen.view.players == ["Bob", "Cy"]
        assert app.settings.name == "Ann"


async def test_help_lines_wrap_under_their_own_column(tmp_path):


    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await _dice(app, pilot)
        await pilot.press("f1")
        await pilot.pause()
        lines = screen_text(app).splitlines()
        first = next(i for i, line in enumerate(lines) if "set the selected dice aside and roll"
                     in line)
        column = lines[first].index("set the selected")
        follow = lines[first + 1]
        border = follow.index("│") + 1
        inner = follow[border:]
        assert border + len(inner) - len(inner.lstrip()) == column, (lines[first], follow)


async def test_below_40x14_a_table_says_what_size_it_needs(tmp_path):


    app = make_app(tmp_path)
    async with app.run_test(size=(36, 12)) as pilot:  # below every layout (issue 37)
        await _dice(app, pilot)
        text = " ".join(screen_text(app).split())
        assert "needs a terminal of at least 40x14; this one is 36x12" in text
        assert "NUGGET" not in text  # not a table with dice missing
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        text = screen_text(app)
        assert "at least 40x14" not in text and text.count("NUGGET") >= 1
        assert any(line.split() == [str(k) for k in range(1, 8)] for line in text.splitlines())
        await pilot.resize_terminal(100, 13)
        await pilot.pause()
        assert "this one is 100x13" in screen_text(app)


async def test_settings_checkboxes_read_on_or_off_without_colour(tmp_path):
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("s")
        await pilot.pause()
        text = screen_text(app)
        assert "ASCII mode (no box-drawing characters): off" in text
        assert "(key a in game): on" in text
        app.screen.query_one("#ascii").value = True
        await pilot.pause()
        assert "ASCII mode (no box-drawing characters): on" in screen_text(app)


@pytest.mark.slow
async def test_host_a_lan_game_asks_for_the_port_and_interface(tmp_path):
    from tui.screens.lobby import LobbyScreen

    from .harness import until

    app = make_app(tmp_path)  # the defaults: 7777, every interface
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("o", "enter")
        await until(pilot, lambda: "Listen on" in screen_text(app), "the form")
        text = screen_text(app)
        assert "7777" in text and "All interfaces" in text
        assert "The defaults suit a LAN party: port 7777 on all interfaces" in text
        port = app.screen.query_one("#port")
        port.value = "99999"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert "'99999' is not a port" in screen_text(app)
        port.value = "0"
        app.screen.query_one("#interface").value = "127.0.0.1"
        await pilot.press("ctrl+s")
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
        assert app.session.lan.bind == "127.0.0.1"
        assert app.session.lan.host.sockets[0][0] == "127.0.0.1"
        assert f"motherlode join 127.0.0.1:{app.session.lan.port}" in screen_text(app)


@pytest.mark.slow
async def test_games_against_bots_are_kept_and_replays_lists_and_deletes_them(tmp_path):
    """A solo game left half-way is archived; Replays shows it (who, when, how it
    ended), opens the viewer, and deletes it after a yes. A hot-seat game left before
    its first move is not kept."""
    from net.saves import Store
    from tui.screens.common import ConfirmScreen
    from tui.screens.menu import MenuScreen

    from .harness import until

    app = make_app(tmp_path, start=("solo", "nuggets", 1),
                        table_options={"seed": "kept", "first_player": 0})
    async with app.run_test(size=(100, 30)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, NuggetsScreen), "the table")
        screen = app.screen
        await until(pilot, lambda: screen.acting_seat == 0, "Ann's turn")
        await pilot.press("enter")  # a roll: one move
        await until(pilot, lambda: screen.view.phase != "roll", "the roll")
        moved = True
        await pilot.press("q", "y")
        await until(pilot, lambda: isinstance(app.screen, MenuScreen), "the menu")
        await until(pilot, lambda: Store.default("solo").kept() or not moved, "the archive")
        archived = Store.default("solo").kept()
        assert len(archived) == (1 if moved else 0)
        assert Store.default("solo").unfinished() == []
        await pilot.press("p")
        await until(pilot, lambda: "Replays" in screen_text(app), "the list")
        if moved:
            text = screen_text(app)
            assert "Gold Nuggets: Ann, Hattie (bot); left after 1 move" in text
            await pilot.press("d")
            await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the question")
            await pilot.press("y")
            await until(pilot, lambda: "No games kept yet" in screen_text(app), "deleted")
            assert Store.default("solo").kept() == []

    hot = make_app(tmp_path, start=("hotseat", [("Ann", False), ("Bob", False)]),
                        table_options={"seed": "empty"})
    async with hot.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(hot.screen, NuggetsScreen), "the table")
        await pilot.press("q", "y")
        await until(pilot, lambda: isinstance(hot.screen, MenuScreen), "the menu")
    await waiting.until(lambda: not Store.default("hotseat").unfinished(), "nothing unfinished")
    assert Store.default("hotseat").unfinished() == []


@pytest.mark.slow
async def test_the_rules_have_contents_to_jump_from_and_no_bot_figures(tmp_path):
    from tui.screens.common import RulesScreen, rules_text

    from .harness import until

    def body():
        return [line[40:] for line in screen_text(app).splitlines()[:4]]

    assert "median s" not in rules_text() and "### Tuning" not in rules_text()
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("r")
        await until(pilot, lambda: isinstance(app.screen, RulesScreen)
                    and "The cards" in screen_text(app), "the rules and their contents")
        assert isinstance(app.screen, RulesScreen)
        text = screen_text(app)
        assert "Taking nuggets" in text and "The cards" in text  # the contents
        await pilot.press("f")
        await until(pilot, lambda: any("Fool's Gold" in line for line in body()),
                    "the jump to Fool's Gold")
        assert any("Fool's Gold" in line for line in body()), body()
        await pilot.press("t")
        await until(pilot, lambda: "├──" not in screen_text(app), "the contents hidden")
        assert "├──" not in screen_text(app)


def test_every_binding_has_an_id_unique_in_its_screen():
    import inspect

    from textual.binding import Binding

    from tui import app as app_module
    from tui.games.foolsgold import screen as foolsgold
    from tui.games.nuggets import screen as nuggets
    from tui.screens import common, forms, join, lobby, menu, replay, replays, served, stats

    modules = (app_module, common, foolsgold, forms, join, lobby, menu, nuggets, replay, replays,
               served, stats)
    checked = 0
    for module in modules:
        for _, cls in inspect.getmembers(module, inspect.isclass):
            bindings = cls.__dict__.get("BINDINGS")
            if cls.__module__ != module.__name__ or not bindings:
                continue
            ids = [b.id for b in bindings if isinstance(b, Binding)]
            assert all(ids), f"{cls.__name__} has a binding without an id"
            assert len(ids) == len(set(ids)), f"{cls.__name__} repeats an id"
            checked += len(ids)
    assert checked > 60


@pytest.mark.slow
async def test_keys_remapped_in_the_settings_file_work(tmp_path):
    from tui.settings import Settings

    from .helpers import Recorder

    recorder = Recorder()
    settings = Settings(name="Ann", keys={"foolsgold.grab": "x"})
    app = make_app(tmp_path, settings=settings)
    async with app.run_test(size=(80, 24), message_hook=recorder) as pilot:
        await _table(app, pilot, foolsgold_view(grabbed=[[1, 10.0]], frozen=True))
        await pilot.press("g")  # the old key does nothing now
        await pilot.pause()
        assert recorder.actions == []
        await pilot.press("x")
        await pilot.pause()
        assert recorder.actions == [fm.GRAB()]
        assert "x Grab!" in screen_text(app).splitlines()[-1]


@pytest.mark.slow
async def test_the_theme_is_a_saved_setting_and_the_palette_sets_it(tmp_path):
    from textual.command import CommandList, CommandPalette

    from tui.settings import Settings

    from .harness import until

    def highlighted() -> str:
        """The command the palette's enter would run now ("" for none)."""
        palette = app.screen
        if not isinstance(palette, CommandPalette) or not palette._list_visible:
            return ""
        commands = palette.query_one(CommandList)
        if commands.highlighted is None:
            return ""
        return str(commands.get_option_at_index(commands.highlighted).prompt)

    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("ctrl+p")
        await until(pilot, lambda: isinstance(app.screen, CommandPalette), "the palette")
        await pilot.press(*"theme ansi-dark")
        await until(pilot, lambda: "ansi-dark" in highlighted(), "the theme's command found")
        await pilot.press("enter")
        await until(pilot, lambda: app.theme == "ansi-dark", "the theme taken")
        assert app.theme == "ansi-dark"
    assert Settings.load(tmp_path / "s.json").theme == "ansi-dark"
    again = make_app(tmp_path)
    again.settings = Settings.load(tmp_path / "s.json")
    async with again.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert again.theme == "ansi-dark"


def _record_refreshes(node, into: list[str]) -> None:
    """Note the class name of ``node`` in ``into`` each time it is refreshed."""
    refresh = node.refresh

    def spy(*args, **kwargs):
        into.append(type(node).__name__)
        return refresh(*args, **kwargs)

    node.refresh = spy


async def test_a_view_repaints_only_the_widgets_whose_text_it_changes(tmp_path):
    """A busy table sends a view for every card anyone moves: each repaints the widgets
    it changes, not the whole screen, and not a hand, pile or reveal it left as it was
    (Textual's repaint of a widget costs milliseconds; issue 22's key to repaint). The
    seats, which nearly every view changes, are repainted for each."""
    from tui.games.foolsgold.cards import Piles, Reveal, Seats

    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _table(app, pilot, foolsgold_view())
        await pilot.pause()
        painted: list[str] = []
        for node in (screen, *screen.query("HandView, Seats, Piles, Reveal")):
            _record_refreshes(node, painted)
        # Bob passes Cy a card: only the seats' counts change
        screen.show_state(foolsgold_view(hand_sizes=[6, 4, 6, 5], incoming_sizes=[0, 2, 2, 0]),
                          [])
        await pilot.pause()
        assert painted == ["Seats"]
        assert "Cy" in screen_text(app) and screen.query_one(Seats).render().plain.count(" 6 ") == 2
        # you draw a card: your hand, the seats and your incoming pile change
        painted.clear()
        drawn = card("Mule", "a")
        screen.show_state(foolsgold_view(
            hand=[*foolsgold_view().hand[:5], drawn], hand_sizes=[6, 4, 6, 5],
            incoming_sizes=[1, 2, 2, 0], slots=[0, 1, 2, 3, 4, 5], drawn=5), [])
        await pilot.pause()
        assert sorted(painted) == ["HandView", "Piles", "Seats"]
        assert "Your incoming  1" in screen_text(app)
        assert "new" in screen_text(app)
        # the same view again: only the seats, which nearly every view changes
        painted.clear()
        screen.show_state(screen.view, [])
        await pilot.pause()
        assert painted == ["Seats"]
        assert screen.query_one(Reveal).render().plain == ""
        assert "Your incoming  1" in screen.query_one(Piles).render().plain
