"""Every ruling N1-N9 and every example of the rulebook, by plain function calls."""

import json
import random
from collections import Counter

import pytest

from nuggets import (
    Face,
    Game,
    IllegalAction,
    Keep,
    Roll,
    Stop,
    check_keep,
    is_bust,
    legal_keeps,
    roll_dice,
    score,
)

from .helpers import faces, state


def play(game: Game, *steps) -> list[dict]:
    """Apply steps: a string is a roll ('N 3 3 3 ...'), a tuple ('keep', '...')
    a set-aside, an action object is applied as is. Returns all events."""
    events = []
    for step in steps:
        if isinstance(step, str):
            action = Roll(faces(step))
        elif isinstance(step, tuple):
            action = Keep(faces(step[1]))
        else:
            action = step
        events += game.apply(action)
    return events


def types(events):
    return [e["type"] for e in events]


def rejects(game: Game, action, message: str) -> None:
    before = state(game)
    with pytest.raises(IllegalAction, match=message):
        game.apply(action)
    assert state(game) == before


# --- the rulebook's examples ---------------------------------------------------------


def test_player_a_first_example_all_seven_and_a_bonus_turn():
    g = Game(["A", "B"])
    play(g, "N 2 2 4 5 L 3", ("keep", "N"))
    play(g, "3 3 3 2 4 5", ("keep", "3 3 3"))
    ev = play(g, "N 3 3", ("keep", "N 3 3"))
    assert ev[-1] == {
        "type": "kept",
        "seat": 0,
        "faces": ["nugget", "3", "3"],
        "value": 5,
        "dice_left": 0,
    }
    assert g.phase == "take"
    ev = g.apply(Stop())
    assert ev == [
        {"type": "took", "seat": 0, "amount": 5, "value": 5, "supply": 72},
        {"type": "bonus_turn", "seat": 0},
    ]
    assert g.holdings == [5, 0]
    assert (g.current, g.phase, g.dice_left, g.kept) == (0, "roll", 7, [])


@pytest.mark.parametrize("steal_from, supply, holdings", [(None, 73, [4, 6]), (1, 77, [4, 2])])
def test_player_a_second_example_three_lassos_take_from_supply_or_opponent(
    steal_from, supply, holdings
):
    g = Game(["A", "B"])
    g.holdings[1] = 6  # B holds some nuggets (the supply is irrelevant to stealing)
    play(g, "L 2 3 4 5 5 2", ("keep", "L"))
    play(g, "4 4 4 L 2 3", ("keep", "L 4 4 4"))
    play(g, "L 5", ("keep", "L"))
    assert g.kept_value == 4 and g.can_steal and g.view(0)["can_steal"]
    ev = g.apply(Stop(steal_from))
    assert (g.supply, g.holdings) == (supply, holdings)
    assert ev[0]["type"] == ("took" if steal_from is None else "stole")
    assert ev[0]["amount"] == 4 and ev[-1] == {"type": "turn", "seat": 1}


def test_player_b_three_3s_and_three_5s_from_one_roll():
    g = Game(["A", "B"], start=1)
    play(g, "3 3 3 5 5 5 2", ("keep", "3 3 3 5 5 5"))
    ev = g.apply(Stop())
    assert ev == [
        {"type": "took", "seat": 1, "amount": 8, "value": 8, "supply": 69},
        {"type": "turn", "seat": 0},
    ]
    assert g.holdings == [0, 8]


def test_six_3s_are_worth_only_3_and_three_of_them_may_be_kept():
    assert score(faces("3 3 3 3 3 3")) == 3
    g = Game(["A", "B"])
    play(g, "3 3 3 3 3 3 2")
    assert faces("3 3 3") in g.legal_keeps()
    play(g, ("keep", "3 3 3"))
    assert (g.kept_value, g.dice_left, g.phase) == (3, 4, "choose")


# --- N1: players, supply, dice, seating ---------------------------------------------


def test_n1_defaults_and_player_counts():
    g = Game(["A", "B", "C"])
    assert g.supply == 77 and g.holdings == [0, 0, 0] and g.dice_left == 7
    assert g.current == 0 and g.phase == "roll"
    assert [f.value for f in Face] == ["nugget", "lasso", "2", "3", "4", "5"]
    for n in (2, 5):
        Game([str(i) for i in range(n)])
    for n in (0, 1, 6):
        with pytest.raises(ValueError, match="2 to 5 players"):
            Game([str(i) for i in range(n)])
    with pytest.raises(ValueError, match="positive"):
        Game(["A", "B"], supply=0)
    with pytest.raises(ValueError, match="starting seat"):
        Game(["A", "B"], start=2)


