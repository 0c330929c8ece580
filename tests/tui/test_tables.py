"""The tables as players want them (issue 13): a Fool's Gold hand read at speed, the
moments that matter kept in the log, a visible race, dialogs over the table."""

from __future__ import annotations

from tui.screens.common import ChatScreen
from tui.screens.foolsgold import FoolsGoldScreen
from tui.widgets.cards import HandView, assign_looks, place, progress

from .helpers import foolsgold_view, screen_text
from .test_shell import make_app


def card(name, variant, kind="animal"):
    return {"name": name, "kind": kind, "variant": variant}


OWL_A, OWL_C, KATE, GILA, MULE, OWL_D = foolsgold_view()["hand"]


def test_a_passed_card_leaves_its_slot_empty_and_the_next_card_fills_it():
    slots, fresh = place([], [OWL_A, OWL_C, KATE, GILA, MULE])
    assert slots == [OWL_A, OWL_C, KATE, GILA, MULE]
    slots, fresh = place(slots, [OWL_A, KATE, GILA, MULE])  # Owl c passed
    assert slots == [OWL_A, None, KATE, GILA, MULE] and fresh is None
    slots, fresh = place(slots, [OWL_A, KATE, GILA, MULE, OWL_D])  # a new card
    assert slots == [OWL_A, OWL_D, KATE, GILA, MULE] and fresh == 1
    slots, fresh = place(slots, [OWL_A, KATE, GILA, MULE, OWL_D, card("Elk", "b")])
    assert slots[5] == card("Elk", "b") and fresh == 5
    # the last card passed: the slot goes, nothing before it moves
    slots, _ = place(slots, [OWL_A, KATE, GILA, MULE, OWL_D])
    assert slots == [OWL_A, OWL_D, KATE, GILA, MULE]


def test_one_name_one_look_and_names_in_a_hand_never_share_one():
    looks = assign_looks({}, ["Owl", "Mule", "Elk", "Fox", "Wolf", "Hawk"])
    assert len(set(looks.values())) == 6
    # a name keeps its look while it stays; a newcomer never takes a look in use
    again = assign_looks(looks, ["Owl", "Mule", "Elk", "Fox", "Wolf", "Raven"])
    assert all(again[n] == looks[n] for n in ("Owl", "Mule", "Elk", "Fox", "Wolf"))
    assert again["Raven"] not in {looks[n] for n in ("Owl", "Mule", "Elk", "Fox", "Wolf")}


def test_progress_toward_a_set_closest_first():
    hand = [OWL_A, KATE, OWL_C, MULE, card("Calamity Kate", "b", "prospector")]
    # Mule needs two more, Calamity Kate three
    assert progress(hand) == [("Owl", 2, 3), ("Mule", 1, 3), ("Calamity Kate", 2, 5)]


async def _table(app, pilot, view, names=("Ann", "Bob", "Cy", "Dee")):
    screen = FoolsGoldScreen(0, list(names))
    await app.push_screen(screen)
    screen.show_state(view, [])
    await pilot.pause()
    return screen


async def test_the_hand_shows_progress_marks_the_new_card_and_keeps_its_keys(tmp_path):
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        view = foolsgold_view(hand=[OWL_A, KATE, GILA, MULE, OWL_C])
        screen = await _table(app, pilot, view)
        text = screen_text(app)
        assert text.count("2/3 set") == 2 and "1/5 set" in text and "new" not in text
        # Owl a is passed: the other cards keep their keys
        screen.show_state(foolsgold_view(hand=[KATE, GILA, MULE, OWL_C]), [])
        await pilot.pause()
        hand = screen.query_one(HandView)
        assert hand.card_at(0) is None and hand.card_at(4) == OWL_C
        assert "1/3 set" in screen_text(app)
        await pilot.press("1")  # the empty slot: nothing is sent, the hint says so
        await pilot.pause()
        assert "You have no card 1." in screen_text(app)
        screen.show_state(foolsgold_view(hand=[KATE, GILA, MULE, OWL_C, OWL_D]), [])
        await pilot.pause()
        assert hand.card_at(0) == OWL_D and hand.fresh == 0
        assert "1─new" in screen_text(app) or "1━new" in screen_text(app)


async def test_draws_and_passes_fold_into_the_piles_and_the_moments_stay(tmp_path):
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _table(app, pilot, foolsgold_view())
        churn = [{"type": "drew", "seat": 1, "pile": "draw"},
                 {"type": "discarded", "seat": 1, "pile": "incoming", "to": 2}] * 20
        screen.show_state(foolsgold_view(), [{"type": "grabbed", "seat": 2, "order": 1,
                                               "at": 5.0}, *churn])
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


async def test_footers_are_true_to_the_moment(tmp_path):
    from tui.screens.lobby import LobbyScreen
    from tui.screens.nuggets import NuggetsScreen

    from .helpers import nuggets_view

    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = NuggetsScreen([0])
        await app.push_screen(screen)
        screen.show_state(nuggets_view(), [])
        await pilot.pause()
        footer = screen_text(app).splitlines()[-1]
        assert "Roll on" in footer and "Advised" in footer and "? Keys" in footer
        assert "Pick dice (1-7," in screen_text(app)
        screen.show_state(dict(nuggets_view(), over=True, phase="over", rolled=None,
                               winners=[0]), [])
        await pilot.pause()
        footer = screen_text(app).splitlines()[-1]
        assert "Roll on" not in footer and "Take" not in footer and "Leave" in footer

        watcher = FoolsGoldScreen(None, ["Ann", "Bob", "Cy", "Dee"])
        await app.push_screen(watcher)
        watcher.show_state(foolsgold_view(seat=None, hand=None), [])
        await pilot.pause()
        footer = screen_text(app).splitlines()[-1]
        assert "Draw" not in footer and "Grab" not in footer and "Leave" in footer

        lobby = LobbyScreen()
        await app.push_screen(lobby)
        from net import protocol as p

        info = p.TableInfo(name="Den", game="nuggets", phase="lobby", owner=0, seats=[
            p.SeatInfo(seat=0, name="Ann", kind="human", ready=False, connected=True),
            p.SeatInfo(seat=1, name="Bob", kind="human", ready=False, connected=True)],
            settings=p.TableSettings(seats=3, difficulty="normal", first_player=None,
                                     seeded=False, grab_timeout=10, call_window=5, grace=30,
                                     bot_pace=0.9, hotseat=False), spectators=0)
        lobby.show_table(info, [1], False)  # Bob: not the owner
        await pilot.pause()
        footer = screen_text(app).splitlines()[-1]
        assert "Ready" in footer and "Start" not in footer and "Add bot" not in footer
        lobby.show_table(info, [0], True)
        await pilot.pause()
        assert "Start" in screen_text(app).splitlines()[-1]


async def test_the_menu_footer_is_whole_at_80_columns(tmp_path):
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        footer = screen_text(app).splitlines()[-1]
        for word in ("Hotseat", "Dice", "Cards", "Host", "Join", "Rules", "Settings",
                     "Quit", "Keys"):
            assert word in footer, footer


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
