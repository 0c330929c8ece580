"""Property tests over random play: conservation, no negatives, the end exactly at an
empty supply, and illegal actions that change nothing."""

import itertools
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from nuggets import (
    NUMBERS,
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
)

from .helpers import legal_action, state

FACES = list(Face)


def junk_action(game: Game, rng: random.Random):
    """Anything at all, legal or not, with faces of plausible and implausible sizes."""
    kind = rng.randrange(3)
    if kind == 0:
        return Roll(roll_dice(rng, rng.choice([0, game.dice_left, rng.randrange(9)])))
    if kind == 1:
        pool = [*(game.rolled or ()), *roll_dice(rng, 2)]
        return Keep(rng.sample(pool, rng.randrange(len(pool) + 1)))
    return Stop(rng.choice([None, -1, *range(len(game.players) + 1)]))


def check_invariants(game: Game, start_supply: int) -> None:
    assert game.supply + sum(game.holdings) == start_supply
    assert game.supply >= 0 and min(game.holdings) >= 0
    assert game.over == (game.supply == 0)
    assert 0 <= game.dice_left <= 7 and 0 <= game.current < len(game.players)
    if game.over:
        best = max(game.holdings)
        assert game.winners == [s for s, h in enumerate(game.holdings) if h == best]
    else:
        assert game.winners == []
    view = game.view(None)
    assert view["phase"] == game.phase and view["supply"] == game.supply


@settings(max_examples=60, deadline=None)
@given(
    players=st.integers(2, 5),
    supply=st.integers(1, 40),
    start=st.integers(0, 4),
    seed=st.integers(0, 2**32 - 1),
)
def test_random_play_keeps_the_invariants(players, supply, start, seed):
    # A seeded generator rather than st.randoms(): whole games need thousands of draws.
    rng = random.Random(seed)
    game = Game([f"p{i}" for i in range(players)], supply=supply, start=start % players)
    check_invariants(game, supply)
    for _ in range(4000):
        if game.over:
            break
        if rng.random() < 0.4:
            action = junk_action(game, rng)
            before = state(game)
            try:
                game.apply(action)
            except IllegalAction:
                assert state(game) == before
        else:
            game.apply(legal_action(game, rng))
        check_invariants(game, supply)
    if game.over:
        before = state(game)
        for action in (Roll(roll_dice(rng, 7)), Keep([Face.NUGGET]), Stop()):
            try:
                game.apply(action)
            except IllegalAction:
                pass
            else:
                raise AssertionError("an action was accepted after the game ended")
        assert state(game) == before


def sub_multisets(dice):
    counts = Counter(dice)
    faces = list(counts)
    for take in itertools.product(*(range(counts[f] + 1) for f in faces)):
        yield tuple(f for f, k in zip(faces, take, strict=True) for _ in range(k))


@settings(max_examples=200, deadline=None)
@given(
    rolled=st.lists(st.sampled_from(FACES), min_size=1, max_size=7),
    used=st.sets(st.sampled_from(NUMBERS)),
)
def test_legal_keeps_is_exactly_what_check_keep_accepts(rolled, used):
    kept = [f for f in used for _ in range(3)]
    legal = legal_keeps(rolled, kept)
    assert len(legal) == len(set(legal))
    accepted = set()
    for chosen in sub_multisets(rolled):
        try:
            accepted.add(check_keep(rolled, kept, chosen))
        except IllegalAction:
            pass
    assert accepted == set(legal)
    assert is_bust(rolled, kept) == (not legal)
