"""Gold Nuggets bots: policies ``policy(view, rng) -> action``.

A policy looks only at the view (`Game.view`) of the seat to act and returns
``Roll()`` (the driver supplies the faces with `roll_dice`), ``Keep(faces)`` or
``Stop(...)``. Policies are pure: any randomness comes in as ``rng`` (none of
the three below needs it, so they play deterministically).

- `cautious`: a simple rule a careful person might follow.
- `optimal`: does what the exact advisor says (most expected nuggets).
- `thief`: plays like `optimal`, but collects lassos when that costs little and
  takes from the leading opponent whenever that improves its standing more than
  taking from the supply.
- `shrewd`: plays to win the game, not to gain nuggets: exactly with two players
  (`nuggets.duel`), by an estimate with more.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Mapping

from nuggets import chances, duel
from nuggets.odds import advise, best_keep, expected_keep
from nuggets.rules import NUMBERS, Face, IllegalAction, Keep, Roll, Stop, _faces, legal_keeps

__all__ = [
    "DIFFICULTIES",
    "POLICIES",
    "Policy",
    "cautious",
    "optimal",
    "policy",
    "shrewd",
    "thief",
]

Action = Roll | Keep | Stop
Policy = Callable[[Mapping, random.Random], Action]

# cautious stops once its set-aside is worth this much, or few dice remain.
CAUTIOUS_ENOUGH = 6
CAUTIOUS_FEW_DICE = 2
# thief gives up at most this many expected nuggets to reach three lassos.
THIEF_SLACK = 1
THIEF_LASSOS = 3


def _check_turn(view: Mapping) -> str:
    phase = view["phase"]
    if phase == "over":
        raise IllegalAction("the game is over: no more actions")
    return phase


def cautious(view: Mapping, rng: random.Random) -> Action:
    """Set aside every nugget and every new number showing three or more times
    (all of them); if that is nothing, a single lasso or die of a number already
    set aside. Stop once the dice are worth 6 or at most 2 dice remain."""
    phase = _check_turn(view)
    if phase == "roll":
        return Roll()
    if phase == "take":
        return Stop()
    kept = _faces(view["kept"])
    if phase == "choose":
        if view["kept_value"] >= CAUTIOUS_ENOUGH or view["dice_left"] <= CAUTIOUS_FEW_DICE:
            return Stop()
        return Roll()
    rolled = Counter(_faces(view["rolled"]))
    keep = [Face.NUGGET] * rolled[Face.NUGGET]
    for face in NUMBERS:
        if face not in kept and rolled[face] >= 3:
            keep += [face] * rolled[face]
    if not keep:
        spare = [f for f in (Face.LASSO, *NUMBERS) if rolled[f] and (f is Face.LASSO or f in kept)]
        if not spare:
            raise IllegalAction("the dice on the table bust: nothing can be set aside")
        keep = [spare[0]]
    return Keep(tuple(keep))


def optimal(view: Mapping, rng: random.Random) -> Action:
    """Follow the exact advisor: the set-aside and the roll-or-stop choice with
    the most expected nuggets (ties: stop; keeps tied on value: more lassos)."""
    _check_turn(view)
    action = advise(view).action
    if action is None:
        raise IllegalAction("the dice on the table bust: nothing can be set aside")
    return action


def thief(view: Mapping, rng: random.Random) -> Action:
    """Like `optimal`, but it reaches for three lassos when that costs at most
    one expected nugget while an opponent holds more than it does, and with three
    lassos it takes from whoever that hurts most (see `_thief_stop`)."""
    phase = _check_turn(view)
    if phase == "keep":
        return Keep(_thief_keep(view))
    if phase == "take":
        return _thief_stop(view)
    action = optimal(view, rng)
    if isinstance(action, Stop):
        return _thief_stop(view)
    return action


def _thief_keep(view: Mapping) -> tuple[Face, ...]:
    rolled, kept = view["rolled"], view["kept"]
    best = best_keep(rolled, kept)
    if best is None:
        raise IllegalAction("the dice on the table bust: nothing can be set aside")
    me = view["current"]
    lassos = sum(1 for f in kept if f == Face.LASSO.value)
    richer = any(h > view["holdings"][me] for s, h in enumerate(view["holdings"]) if s != me)
    if lassos >= THIEF_LASSOS or not richer:
        return best
    floor = expected_keep(rolled, kept, best) - THIEF_SLACK

    def lassos_then_value(keep: tuple[Face, ...]):
        value = expected_keep(rolled, kept, keep)
        steals = lassos + keep.count(Face.LASSO) >= THIEF_LASSOS
        return (steals and value >= floor, value)

    return max(legal_keeps(rolled, kept), key=lassos_then_value)


def _thief_stop(view: Mapping) -> Stop:
    """Take from the supply or from the opponent that leaves the thief best
    placed: ending the game as the sole winner beats everything, then playing on
    with the biggest lead over the strongest opponent, then ending it in a tie,
    and ending it behind is worst. Ties go to the supply."""
    if not view["can_steal"]:
        return Stop()
    me, value, supply = view["current"], view["kept_value"], view["supply"]
    holdings = list(view["holdings"])

    def standing(after: list[int], ends: bool) -> tuple[int, int]:
        lead = after[me] - max(h for s, h in enumerate(after) if s != me)
        if not ends:
            return (2, lead)
        return (3, 0) if lead > 0 else (1, 0) if lead == 0 else (0, 0)

    took = min(value, supply)
    after = list(holdings)
    after[me] += took
    choice, top = Stop(), standing(after, took == supply)
    for victim in range(len(holdings)):
        if victim == me:
            continue
        amount = min(value, holdings[victim])
        after = list(holdings)
        after[me] += amount
        after[victim] -= amount
        mark = standing(after, False)
        if mark > top:
            choice, top = Stop(victim), mark
    return choice


def shrewd(view: Mapping, rng: random.Random) -> Action:
    """Play to win. With two players (the 77-nugget game) it plays the exact
    solution of `nuggets.duel`: every set-aside, roll-or-stop and whom to take
    from maximises the chance to win against a player doing the same. With more
    players it plays `estimate`: the same choices by the chance to win estimated
    by `nuggets.multi.estimate` (docs/ODDS.md)."""
    phase = _check_turn(view)
    if phase == "roll":
        return Roll()
    try:
        plan = chances.best_action(view)
    except (duel.NotCovered, duel.TableMissing):
        return thief(view, rng)  # a game of more than 77 nuggets: not solved
    if plan is None:
        raise IllegalAction("the dice on the table bust: nothing can be set aside")
    return plan


POLICIES: dict[str, Policy] = {
    "cautious": cautious,
    "optimal": optimal,
    "thief": thief,
    "shrewd": shrewd,
}

#: The policy each difficulty plays, weakest first: the ladder measured by
#: bench/nuggets_ladder.py (docs/BENCHMARKS.md). The host seats bots by these.
DIFFICULTIES: dict[str, str] = {"easy": "cautious", "normal": "thief", "hard": "shrewd"}


def policy(name: str) -> Policy:
    """The policy called ``name``, or the one a difficulty plays."""
    found = POLICIES.get(DIFFICULTIES.get(name, name))
    if found is None:
        choices = ", ".join([*DIFFICULTIES, *POLICIES])
        raise ValueError(f"unknown bot {name!r}: choose from {choices}")
    return found
