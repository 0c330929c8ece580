"""The keys of a Gold Nuggets table, and their help."""

from __future__ import annotations

from textual.binding import Binding

from net.games.nuggets import SPEC as NUGGETS
from net.games.nuggets.moves import ROLL, STOP
from tui.keys import with_ids

BINDINGS = with_ids(NUGGETS.key, [
    *(Binding(str(i), f"toggle({i - 1})", f"Die {i}", show=False) for i in range(1, 8)),
    Binding("n", "select_face('nugget')", "All nuggets", show=False),
    Binding("l", "select_face('lasso')", "All lassos", show=False),
    # F2-F5, or shift+2..5 on a US keyboard (@ # $ %): the digits toggle single dice.
    *(Binding(f"f{d},{shifted}", f"select_face('{d}')", f"All {d}s", show=False)
      for d, shifted in zip("2345", ("at", "number_sign", "dollar_sign", "percent_sign"),
                            strict=True)),
    # the moves' keys and labels are their declarations' (net/games/nuggets/moves.py)
    Binding(ROLL.key, "roll", ROLL.touch, key_display=ROLL.key),
    Binding("space", "advised", "Advised", key_display="space"),
    Binding(STOP.key, "take", STOP.touch),
    Binding("s", "steal", "Steal"),
    Binding("escape", "clear", "Clear", show=False),
    Binding("a", "advisor", "Advisor"),
    Binding("c", "app.chat", "Chat", show=False),
    Binding("q", "app.leave", "Leave"),
])
HELP = [
    ("1-7", "select or unselect that die"),
    ("n / l", "select all nuggets / all lassos"),
    ("F2-F5", "select all 2s, 3s, 4s or 5s (also shift+2-5 on a US keyboard)"),
    ("enter", "set the selected dice aside and roll the rest (or roll at turn start); "
              "with nothing selected, the advisor's choice, after a second enter"),
    ("space", "select the advisor's set-aside; space again plays the advice (the set-aside "
              "and then roll on, take or steal, as the panel says); after a set-aside, "
              "space plays the advised roll on, take or steal"),
    ("t", "set the selected dice aside and take their worth from the supply"),
    ("s", "with three lassos: set aside and steal from a player you pick"),
    ("esc", "clear the selection"),
    ("a", "show or hide the advisor"),
    ("c", "chat (LAN games)"),
    ("j", "while the host is gone: try to reach it now"),
    ("q", "leave the table"),
]
