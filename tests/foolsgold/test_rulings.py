"""Every ruling F1-F12, each with a forced deck order (dealt per DESIGN.md)."""

import itertools
import json

import pytest

from foolsgold import (
    Card,
    DeckError,
    Discard,
    Draw,
    Grab,
    IllegalAction,
    Round,
    Tick,
    check_deck,
    is_set,
    standard_deck,
)
from tests.foolsgold.helpers import card, cards, filler, places, refused

# -- F1: players, nuggets, seats -------------------------------------------------------


@pytest.mark.parametrize("players", range(2, 9))
def test_f1_nuggets_are_players_minus_one(players):
    r = Round(players, 0, standard_deck(players))
    assert r.nuggets_left == players - 1
    assert r.view(None)["nuggets_left"] == players - 1


@pytest.mark.parametrize("players", [0, 1, 9, "4", True])
def test_f1_player_count_is_two_to_eight(players):
    with pytest.raises(ValueError, match="players"):
        Round(players, 0, standard_deck(8))


def test_f1_left_neighbour_is_the_next_seat_clockwise():
    r = filler(5, 0)
    assert [r.left_of(s) for s in range(5)] == [1, 2, 3, 4, 0]


# -- F2: cards and deck ----------------------------------------------------------------


@pytest.mark.parametrize("players", range(2, 9))
def test_f2_standard_deck_scales_and_every_card_is_unique(players):
    deck = standard_deck(players)
    assert len({(c.name, c.variant) for c in deck}) == len(deck)
    animals = {c.name for c in deck if c.kind == "animal"}
    prospectors = {c.name for c in deck if c.kind == "prospector"}
    assert len(animals) >= players  # at least one animal name per player
    assert prospectors
    assert len(deck) > 5 * players  # a draw pile is left after the deal
    # Every name can make a set.
    for name in animals | prospectors:
        same = [c for c in deck if c.name == name]
        assert is_set(same)


def test_f2_a_set_is_three_animals_or_five_prospectors_by_name_alone():
    assert is_set(cards("Owl a, Owl b, Owl c"))
    assert is_set(cards("Mule a, Owl a, Owl b, Coyote c, Owl d, Bison a"))  # six, three Owls
    assert not is_set(cards("Owl a, Owl b, Mule c, Mule d, Coyote a"))
    assert is_set(cards("Dusty Dan a, Dusty Dan b, Dusty Dan c, Dusty Dan d, Dusty Dan e"))
    assert not is_set(cards("Dusty Dan a, Dusty Dan b, Dusty Dan c, Dusty Dan d, Owl a"))
    assert not is_set([])


def test_f2_card_round_trips_through_its_dict_and_rejects_nonsense():
    owl = card("Owl b")
    assert Card.from_dict(json.loads(json.dumps(owl.to_dict()))) == owl
    assert str(owl) == "Owl (b)"
    with pytest.raises(ValueError, match="kind"):
        Card("Owl", "bird", "a")
    with pytest.raises(ValueError, match="variant"):
        Card.from_dict({"name": "Owl", "kind": "animal"})


def test_f2_deck_must_be_unique_and_large_enough():
    with pytest.raises(ValueError, match="unique"):
        Round(2, 0, cards("Owl a, Owl a") + standard_deck(2))
    with pytest.raises(ValueError, match="cannot deal"):
        Round(3, 0, standard_deck(3)[:14])


def test_f2_a_deck_that_gives_one_name_two_kinds_is_refused_when_built():
    mixed = [Card("Owl", "prospector", "z"), *standard_deck(2)]
    with pytest.raises(DeckError, match="'Owl' is given two kinds"):
        Round(2, 0, mixed)
    with pytest.raises(DeckError, match="'Owl' is given two kinds"):
        check_deck(mixed)
    with pytest.raises(DeckError, match="Owl \\(a\\) is there twice"):
        check_deck(cards("Owl a, Owl a"))
    assert issubclass(DeckError, ValueError)
    assert check_deck(standard_deck(3)) == standard_deck(3)


def test_f2_is_set_does_not_depend_on_the_order_of_the_hand():
    # Two Owl animals and a stray Owl prospector: never a set, in any order (the
    # stray card cannot make up an animal set, nor three cards a prospector set).
    hand = [Card("Owl", "animal", "a"), Card("Owl", "animal", "b"), Card("Owl", "prospector", "z")]
    for order in itertools.permutations(hand):
        assert not is_set(order)
    assert is_set([*hand, Card("Owl", "animal", "c")])


