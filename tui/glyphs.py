"""Text pictures' shared parts: the box-drawing frames (Unicode, or plain ASCII) and
whether this terminal wants ASCII. Each game draws its own pieces with them
(``tui.games.<key>.glyphs``: dice, cards).

Pure functions, no Textual: widgets turn these lines into styled text. Every piece,
and the pieces in one view, must stay distinct without colour (NO_COLOR, monochrome
terminals), so the shapes alone tell them apart; colour only helps.
"""

from __future__ import annotations

import locale
import os
import sys

#: the frame of a piece: (ascii_mode, selected) -> tl, tr, bl, br, horizontal, vertical
BOX = {
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


#: terminals that say they draw no more than ASCII (a hardware terminal's TERM): no
#: box-drawing characters or blocks for them, whatever the locale says
ASCII_TERMS = ("vt52", "vt100", "vt102", "vt220", "vt320", "ansi")


def ascii_default() -> bool:
    """True when the terminal cannot be trusted with box-drawing characters: a C locale,
    an encoding that is not UTF-8, or a terminal that says it has no more than ASCII."""
    if locale_is_c():
        return True
    term = os.environ.get("TERM", "").casefold()
    if term.split("-")[0] in ASCII_TERMS:
        return True
    encoding = (getattr(sys.stdout, "encoding", None) or locale.getpreferredencoding(False))
    return "utf" not in encoding.lower().replace("-", "")
