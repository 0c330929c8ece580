"""The typed shape of every game's view and every event, as they go on the wire.

The rules packages stay pure and return plain dicts (``Game.view``, ``Match.view``
and the events of ``apply``: their public API, ``docs/ARCHITECTURE.md``). Each game
writes the one shape of those dicts down as msgspec Structs, in its host side's
``views`` module (``net.catalogue``): a view is a :class:`GameView` tagged by the game's
key, an event a :class:`GameEvent` tagged by its ``type``, and the module names them
(``VIEW``, ``EVENTS``). This module knows no game; it finds them through the catalogue.

The host turns the rules' output into them (:func:`to_view`, :func:`to_events`),
``net.protocol.State`` carries them, a client decodes them (:func:`decode_view`,
:func:`decode_events`: a view or event that does not fit is a ``bad_field`` protocol
error, never a crash, and so is one a view's own :meth:`GameView.check` finds
impossible), and the TUI reads their attributes. ``python -m net.schema`` writes their
JSON Schema into ``docs/protocol.schema.json``.

The JSON keys are the rules' own, in the rules' order, so the bytes on the wire are
what they were when the host sent the dicts themselves.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any, Union

import msgspec
from msgspec import Meta, Struct

from net import catalogue

Seat = Annotated[int, Meta(ge=0, le=63)]
Count = Annotated[int, Meta(ge=0)]


class GameView(Struct, tag_field="game", kw_only=True):
    """What one seat may see of a game, tagged by the game's key."""

    def check(self) -> str | None:
        """What makes this decoded view impossible (lists whose lengths disagree with
        the number of seats, a seat past the last), or None. The types alone cannot say
        it; a client refuses such a view as a protocol error rather than draw it. (A
        client runs it on every view: written for speed.)"""
        return None

    def plain(self) -> dict[str, Any]:
        """The view in the rules' own form (a dict), for the bots' policies."""
        return msgspec.to_builtins(self)

    # What a seat that knows no game reads of any view (the plain seat's generic
    # adapter, the hints): a game's view says them by overriding these.

    def is_over(self) -> bool:
        """The game is over: nobody acts any more."""
        return False

    def to_act(self) -> int | None:
        """The one seat whose turn it is; None when every seat may act at once (a
        race), or none."""
        return None

    def window_closes(self) -> float | None:
        """The host's time (``Session.host_now``) when the window open now closes (a
        call, a grab), or None when no timed window is open."""
        return None


class GameEvent(Struct, tag_field="type", kw_only=True):
    """Something that happened in a game, tagged by its ``type``. Every event holds only
    public information, so every seat gets them all."""


# the typing names: a view is some game's GameView, an event some game's GameEvent
View = GameView
Event = GameEvent


@dataclass(frozen=True)
class _Kinds:
    """Every registered game's views and events, and the decoders built from them."""

    generation: int
    views: dict[str, type[GameView]]  # by game key
    events: dict[str, tuple[type[GameEvent], ...]]  # by game key
    view_decoder: msgspec.json.Decoder
    events_decoder: msgspec.json.Decoder
    events_struct: type[Struct]  # {"events": [...]}: msgspec caches a Struct's plan
    event_games: dict[type[GameEvent], str]  # each event's game key


_kinds: _Kinds | None = None


def _build() -> _Kinds:
    views: dict[str, type[GameView]] = {}
    events: dict[str, tuple[type[GameEvent], ...]] = {}
    tags: dict[str, str] = {}
    for game in catalogue.games():
        view, kinds = game.game.views
        views[game.key] = view
        events[game.key] = tuple(kinds)
        for event in kinds:
            tag = event.__struct_config__.tag
            if tags.setdefault(tag, game.key) != game.key:
                raise ValueError(f"{game.key} and {tags[tag]} both send an event {tag!r}")
    view_union = Union[tuple(views.values())]  # noqa: UP007 (built at run time)
    event_union = Union[tuple(e for kinds in events.values() for e in kinds)]  # noqa: UP007
    return _Kinds(
        generation=catalogue.generation,
        views=views,
        events=events,
        view_decoder=msgspec.json.Decoder(view_union),
        events_decoder=msgspec.json.Decoder(list[event_union]),
        events_struct=msgspec.defstruct("Events", [("events", list[event_union])]),
        event_games={e: key for key, kinds in events.items() for e in kinds},
    )


def kinds() -> _Kinds:
    """The registered games' views and events (rebuilt when a game is registered)."""
    global _kinds
    found = _kinds
    if found is None or found.generation != catalogue.generation:
        found = _kinds = _build()
    return found


def view_type(game: str) -> type[GameView]:
    """The view Struct of ``game``; raises ``net.catalogue.UnknownGame``."""
    found = kinds().views.get(game)
    if found is None:
        raise catalogue.UnknownGame(game)
    return found


def event_types(game: str) -> tuple[type[GameEvent], ...]:
    """Every event ``game`` sends."""
    return kinds().events[catalogue.spec(game).key]


def games_of(event: GameEvent) -> tuple[str, ...]:
    """The key of the game that sends ``event`` (empty: no registered game does)."""
    found = kinds().event_games.get(type(event))
    return (found,) if found else ()


def check(view: GameView) -> str | None:
    """What makes a decoded view impossible, or None (:meth:`GameView.check`)."""
    return view.check()


def tag(struct: Struct) -> str:
    """The ``game`` of a view, the ``type`` of an event."""
    return type(struct).__struct_config__.tag


# ---------------------------------------------------------------------------
# From the wire (a client)


def decode_view(raw: bytes | msgspec.Raw) -> GameView:
    """A view as a client receives it; raises ``msgspec.ValidationError`` (or
    ``DecodeError``) if it fits no game's view."""
    return kinds().view_decoder.decode(raw)


def decode_events(raw: bytes | msgspec.Raw) -> list[GameEvent]:
    """A state's events as a client receives them (raises as :func:`decode_view`)."""
    return kinds().events_decoder.decode(raw)


class _Wire:
    """The games' side of the wire, for the framing (``net.protocol.framing.Games``)."""

    decode_view = staticmethod(decode_view)
    decode_events = staticmethod(decode_events)
    known = staticmethod(catalogue.known)


#: what ``net.protocol`` hands the framing: it decodes views by the games' own types
WIRE = _Wire()


# ---------------------------------------------------------------------------
# From the rules' dicts (the host, replays of saved games)


def to_view(view: dict[str, Any]) -> GameView:
    """A rules view (a dict) as its Struct; raises ``msgspec.ValidationError`` if it
    does not fit, which on the host is a bug in the rules."""
    return msgspec.convert(view, view_type(view["game"]))


def to_events(events: list[dict[str, Any]]) -> list[GameEvent]:
    """Rules events (dicts) as their Structs."""
    # through a Struct: msgspec caches a Struct's decoding plan, not a bare list[...]'s
    # (converting to list[Event] directly costs 40 times more)
    return msgspec.convert({"events": events}, kinds().events_struct).events


def to_plain(value: Any) -> Any:
    """A view or events back in the rules' form (dicts), for the bots' policies."""
    if isinstance(value, GameView):
        return value.plain()
    return msgspec.to_builtins(value)
