"""The exact advisor, checked against brute force over every sequence of faces and
against the Bellman equations built from the rules module alone."""

import functools
import itertools
from collections import Counter
from fractions import Fraction
from math import factorial

import pytest

from nuggets import (
    NUMBERS,
    Face,
    Game,
    IllegalAction,
    Keep,
    Roll,
    Stop,
    advise,
    best_keep,
    bust_chance,
    expected_keep,
    expected_roll,
    expected_stop,
    expected_turn,
    is_bust,
    legal_keeps,
    score,
)
from nuggets.odds import solve

from .helpers import faces

VALUE = {Face.TWO: 2, Face.THREE: 3, Face.FOUR: 4, Face.FIVE: 5}


def all_states():
    """Every (numbers used, dice left, value) a turn can reach, with a set-aside
    that reaches it: three dice per number, nuggets for the rest of the value,
    lassos to fill."""
    for r in range(3):
        for used in itertools.combinations(NUMBERS, r):
            for n in range(1, 8 - 3 * r):
                spare = 7 - n - 3 * r
                for nuggets in range(spare + 1):
                    kept = [f for f in used for _ in range(3)]
                    kept += [Face.NUGGET] * nuggets + [Face.LASSO] * (spare - nuggets)
                    yield tuple(kept)


def test_a_fresh_roll_of_seven_busts_with_35_in_3888():
    assert bust_chance() == Fraction(35, 3888)
    assert bust_chance([]) == solve().bust[0, 7]


def test_the_state_space_is_what_the_docs_say():
    states = list(all_states())
    assert len(states) == len(solve().roll) == 74


@pytest.mark.parametrize("n", range(1, 7))
@pytest.mark.slow
def test_bust_chance_matches_brute_force_over_all_rolls(n):
    for kept in all_states():
        if 7 - len(kept) != n:
            continue
        busts = sum(is_bust(roll, kept) for roll in itertools.product(Face, repeat=n))
        assert bust_chance(kept) == Fraction(busts, 6**n), kept


def test_no_dice_left_nothing_to_roll():
    kept = [Face.NUGGET] * 7
    assert bust_chance(kept) == 0
    assert expected_roll(kept) is None
    assert expected_stop(kept) == 7 + expected_turn()


@functools.cache
def brute_value(kept: tuple[Face, ...]) -> Fraction:
    """Optimal expected nuggets from a set-aside, by enumerating every sequence of
    faces (6**n of them) and every legal set-aside; E0 taken from the solver."""
    if len(kept) == 7:
        return score(kept) + expected_turn()
    return max(Fraction(score(kept)), brute_roll(kept))


@functools.cache
def brute_roll(kept: tuple[Face, ...]) -> Fraction:
    n = 7 - len(kept)
    total = Fraction(0)
    for roll in itertools.product(Face, repeat=n):
        keeps = legal_keeps(roll, kept)
        if keeps:
            total += max(brute_value(tuple(sorted(kept + k, key=list(Face).index))) for k in keeps)
    return total / 6**n


def test_expected_roll_matches_brute_force_for_up_to_four_dice():
    checked = 0
    for kept in all_states():
        if 7 - len(kept) <= 4:
            kept = tuple(sorted(kept, key=list(Face).index))
            assert expected_roll(kept) == brute_roll(kept), kept
            checked += 1
    assert checked == 68


def test_every_state_satisfies_the_bellman_equations():
    """Independently of the solver's tables: each roll as a multiset with its
    multinomial weight, each legal set-aside from the rules module. With E0 a
    fixed point and the values optimal, every equation holds exactly."""
    solution = solve()
    order = list(Face)
    for kept in all_states():
        n = 7 - len(kept)
        total = Fraction(0)
        for roll in itertools.combinations_with_replacement(order, n):
            keeps = legal_keeps(roll, kept)
            if not keeps:
                continue
            weight = factorial(n)
            for c in Counter(roll).values():
                weight //= factorial(c)
            total += weight * max(
                expected_stop([*kept, *k])
                if len(kept) + len(k) == 7
                else max(Fraction(score([*kept, *k])), expected_roll([*kept, *k]))
                for k in keeps
            )
        assert expected_roll(kept) == total / 6**n, kept
        mask = sum(1 << NUMBERS.index(f) for f in set(kept) if f in VALUE)
        state = (mask, n, score(kept))
        assert solution.best[state] == max(Fraction(score(kept)), expected_roll(kept))
    assert expected_turn() == expected_roll([])


def test_the_value_of_a_fresh_turn():
    e0 = expected_turn()
    assert e0 == Fraction(26621167572930219, 5694673549253951)
    assert 4.6747 < float(e0) < 4.6748


