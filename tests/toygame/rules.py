"""Pig to 12, pure: on your turn roll a die as often as you like; a 1 loses the turn's
total and passes the die on; stopping banks the total. The first to 12 wins."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

TARGET = 12


class IllegalAction(ValueError):
    """A move the rules refuse, with a message for a person."""


@dataclass
class Pig:
    players: list[str]
    current: int = 0
    target: int = TARGET  # the score that wins (the table's own ``target`` setting)
    scores: list[int] = field(default_factory=list)
    total: int = 0  # this turn's, not yet banked
    last: int | None = None  # the last face rolled
    winner: int | None = None

    def __post_init__(self) -> None:
        if not 2 <= len(self.players) <= 4:
            raise ValueError(f"Pig seats 2 to 4 players, not {len(self.players)}")
        self.scores = self.scores or [0] * len(self.players)

    @property
    def over(self) -> bool:
        return self.winner is not None

    def _check(self, seat: int) -> None:
        if self.over:
            raise IllegalAction("the game is over")
        if seat != self.current:
            raise IllegalAction("it is not your turn")

    def roll(self, seat: int, face: int) -> list[dict[str, Any]]:
        self._check(seat)
        self.last = face
        events: list[dict[str, Any]] = [{"type": "pig_rolled", "seat": seat, "face": face}]
        if face == 1:
            self.total = 0
            self.current = (seat + 1) % len(self.players)
            events.append({"type": "pig_pass", "seat": self.current})
        else:
            self.total += face
        return events

    def double(self, seat: int, face: int) -> list[dict[str, Any]]:
        """Double or nothing: 4-6 doubles this turn's total, 1-3 loses it."""
        self._check(seat)
        if not self.total:
            raise IllegalAction("roll at least once before you double")
        self.last = face
        events: list[dict[str, Any]] = [{"type": "pig_rolled", "seat": seat, "face": face}]
        if face >= 4:
            self.total *= 2
            events.append({"type": "pig_doubled", "seat": seat, "total": self.total})
            return events
        self.total = 0
        self.current = (seat + 1) % len(self.players)
        events.append({"type": "pig_pass", "seat": self.current})
        return events

    def stop(self, seat: int) -> list[dict[str, Any]]:
        self._check(seat)
        if not self.total:
            raise IllegalAction("roll at least once before you bank")
        self.scores[seat] += self.total
        events: list[dict[str, Any]] = [
            {"type": "pig_banked", "seat": seat, "amount": self.total}]
        self.total, self.last = 0, None
        if self.scores[seat] >= self.target:
            self.winner = seat
        else:
            self.current = (seat + 1) % len(self.players)
            events.append({"type": "pig_pass", "seat": self.current})
        return events

    def view(self, seat: int | None) -> dict[str, Any]:
        return {"game": "pig", "seat": seat, "players": list(self.players),
                "current": self.current, "scores": list(self.scores), "total": self.total,
                "last": self.last, "over": self.over, "winner": self.winner,
                "target": self.target}
