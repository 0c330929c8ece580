"""The games under the host: each game's host side (``net.games.base.HostGame``: its
driver, brain and codec), found through the catalogue (``GameSpec.game``).

The table calls :func:`make_driver` and :func:`make_brain` and treats every game alike.
The first player is drawn here, first of all the draws from the table's
``random.Random(seed)``, unless it was fixed; each game module documents its own draws.
Bots draw from their own generators, so a bot never shifts the dice or the decks.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from net.catalogue import spec

if TYPE_CHECKING:
    import random

    from net.games.base import Brain, Codec, Driver, HostGame

#: what every game provides (``net.games.base``), imported when first asked for: a
#: game's ``SPEC`` is read from its package, under this one, when the menu starts
_BASE = ("BadArgs", "Brain", "Codec", "Driver", "HostGame", "PluginError", "Refused",
         "WrongGame")


def __getattr__(name: str) -> Any:
    if name in _BASE:
        from net.games import base

        return getattr(base, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def host_of(game: str) -> HostGame:
    """The host side of ``game`` (``net.games.base.HostGame``); raises
    ``net.catalogue.UnknownGame`` for a game not registered, and
    ``net.games.base.PluginError`` for a host side that cannot be used."""
    return spec(game).game


def make_driver(
    game: str,
    names: Sequence[str],
    first: int | None,
    rng: random.Random,
    settings: Mapping[str, Any] | None = None,
    rules: int | None = None,
) -> Driver:
    """The driver for ``game``; ``first=None`` draws the first player from ``rng``.
    ``settings``: the game's own table settings (its ``GameSpec.defaults`` keys); one
    not given takes its default. ``rules``: the version of the game's rules to play
    (``GameSpec.rules``, the one played now, by default; an earlier one for a game
    saved under it); raises ValueError for a version this game does not have."""
    found = spec(game)
    if rules is None:
        rules = found.rules
    if isinstance(rules, bool) or not isinstance(rules, int) or not 1 <= rules <= found.rules:
        raise ValueError(f"{found.title} is played by versions 1 to {found.rules} of its "
                         f"rules, not {rules!r}")  # fmt: skip
    module = host_of(game)
    if first is None:
        first = rng.randrange(len(names))
    # a game of one version needs no word of it
    versions = {"rules": rules} if found.rules > 1 else {}
    driver: Driver = module.make_driver(names, first, rng, found.options_of(settings or {}),
                                        **versions)  # fmt: skip
    driver.first = first
    driver.rules = rules
    return driver


def make_brain(
    game: str, seat: int, difficulty: str, rng: random.Random, pace: float = 0.9,
    slow: float = 1.0,
) -> Brain:
    """A bot brain for a seat, without a driver (the TCP bot client uses this).
    ``slow``: the table's pace (``net.table.PACES``): every plan that many times as far
    off as the game's bot would make it."""
    brain = host_of(game).make_brain(seat, difficulty, rng, pace)
    return brain if slow == 1.0 else Slowed(brain, slow)


class Slowed:
    """A bot brain at a slower pace: each plan's wait stretched ``slow`` times."""

    def __init__(self, brain: Brain, slow: float) -> None:
        self.brain = brain
        self.slow = slow

    def plan(self, view: dict[str, Any], now: float) -> tuple[Any, float] | None:
        planned = self.brain.plan(view, now)
        if planned is None:
            return None
        action, at = planned
        return action, now + max(0.0, at - now) * self.slow


def repaced(brain: Brain, slow: float) -> Brain:
    """``brain`` at another pace (``make_brain``'s ``slow``): a pace that changes in a
    game (``net.table.guided``) changes how far off its plans are from then on."""
    inner = brain.brain if isinstance(brain, Slowed) else brain
    return inner if slow == 1.0 else Slowed(inner, slow)


def make_codec(game: str, players: int) -> Codec:
    """The wire codec of ``game`` at a table of ``players``."""
    return host_of(game).make_codec(players)


__all__ = [
    "Brain",
    "Codec",
    "Driver",
    "Refused",
    "WrongGame",
    "host_of",
    "make_brain",
    "make_codec",
    "make_driver",
    "repaced",
]
