"""Fool's Gold under the host: its driver, its bots and its wire codec.

Randomness: the driver draws from the table's ``random.Random(seed)``, in this order and
for nothing else (``docs/PROTOCOL.md`` shows how to verify a game):
``rng.randrange(players)`` for the first start player unless it was fixed
(``net.games``), then for every round ``deck = foolsgold.standard_deck(players)`` and
``rng.shuffle(deck)``.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Sequence
from typing import Any

import foolsgold
from foolsgold.cards import Card, standard_deck
from foolsgold.match import Match
from net.games.base import Brain, Codec, Driver, HostGame, Refused
from net.games.foolsgold import SPEC, FoolsGoldSettings, stats
from net.games.foolsgold import views as wire
from net.games.foolsgold.moves import CALL, DISCARD, DRAW, GRAB, MOVES, CardRef
from net.views import to_view

#: what the rules raise for an illegal move



class FoolsGoldCodec(Codec):
    """Cards travel as a :class:`~net.games.foolsgold.moves.CardRef`; the codec checks a
    named card against the deck of a table of ``players``."""

    moves = MOVES
    title = SPEC.title

    def __init__(self, players: int = SPEC.high) -> None:
        self.kinds = {card.name: card.kind for card in standard_deck(players)}

    def rules(self, move: str, args: Any, seat: int) -> Any:
        if move == DISCARD.name:
            return foolsgold.Discard(seat, self._card(args.card))
        return {DRAW.name: foolsgold.Draw, GRAB.name: foolsgold.Grab,
                CALL.name: foolsgold.Call}[move](seat)

    def _card(self, ref: CardRef) -> Card:
        kind = self.kinds.get(ref.name)
        if kind is None:
            raise Refused(f"there is no card called {ref.name!r} in this deck")
        if ref.kind is not None and ref.kind != kind:
            raise Refused(f"{ref.name} is a {kind} card, not {ref.kind!r}")
        return Card(ref.name, kind, ref.variant)

    def to_wire(self, action: Any, seat: int | None = None) -> Any:
        """The rules' actions name their seat, so ``seat`` is not needed."""
        if isinstance(action, foolsgold.Draw):
            return DRAW(seat=action.seat)
        if isinstance(action, foolsgold.Discard):
            card = action.card
            ref = CardRef(name=card.name, variant=card.variant, kind=card.kind)
            return DISCARD(card=ref, seat=action.seat)
        if isinstance(action, foolsgold.Grab):
            return GRAB(seat=action.seat)
        if isinstance(action, foolsgold.Call):
            return CALL(seat=action.seat)
        raise TypeError(f"not a {SPEC.title} action: {action!r}")


def place(slots: list[Card | None], hand: list[Card]) -> tuple[list[Card | None], int | None]:
    """Cards into stable slots: a card keeps its slot while it stays in the hand, and a new
    one takes the first free slot; empty slots at the end go. Returns the slots and the
    new card's slot (or None)."""
    left = list(hand)
    placed: list[Card | None] = []
    for card in slots:
        if card is None:
            placed.append(None)
            continue
        try:
            match = left.index(card)  # the first equal card (identity checked first)
        except ValueError:
            placed.append(None)
        else:
            placed.append(left.pop(match))
    while placed and placed[-1] is None:
        placed.pop()
    fresh = None
    for card in left:
        free = placed.index(None) if None in placed else len(placed)
        if free == len(placed):
            placed.append(card)
        else:
            placed[free] = card
        fresh = free
    return placed, fresh


class _Own:
    """A seat's own part of its views (its hand and the hand's slots), in both forms,
    with what it was built from: it holds while the hand, the slots and the drawn
    card compare equal to these (identity first, so the check is cheap)."""

    __slots__ = ("_rules_hand", "drawn", "hand", "sent_slots", "slots", "wire_hand")

    def __init__(self, hand: list[Card], slots: list[Card | None], drawn: int | None) -> None:
        self.hand = list(hand)
        self.slots = list(slots)
        self.drawn = drawn
        self._rules_hand: list[dict[str, str]] | None = None  # built when asked for
        self.wire_hand = [
            wire.Card(name=card.name, kind=card.kind, variant=card.variant)  # type: ignore[arg-type]
            for card in hand
        ]
        # a slot holds the hand's own card object; list.index (equality) if it does not
        at = {id(card): i for i, card in enumerate(hand)}
        sent: list[int | None] = []
        for card in slots:
            i = None if card is None else at.get(id(card))
            sent.append(hand.index(card) if i is None and card is not None else i)
        self.sent_slots = sent

    @property
    def rules_hand(self) -> list[dict[str, str]]:
        if self._rules_hand is None:
            self._rules_hand = [card.to_dict() for card in self.hand]
        return self._rules_hand

    def holds(self, hand: list[Card], slots: list[Card | None], drawn: int | None) -> bool:
        return drawn == self.drawn and hand == self.hand and slots == self.slots


