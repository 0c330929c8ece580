"""How the host drives each game: protocol actions to rules actions, the randomness the
host owns, time-outs, results, and the bots that sit at seats.

A :class:`Driver` wraps one game of the pure rules. It is the only place that knows a
game's actions; the table (``net.table``) treats every game alike.

Randomness: the driver gets one ``random.Random(seed)`` and draws from it, in this
order and for nothing else (``docs/PROTOCOL.md`` shows how to verify a game):

- Gold Nuggets: ``rng.randrange(players)`` for the first player unless it was fixed,
  then ``nuggets.roll_dice(rng, n)`` for every roll, in play order.
- Fool's Gold: ``rng.randrange(players)`` for the first start player unless it was
  fixed, then for every round ``deck = foolsgold.standard_deck(players)`` and
  ``rng.shuffle(deck)``.

Bots draw from their own generators, so a bot never shifts the dice or the decks.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import foolsgold
import nuggets
from foolsgold.cards import Card, standard_deck
from foolsgold.match import Match
from net import protocol as p
from nuggets import bots as nuggets_bots

GAMES = ("nuggets", "foolsgold")
GAME_TITLES = {"nuggets": "Gold Nuggets", "foolsgold": "Fool's Gold"}
PLAYER_RANGE = {"nuggets": (2, 5), "foolsgold": (2, 8)}
DIFFICULTIES = ("easy", "normal", "hard")
# Gold Nuggets bots are policies named for their style; a difficulty picks one, in
# the order of strength measured by bench/nuggets_ladder.py (nuggets.bots owns it).
NUGGETS_POLICY_FOR = dict(nuggets_bots.DIFFICULTIES)

# Why IllegalAction of both rules packages is caught as one: both are ValueErrors.
IllegalAction = ValueError


class WrongGame(ValueError):
    """An action of the other game."""


class Driver:
    """One game under the host: apply actions, time-outs, views, result."""

    game: str
    first: int

    def start(self, now: float) -> list[dict[str, Any]]:
        raise NotImplementedError

    def act(self, seat: int, action: Any, now: float) -> list[dict[str, Any]]:
        """Apply a protocol action for ``seat``; raises ``ValueError`` (the rules'
        ``IllegalAction``) with a message for a person, changing nothing."""
        raise NotImplementedError

    def deadline(self) -> float | None:
        """When the game next changes on its own (``tick``), or None."""
        return None

    def tick(self, now: float) -> list[dict[str, Any]]:
        return []

    def view(self, seat: int | None) -> dict[str, Any]:
        raise NotImplementedError

    @property
    def over(self) -> bool:
        raise NotImplementedError

    def result(self) -> tuple[list[int], list[int]]:
        """(winners, scores) once over."""
        raise NotImplementedError


class Brain:
    """A bot at a seat: ``plan(view, now)`` returns ``(protocol action, at)`` or None."""

    def plan(self, view: dict[str, Any], now: float) -> tuple[Any, float] | None:
        raise NotImplementedError


def make_driver(
    game: str,
    names: Sequence[str],
    first: int | None,
    rng: random.Random,
    *,
    grab_timeout: float = 10.0,
    call_window: float = 5.0,
    intermission: float = 4.0,
    supply: int = nuggets.STARTING_SUPPLY,
) -> Driver:
    """The driver for ``game``; ``first=None`` draws the first player from ``rng``."""
    if first is None:
        first = rng.randrange(len(names))
    driver: Driver
    if game == "nuggets":
        driver = NuggetsDriver(names, first, rng, supply)
    elif game == "foolsgold":
        driver = FoolsGoldDriver(
            len(names),
            first,
            rng,
            grab_timeout=grab_timeout,
            call_window=call_window,
            intermission=intermission,
        )
    else:
        raise ValueError(f"unknown game {game!r}: choose one of {', '.join(GAMES)}")
    driver.first = first
    return driver


# ---------------------------------------------------------------------------
# Gold Nuggets


class NuggetsDriver(Driver):
    game = "nuggets"

    def __init__(self, names: Sequence[str], first: int, rng: random.Random, supply: int) -> None:
        self.rng = rng
        self.state = nuggets.Game(list(names), supply=supply, start=first)

    def start(self, now: float) -> list[dict[str, Any]]:
        return [{"type": "turn", "seat": self.state.current}]

    def act(self, seat: int, action: Any, now: float) -> list[dict[str, Any]]:
        game = self.state
        if not isinstance(action, p.Roll | p.Keep | p.Stop):
            raise WrongGame("this table plays Gold Nuggets: roll, keep or stop")
        if game.over:
            raise IllegalAction("the game is over: no more actions")
        if seat != game.current:
            raise IllegalAction(
                f"it is {game.players[game.current]}'s turn, not {game.players[seat]}'s"
            )
        if isinstance(action, p.Keep):
            return game.apply(nuggets.Keep(tuple(action.faces)))
        if isinstance(action, p.Stop):
            return game.apply(nuggets.Stop(action.steal_from))
        # The host rolls. An illegal roll must not use up random numbers, or the dice
        # of the rest of the game would no longer follow from the seed in play order.
        saved = self.rng.getstate()
        try:
            return game.apply(nuggets.Roll(nuggets.roll_dice(self.rng, game.dice_left)))
        except ValueError:
            self.rng.setstate(saved)
            raise

    def view(self, seat: int | None) -> dict[str, Any]:
        return self.state.view(seat)

    @property
    def over(self) -> bool:
        return self.state.over

    def result(self) -> tuple[list[int], list[int]]:
        return list(self.state.winners), list(self.state.holdings)


def nuggets_policy(name: str):
    """The Gold Nuggets policy for a difficulty (or a policy's own name)."""
    from nuggets import bots  # the bots package may land after the rules

    policy_name = NUGGETS_POLICY_FOR.get(name, name)
    policies = getattr(bots, "POLICIES", None)
    if isinstance(policies, dict) and policy_name in policies:
        return policies[policy_name]
    policy = getattr(bots, policy_name, None)
    if callable(policy):
        return policy
    raise ValueError(f"no Gold Nuggets bot called {name!r}")


class NuggetsBrain(Brain):
    """A Gold Nuggets policy, paced so people can follow what it does."""

    def __init__(self, seat: int, policy, rng: random.Random, pace: float) -> None:
        self.seat = seat
        self.policy = policy
        self.rng = rng
        self.pace = pace

    def plan(self, view: dict[str, Any], now: float) -> tuple[Any, float] | None:
        if view["over"] or view["current"] != self.seat:
            return None
        action = self.policy(view, self.rng)
        return to_protocol(action, self.seat), now + self.pace


# ---------------------------------------------------------------------------
# Fool's Gold


class FoolsGoldDriver(Driver):
    """A match: rounds until someone reaches 3 points, a pause between rounds."""

    game = "foolsgold"

    def __init__(
        self,
        players: int,
        first: int,
        rng: random.Random,
        *,
        grab_timeout: float,
        call_window: float,
        intermission: float,
    ) -> None:
        self.rng = rng
        self.players = players
        self.match = Match(players, first)
        self.grab_timeout = grab_timeout
        self.call_window = call_window
        self.intermission = intermission
        self.next_round_at: float | None = None
        self.kinds = {card.name: card.kind for card in standard_deck(players)}

    def _deal(self) -> list[dict[str, Any]]:
        deck = standard_deck(self.players)
        self.rng.shuffle(deck)
        return self.match.new_round(deck, self.grab_timeout, self.call_window)

    def start(self, now: float) -> list[dict[str, Any]]:
        return self._deal()

    def act(self, seat: int, action: Any, now: float) -> list[dict[str, Any]]:
        if isinstance(action, p.Draw):
            rules_action = foolsgold.Draw(seat)
        elif isinstance(action, p.Discard):
            rules_action = foolsgold.Discard(seat, self._card(action.card))
        elif isinstance(action, p.Grab):
            rules_action = foolsgold.Grab(seat)
        elif isinstance(action, p.Call):
            rules_action = foolsgold.Call(seat)
        else:
            raise WrongGame("this table plays Fool's Gold: draw, discard, grab or call")
        if self.next_round_at is not None:
            raise IllegalAction("the round is settled: the next one is being dealt")
        return self._settle_check(self.match.apply(rules_action, now), now)

    def _card(self, ref: p.CardRef) -> Card:
        kind = self.kinds.get(ref.name)
        if kind is None:
            raise IllegalAction(f"there is no card called {ref.name!r} in this deck")
        if ref.kind is not None and ref.kind != kind:
            raise IllegalAction(f"{ref.name} is a {kind} card, not {ref.kind!r}")
        return Card(ref.name, kind, ref.variant)

    def _settle_check(self, events: list[dict[str, Any]], now: float) -> list[dict[str, Any]]:
        round_ = self.match.round
        if round_ is not None and round_.settled and not self.match.over:
            self.next_round_at = now + self.intermission
            events.append({"type": "next_round", "at": self.next_round_at})
        return events

    def deadline(self) -> float | None:
        if self.match.over:
            return None
        if self.next_round_at is not None:
            return self.next_round_at
        return self.match.deadline

    def tick(self, now: float) -> list[dict[str, Any]]:
        if self.match.over:
            return []
        if self.next_round_at is not None:
            if now < self.next_round_at:
                return []
            self.next_round_at = None
            return self._deal()
        deadline = self.match.deadline
        if deadline is None or now < deadline:
            return []
        return self._settle_check(self.match.apply(foolsgold.Tick(), now), now)

    def view(self, seat: int | None) -> dict[str, Any]:
        return self.match.view(seat)

    @property
    def over(self) -> bool:
        return self.match.over

    def result(self) -> tuple[list[int], list[int]]:
        winner = self.match.winner
        return ([] if winner is None else [winner]), list(self.match.scores)


class FoolsGoldBrain(Brain):
    def __init__(self, bot) -> None:
        self.bot = bot

    def plan(self, view: dict[str, Any], now: float) -> tuple[Any, float] | None:
        # Settled views go to the bot too: it learns each grabber's record from the
        # revealed hand, and plans nothing for a settled round.
        planned = self.bot.plan(view, now)
        if planned is None:
            return None
        action, at = planned
        return to_protocol(action, view["seat"]), at


# ---------------------------------------------------------------------------


def to_protocol(action: Any, seat: int | None = None) -> Any:
    """A rules action (of either game) as the protocol message a client would send."""
    if isinstance(action, nuggets.Roll):
        return p.Roll(seat=seat)
    if isinstance(action, nuggets.Keep):
        return p.Keep(faces=[f.value for f in action.faces], seat=seat)
    if isinstance(action, nuggets.Stop):
        return p.Stop(steal_from=action.steal_from, seat=seat)
    if isinstance(action, foolsgold.Draw):
        return p.Draw(seat=action.seat)
    if isinstance(action, foolsgold.Discard):
        card = action.card
        return p.Discard(
            card=p.CardRef(name=card.name, variant=card.variant, kind=card.kind), seat=action.seat
        )
    if isinstance(action, foolsgold.Grab):
        return p.Grab(seat=action.seat)
    if isinstance(action, foolsgold.Call):
        return p.Call(seat=action.seat)
    raise TypeError(f"not a rules action: {action!r}")


def make_brain(
    game: str, seat: int, difficulty: str, rng: random.Random, pace: float = 0.9
) -> Brain:
    """A bot brain for a seat, without a driver (the TCP bot client uses this)."""
    if game == "nuggets":
        return NuggetsBrain(seat, nuggets_policy(difficulty), rng, pace)
    if game == "foolsgold":
        from foolsgold import bots

        return FoolsGoldBrain(bots.Bot(seat, difficulty, rng))
    raise ValueError(f"unknown game {game!r}")
