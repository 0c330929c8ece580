"""Gold Nuggets under the host: its driver, its bots and its wire codec.

Randomness: the driver draws from the table's ``random.Random(seed)``, in this order and
for nothing else (``docs/PROTOCOL.md`` shows how to verify a game):
``rng.randrange(players)`` for the first player unless it was fixed (``net.games``),
then ``nuggets.roll_dice(rng, n)`` for every roll, in play order.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import nuggets
from net.games.base import Brain, Codec, Driver, HostGame, Refused
from net.games.nuggets import GUIDED_TURNS, SPEC, NuggetsSettings, stats, views
from net.games.nuggets.moves import KEEP, MOVES, ROLL, STOP
from net.games.nuggets.views import NuggetsView
from net.views import to_view
from nuggets import bots as nuggets_bots
from nuggets.calibration import table_kind


class NuggetsCodec(Codec):
    moves = MOVES
    title = SPEC.title

    def rules(self, move: str, args: Any, seat: int) -> Any:
        """A wire ``roll`` becomes ``Roll()``: the driver fills in the faces it rolls."""
        if move == KEEP.name:
            return nuggets.Keep(tuple(args.faces))
        if move == STOP.name:
            return nuggets.Stop(args.steal_from)
        return nuggets.Roll()

    def to_wire(self, action: Any, seat: int | None = None) -> Any:
        if isinstance(action, nuggets.Roll):
            return ROLL(seat=seat)
        if isinstance(action, nuggets.Keep):
            return KEEP(faces=[f.value for f in action.faces], seat=seat)
        if isinstance(action, nuggets.Stop):
            return STOP(steal_from=action.steal_from, seat=seat)
        raise TypeError(f"not a {SPEC.title} action: {action!r}")


class NuggetsDriver(Driver):
    game = SPEC.key

    def __init__(self, names: Sequence[str], first: int, rng: random.Random,
                 settings: NuggetsSettings) -> None:
        self.rng = rng
        self.codec = NuggetsCodec()
        self.state = nuggets.Game(list(names), supply=settings.supply, start=first)
        #: the kind of table the chances to win are calibrated for, from its seated
        #: bots (``nuggets.calibration.table_kind``; ``seated``): every view says it,
        #: so the advisor shows the table's own odds
        self.table_kind = "mixed"
        # the spectators' view of the state as it is, built once per change: every
        # seat's differs from it only in ``seat`` (everything in Gold Nuggets is public)
        self._public: NuggetsView | None = None
        #: the turns each seat has begun (a bonus turn is part of the one it follows)
        self.turns = [0] * len(names)

    def opening_over(self, people: list[int]) -> bool:
        """The guided opening is each person's first :data:`GUIDED_TURNS` turns: over
        at the turn that follows the last of them."""
        current = self.state.current
        return all(self.turns[s] >= GUIDED_TURNS for s in people) and (
            self.state.over or current not in people)

    def _count(self, events: list[dict[str, Any]]) -> list[dict[str, Any]]:
        for event in events:
            if event.get("type") == "turn":
                self.turns[event["seat"]] += 1
        return events

    def seated(self, levels: list[str | None]) -> bool:
        """The table's kind from the levels of its bots (a person is not counted): all
        hard is "strong", anything else "mixed"."""
        kind = table_kind(level for level in levels if level is not None)
        if kind == self.table_kind:
            return False
        self.table_kind = kind
        self._public = None
        return True

    def start(self, now: float) -> list[dict[str, Any]]:
        return self._count([{"type": "turn", "seat": self.state.current}])

    def act(
        self, seat: int, action: Any, now: float, acted: float | None = None, lag: float = 0.0
    ) -> list[dict[str, Any]]:
        self._public = None  # before anything: the view of the old state is stale
        game = self.state
        self.codec.decode(action)  # another game's move, or bad arguments: raises
        if game.over:
            raise Refused("the game is over: no more actions")
        if seat != game.current:
            raise Refused(
                f"it is {game.players[game.current]}'s turn, not {game.players[seat]}'s"
            )
        try:
            rules_action = self.codec.to_rules(action, seat)
        except nuggets.IllegalAction as exc:
            raise Refused(str(exc)) from exc
        if not isinstance(rules_action, nuggets.Roll):
            try:
                return self._count(game.apply(rules_action))
            except nuggets.IllegalAction as exc:
                raise Refused(str(exc)) from exc
        # The host rolls. An illegal roll must not use up random numbers, or the dice
        # of the rest of the game would no longer follow from the seed in play order.
        saved = self.rng.getstate()
        try:
            return self._count(game.apply(nuggets.Roll(nuggets.roll_dice(self.rng,
                                                                         game.dice_left))))
        except nuggets.IllegalAction as exc:
            self.rng.setstate(saved)
            raise Refused(str(exc)) from exc
        except BaseException:
            self.rng.setstate(saved)
            raise

    def view(self, seat: int | None) -> dict[str, Any]:
        return self.state.view(seat)

    def wire_view(self, seat: int | None) -> dict[str, Any]:
        """The rules' view and the table's kind (``table_kind``)."""
        view = self.state.view(seat)
        view["table_kind"] = self.table_kind
        return view

    def state_view(self, seat: int | None) -> NuggetsView:
        """``to_view(wire_view(seat))``, equal field for field: the public Struct of this
        state (one per change, the spectators' own), copied with the seat. Read-only."""
        public = self._public
        if public is None:
            public = self._public = to_view(self.wire_view(None))  # type: ignore[assignment]
        if seat is None:
            return public  # type: ignore[return-value]
        if seat.__class__ is not int or not 0 <= seat < len(self.state.players):
            return super().state_view(seat)  # the rules refuse it
        view = public.__copy__()  # type: ignore[union-attr]
        view.seat = seat
        return view

    @property
    def over(self) -> bool:
        return self.state.over

    def result(self) -> tuple[list[int], list[int]]:
        return list(self.state.winners), list(self.state.holdings)


class NuggetsBrain(Brain):
    """A policy (``nuggets.bots.policy``: a difficulty picks one, in the order of
    strength measured by bench/nuggets_ladder.py), paced so people can follow what it
    does."""

    def __init__(self, seat: int, policy, rng: random.Random, pace: float) -> None:
        self.seat = seat
        self.policy = policy
        self.rng = rng
        self.pace = pace
        self.codec = NuggetsCodec()

    def plan(self, view: dict[str, Any], now: float) -> tuple[Any, float] | None:
        if view["over"] or view["current"] != self.seat:
            return None
        action = self.policy(view, self.rng)
        return self.codec.to_wire(action, self.seat), now + self.pace


class NuggetsHost(HostGame):
    """Gold Nuggets' host side (``net.games.base.HostGame``), named by its ``GameSpec.host``."""

    moves = MOVES
    views = (NuggetsView, views.EVENTS)
    counted = stats.COUNTED
    columns = stats.COLUMNS

    def make_driver(self, names: Sequence[str], first: int, rng: random.Random,
                    settings: NuggetsSettings) -> NuggetsDriver:  # fmt: skip
        return NuggetsDriver(names, first, rng, settings)

    def make_brain(self, seat: int, difficulty: str, rng: random.Random,
                   pace: float) -> NuggetsBrain:  # fmt: skip
        return NuggetsBrain(seat, nuggets_bots.policy(difficulty), rng, pace)

    def make_codec(self, players: int) -> NuggetsCodec:
        return NuggetsCodec()

    def verify(self, messages: Any, seat: int | None = None) -> list[str] | None:
        from net.games.nuggets.verify import verify

        return verify(messages, seat)

    def step(self, tally: Any, driver: Any, event: dict[str, Any]) -> None:
        stats.step(tally, driver, event)


HOST = NuggetsHost()
