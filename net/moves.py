"""A game's moves as data, declared once by the game (boardgame.io's ``moves``).

A :class:`MoveSpec` is a move's name, its typed arguments (a msgspec ``Struct``), a
one-line description, the key and the touch label it has by default, and whether it is
a race. A game lists its moves in a :class:`Moves` (``net/games/<key>/moves.py``), and
everything else reads them from there: the wire carries one generic ``move`` message
(``net.protocol.Move``: the move's name and its arguments), the host's codec checks a
move against the declarations (:meth:`Moves.decode`), and the app, the plain seat and
the bots build moves by calling a declaration (``ROLL(seat=0)``, ``KEEP(faces=[...])``).

Nothing here names a game: the core learns every move from the game.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import msgspec

from net import protocol as p


class NoArgs(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """The arguments of a move that takes none."""


class Refused(ValueError):
    """The games' one refusal, with a message for a person (the table answers each kind
    with its own code): a move the game does not have (:class:`UnknownMove`), arguments
    it does not admit (:class:`BadArgs`), or a move its rules refuse (raised as this
    very type by the game's driver, the rules' ``IllegalAction`` kept as ``__cause__``).
    Any other exception out of a driver is a bug."""


class BadMove(Refused):
    """A move this game does not have, or arguments its declaration does not admit: the
    message says which, in words for a person."""


class UnknownMove(BadMove):
    """A move the table's game does not have (another game's, or none)."""


class BadArgs(BadMove):
    """A move's arguments that its declaration does not admit."""


@dataclass(frozen=True)
class MoveSpec:
    """One move of a game, as data."""

    name: str
    description: str
    #: its arguments: a ``Struct`` (``forbid_unknown_fields``) checked strictly on arrival
    args: type[msgspec.Struct] = NoArgs
    #: the key that plays it in the app, and the label of its touch button
    key: str | None = None
    touch: str | None = None
    #: a race: the table orders it by when the person acted (lag-fair races)
    race: bool = False
    #: other words a typed command may use for it (the plain seat)
    aliases: tuple[str, ...] = ()
    #: the words for each argument, for help and the plain seat: name -> what it is
    arg_words: dict[str, str] = field(default_factory=dict)

    def __call__(self, seat: int | None = None, **args: Any) -> p.Move:
        """The wire message that plays this move (``seat`` for a client with several)."""
        built = self.args(**args)
        return p.Move(move=self.name, args=msgspec.to_builtins(built), seat=seat)

    def parse(self, message: p.Move) -> Any:
        """The message's arguments as this move's ``Struct``; raises :class:`BadArgs`."""
        try:
            return msgspec.convert(message.args, self.args, strict=True)
        except msgspec.ValidationError as error:
            raise BadArgs(f"{self.name}: {_plain(error)}. Usage: {self.usage()}") from None

    def usage(self) -> str:
        """The move in words, with what each argument is: ``"keep faces: set aside ...
        (faces: the faces to set aside ...)"``."""
        names = self.args.__struct_fields__
        head = " ".join((self.name, *names))
        said = "; ".join(f"{n}: {self.arg_words[n]}" for n in names if n in self.arg_words)
        return f"{head}: {self.description}" + (f" ({said})" if said else "")


def _plain(error: msgspec.ValidationError) -> str:
    """msgspec's message with its JSON path in words (``at `$.faces[0]` `` -> ``in faces``)."""
    text = str(error)
    if " - at `$." in text:
        message, _, path = text.partition(" - at `$.")
        return f"{message[0].lower()}{message[1:]} (in {path.rstrip('`')})"
    return text[0].lower() + text[1:]


class Moves:
    """A game's moves, in the order its help lists them."""

    def __init__(self, *moves: MoveSpec) -> None:
        names = [m.name for m in moves]
        if len(set(names)) != len(names):
            raise ValueError(f"a move is declared twice: {names}")
        self._moves = {m.name: m for m in moves}

    def __iter__(self) -> Iterator[MoveSpec]:
        return iter(self._moves.values())

    def __len__(self) -> int:
        return len(self._moves)

    def __contains__(self, name: object) -> bool:
        return name in self._moves

    def __getitem__(self, name: str) -> MoveSpec:
        return self._moves[name]

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(self._moves)

    def words(self) -> str:
        """``"roll, keep or stop"``: the moves in words."""
        names = list(self._moves)
        return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} or {names[-1]}"

    def find(self, word: str) -> MoveSpec | None:
        """The move a typed word names (its name or an alias), or None."""
        word = word.lower()
        for move in self._moves.values():
            if word == move.name or word in move.aliases:
                return move
        return None

    def decode(self, message: Any, title: str) -> tuple[MoveSpec, Any]:
        """The declaration and the checked arguments of a wire move; raises
        :class:`UnknownMove` for a move this game (``title``) does not have and
        :class:`BadArgs` for arguments it does not admit."""
        move = self._moves.get(message.move) if isinstance(message, p.Move) else None
        if move is None:
            named = message.move if isinstance(message, p.Move) else p.message_type(message)
            raise UnknownMove(f"this table plays {title}: {self.words()}, not {named!r}")
        return move, move.parse(message)

    def races(self, message: Any) -> bool:
        move = self._moves.get(message.move) if isinstance(message, p.Move) else None
        return move is not None and move.race


def logged_move(entry: dict[str, Any]) -> p.Move:
    """The move a saved game's log recorded (``msgspec.to_builtins`` of the move, with
    its seat). A save from before protocol 3 named the move by its message ``type``,
    with its arguments beside it (``{"type": "keep", "faces": [...], "seat": 0}``):
    read the same."""
    if entry.get("type") == "move":
        return msgspec.convert(entry, p.Move)
    args = {k: v for k, v in entry.items() if k not in ("type", "seat")}
    return msgspec.convert({"type": "move", "move": entry.get("type"), "args": args,
                            "seat": entry.get("seat")}, p.Move)
