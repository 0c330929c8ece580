"""Pig Dice under the host: its driver, its bot and its wire codec (``net.games.base``).
The die is the table's ``random.Random(seed)``: one ``randint(1, 6)`` per roll."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from net import protocol as p
from net.games.base import Brain, Codec, Driver, Refused, WrongGame
from tests.toygame import SPEC
from tests.toygame.rules import IllegalAction, Pig


class PigCodec(Codec):
    actions = (p.Roll, p.Stop)

    def to_rules(self, message: Any, seat: int) -> Any:
        if isinstance(message, p.Roll):
            return "roll"
        if isinstance(message, p.Stop):
            return "stop"
        raise WrongGame(f"this table plays {SPEC.title}: roll or stop")

    def to_wire(self, action: Any, seat: int | None = None) -> Any:
        return p.Roll(seat=seat) if action == "roll" else p.Stop(seat=seat)


class PigDriver(Driver):
    game = SPEC.key

    def __init__(self, names: Sequence[str], first: int, rng: random.Random) -> None:
        self.rng = rng
        self.codec = PigCodec()
        self.state = Pig(list(names), current=first)

    def start(self, now: float) -> list[dict[str, Any]]:
        return [{"type": "pig_pass", "seat": self.state.current}]

    def act(self, seat, action, now, acted=None, lag=0.0) -> list[dict[str, Any]]:
        move = self.codec.to_rules(action, seat)
        try:
            if move == "roll":
                self.state._check(seat)  # no die is thrown for a refused roll
                return self.state.roll(seat, self.rng.randint(1, 6))
            return self.state.stop(seat)
        except IllegalAction as error:
            raise Refused(str(error)) from error

    def view(self, seat: int | None) -> dict[str, Any]:
        return self.state.view(seat)

    @property
    def over(self) -> bool:
        return self.state.over

    def result(self) -> tuple[list[int], list[int]]:
        return [self.state.winner], list(self.state.scores)


class PigBrain(Brain):
    """Rolls until the turn holds 6 (or the win), then banks."""

    def __init__(self, seat: int, pace: float) -> None:
        self.seat, self.pace = seat, pace

    def plan(self, view: dict[str, Any], now: float) -> tuple[Any, float] | None:
        if view["over"] or view["current"] != self.seat:
            return None
        banked = view["scores"][self.seat]
        enough = view["total"] >= 6 or banked + view["total"] >= 12
        action = p.Stop(seat=self.seat) if view["total"] and enough else p.Roll(seat=self.seat)
        return action, now + self.pace


def make_driver(names: Sequence[str], first: int, rng: random.Random, **_: Any) -> PigDriver:
    return PigDriver(names, first, rng)


def make_brain(seat: int, difficulty: str, rng: random.Random, pace: float) -> PigBrain:
    return PigBrain(seat, pace)


def make_codec(players: int) -> PigCodec:
    return PigCodec()
