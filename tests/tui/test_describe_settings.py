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
