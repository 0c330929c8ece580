"""Real-time bots for Fool's Gold.

A `Bot` sees only `view(seat)` (of a `Round` or a `Match`) and answers
`plan(view, now) -> (action, at) | None`: the action it wants and the time it wants
it applied. The driver (the host, or `foolsgold.sim` on a virtual clock) calls `plan`
after every change of the seat's view, keeps only the newest plan, applies the action
at `at` if it is still legal, and calls `plan` again.

Plans are stable: a bot decides when it first sees a situation ("my hand is now these
six cards", "someone grabbed") and keeps that time on later calls, so re-planning on
unrelated changes never postpones an action. The bot's own `random.Random` sets only
reaction times and whether it bluffs this round; calls come from evidence:

- cards: the bot's own frozen hand rules names out of the grabber's reach, and the
  cards it passed recently cannot yet have travelled to a far-away grabber;
- timing: a true set is grabbed a reaction after the draw that completed it, while a
  bluff tends to come long after the grabber's last draw, or before it drew at all;
- hands: a set completed by a draw shows as six cards; a grab holding five after
  drawing is odd;
- record: how often this grabber's revealed hands were bluffs, across the match.

Difficulty (`DIFFICULTIES`) sets the reaction time, the bluff rate, how many bluffs
pass for a set, which evidence the bot weighs, how willing it is to call, and (easy)
how often it calls on a hunch. `PLAYERS` adds `HUMAN`, a scripted person acting in
1.2-1.8 s, for the simulator.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from math import comb
from typing import Any

from foolsgold.cards import SET_SIZE, Card, is_set, set_chance, standard_deck
from foolsgold.match import TARGET
from foolsgold.round import HAND, HAND_MAX, Action, Call, Discard, Draw, Grab, legal_actions

Plan = tuple[Action, float]


@dataclass(frozen=True)
class Difficulty:
    """How a bot plays: speed, bluffing, and the evidence it weighs before calling."""

    name: str
    #: mean seconds from seeing a situation to acting on it (drawing, passing, calling)
    reaction: float
    #: reaction times vary uniformly by this fraction either way
    jitter: float
    #: mean seconds from someone's grab to its own grab in the race for a nugget
    race: float
    #: chance to plan a bluff in a round
    bluff_rate: float
    #: a bluff waits at least this long after the round starts, then up to `bluff_span` more
    bluff_after: float
    bluff_span: float
    #: the evidence it weighs beyond the core (the grabber's draws since the deal, the
    #: exact chance of a dealt set, a hand of five after drawing): "cards" (its own
    #: hand), "passed" (cards it passed that cannot have reached the grabber yet),
    #: "timing" (how long after its last draw the grabber grabbed), "record" (the
    #: grabber's revealed bluffs at this table)
    evidence: frozenset[str]
    #: bluffs only right after a draw, holding six, as a true set would show
    mimics_sets: bool
    #: picks the name to chase using what it passed and what is left of each name
    counts_cards: bool
    #: grabs with no set after this long without one (so no round runs for ever)
    give_up_after: float
    #: of its planned bluffs, the share that mimic a set (with `mimics_sets`)
    mimic_rate: float = 1.0


# Speeds are set so a person has a fair fight with normal (bench/foolsgold_ladder.py):
# easy is slower than a person, normal about as quick, hard quicker. The calling rule
# is the same for every difficulty (`Bot.bluff_chance`, `call_threshold`); difficulty
# only adds evidence on top of the core, and so never opens a bluff to farm.
DIFFICULTIES: dict[str, Difficulty] = {
    "easy": Difficulty(
        name="easy",
        reaction=2.0,
        jitter=0.3,
        race=2.2,
        bluff_rate=0.05,
        bluff_after=25.0,
        bluff_span=40.0,
        evidence=frozenset(),
        mimics_sets=False,
        counts_cards=False,
        give_up_after=150.0,
    ),
    "normal": Difficulty(
        name="normal",
        reaction=1.5,
        jitter=0.25,
        race=1.5,
        bluff_rate=0.08,
        bluff_after=30.0,
        bluff_span=40.0,
        evidence=frozenset({"cards", "timing", "record"}),
        mimics_sets=True,
        counts_cards=True,
        give_up_after=150.0,
        mimic_rate=0.5,
    ),
    "hard": Difficulty(
        name="hard",
        reaction=0.6,
        jitter=0.25,
        race=0.6,
        bluff_rate=0.08,
        bluff_after=15.0,
        bluff_span=40.0,
        evidence=frozenset({"cards", "timing", "record", "passed"}),
        mimics_sets=True,
        counts_cards=True,
        give_up_after=150.0,
        mimic_rate=0.8,
    ),
}

#: A scripted stand-in for a person, for the simulator only (tables seat the three
#: difficulties): 1.2-1.8 s per action, card sense and the plain evidence of a
#: watchful player, honest (it never bluffs).
HUMAN = Difficulty(
    name="human",
    reaction=1.5,
    jitter=0.2,
    race=1.5,
    bluff_rate=0.0,
    bluff_after=15.0,
    bluff_span=40.0,
    evidence=frozenset({"cards", "timing"}),
    mimics_sets=False,
    counts_cards=True,
    give_up_after=150.0,
)

#: Everyone the simulator can seat: the difficulties and the scripted person.
PLAYERS: dict[str, Difficulty] = {**DIFFICULTIES, "human": HUMAN}


def _when(plan: Plan) -> float:
    return plan[1]


def _key(card: Card) -> tuple[str, str]:
    return (card.name, card.variant)


class Bot:
    """A real-time player for one seat. Keeps its memory across rounds of a match."""

    def __init__(self, seat: int, difficulty: str | Difficulty, rng: random.Random) -> None:
        if isinstance(difficulty, str):
            if difficulty not in PLAYERS:
                raise ValueError(
                    f"unknown difficulty {difficulty!r}: choose from {', '.join(PLAYERS)}"
                )
            difficulty = PLAYERS[difficulty]
        self.seat = seat
        self.difficulty = difficulty
        self._grab = Grab(seat)
        self._draw = Draw(seat)
        self.rng = rng
        #: revealed hands across the match: (seat, "set" or "bluff") -> count
        self.record: Counter[tuple[int, str]] = Counter()
        #: per seat, the odds that it is a bluffer (grabs whatever it holds) rather
        #: than an honest player, from every round of the match ("record")
        self.suspicion: dict[int, float] = {}
        self._round_no: object = None
        self._last_settled = True
        self._last_draw_pile = -1
        self._players = 0
        self._deck_counts: Counter[str] = Counter()
        self._kinds: dict[str, str] = {}
        self._cards: dict[tuple[str, str, str], Card] = {}
        self._raw_hand: list[dict[str, str]] = []
        self._new_round(0.0)

    # -- memory ------------------------------------------------------------------------

    def _new_round(self, now: float) -> None:
        self.round_start = now
        self.timers: dict[tuple, float] = {}
        self.passed: list[tuple[Card, float]] = []  # what I discarded, and when
        self.last_hand: list[Card] = []
        self.holds_set = False
        self.discard_choice = None
        self.moves = 0
        self.draws: Counter[int] = Counter()  # draws seen per seat this round
        self.last_draw: dict[int, float] = {}
        self.last_sizes: list[int] | None = None
        self.grab_evidence: dict[str, Any] | None = None
        self._bluff_p: float | None = None
        self.revealed_noted = False
        self.settle_noted = False
        self.bluff_at: float | None = None
        self.mimic = False
        scale = bluff_scale(self._players) if self._players else 1.0
        if self.rng.random() < self.difficulty.bluff_rate * scale:
            self.bluff_at = (
                now + self.difficulty.bluff_after + self.difficulty.bluff_span * (self.rng.random())
            )
            self.mimic = self.difficulty.mimics_sets and (
                self.difficulty.mimic_rate >= 1 or self.rng.random() < self.difficulty.mimic_rate
            )
        self.give_up_at = now + self.difficulty.give_up_after * (1 + 0.5 * self.rng.random())

    def _observe(self, view: dict[str, Any], now: float) -> list[Card]:
        players = view["players"]
        if players != self._players:
            # The bot counts on the standard deck: the only one a table deals.
            self._players = players
            deck = standard_deck(players)
            self._deck_counts = Counter(card.name for card in deck)
            self._kinds = {card.name: card.kind for card in deck}
        round_no = view.get("round_no")
        fresh = (
            (round_no is not None and round_no != self._round_no)
            or (self._last_settled and not view["settled"])
            or view["draw_pile"] > self._last_draw_pile
        )
        self._round_no = round_no
        self._last_settled = view["settled"]
        self._last_draw_pile = view["draw_pile"]
        if fresh:
            self._new_round(now)
        # A view is read-only once given (a fresh one each call, or a table's shared
        # lists), so the bot keeps its lists rather than copies: every copy was one
        # more object for a busy host's collector to walk (docs/BENCHMARKS.md).
        raw = view["hand"] or []
        if fresh or raw != self._raw_hand:
            self._raw_hand = raw
            self._hand_changed([self._card(d) for d in raw], now)
        # Others' draws, from their hand sizes.
        sizes = view["hand_sizes"]
        if not view["frozen"] and sizes != self.last_sizes:
            if self.last_sizes is not None:
                for seat, (old, new) in enumerate(zip(self.last_sizes, sizes, strict=True)):
                    if new > old:
                        self.draws[seat] += new - old
                        self.last_draw[seat] = now
            self.last_sizes = sizes
        if view["grabbed"] and self.grab_evidence is None:
            self._note_grab(view, now)
        if view["revealed"] is not None and not self.revealed_noted:
            self.revealed_noted = True
            grabber = view["grabbed"][0][0]
            self.record[(grabber, "set" if view["revealed_set"] else "bluff")] += 1
        if view["settled"] and not self.settle_noted and self.grab_evidence is not None:
            self.settle_noted = True
            self._suspect(view)
        return self.last_hand

    def _card(self, data: dict[str, str]) -> Card:
        key = (data["name"], data["kind"], data["variant"])
        card = self._cards.get(key)
        if card is None:
            card = self._cards[key] = Card(*key)
            self._kinds.setdefault(card.name, card.kind)
        return card

    def _hand_changed(self, hand: list[Card], now: float) -> None:
        # What left my hand since last time, I passed.
        if self.last_hand:
            now_keys = {_key(c) for c in hand}
            for card in self.last_hand:
                if _key(card) not in now_keys:
                    self.passed.append((card, now))
        # Situations are keyed by this count, not by the hand itself: passing on the
        # card just drawn brings back an earlier hand, but not its timers.
        self.moves += 1
        self.last_hand = hand
        self.holds_set = is_set(hand)
        self.discard_choice: Card | None = None

    def _note_grab(self, view: dict[str, Any], now: float) -> None:
        """Freeze what I knew at the moment of the first grab."""
        grabber, at = view["grabbed"][0]
        self.grab_evidence = {
            "grabber": grabber,
            "at": at,
            "draws": self.draws[grabber],
            "last_draw": self.last_draw.get(grabber),
            "hand_size": view["hand_sizes"][grabber],  # hands froze at the grab
            "age": at - self.round_start,
        }
        self._bluff_p = None

    # -- the policy --------------------------------------------------------------------

    def plan(self, view: dict[str, Any], now: float) -> Plan | None:
        """The action this bot wants next and when, or None to wait."""
        hand = self._observe(view, now)
        if view["settled"] or view.get("winner") is not None or view["hand"] is None:
            return None
        if view["frozen"]:
            return self._plan_frozen(view, now)
        if self.holds_set:
            return (self._grab, self._timer(("grab", self.moves), now))
        # The earliest of: a bluff, giving up, and passing a card.
        # Giving up looks like a set (a reaction after a draw, holding six), so it is
        # seldom called: a call lowers the table's total and stretches the match. A
        # bot that cannot draw grabs plainly, a while later.
        best: Plan = (self._grab, max(now, self.give_up_at + GIVE_UP_GRACE))
        if now >= self.give_up_at and len(hand) == HAND_MAX:
            best = (self._grab, self._timer(("give_up", self.moves), now, factor=0.5))
        scores = view.get("scores")
        # At match point a bluff is always called (see `_threshold`): no bluffing then.
        match_point = scores is not None and scores[self.seat] + 1 >= TARGET
        if self.bluff_at is not None and not match_point:
            if not self.mimic:
                best = min(best, (self._grab, max(now, self.bluff_at)), key=_when)
            elif now >= self.bluff_at and len(hand) == HAND_MAX:
                # Right after a draw, holding six: just what a true set looks like.
                best = min(best, (self._grab, self._timer(("bluff", self.moves), now)), key=_when)
        legal = legal_actions(view, self.seat)
        if "discard" in legal:
            if self.discard_choice is None:
                self.discard_choice = self.choose_discard(hand)
            at = self._timer(("discard", self.moves), now)
            if at < best[1]:
                best = (Discard(self.seat, self.discard_choice), at)
        elif "draw" in legal:
            at = self._timer(("draw", self.moves), now)
            if at < best[1]:
                best = (self._draw, at)
        return best

    def _plan_frozen(self, view: dict[str, Any], now: float) -> Plan | None:
        me = self.seat
        legal = legal_actions(view, me)
        grabber = view["grabbed"][0][0]
        wanted: list[Plan] = []
        d = self.difficulty
        if "grab" in legal:
            wanted.append((self._grab, self._timer(("race",), now, factor=d.race / d.reaction)))
        closes = view["call_closes"]
        # the window by the view, and still open at `now` (its time-out may be due)
        if (
            "call" in legal
            and now < closes
            and self.bluff_chance() > self._threshold(view, grabber)
        ):
            # Calling takes a little longer than grabbing: the bot thinks first.
            at = self._timer(("call",), now, factor=1.5)
            wanted.append((Call(me), min(at, max(now, closes - 0.05))))
        return min(wanted, key=_when) if wanted else None

    @staticmethod
    def _threshold(view: dict[str, Any], grabber: int) -> float:
        """The bluff chance above which a call pays. At match point (an uncalled grab
        wins the grabber the match) any doubt pays: a true set wins the match with or
        without my call, so a wrong call costs nothing that still counts."""
        scores = view.get("scores")
        if scores is not None and scores[grabber] + 1 >= TARGET:
            return MATCH_POINT
        return call_threshold(view["players"])

    def _timer(self, key: tuple, now: float, factor: float = 1.0) -> float:
        """When to act on the situation `key`: fixed the first time it is seen."""
        at = self.timers.get(key)
        if at is None:
            d = self.difficulty
            at = now + factor * d.reaction * (1 + d.jitter * (2 * self.rng.random() - 1))
            self.timers[key] = at
        return at

    # -- choosing what to pass ---------------------------------------------------------

    def promise(self, name: str, hand: list[Card]) -> float:
        """How promising it is to chase `name` with this hand (higher is better)."""
        held = sum(1 for card in hand if card.name == name)
        size = SET_SIZE[self._kinds.get(name, "animal")]
        score = held / size
        if self.difficulty.counts_cards:
            passed = sum(1 for card, _ in self.passed if card.name == name)
            left = self._deck_counts.get(name, size) - held - passed
            if left < size - held:
                return -1.0  # not enough copies left in play for a set
            score += 0.05 * (left - (size - held)) / size
        return score

    def choose_discard(self, hand: list[Card]) -> Card:
        """Pass a card of the least promising name, never one of the chased name."""
        scores = {name: self.promise(name, hand) for name in {card.name for card in hand}}
        # Ties go by name so the choice does not depend on the hand's order.
        worst = min(scores, key=lambda name: (scores[name], name))
        return next(card for card in hand if card.name == worst)

    # -- calling -----------------------------------------------------------------------

    def bluff_chance(self) -> float:
        """The chance that the first grab was a bluff, from the evidence this bot weighs.

        Bayes at the moment of the grab: a bluffer grabs at this moment with the chance
        `bluff_prior` (its bluffs spread over a round's draws), an honest grabber only
        when its hand just became a set, with the chance `set_likelihood`.
        """
        if self.grab_evidence is None:
            return 0.0
        if self._bluff_p is None:
            honest = self.set_likelihood()
            bluff = self.bluff_prior(self.grab_evidence["grabber"])
            self._bluff_p = 1.0 if honest <= 0 else bluff / (bluff + (1 - bluff) * honest)
        return self._bluff_p

    def bluff_prior(self, grabber: int) -> float:
        """The chance that `grabber` bluffs at one given moment (the deal, or one draw).

        A grabber is either honest, bluffing in `BLUFF_ROUNDS` of rounds, or a bluffer,
        grabbing every round whatever it holds; either spreads its bluff over about
        `DRAWS` moments. The bot starts from `SUSPECT` bluffers and, with "record",
        learns each grabber's type from every round of the match (`_suspect`)."""
        odds = SUSPECT / (1 - SUSPECT)
        if "record" in self.difficulty.evidence:
            odds = self.suspicion.get(grabber, odds)
        bluffer = odds / (1 + odds)
        return (bluffer + (1 - bluffer) * BLUFF_ROUNDS) / DRAWS

    def _suspect(self, view: dict[str, Any]) -> None:
        """A round settled: update each seat's odds of being a bluffer."""
        ev = self.grab_evidence
        assert ev is not None
        start = SUSPECT / (1 - SUSPECT)
        grabber = ev["grabber"]
        players = view["players"]
        if view["revealed"] is not None:
            # The hand itself: a bluffer rarely holds a set, an honest grab always does.
            first = 0.2 if view["revealed_set"] else 8.0
        else:
            # Uncalled: how much likelier a grab at this moment is from a bluffer (one of
            # DRAWS moments) than from an honest player (its hand just became a set).
            first = min(10.0, max(1.0, 1 / DRAWS / max(self.set_likelihood(), 1e-6)))
        # A bluffer grabs first in most rounds, an honest player in about 1 of n.
        not_first = (1 - FIRST_BLUFFER) / (1 - 1 / players)
        for seat in range(players):
            if seat == self.seat:
                continue
            odds = self.suspicion.get(seat, start)
            odds *= first if seat == grabber else not_first
            self.suspicion[seat] = min(100.0, max(start / 10, odds))

    def set_likelihood(self) -> float:
        """The chance that an honest player, grabbing only with a set, would have
        grabbed at the moment this grabber did (given what this bot knows)."""
        ev = self.grab_evidence
        if ev is None:
            return 1.0
        d = self.difficulty
        players = self._players or 2
        if ev["draws"] == 0:
            # No draw since the deal: only a dealt set is honest. Exact, from the cards
            # the bot cannot rule out (its own hand, if it weighs "cards").
            pool = self._unknown_pool(ev, use_hand="cards" in d.evidence)
            if sum(c for c, _ in pool.values()) < HAND:
                return 0.0
            return set_chance(pool, HAND)
        # A set is completed by a draw: the chance of that per draw grows as hands
        # settle on a name (measured by `python -m foolsgold.sim`, see HAZARD).
        likely = hazard(players, ev["draws"])
        if "cards" in d.evidence:
            likely *= self._set_reach(ev["grabber"], ev["at"], "passed" in d.evidence)
        if ev["hand_size"] == HAND:
            # Drew, then passed a card, then grabbed: a set completed by the draw is
            # grabbed before passing. A person may do it; a bot never would.
            likely *= 0.2
        if "timing" in d.evidence and ev["last_draw"] is not None:
            gap = ev["at"] - ev["last_draw"]
            # A set is grabbed a reaction after the draw that completed it.
            if gap > SLOW_GRAB:
                likely *= 0.3
        return likely

    def _unknown_pool(self, ev: dict[str, Any], use_hand: bool) -> dict[str, tuple[int, int]]:
        known = Counter(card.name for card in self.last_hand) if use_hand else Counter()
        return {
            name: (max(0, copies - known[name]), SET_SIZE[self._kinds[name]])
            for name, copies in self._deck_counts.items()
        }

    def _set_reach(self, grabber: int, at: float, use_passed: bool) -> float:
        """How many ways the grabber could hold a set, relative to knowing nothing.

        1.0 when my knowledge rules nothing out, 0.0 when no set is possible.
        """
        out_of_reach = Counter(card.name for card in self.last_hand)
        if use_passed and self._players:
            hops = (grabber - self.seat) % self._players
            for card, when in self.passed:
                # A card needs at least a draw and a discard per seat to travel on.
                if at - when < 0.4 * hops and card not in self.last_hand:
                    out_of_reach[card.name] += 1
        total = 0.0
        for name, copies in self._deck_counts.items():
            size = SET_SIZE[self._kinds[name]]
            left = copies - out_of_reach[name]
            total += comb(left, size) / comb(copies, size) if left >= size else 0.0
        return total / len(self._deck_counts) if self._deck_counts else 1.0


#: The share of rounds in which an honest player bluffs, the share of bluffers (who
#: grab every round) a bot assumes before any record, and the number of moments (the
#: deal and the draws) a bluff is assumed to be spread over.
BLUFF_ROUNDS = 0.02
SUSPECT = 0.01
DRAWS = 15.0
#: At match point a bot calls on any real doubt (see `Bot._threshold`).
MATCH_POINT = 0.02
#: The share of rounds a bluffer (who grabs every round) grabs first: it is beaten
#: only by a set completed before its bluff. An honest player is first in 1 of n.
FIRST_BLUFFER = 0.8
#: A bot that gave up but cannot draw grabs plainly this many seconds later.
GIVE_UP_GRACE = 30.0
#: A grab this many seconds after the grabber's last draw is slower than a set is
#: grabbed (a person's reaction is 1-2 s).
SLOW_GRAB = 4.0


def hazard(players: int, draws: int) -> float:
    """The chance that a player's `draws`-th draw of a round completes a set.

    Fitted to honest normal bots (`python -m foolsgold.sim --hazard`): it grows with
    the draws, as hands settle on a name, and falls with more seats, as the deck
    holds more names. Set a little high, so honest sets are rarely called."""
    return max(0.001, 0.0038 * players**-0.7 * min(draws, 40))


def bluff_scale(players: int) -> float:
    """How much of its bluff rate (set for a table of four) a bot plays at this table.

    Every called bluff lowers the table's total by a point, so the scores drift below
    zero and the match drags on. At a bigger table each bot bluffs less, so the table
    as a whole does not bluff more. At two seats a match is a walk of one score
    against the other, which barely ends within 40 rounds even with no calls at all
    (docs/BENCHMARKS.md), so there the bots bluff least."""
    if players <= 2:
        return TWO_SEAT_BLUFFS
    return min(1.0, 4 / players)


#: The share of its bluff rate a bot plays at two seats (see `bluff_scale`).
TWO_SEAT_BLUFFS = 0.3


def call_threshold(players: int) -> float:
    """Call when the chance of a bluff is above this: where calling beats keeping
    quiet, in my points less the average of the others' (F7, F8).

    With three or more seats the caller also takes a nugget: keeping quiet gives the
    grabber +1; a right call +1 to me and -1 to the grabber; a wrong call -1 to me
    and +1 to the grabber, so a call pays above (n-1)/2n. With two seats the one
    nugget is gone and I lose 1 whatever I do (F8): quiet is -1 to me and +1 to the
    grabber, right 0 and -1, wrong -2 and +1, so a call pays above 1/4."""
    if players <= 2:
        return 0.25
    return (players - 1) / (2 * players)
