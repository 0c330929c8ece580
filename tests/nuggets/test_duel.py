"""The chance to win: the shipped 2-player table checked against the rules engine.

The independent computation below shares nothing with the solver but the table's
own figures for the positions a turn leads to: it enumerates rolls face by face,
asks the rules module (`is_bust`, `legal_keeps`) what may be set aside, and plays
every stop on a real `Game` to see where the nuggets go and whether the game ends.
The table must satisfy these Bellman equations of the game, in which both players
maximise their chance to win (a tie is half a win).
"""

import itertools
from math import factorial

import pytest

from nuggets import DICE, Face, Game, Keep, Roll, Stop, is_bust, legal_keeps
from nuggets.chances import best_action, chances
from nuggets.duel import (
    TABLE_PATH,
    TOTAL,
    NotCovered,
    table,
)
from nuggets.multi import estimate
from nuggets.turns import turn_state

from .helpers import faces

FACES = tuple(Face)


def stop_chances(a: int, b: int, supply: int, kept) -> list[float]:
    """The chance to win of each legal stop, played on a real game (seat 0 moves)."""
    out = []
    game = Game(["A", "B"], supply=supply)
    game.holdings = [a, b]
    game.kept = list(kept)
    stops = [Stop(), Stop(1)] if game.can_steal else [Stop()]
    for stop in stops:
        g = game.copy()
        g.apply(stop)
        if g.over:
            out.append(1.0 if g.winners == [0] else 0.5 if 0 in g.winners else 0.0)
        elif g.current == 0:  # all seven were set aside: a bonus turn
            out.append(table().start(g.holdings[0], g.holdings[1], g.supply))
        else:
            out.append(1.0 - table().start(g.holdings[1], g.holdings[0], g.supply))
    return out


def value_after(a: int, b: int, supply: int, kept) -> float:
    best = max(stop_chances(a, b, supply, kept))
    if len(kept) < DICE:
        best = max(best, table().roll(a, b, supply, turn_state(kept)))
    return best


def rolled_on(a: int, b: int, supply: int, kept, rolls) -> float:
    """The chance to win of rolling on, from (roll, weight) pairs summing to 1."""
    total = 0.0
    for roll, weight in rolls:
        if is_bust(roll, kept):
            total += weight * (1.0 - table().start(b, a, supply))
        else:
            total += weight * max(
                value_after(a, b, supply, [*kept, *keep]) for keep in legal_keeps(roll, kept)
            )
    return total


def sequences(n: int):
    return [(roll, 1 / 6**n) for roll in itertools.product(FACES, repeat=n)]


# Positions of the standard game (supply + holdings = 77) and of smaller ones.
POSITIONS = [(0, 0, 77), (30, 35, 12), (37, 38, 2), (10, 60, 7), (50, 3, 24), (5, 9, 40),
             (20, 20, 1), (12, 4, 30)]
# Turn states with one to three dice left (6**n rolls each), lassos and steals included.
KEPT = ["N N L L", "L L L 5 5 5", "3 3 3 N N", "L L L N N N", "4 4 4 2 2 2",
        "L 5 5 5 N", "N N N N", "L L L 3 3 3"]


@pytest.mark.parametrize("position", POSITIONS)
def test_sampled_entries_satisfy_the_rules(position):
    a, b, supply = position
    for kept_text in KEPT:
        kept = faces(kept_text)
        n = DICE - len(kept)
        expected = rolled_on(a, b, supply, kept, sequences(n))
        assert table().roll(a, b, supply, turn_state(kept)) == pytest.approx(expected, abs=2e-6)


@pytest.mark.parametrize("position", [(30, 35, 12), (2, 70, 5)])
def test_the_chance_at_a_turn_start_satisfies_the_rules(position):
    # Seven dice: the 792 multisets of faces, weighted by their multinomial counts.
    a, b, supply = position
    rolls = []
    for combo in itertools.combinations_with_replacement(FACES, DICE):
        weight = factorial(DICE)
        for face in FACES:
            weight //= factorial(combo.count(face))
        rolls.append((combo, weight / 6**DICE))
    expected = rolled_on(a, b, supply, (), rolls)
    # The children are read from the single-precision rows of the table.
    assert table().start(a, b, supply) == pytest.approx(expected, abs=1e-6)


def test_the_table_is_small_and_covers_the_standard_game():
    assert TABLE_PATH.stat().st_size < 2_000_000
    assert table().total == TOTAL == 77
    # The first player's edge when both play to win (docs/RULES.md).
    assert table().start(0, 0, 77) == pytest.approx(0.5321, abs=1e-4)
    # With the supply gone the game is decided.
    assert table().start(10, 9, 0) == 1.0 and table().start(9, 9, 0) == 0.5


