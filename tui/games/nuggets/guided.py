"""Gold Nuggets' guided first turns (issue 47): what to do now and why, one step at a
time, beside the table's own hint. Offered once, on a person's first game."""

from __future__ import annotations

from typing import Any

from net.games.nuggets import GUIDED_TURNS

#: the guide stays for this many of the person's own turns: the host's own count of
#: the guided opening, where a guided table's pace changes (``NuggetsDriver``)
TURNS = GUIDED_TURNS


class NuggetsGuide:
    """Reads the table screen (``NuggetsScreen``) and says the step in front of the
    person; None once their second turn is over."""

    def __init__(self) -> None:
        self.turns = 0
        self._in_turn = False

    def words(self, screen: Any) -> str | None:
        view = screen.view
        if view is None:
            return "The game is being set up."
        if view.over:
            return None
        mine = screen.acting_seat is not None
        if mine and not self._in_turn:
            self.turns += 1
        elif not mine and self._in_turn and self.turns >= TURNS:
            return None
        self._in_turn = mine
        if not mine:
            return ("The others take their turns: each rolls the dice, sets some aside, "
                    "then rolls on or takes nuggets. Most nuggets at the end wins; the game "
                    "ends when the supply in the middle runs out.")
        now = screen.now()
        if now.phase == "roll":
            return "Your turn. Press enter to roll all seven dice."
        if now.phase == "keep" and not screen.selected:
            return ("Set aside at least one die: every nugget is worth 1, a lasso is worth "
                    "nothing but three of them let you steal, and a number counts only three "
                    "or more of it (4 4 4 is worth 4). Pick dice with 1-7, or press space for "
                    "the advisor's pick.")
        if now.phase == "keep":
            return ("Now choose: enter sets them aside and rolls the rest (if that roll has "
                    "nothing you may set aside, you bust and get nothing this turn), or t "
                    "takes their worth in nuggets and ends your turn.")
        if now.phase == "take":
            return ("All seven dice are set aside: t takes their worth, and then you play "
                    "a bonus turn with all seven again.")
        if "steal" in now.keys:
            return ("Three lassos: s takes the worth from another player instead of the "
                    "supply, t from the supply; enter rolls on.")
        return ("enter rolls the dice left (a roll with nothing to set aside loses this "
                "turn's dice), or t takes what is set aside.")
