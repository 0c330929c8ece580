"""The guided first round in a real terminal (tmux at 80x24 and 60x20): each step shows
what it names. Gold Nuggets' step after dice are chosen names enter and t (it once kept
saying "Pick dice with 1-7"); Fool's Gold's round-over step holds the points it speaks
of, whole, where it once pointed at a log the box left no rows for.

``solo --guided`` opens the guided round without the menu's offer, at the guide's own
pace (relaxed; ``--pace`` is the rest of the game's); Fool's Gold's shortest call
window keeps the round quick even so."""

from __future__ import annotations

import pytest

from tests.hardening.ptyapp import app_env, motherlode
from tests.hardening.tmux import REQUIRED, TMUX, Tmux
from tests.tui.helpers import SIZES

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(TMUX is None and not REQUIRED,
                       reason="no tmux here (.ci/run installs it and requires it)"),
]

sizes = pytest.mark.parametrize("size", SIZES, ids=["80x24", "60x20"])


def guide(shown: str) -> str | None:
    """The guide box's words, its rows joined (None: no whole box on the screen)."""
    rows = shown.splitlines()
    top = next((i for i, row in enumerate(rows) if row.startswith("╭─ Guide")), None)
    if top is None:
        return None
    words = []
    for row in rows[top + 1:]:
        if row.startswith("╰"):
            return " ".join(words)
        words.append(row.strip("│ "))
    return None  # the box's bottom is off the screen: cut


def _guided(tmp_path, size, game: str, *more: str) -> Tmux:
    return Tmux(motherlode("solo", "--game", game, "--bots", "1", "--guided", "--pace",
                           "normal", "--name", "Ann", *more), app_env(tmp_path), size)


@sizes
@pytest.mark.timeout(120)
def test_the_nuggets_guide_after_dice_are_chosen_names_enter_and_t(tmp_path, size):
    with _guided(tmp_path, size, "nuggets", "--bot-pace", "0", "--seed", "guide-1") as term:
        shown = term.settled(lambda s: "Press enter to roll" in (guide(s) or ""),
                             "the guide's first step", 30)
        term.keys("Enter")
        shown = term.settled(lambda s: "Pick dice with 1-7" in (guide(s) or ""),
                             "the guide's set-aside step", 30)
        term.keys("Space")  # the advisor's pick: dice chosen, not yet set aside
        shown = term.settled(lambda s: "Now choose" in (guide(s) or ""),
                             "the guide's step after choosing", 30)
    said = guide(shown)
    assert said is not None and "Pick dice" not in said, shown
    assert "enter sets them aside and rolls the rest" in said, shown
    assert "t takes their worth" in said, shown


@sizes
@pytest.mark.timeout(120)
def test_the_fools_gold_guides_round_over_shows_the_points_it_names(tmp_path, size):
    """Ann grabs at once (a bluff: her dealt hand holds no set at this seed): the race,
    the call window, the round settled; the guide's last step says the points."""
    with _guided(tmp_path, size, "foolsgold", "--bot-pace", "0.3", "--seed",
                 "guide-fg", "--set", "call_window=1") as term:
        term.settled(lambda s: guide(s) is not None and "Round 1" in s, "the guided round", 30)
        term.keys("g")
        shown = term.settled(lambda s: "Round over" in (guide(s) or ""),
                             "the guide's round-over step", 60)
    said = guide(shown)
    assert said is not None and "the log" not in said, shown
    assert "Ann" in said and ("+1" in said or "-1" in said), shown
    assert "The guide ends here" in said, shown
