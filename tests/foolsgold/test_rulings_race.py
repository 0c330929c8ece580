"""The rulings of the race and after (RULINGS.md F7-F12): calls right and wrong, points,
deadlines, what views and events show, bad input."""

import json

import pytest

from foolsgold import (
    Call,
    Discard,
    Draw,
    Grab,
    IllegalAction,
    Round,
    Tick,
)
from tests.foolsgold.helpers import card, cards, filler, forced_deck, refused, snapshot


def set_round():
    """Seat 1 holds three Owls; the start player 0 will draw Mule x."""
    hands = {
        0: "Mule a, Coyote a, Bison a, Buzzard a, Raccoon a",
        1: "Owl a, Owl b, Owl c, Mule b, Coyote b",
        2: "Owl d, Mule c, Coyote c, Bison c, Buzzard c",
    }
    return Round(3, 0, forced_deck(3, 0, hands, "Mule x, Bison x"))


def test_f7_a_right_call_on_a_bluff():
    r = set_round()
    r.apply(Grab(2), 1.0)  # seat 2 bluffs
    refused(r, Call(2), 1.5, "the first grabber cannot call")
    events = r.apply(Call(0), 2.0)
    assert events == [
        {"type": "called", "seat": 0, "at": 2.0, "grabber": 2},
        {
            "type": "revealed",
            "seat": 2,
            "hand": [c.to_dict() for c in cards("Owl d, Mule c, Coyote c, Bison c, Buzzard c")],
            "set": False,
        },
    ]
    refused(r, Call(1), 2.1, "a call was already made")
    v = r.view(1)
    assert v["caller"] == 0 and v["revealed_set"] is False
    assert v["revealed"] == events[1]["hand"]
    r.apply(Grab(0), 2.5)  # the caller races too
    assert r.settled
    assert r.deltas == [1, -1, -1]  # caller +1, bluffer -1, seat 1 without a nugget -1
    assert r.scorer == 0


def test_f7_a_wrong_call_on_a_true_set():
    r = set_round()
    r.apply(Grab(1), 1.0)
    r.apply(Call(2), 1.1)
    assert r.view(0)["revealed_set"] is True
    assert not r.settled  # the race is still on
    r.apply(Grab(2), 1.2)
    assert r.deltas == [-1, 1, -1]
    assert r.scorer == 1


def test_f7_without_a_call_the_grabber_scores_and_the_hand_stays_hidden():
    r = set_round()
    r.apply(Grab(2), 1.0)  # a bluff
    r.apply(Grab(1), 1.5)
    assert r.race_over and not r.settled
    events = r.apply(Tick(), 6.0)
    assert events[0] == {"type": "call_window_closed", "at": 6.0}
    assert events[1] == {"type": "settled", "deltas": [-1, 0, 1], "scorer": 2}
    assert r.view(0)["revealed"] is None and r.view(0)["revealed_set"] is None
    assert all(e["type"] != "revealed" for e in events)


def test_f7_nothing_to_call_before_a_grab():
    r = set_round()
    refused(r, Call(0), 0.0, "nobody has grabbed")


# -- F8: no nugget costs one, whatever else ---------------------------------------------


def test_f8_the_caller_without_a_nugget_loses_one_too():
    r = set_round()
    r.apply(Grab(2), 0.0)  # bluff
    r.apply(Call(1), 0.5)  # right call: +1 ...
    r.apply(Grab(0), 0.6)  # ... but seat 1 is left without a nugget: -1
    assert r.deltas == [0, 0, -1]
    assert r.scorer == 1


def test_f8_points_go_below_zero():
    r = set_round()
    r.apply(Grab(1), 0.0)  # a true set
    r.apply(Call(0), 0.5)  # wrong call: -1
    r.apply(Grab(2), 0.6)  # seat 0 left without a nugget: -1 more
    assert r.deltas == [-2, 1, 0]


# -- F12: a table of two ----------------------------------------------------------------


