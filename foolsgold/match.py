"""A match of Fool's Gold: rounds until someone reaches 3 points (F10).

House rule, off unless asked for (`round_cap`): once `round_cap` rounds have been
scored without a winner, the highest score wins; a tie for the highest plays one
more round, and so on until the tie breaks (or someone reaches 3 points).

The caller supplies each round's shuffled deck (`new_round`), so nothing here is
random. Events returned by `new_round` and `apply`, besides the round's own
(see `foolsgold.round`):

- `{"type": "round_started", "round_no": k, "start": s}`: k from 1.
- `{"type": "scores", "scores": [p, ...], "start": s}`: after a round settles; `s`
  starts the next round (the point scorer).
- `{"type": "tie_break", "seats": [s, ...]}`: the round cap is reached and these seats
  share the highest score: one more round is played.
- `{"type": "match_over", "winner": w, "scores": [p, ...]}`.
"""

from __future__ import annotations

from typing import Any

from foolsgold.actions import Action, IllegalAction
from foolsgold.cards import Card, _check_players
from foolsgold.round import CALL_WINDOW, GRAB_TIMEOUT, RULES, Round, check_rules

TARGET = 3


class Match:
    """Rounds to `TARGET` points: carries scores and the next start player. Every round
    settles by the version `rules` of the rules (`foolsgold.round.RULES` by default)."""

    def __init__(
        self, players: int, start: int, round_cap: int | None = None, rules: int = RULES
    ) -> None:
        _check_players(players)
        self.rules = check_rules(rules)
        if isinstance(start, bool) or not isinstance(start, int) or not 0 <= start < players:
            raise ValueError(f"start must be a seat from 0 to {players - 1}, not {start!r}")
        if round_cap is not None and (
            isinstance(round_cap, bool) or not isinstance(round_cap, int) or round_cap < 1
        ):
            raise ValueError(f"round_cap must be a whole number from 1, not {round_cap!r}")
        self.round_cap = round_cap
        self.players = players
        self.start = start
        self.scores = [0] * players
        self.winner: int | None = None
        self.round: Round | None = None
        self.round_no = 0

    def __repr__(self) -> str:
        return (
            f"<Match players={self.players} round_no={self.round_no} start={self.start} "
            f"scores={self.scores} winner={self.winner}>"
        )

    @property
    def over(self) -> bool:
        return self.winner is not None

    @property
    def deadline(self) -> float | None:
        """The current round's deadline, or None."""
        return None if self.round is None else self.round.deadline

    def new_round(
        self,
        deck: list[Card],
        grab_timeout: float = GRAB_TIMEOUT,
        call_window: float = CALL_WINDOW,
    ) -> list[dict[str, Any]]:
        """Deal the next round from `deck` (already shuffled), started by `self.start`."""
        if self.winner is not None:
            raise IllegalAction(f"the match is over: seat {self.winner} won")
        if self.round is not None and not self.round.settled:
            raise IllegalAction("the current round is not settled yet")
        self.round = Round(
            self.players, self.start, deck, grab_timeout, call_window, rules=self.rules
        )
        self.round_no += 1
        return [{"type": "round_started", "round_no": self.round_no, "start": self.start}]

    def apply(self, action: Action, now: float) -> list[dict[str, Any]]:
        """Apply `action` to the current round; on settling, carry the points (F10)."""
        if self.winner is not None:
            raise IllegalAction(f"the match is over: seat {self.winner} won")
        if self.round is None:
            raise IllegalAction("no round has been dealt yet")
        was_settled = self.round.settled
        events = self.round.apply(action, now)
        if self.round.settled and not was_settled:
            assert self.round.deltas is not None and self.round.scorer is not None
            self.scores = [a + b for a, b in zip(self.scores, self.round.deltas, strict=True)]
            self.start = self.round.scorer
            events.append({"type": "scores", "scores": list(self.scores), "start": self.start})
            if self.scores[self.round.scorer] >= TARGET:
                self.winner = self.round.scorer
            elif self.round_cap is not None and self.round_no >= self.round_cap:
                best = max(self.scores)
                leaders = [seat for seat, score in enumerate(self.scores) if score == best]
                if len(leaders) == 1:
                    self.winner = leaders[0]
                else:
                    events.append({"type": "tie_break", "seats": leaders})
            if self.winner is not None:
                events.append(
                    {"type": "match_over", "winner": self.winner, "scores": list(self.scores)}
                )
        return events

    def view(self, seat: int | None) -> dict[str, Any]:
        """The current round's view for `seat` plus `scores`, `winner` and `round_no`."""
        if self.round is not None:
            view = self.round.view(seat)
        else:
            if seat is not None and (
                isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.players
            ):
                raise IllegalAction(
                    f"seat {seat!r} is out of range: this match has seats 0 to {self.players - 1}"
                )
            view = {
                "game": "foolsgold",
                "seat": seat,
                "players": self.players,
                "start": self.start,
                "hand": None if seat is None else [],
                "hand_sizes": [0] * self.players,
                "incoming_sizes": [0] * self.players,
                "draw_pile": 0,
                "trash_pile": 0,
                "nuggets_left": self.players - 1,
                "grabbed": [],
                "caller": None,
                "revealed": None,
                "revealed_set": None,
                "frozen": False,
                "deadline": None,
                "call_closes": None,
                "settled": False,
                "deltas": None,
            }
        view["scores"] = list(self.scores)
        view["winner"] = self.winner
        view["round_no"] = self.round_no
        if self.round_cap is not None:
            # Only with the house rule: a view without it is the same as before it.
            view["round_cap"] = self.round_cap
        return view

    def copy(self) -> Match:
        """An independent copy, the current round included."""
        new = Match.__new__(Match)
        new.__dict__.update(self.__dict__)
        new.scores = list(self.scores)
        new.round = None if self.round is None else self.round.copy()
        return new
