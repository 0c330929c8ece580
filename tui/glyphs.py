"""Pictures of dice and cards as lines of text, in Unicode or plain ASCII.

Pure functions, no Textual: widgets turn these lines into styled text. Every face, and
the card names in one hand, must stay distinct without colour (NO_COLOR, monochrome
terminals), so the shapes alone tell them apart; colour only helps.
"""

from __future__ import annotations

import functools
import locale
import os
import sys
import zlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from net.views import Card

DIE_WIDTH = 9
DIE_HEIGHT = 5
CARD_WIDTH = 13
CARD_HEIGHT = 7

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

_BOX = {
    # tl, tr, bl, br, horizontal, vertical
    (False, False): "╭╮╰╯─│",
    (False, True): "┏┓┗┛━┃",
    (True, False): "+++" "+-|",
    (True, True): "#####" "#",
}


def locale_is_c(environ: dict[str, str] | None = None) -> bool:
    """True when the user's locale is C or POSIX (``LANG=C``, ``LC_ALL=C``): a plain
    terminal. Python coerces the C locale to UTF-8 for itself (PEP 538: it sets
    ``LC_CTYPE=C.UTF-8``), so stdout's encoding no longer tells; the variables the
    user set do."""
    env = os.environ if environ is None else environ
    lc_all, lc_ctype, lang = (env.get(k, "") for k in ("LC_ALL", "LC_CTYPE", "LANG"))
    if lc_ctype in ("C.UTF-8", "C.utf8") and not lc_all:
        lc_ctype = ""  # most likely Python's own coercion, not the user's choice
    effective = lc_all or lc_ctype or lang
    return effective in ("C", "POSIX")


def ascii_default() -> bool:
    """True when the terminal cannot be trusted with box-drawing characters: a C locale,
    or an encoding that is not UTF-8."""
    if locale_is_c():
        return True
    encoding = (getattr(sys.stdout, "encoding", None) or locale.getpreferredencoding(False))
    return "utf" not in encoding.lower().replace("-", "")


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


def face_label(face: str) -> str:
    """A short name of a face for logs and the tray."""
    return {"nugget": "nugget", "lasso": "lasso"}.get(face, face)


def small_die(face: str, *, ascii_mode: bool = False) -> str:
    """A one-cell-high die for the set-aside tray: `[N]`, `[L]`, `[3]`."""
    mark = {"nugget": "N", "lasso": "L"}.get(face, face)
    return f"[{mark}]"


# Card art: a look (two rows of ornament, and a colour the widget picks with it) per card
# NAME, so cards of one name look alike, and the names of the standard deck all look
# different, in any hand. Look k has the top row of ornament k % 8 and the bottom row of
# ornament (k % 8 + k // 8) % 8: 64 looks, any two differing in a row (so they stay
# apart without colour), looks 0-7 being the ornaments as drawn here.
_ORNAMENTS_UNICODE = (
    ("∿∿∿∿∿∿∿∿", "∿∿∿∿∿∿∿∿"),
    ("▲△▲△▲△▲△", "△▲△▲△▲△▲"),
    ("╱╲╱╲╱╲╱╲", "╲╱╲╱╲╱╲╱"),
    ("▒▓▒▓▒▓▒▓", "▓▒▓▒▓▒▓▒"),
    ("◆◇◆◇◆◇◆◇", "◇◆◇◆◇◆◇◆"),
    ("●○●○●○●○", "○●○●○●○●"),
    ("┼─┼─┼─┼─", "─┼─┼─┼─┼"),
    ("✦ ✦ ✦ ✦ ", " ✦ ✦ ✦ ✦"),
)
_ORNAMENTS_ASCII = (
    ("~~~~~~~~", "~~~~~~~~"),
    ("^v^v^v^v", "v^v^v^v^"),
    ("* + * + ", " + * + *"),
    ("=-=-=-=-", "-=-=-=-="),
    ("<><><><>", "<><><><>"),
    ("o.o.o.o.", ".o.o.o.o"),
    ("#:#:#:#:", ":#:#:#:#"),
    ("/\\/\\/\\/\\", "\\/\\/\\/\\/"),
)
_ROWS = len(_ORNAMENTS_UNICODE)
#: how many different looks there are: more than the names of the standard deck
LOOKS = _ROWS * _ROWS