def two_round(rules: int | None = None) -> Round:
    """Seat 1 holds three Owls; seat 0 holds five names and starts."""
    hands = {0: "Mule a, Coyote a, Bison a, Buzzard a, Raccoon a",
             1: "Owl a, Owl b, Owl c, Mule b, Coyote b"}
    deck = forced_deck(2, 0, hands, "Mule x, Bison x")
    return Round(2, 0, deck) if rules is None else Round(2, 0, deck, rules=rules)


@pytest.mark.parametrize(
    ("grabber", "caller", "deltas", "scorer"),
    [
        (1, None, [0, 1], 1),  # no call: the grabber +1, and nobody loses a nugget
        (0, 1, [-1, 1], 1),  # a right call on a bluff: the caller +1, the grabber -1
        (1, 0, [-1, 1], 1),  # a wrong call on a set: the grabber +1, the caller -1
    ],
)
def test_f12_at_two_every_round_gives_exactly_one_player_a_point(grabber, caller, deltas,
                                                                 scorer):
    r = two_round()
    events = r.apply(Grab(grabber), 1.0)
    assert events[-1]["type"] == "race_over" and events[-1]["without"] == [1 - grabber]
    if caller is not None:
        events = r.apply(Call(caller), 1.5)
    else:
        events = r.apply(Tick(), 6.0)
    assert events[-1] == {"type": "settled", "deltas": deltas, "scorer": scorer}
    assert sum(d > 0 for d in r.deltas) == 1  # F10 holds


@pytest.mark.parametrize(
    ("grabber", "caller", "deltas"),
    [(1, None, [-1, 1]), (0, 1, [-1, 0]), (1, 0, [-2, 1])],
)
def test_f12_a_round_under_the_rules_before_it_settles_as_it_did(grabber, caller, deltas):
    """Version 1 of the rules (a game saved before F12): F8 at two as well."""
    r = two_round(rules=1)
    r.apply(Grab(grabber), 1.0)
    if caller is not None:
        r.apply(Call(caller), 1.5)
    else:
        r.apply(Tick(), 6.0)
    assert r.deltas == deltas and r.copy().rules == 1


def test_f12_does_not_touch_three_seats_and_up():
    for rules in (1, 2):
        r = set_round()
        r.rules = rules
        r.apply(Grab(2), 0.0)
        r.apply(Call(1), 0.5)
        r.apply(Grab(0), 0.6)
        assert r.deltas == [0, 0, -1]


@pytest.mark.parametrize("rules", [0, 3, 1.0, "2"])
def test_f12_a_version_of_the_rules_not_played_is_refused(rules):
    with pytest.raises(ValueError, match="rules must be a version of Fool's Gold's rules"):
        two_round(rules)


# -- F9: settling and deadlines --------------------------------------------------------


def test_f9_an_action_at_the_deadline_is_judged_after_the_timeout():
    r = set_round()
    r.apply(Grab(1), 10.0)
    assert r.view(0)["call_closes"] == 15.0
    refused(r, Call(0), 15.0, "the call window has closed")
    r2 = set_round()
    r2.apply(Grab(1), 10.0)
    assert r2.apply(Call(0), 14.999)[0]["type"] == "called"


def test_f9_a_tick_before_the_deadline_changes_nothing():
    r = set_round()
    r.apply(Grab(1), 10.0)
    before = [item for item in snapshot(r) if item[0] != "clock"]
    assert r.apply(Tick(), 14.9) == []
    assert [item for item in snapshot(r) if item[0] != "clock"] == before
    assert r.clock == 14.9  # only the clock moved
    assert r.deadline == 15.0


