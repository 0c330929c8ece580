"""Pictures of cards as lines of text, in Unicode or plain ASCII (``tui.glyphs``): the
card names in one hand stay distinct by their shapes alone."""

from __future__ import annotations

import functools
import zlib
from typing import TYPE_CHECKING

from tui.glyphs import BOX as _BOX

if TYPE_CHECKING:
    from net.games.foolsgold.views import Card

CARD_WIDTH = 13
CARD_HEIGHT = 7
ART_ROWS = (3, 4)  # the rows of a card's art: left out where the terminal is short

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
    kind = card.kind
    art = _ornament(name_look(name) if look is None else look, ascii_mode)
    label = (f"{h}{key}" if key else "") + (f"{h}{mark}" if mark else "")
    top = tl + label + h * (inner - len(label)) + tr
    # The foot tells how far the hand is toward a set of this name: what a player needs.
    need = {"animal": "3", "prospector": "5"}.get(kind, "?")
    # (the variant, a letter a-h, tells only the art apart: a stray letter to a player)
    foot = f"{have}/{need} set" if have is not None else f"set of {need}"
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