@functools.cache
def _named() -> dict[str, int]:
    """Every name the standard deck can hold, each with its own look. (Read from the
    rules when a card is first drawn: the menu, which imports this module for
    `ascii_default`, loads no rules package.)"""
    from foolsgold.cards import ANIMAL_NAMES, PROSPECTOR_NAMES

    return {name: k for k, name in enumerate((*ANIMAL_NAMES, *PROSPECTOR_NAMES))}


def name_look(name: str) -> int:
    """The look of a card name: a function of the name alone, the same in every run, on
    every machine and in every hand, whatever came before. The standard deck's names
    have a look each; another name one by its hash."""
    known = _named().get(name)
    return known if known is not None else zlib.crc32(name.encode("utf-8")) % LOOKS


def look_colour(look: int) -> int:
    """The colour (0-7) of a look: two looks of one colour differ in their top row."""
    return (look % _ROWS + 3 * (look // _ROWS)) % _ROWS


def _ornament(look: int, ascii_mode: bool) -> tuple[str, str]:
    table = _ORNAMENTS_ASCII if ascii_mode else _ORNAMENTS_UNICODE
    look %= LOOKS
    top, shift = look % _ROWS, look // _ROWS
    return table[top][0], table[(top + shift) % _ROWS][1]


def _name_rows(name: str, width: int) -> tuple[str, str]:
    """A card name on two rows, split at a space when it does not fit on one."""
    if len(name) <= width:
        return name, ""
    head, _, tail = name.rpartition(" ")
    if head and len(head) <= width:
        return head, tail[:width]
    return name[:width], name[width : 2 * width]


def card_lines(
    card: Card, *, ascii_mode: bool = False, selected: bool = False, key: str = "",
    look: int | None = None, have: int | None = None, mark: str = "",
) -> list[str]:
    """A card of CARD_WIDTH x CARD_HEIGHT: name, two rows of the name's art, and the
    progress toward a set.

    `key` (e.g. "1") is printed in the top frame so the discard key is on the card, and
    `mark` (e.g. "new") after it. `look` picks the art (default: the name's own look);
    `have` is how many cards of this name the hand holds: the foot reads "2/3 set".
    """
    tl, tr, bl, br, h, v = _BOX[(ascii_mode, selected)]
    inner = CARD_WIDTH - 2
    name = "".join(ch for ch in card.name if ch.isprintable()) or "?"
    variant = "".join(ch for ch in card.variant if ch.isprintable())[:2]
    kind = card.kind
    art = _ornament(name_look(name) if look is None else look, ascii_mode)
    label = (f"{h}{key}" if key else "") + (f"{h}{mark}" if mark else "")
    top = tl + label + h * (inner - len(label)) + tr
    # The foot tells how far the hand is toward a set of this name: what a player needs.
    need = {"animal": "3", "prospector": "5"}.get(kind, "?")
    dot = "." if ascii_mode else "·"
    progress = f"{have}/{need} set" if have is not None else f"{need}-set"
    foot = f"{progress} {dot} {variant}"[:inner]
    first, second = _name_rows(name, inner)
    rows = [first, second, art[0], art[1], foot]
    return [top, *(v + row.center(inner) + v for row in rows), bl + h * inner + br]


def empty_slot_lines(*, ascii_mode: bool = False, key: str = "") -> list[str]:
    """An empty slot of the hand (its card was passed): the key stays where it was."""
    tl, tr, bl, br, h, v = _BOX[(ascii_mode, False)]
    inner = CARD_WIDTH - 2
    label = f"{h}{key}" if key else ""
    top = tl + label + h * (inner - len(label)) + tr
    return [top, *(v + " " * inner + v for _ in range(CARD_HEIGHT - 2)), bl + h * inner + br]


def card_back_lines(*, ascii_mode: bool = False) -> list[str]:
    """A face-down card: used for opponents' hands and piles."""
    tl, tr, bl, br, h, v = _BOX[(ascii_mode, False)]
    fill = "/" if ascii_mode else "░"
    inner = CARD_WIDTH - 2
    rows = CARD_HEIGHT - 2
    return [tl + h * inner + tr, *(v + fill * inner + v for _ in range(rows)), bl + h * inner + br]
