"""Typed commands in words: a game's moves read from its declarations (``net.moves``),
their arguments parsed from words, and what a game without a plain adapter of its own
answers (so a third game gets a plain seat for free).

A game's app side may offer ``plain_seat()``, returning an adapter (an object, one for
each seat) with any of these; what it lacks, :class:`Generic` does:

- ``legal(view, seat)``: the names of the moves ``seat`` may make now;
- ``prompt(view, seat, names, left)``: ``(label, words)`` when the seat is needed now
  ("Your turn", "roll, or keep faces"), else None;
- ``answers(view, seat, names, left)``: one line for each question it answers
  (``hand``, ``table``, ``scores``, ``dice``, ``time``);
- ``parse(move, words, view, seat, names)``: the move's arguments from the typed words,
  raising ``ValueError`` with words for a person;
- ``shown(event)``: whether an event is said (the app's log leaves some out);
- ``current(view)``: the seat whose turn it is (None: everyone plays at once);
- ``note(view, events)``: what it must remember of the events (a race run out);
- ``words(event, names, view)``: an event's line (the app's log's words);
- ``news(view, seat, names, events)``: lines the events earn beyond their own (the
  supply and the scores after a take, a pile that grows);
- ``over(view)``: whether the game in front of the seat is over.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Sequence
from typing import Any

import msgspec

from net import protocol as p
from net.moves import MoveSpec
from net.text import quote_peer
from tui.describe import describe


def _seat_of(word: str, names: Sequence[str]) -> int:
    """A seat named by a player's name (any case, or its start) or its number (1-based)."""
    if word.isdigit() and 1 <= int(word) <= len(names):
        return int(word) - 1
    lowered = word.casefold()
    exact = [i for i, n in enumerate(names) if n.casefold() == lowered]
    found = exact or [i for i, n in enumerate(names) if n.casefold().startswith(lowered)]
    if len(found) == 1:
        return found[0]
    if not found:
        raise ValueError(f"nobody at the table is called {quote_peer(word)}: "
                         f"{', '.join(names)}")
    raise ValueError(f"{quote_peer(word)} could be {' or '.join(names[i] for i in found)}: "
                     "say more of the name")


def _is_seat(annotation: Any) -> bool:
    """Whether an argument names a seat (``net.protocol.Seat``, or None)."""
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        kinds = [a for a in typing.get_args(annotation) if a is not type(None)]
        return len(kinds) == 1 and _is_seat(kinds[0])
    return annotation == p.Seat


def _plain_type(annotation: Any) -> Any:
    """An argument's type without its constraints (``Annotated``) and None."""
    origin = typing.get_origin(annotation)
    if origin is typing.Annotated:
        return _plain_type(typing.get_args(annotation)[0])
    if origin in (typing.Union, types.UnionType):
        kinds = [a for a in typing.get_args(annotation) if a is not type(None)]
        return _plain_type(kinds[0]) if len(kinds) == 1 else annotation
    return annotation


def generic_args(move: MoveSpec, words: list[str], names: Sequence[str]) -> dict[str, Any]:
    """A move's arguments from words, by their declared types: a list takes the rest of
    the words, a seat a player's name or number, a number a number, a string a word."""
    hints = typing.get_type_hints(move.args, include_extras=True)
    fields = msgspec.structs.fields(move.args)
    args: dict[str, Any] = {}
    left = list(words)
    for field in fields:
        kind = _plain_type(hints[field.name])
        if not left:
            if field.required:
                raise ValueError(f"{move.name} needs {field.name}: {move.usage()}")
            break
        if typing.get_origin(kind) is list:
            args[field.name], left = left, []
        elif _is_seat(hints[field.name]):
            args[field.name] = _seat_of(left.pop(0), names)
        elif kind is int:
            word = left.pop(0)
            if not word.lstrip("-").isdigit():
                raise ValueError(f"{field.name} is a whole number, not {quote_peer(word)}")
            args[field.name] = int(word)
        elif kind is float:
            word = left.pop(0)
            try:
                args[field.name] = float(word)
            except ValueError:
                raise ValueError(f"{field.name} is a number, not {quote_peer(word)}") from None
        else:
            args[field.name] = left.pop(0)
    if left:
        raise ValueError(f"{move.name} takes {len(fields) or 'no'} more words than that: "
                         f"{move.usage()}")
    return args


class Generic:
    """What a game without a plain adapter answers (see the module docstring)."""

    def __init__(self, moves: Any) -> None:
        self.moves = moves

    def legal(self, view: Any, seat: int | None) -> frozenset[str]:
        if seat is None or view.is_over():
            return frozenset()
        current = self.current(view)
        if current is not None and current != seat:
            return frozenset()
        return frozenset(self.moves.names)

    def prompt(self, view: Any, seat: int | None, names: Sequence[str],
               left: float | None) -> tuple[str, str] | None:
        moves = sorted(self.legal(view, seat))
        return ("Your turn", ", ".join(moves)) if moves else None

    def answers(self, view: Any, seat: int | None, names: Sequence[str],
                left: float | None) -> dict[str, str]:
        fields = msgspec.to_builtins(view)
        fields.pop("game", None)
        return {"table": "; ".join(f"{k}: {v}" for k, v in fields.items())}

    def parse(self, move: MoveSpec, words: list[str], view: Any, seat: int | None,
              names: Sequence[str]) -> dict[str, Any]:
        return generic_args(move, words, names)

    def shown(self, event: Any) -> bool:
        return True

    def current(self, view: Any) -> int | None:
        return view.to_act()

    def note(self, view: Any, events: Sequence[Any]) -> None:
        return None

    def words(self, event: Any, names: Sequence[str], view: Any) -> str | None:
        return describe(event, names, view)

    def news(self, view: Any, seat: int | None, names: Sequence[str],
             events: Sequence[Any]) -> list[str]:
        return []

    def over(self, view: Any) -> bool:
        return view.is_over()


def placeholder(move: MoveSpec, field: str) -> str:
    """An argument as a help line shows it: a word for a person, never the field's
    own name ("NAME" for a player, "FACES" for a list of faces)."""
    import typing

    hint = typing.get_type_hints(move.args, include_extras=True).get(field)
    return "NAME" if _is_seat(hint) else field.replace("_", " ").upper()


def usage(move: MoveSpec) -> str:
    """A move in a help line: ``stop [NAME]: take ... (NAME: the player to steal
    from)``: its arguments as words, optional ones in brackets."""
    import msgspec

    parts, said = [move.name], []
    for field in msgspec.structs.fields(move.args):
        word = placeholder(move, field.name)
        parts.append(word if field.required else f"[{word}]")
        if field.name in move.arg_words:
            said.append(f"{word}: {move.arg_words[field.name]}")
    return f"{' '.join(parts)}: {move.description}" + (f" ({'; '.join(said)})" if said else "")
