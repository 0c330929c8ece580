"""Cards, sets and the standard deck of Fool's Gold (F2).

A card has a name, a kind and an art variant. Cards of one name differ only in art;
a set is matched by name alone: three animals or five prospectors of one name.
The standard deck is defined here and nowhere else (`DECK_SHAPE`), tuned by
`python -m foolsgold.sim` so rounds between normal bots last 20-90 simulated seconds
at every player count (see the tuning table in docs/RULES.md).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from math import comb
from typing import Any

KINDS = ("animal", "prospector")

#: How many cards of one name make a set, by kind.
SET_SIZE = {"animal": 3, "prospector": 5}

ANIMAL_NAMES = (
    "Owl",
    "Mule",
    "Coyote",
    "Rattlesnake",
    "Buzzard",
    "Jackrabbit",
    "Bison",
    "Armadillo",
    "Raccoon",
    "Gila Monster",
    "Mustang",
    "Scorpion",
    "Roadrunner",
    "Badger",
    "Bobcat",
    "Prairie Dog",
    "Bighorn",
    "Tarantula",
    "Vulture",
    "Elk",
    "Beaver",
    "Porcupine",
    "Wolf",
    "Grizzly",
    "Magpie",
    "Pronghorn",
    "Raven",
    "Lizard",
    "Skunk",
    "Fox",
    "Hawk",
    "Weasel",
    "Burro",
    "Quail",
)
PROSPECTOR_NAMES = (
    "Dusty Dan",
    "Calamity Kate",
    "Sourdough Sam",
    "Panhandle Pete",
    "Lucky Lou",
    "Nugget Nell",
    "Whiskey Walt",
    "Gravel Gertie",
)

#: The one place the standard deck is shaped. For `players` seats the deck holds
#: `ANIMALS_PER_PLAYER * players + ANIMALS_PLUS` animal names of `ANIMAL_COPIES`
#: cards each and `PROSPECTORS` prospector names of `PROSPECTOR_COPIES` cards each.
DECK_SHAPE = {
    "ANIMALS_PER_PLAYER": 3,
    "ANIMALS_PLUS": 4,
    "ANIMAL_COPIES": 3,
    "PROSPECTORS": 6,
    "PROSPECTOR_COPIES": 6,
}

MIN_PLAYERS = 2
MAX_PLAYERS = 8


@dataclass(frozen=True, slots=True)
class Card:
    """One card: `name` decides sets, `kind` the set size, `variant` only the art."""

    name: str
    kind: str
    variant: str

    def __post_init__(self) -> None:
        if self.kind not in SET_SIZE:
            raise ValueError(f"card kind must be 'animal' or 'prospector', not {self.kind!r}")
        if not isinstance(self.name, str) or not self.name:
            raise ValueError(f"card name must be a non-empty string, not {self.name!r}")
        if not isinstance(self.variant, str) or not self.variant:
            raise ValueError(f"card variant must be a non-empty string, not {self.variant!r}")

    def __str__(self) -> str:
        return f"{self.name} ({self.variant})"

    def to_dict(self) -> dict[str, str]:
        """The JSON-safe form used in views and events."""
        return {"name": self.name, "kind": self.kind, "variant": self.variant}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Card:
        """Parse the form made by `to_dict`; raises ValueError naming what is wrong."""
        if not isinstance(data, Mapping):
            raise ValueError(f"a card must be a dict with name, kind and variant, not {data!r}")
        missing = [key for key in ("name", "kind", "variant") if key not in data]
        if missing:
            raise ValueError(f"a card needs {', '.join(missing)}: got {dict(data)!r}")
        return cls(data["name"], data["kind"], data["variant"])


class DeckError(ValueError):
    """A deck the rules cannot deal: the message names the offending cards."""


def check_deck(deck: Iterable[Card]) -> list[Card]:
    """Return `deck` as a list, or raise `DeckError` naming what is wrong: a card
    that is not a `Card`, two cards alike in name and variant, or one name given
    two kinds (its set size would depend on which card one looked at)."""
    deck = list(deck)
    for card in deck:
        if not isinstance(card, Card):
            raise DeckError(f"the deck must hold only Card objects, not {card!r}")
    if len(set(deck)) != len(deck):
        twice = next(c for c, n in Counter(deck).items() if n > 1)
        raise DeckError(
            f"every card in the deck must be unique by name and variant: {twice} is there twice"
        )
    kinds: dict[str, str] = {}
    for card in deck:
        kind = kinds.setdefault(card.name, card.kind)
        if kind != card.kind:
            raise DeckError(
                f"the name {card.name!r} is given two kinds ({kind} and {card.kind}): "
                "a name must be all animal or all prospector cards"
            )
    return deck


def set_names(cards: Iterable[Card]) -> list[str]:
    """The names of which `cards` hold a full set, in first-seen order.

    Cards count by name and kind together, so the answer never depends on the
    order of the cards (decks are checked to give each name one kind)."""
    counts = Counter((card.name, card.kind) for card in cards)
    names: list[str] = []
    for (name, kind), count in counts.items():
        if count >= SET_SIZE[kind] and name not in names:
            names.append(name)
    return names


def is_set(cards: Iterable[Card]) -> bool:
    """True when `cards` include a set: three animals or five prospectors of one name.

    A hand of six with three Owls is a set; the other cards do not matter.
    """
    return bool(set_names(cards))


def _check_players(players: int) -> None:
    if isinstance(players, bool) or not isinstance(players, int):
        raise ValueError(f"players must be a whole number, not {players!r}")
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(
            f"Fool's Gold is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players}"
        )


def standard_deck(players: int) -> list[Card]:
    """The default deck for `players` seats, unshuffled (the caller shuffles).

    Every card is unique by (name, variant). See `DECK_SHAPE` for the composition.
    """
    _check_players(players)
    count = DECK_SHAPE["ANIMALS_PER_PLAYER"] * players + DECK_SHAPE["ANIMALS_PLUS"]
    if count > len(ANIMAL_NAMES):
        raise ValueError(f"DECK_SHAPE asks for {count} animal names; only {len(ANIMAL_NAMES)}")
    animals = ANIMAL_NAMES[:count]
    prospectors = PROSPECTOR_NAMES[: DECK_SHAPE["PROSPECTORS"]]
    deck = [
        Card(name, "animal", variant)
        for name in animals
        for variant in "abcdefgh"[: DECK_SHAPE["ANIMAL_COPIES"]]
    ]
    deck += [
        Card(name, "prospector", variant)
        for name in prospectors
        for variant in "abcdefgh"[: DECK_SHAPE["PROSPECTOR_COPIES"]]
    ]
    return deck


def set_chance(pool: Mapping[str, tuple[int, int]], hand: int = 5) -> float:
    """The exact chance that `hand` cards drawn at random from a pool hold a set.

    `pool` maps each name to `(copies in the pool, set size)`. Counts the hands
    without a set with a generating function over the names (at most `size - 1`
    cards of each name) and divides by all hands, so no set is missed or counted
    twice: `1 - no_set / comb(cards, hand)`.
    """
    cards = sum(copies for copies, _ in pool.values())
    if hand > cards or hand < 0:
        raise ValueError(f"cannot hold {hand} cards out of a pool of {cards}")
    # ways[k]: hands of k cards from the names seen so far, none holding a set
    ways = [1] + [0] * hand
    for copies, size in pool.values():
        new = [0] * (hand + 1)
        for k, w in enumerate(ways):
            if w:
                for j in range(min(copies, size - 1, hand - k) + 1):
                    new[k + j] += w * comb(copies, j)
        ways = new
    return 1.0 - ways[hand] / comb(cards, hand)


def deck_pool(deck: Iterable[Card]) -> dict[str, tuple[int, int]]:
    """The pool of `set_chance` for a whole deck: name -> (copies, set size)."""
    counts = Counter(card.name for card in deck)
    kinds = {card.name: card.kind for card in deck}
    return {name: (count, SET_SIZE[kinds[name]]) for name, count in counts.items()}


def dealt_set_chance(players: int) -> float:
    """The exact chance that a 5-card hand dealt from the standard deck holds a set."""
    return set_chance(deck_pool(standard_deck(players)), 5)