class FoolsGoldDriver(Driver):
    """A match: rounds until someone reaches 3 points (or, with the house rule of a round
    cap, until the cap and a broken tie), a pause between rounds.

    Beside the rules it keeps each hand's slots (:func:`place`): a dealt hand fills
    slots 1-5 in the deal's order, a passed card leaves its slot empty, a drawn card takes
    the first empty slot. They follow from the actions alone, so a replay of the log (a
    restored table, the replay screen) lays every hand out as it was; each seat is sent
    its own (``wire_view``: ``slots`` and ``drawn``), so an app that starts afresh shows
    the hand it had."""

    game = SPEC.key

    def __init__(
        self,
        players: int,
        first: int,
        rng: random.Random,
        settings: FoolsGoldSettings,
        *,
        rules: int = foolsgold.RULES,
    ) -> None:
        self.rng = rng
        self.players = players
        self.rules = rules
        self.match = Match(players, first, round_cap=settings.round_cap, rules=rules)
        self.codec = FoolsGoldCodec(players)
        self.grab_timeout = settings.grab_timeout
        self.call_window = settings.call_window
        self.intermission = settings.intermission
        self.next_round_at: float | None = None
        self.slots: list[list[Card | None]] = [[] for _ in range(players)]
        #: the slot of the card each seat drew last, until it passes one
        self.drawn: list[int | None] = [None] * players
        # the views of the state as it is, built once per change (``_public``), and
        # each seat's own part, rebuilt only when its hand or slots change
        self._public: tuple[dict[str, Any], wire.FoolsGoldView] | None = None
        self._own: dict[int, _Own] = {}

    def _deal(self) -> list[dict[str, Any]]:
        self._public = None
        deck = standard_deck(self.players)
        self.rng.shuffle(deck)
        events = self.match.new_round(deck, self.grab_timeout, self.call_window)
        hands = self.match.round.hands
        self.slots = [list(hand) for hand in hands]
        self.drawn = [None] * self.players
        return events

    def _replace(self, seat: int) -> None:
        """Lay ``seat``'s hand out again after a draw or a discard."""
        self.slots[seat], fresh = place(self.slots[seat], self.match.round.hands[seat])
        self.drawn[seat] = fresh

    def start(self, now: float) -> list[dict[str, Any]]:
        return self._deal()

    def act(
        self, seat: int, action: Any, now: float, acted: float | None = None, lag: float = 0.0
    ) -> list[dict[str, Any]]:
        self._public = None  # before anything: the views of the old state are stale
        try:
            rules_action = self.codec.to_rules(action, seat)
            if isinstance(rules_action, foolsgold.Grab | foolsgold.Call) and (
                acted is not None or lag
            ):
                rules_action = type(rules_action)(seat, acted, lag)
        except foolsgold.IllegalAction as exc:
            raise Refused(str(exc)) from exc
        if self.next_round_at is not None:
            raise Refused("the round is settled: the next one is being dealt")
        try:
            events = self.match.apply(rules_action, now)
        except foolsgold.IllegalAction as exc:
            raise Refused(str(exc)) from exc
        if isinstance(rules_action, foolsgold.Draw | foolsgold.Discard):
            self._replace(seat)
        return self._settle_check(events, now)

    def _settle_check(self, events: list[dict[str, Any]], now: float) -> list[dict[str, Any]]:
        round_ = self.match.round
        if round_ is not None and round_.settled and not self.match.over:
            self.next_round_at = now + self.intermission
            events.append({"type": "next_round", "at": self.next_round_at})
        return events

    def check(
        self, seat: int, action: Any, now: float, acted: float | None = None, lag: float = 0.0
    ) -> None:
        """Raise what ``act`` would raise now, on a cheap copy (the match's own)."""
        trial = copy.copy(self)
        trial.match = self.match.copy()
        trial.act(seat, action, now, acted, lag)

    def deadline(self) -> float | None:
        if self.match.over:
            return None
        if self.next_round_at is not None:
            return self.next_round_at
        return self.match.deadline

    def tick(self, now: float) -> list[dict[str, Any]]:
        self._public = None
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

    def repace(self, settings: FoolsGoldSettings) -> None:
        """The windows at the table's new pace: the next round's race and call window,
        and the pause after the round in play (one already running keeps its end)."""
        self.grab_timeout = settings.grab_timeout
        self.call_window = settings.call_window
        self.intermission = settings.intermission

    def opening_over(self, people: list[int]) -> bool:
        """The guided opening is the first round (``tui.games.foolsgold.guided``): over
        once it is settled, before the next is dealt."""
        round_ = self.match.round
        return self.match.round_no > 1 or (round_ is not None and round_.settled)

    def view(self, seat: int | None) -> dict[str, Any]:
        """``Match.view(seat)``, equal key for key and in the same order, built from
        the public view of this state (once per change) and the seat's own hand. The
        dict is new; the lists in it are shared with the other views of this state
        (and the hand's dicts with the seat's next views): read-only."""
        if not self._plain_seat(seat):
            return self.match.view(seat)
        view = dict(self._views()[0])
        if seat is not None:
            view["seat"] = seat
            view["hand"] = list(self._own_part(seat).rules_hand)
        return view

    def _plain_seat(self, seat: int | None) -> bool:
        """A seat (or None) whose views come from the caches: a round is dealt and the
        seat is a plain int in range (the rules check anything else)."""
        return self.match.round is not None and (
            seat is None or (seat.__class__ is int and 0 <= seat < self.players)
        )

    def _views(self) -> tuple[dict[str, Any], wire.FoolsGoldView]:
        """The public view of this state: the rules' dict, and the Struct a spectator
        is sent (built from the same dict, once per change)."""
        public = self._public
        if public is None:
            rules = self.match.view(None)
            sent = dict(rules)
            sent["slots"], sent["drawn"] = None, None
            public = self._public = (rules, to_view(sent))  # type: ignore[assignment]
        return public  # type: ignore[return-value]

    def _own_part(self, seat: int) -> _Own:
        assert self.match.round is not None
        hand, slots, drawn = self.match.round.hands[seat], self.slots[seat], self.drawn[seat]
        own = self._own.get(seat)
        if own is None or not own.holds(hand, slots, drawn):
            own = self._own[seat] = _Own(hand, slots, drawn)
        return own

    def state_view(self, seat: int | None) -> wire.FoolsGoldView:
        """``to_view(wire_view(seat))``, equal field for field, without building a dict:
        the public Struct of this state (one per change, the spectators' own) copied
        with the seat's hand and slots. A seat's view is a new Struct each call; its
        hand is the seat's alone (never in another seat's view). Read-only."""
        round_ = self.match.round
        if round_ is None or seat.__class__ is not int or not 0 <= seat < self.players:  # type: ignore[operator]
            if seat is None and round_ is not None:
                return self._views()[1]
            return super().state_view(seat)
        # _own_part and _views, written out: this runs for every seat at every change
        hand, slots, drawn = round_.hands[seat], self.slots[seat], self.drawn[seat]
        own = self._own.get(seat)
        if own is None or not own.holds(hand, slots, drawn):
            own = self._own[seat] = _Own(hand, slots, drawn)
        public = self._public
        view = (public[1] if public is not None else self._views()[1]).__copy__()
        view.seat = seat
        view.hand = own.wire_hand  # type: ignore[assignment]
        view.slots = own.sent_slots  # type: ignore[assignment]
        view.drawn = own.drawn
        return view

    def wire_view(self, seat: int | None) -> dict[str, Any]:
        """The rules' view plus, for a seat, its hand's layout: ``slots`` (for each slot
        from the left, the index in ``hand`` of the card there, or None for an empty
        slot) and ``drawn`` (the slot of the card just drawn, or None). Indices, never
        cards: the seat's own hand says which cards they are. Both are None for a
        spectator (no hand)."""
        view = self.view(seat)
        slots, drawn = None, None
        if seat is not None:
            slots = []
            if self.match.round is not None:
                own = self._own_part(seat)
                slots, drawn = list(own.sent_slots), own.drawn
        view["slots"], view["drawn"] = slots, drawn
        return view

    @property
    def over(self) -> bool:
        return self.match.over

    def result(self) -> tuple[list[int], list[int]]:
        winner = self.match.winner
        return ([] if winner is None else [winner]), list(self.match.scores)


