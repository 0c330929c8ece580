"""Gold Nuggets at the plain seat (``tui.plain``): which moves are legal, what a turn
asks for, the questions' answers, and faces typed as words (``keep 4 4 4``,
``keep n n l``, ``keep 444``). Everything at the table is public."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from net.games.nuggets.moves import KEEP, ROLL, STOP
from net.games.nuggets.views import NuggetsView, Stole, Took
from nuggets import legal_keeps
from tui.describe import describe, faces, name
from tui.plain.words import Generic, generic_args

#: the words a face may be typed as
FACE_WORDS = {"n": "nugget", "nug": "nugget", "nugget": "nugget", "nuggets": "nugget",
              "l": "lasso", "lasso": "lasso", "lassos": "lasso",
              "2": "2", "3": "3", "4": "4", "5": "5"}  # fmt: skip


def current(view: NuggetsView) -> int | None:
    return None if view.over else view.current


def legal(view: NuggetsView, seat: int | None) -> frozenset[str]:
    if view.over or seat is None or seat != view.current:
        return frozenset()
    return frozenset({"roll": {ROLL.name}, "keep": {KEEP.name},
                      "choose": {ROLL.name, STOP.name}, "take": {STOP.name}}.get(view.phase, ()))


def _steal(view: NuggetsView) -> str:
    return " (or stop NAME to steal it from a player)" if view.can_steal else ""


def prompt(view: NuggetsView, seat: int | None, names: Sequence[str],
           left: float | None) -> tuple[str, str] | None:
    if not legal(view, seat):
        return None
    if view.phase == "roll":
        return "Your turn", "roll (all seven dice)."
    if view.phase == "keep":
        options = legal_keeps(view.rolled or [], view.kept)
        example = " ".join(f.value for f in options[0]) if options else "nugget"
        return "Your turn", (f"you rolled {faces(view.rolled or [])}. Set dice aside: keep "
                             f"and the faces, for example keep {example}.")
    if view.phase == "choose":
        return "Your turn", (f"set aside {faces(view.kept)}, worth {view.kept_value}. "
                             f"roll the {view.dice_left} dice left, or stop to take "
                             f"{view.kept_value}{_steal(view)}.")
    return "Your turn", (f"all seven dice set aside, worth {view.kept_value}: stop to take "
                         f"it{_steal(view)}, then a bonus turn.")


def answers(view: NuggetsView, seat: int | None, names: Sequence[str],
            left: float | None) -> dict[str, str]:
    players = list(view.players)
    scores = f"Supply {view.supply}. " + ", ".join(
        f"{n} {h}" for n, h in zip(players, view.holdings, strict=True)) + "."
    rolled = f"Rolled: {faces(view.rolled)}. " if view.rolled else "Nothing rolled. "
    dice = (rolled + f"Set aside: {faces(view.kept)}, worth {view.kept_value}. "
            f"{view.dice_left} dice left.")
    if view.over:
        turn = "The game is over: " + (", ".join(name(players, w) for w in view.winners)
                                       or "nobody") + " won."
    else:
        turn = f"{name(players, view.current)} to play."
    found = {"scores": scores, "dice": dice, "table": f"{turn} {scores} {dice}",
             "time": "Gold Nuggets has no clock: take your time."}
    if not view.over:
        found["odds"] = odds_words(view)
    return found


def odds_words(view: NuggetsView) -> str:
    """The advisor panel's lines as one answer, for the player to act: the same
    chances to win, calibrated for the table's kind (``tui.games.nuggets.advisor``)."""
    from tui.games.nuggets.advisor import advice_lines

    try:
        lines = advice_lines(view)
    except (ValueError, KeyError, TypeError) as error:  # as the panel: never a traceback
        return f"No advice for this position ({error})."
    return f"For {name(list(view.players), view.current)}: " + " ".join(
        line.rstrip(".") + "." for line in lines)


def parse(move: Any, words: list[str], view: NuggetsView, seat: int | None,
          names: Sequence[str]) -> dict[str, Any]:
    if move.name == KEEP.name:
        found: list[str] = []
        for word in words:
            word = word.casefold().strip(",")
            if word.isdigit() and len(word) > 1 and all(c in FACE_WORDS for c in word):
                found += [FACE_WORDS[c] for c in word]  # "444": three 4s
            elif word in FACE_WORDS:
                found.append(FACE_WORDS[word])
            else:
                raise ValueError(f"{word!r} is no face: nugget (n), lasso (l), 2, 3, 4 or 5")
        if not found:
            raise ValueError("keep which dice? for example keep nugget nugget, or keep 4 4")
        return {"faces": found}
    return generic_args(move, words, list(view.players))


def words(event: Any, names: Sequence[str], view: NuggetsView) -> str | None:
    """The app's log's line; after a take or a steal, a second line: the supply left
    and everyone's nuggets (the app's table shows them always)."""
    line = describe(event, names, view)
    if line and isinstance(event, Took | Stole):
        line += "\n" + answers(view, None, names, None)["scores"]
    return line


class Plain(Generic):
    """One seat's adapter (the functions above; Gold Nuggets keeps no state)."""

    words = staticmethod(words)

    current = staticmethod(current)
    legal = staticmethod(legal)
    prompt = staticmethod(prompt)
    answers = staticmethod(answers)
    parse = staticmethod(parse)
