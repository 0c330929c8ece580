"""One round of Fool's Gold as a pure state machine (rulings F3-F9, F11, F12).

How a round runs::

    deal (F3) ── passing: Draw / Discard interleave freely (F4, F5)
                   │
                 first Grab: hands freeze, the race and the call window open (F6, F7)
                   │
      race over: last nugget taken, or the grab time-out  ─┐
      call made, or the call window closed                 ─┴─► settled (F9)

Time comes in as `now` (seconds, the host's clock); every `apply` first applies the
time-outs due at `now`, so an action arriving at or after a deadline is judged after
that time-out took effect (F9). Nothing here reads a clock or draws a random number.

What is legal is written once, as functions of a view (`foolsgold.actions`:
`legal_actions` and its `_why_not_*` checks): `Round.apply` judges every action by them
on its own view, and bots, the host and the app ask `legal_actions` of the views they
hold.

Events returned by `apply` (JSON-safe dicts, public information only):

- `{"type": "drew", "seat": s, "pile": "draw" | "trash" | "incoming"}`: never the card.
- `{"type": "discarded", "seat": s, "pile": "incoming" | "trash", "to": t | None}`:
  onto seat t's incoming pile, or onto the trash pile (`to` is None).
- `{"type": "grabbed", "seat": s, "at": t, "order": k, "nuggets_left": n, "lag": l}`:
  k from 1; the first grab freezes every hand. `t` is `now`, or the action's own `at`
  when the host corrected it for network delay, and `l` that correction in seconds
  (the key is left out when it is 0).
- `{"type": "called", "seat": s, "at": t, "grabber": g, "lag": l}`: "Fool's Gold!"
  (`t` and `l` as for a grab).
- `{"type": "revealed", "seat": g, "hand": [card, ...], "set": bool}`: the first
  grabber's hand, right after a call.
- `{"type": "call_window_closed", "at": t}`: at the time-out, not at `now`.
- `{"type": "race_over", "at": t, "reason": "nuggets" | "timeout", "without": [s, ...]}`:
  `without` lists the seats left without a nugget.
- `{"type": "settled", "deltas": [d, ...], "scorer": s}`: the round's points by seat;
  `scorer` gained the round's point (F10).

Versions of the rules (`rules`): how a round settles changed once, so a game records the
version it was played under and replays by it (`RULES` is the version played now).

- 1: F7 and F8 at every table: at two seats the player without the nugget loses 1
  whatever else happened, so a right call nets the caller 0.
- 2 (F12): at two seats F8 does not apply. A round gives the grabber +1 when not
  called; a right call gives the caller +1 and the grabber -1; a wrong one the grabber
  +1 and the caller -1. From three seats up nothing changed.
"""

from __future__ import annotations

from typing import Any

from foolsgold.actions import (
    _WHY_NOT,
    HAND,
    Action,
    Call,
    Discard,
    Draw,
    Grab,
    IllegalAction,
    Tick,
    check_seat,
    draw_source,
)
from foolsgold.cards import Card, _check_players, check_deck, is_set

GRAB_TIMEOUT = 10.0
CALL_WINDOW = 5.0
#: the version of the rules played now (see the module docstring), and every version
#: a round can be played under: a game saved under an earlier one replays by it
RULES = 2
VERSIONS = (1, 2)


def check_rules(rules: object) -> int:
    """`rules` as a version of the rules this package plays; raises ValueError."""
    if isinstance(rules, bool) or not isinstance(rules, int) or rules not in VERSIONS:
        raise ValueError(
            f"rules must be a version of Fool's Gold's rules, "
            f"{' or '.join(map(str, VERSIONS))}, not {rules!r}"
        )
    return rules


def no_nugget_costs(players: int, rules: int = RULES) -> bool:
    """Whether a seat left without a nugget loses 1 (F8): from three seats up, and at
    two under the rules before F12 (version 1)."""
    return players > 2 or rules < 2


