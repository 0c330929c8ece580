"""The advisor panel of Gold Nuggets: chances to win and exact odds for the seat to act,
on public information.

Views come typed (``net.views.NuggetsView``); the odds of the rules package
(``nuggets.odds``, ``nuggets.chances``) read the rules' own form of a view, a dict, so each
function here hands them ``to_plain(view)``. The chances to win are the table's own:
calibrated for the kind of table the host says it is (the view's ``table_kind``, from
the bots seated at it now), the same figure everywhere they are shown or used."""

from __future__ import annotations

from fractions import Fraction

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from net.games.nuggets.views import NuggetsView
from net.views import to_plain
from nuggets import IllegalAction, chances, duel, odds, score
from tui.widgets.board import FitsContent


def _pct(x: Fraction | float | None) -> str:
    return "-" if x is None else f"{float(x) * 100:.1f}%"


def _num(x: Fraction | None) -> str:
    return "-" if x is None else f"{float(x):.2f}"


def _faces(faces) -> str:
    return " ".join(f.value for f in faces)


def table_kind(view: dict) -> str:
    """The kind of table the view's chances are calibrated for (an older host's view
    says none: "mixed")."""
    return view.get("table_kind") or "mixed"


def _chances(view: dict, kept: list[str] | None = None) -> chances.Chances | None:
    """Chances to win at the table's kind, or None when they are not available for
    this game. ``view``: the plain form, for the rules' odds."""
    try:
        return chances.chances(view, kept, kind=table_kind(view))
    except (duel.NotCovered, duel.TableMissing):
        return None


def _best_keep(view: dict):
    """``chances.best_keep`` at the table's kind (raises as it does)."""
    return chances.best_keep(view, kind=table_kind(view))


def _steal_amount(view: NuggetsView, victim: int, kept: list[str]) -> int:
    return min(score(kept), view.holdings[victim])


def stop_words(view: NuggetsView, win: chances.Chances | None, kept: list[str]) -> str | None:
    """The best stop in words when it is a steal, with the take beside it:
    "stop and steal 5 from Bob: win 22.1%; take from the supply: 0.0%". None when
    the best stop takes from the supply (or no chance to win is known)."""
    if win is None or win.steal_from is None or win.stop is None:
        return None
    victim = win.steal_from
    amount = _steal_amount(view, victim, kept)
    return (f"stop and steal {amount} from {view.players[victim]}: win {_pct(win.stop)}; "
            f"take from the supply: {_pct(win.take)}")


def advised_words(view: NuggetsView, follow: tuple[str, int | None], kept: list[str]) -> str:
    """What the advisor would do after a set-aside, in words: "roll on", "stop and
    take", "stop and steal 5 from Bob"."""
    action, victim = follow
    if action == "roll":
        return "roll on"
    if victim is None:
        return "stop and take"
    return f"stop and steal {_steal_amount(view, victim, kept)} from {view.players[victim]}"


def _choice(view: NuggetsView, win: chances.Chances | None, stop, roll) -> str:
    """What to do: by the chance to win when known, else by expected nuggets."""
    if view.phase == "choose" and odds.stop_wins(
        view.holdings, view.current, view.supply, view.kept_value
    ):
        return "stop: it wins the game"
    if win is not None and win.stop is not None:
        if win.roll is not None and win.roll > win.stop:
            return "roll on"
        if win.steal_from is not None:
            amount = _steal_amount(view, win.steal_from, list(view.kept))
            return f"stop and steal {amount} from {view.players[win.steal_from]} (s)"
        return "stop (t)"
    return "roll on" if stop is None or (roll is not None and roll > stop) else "stop"


def _note(win: chances.Chances | None) -> str:
    """What the figures leave out."""
    nuggets = "nuggets: this turn, no steals or supply cap"
    if win is None:
        return f"win %: not solved for this game · {nuggets}"
    if win.exact:
        return f"win %: exact, both play to win · {nuggets}"
    return f"win %: estimated from duels · {nuggets}"


def advised_keep(view: NuggetsView):
    """The set-aside the panel recommends on the dice in a "keep" view: the best chance
    to win where it is solved, else the most expected nuggets (None: the roll busts)."""
    view = to_plain(view)
    try:
        best = _best_keep(view)
    except (duel.NotCovered, duel.TableMissing):
        return odds.advise(view).keep
    return None if best is None else best[0]


def advised_next(view: NuggetsView) -> tuple[str, int | None]:
    """What the panel recommends in a "choose" or "take" view: ("roll", None) or
    ("stop", seat to take from or None for the supply)."""
    view = to_plain(view)
    win = _chances(view)
    if win is None:
        return (odds.advise(view).to_dict()["action"] or "stop", None)
    if win.roll is not None and (win.stop is None or win.roll > win.stop):
        return ("roll", None)
    return ("stop", win.steal_from)


