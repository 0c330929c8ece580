"""How the Fool's Gold bots (`foolsgold.bots`) decide whether to call a grab: the
evidence they weigh, what a call is worth, the call floor, and the match's length.

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
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from math import comb

from foolsgold.cards import SET_SIZE
from foolsgold.match import TARGET

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


#: With three or more seats and "record", a call's worth as a look at a grabber's
#: hand lowers the threshold by this share while none of its hands was shown (then
#: by half of it after one, a third after two, ...).
EXPLORE = 0.3
#: At match point a bot calls on any real doubt (see `Bot._threshold`).
MATCH_POINT = 0.02
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


def set_reach(deck: Mapping[str, int], kinds: Mapping[str, str],
              out_of_reach: Mapping[str, int]) -> float:
    """How many ways a player could hold a set, relative to knowing nothing: the mean
    over the deck's names (``deck``: copies of each; ``kinds``: each name's kind) of the
    chance that a set of it is still whole, with the copies ``out_of_reach`` known
    elsewhere. 1.0 when that rules nothing out, 0.0 when no set is possible."""
    total = 0.0
    for name, copies in deck.items():
        size = SET_SIZE[kinds[name]]
        left = copies - out_of_reach.get(name, 0)
        total += comb(left, size) / comb(copies, size) if left >= size else 0.0
    return total / len(deck) if deck else 1.0
