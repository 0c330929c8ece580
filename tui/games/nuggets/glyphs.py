"""Pictures of dice as lines of text, in Unicode or plain ASCII (``tui.glyphs``): every
face stays distinct by its shape alone."""

from __future__ import annotations

from tui.glyphs import BOX as _BOX

DIE_WIDTH = 9
DIE_HEIGHT = 5
FACES = ("nugget", "lasso", "2", "3", "4", "5")

# Pip positions in a 3x3 grid (row, column) for the number faces.
_PIPS = {
    "2": {(0, 0), (2, 2)},
    "3": {(0, 0), (1, 1), (2, 2)},
    "4": {(0, 0), (0, 2), (2, 0), (2, 2)},
    "5": {(0, 0), (0, 2), (1, 1), (2, 0), (2, 2)},
}

# The inner 7x3 picture of the two symbol faces.
_SYMBOL = {
    ("nugget", False): ("  ▄█▄  ", " ▐███▌ ", "NUGGET "),
    ("nugget", True): ("  $$$  ", " $$$$$ ", "NUGGET "),
    ("lasso", False): (" ╭───╮ ", " ╰─┬─╯ ", " LASSO "),
    ("lasso", True): (" (---) ", "  \\_/~ ", " LASSO "),
}

def _inner(face: str, ascii_mode: bool) -> tuple[str, str, str]:
    if face in _PIPS:
        pip = "o" if ascii_mode else "●"
        rows = []
        for r in range(3):
            cells = [pip if (r, c) in _PIPS[face] else " " for c in range(3)]
            rows.append(" " + " ".join(cells) + " ")
        return rows[0], rows[1], rows[2]
    return _SYMBOL[(face, ascii_mode)]


def die_lines(face: str, *, ascii_mode: bool = False, selected: bool = False) -> list[str]:
    """A die of DIE_WIDTH x DIE_HEIGHT; a selected die has a heavy (or `#`) frame."""
    if face not in FACES:
        raise ValueError(f"unknown die face {face!r}; expected one of {', '.join(FACES)}")
    tl, tr, bl, br, h, v = _BOX[(ascii_mode, selected)]
    inner = _inner(face, ascii_mode)
    top = tl + h * (DIE_WIDTH - 2) + tr
    bottom = bl + h * (DIE_WIDTH - 2) + br
    # The number faces carry their digit in the bottom frame, so they read as numbers
    # even where pips blur together.
    if face in _PIPS:
        bottom = bl + h * 3 + face + h * 3 + br
    return [top, *(v + row + v for row in inner), bottom]


def small_die(face: str, *, ascii_mode: bool = False) -> str:
    """A one-cell-high die for the set-aside tray: `[N]`, `[L]`, `[3]`."""
    mark = {"nugget": "N", "lasso": "L"}.get(face, face)
    return f"[{mark}]"
