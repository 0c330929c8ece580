"""Pig Dice under the host: its driver, its bot and its wire codec (``net.games.base``).
The die is the table's ``random.Random(seed)``: one ``randint(1, 6)`` per roll."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from net.games.base import Brain, Codec, Driver, HostGame, Refused
from tests.toygame import SPEC, PigSettings, stats, views
from tests.toygame.moves import BANK, DOUBLE, MOVES, ROLL
from tests.toygame.rules import IllegalAction, Pig


class PigCodec(Codec):
    """Derived from the declarations: a checked move's name is its rules action."""

    moves = MOVES
    title = SPEC.title

    def rules(self, move: str, args: Any, seat: int) -> Any:
        return move

    def to_wire(self, action: Any, seat: int | None = None) -> Any:
        return MOVES[action](seat=seat)


class PigDriver(Driver):
    game = SPEC.key

    def __init__(self, names: Sequence[str], first: int, rng: random.Random,
                 settings: PigSettings) -> None:
        self.rng = rng
        self.codec = PigCodec()
        self.state = Pig(list(names), current=first, target=settings.target)

    def start(self, now: float) -> list[dict[str, Any]]:
        return [{"type": "pig_pass", "seat": self.state.current}]

    def act(self, seat, action, now, acted=None, lag=0.0) -> list[dict[str, Any]]:
        move = self.codec.to_rules(action, seat)
        try:
            if move == ROLL.name:
                self.state._check(seat)  # no die is thrown for a refused roll
                return self.state.roll(seat, self.rng.randint(1, 6))
            if move == DOUBLE.name:
                self.state._check(seat)
                if not self.state.total:
                    raise IllegalAction("roll at least once before you double")
                return self.state.double(seat, self.rng.randint(1, 6))
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
        enough = view["total"] >= 6 or banked + view["total"] >= view.get("target", 12)
        action = (BANK if view["total"] and enough else ROLL)(seat=self.seat)
        return action, now + self.pace


class PigHost(HostGame):
    """Pig Dice's host side: the required hooks, its stats; no verify (the default)."""

    moves = MOVES
    views = (views.VIEW, views.EVENTS)
    counted = stats.COUNTED
    columns = stats.COLUMNS

    def make_driver(self, names: Sequence[str], first: int, rng: random.Random,
                    settings: PigSettings) -> PigDriver:  # fmt: skip
        return PigDriver(names, first, rng, settings)

    def make_brain(self, seat: int, difficulty: str, rng: random.Random,
                   pace: float) -> PigBrain:  # fmt: skip
        return PigBrain(seat, pace)

    def make_codec(self, players: int) -> PigCodec:
        return PigCodec()

    def step(self, tally: Any, driver: Any, event: dict[str, Any]) -> None:
        stats.step(tally, driver, event)


HOST = PigHost()
