"""The ratings' pure part (net.league.rating): openskill's Plackett-Luce by place, the
display scale, ties, shares, and the promise that a win never lowers a rating and a
loss never raises one."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from net.league.rating import (
    PROVISIONAL_GAMES,
    SIGMA,
    Skill,
    places,
    provisional,
    rate,
    shown,
    widened,
)

pytestmark = pytest.mark.timeout(60)

skills = st.builds(Skill, st.floats(0.0, 60.0), st.floats(0.3, SIGMA))


def test_places_share_ties_and_skip():
    assert places([9, 9, 4]) == [1, 1, 3]
    assert places([3, 7, 7, 1]) == [3, 1, 1, 4]
    assert places([5, 5]) == [1, 1]


def test_a_new_player_shows_1500_and_is_provisional_for_ten_games():
    assert Skill().display() == 1500
    assert provisional(PROVISIONAL_GAMES - 1) and not provisional(PROVISIONAL_GAMES)
    assert shown(Skill(30, 2), 4) is None
    assert shown(Skill(30, 2), 10) == Skill(30, 2).display()


def test_a_win_raises_and_a_loss_lowers_two_new_players():
    winner, loser = rate([Skill(), Skill()], [1, 2])
    assert winner.display() > 1500 > loser.display()
    assert winner.sigma < SIGMA and loser.sigma < SIGMA


def test_a_tied_game_moves_two_equal_ratings_equally():
    a, b = rate([Skill(27.0, 5.0), Skill(27.0, 5.0)], [1, 1])
    assert a == b
    a, b, c = rate([Skill(27.0, 5.0), Skill(27.0, 5.0), Skill(20.0, 4.0)], [1, 1, 3])
    assert a == b and a.mu > 27.0


def test_a_stand_in_seat_counts_by_the_persons_share():
    full = rate([Skill(), Skill()], [2, 1])[0]
    half = rate([Skill(), Skill()], [2, 1], shares=[0.5, 1.0])[0]
    assert full.mu < half.mu < Skill().mu  # the loss counts, half as much


def test_one_seat_is_not_a_match():
    with pytest.raises(ValueError, match="two seats"):
        rate([Skill()], [1])


@settings(max_examples=400, deadline=None, derandomize=True)
@given(st.lists(skills, min_size=2, max_size=8), st.data())
def test_a_win_never_lowers_and_a_loss_never_raises(players, data):
    n = len(players)
    placed = data.draw(st.lists(st.integers(1, n), min_size=n, max_size=n))
    shares = data.draw(st.lists(st.floats(0.0, 1.0), min_size=n, max_size=n))
    after = rate(players, placed, shares)
    best, worst = min(placed), max(placed)
    for before, now, place in zip(players, after, placed, strict=True):
        assert now.sigma <= before.sigma  # limit_sigma: one game never adds doubt
        if best == worst:
            continue
        if place == best:
            assert now.ordinal >= before.ordinal - 1e-9
            assert now.display() >= before.display()
        if place == worst:
            assert now.ordinal <= before.ordinal + 1e-9
            assert now.display() <= before.display()


def test_a_season_widens_uncertainty_but_keeps_skill():
    old = Skill(31.0, 2.0)
    new = widened(old)
    assert new.mu == old.mu and old.sigma < new.sigma <= SIGMA
    assert widened(Skill()) == Skill()


def test_ratings_do_not_inflate_over_a_long_league():
    """150 games of three even players, places at random: the mean mu stays near 25
    (openskill's ``weights`` on teams of one would carry it past 100)."""
    import random

    players = [Skill(), Skill(), Skill()]
    rng = random.Random(1)
    for _ in range(150):
        players = rate(players, rng.sample([1, 2, 3], 3), [1.0, 1.0, 1.0])
    assert abs(sum(p.mu for p in players) / 3 - 25.0) < 2.0
