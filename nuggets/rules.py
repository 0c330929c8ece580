"""The rules of Gold Nuggets (rulings N1-N9 of RULINGS.md), pure and exact.

A `Game` validates an action, changes its state and returns the events that
happened. Randomness stays outside: the caller supplies the faces of every roll
(`roll_dice` rolls them with a given `random.Random`). An illegal action raises
`IllegalAction` with a message for a person and changes nothing.

The turn as a state machine (`Game.phase`)::

    roll    --Roll(7 faces)-->  keep   (or a bust: the next player's "roll")
    keep    --Keep(faces)--->   choose (dice remain) | take (all seven set aside)
    choose  --Roll(n faces)-->  keep   (or a bust)
    choose  --Stop()-------->   the next player's "roll" | over
    take    --Stop()-------->   the same player's "roll" (bonus turn, N8) | over

Events are JSON-safe dicts with a "type" key; faces are written as `Face` values:

- ``{"type": "rolled", "seat": s, "faces": [...]}``: the dice on the table.
- ``{"type": "bust", "seat": s, "lost": v}``: nothing can be set aside from the
  roll (N4); ``lost`` is the value of the dice set aside before it.
- ``{"type": "kept", "seat": s, "faces": [...], "value": v, "dice_left": n}``:
  a set-aside; ``value`` is the worth of everything set aside this turn so far.
- ``{"type": "took", "seat": s, "amount": a, "value": v, "supply": left}``: taken
  from the supply; ``amount`` is ``value`` capped at what the supply held (N7).
- ``{"type": "stole", "seat": s, "victim": t, "amount": a, "value": v}``: taken
  from seat ``t`` with three lassos, capped at what ``t`` held (N7).
- ``{"type": "bonus_turn", "seat": s}``: all seven dice were set aside, the same
  player plays another full turn (N8).
- ``{"type": "turn", "seat": s}``: the next player's turn begins.
- ``{"type": "game_over", "winners": [...], "holdings": [...]}``: the supply is
  empty (N9).
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum

__all__ = [
    "DICE",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "NUMBERS",
    "STARTING_SUPPLY",
    "Face",
    "Game",
    "IllegalAction",
    "Keep",
    "Roll",
    "Stop",
    "check_keep",
    "is_bust",
    "legal_keeps",
    "roll_dice",
    "score",
]

DICE = 7
STARTING_SUPPLY = 77
MIN_PLAYERS = 2
MAX_PLAYERS = 5
LASSOS_TO_STEAL = 3


class IllegalAction(ValueError):
    """An action the rules do not allow; the message says why, for a person."""


class Face(Enum):
    """The six faces of a die (N1)."""

    NUGGET = "nugget"
    LASSO = "lasso"
    TWO = "2"
    THREE = "3"
    FOUR = "4"
    FIVE = "5"

    @property
    def number(self) -> int | None:
        """The face value of a number face (2..5), None for nugget and lasso."""
        return _NUMBER_OF.get(self)

    def __str__(self) -> str:
        return self.value

    # Members are singletons: hash by identity, far cheaper than Enum's by-name
    # hash in the hot loops of the advisor and the simulator.
    __hash__ = object.__hash__


FACES: tuple[Face, ...] = tuple(Face)
NUMBERS: tuple[Face, ...] = (Face.TWO, Face.THREE, Face.FOUR, Face.FIVE)
_NUMBER_OF = {Face.TWO: 2, Face.THREE: 3, Face.FOUR: 4, Face.FIVE: 5}
_ORDER = {face: i for i, face in enumerate(FACES)}
_FACE_NAMES = ", ".join(f.value for f in FACES)


_LOOKUP: dict[object, Face] = {**{f: f for f in FACES}, **{f.value: f for f in FACES}}


def _face(value: object) -> Face:
    try:
        return _LOOKUP[value]
    except (KeyError, TypeError):
        raise IllegalAction(f"unknown face {value!r}: a die shows one of {_FACE_NAMES}") from None


def _faces(values: object) -> tuple[Face, ...]:
    if isinstance(values, (str, bytes)):
        raise IllegalAction(f"faces must be a list of faces ({_FACE_NAMES}), not {values!r}")
    try:
        return tuple([_LOOKUP[v] for v in values])
    except (KeyError, TypeError):
        pass
    try:
        items = list(values)
    except TypeError:
        raise IllegalAction(
            f"faces must be a list of faces ({_FACE_NAMES}), not {values!r}"
        ) from None
    return tuple(_face(v) for v in items)


def _sorted(faces: Iterable[Face]) -> tuple[Face, ...]:
    return tuple(sorted(faces, key=_ORDER.__getitem__))


def _plural(count: int, face: Face) -> str:
    """'two 4s', 'one nugget', 'three lassos'."""
    words = ["no", "one", "two", "three", "four", "five", "six", "seven"]
    word = words[count] if count < len(words) else str(count)
    if count == 1:
        return f"{word} {face.value}"
    return f"{word} {face.value}s"


def _names(faces: Iterable[Face]) -> list[str]:
    return [f._value_ for f in faces]


def score(faces: Iterable[Face | str]) -> int:
    """The value of set-aside dice (N5): 1 per nugget, each number 2..5 present
    once (six 3s are worth 3), lassos 0."""
    return _score(_faces(faces))


def _score(faces: Iterable[Face]) -> int:
    nuggets, numbers = 0, set()
    for f in faces:
        if f is Face.NUGGET:
            nuggets += 1
        elif f is not Face.LASSO:
            numbers.add(f)
    return nuggets + sum(_NUMBER_OF[f] for f in numbers)


def roll_dice(rng: random.Random, n: int) -> tuple[Face, ...]:
    """Roll ``n`` fair dice with the given generator (randomness stays outside)."""
    return tuple(FACES[rng.randrange(6)] for _ in range(n))


# --- set-asides (N3, N4) --------------------------------------------------------


def _options(face: Face, count: int, used: frozenset[Face]) -> range | tuple[int, ...]:
    """How many dice of ``face`` (of ``count`` rolled) one set-aside may hold."""
    if face in _NUMBER_OF and face not in used:
        return (0, *range(3, count + 1))
    return range(count + 1)


def legal_keeps(
    rolled: Iterable[Face | str], kept: Iterable[Face | str] = ()
) -> list[tuple[Face, ...]]:
    """Every legal set-aside from ``rolled``, given the dice ``kept`` earlier this
    turn (N3), each as a sorted tuple of faces, distinct, in a stable order.

    An empty list means the roll busts (N4)."""
    counts = Counter(_faces(rolled))
    used = frozenset(_faces(kept))
    faces = [f for f in FACES if counts[f]]
    keeps = []
    for numbers in itertools.product(*(_options(f, counts[f], used) for f in faces)):
        if any(numbers):
            keeps.append(tuple(f for f, k in zip(faces, numbers, strict=True) for _ in range(k)))
    return keeps


def is_bust(rolled: Iterable[Face | str], kept: Iterable[Face | str] = ()) -> bool:
    """True when nothing can legally be set aside from ``rolled`` (N4)."""
    counts = Counter(_faces(rolled))
    used = frozenset(_faces(kept))
    return not any(f in (Face.NUGGET, Face.LASSO) or f in used or c >= 3 for f, c in counts.items())


def check_keep(
    rolled: Iterable[Face | str], kept: Iterable[Face | str], chosen: Iterable[Face | str]
) -> tuple[Face, ...]:
    """Check a set-aside of ``chosen`` from ``rolled`` (N3) and return it sorted;
    raise `IllegalAction` saying what is wrong. The TUI uses it to explain a
    rejected selection."""
    chosen = _faces(chosen)
    counts = Counter(_faces(rolled))
    used = frozenset(_faces(kept))
    if not chosen:
        raise IllegalAction("set aside at least one die")
    want = Counter(chosen)
    for face in FACES:
        if want[face] > counts[face]:
            has = f"only {_plural(counts[face], face)}" if counts[face] else f"no {face.value}"
            raise IllegalAction(f"you chose {_plural(want[face], face)} but the roll has {has}")
    for face in NUMBERS:
        if 0 < want[face] < 3 and face not in used:
            raise IllegalAction(
                f"a new number needs three or more dice: you chose {_plural(want[face], face)}"
            )
    return _sorted(chosen)


# --- actions ----------------------------------------------------------------------


@dataclass(frozen=True)
class Roll:
    """Roll the remaining dice. The host supplies their faces; a bot returns
    ``Roll()`` to mean "roll" and the driver fills in the faces."""

    faces: tuple[Face, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "faces", _faces(self.faces))


@dataclass(frozen=True)
class Keep:
    """Set aside these dice from the roll on the table (N3)."""

    faces: tuple[Face, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "faces", _faces(self.faces))


@dataclass(frozen=True)
class Stop:
    """Stop and take the value of the set-aside dice (N6, N7): from the supply,
    or with three lassos from the seat ``steal_from``."""

    steal_from: int | None = None

    def __post_init__(self) -> None:
        s = self.steal_from
        if s is not None and (isinstance(s, bool) or not isinstance(s, int)):
            raise IllegalAction(f"steal_from must be a seat number or None, not {s!r}")


Action = Roll | Keep | Stop


# --- the game ---------------------------------------------------------------------


class Game:
    """A game of Gold Nuggets between ``players`` (names, by seat), from a supply
    of ``supply`` nuggets, seat ``start`` playing first."""

    def __init__(
        self, players: Sequence[str], supply: int = STARTING_SUPPLY, start: int = 0
    ) -> None:
        players = list(players)
        if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
            raise ValueError(
                f"Gold Nuggets is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {len(players)}"
            )
        if isinstance(supply, bool) or not isinstance(supply, int) or supply <= 0:
            raise ValueError(f"the supply must be a positive number of nuggets, not {supply!r}")
        if isinstance(start, bool) or not isinstance(start, int) or not 0 <= start < len(players):
            raise ValueError(f"the starting seat must be 0 to {len(players) - 1}, not {start!r}")
        self.players: list[str] = [str(p) for p in players]
        self.current: int = start
        self.supply: int = supply
        self.holdings: list[int] = [0] * len(players)
        self.kept: list[Face] = []
        self.rolled: tuple[Face, ...] | None = None
        self.over: bool = False
        self.winners: list[int] = []

    # -- derived state --

    @property
    def dice_left(self) -> int:
        """Dice not yet set aside this turn (7 at the start of a turn)."""
        return DICE - len(self.kept)

    @property
    def kept_value(self) -> int:
        """The value of the dice set aside this turn (N5)."""
        return _score(self.kept)

    @property
    def lassos(self) -> int:
        return sum(1 for f in self.kept if f is Face.LASSO)

    @property
    def can_steal(self) -> bool:
        """Three or more lassos set aside this turn (N7)."""
        return self.lassos >= LASSOS_TO_STEAL

    @property
    def phase(self) -> str:
        """ "roll", "keep", "choose", "take" or "over" (see the module docstring)."""
        if self.over:
            return "over"
        if self.rolled is not None:
            return "keep"
        if not self.kept:
            return "roll"
        if len(self.kept) == DICE:
            return "take"
        return "choose"

    def legal_keeps(self) -> list[tuple[Face, ...]]:
        """The legal set-asides from the dice on the table (empty unless "keep")."""
        if self.rolled is None:
            return []
        return legal_keeps(self.rolled, self.kept)

    def copy(self) -> Game:
        """An independent copy, cheap (bots and tests explore with it)."""
        other = Game.__new__(Game)
        other.players = list(self.players)
        other.current = self.current
        other.supply = self.supply
        other.holdings = list(self.holdings)
        other.kept = list(self.kept)
        other.rolled = self.rolled
        other.over = self.over
        other.winners = list(self.winners)
        return other

    def view(self, seat: int | None = None) -> dict:
        """The public projection for ``seat`` (None: a spectator), JSON-safe.
        For dice everything is public; the host sends this, never the object."""
        if seat is not None and (
            isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(self.players)
        ):
            raise ValueError(f"no seat {seat!r}: seats are 0 to {len(self.players) - 1}")
        return {
            "game": "nuggets",
            "seat": seat,
            "players": list(self.players),
            "current": self.current,
            "phase": self.phase,
            "supply": self.supply,
            "holdings": list(self.holdings),
            "kept": _names(self.kept),
            "kept_value": self.kept_value,
            "rolled": None if self.rolled is None else _names(self.rolled),
            "dice_left": self.dice_left,
            "can_steal": self.can_steal,
            "over": self.over,
            "winners": list(self.winners),
        }

    # -- actions --

    def apply(self, action: Action) -> list[dict]:
        """Validate and play ``action`` for the current player; return the events.
        Raises `IllegalAction` (state unchanged) when the rules forbid it."""
        if self.over:
            raise IllegalAction("the game is over: no more actions")
        if isinstance(action, Roll):
            return self._roll(action.faces)
        if isinstance(action, Keep):
            return self._keep(action.faces)
        if isinstance(action, Stop):
            return self._stop(action.steal_from)
        raise IllegalAction(f"not a Gold Nuggets action: {action!r}")

    def _roll(self, faces: tuple[Face, ...]) -> list[dict]:
        phase = self.phase
        if phase == "keep":
            raise IllegalAction("set aside at least one die from this roll before rolling again")
        if phase == "take":
            raise IllegalAction(
                "all seven dice are set aside: take your nuggets, then your bonus turn begins"
            )
        n = self.dice_left
        if not faces:
            raise IllegalAction(f"a roll needs the faces of the {n} dice that remain")
        if len(faces) != n:
            raise IllegalAction(f"{n} dice remain, the roll has {len(faces)}")
        seat = self.current
        events = [{"type": "rolled", "seat": seat, "faces": _names(faces)}]
        if is_bust(faces, self.kept):
            events.append({"type": "bust", "seat": seat, "lost": self.kept_value})
            events.extend(self._next_player())
            return events
        self.rolled = faces
        return events

    def _keep(self, faces: tuple[Face, ...]) -> list[dict]:
        if self.rolled is None:
            if self.phase == "take":
                raise IllegalAction("all seven dice are set aside: take your nuggets")
            raise IllegalAction("there are no dice on the table to set aside: roll first")
        chosen = check_keep(self.rolled, self.kept, faces)
        self.kept.extend(chosen)
        self.rolled = None
        return [
            {
                "type": "kept",
                "seat": self.current,
                "faces": _names(chosen),
                "value": self.kept_value,
                "dice_left": self.dice_left,
            }
        ]

    def _stop(self, steal_from: int | None) -> list[dict]:
        phase = self.phase
        if phase == "keep":
            raise IllegalAction("set aside at least one die from this roll before you stop")
        if phase == "roll":
            raise IllegalAction("roll the dice first: there is nothing set aside to take")
        seat, value = self.current, self.kept_value
        if steal_from is not None:
            self._check_steal(steal_from)
            amount = min(value, self.holdings[steal_from])
            self.holdings[steal_from] -= amount
            self.holdings[seat] += amount
            events = [
                {
                    "type": "stole",
                    "seat": seat,
                    "victim": steal_from,
                    "amount": amount,
                    "value": value,
                }
            ]
        else:
            amount = min(value, self.supply)
            self.supply -= amount
            self.holdings[seat] += amount
            events = [
                {
                    "type": "took",
                    "seat": seat,
                    "amount": amount,
                    "value": value,
                    "supply": self.supply,
                }
            ]
            if self.supply == 0:
                return events + self._end()
        if phase == "take":
            self.kept = []
            events.append({"type": "bonus_turn", "seat": seat})
            return events
        return events + self._next_player()

    def _check_steal(self, victim: int) -> None:
        if self.lassos < LASSOS_TO_STEAL:
            raise IllegalAction(f"stealing needs three lassos set aside; you have {self.lassos}")
        if not 0 <= victim < len(self.players):
            raise IllegalAction(
                f"there is no seat {victim}: seats are 0 to {len(self.players) - 1}"
            )
        if victim == self.current:
            raise IllegalAction("you cannot steal from yourself: choose an opponent")

    def _next_player(self) -> list[dict]:
        self.kept = []
        self.rolled = None
        self.current = (self.current + 1) % len(self.players)
        return [{"type": "turn", "seat": self.current}]

    def _end(self) -> list[dict]:
        self.over = True
        self.rolled = None
        best = max(self.holdings)
        self.winners = [s for s, h in enumerate(self.holdings) if h == best]
        return [
            {"type": "game_over", "winners": list(self.winners), "holdings": list(self.holdings)}
        ]

    def __repr__(self) -> str:
        return (
            f"<Game {self.phase} seat={self.current} supply={self.supply} "
            f"holdings={self.holdings} kept={[f.value for f in self.kept]}>"
        )