def test_n1_play_goes_clockwise_from_the_chosen_start():
    g = Game(["A", "B", "C"], start=2)
    seats = []
    for _ in range(4):
        ev = play(g, "2 2 3 3 4 4 5")  # a bust: no legal set-aside
        seats.append(ev[-1]["seat"])
    assert seats == [0, 1, 2, 0]


def test_n1_roll_dice_is_fair_and_seeded():
    rng = random.Random(7)
    rolls = [f for _ in range(6000) for f in roll_dice(rng, 7)]
    counts = Counter(rolls)
    assert set(counts) == set(Face)
    assert all(abs(c - 7000) < 400 for c in counts.values())
    assert roll_dice(random.Random(3), 5) == roll_dice(random.Random(3), 5)
    assert len(roll_dice(rng, 3)) == 3


# --- N2: the turn starts with seven dice; at least one die after every roll ----------


def test_n2_a_turn_starts_with_all_seven_dice():
    g = Game(["A", "B"])
    rejects(g, Roll(faces("N N N N N N")), "7 dice remain, the roll has 6")
    rejects(g, Keep(faces("N")), "no dice on the table")
    rejects(g, Stop(), "roll the dice first")


def test_n2_a_roll_needs_faces_supplied_by_the_host():
    g = Game(["A", "B"])
    rejects(g, Roll(), "the faces of the 7 dice")


def test_n2_after_a_roll_at_least_one_die_is_set_aside():
    g = Game(["A", "B"])
    play(g, "N 2 3 4 5 L 2")
    rejects(g, Keep(()), "set aside at least one die")
    rejects(g, Roll(faces("N N N N N N N")), "set aside at least one die")
    rejects(g, Stop(), "set aside at least one die")


def test_n2_set_aside_dice_are_never_rerolled():
    g = Game(["A", "B"])
    play(g, "N N 2 3 4 5 L", ("keep", "N N"))
    assert g.dice_left == 5
    rejects(g, Roll(faces("N N N N N N")), "5 dice remain, the roll has 6")
    rejects(g, Roll(faces("N N N N N N N")), "5 dice remain, the roll has 7")
    play(g, "L 2 3 4 5")
    assert g.rolled == faces("L 2 3 4 5")


# --- N3: what a set-aside may hold ---------------------------------------------------


def test_n3_a_new_number_needs_three_dice():
    g = Game(["A", "B"])
    play(g, "4 4 4 2 3 5 N")
    rejects(g, Keep(faces("4 4")), "a new number needs three or more dice: you chose two 4s")
    rejects(g, Keep(faces("N 5")), "a new number needs three or more dice: you chose one 5")
    play(g, ("keep", "4 4 4"))


def test_n3_a_number_already_set_aside_may_be_added_one_at_a_time():
    g = Game(["A", "B"])
    play(g, "4 4 4 2 3 5 2", ("keep", "4 4 4"), "4 2 3 5")
    assert faces("4") in g.legal_keeps()
    play(g, ("keep", "4"))
    assert g.kept_value == 4 and g.dice_left == 3


def test_n3_nuggets_and_lassos_in_any_number():
    g = Game(["A", "B"])
    play(g, "N N L L L 2 3")
    keeps = g.legal_keeps()
    for k in ("N", "L", "N N", "L L L", "N L", "N N L L L"):
        assert faces(k) in keeps


def test_n3_several_groups_from_one_roll_and_fewer_than_rolled():
    keeps = legal_keeps(faces("3 3 3 3 5 5 5"))
    assert faces("3 3 3 5 5 5") in keeps
    assert faces("3 3 3") in keeps and faces("3 3 3 3") in keeps
    assert faces("3 3") not in keeps
    assert len(keeps) == len(set(keeps))
    # 3s: 0, 3 or 4 of them; 5s: 0 or 3; minus the empty set-aside.
    assert len(keeps) == 3 * 2 - 1


def test_n3_only_dice_on_the_table_can_be_set_aside():
    g = Game(["A", "B"])
    play(g, "N 2 2 2 3 4 5")
    rejects(g, Keep(faces("N N")), "you chose two nuggets but the roll has only one nugget")
    rejects(g, Keep(faces("L")), "you chose one lasso but the roll has no lasso")


def test_n3_exactly_one_set_aside_per_roll():
    g = Game(["A", "B"])
    play(g, "N N 2 2 2 3 4", ("keep", "N"))
    rejects(g, Keep(faces("N")), "no dice on the table")


