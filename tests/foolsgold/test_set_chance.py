"""The exact chance that a dealt hand already holds a set (the bots' evidence)."""

from collections import Counter
from itertools import combinations
from math import comb

import pytest

from foolsgold.cards import (
    dealt_set_chance,
    deck_pool,
    is_set,
    set_chance,
    standard_deck,
)
from tests.foolsgold.helpers import cards


def brute(deck, hand):
    hits = sum(is_set(h) for h in combinations(deck, hand))
    return hits / comb(len(deck), hand)


SMALL = cards(
    "Owl a, Owl b, Owl c, Mule a, Mule b, Mule c, Elk a, Elk b, "
    "Dusty Dan a, Dusty Dan b, Dusty Dan c, Dusty Dan d, Dusty Dan e, Dusty Dan f"
)


@pytest.mark.parametrize("hand", [3, 5, 6])
def test_the_chance_matches_counting_every_hand(hand):
    assert set_chance(deck_pool(SMALL), hand) == pytest.approx(brute(SMALL, hand), abs=1e-12)


@pytest.mark.parametrize("players", range(2, 9))
def test_the_dealt_chance_of_the_standard_deck_in_closed_form(players):
    # Five cards hold at most one set: three of one animal (and two others), or all
    # five of one prospector name, so the cases add up without overlap.
    deck = standard_deck(players)
    counts = Counter(card.name for card in deck)
    kinds = {card.name: card.kind for card in deck}
    n = len(deck)
    ways = sum(
        comb(c, 3) * comb(n - c, 2) if kinds[name] == "animal" else comb(c, 5)
        for name, c in counts.items()
    )
    assert dealt_set_chance(players) == pytest.approx(ways / comb(n, 5), rel=1e-12)
    assert 0.0009 < dealt_set_chance(players) < 0.0025  # about 1 hand in 400-1000


def test_a_pool_too_small_is_refused():
    with pytest.raises(ValueError, match="cannot hold"):
        set_chance({"Owl": (2, 3)}, 5)
