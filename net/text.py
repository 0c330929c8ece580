"""Peer text is hostile until cleaned: the host cleans every name, chat line and table
name here, in one place, before anyone else sees it."""

from __future__ import annotations

import re
import unicodedata

NAME_MAX = 20
CHAT_MAX = 200
TABLE_NAME_MAX = 30

# Whole escape sequences go, not just the ESC byte, so "\x1b[31m" leaves no "[31m":
# CSI (ESC [ or the C1 byte 0x9b) with parameters, OSC/DCS/APC/PM/SOS strings up to
# their terminator, and any other two-character ESC sequence.
_ESCAPES = re.compile(
    r"(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]?"
    r"|(?:\x1b[\]P^_X]|[\x90\x9d\x9e\x9f\x98])[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?"
    r"|\x1b[\x20-\x7e]?"
)
# Bidirectional overrides and isolates can make text display in a different order
# than it is stored; line and paragraph separators break layouts.
_INVISIBLE = dict.fromkeys(
    [*range(0x202A, 0x202F), *range(0x2066, 0x206A), 0x200E, 0x200F, 0x061C, 0xFEFF], None
)
_SPACES = re.compile(r"\s+")


def strip_controls(text: str) -> str:
    """``text`` without escape sequences, control characters other than newline and tab,
    lone surrogates and bidi controls; nothing else changes. What a client does to
    every string a host sends, so a hostile host cannot reach the terminal either."""
    text = _ESCAPES.sub("", text).translate(_INVISIBLE)
    return "".join(
        ch for ch in text if ch in "\n\t" or unicodedata.category(ch) not in ("Cc", "Cs")
    )


def clean_text(text: str) -> str:
    """``text`` without escape sequences, control characters (C0, DEL, C1), lone
    surrogates, bidi controls and line breaks; runs of white space become one space,
    and the ends are trimmed. The result is plain literal text."""
    text = _ESCAPES.sub("", text)
    text = text.translate(_INVISIBLE)
    text = "".join(
        " " if ch in "\t\n\r\v\f\u2028\u2029\x85" else ch
        for ch in text
        if ch in "\t\n\r\v\f\u2028\u2029\x85" or unicodedata.category(ch) not in ("Cc", "Cs")
    )
    return _SPACES.sub(" ", text).strip()


def check_length(text: str, what: str, maximum: int) -> str | None:
    """A sentence saying what is wrong with the length of cleaned ``text``, or None."""
    if not text:
        return f"The {what} is empty (after removing control characters)."
    if len(text) > maximum:
        return f"The {what} has {len(text)} characters; at most {maximum} are allowed."
    return None
