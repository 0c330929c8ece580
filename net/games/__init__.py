"""The games under the host: one module per game (``net.games.nuggets``,
``net.games.foolsgold``), each with a driver, a brain and a codec
(``net.games.base``), found through the catalogue (``net.catalogue``).

The table calls :func:`make_driver` and :func:`make_brain` and treats every game alike.
The first player is drawn here, first of all the draws from the table's
``random.Random(seed)``, unless it was fixed; each game module documents its own draws.
Bots draw from their own generators, so a bot never shifts the dice or the decks.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Sequence
from types import ModuleType

from net.catalogue import CATALOGUE, FOOLSGOLD, SUPPLY, spec
from net.games.base import Brain, Codec, Driver, Refused, WrongGame

#: the game modules, by key
MODULES: dict[str, ModuleType] = {s.key: importlib.import_module(s.module) for s in CATALOGUE}


def _module(game: str) -> ModuleType:
    return MODULES[spec(game).key]  # spec raises UnknownGame for a game not listed


def make_driver(
    game: str,
    names: Sequence[str],
    first: int | None,
    rng: random.Random,
    *,
    grab_timeout: float = FOOLSGOLD.defaults["grab_timeout"],  # type: ignore[assignment]
    call_window: float = FOOLSGOLD.defaults["call_window"],  # type: ignore[assignment]
    intermission: float = FOOLSGOLD.defaults["intermission"],  # type: ignore[assignment]
    supply: int = SUPPLY,  # type: ignore[assignment]
    round_cap: int | None = None,
) -> Driver:
    """The driver for ``game``; ``first=None`` draws the first player from ``rng``."""
    module = _module(game)
    if first is None:
        first = rng.randrange(len(names))
    driver: Driver = module.make_driver(
        names,
        first,
        rng,
        grab_timeout=grab_timeout,
        call_window=call_window,
        intermission=intermission,
        supply=supply,
        round_cap=round_cap,
    )
    driver.first = first
    return driver


def make_brain(
    game: str, seat: int, difficulty: str, rng: random.Random, pace: float = 0.9
) -> Brain:
    """A bot brain for a seat, without a driver (the TCP bot client uses this)."""
    return _module(game).make_brain(seat, difficulty, rng, pace)


def make_codec(game: str, players: int) -> Codec:
    """The wire codec of ``game`` at a table of ``players``."""
    return _module(game).make_codec(players)


__all__ = [
    "MODULES",
    "Brain",
    "Codec",
    "Driver",
    "Refused",
    "WrongGame",
    "make_brain",
    "make_codec",
    "make_driver",
]