def test_six_3s_set_aside_only_three_and_roll_on():
    roll = faces("3 3 3 3 3 3 2")
    assert best_keep(roll) == faces("3 3 3")
    worth = {k: expected_keep(roll, [], faces(" ".join(["3"] * k))) for k in (3, 4, 5, 6)}
    assert worth[3] > worth[4] > worth[5] > worth[6] > 3
    # With a nugget beside them, all seven is better: it earns the bonus turn.
    assert best_keep(faces("3 3 3 3 3 3 N")) == faces("N 3 3 3 3 3 3")


def test_player_b_should_roll_the_last_die():
    kept = faces("3 3 3 5 5 5")
    # One die: a nugget, lasso, 3 or 5 sets aside all seven (bonus turn); 2 or 4 busts.
    e0 = expected_turn()
    assert bust_chance(kept) == Fraction(1, 3)
    assert expected_roll(kept) == (9 + e0 + 3 * (8 + e0)) / 6
    assert expected_roll(kept) > expected_stop(kept) == 8


def test_best_keep_ties_go_to_lassos():
    # A 4 already set aside: a lasso or a 4 reach the same state; the lasso may steal.
    assert best_keep(faces("L 4 2 3"), faces("4 4 4")) in (faces("L"), faces("L 4"))
    keep = best_keep(faces("L 4 2 3"), faces("4 4 4"))
    assert Face.LASSO in keep


def test_best_keep_is_the_best_legal_keep():
    for roll in (faces("N L 2 2 2 5 5"), faces("L L L 4 4 4 N"), faces("2 3 4 5 5 5 N")):
        best = best_keep(roll)
        values = [expected_keep(roll, [], k) for k in legal_keeps(roll)]
        assert expected_keep(roll, [], best) == max(values)
    assert best_keep(faces("2 2 3 3 4 4 5")) is None


def test_queries_refuse_impossible_input():
    with pytest.raises(IllegalAction, match="three or more"):
        expected_roll(faces("3"))
    with pytest.raises(IllegalAction, match="unknown face"):
        bust_chance(["6"])
    with pytest.raises(IllegalAction, match="5 dice remain, the roll has 4"):
        best_keep(faces("N N N N"), faces("N N"))
    with pytest.raises(IllegalAction, match="new number"):
        expected_keep(faces("N 2 2 3 4 5 L"), [], faces("2 2"))


@pytest.mark.parametrize(
    "kept, message",
    [
        ("2 2 3 3 3 3", "2 2s"),
        ("5", "1 5 "),
        ("N N 4 4 L", "2 4s"),
        ("3 3 3 5 5", "2 5s"),
    ],
)
def test_queries_refuse_set_asides_that_cannot_happen(kept, message):
    # A number is first set aside three or more at a time, so fewer than three
    # dice of a number can never be among the dice set aside.
    for query in (bust_chance, expected_stop, expected_roll):
        with pytest.raises(IllegalAction, match=message):
            query(faces(kept))
    g = Game(["A", "B"])
    view = {**g.view(0), "phase": "choose", "kept": list(kept.replace("N", "nugget")
            .replace("L", "lasso").split())}
    with pytest.raises(IllegalAction, match="cannot all have been set aside"):
        advise(view)


def test_advise_stops_when_stopping_wins_outright():
    # The closer: 2 nuggets in the supply, 37 against 38. Stopping with 2 takes the
    # last nuggets and wins for certain; rolling is worth more nuggets on average.
    g = Game(["A", "B"], supply=2)
    g.holdings = [37, 38]
    g.apply(Roll(faces("N N L L 2 3 4")))
    a = advise(g.view(0))
    assert a.action == Keep(faces("N N L L")) and a.wins_now
    g.apply(Keep(faces("N N L L")))
    assert expected_roll(g.kept) > 2
    a = advise(g.view(0))
    assert a.action == Stop() and a.wins_now and a.to_dict()["wins_now"] is True
    # With one nugget less it would only tie: no override, the expectation rules.
    g.holdings = [36, 38]
    a = advise(g.view(0))
    assert a.action == Roll() and not a.wins_now


def test_advise_sets_aside_what_wins_when_the_best_keep_would_not():
    # 3 left in the supply, 30 against 31: by expectation one nugget is the best
    # set-aside (six dice to roll on); three nuggets are worth 3 and win at once.
    g = Game(["A", "B"], supply=3)
    g.holdings = [30, 31]
    g.apply(Roll(faces("N N N N L L 2")))
    assert best_keep(g.rolled, g.kept) == faces("N")
    a = advise(g.view(0))
    assert a.wins_now and a.action == Keep(faces("N N N N L L"))
    # Behind by more than the supply: nothing wins outright, the expectation rules.
    g.holdings = [20, 31]
    a = advise(g.view(0))
    assert not a.wins_now and a.action == Keep(faces("N"))