class Round:
    """One round: deal, pass, grab, call, settle.

    `Round(players, start, deck)` deals `deck` in the given order: `deck[0:5]` to
    `start`, the next five to its left neighbour, and so on; the rest is the draw
    pile with `deck[5 * players]` on top. Piles are lists with the top card last.
    `rules` is the version of the rules it settles by (`RULES`, or an earlier one for
    a game saved under it).
    """

    def __init__(
        self,
        players: int,
        start: int,
        deck: list[Card],
        grab_timeout: float = GRAB_TIMEOUT,
        call_window: float = CALL_WINDOW,
        rules: int = RULES,
    ) -> None:
        _check_players(players)
        self.rules = check_rules(rules)
        if isinstance(start, bool) or not isinstance(start, int) or not 0 <= start < players:
            raise ValueError(f"start must be a seat from 0 to {players - 1}, not {start!r}")
        deck = check_deck(deck)
        if len(deck) < HAND * players:
            raise ValueError(
                f"a deck of {len(deck)} cards cannot deal {HAND} to each of {players} players"
            )
        for label, value in (("grab_timeout", grab_timeout), ("call_window", call_window)):
            if isinstance(value, bool) or not isinstance(value, int | float) or value <= 0:
                raise ValueError(f"{label} must be a positive number of seconds, not {value!r}")
        self.players = players
        self.start = start
        self.grab_timeout = float(grab_timeout)
        self.call_window = float(call_window)
        self.hands: list[list[Card]] = [[] for _ in range(players)]
        for i in range(players):
            self.hands[(start + i) % players] = deck[HAND * i : HAND * (i + 1)]
        self.incoming: list[list[Card]] = [[] for _ in range(players)]
        self.draw_pile: list[Card] = deck[HAND * players :][::-1]
        self.trash_pile: list[Card] = []
        self.nuggets_left = players - 1
        self.grabbed: list[int] = []
        self.grab_times: list[float] = []
        self.grab_lags: list[float] = []
        self.caller: int | None = None
        self.race_over = False
        self.window_closed = False
        self.settled = False
        self.deltas: list[int] | None = None
        self.scorer: int | None = None
        self.race_closes: float | None = None
        self.call_closes: float | None = None
        self.clock: float | None = None

    def __repr__(self) -> str:
        # No cards: a repr may end up in a log that other players read.
        return (
            f"<Round players={self.players} start={self.start} "
            f"hands={[len(hand) for hand in self.hands]} draw_pile={len(self.draw_pile)} "
            f"trash_pile={len(self.trash_pile)} grabbed={self.grabbed} caller={self.caller} "
            f"settled={self.settled}>"
        )

    # -- reading -----------------------------------------------------------------------

    @property
    def frozen(self) -> bool:
        """A nugget was grabbed: no more draws or discards."""
        return bool(self.grabbed)

    @property
    def deadline(self) -> float | None:
        """The time at which the round next changes on its own, or None."""
        if self.settled:
            return None
        due = []
        if self.race_closes is not None and not self.race_over:
            due.append(self.race_closes)
        if self.call_closes is not None and not self.window_closed and self.caller is None:
            due.append(self.call_closes)
        return min(due) if due else None

    @property
    def revealed(self) -> list[Card] | None:
        """The first grabber's hand once someone called, else None."""
        if self.caller is None:
            return None
        return list(self.hands[self.grabbed[0]])

    def left_of(self, seat: int) -> int:
        """The next seat clockwise, whose incoming pile `seat` discards onto."""
        return (seat + 1) % self.players

    def discard_target(self, seat: int) -> int | None:
        """Whose incoming pile `seat` discards onto; None for the trash pile (F4)."""
        left = self.left_of(seat)
        return None if left == self.start else left

    def draw_source(self, seat: int) -> str:
        """The pile `seat` draws from now: "draw", "trash" or "incoming"."""
        return draw_source(self.view(None), seat)

    def can_draw(self, seat: int) -> bool:
        """Whether `Draw(seat)` would be legal now (ignoring time-outs not yet applied)."""
        try:
            self._judge("draw", seat)
        except IllegalAction:
            return False
        return True

    def view(self, seat: int | None) -> dict[str, Any]:
        """What `seat` may see (F11); `None` is a spectator. JSON-safe."""
        if seat is not None and (
            seat.__class__ is not int or not 0 <= seat < self.players  # the fast, common case
        ):
            self._check_seat(seat)
        revealed = self.revealed
        return {
            "game": "foolsgold",
            "seat": seat,
            "players": self.players,
            "start": self.start,
            "hand": None if seat is None else [card.to_dict() for card in self.hands[seat]],
            "hand_sizes": [len(hand) for hand in self.hands],
            "incoming_sizes": [len(pile) for pile in self.incoming],
            "draw_pile": len(self.draw_pile),
            "trash_pile": len(self.trash_pile),
            "nuggets_left": self.nuggets_left,
            "grabbed": [[s, t] for s, t in zip(self.grabbed, self.grab_times, strict=True)]
            if self.grabbed
            else [],
            **self._lags_view(),
            "caller": self.caller,
            "revealed": None if revealed is None else [card.to_dict() for card in revealed],
            "revealed_set": None if revealed is None else is_set(revealed),
            "frozen": self.frozen,
            "deadline": self.deadline,
            "call_closes": self.call_closes,
            "settled": self.settled,
            "deltas": None if self.deltas is None else list(self.deltas),
        }

    def _lags_view(self) -> dict[str, Any]:
        # only when some grab was corrected, so the views of uncorrected rounds (and
        # of every save made before lag-fair races) stay exactly as they were
        if any(self.grab_lags):
            return {"grab_lags": list(self.grab_lags)}
        return {}

    def copy(self) -> Round:
        """An independent copy (cards are immutable, so only the lists are copied)."""
        new = Round.__new__(Round)
        new.__dict__.update(self.__dict__)
        new.hands = [list(hand) for hand in self.hands]
        new.incoming = [list(pile) for pile in self.incoming]
        new.draw_pile = list(self.draw_pile)
        new.trash_pile = list(self.trash_pile)
        new.grabbed = list(self.grabbed)
        new.grab_times = list(self.grab_times)
        new.grab_lags = list(self.grab_lags)
        new.deltas = None if self.deltas is None else list(self.deltas)
        return new

    # -- acting ------------------------------------------------------------------------

    def apply(self, action: Action, now: float) -> list[dict[str, Any]]:
        """Apply the time-outs due at `now`, then `action`; return the events.

        Raises IllegalAction, leaving the round unchanged, when the action is refused.
        """
        if isinstance(now, bool) or not isinstance(now, int | float) or now != now:
            raise IllegalAction(f"now must be a number of seconds, not {now!r}")
        if self.clock is not None and now < self.clock:
            raise IllegalAction(f"time went backwards: now={now} is before {self.clock}")
        if not isinstance(action, Draw | Discard | Grab | Call | Tick):
            raise IllegalAction(f"unknown action {action!r}")
        # When time-outs are due, judge the action on a copy that has them applied, so
        # a refused action leaves everything (the time-outs too) as it was. Otherwise
        # each step checks everything before it changes anything.
        trial = self.copy() if self._due(float(now)) else self
        events = trial._advance(float(now))
        if isinstance(action, Draw):
            events += trial._draw(action.seat)
        elif isinstance(action, Discard):
            events += trial._discard(action.seat, action.card)
        elif isinstance(action, Grab):
            at, lag = trial._timing(action, float(now))
            events += trial._grab(action.seat, at, lag)
        elif isinstance(action, Call):
            at, lag = trial._timing(action, float(now))
            events += trial._call(action.seat, at, lag)
        trial.clock = float(now)
        if trial is not self:
            self.__dict__.update(trial.__dict__)
        return events

    # -- internals ---------------------------------------------------------------------

    def _timing(self, action: Grab | Call, now: float) -> tuple[float, float]:
        """When a grab or call happened, and its lag correction (checked)."""
        at, lag = action.at, action.lag
        if isinstance(lag, bool) or not isinstance(lag, int | float) or not 0 <= lag < 60:
            raise IllegalAction(f"lag must be a number of seconds from 0 to 60, not {lag!r}")
        if at is None:
            return now, float(lag)
        if isinstance(at, bool) or not isinstance(at, int | float) or at != at:
            raise IllegalAction(f"at must be a number of seconds, not {at!r}")
        if at > now:
            raise IllegalAction(f"an action cannot happen after now: at={at} is after {now}")
        # the race is in the order applied: an action timed before the last grab
        # (a delay estimate that moved) counts as at the same time, after it
        if self.grab_times and at < self.grab_times[-1]:
            at = self.grab_times[-1]
        return float(at), float(lag)

    def _check_seat(self, seat: object) -> None:
        check_seat(seat, self.players)

    def _judge(self, kind: str, seat: int) -> dict[str, Any]:
        """Raise IllegalAction unless `kind` is legal for `seat` now, by the checks
        `legal_actions` makes, on this round's own view; return that view."""
        check_seat(seat, self.players)
        view = self.view(None)
        why = _WHY_NOT[kind](view, seat, self.race_over)
        if why is not None:
            raise IllegalAction(why)
        return view

    def _draw(self, seat: int) -> list[dict[str, Any]]:
        source = draw_source(self._judge("draw", seat), seat)
        pile = {"draw": self.draw_pile, "trash": self.trash_pile}.get(source)
        if pile is None:
            pile = self.incoming[seat]
        self.hands[seat].append(pile.pop())
        return [{"type": "drew", "seat": seat, "pile": source}]

    def _discard(self, seat: int, card: Card) -> list[dict[str, Any]]:
        self._judge("discard", seat)
        hand = self.hands[seat]
        if not isinstance(card, Card):
            raise IllegalAction(f"a discard names a card, not {card!r}")
        if card not in hand:
            raise IllegalAction(f"you do not hold the {card}")
        hand.remove(card)
        target = self.discard_target(seat)
        if target is None:
            self.trash_pile.append(card)
            return [{"type": "discarded", "seat": seat, "pile": "trash", "to": None}]
        self.incoming[target].append(card)
        return [{"type": "discarded", "seat": seat, "pile": "incoming", "to": target}]

    def _grab(self, seat: int, now: float, lag: float = 0.0) -> list[dict[str, Any]]:
        self._judge("grab", seat)
        if not self.grabbed:
            self.race_closes = now + self.grab_timeout
            self.call_closes = now + self.call_window
        self.grabbed.append(seat)
        self.grab_times.append(now)
        self.grab_lags.append(lag)
        self.nuggets_left -= 1
        grabbed: dict[str, Any] = {
            "type": "grabbed",
            "seat": seat,
            "at": now,
            "order": len(self.grabbed),
            "nuggets_left": self.nuggets_left,
        }
        if lag:
            grabbed["lag"] = lag
        events: list[dict[str, Any]] = [grabbed]
        if self.nuggets_left == 0:
            events += self._end_race(now, "nuggets")
        return events + self._maybe_settle()

    def _call(self, seat: int, now: float, lag: float = 0.0) -> list[dict[str, Any]]:
        self._judge("call", seat)
        self.caller = seat
        grabber = self.grabbed[0]
        hand = self.hands[grabber]
        called: dict[str, Any] = {"type": "called", "seat": seat, "at": now, "grabber": grabber}
        if lag:
            called["lag"] = lag
        events: list[dict[str, Any]] = [
            called,
            {
                "type": "revealed",
                "seat": grabber,
                "hand": [card.to_dict() for card in hand],
                "set": is_set(hand),
            },
        ]
        return events + self._maybe_settle()

    def _due(self, now: float) -> bool:
        deadline = self.deadline
        return deadline is not None and now >= deadline

    def _advance(self, now: float) -> list[dict[str, Any]]:
        """Apply the time-outs due at `now`, earliest first."""
        events: list[dict[str, Any]] = []
        due = []
        if self.race_closes is not None and not self.race_over and now >= self.race_closes:
            due.append((self.race_closes, "race"))
        if (
            self.call_closes is not None
            and not self.window_closed
            and self.caller is None
            and now >= self.call_closes
        ):
            due.append((self.call_closes, "window"))
        for at, what in sorted(due):
            if what == "race":
                events += self._end_race(at, "timeout")
            else:
                self.window_closed = True
                events.append({"type": "call_window_closed", "at": at})
        return events + self._maybe_settle()

    def _end_race(self, at: float, reason: str) -> list[dict[str, Any]]:
        self.race_over = True
        without = [seat for seat in range(self.players) if seat not in self.grabbed]
        return [{"type": "race_over", "at": at, "reason": reason, "without": without}]

    def _maybe_settle(self) -> list[dict[str, Any]]:
        if self.settled or not self.race_over:
            return []
        if self.caller is None and not self.window_closed:
            return []
        grabber = self.grabbed[0]
        deltas = [0] * self.players
        if self.caller is not None and not is_set(self.hands[grabber]):
            self.scorer = self.caller
            deltas[self.caller] += 1
            deltas[grabber] -= 1
        else:
            self.scorer = grabber
            deltas[grabber] += 1
            if self.caller is not None:
                deltas[self.caller] -= 1
        if no_nugget_costs(self.players, self.rules):  # F8; not at two under F12
            for seat in range(self.players):
                if seat not in self.grabbed:
                    deltas[seat] -= 1
        self.deltas = deltas
        self.settled = True
        return [{"type": "settled", "deltas": list(deltas), "scorer": self.scorer}]