class FoolsGoldBrain(Brain):
    def __init__(self, bot, codec: FoolsGoldCodec) -> None:
        self.bot = bot
        self.codec = codec

    def plan(self, view: dict[str, Any], now: float) -> tuple[Any, float] | None:
        # Settled views go to the bot too: it learns each grabber's record from the
        # revealed hand, and plans nothing for a settled round.
        planned = self.bot.plan(view, now)
        if planned is None:
            return None
        action, at = planned
        return self.codec.to_wire(action), at


class FoolsGoldHost(HostGame):
    """Fool's Gold's host side (``net.games.base.HostGame``), named by its ``GameSpec.host``."""

    moves = MOVES
    views = (wire.VIEW, wire.EVENTS)
    counted = stats.COUNTED
    columns = stats.COLUMNS

    def make_driver(self, names: Sequence[str], first: int, rng: random.Random,
                    settings: FoolsGoldSettings, *,
                    rules: int = foolsgold.RULES) -> FoolsGoldDriver:  # fmt: skip
        """``rules``: the version of the rules to play (``foolsgold.round.RULES`` now; 1
        for a match saved before F12, which replays as it was played)."""
        return FoolsGoldDriver(len(names), first, rng, settings, rules=rules)

    def make_brain(self, seat: int, difficulty: str, rng: random.Random,
                   pace: float) -> FoolsGoldBrain:  # fmt: skip
        """``pace`` is the Gold Nuggets bots' own: Fool's Gold bots keep their own speed."""
        from foolsgold import bots

        return FoolsGoldBrain(bots.Bot(seat, difficulty, rng), FoolsGoldCodec())

    def make_codec(self, players: int) -> FoolsGoldCodec:
        return FoolsGoldCodec(players)

    def verify(self, messages: Any, seat: int | None = None) -> list[str] | None:
        from net.games.foolsgold.verify import verify

        return verify(messages, seat)

    def step(self, tally: Any, driver: Any, event: dict[str, Any]) -> None:
        stats.step(tally, driver, event)


HOST = FoolsGoldHost()
