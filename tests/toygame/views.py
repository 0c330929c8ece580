"""Pig Dice on the wire (``net.views``): its view and its events."""

from __future__ import annotations

from net.views import Count, GameEvent, GameView, Seat


class PigView(GameView, tag="pig", kw_only=True):
    seat: Seat | None
    players: list[str]
    current: Seat
    scores: list[Count]
    total: Count
    last: int | None
    over: bool
    winner: Seat | None
    target: Count = 12

    def check(self) -> str | None:
        if len(self.scores) != len(self.players) or self.current >= len(self.players):
            return "the scores and the current seat must fit the players"
        return None

    def is_over(self) -> bool:
        return self.over

    def to_act(self) -> int | None:
        return None if self.over else self.current


class PigRolled(GameEvent, tag="pig_rolled", kw_only=True):
    seat: Seat
    face: int


class PigPass(GameEvent, tag="pig_pass", kw_only=True):
    seat: Seat


class PigBanked(GameEvent, tag="pig_banked", kw_only=True):
    seat: Seat
    amount: Count


class PigDoubled(GameEvent, tag="pig_doubled", kw_only=True):
    seat: Seat
    total: Count


VIEW = PigView
EVENTS = (PigRolled, PigPass, PigBanked, PigDoubled)