# -- F3: the deal ----------------------------------------------------------------------


def test_f3_deals_five_each_from_the_start_player_clockwise_and_the_rest_is_the_pile():
    deck = standard_deck(4)
    r = Round(4, 2, deck)
    assert r.hands[2] == deck[0:5]
    assert r.hands[3] == deck[5:10]
    assert r.hands[0] == deck[10:15]
    assert r.hands[1] == deck[15:20]
    # The top of the draw pile (the last element) is deck[20], then deck[21], ...
    assert r.draw_pile[-1] == deck[20]
    assert r.draw_pile == deck[20:][::-1]
    r.apply(Draw(2), 0.0)
    assert r.hands[2][-1] == deck[20]
    r.apply(Discard(2, deck[20]), 0.1)
    r.apply(Draw(2), 0.2)
    assert r.hands[2][-1] == deck[21]
    assert sorted(places(r), key=str) == sorted(deck, key=str)


def test_f3_views_show_the_deal():
    deck = standard_deck(3)
    r = Round(3, 1, deck)
    v = r.view(1)
    assert v["hand"] == [c.to_dict() for c in deck[0:5]]
    assert v["hand_sizes"] == [5, 5, 5]
    assert v["draw_pile"] == len(deck) - 15
    assert v["trash_pile"] == 0 and v["incoming_sizes"] == [0, 0, 0]


# -- F4: who draws from where, who discards where --------------------------------------


def test_f4_only_the_start_player_draws_from_the_draw_pile():
    r = filler(3, 0, "Owl x, Mule x")
    events = r.apply(Draw(0), 0.0)
    assert events == [{"type": "drew", "seat": 0, "pile": "draw"}]
    refused(r, Draw(1), 0.1, "your incoming pile is empty")
    assert r.draw_pile == [card("Mule x")]


def test_f4_discards_go_to_the_left_neighbour_and_the_right_neighbour_trashes():
    r = filler(3, 1, "Owl x, Mule x")
    r.apply(Draw(1), 0.0)  # the start player draws Owl x
    events = r.apply(Discard(1, card("Owl x")), 0.1)
    assert events == [{"type": "discarded", "seat": 1, "pile": "incoming", "to": 2}]
    assert r.incoming[2] == [card("Owl x")]
    r.apply(Draw(2), 0.2)
    assert r.hands[2][-1] == card("Owl x")
    events = r.apply(Discard(2, card("Owl x")), 0.3)
    assert events == [{"type": "discarded", "seat": 2, "pile": "incoming", "to": 0}]
    r.apply(Draw(0), 0.4)
    # Seat 0 is the start player's right neighbour: its discards are trashed.
    events = r.apply(Discard(0, card("Owl x")), 0.5)
    assert events == [{"type": "discarded", "seat": 0, "pile": "trash", "to": None}]
    assert r.trash_pile == [card("Owl x")]
    assert r.incoming[1] == []


def test_f4_two_players_the_non_start_player_trashes():
    r = filler(2, 0, "Owl x")
    r.apply(Draw(0), 0)
    r.apply(Discard(0, card("Owl x")), 0)
    r.apply(Draw(1), 0)
    assert r.apply(Discard(1, card("Owl x")), 0)[0]["pile"] == "trash"


def test_f4_the_start_player_draws_from_the_trash_once_the_draw_pile_is_empty():
    r = filler(2, 0, "Owl x, Mule x")
    for top in ("Owl x", "Mule x"):
        r.apply(Draw(0), 0)
        r.apply(Discard(0, card(top)), 0)
    refused(r, Draw(0), 0, "the draw pile and the trash pile are both empty")
    r.apply(Draw(1), 0)
    r.apply(Discard(1, card("Mule b")), 0)  # onto the trash
    r.apply(Draw(1), 0)
    r.apply(Discard(1, card("Owl x")), 0)  # onto the trash, on top
    assert r.trash_pile == [card("Mule b"), card("Owl x")]
    assert r.apply(Draw(0), 1) == [{"type": "drew", "seat": 0, "pile": "trash"}]
    assert r.hands[0][-1] == card("Owl x")  # a stack: the latest discard first
    assert r.view(0)["hand"][-1] == card("Owl x").to_dict()  # drawn card appended


def test_f4_incoming_piles_are_stacks():
    r = filler(3, 0, "Owl x, Mule x, Bison x")
    for top in ("Owl x", "Mule x"):
        r.apply(Draw(0), 0)
        r.apply(Discard(0, card(top)), 0)
    assert r.incoming[1] == cards("Owl x, Mule x")
    r.apply(Draw(1), 0)
    assert r.hands[1][-1] == card("Mule x")