def advice_lines(view: NuggetsView, chosen: list[str] | None = None) -> list[str]:
    """Up to four lines of advice for a view: the chance to win of stopping and of
    rolling on, expected nuggets this turn, bust chance, best set-aside, and a note
    on what the figures leave out.

    In the "keep" phase the figures are for the position after the set-aside with
    the best chance to win (after the player's own selection, when one is legal).
    """
    step = view.phase
    if step == "over":
        return ["The game is over."]
    plain = to_plain(view)
    kept = list(view.kept)
    if step == "keep":
        rolled = view.rolled or []
        most = odds.best_keep(rolled, kept)
        if most is None:
            return ["This roll busts."]
        try:
            to_win = _best_keep(plain)
        except (duel.NotCovered, duel.TableMissing):
            to_win = None
        best = most if to_win is None else to_win[0]
        after = kept + [f.value for f in best]
        most_text = f"most nuggets: {_faces(most)} ({_num(odds.expected_keep(rolled, kept, most))})"
        if to_win is None:
            lines = [f"Best set-aside: {most_text}"]
        else:
            best_after = kept + [f.value for f in to_win[0]]
            best_win = _chances(plain, best_after)
            then = ""
            if best_win is not None and best_win.steal_from is not None and (
                best_win.roll is None or best_win.stop >= best_win.roll
            ):
                amount = _steal_amount(view, best_win.steal_from, best_after)
                then = f", then stop and steal {amount} from {view.players[best_win.steal_from]}"
            lines = [f"Best to win: {_faces(to_win[0])} ({_pct(to_win[1])}{then}); {most_text}"]
        if chosen:
            try:
                mine = odds.expected_keep(rolled, kept, chosen)
            except IllegalAction:
                lines.append("Your selection is not a legal set-aside.")
            else:
                after = kept + chosen
                win = _chances(plain, after)
                value = None if win is None else max(
                    x for x in (win.stop, win.roll) if x is not None
                )
                lines.append(f"Your selection: win {_pct(value)}, expected {_num(mine)}")
        win = _chances(plain, after)
        roll = odds.expected_roll(after)
        bust = odds.bust_chance(after) if roll is not None else None
        if win is not None and win.steal_from is not None and win.take != win.stop:
            victim = view.players[win.steal_from]
            stops = f"steal from {victim} {_pct(win.stop)} / take {_pct(win.take)}"
        else:
            stops = f"stop {_pct(win and win.stop)}"
        lines.append(
            f"Then: win {stops} / roll on {_pct(win and win.roll)}; "
            f"nuggets {_num(odds.expected_stop(after))} / {_num(roll)}; bust {_pct(bust)}"
        )
        lines.append(_note(win))
        return lines
    win = _chances(plain)
    if step == "take":
        words = stop_words(view, win, kept)
        first = (f"All seven set aside: take now (win {_pct(win and win.stop)})" if words is None
                 else f"All seven set aside: {words}")
        return [
            f"{first}, expected {_num(odds.expected_stop(kept))} with the bonus turn.",
            _note(win),
        ]
    roll = odds.expected_roll(kept)
    stop = None if step == "roll" else odds.expected_stop(kept)
    better = _choice(view, win, stop, roll)
    words = stop_words(view, win, kept) if step == "choose" else None
    stops = f"stop {_pct(win and win.stop)}," if words is None else f"{words};"
    return [
        f"To win: {stops} roll on {_pct(win and win.roll)}  -> {better}",
        f"Nuggets this turn: stop {_num(stop)}, roll on {_num(roll)}; "
        f"bust chance of the next roll {_pct(odds.bust_chance(kept))}",
        _note(win),
    ]


class AdvisorPanel(FitsContent, Widget):
    """Shows `advice_lines` for the current view; `a` toggles it."""

    view: reactive[NuggetsView | None] = reactive(None, always_update=True)
    chosen: reactive[tuple[str, ...]] = reactive(())

    def render(self) -> Text:
        if not self.view:
            return self.fit(Text(""))
        out = Text("Advisor  ", "bold")
        try:
            lines = advice_lines(self.view, list(self.chosen))
        except (ValueError, KeyError, TypeError) as error:
            # A view the odds cannot read (say, from a newer host) must not break the table.
            lines = [f"no advice for this position ({error})"]
        out.append("\n".join(lines))
        return self.fit(out, wraps=True)  # its long lines wrap: a row more is a new layout
