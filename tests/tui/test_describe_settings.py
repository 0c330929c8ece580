"""Events in words, and settings that persist and survive a damaged file."""

import json

import msgspec

from net.views import to_events
from tui.describe import describe
from tui.settings import Settings, clean_name

NAMES = ["Ann", "[bold]Bob[/]"]


def event(rules_event):
    """An event as the rules write it, typed as a client receives it."""
    return to_events([rules_event])[0]


def test_dice_events_read_as_sentences():
    assert describe(event({"type": "bust", "seat": 0, "lost": 5}), NAMES) == \
        "Ann went bust: nothing this turn (5 set aside)"
    assert describe(event({"type": "stole", "seat": 1, "victim": 0, "amount": 3, "value": 4}),
                    NAMES) == "[bold]Bob[/] stole 3 nuggets from Ann"
    line = describe(event({"type": "kept", "seat": 0, "faces": ["3", "3", "3"], "value": 3,
                     "dice_left": 1}), NAMES)
    assert line == "Ann set aside 3 3 3: worth 3, 1 die left"


def test_card_events_never_name_a_card():
    line = describe(event({"type": "drew", "seat": 1, "pile": "incoming"}), NAMES)
    assert line == "[bold]Bob[/] drew from the incoming pile"
    assert describe(event({"type": "discarded", "seat": 0, "pile": "incoming", "to": 1}),
                    NAMES) == "Ann passed a card to [bold]Bob[/]"


def test_unknown_events_and_bad_seats_still_describe():
    class Meteor(msgspec.Struct, tag_field="type", tag="meteor"):  # a newer host's event
        size: int

    assert describe(Meteor(size=3), NAMES) == "meteor: size=3"
    assert describe(event({"type": "bust", "seat": 9, "lost": 0}), NAMES).startswith("seat 9")


def test_settings_round_trip(tmp_path):
    path = tmp_path / "s.json"
    Settings(name="Zed", difficulty="hard", ascii=True, advisor=False).save(path)
    loaded = Settings.load(path)
    assert (loaded.name, loaded.difficulty, loaded.ascii, loaded.advisor) == (
        "Zed", "hard", True, False)


def test_damaged_settings_give_defaults(tmp_path):
    path = tmp_path / "s.json"
    path.write_text("{not json")
    assert Settings.load(path).difficulty == "normal"
    path.write_text(json.dumps({"name": 5, "difficulty": "godlike", "extra": 1}))
    loaded = Settings.load(path)
    assert loaded.name == "5" and loaded.difficulty == "normal"


def test_names_are_cleaned_of_escapes_and_capped():
    assert clean_name("\x1b[31mAnn\x07") == "Ann"
    assert len(clean_name("x" * 50)) == 20


def test_a_corrected_grab_says_its_lag():
    """Lag-fair races: the host counted the grab earlier than it arrived."""
    line = describe(event({"type": "grabbed", "seat": 1, "at": 3.0, "order": 1,
                           "nuggets_left": 2, "lag": 0.035}), NAMES)
    assert line == "[bold]Bob[/] grabbed a nugget (#1, lag +35 ms)"
    line = describe(event({"type": "grabbed", "seat": 0, "at": 3.0, "order": 2,
                           "nuggets_left": 1}), NAMES)
    assert line == "Ann grabbed a nugget (#2)"
    line = describe(event({"type": "called", "seat": 0, "at": 3.5, "grabber": 1,
                           "lag": 0.08}), NAMES)
    assert line == "Ann called \"Fool's Gold!\" on [bold]Bob[/] (lag +80 ms)"


async def test_the_race_line_shows_corrected_gaps_and_the_lag():
    from textual.app import App

    from net import views
    from tui.games.foolsgold.cards import Seats, grab_gaps, lag_note

    view = views.to_view({
        "game": "foolsgold", "seat": 0, "players": 3, "start": 0, "hand": [],
        "hand_sizes": [5, 5, 5], "incoming_sizes": [0, 0, 0], "draw_pile": 9,
        "trash_pile": 0, "nuggets_left": 0, "grabbed": [[1, 10.0], [0, 10.04]],
        "grab_lags": [0.08, 0.0], "caller": None, "revealed": None,
        "revealed_set": None, "frozen": True, "deadline": None, "call_closes": None,
        "settled": False, "deltas": None, "scores": [0, 0, 0], "winner": None,
        "round_no": 1,
    })  # fmt: skip
    assert grab_gaps(view.grabbed) == [(1, 0), (0, 40)]
    assert lag_note(view.grab_lags, 0) == " (lag +80ms)"
    assert lag_note(view.grab_lags, 1) == ""
    assert lag_note([], 0) == ""

    class One(App):
        def compose(self):
            yield Seats()

    app = One()
    async with app.run_test():
        seats = app.query_one(Seats)
        seats.names = ("Ann", "Bob", "Cy")
        seats.view = view
        text = seats.render().plain
    assert "◆#1 first (lag +80ms)" in text
    assert "◆#2 +40ms" in text and "+40ms (lag" not in text


def test_a_lobby_says_how_long_a_match_lasts_at_its_pace_and_players():
    """Fool's Gold's length from its pace bench (a person at 1.2 s and normal bots):
    longer with more players and at a slower pace; nothing where nothing was measured."""
    from types import SimpleNamespace

    from tui.games.foolsgold import APP

    length_line = APP.length_line

    def minutes(pace, players):
        line = length_line(SimpleNamespace(pace=pace), players)
        assert line.startswith("A match takes about ") and line.endswith("(half end sooner).")
        return int(line.split("about ")[1].split()[0])

    assert minutes("normal", 4) == 7
    assert minutes("normal", 2) < minutes("normal", 4) < minutes("normal", 8)
    assert minutes("normal", 4) < minutes("steady", 4) < minutes("relaxed", 4)
    assert length_line(SimpleNamespace(pace="normal"), 9) == ""