def test_n3_faces_may_be_given_as_strings_and_unknown_ones_are_refused():
    assert Keep(["nugget", "3"]).faces == (Face.NUGGET, Face.THREE)
    assert Roll(("lasso",)).faces == (Face.LASSO,)
    with pytest.raises(IllegalAction, match="unknown face '6'"):
        Keep(["6"])
    with pytest.raises(IllegalAction, match="unknown face 3"):
        Roll([3])
    with pytest.raises(IllegalAction, match="list of faces"):
        Keep("nugget")


def test_check_keep_explains_and_sorts():
    assert check_keep(faces("3 N 3 3"), (), faces("3 N 3 3")) == faces("N 3 3 3")
    with pytest.raises(IllegalAction, match="the roll has no 5"):
        check_keep(faces("3 3 3"), (), faces("5 5 5"))


# --- N4: bust ----------------------------------------------------------------------


def test_n4_a_roll_with_nothing_to_set_aside_busts_at_once():
    g = Game(["A", "B"])
    play(g, "N N 2 3 4 5 L", ("keep", "N N"))
    ev = play(g, "2 2 3 3 4")
    assert ev == [
        {"type": "rolled", "seat": 0, "faces": ["2", "2", "3", "3", "4"]},
        {"type": "bust", "seat": 0, "lost": 2},
        {"type": "turn", "seat": 1},
    ]
    assert g.holdings == [0, 0] and g.supply == 77
    assert (g.current, g.phase, g.kept, g.rolled) == (1, "roll", [], None)


def test_n4_a_number_already_set_aside_saves_the_roll():
    assert is_bust(faces("2 3 4 5"))
    assert not is_bust(faces("2 3 4 5"), kept=faces("4 4 4"))
    assert legal_keeps(faces("2 3 4 5"), faces("4 4 4")) == [faces("4")]
    assert not is_bust(faces("2 2 2"))
    assert not is_bust(faces("L"))
    assert legal_keeps(faces("2 3 3 4 4 5")) == []


# --- N5: value ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "dice, value",
    [
        ("N", 1),
        ("N N N", 3),
        ("L L L", 0),
        ("2 2 2", 2),
        ("5 5 5 5", 5),
        ("3 3 3 5 5 5", 8),
        ("N 2 2 2 3 3 3 L", 6),
        ("3 3 3 3 3 3", 3),
        ("", 0),
    ],
)
def test_n5_score(dice, value):
    assert score(faces(dice)) == value
    assert score([f.value for f in faces(dice)]) == value


# --- N6: roll on or stop -------------------------------------------------------------


def test_n6_after_a_set_aside_roll_on_or_stop():
    g = Game(["A", "B"])
    play(g, "N 2 3 4 5 L 2", ("keep", "N"))
    assert g.phase == "choose"
    h = g.copy()
    play(g, "N 2 3 4 5 L")
    assert g.phase == "keep"
    assert h.apply(Stop())[0] == {"type": "took", "seat": 0, "amount": 1, "value": 1, "supply": 76}


# --- N7: taking and stealing ---------------------------------------------------------


def test_n7_the_take_is_capped_by_the_supply_and_ends_the_game():
    g = Game(["A", "B"], supply=3)
    ev = play(g, "3 3 3 5 5 5 2", ("keep", "3 3 3 5 5 5"), Stop())
    assert ev[-2] == {"type": "took", "seat": 0, "amount": 3, "value": 8, "supply": 0}
    assert ev[-1] == {"type": "game_over", "winners": [0], "holdings": [3, 0]}
    assert g.over and g.phase == "over" and g.winners == [0]


def test_n7_stealing_needs_three_lassos():
    g = Game(["A", "B"])
    g.holdings[1] = 5
    play(g, "L L N 2 3 4 5", ("keep", "L L N"))
    rejects(g, Stop(steal_from=1), "stealing needs three lassos set aside; you have 2")


def test_n7_steal_capped_at_victims_holdings_and_never_ends_the_game():
    g = Game(["A", "B", "C"], supply=5)
    g.holdings[:] = [0, 2, 9]
    ev = play(g, "L L L 5 5 5 N", ("keep", "L L L 5 5 5 N"), Stop(steal_from=1))
    assert ev[-2:] == [
        {"type": "stole", "seat": 0, "victim": 1, "amount": 2, "value": 6},
        {"type": "bonus_turn", "seat": 0},
    ]
    assert g.holdings == [2, 0, 9] and g.supply == 5 and not g.over


