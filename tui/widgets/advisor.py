"""The advisor panel of Gold Nuggets: exact odds for the seat to act, on public info."""

from __future__ import annotations

from fractions import Fraction

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from nuggets import IllegalAction, odds
from tui.widgets.board import FitsContent


def _pct(x: Fraction | None) -> str:
    return "-" if x is None else f"{float(x) * 100:.1f}%"


def _num(x: Fraction | None) -> str:
    return "-" if x is None else f"{float(x):.2f}"


def advice_lines(view: dict, chosen: list[str] | None = None) -> list[str]:
    """Three lines of advice for a view: bust chance, stop vs roll on, best set-aside.

    In the "keep" phase the figures are for the position after the best set-aside
    (and after the player's own selection, when one is legal).
    """
    phase = view.get("phase")
    if phase in (None, "over"):
        return ["The game is over."]
    kept = list(view.get("kept", []))
    if phase == "keep":
        rolled = view.get("rolled") or []
        best = odds.best_keep(rolled, kept)
        if best is None:
            return ["This roll busts."]
        after = kept + [f.value for f in best]
        lines = [
            f"Best set-aside: {' '.join(f.value for f in best)}"
            f"  (expected {_num(odds.expected_keep(rolled, kept, best))})",
        ]
        if chosen:
            try:
                mine = odds.expected_keep(rolled, kept, chosen)
            except IllegalAction:
                lines.append("Your selection is not a legal set-aside.")
            else:
                lines.append(f"Your selection: expected {_num(mine)}")
                after = kept + chosen
        roll = odds.expected_roll(after)
        lines.append(
            f"Then: stop {_num(odds.expected_stop(after))}, roll on {_num(roll)}"
            f", bust on next roll {_pct(odds.bust_chance(after) if roll is not None else None)}"
        )
        return lines
    if phase == "take":
        return [f"All seven set aside: take now, expected {_num(odds.expected_stop(kept))}"
                " with the bonus turn."]
    roll = odds.expected_roll(kept)
    stop = None if phase == "roll" else odds.expected_stop(kept)
    better = "roll on" if stop is None or (roll is not None and roll > stop) else "stop"
    if phase == "choose" and odds.stop_wins(
        view["holdings"], view["current"], view["supply"], view["kept_value"]
    ):
        better = "stop: it wins the game"
    return [
        f"Bust chance of the next roll: {_pct(odds.bust_chance(kept))}",
        f"Expected: stop {_num(stop)}, roll on {_num(roll)}  -> {better}",
    ]


class AdvisorPanel(FitsContent, Widget):
    """Shows `advice_lines` for the current view; `a` toggles it."""

    view: reactive[dict | None] = reactive(None, always_update=True)
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
        return self.fit(out)
