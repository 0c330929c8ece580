"""Chances to win for the seat to act in a view (2 to 5 players): of stopping now and
of rolling on, the best set-aside of a roll and the best action. Exact with two players
(`nuggets.duel`), an estimate with more (`nuggets.multi`), calibrated for the kind of
table (`nuggets.calibration`); the choices compare the raw chances."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from nuggets import calibration
from nuggets.duel import NotCovered, table
from nuggets.multi import _multi_turn
from nuggets.rules import DICE, FACES, Face, Keep, Roll, Stop, _faces
from nuggets.turns import STEAL_LASSOS, TurnState, turn_graph, turn_state

__all__ = ["Chances", "best_action", "best_keep", "chances"]


@dataclass(frozen=True)
class Chances:
    """Chances to win (0..1) for the seat to act: of stopping now (None when it may
    not stop) and of rolling on (None when it may not roll). ``steal_from`` is the
    seat the better stop takes from (None: the supply). ``exact``: the 2-player
    solution; otherwise the estimate for three or more players. ``take``: the chance
    of stopping by taking from the supply, which is ``stop`` unless the better stop
    steals."""

    stop: float | None
    roll: float | None
    steal_from: int | None = None
    exact: bool = True
    take: float | None = None


class _Judge:
    """Chances to win at the turn states of the seat to act in a view."""

    def __init__(self, view: Mapping, kind: str = "mixed") -> None:
        holdings = [int(h) for h in view["holdings"]]
        self.me = me = view["current"]
        self.supply = supply = int(view["supply"])
        self.exact = len(holdings) == 2
        t = table()
        if supply + sum(holdings) > t.total:
            raise NotCovered(
                f"the chances to win are solved for games of up to {t.total} nuggets, "
                f"not {supply + sum(holdings)}"
            )
        if self.exact:
            self.mine, self.theirs = holdings[me], holdings[1 - me]
            self.table = t
            self.shown = None
        else:
            players, correction = len(holdings), calibration.load()
            key = calibration.map_key("turn", kind)
            self.shown = lambda p: correction.apply(key, players, p)
            self.turn = _multi_turn(tuple(holdings), supply, me)
            self.index = turn_graph().index

    def stops(self, state: TurnState) -> tuple[float, float | None, int | None]:
        """Chances to win of taking from the supply and of the best steal (None
        without three lassos), and whom that steal takes from."""
        if self.exact:
            take, steal = self.table.stops(self.mine, self.theirs, self.supply, state)
            return take, steal, (None if steal is None else 1 - self.me)
        _, n, v, lassos = state
        pay = self.turn.bonus_payoffs if n == 0 else self.turn.stop_payoffs
        take, steal = pay[2 * v], pay[2 * v + 1]
        if lassos < STEAL_LASSOS:
            return take, None, None
        return take, steal, self.turn.victims[v][n == 0]

    def stop(self, state: TurnState) -> tuple[float, int | None]:
        take, steal, victim = self.stops(state)
        if steal is not None and steal > take:
            return steal, victim
        return take, None

    def roll(self, state: TurnState) -> float:
        if self.exact:
            return self.table.roll(self.mine, self.theirs, self.supply, state)
        return self.turn.R[self.index[state]]

    def value(self, state: TurnState) -> float:
        stop, _ = self.stop(state)
        return stop if state[1] == 0 else max(stop, self.roll(state))


def chances(
    view: Mapping, kept: Iterable[Face | str] | None = None, kind: str = "mixed"
) -> Chances | None:
    """Chances to win for the seat to act in ``view`` (2 to 5 players), at the dice
    set aside (``kept``, by default the view's): exact with two players, an estimate
    with more, calibrated for the ``kind`` of table ("mixed" or "strong", see
    `nuggets.calibration.table_kind`). None when the game is over or the view awaits a
    set-aside and no ``kept`` is given. Raises `NotCovered` for games of more than 77
    nuggets."""
    phase = view["phase"]
    if phase == "over" or (phase == "keep" and kept is None):
        return None
    judge = _Judge(view, kind)
    raw = _raw_chances(judge, turn_state(view["kept"] if kept is None else kept))
    if judge.exact:
        return raw
    shown = judge.shown
    # Every figure goes through the same increasing map, so the panel orders stop,
    # take and roll on as the raw chances (and the bots) do. The map keeps 0 and 1; a
    # take that ends the game in a shared win (exactly 1/k) is shown mapped too.
    return Chances(
        None if raw.stop is None else shown(raw.stop),
        None if raw.roll is None else shown(raw.roll),
        raw.steal_from,
        False,
        None if raw.take is None else shown(raw.take),
    )


def _raw_chances(judge: _Judge, state: TurnState) -> Chances:
    """`chances` before the calibration (what the choices compare: the calibration
    keeps the order of chances, but comparing the raw ones keeps even ties)."""
    if state == (0, DICE, 0, 0):
        return Chances(None, judge.roll(state), None, judge.exact)
    take, steal, victim = judge.stops(state)
    stop = take
    if steal is not None and steal > take:
        stop = steal
    else:
        victim = None
    roll = None if state[1] == 0 else judge.roll(state)
    return Chances(stop, roll, victim, judge.exact, take)


def best_keep(
    view: Mapping, kind: str = "mixed"
) -> tuple[tuple[Face, ...], float] | None:
    """The set-aside from the view's roll with the best chance to win, and that
    chance (calibrated for the ``kind`` of table, as `chances`); None when the roll
    busts. The choice compares the raw chances, so it is the same at every kind."""
    judge = _Judge(view, kind)
    g = turn_graph()
    state = turn_state(view["kept"])
    counts = tuple(list(_faces(view["rolled"])).count(f) for f in FACES)
    options = g.options.get((g.index[state], counts), ())
    best, top = None, -1.0
    for child, take in options:
        chance = judge.value(g.states[child])
        if chance > top:
            best, top = take, chance
    if best is None:
        return None
    shown = top if judge.exact else judge.shown(top)
    return tuple(f for f, c in zip(FACES, best, strict=True) for _ in range(c)), shown


def best_action(view: Mapping) -> Roll | Keep | Stop | None:
    """The action with the best chance to win for the seat to act (None: a bust or
    the game is over). Ties between stopping and rolling on go to stopping."""
    phase = view["phase"]
    if phase == "over":
        return None
    if phase == "roll":
        return Roll()
    if phase == "keep":
        best = best_keep(view)
        return None if best is None else Keep(best[0])
    c = _raw_chances(_Judge(view), turn_state(view["kept"]))
    if c.roll is not None and c.roll > c.stop:
        return Roll()
    return Stop(c.steal_from)
