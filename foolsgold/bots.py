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

The calling model (what a card player reads at a table, from its own view only):

    P(bluff | grab) = b / (b + (1 - b) * h)

- `b = bluff_rate(g) / DRAWS` is the chance that the grabber g bluffs at this one
  moment (the deal or one draw): g's share of first grabs that are bluffs, spread
  over a round's moments. `bluff_rate` is a Beta posterior from g's record at this
  table (`SeatRecord`): the prior `PRIOR_RATE` worth `PRIOR_GRABS` grabs, plus every
  round this bot watched: g's caught bluffs, each of its uncalled first grabs weighed
  by the bluff chance it had, or, when more, its first grabs beyond an honest
  player's share of 1 in n rounds (a seat that got away with bluffs grabs first too
  often), capped by the grabs not shown to be sets. So a player who has been caught,
  or who wins too many rounds uncalled, is judged by it; one shown to hold sets
  is trusted.
- `h = set_likelihood()` is the chance that an honest player, grabbing only with a
  set, grabs at this moment: with no draw since the deal, the exact chance of a
  dealt set among the cards the bot cannot place (`set_chance`); after k draws, the
  per-draw chance that a draw completes a set (`hazard`: it grows with the cards the
  grabber could have seen, 5 + k, and falls with more seats), times the share of sets
  still within the grabber's reach (`_set_reach`): the cards that went through this
  bot's own hands (its hand; with "passed", what it passed too recently to have
  travelled round). What the grabber passed, when the grabber is its right neighbour
  (every card this bot drew came from it, F4; a player who passed an Owl holds no Owl
  set, as an animal has three copies), counts only when it leaves the grabber no set
  at all: a player passes the names it is not collecting, so an honest grabber's
  passes say nothing against the set it does collect. A grab holding five after a
  draw (x0.2) or long after the last draw (x0.3) is less like a set.
- The scores: at the grabber's match point any doubt is called (`MATCH_POINT`); a bot
  never bluffs at its own match point.

The cost of a wrong call (F7, F8, F12), in the caller's points less the others' average
(`call_threshold`): with three or more seats a right call swings +1 to me and -1 to
the grabber against keeping quiet's +1 to the grabber, a wrong call costs me 1, so a
call pays when P(bluff) > (n-1)/2n (3/8 at four seats). At two seats (F12: nobody
loses a nugget there) keeping quiet is 0 to me and +1 to the grabber, a right call
+1 and -1, a wrong one -1 and +1: a call pays when 4p - 2 > -1, above 1/4. Two
refinements: with three or more seats a call is also a look at the grabber's hand for
the whole table, worth most while none of its hands was shown (`EXPLORE`); at two
seats the scores say how near each player is to winning, so there the threshold
weighs the match's odds and length from them (`two_seat_threshold`).

The call floor (`seat_floor`, normal and hard). Evidence cannot tell a bluff timed
like a set (right after a draw, holding six, a reaction later) from a set, so above
the evidence calling is a mixed strategy, as poker's minimum defence frequency is:
the table calls a first grab at least often enough that a bluff there pays no more
than playing on honestly. In points relative to the others' average (what decides
who reaches 3 first), at n seats, for the grabber:

- an uncalled bluff: +1 to it, -1 to the one seat left without a nugget, so
  +1 + 1/(n-1) = n/(n-1) relative;