def test_f4_the_trash_pile_is_never_shuffled_back():
    r = filler(2, 0, "Owl x")
    r.apply(Draw(0), 0)
    r.apply(Discard(0, card("Owl x")), 0)
    r.apply(Draw(1), 0)
    r.apply(Discard(1, card("Owl x")), 0)
    r.apply(Draw(0), 0)
    assert r.draw_pile == [] and r.trash_pile == []
    r.apply(Discard(0, card("Owl x")), 0)
    assert r.draw_pile == []  # nothing came back to the draw pile


# -- F5: at most six cards, one at a time, arrival order final -------------------------


def test_f5_a_draw_needs_five_cards_and_a_discard_six():
    r = filler(3, 0, "Owl x, Mule x")
    refused(r, Discard(0, card("Owl a")), 0, "you hold 5 cards: draw before discarding")
    r.apply(Draw(0), 0)
    refused(r, Draw(0), 0, "you hold 6 cards: discard before drawing again")
    refused(r, Discard(0, card("Owl b")), 0, r"you do not hold the Owl \(b\)")
    r.apply(Discard(0, card("Owl a")), 0)
    assert [len(h) for h in r.hands] == [5, 5, 5]


def test_f5_no_turns_and_the_arrival_order_is_final():
    # Seat 1 and seat 2 both act at the same moment; the order they arrive in counts.
    r = filler(3, 0, "Owl x, Mule x")
    r.apply(Draw(0), 0)
    r.apply(Discard(0, card("Owl x")), 0)
    first = r.copy()
    r.apply(Draw(1), 1.0)
    r.apply(Grab(2), 1.0)
    assert card("Owl x") in r.hands[1]
    first.apply(Grab(2), 1.0)
    with pytest.raises(IllegalAction, match="frozen"):
        first.apply(Draw(1), 1.0)


# -- F6: grabs, frozen hands, the race -------------------------------------------------


def test_f6_a_grab_is_legal_at_any_time_and_freezes_every_hand():
    r = filler(4, 0, "Owl x, Mule x")
    r.apply(Draw(0), 0)
    events = r.apply(Grab(3), 0.5)  # a bluff before ever drawing
    assert events == [{"type": "grabbed", "seat": 3, "at": 0.5, "order": 1, "nuggets_left": 2}]
    assert r.view(None)["frozen"]
    refused(r, Discard(0, card("Owl x")), 0.6, "hands are frozen: a nugget was grabbed")
    refused(r, Draw(1), 0.6, "hands are frozen")


def test_f6_each_player_grabs_at_most_one_and_the_last_nugget_ends_the_race():
    r = filler(4, 0)
    r.apply(Grab(1), 1.0)
    refused(r, Grab(1), 1.1, "you already grabbed a nugget")
    r.apply(Grab(0), 1.2)
    events = r.apply(Grab(3), 1.3)
    assert events[0]["order"] == 3 and events[0]["nuggets_left"] == 0
    assert events[1] == {"type": "race_over", "at": 1.3, "reason": "nuggets", "without": [2]}
    assert r.race_over and not r.settled  # the call window is still open
    refused(r, Grab(2), 1.4, "the race is over: no nuggets are left")
    assert r.view(2)["grabbed"] == [[1, 1.0], [0, 1.2], [3, 1.3]]


def test_f6_the_grab_timeout_ends_the_race():
    r = filler(4, 0)
    r.apply(Grab(1), 2.0)
    r.apply(Grab(2), 3.0)
    assert r.deadline == 7.0  # the call window closes first
    assert r.apply(Tick(), 7.0) == [{"type": "call_window_closed", "at": 7.0}]
    assert r.deadline == 12.0
    refused(r, Grab(3), 12.0, "the grab time-out ran out")
    events = r.apply(Tick(), 12.5)
    assert events[0] == {"type": "race_over", "at": 12.0, "reason": "timeout", "without": [0, 3]}
    assert events[1]["type"] == "settled"
    assert r.deltas == [-1, 1, 0, -1]


def test_f6_timeouts_are_settings():
    r = filler(3, 0, grab_timeout=3.0, call_window=1.0)
    r.apply(Grab(0), 0)
    assert r.deadline == 1.0
    r.apply(Tick(), 1.0)
    assert r.deadline == 3.0
    with pytest.raises(ValueError, match="grab_timeout"):
        filler(3, 0, grab_timeout=0)


# -- F7: the call ----------------------------------------------------------------------
