"""Ratings, pure: openskill's Plackett-Luce model, one team a seat, and how a rating is
shown. No clock, no database: a match's skills and places in, new skills out.

- A match ranks its seats by final score; ties share a place (:func:`places`).
- A seat a stand-in finished counts by the person's share of it: its change is
  scaled by the share (:func:`_scaled` says why not openskill's ``weights``).
- Shown on a familiar scale: openskill's ordinal (mu - 3 sigma) mapped as its FAQ
  says, ``alpha = 200 / sigma0`` and ``target = 1500``: a new player shows 1500 and
  a player of skill shows more (:meth:`Skill.display`).
- Provisional (shown as "new: 4 of 10 games") until :data:`PROVISIONAL_GAMES`.
- A win never lowers the shown rating and a loss never raises it (:func:`rate`):
  ``limit_sigma`` keeps sigma from growing, and where the ordinal of a last place
  would still rise (sigma shrinking faster than mu falls) its sigma keeps the
  ordinal where it was; the same, mirrored, for a first place.
- A new season keeps every rating but widens its uncertainty (:func:`widened`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

MU = 25.0
SIGMA = MU / 3
TARGET = 1500
ALPHA = 200 / SIGMA  # the FAQ's Elo-like scale: one sigma0 of ordinal is 200 points
PROVISIONAL_GAMES = 10
#: a new season adds this much uncertainty (in quadrature), at most back to a new
#: player's: a player of 40 games comes back to about where 8 games had left them
SEASON_WIDEN = SIGMA / 2
MIN_SHARE = 0.05  # a seat the person barely played still weighs a little

_MODEL = PlackettLuce(mu=MU, sigma=SIGMA)


@dataclass(frozen=True)
class Skill:
    """A player's skill at one game: openskill's mu and sigma."""

    mu: float = MU
    sigma: float = SIGMA

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma

    def display(self) -> int:
        """The rating shown: about 1500 for a new player."""
        return round(ALPHA * self.ordinal + TARGET)


def provisional(games: int) -> bool:
    """Whether a rating of ``games`` rated games is still provisional."""
    return games < PROVISIONAL_GAMES


def shown(skill: Skill, games: int) -> int | None:
    """The rating a person sees: None while provisional."""
    return None if provisional(games) else skill.display()


def places(scores: Sequence[float], higher_wins: bool = True) -> list[int]:
    """Each seat's place by final score, 1 the best; ties share a place and the next
    place skips (scores 9, 9, 4: places 1, 1, 3)."""
    sign = 1 if higher_wins else -1
    return [1 + sum(1 for other in scores if sign * other > sign * score) for score in scores]


def rate(skills: Sequence[Skill], placed: Sequence[int],
         shares: Sequence[float] | None = None) -> list[Skill]:  # fmt: skip
    """The skills after a match: ``placed`` by seat (1 the best, ties equal),
    ``shares`` the part of each seat the person played (1.0: all of it). Needs two
    seats or more; a match of one place for all moves mu of nobody."""
    if len(skills) < 2 or len(skills) != len(placed):
        raise ValueError(f"a rated match needs two seats or more, each placed: "
                         f"{len(skills)} skills, {len(placed)} places")
    teams = [[_MODEL.create_rating([s.mu, s.sigma])] for s in skills]
    rated = _MODEL.rate(teams, ranks=list(placed), limit_sigma=True)
    if shares is not None:  # a stand-in's part: that much of the change is not theirs
        rated = [[_scaled(before, after, share)] for before, (after,), share
                 in zip(skills, rated, shares, strict=True)]  # fmt: skip
    best, worst = min(placed), max(placed)
    out = []
    for before, (after_rating,), place in zip(skills, rated, placed, strict=True):
        after = Skill(after_rating.mu, min(after_rating.sigma, before.sigma))
        if best != worst:
            if place == worst and after.ordinal > before.ordinal:
                after = _held(before, after)
            elif place == best and after.ordinal < before.ordinal:
                after = _held(before, after)
        out.append(after)
    return out


def _scaled(before: Skill, after, share: float):
    """``after`` moved only ``share`` of the way from ``before`` (at least MIN_SHARE).

    Not openskill's ``weights``: on teams of one, its 6.2 update with weights is not
    zero-sum (two new players, weights 1 and 1: the winner gains 5.3, the loser loses
    1.3), so ratings inflate game after game (tests/league/test_rating.py)."""
    share = min(1.0, max(MIN_SHARE, float(share)))
    return Skill(before.mu + share * (after.mu - before.mu),
                 before.sigma + share * (after.sigma - before.sigma))


def _held(before: Skill, after: Skill) -> Skill:
    """``after`` with the ordinal ``before`` had: its mu, and the sigma that gives it
    (never above ``before``'s); ``before`` itself if no such sigma exists."""
    sigma = (after.mu - before.ordinal) / 3
    if 0 < sigma <= before.sigma:
        return Skill(after.mu, sigma)
    return before


def widened(skill: Skill) -> Skill:
    """A skill at a new season's start: the same mu, sigma widened (at most a new
    player's)."""
    return Skill(skill.mu, min(SIGMA, math.hypot(skill.sigma, SEASON_WIDEN)))

