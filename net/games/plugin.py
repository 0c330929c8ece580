"""A game's host side as one typed object (:class:`HostGame`), and the check every
game's side passes when it is first asked for (:func:`check_hooks`, also the app's:
``tui.plugin``). Imports nothing of the protocol, so the catalogue can check a game
without loading the wire (``net.catalogue.GameSpec.game``)."""

from __future__ import annotations

import importlib
from typing import Any


class HostGame:
    """One game's host side as one object: name an instance in the game's
    ``GameSpec.host`` (``"net.games.nuggets.game:HOST"``); the catalogue checks it the
    first time it is asked for (``net.catalogue.GameSpec.game``): an object that is not
    a ``HostGame``, leaves a required hook out or defines a public name the base does
    not know (a misspelt hook) is refused with a sentence.

    Required: ``make_driver(names, first, rng, settings)`` (``settings``: one of the
    game's settings Struct, ``GameSpec.options``; a game of several rules versions takes
    ``rules=`` too), ``make_brain(seat,
    difficulty, rng, pace)``, ``make_codec(players)``, ``moves`` (its ``net.moves.Moves``)
    and ``views`` (its view type and its event types on the wire). Optional, with their
    defaults here: ``verify(messages, seat)`` (None: its games cannot be checked from a
    client's messages), and its statistics: ``counted`` (the events its tally reads),
    ``step(tally, driver, event)`` (counts one) and ``columns`` (its columns in the
    stats)."""

    REQUIRED = ("make_driver", "make_brain", "make_codec", "moves", "views")

    def make_driver(self, names: Any, first: int, rng: Any, settings: Any, **rules: Any) -> Any:
        raise NotImplementedError

    def make_brain(self, seat: int, difficulty: str, rng: Any, pace: float) -> Any:
        raise NotImplementedError

    def make_codec(self, players: int) -> Any:
        raise NotImplementedError

    @property
    def moves(self) -> Any:
        raise NotImplementedError

    @property
    def views(self) -> tuple[type, tuple[type, ...]]:
        raise NotImplementedError

    def verify(self, messages: Any, seat: int | None = None) -> list[str] | None:
        return None

    counted: frozenset[str] = frozenset()
    columns: tuple[tuple[str, int, Any], ...] = ()

    def step(self, tally: Any, driver: Any, event: dict[str, Any]) -> None:
        return None


class PluginError(TypeError):
    """A game's side (host or app) that cannot be used, in a sentence naming the game."""


def check_hooks(title: str, side: str, game: object, base: type) -> None:
    """Raise :class:`PluginError` unless ``game`` is a ``base`` that defines every one of
    ``base.REQUIRED`` and no public name ``base`` does not know (a misspelt hook)."""
    if not isinstance(game, base):
        raise PluginError(f"{title}'s {side} side is a {type(game).__name__}, not a "
                          f"{base.__module__}.{base.__name__}")
    kind = type(game)
    missing = [hook for hook in base.REQUIRED  # type: ignore[attr-defined]
               if getattr(kind, hook) is getattr(base, hook)]
    if missing:
        raise PluginError(f"{title}'s {side} side ({kind.__name__}) does not define "
                          f"{', '.join(missing)}")
    known = {name for name in dir(base) if not name.startswith("_")}
    for klass in kind.__mro__:
        if klass is base or not issubclass(klass, base):
            continue
        unknown = sorted(n for n in vars(klass) if not n.startswith("_") and n not in known)
        if unknown:
            raise PluginError(
                f"{title}'s {side} side ({kind.__name__}) defines {', '.join(unknown)}, "
                f"which no game has: a misspelt hook? The hooks are "
                f"{', '.join(sorted(known - {'REQUIRED'}))}")


def load(title: str, side: str, where: str, base: type) -> Any:
    """The object ``where`` names (``"package.module:NAME"``), checked against ``base``
    (:func:`check_hooks`); raises :class:`PluginError` with a sentence naming the game."""
    module, _, attribute = where.partition(":")
    if not attribute:
        raise PluginError(f"{title}'s {side} side is named {where!r}: name the object, as "
                          "'package.module:NAME'")
    found: Any = importlib.import_module(module)
    for part in attribute.split("."):
        found = getattr(found, part, None)
        if found is None:
            raise PluginError(f"{title}'s {side} side {where!r}: {module} has no {attribute}")
    check_hooks(title, side, found, base)
    return found
