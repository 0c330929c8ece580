"""Real-time bots for Fool's Gold.

A `Bot` sees only `view(seat)` (of a `Round` or a `Match`) and answers
`plan(view, now) -> (action, at) | None`: the action it wants and the time it wants
it applied. The driver (the host, or `foolsgold.sim` on a virtual clock) calls `plan`
after every change of the seat's view, keeps only the newest plan, applies the action
at `at` if it is still legal, and calls `plan` again.

Plans are stable: a bot decides when it first sees a situation ("my hand is now these
six cards", "someone grabbed") and keeps that time on later calls, so re-planning on
unrelated changes never postpones an action. The bot's own `random.Random` sets only
reaction times and whether it bluffs this round; calls come from evidence.

The calling model (the evidence, what a call is worth, the call floor, the match's
length) is `foolsgold.calling`; how well each bot plays, `foolsgold.levels`.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from foolsgold.actions import HAND, HAND_MAX, Action, Call, Discard, Draw, Grab, legal_actions
from foolsgold.calling import (
    DRAWS,
    EXPLORE,
    MATCH_POINT,
    PRIOR_RATE,
    SINK,
    SLOW_GRAB,
    SeatRecord,
    bluff_scale,
    call_threshold,
    hazard,
    seat_floor,
    set_reach,
    two_seat_threshold,
)
from foolsgold.cards import SET_SIZE, Card, is_set, set_chance, standard_deck
from foolsgold.levels import GIVE_UP_GRACE, PLAYERS, RACE_EDGE, RACE_FAST, Difficulty
from foolsgold.match import TARGET

Plan = tuple[Action, float]


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
        #: per seat, its grabs at this table as this bot saw them ("record")
        self.table: dict[int, SeatRecord] = {}
        #: per seat, its seconds from the first grab to its own grab, at this table
        self.race_times: dict[int, list[float]] = {}
        self._round_no: object = None
        self._last_settled = True
        self._last_draw_pile = -1
        self._players = 0
        self._deck_counts: Counter[str] = Counter()
        self._kinds: dict[str, str] = {}
        self._cards: dict[tuple[str, str, str], Card] = {}
        self._raw_hand: list[dict[str, str]] = []
        self._start = -1
        self._new_round(0.0)

    # -- memory ------------------------------------------------------------------------

    def _new_round(self, now: float) -> None:
        self.round_start = now
        self.timers: dict[tuple, float] = {}
        self.passed: list[tuple[Card, float]] = []  # what I discarded, and when
        self.drawn: list[Card] = []  # what I drew this round
        self.last_hand: list[Card] = []
        self.holds_set = False
        self.discard_choice = None
        self.moves = 0
        self.draws: Counter[int] = Counter()  # draws seen per seat this round
        self.last_draw: dict[int, float] = {}
        self.last_sizes: list[int] | None = None
        self.grab_evidence: dict[str, Any] | None = None
        self._bluff_p: float | None = None
        self._floor_draw: float | None = None
        self.revealed_noted = False
        self.settle_noted = False
        self.race_noted = False
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
        self._start = view["start"]
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
        if view["settled"] and not self.race_noted and view["grabbed"]:
            self.race_noted = True
            first_at = view["grabbed"][0][1]
            for seat, at in view["grabbed"][1:]:
                if seat != self.seat:
                    self.race_times.setdefault(seat, []).append(at - first_at)
        if view["revealed"] is not None and not self.revealed_noted:
            self.revealed_noted = True
            grabber = view["grabbed"][0][0]
            self.record[(grabber, "set" if view["revealed_set"] else "bluff")] += 1
        if view["settled"] and not self.settle_noted and self.grab_evidence is not None:
            self.settle_noted = True
            self._note_settled(view)
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
            old_keys = {_key(c) for c in self.last_hand}
            self.drawn.extend(c for c in hand if _key(c) not in old_keys)
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
            "draw_pile": view["draw_pile"],
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
            race = self._timer(("race",), now, factor=self.race() / d.reaction)
            wanted.append((self._grab, race))
        closes = view["call_closes"]
        # the window by the view, and still open at `now` (its time-out may be due)
        if "call" in legal and now < closes and self.wants_call(view, grabber):
            # Calling takes a little longer than grabbing: the bot thinks first.
            at = self._timer(("call",), now, factor=1.5)
            wanted.append((Call(me), min(at, max(now, closes - 0.05))))
        return min(wanted, key=_when) if wanted else None

    def wants_call(self, view: dict[str, Any], grabber: int) -> bool:
        """Call when the evidence says so (`bluff_chance` above `_threshold`), and
        otherwise still at this seat's share of the call floor (`seat_floor`, which a
        grabber caught bluffing here keeps on at a sunk table): one draw of the bot's
        rng a round, so the choice is stable on re-planning."""
        if self.bluff_chance() > self._threshold(view, grabber):
            return True
        if not self.difficulty.floor:
            return False
        if self._floor_draw is None:
            self._floor_draw = self.rng.random()
        rec = self.table.get(grabber)
        caught = rec is not None and rec.caught > 0
        return self._floor_draw < seat_floor(view["players"], view.get("scores"), grabber,
                                             caught)

    def race(self) -> float:
        """Mean seconds from the first grab to mine: the difficulty's `race`, or, with
        `race_floor`, quicker than the quickest racer seen here (its median)."""
        d = self.difficulty
        if d.race_floor <= 0 or not self.race_times:
            return d.race
        quickest = min(sorted(t)[len(t) // 2] for t in self.race_times.values())
        if quickest >= RACE_FAST * d.race:
            return d.race  # a fair fight: no quicker than the table's own pace
        return max(d.race_floor, quickest - RACE_EDGE)

    def _threshold(self, view: dict[str, Any], grabber: int) -> float:
        """The bluff chance above which a call pays. At match point (an uncalled grab
        wins the grabber the match) any doubt pays: a true set wins the match with or
        without my call, so a wrong call costs nothing that still counts. At two
        seats with the scores known, the match's odds and length decide
        (`two_seat_threshold`)."""
        scores = view.get("scores")
        if scores is not None and scores[grabber] + 1 >= TARGET:
            return MATCH_POINT
        if scores is not None and view["players"] == 2:
            return two_seat_threshold(scores[self.seat], scores[grabber])
        threshold = call_threshold(view["players"])
        if scores is not None and "record" in self.difficulty.evidence:
            # In a match, a call also shows everyone the grabber's hand, and the record it starts
            # is worth most while the table has seen none of this grabber's hands.
            rec = self.table.get(grabber)
            shown = 0 if rec is None else rec.caught + rec.shown
            threshold *= 1 - EXPLORE / (1 + shown)
        rec = self.table.get(grabber)
        if scores is not None and sum(scores) < 0 and (rec is None or rec.caught == 0):
            # Every call lowers the table's sum by a point, and a sunk table is a long
            # match: the deeper it has sunk, the surer a call must be, but for a
            # grabber already caught bluffing here.
            sunk = -sum(scores) / view["players"]
            threshold = 1 - (1 - threshold) * SINK ** sunk
        return threshold

    def _timer(self, key: tuple, now: float, factor: float = 1.0) -> float:
        """When to act on the situation `key`: fixed the first time it is seen."""
        at = self.timers.get(key)
        if at is None:
            d = self.difficulty
            if self._players == 2:
                factor *= d.two_seat_pace
            if d.sigma > 0:
                at = now + factor * d.reaction * self.rng.lognormvariate(0.0, d.sigma)
            else:
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
        """The chance that `grabber` bluffs at one given moment (the deal, or one draw):
        its bluff rate per round (`bluff_rate`) spread over about `DRAWS` moments."""
        return self.bluff_rate(grabber) / DRAWS

    def bluff_rate(self, grabber: int) -> float:
        """The share of `grabber`'s first grabs that are bluffs, from its record here.

        A Beta prior (`PRIOR_RATE`, worth `PRIOR_GRABS` grabs) updated by every round
        this bot watched: its bluffs are the caught ones, plus each uncalled first grab
        weighed by the bluff chance it had, or, when more, its first grabs beyond an
        honest player's share (1 in n of the rounds, less `EXCESS_Z` standard
        deviations of luck), capped by the grabs not shown to be sets. Without
        "record" a bot judges every grabber by the prior."""
        if "record" not in self.difficulty.evidence:
            return PRIOR_RATE
        rec = self.table.get(grabber)
        if rec is None or rec.rounds == 0:
            return PRIOR_RATE
        return rec.rate(self._players or 2)

    def _note_settled(self, view: dict[str, Any]) -> None:
        """A round settled: add it to every other seat's record at this table."""
        ev = self.grab_evidence
        assert ev is not None
        grabber = ev["grabber"]
        chance = self.bluff_chance() if grabber != self.seat else 0.0  # before this round
        for seat in range(view["players"]):
            if seat != self.seat:
                self.table.setdefault(seat, SeatRecord()).rounds += 1
        if grabber == self.seat:
            return
        rec = self.table[grabber]
        rec.firsts += 1
        if view["revealed"] is not None:
            if view["revealed_set"]:
                rec.shown += 1
            else:
                rec.caught += 1
        else:
            rec.uncalled += 1
            rec.uncalled_bluff += chance

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
            # What the grabber passed me rules a name out only as a whole: a player
            # passes the names it is not collecting, so an honest grabber's passes
            # say nothing about the set it holds, unless they leave it none.
            if self._set_reach(ev["grabber"], ev["at"], "passed" in d.evidence, True) <= 0:
                return 0.0
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

    def seen_out_of_reach(
        self, grabber: int, at: float, use_passed: bool, its_passes: bool = True
    ) -> set[Card]:
        """The cards this bot knows the grabber did not hold when it grabbed: its own
        hand; the cards the grabber passed that this bot drew (when the grabber is its
        right neighbour and this bot is not the start player, every card it draws
        comes from the grabber, F4); and, with `use_passed`, the cards it passed too
        recently to have travelled round to the grabber."""
        out = set(self.last_hand)
        players = self._players
        ev = self.grab_evidence or {}
        from_grabber = (
            players and grabber == (self.seat - 1) % players and self.seat != self._start
        )
        if from_grabber and not its_passes:
            # the grabber chose to pass these: no evidence against the set it collects
            out.difference_update(self.drawn)
        if from_grabber and its_passes and ev.get("draw_pile", 1) > 0:
            # while the draw pile lasts, what I passed on cannot come back round to
            # the grabber through the trash pile (F4)
            out.update(self.drawn)
        if use_passed and players:
            hops = (grabber - self.seat) % players
            for card, when in self.passed:
                # A card needs at least a draw and a discard per seat to travel on.
                if at - when < 0.4 * hops:
                    out.add(card)
        return out

    def _set_reach(
        self, grabber: int, at: float, use_passed: bool, its_passes: bool = False
    ) -> float:
        """How many ways the grabber could hold a set, relative to knowing nothing.

        1.0 when my knowledge rules nothing out, 0.0 when no set is possible.
        """
        out = self.seen_out_of_reach(grabber, at, use_passed, its_passes)
        return set_reach(self._deck_counts, self._kinds, Counter(card.name for card in out))

