"""What the Gold Nuggets table says in words, and the advisor's next move as actions.

Pure functions of a view (and of the dice chosen): the table screen
(``tui.games.nuggets.screen``) shows what they return and sends what they advise.
"""

from __future__ import annotations

from collections import Counter

import msgspec

from net import protocol as p
from net.games.nuggets import views as v
from net.games.nuggets.moves import ROLL, STOP
from nuggets import legal_keeps, score
from tui.games.nuggets.advisor import advised_keep, advised_next, advised_words


def count(faces) -> str:
    """Faces in words: ``2x nugget + 1x 3``."""
    counts = Counter(faces)
    return " + ".join(f"{n}x {face}" for face, n in counts.items())


def moment(event: v.GameEvent, names: list[str]) -> tuple[str, str]:
    """The banner a moment of the game earns (a bust, a bonus turn, a steal) and its
    class; ``("", "")`` for the rest."""

    def name(seat: int) -> str:
        return names[seat] if 0 <= seat < len(names) else "?"

    if isinstance(event, v.Bust):
        return f"BUST! {name(event.seat)} scores nothing this turn", "-bust"
    if isinstance(event, v.BonusTurn):
        return f"All seven dice! {name(event.seat)} plays a bonus turn", "-bonus"
    if isinstance(event, v.Stole):
        return f"{name(event.seat)} steals {event.amount} from {name(event.victim)}!", "-steal"
    return "", ""


def advised(view: v.NuggetsView | None,
            seat: int | None) -> tuple[list[int], p.Move] | None:
    """The advisor's set-aside (as dice on the table) and what it would do next."""
    if view is None or view.phase != "keep" or not view.rolled:
        return None
    rolled = view.rolled
    keep = advised_keep(view)
    if not keep:
        return None
    wanted = [f.value for f in keep]
    picks: list[int] = []
    for i, face in enumerate(rolled):
        if face in wanted:
            wanted.remove(face)
            picks.append(i)
    kept = [*view.kept, *(f.value for f in keep)]
    left = view.dice_left - len(keep)
    after = msgspec.structs.replace(view, kept=kept, kept_value=score(kept), rolled=None,
                                    dice_left=left, phase="choose" if left else "take")
    action, victim = advised_next(after)
    rolls_on = left and action == "roll"
    follow = ROLL(seat=seat) if rolls_on else STOP(steal_from=victim, seat=seat)
    return picks, follow


def tip(view: v.NuggetsView) -> str:
    """After a set-aside: what the advisor would do, and the key that plays it."""
    action, victim = advised_next(view)
    if action == "roll":
        return " Advised: roll on (space)."
    key = "t" if victim is None else "s"
    words = advised_words(view, (action, victim), list(view.kept))
    return f" Advised: {words} (space or {key})."


def follow_words(view: v.NuggetsView, follow: p.Move, chosen: list[str],
                 picks: list[int] | None = None) -> str:
    """The advised follow-up of a set-aside in words ("stop and steal 5 from Bob"):
    of the dice ``picks`` on the table, else of the ``chosen`` faces."""
    rolled = view.rolled or []
    if picks is not None:
        chosen = [rolled[i] for i in picks]
    kept = [*view.kept, *chosen]
    words = advised_words(view, ("roll", None) if follow.move == ROLL.name
                          else ("stop", STOP.parse(follow).steal_from), kept)
    if picks is not None:
        return f"set aside {count(chosen)} and {words}"
    return words


def not_allowed(view: v.NuggetsView | None, message: str) -> str:
    """A refused set-aside, with the rules' own words and what would be legal."""
    options = [] if view is None else legal_keeps(view.rolled or [], view.kept)
    sample = "; ".join(" ".join(f.value for f in keep) for keep in options[:3])
    more = f" (and {len(options) - 3} more)" if len(options) > 3 else ""
    return f"Not allowed: {message}. Legal: {sample}{more}."


def advised_first(choices: list[tuple[int, str]], victim: int | None) -> list[tuple[int, str]]:
    """The advisor's pick first, and said so: the steal dialog's highlight (its first
    line) agrees with the advisor panel."""
    advised = [(seat, f"{label} (advised)") for seat, label in choices if seat == victim]
    return advised + [c for c in choices if c[0] != victim]


def steal_choices(view: v.NuggetsView, seat: int | None,
                  worth: int) -> list[tuple[int, str]]:
    """Whom a set-aside worth ``worth`` could steal from, and how their holdings go."""
    choices = []
    for other, name in enumerate(view.players):
        if other == seat:
            continue
        has = view.holdings[other]
        amount = min(worth, has)
        if amount:
            choices.append((other, f"take {amount} from {name}: {has} -> {has - amount}"))
    return choices