def test_n7_steal_target_must_be_an_opponent_at_the_table():
    g = Game(["A", "B"])
    play(g, "L L L 2 3 4 5", ("keep", "L L L"))
    rejects(g, Stop(steal_from=0), "cannot steal from yourself")
    rejects(g, Stop(steal_from=2), "there is no seat 2: seats are 0 to 1")
    rejects(g, Stop(steal_from=-1), "there is no seat -1")
    with pytest.raises(IllegalAction, match="seat number or None"):
        Stop(steal_from="1")
    with pytest.raises(IllegalAction, match="seat number or None"):
        Stop(steal_from=True)


def test_n7_a_take_of_zero_is_legal():
    g = Game(["A", "B"])
    g.holdings[1] = 4
    ev = play(g, "L L L 2 3 4 5", ("keep", "L L L"), Stop())
    assert ev[-2] == {"type": "took", "seat": 0, "amount": 0, "value": 0, "supply": 77}
    h = Game(["A", "B"])
    ev = play(h, "L L L 2 3 4 5", ("keep", "L L L"), Stop(steal_from=1))
    assert ev[-2] == {"type": "stole", "seat": 0, "victim": 1, "amount": 0, "value": 0}


# --- N8: all seven set aside -------------------------------------------------------


def test_n8_all_seven_must_take_then_bonus_turn():
    g = Game(["A", "B"])
    play(g, "N N N N N N N", ("keep", "N N N N N N N"))
    assert g.phase == "take" and g.view(0)["phase"] == "take"
    rejects(g, Roll(faces("N")), "all seven dice are set aside")
    rejects(g, Roll(), "all seven dice are set aside")
    rejects(g, Keep(faces("N")), "take your nuggets")
    ev = g.apply(Stop())
    assert types(ev) == ["took", "bonus_turn"]
    assert g.current == 0 and g.phase == "roll"
    # The bonus turn is a full turn: it can bust, and then play passes on.
    ev = play(g, "2 2 3 3 4 4 5")
    assert types(ev) == ["rolled", "bust", "turn"] and g.current == 1
    assert g.holdings == [7, 0]


def test_n8_no_bonus_turn_when_the_game_has_ended():
    g = Game(["A", "B"], supply=4)
    ev = play(g, "N N N N N N N", ("keep", "N N N N N N N"), Stop())
    assert types(ev)[-2:] == ["took", "game_over"]
    assert g.over and g.holdings == [4, 0]


# --- N9: the end ---------------------------------------------------------------------


def test_n9_a_tie_gives_several_winners_and_nothing_moves_after():
    g = Game(["A", "B", "C"], supply=5, start=1)
    g.holdings[:] = [0, 0, 5]
    ev = play(g, "3 3 3 5 5 5 2", ("keep", "5 5 5"), Stop())
    assert ev[-1] == {"type": "game_over", "winners": [1, 2], "holdings": [0, 5, 5]}
    assert g.winners == [1, 2] and g.view(None)["winners"] == [1, 2]
    for action in (Roll(faces("N N N N N N N")), Keep(faces("N")), Stop()):
        rejects(g, action, "the game is over")


# --- view, copy ----------------------------------------------------------------------


def test_view_is_the_architecture_contract_and_json_safe():
    g = Game(["Ann", "Bo"])
    play(g, "N L L 3 3 3 4", ("keep", "N L 3 3 3"), "L 4")
    v = g.view(1)
    assert json.loads(json.dumps(v)) == v
    assert v == {
        "game": "nuggets",
        "seat": 1,
        "players": ["Ann", "Bo"],
        "current": 0,
        "phase": "keep",
        "supply": 77,
        "holdings": [0, 0],
        "kept": ["nugget", "lasso", "3", "3", "3"],
        "kept_value": 4,
        "rolled": ["lasso", "4"],
        "dice_left": 2,
        "can_steal": False,
        "over": False,
        "winners": [],
    }
    assert g.view(None)["seat"] is None
    with pytest.raises(ValueError, match="no seat 2"):
        g.view(2)


def test_copy_is_independent():
    g = Game(["A", "B"])
    play(g, "N N 2 3 4 5 L", ("keep", "N N"))
    h = g.copy()
    play(h, "N 2 3 4 5", ("keep", "N"), Stop())
    assert tuple(g.kept) == faces("N N") and g.holdings == [0, 0] and g.phase == "choose"
    assert h.holdings == [3, 0]


def test_events_are_json_safe():
    g = Game(["A", "B"], supply=2)
    ev = play(g, "L L L N 2 2 2", ("keep", "L L L N 2 2 2"), Stop())
    assert json.loads(json.dumps(ev)) == ev


def test_apply_refuses_what_is_not_an_action():
    g = Game(["A", "B"])
    rejects(g, "roll", "not a Gold Nuggets action")