def closer():
    g = Game(["A", "B"], supply=2)
    g.holdings = [37, 38]
    g.apply(Roll(faces("N N L L 2 3 4")))
    g.apply(Keep(faces("N N L L")))
    return g


def test_the_closer_stops_because_stopping_wins():
    c = chances(closer().view(0))
    assert c.exact and c.stop == 1.0 and c.roll < 0.75
    assert best_action(closer().view(0)) == Stop()


def test_steals_when_that_is_the_better_chance():
    # 20 behind with 3 in the supply: taking 3 from the supply ends the game lost;
    # stealing 6 of the leader's keeps it going.
    g = Game(["A", "B"], supply=3)
    g.holdings = [30, 44]
    g.apply(Roll(faces("L L L 5 5 5 N")))
    g.apply(Keep(faces("L L L 5 5 5 N")))  # all seven: take, then a bonus turn
    c = chances(g.view(0))
    assert c.steal_from == 1 and c.roll is None
    assert best_action(g.view(0)) == Stop(1)


def test_the_estimate_is_exact_for_two_and_shares_out_for_more():
    from nuggets.multi import _shares

    assert estimate([30, 35], 12, 0, 0) == table().start(30, 35, 12)
    assert estimate([30, 35], 12, 1, 0) == pytest.approx(1 - table().start(35, 30, 12))
    for holdings, supply in (([0, 0, 0], 77), ([10, 20, 30, 5], 12), ([3, 9, 1, 0, 2], 62)):
        raw = _shares(tuple(holdings), supply, 1)  # before the calibration: shares of 1
        assert sum(raw) == pytest.approx(1.0)
        shares = [estimate(holdings, supply, 1, s) for s in range(len(holdings))]
        assert sorted(range(len(raw)), key=raw.__getitem__) == sorted(
            range(len(raw)), key=shares.__getitem__
        )  # the calibration keeps the order
        assert shares.index(max(shares)) == holdings.index(max(holdings)) or supply == 77
    assert estimate([0, 0, 0], 77, 0, 0) > estimate([0, 0, 0], 77, 0, 1)  # moving first helps
    assert estimate([10, 10, 12], 0, 0, 2) == 1.0 and estimate([12, 10, 12], 0, 0, 0) == 0.5


def test_chances_for_three_players_are_an_estimate():
    g = Game(["A", "B", "C"], supply=50)
    g.holdings = [10, 9, 8]
    g.apply(Roll(faces("N N L L 2 3 4")))
    g.apply(Keep(faces("N N")))
    c = chances(g.view(0))
    assert not c.exact and 0 < c.stop < 1 and 0 < c.roll < 1


def test_games_beyond_the_table_are_refused_clearly():
    g = Game(["A", "B"], supply=100)
    with pytest.raises(NotCovered, match="up to 77 nuggets, not 100"):
        chances(g.view(0))


def test_every_possible_set_aside_has_a_turn_state():
    from nuggets import IllegalAction
    from nuggets.turns import turn_graph

    index = turn_graph().index
    found = 0
    for n in range(1, DICE + 1):
        for combo in itertools.combinations_with_replacement(FACES, n):
            try:
                state = turn_state(combo)
            except IllegalAction:
                continue
            assert state in index, combo
            found += 1
    assert found == 205


def test_the_written_out_turn_and_shares_give_the_same_floats_as_the_loops():
    """The straight-line code (`_compiled_turn`, `_UNROLLED`, `_PAYOFFS`) answers the 3-5
    player queries; it must compute exactly what the loops compute, so the bots' play
    (and the calibration games replayed from a seed) does not depend on which ran."""
    import random

    from nuggets import duel, multi

    t = table()
    rng = random.Random(19)
    for _ in range(60):
        k = rng.choice((3, 4, 5))
        holdings = tuple(rng.randrange(0, 15) for _ in range(k))
        supply = rng.randrange(1, 78 - sum(holdings))
        mover = rng.randrange(k)
        base, m = t.at.offsets[supply], t.total - supply + 1
        assert multi._UNROLLED[k, mover](holdings, t.starts, base, m, mover) == multi._shares_loop(
            holdings, t.starts, base, m, mover
        )
        max_value, max_steal = multi._value_bounds()
        written = multi._PAYOFFS[k, mover](
            holdings, supply, t.starts, t.at.offsets, t.total, max_value, max_steal
        )
        assert written == multi._payoffs_loop(holdings, supply, mover)
        turn = multi._MultiTurn(holdings, supply, mover)
        bust = rng.random()
        loops = duel._turn(*t._turn_args, turn.stop_payoffs, turn.bonus_payoffs, bust)
        assert duel._compiled_turn()(turn.stop_payoffs, turn.bonus_payoffs, bust) == loops