- a called bluff: -1 to it, +1 to the caller, -1 to the seat without a nugget, so
  -1 relative (the others' average moves by 0);
- playing on honestly: 0 relative. Before the first grab nobody holds a set (or it
  would have grabbed), so every seat's prospects from here are alike, at every moment
  of the round: the deal, after any number of draws, holding five or six.

A bluff pays no more than playing on when (1 - c) n/(n-1) - c <= 0, that is when the
table calls with c >= n/(2n-1) (`table_floor`: 4/7 at four seats, 8/15 at eight).
Each of the other n-1 seats calls on its own with q = 1 - (1-c)^(1/(n-1)) (0.25 a
seat at four seats, 0.10 at eight), drawn once a round from the bot's rng; the
evidence (`bluff_chance` above `_threshold`) only adds calls to that.

At two seats (F12) nobody is left to lose a nugget, so for the grabber against the
other player:

- an uncalled bluff: +1 to it, 0 to the other, so +1 relative;
- a called bluff: -1 to it, +1 to the caller, so -2 relative;
- playing on honestly: 0 relative, as above.

A bluff pays no more than playing on when (1 - c) - 2c <= 0, that is c >= 1/3, and
the one other seat calls with q = c = 1/3. (Under F8 at two a called bluff was -1 to
it and 0 to the caller, -1 relative, and an uncalled one +2: the floor was 2/3, and a
right call never gained the caller a point; see F12 in the rulings.)

The moment changes the floor in two places: at the grabber's match point an uncalled
bluff wins the match, so the floor is 1 (a set wins with or without the call: calling
costs nothing there); and the match's length (below) switches it off.

The length. Every call, right or wrong, lowers the table's score sum by 1 (an
uncalled round moves it by 0), and a match ends only when one score reaches 3: a
floor on every grab stretches matches past bearing (a table calling 4/7 of grabs at
four seats leaves about a fifth of matches unended at 40 rounds, by a walk of the
scores; 2/3 at two seats leaves two fifths). So the floor holds while the table's
sum is not below 0, which gives each match about one floor call's worth of
exposure, after which what it revealed (the grabber's record) carries the calling,
but against a grabber the table has caught bluffing: there the floor holds on however
far the sum has sunk. A caught bluffer is the one seat the sink's length is owed to,
and the record alone lets a bluffer who bluffs every round at a set's moment go on
winning about twice its fair share at eight seats once the sum sinks (issue 57: 25.0%
and 24.7% against normal and hard, fair 12.5%; with the floor kept, 9.0% and 16.0%).
The same weighing holds the calls of evidence at three or more seats: once the sum is
below 0, the room above the call threshold shrinks by `SINK` for every point a seat
the table has sunk, except against a grabber already caught bluffing here (without
it one four-seat match in ten between normal bots ran past 40 rounds, against one in
a hundred at 1f52ac0; with it about one in thirty).

At two seats under F12 the sum never sinks: a round with no call adds 1 to it, a call
(right or wrong) 0, so every round brings one player a point nearer to 3 and the
weighing, kept in the same words, never switches the floor off. There a floor costs
little length: in a walk of the scores with one player grabbing a set each round
(each half the time), a match lasts 4.1 rounds on average with no calls, 4.7 with a
third of grabs called, 5.9 with two thirds, and none of 200,000 runs past 40 rounds
at any of them (under F8 a third of grabs called left about a fifth of matches
unended). The two-seat threshold of the evidence weighs the length in its own way
(`two_seat_threshold`, `LENGTH_COST`).

Difficulty (`DIFFICULTIES`) sets the reaction time, the bluff rate, how many bluffs
pass for a set, which evidence the bot weighs, how willing it is to call, and (easy)
how often it calls on a hunch. `PLAYERS` adds `HUMAN`, a scripted person acting in
1.2-1.8 s, for the simulator.
"""

from __future__ import annotations

import functools
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
    #: hand, and what the grabber passed it), "passed" (cards it passed that cannot
    #: have reached the grabber yet), "timing" (how long after its last draw the
    #: grabber grabbed), "record" (the grabber's record at this table, `SeatRecord`)
    evidence: frozenset[str]
    #: bluffs only right after a draw, holding six, as a true set would show
    mimics_sets: bool
    #: picks the name to chase using what it passed and what is left of each name
    counts_cards: bool
    #: grabs with no set after this long without one (so no round runs for ever)
    give_up_after: float
    #: of its planned bluffs, the share that mimic a set (with `mimics_sets`)
    mimic_rate: float = 1.0
    #: when above 0, reaction times are lognormal with median `reaction` and this
    #: sigma (a person), instead of uniform within `jitter`
    sigma: float = 0.0
    #: calls at least at the call floor (`seat_floor`), whatever the evidence says
    floor: bool = False
    #: at two seats every reaction is this share of its time elsewhere: there one
    #: player's pace sets the other's supply of cards, so speed weighs more
    two_seat_pace: float = 1.0
    #: when above 0, meets a much quicker racer seen at this table (`RACE_FAST`) by
    #: racing quicker than it, down to this many seconds
    race_floor: float = 0.0


# Speeds are set so a person has a fair fight with normal (bench/foolsgold_farming.py:
# a modelled person, median reaction 0.9 s, sigma 0.4, wins about a fair share against
# normal at two and four seats, well above it against easy, clearly below against
# hard): easy is slower than a person; normal a little slower at four seats (1.15 s)
# and as quick at two (x0.78, 0.9 s), where one player's pace feeds the other's
# draws; hard quicker, with more bluffs that look like sets and more evidence. The
# calling rule is the same for every difficulty (`Bot.bluff_chance`, `call_threshold`,
# the floor of normal and hard); difficulty only adds evidence on top of the core.
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
        reaction=1.15,
        jitter=0.25,
        race=1.15,
        bluff_rate=0.08,
        bluff_after=30.0,
        bluff_span=40.0,
        evidence=frozenset({"cards", "timing", "record"}),
        mimics_sets=True,
        counts_cards=True,
        give_up_after=150.0,
        mimic_rate=0.5,
        race_floor=0.45,
        floor=True,
        two_seat_pace=0.78,
    ),
    "hard": Difficulty(
        name="hard",
        reaction=1.0,
        jitter=0.25,
        race=0.95,
        bluff_rate=0.08,
        bluff_after=15.0,
        bluff_span=40.0,
        evidence=frozenset({"cards", "timing", "record", "passed"}),
        mimics_sets=True,
        counts_cards=True,
        give_up_after=150.0,
        mimic_rate=0.8,
        race_floor=0.35,
        floor=True,
        two_seat_pace=0.78,
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


def person(median: float, sigma: float = 0.4) -> Difficulty:
    """A modelled person for the simulator: honest, with the card sense of `HUMAN`,
    and reaction times lognormal with this median and sigma (seat it as
    ``person0.9`` in `foolsgold.sim`)."""
    return HUMAN.__class__(**{
        **HUMAN.__dict__, "name": f"person{median:g}", "reaction": median, "race": median,
        "sigma": sigma,
    })


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
        out_of_reach = Counter(
            card.name for card in self.seen_out_of_reach(grabber, at, use_passed, its_passes)
        )
        total = 0.0
        for name, copies in self._deck_counts.items():
            size = SET_SIZE[self._kinds[name]]
            left = copies - out_of_reach[name]
            total += comb(left, size) / comb(copies, size) if left >= size else 0.0
        return total / len(self._deck_counts) if self._deck_counts else 1.0


#: The number of moments (the deal and the draws) a bluff is assumed to be spread over.
DRAWS = 15.0
#: Before any record, this share of a grabber's first grabs is taken for bluffs
#: (about what the bots themselves do), with the weight of this many grabs.
PRIOR_RATE = 0.05
PRIOR_GRABS = 3.0
#: First grabs beyond an honest share count as bluffs only past this many standard
#: deviations of an honest player's luck.
EXCESS_Z = 1.0


@dataclass
class SeatRecord:
    """One seat's grabs at this table, as one bot watched them (its "record")."""

    rounds: int = 0  # rounds settled
    firsts: int = 0  # of them, the seat grabbed first
    caught: int = 0  # ... and was called holding no set
    shown: int = 0  # ... and was called holding a set
    uncalled: int = 0  # ... and was not called
    uncalled_bluff: float = 0.0  # the bluff chances those uncalled grabs had

    def rate(self, players: int) -> float:
        """The posterior mean share of the seat's first grabs that are bluffs (see
        `Bot.bluff_rate`)."""
        n = max(players, 2)
        honest = self.rounds / n
        luck = EXCESS_Z * (self.rounds * (1 / n) * (1 - 1 / n)) ** 0.5
        excess = (n * (self.firsts - luck) - self.rounds) / (n - 1)
        bluffs = max(
            self.caught + self.uncalled_bluff,
            min(excess, self.caught + self.uncalled) if self.firsts > honest else 0.0,
        )
        return (PRIOR_RATE * PRIOR_GRABS + bluffs) / (PRIOR_GRABS + self.firsts)


#: A bot with `race_floor` meets a racer quicker than this share of its own `race`
#: by racing `RACE_EDGE` quicker than it (so a machine-quick seat farms no table).
RACE_FAST = 0.7
RACE_EDGE = 0.1
#: With three or more seats and "record", a call's worth as a look at a grabber's
#: hand lowers the threshold by this share while none of its hands was shown (then
#: by half of it after one, a third after two, ...).
EXPLORE = 0.3
#: At match point a bot calls on any real doubt (see `Bot._threshold`).
MATCH_POINT = 0.02
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


#: At two seats, what one more expected round of the match is worth against the
#: chance of winning it (see `two_seat_threshold`).
LENGTH_COST = 0.02


@functools.cache
def two_seat_race(need: int, other: int) -> tuple[float, float]:
    """At two seats under F12, honest play: every round gives one of the two players
    a point, each half the time. My chance to gain `need` points before the other
    gains `other`, and the rounds that takes on average."""
    if need <= 0:
        return 1.0, 0.0
    if other <= 0:
        return 0.0, 0.0
    mine, after_mine = two_seat_race(need - 1, other)
    theirs, after_theirs = two_seat_race(need, other - 1)
    return (mine + theirs) / 2, 1 + (after_mine + after_theirs) / 2


def two_seat_threshold(mine: int, theirs: int) -> float:
    """The bluff chance above which a call pays at two seats, weighing the match's
    odds and length (issues 34, 57).

    Under F12 every round gives one player a point: with honest play from scores s
    and o the match is a race of T-s points against T-o (`two_seat_race`: my chance
    to win it, and its rounds). Keeping quiet leads to (s, o+1), a right call to
    (s+1, o-1), a wrong one to (s-1, o+1); a call pays when it raises my chance of
    winning less `LENGTH_COST` per round left. At level scores early in a match that
    is about 1/5; when the grabber nears 3 the call is worth more (at match point any
    doubt is called, `MATCH_POINT`)."""

    def value(s: int, o: int) -> float:
        win, rounds = two_seat_race(TARGET - s, TARGET - o)
        return win - LENGTH_COST * rounds

    quiet, right, wrong = value(mine, theirs + 1), value(mine + 1, theirs - 1), value(
        mine - 1, theirs + 1
    )
    if right <= wrong:
        return 1.0
    return min(1.0, max(MATCH_POINT, (quiet - wrong) / (right - wrong)))


def call_threshold(players: int) -> float:
    """Call when the chance of a bluff is above this: where calling beats keeping
    quiet, in my points less the average of the others' (F7, F8, F12).

    With three or more seats the caller also takes a nugget: keeping quiet gives the
    grabber +1; a right call +1 to me and -1 to the grabber; a wrong call -1 to me
    and +1 to the grabber, so a call pays above (n-1)/2n. With two seats nobody loses
    a nugget (F12): quiet is 0 to me and +1 to the grabber, right +1 and -1, wrong -1
    and +1, so a call pays when 4p - 2 > -1, above 1/4."""
    if players <= 2:
        return 0.25
    return (players - 1) / (2 * players)


def table_floor(players: int) -> float:
    """The minimum defence frequency at `players` seats: the share of set-like first
    grabs the table as a whole calls, so that a bluff pays no more than playing on
    honestly (the derivations are in the module docstring): n / (2n - 1) from three
    seats up, 1/3 at two (F12: no nugget to lose there)."""
    if players <= 2:
        return TWO_SEAT_FLOOR
    return players / (2 * players - 1)


#: The table's floor at two seats (F12; the derivation is in the module docstring).
TWO_SEAT_FLOOR = 1 / 3


def seat_floor(players: int, scores: list[int] | None, grabber: int,
               caught: bool = False) -> float:
    """The chance that this seat calls a first grab whatever the evidence says: its
    share q of the table's floor, each of the other n - 1 seats calling on its own,
    so that 1 - (1 - q)^(n - 1) = `table_floor` (see the module docstring).

    At the grabber's match point every grab is called (a set wins the match with or
    without the call, so the call costs nothing). Otherwise the floor holds while the
    table's score sum has not sunk below 0 (every call lowers it by 1 from three seats
    up, and a sunk table is a long match; at two seats under F12 it never sinks, and
    the floor costs a match little length: see the module docstring), or, sunk or
    not, against a grabber this bot has seen ``caught`` bluffing here."""
    if scores is not None and scores[grabber] + 1 >= TARGET:
        return 1.0
    if scores is not None and sum(scores) < 0 and not caught:
        return 0.0
    table = table_floor(players)
    if players <= 2:
        return table
    return 1 - (1 - table) ** (1 / (players - 1))



#: With three or more seats, once the table's score sum is below 0 the room above the
#: call threshold shrinks by this factor for every point a seat the sum has sunk
#: (see `Bot._threshold`).
SINK = 0.75
