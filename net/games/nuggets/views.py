"""Gold Nuggets on the wire: the typed shape of its view (``nuggets.Game.view``) and
of its events (``nuggets.rules``), as ``net.views`` describes."""

from __future__ import annotations

from typing import Literal

from net.games.nuggets import SPEC
from net.views import Count, GameEvent, GameView, Seat

Face = Literal["nugget", "lasso", "2", "3", "4", "5"]
Phase = Literal["roll", "keep", "choose", "take", "over"]


class NuggetsView(GameView, tag=SPEC.key, kw_only=True):
    """Gold Nuggets: ``nuggets.Game.view(seat)``. Everything in it is public."""

    seat: Seat | None
    players: list[str]
    current: Seat
    phase: Phase
    supply: Count
    holdings: list[Count]
    kept: list[Face]
    kept_value: Count
    rolled: list[Face] | None
    dice_left: Count
    can_steal: bool
    over: bool
    winners: list[Seat]
    #: the kind of table its chances to win are calibrated for, from the bots seated
    #: at it now (``nuggets.calibration.table_kind``): "strong" when every bot is hard
    table_kind: Literal["mixed", "strong"] = "mixed"

    def check(self) -> str | None:
        seats = len(self.players)
        if not 1 <= seats <= 64 or len(self.holdings) != seats:
            return "players and holdings must list the same seats"
        if self.dice_left > 7 or len(self.kept) > 7 or (self.rolled and len(self.rolled) > 7):
            return "a turn has seven dice"
        last = max(self.current, self.seat or 0, *self.winners)
        if last >= seats:
            return f"a seat past the last one ({seats - 1})"
        return None

    def is_over(self) -> bool:
        return self.over

    def to_act(self) -> int | None:
        return None if self.over else self.current


# ---------------------------------------------------------------------------
# Events: every one holds only public information, so every seat gets them all


class Turn(GameEvent, tag="turn", kw_only=True):
    seat: Seat


class Rolled(GameEvent, tag="rolled", kw_only=True):
    seat: Seat
    faces: list[Face]


class Bust(GameEvent, tag="bust", kw_only=True):
    seat: Seat
    lost: Count


class Kept(GameEvent, tag="kept", kw_only=True):
    seat: Seat
    faces: list[Face]
    value: Count
    dice_left: Count


class Took(GameEvent, tag="took", kw_only=True):
    seat: Seat
    amount: Count
    value: Count
    supply: Count


class Stole(GameEvent, tag="stole", kw_only=True):
    seat: Seat
    victim: Seat
    amount: Count
    value: Count


class BonusTurn(GameEvent, tag="bonus_turn", kw_only=True):
    seat: Seat


class GameOver(GameEvent, tag="game_over", kw_only=True):
    winners: list[Seat]
    holdings: list[Count]


#: what ``net.views`` asks of a game: its view, and every event it sends
VIEW = NuggetsView
EVENTS = (Turn, Rolled, Bust, Kept, Took, Stole, BonusTurn, GameOver)