def test_f9_settles_once_the_race_is_over_and_the_call_made():
    r = set_round()
    r.apply(Grab(1), 0.0)
    r.apply(Grab(0), 0.5)
    assert not r.settled and r.deadline == 5.0
    events = r.apply(Call(2), 1.0)
    assert events[-1]["type"] == "settled"
    assert r.settled and r.deadline is None
    refused(r, Draw(2), 2.0, "the round is settled")
    refused(r, Grab(2), 2.0, "no nuggets are left")
    refused(r, Tick(), 0.5, "time went backwards")


def test_f9_a_refused_action_does_not_apply_the_due_timeouts_either():
    r = set_round()
    r.apply(Grab(1), 0.0)
    refused(r, Call(1), 5.0, "the first grabber cannot call")
    assert not r.window_closed
    assert r.apply(Tick(), 5.0) == [{"type": "call_window_closed", "at": 5.0}]


def test_f9_timeouts_due_together_apply_in_time_order():
    r = filler(3, 0, grab_timeout=2.0, call_window=4.0)
    r.apply(Grab(0), 0)
    events = r.apply(Tick(), 9.0)
    assert [e["type"] for e in events] == ["race_over", "call_window_closed", "settled"]
    assert [e.get("at") for e in events[:2]] == [2.0, 4.0]


# -- F11: what each seat sees ----------------------------------------------------------


def test_f11_a_view_holds_only_the_own_hand_and_public_facts():
    r = set_round()
    r.apply(Draw(0), 0.0)
    r.apply(Discard(0, card("Mule x")), 0.1)
    for seat in (None, 0, 1, 2):
        v = r.view(seat)
        text = json.dumps(v)
        json.loads(text)
        for other in range(3):
            if other != seat:
                for c in r.hands[other]:
                    if seat is None or c not in r.hands[seat]:
                        assert json.dumps(c.to_dict()) not in text
        for c in r.draw_pile + r.incoming[1] + r.trash_pile:
            assert json.dumps(c.to_dict()) not in text
    assert r.view(1)["incoming_sizes"] == [0, 1, 0]
    assert r.view(None)["hand"] is None
    with pytest.raises(IllegalAction, match="out of range"):
        r.view(3)


def test_f11_view_has_exactly_the_contract_keys():
    keys = {
        "game",
        "seat",
        "players",
        "start",
        "hand",
        "hand_sizes",
        "incoming_sizes",
        "draw_pile",
        "trash_pile",
        "nuggets_left",
        "grabbed",
        "caller",
        "revealed",
        "revealed_set",
        "frozen",
        "deadline",
        "call_closes",
        "settled",
        "deltas",
    }
    assert set(set_round().view(0)) == keys


def test_f11_events_never_name_a_card_before_a_reveal():
    r = set_round()
    events = r.apply(Draw(0), 0.0) + r.apply(Discard(0, card("Mule x")), 0.1)
    events += r.apply(Draw(1), 0.2) + r.apply(Discard(1, card("Mule x")), 0.3)
    events += r.apply(Grab(1), 0.4) + r.apply(Grab(2), 0.5) + r.apply(Tick(), 5.4)
    text = json.dumps(events)
    assert '"name"' not in text and "Mule" not in text


# -- errors ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("action", "message"),
    [
        (Draw(7), "seat 7 is out of range"),
        (Grab(-1), "seat -1 is out of range"),
        (Call("1"), "a seat is a whole number"),
        (Discard(0, "Owl"), "you hold 5 cards"),
        ("draw", "unknown action"),
    ],
)
def test_bad_input_is_refused_with_a_clear_message(action, message):
    refused(set_round(), action, 0.0, message)


def test_bad_now_is_refused():
    refused(set_round(), Tick(), float("nan"), "now must be a number")


def test_copy_is_independent():
    r = set_round()
    c = r.copy()
    c.apply(Draw(0), 0)
    c.apply(Grab(1), 1)
    assert r.hands[0] != c.hands[0] and r.grabbed == [] and r.draw_pile != c.draw_pile


def test_repr_names_no_card():
    r = set_round()
    text = repr(r)
    assert text.startswith("<Round players=3 start=0") and "Owl" not in text
