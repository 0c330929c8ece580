"""What a Gold Nuggets table accepts now and what is true now (``tui.phases``): the
set-aside explained by the rules' own check, the steal and its worth."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from net.games.nuggets.views import NuggetsView
from nuggets import IllegalAction, check_keep, legal_keeps, score
from tui.phases import Now, namer

NUGGETS_ACTIONS = frozenset({"roll", "take", "steal", "advised", "toggle", "select_face",
                             "clear"})


def _count(faces: Iterable[str]) -> str:
    counts = Counter(faces)
    return " + ".join(f"{n}x {face}" for face, n in counts.items())


def _steal(view: NuggetsView, kept: Sequence[str]) -> tuple[bool, str]:
    """Whether a steal would go through with ``kept`` set aside: three lassos, worth
    something, someone to take it from; else why not (empty below three lassos)."""
    if list(kept).count("lasso") < 3:
        return False, ""
    if not score(kept):
        return False, " (worth nothing to steal)"
    if not any(held for seat, held in enumerate(view.holdings) if seat != view.current):
        return False, " (nobody to steal from)"
    return True, ""


def _then(steal: bool, why: str) -> str:
    return (", s steals." if steal else why + ".")


def nuggets_now(view: NuggetsView | None, my_seats: Iterable[int],
                chosen: Sequence[str] = ()) -> Now:
    """A Gold Nuggets table, for the seats this keyboard plays (``chosen``: the faces
    of the dice selected on the table)."""
    if view is None:
        return Now("joining", frozenset(), "")
    mine = set(my_seats)
    name = namer(view.players)
    if view.over:
        return Now("over", frozenset(), "q leaves the table.")
    if not mine:
        return Now("watching", frozenset(), f"You are watching: {name(view.current)} plays.")
    if view.current not in mine:
        return Now("waiting", frozenset(), f"{name(view.current)} is playing.")
    step = view.phase
    if step == "roll":
        return Now("roll", frozenset({"roll"}), "enter rolls all seven dice.")
    if step == "keep":
        keys = {"toggle", "select_face", "clear", "advised", "roll"}
        if not chosen:
            last = len(view.rolled or []) or 7
            return Now("keep", frozenset(keys),
                       f"Pick dice (1-{last}, n, l, F2-F5; space: advised), then enter rolls "
                       "on, t takes.")
        try:
            check_keep(view.rolled or [], view.kept, chosen)
        except IllegalAction as error:
            keys.discard("roll")
            options = legal_keeps(view.rolled or [], view.kept)
            sample = "; ".join(" ".join(f.value for f in keep) for keep in options[:3])
            more = f" (and {len(options) - 3} more)" if len(options) > 3 else ""
            return Now("keep", frozenset(keys), f"Not allowed: {error}. Legal: {sample}{more}.")
        keys.add("take")
        steal, why = _steal(view, [*view.kept, *chosen])
        if steal:
            keys.add("steal")
        if len(chosen) >= len(view.rolled or []):  # every die: nothing left to roll on
            return Now("keep", frozenset(keys),
                       f"Set aside {_count(chosen)}: all seven set aside, enter or t takes"
                       + _then(steal, why) + " Then you play a bonus turn.")
        return Now("keep", frozenset(keys),
                   f"Set aside {_count(chosen)}: enter rolls on, t takes" + _then(steal, why))
    steal, why = _steal(view, view.kept)
    # space plays the advisor's choice: roll on, take, or the steal it names
    keys = {"take", "steal", "advised"} if steal else {"take", "advised"}
    if step == "choose":
        return Now("choose", frozenset(keys | {"roll"}),
                   f"enter rolls the {view.dice_left} dice left, t takes {view.kept_value}"
                   + _then(steal, why))
    return Now("take", frozenset(keys),
               f"All seven dice set aside: t takes {view.kept_value}" + _then(steal, why)
               + " Then you play a bonus turn.")
