"""Peer text is hostile until cleaned: the host cleans every name, chat line and table
name here, in one place, before anyone else sees it.

Cleaned text is what a person sees: no escape sequences, no control characters, and no
characters that show nothing (zero-width spaces, soft hyphens, bidi and other format
characters, variation selectors, fillers), so two names that read the same are the
same text, and :func:`visible_key` compares them as a person would."""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Iterable

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

# Unicode's Default_Ignorable_Code_Point (DerivedCoreProperties.txt): characters that
# render as nothing. With every format character (category Cf) they are what lets
# "A\u200bnn" or "An\u00adn" read "Ann" while being other text.
_IGNORABLE_RANGES = (
    (0x00AD, 0x00AD),  # soft hyphen
    (0x034F, 0x034F),  # combining grapheme joiner
    (0x061C, 0x061C),
    (0x115F, 0x1160),  # Hangul fillers
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),  # Mongolian variation selectors, vowel separator
    (0x200B, 0x200F),  # zero-width space, (non-)joiner, LRM, RLM
    (0x202A, 0x202E),
    (0x2060, 0x206F),  # word joiner, invisible operators, isolates
    (0x3164, 0x3164),  # Hangul filler
    (0xFE00, 0xFE0F),  # variation selectors
    (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0),  # halfwidth Hangul filler
    (0xFFF0, 0xFFF8),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),  # tags, variation selectors supplement
)
_ZWJ = "\u200d"
_PRESENTATION = "\ufe0e\ufe0f"  # text and emoji presentation selectors


def invisible(ch: str) -> bool:
    """Whether ``ch`` shows nothing: a format character or a default-ignorable one."""
    code = ord(ch)
    if unicodedata.category(ch) == "Cf":
        return True
    return any(low <= code <= high for low, high in _IGNORABLE_RANGES)


def _emoji(ch: str) -> bool:
    # emoji and their skin-tone modifiers are symbols (So, Sk)
    return unicodedata.category(ch) in ("So", "Sk")


def _drop_invisible(text: str) -> str:
    """``text`` without invisible characters, except the ones emoji are built with:
    a presentation selector right after a symbol (the red heart), a zero-width joiner
    between two (a family, an astronaut)."""
    out: list[str] = []
    for i, ch in enumerate(text):
        if not invisible(ch):
            out.append(ch)
            continue
        prev = out[-1] if out else ""
        if ch in _PRESENTATION and prev and _emoji(prev):
            out.append(ch)
        elif (
            ch == _ZWJ
            and prev
            and (_emoji(prev) or prev in _PRESENTATION)
            and i + 1 < len(text)
            and _emoji(text[i + 1])
        ):
            out.append(ch)
    return "".join(out)


def strip_controls(text: str) -> str:
    """``text`` without escape sequences, control characters other than newline and tab,
    lone surrogates and bidi controls; nothing else changes. What a client does to
    every string a host sends, so a hostile host cannot reach the terminal either."""
    text = _ESCAPES.sub("", text).translate(_INVISIBLE)
    return "".join(
        ch for ch in text if ch in "\n\t" or unicodedata.category(ch) not in ("Cc", "Cs")
    )


def clean_text(text: str) -> str:
    """``text`` as a person sees it: without escape sequences, control characters (C0,
    DEL, C1), lone surrogates, line breaks and invisible characters (bidi controls,
    zero-width spaces, soft hyphens, every format character; emoji keep their
    joiners), in NFC form (an accent typed apart is one with its letter); runs of
    white space become one space, and the ends are trimmed. Plain literal text."""
    if text.isascii() and text.isprintable():
        # the common case, and every message of the host's own: printable ASCII holds
        # no escape, control, invisible or decomposed character; only spaces to fold
        return _SPACES.sub(" ", text).strip()
    return _clean(text)


def _clean(text: str) -> str:
    text = _ESCAPES.sub("", text)
    text = text.translate(_INVISIBLE)
    text = "".join(
        " " if ch in "\t\n\r\v\f\u2028\u2029\x85" else ch
        for ch in text
        if ch in "\t\n\r\v\f\u2028\u2029\x85" or unicodedata.category(ch) not in ("Cc", "Cs")
    )
    text = unicodedata.normalize("NFC", _drop_invisible(text))
    return _SPACES.sub(" ", text).strip()


def visible_key(text: str) -> str:
    """What two names are compared by: their cleaned text with nothing invisible left
    (emoji joiners included), compatibility forms folded (a fullwidth ``Ａ`` is an
    ``A``) and case ignored. Names with the same key read the same to a person."""
    text = "".join(ch for ch in clean_text(text) if not invisible(ch))
    return unicodedata.normalize("NFKC", text).casefold()


# characters that draw a blank but are not white space: the Braille blank, and the
# Hangul fillers (also default-ignorable, so already gone from cleaned text)
_BLANKS = dict.fromkeys([0x2800, 0x115F, 0x1160, 0x3164, 0xFFA0], None)
#: what a bot's name ends with (``net.table``): a person's name may not
BOT_SUFFIX = " (bot)"


def clean_name(text: str) -> str:
    """A name as a person sees it: :func:`clean_text`, without the characters that
    draw a blank (``Bob`` padded with U+2800 is ``Bob``)."""
    return clean_text(clean_text(text).translate(_BLANKS))


def _mapped(text: str) -> str:
    classes = _confusable_classes()
    text = unicodedata.normalize("NFD", text)
    return unicodedata.normalize("NFD", "".join(classes.get(ch, ch) for ch in text)).casefold()


@functools.lru_cache(maxsize=4096)  # names at tables are compared at every join
def name_keys(text: str) -> frozenset[str]:
    """What two names are compared by where a look-alike could pass for someone: the
    UTS #39 confusable skeleton, taken of the name as typed (so a capital's look-alikes
    count: ``Βob`` with a Greek capital beta, ``lris`` with a lower-case L) and of
    the name case-folded (so ``BOB`` is ``bob``), each then compared case-insensitively.
    Two names read the same when they share a key. From the Unicode confusables data of
    the ``confusable-homoglyphs`` package: every character is replaced by one chosen
    member (the lowest code point) of its set of look-alikes."""
    visible = "".join(ch for ch in clean_name(text) if not invisible(ch))
    typed = unicodedata.normalize("NFKC", visible)
    return frozenset((_mapped(typed), _mapped(typed.casefold())))


def same_name(a: str, b: str) -> bool:
    """Whether names ``a`` and ``b`` read the same to a person (:func:`name_keys`)."""
    return not name_keys(a).isdisjoint(name_keys(b))


def name_problem(name: str, others: Iterable[str] = ()) -> str | None:
    """Why ``name`` cannot be a person's, or None: it reads as a bot's, or it mixes
    scripts in a way UTS #39 calls a look-alike (a Cyrillic ``В`` among Latin
    letters). ``others``: the names already there, to say whose name it reads like."""
    bot = name_keys(BOT_SUFFIX.strip()) | name_keys(BOT_SUFFIX.strip().upper())
    keys = name_keys(name)
    if any(key.endswith(tail) for key in keys for tail in bot):
        return f"{quote_peer(name)} reads as a bot's name: only bots' names end in (bot)."
    if any(":" in key for key in keys):
        return (f"{quote_peer(name)} has a colon (or a look-alike of one): a name never "
                "does, so no line can pass a name off as the game's own words.")
    if any(_opens_with(key, words) for key in keys for words in _game_words()):
        return (f"{quote_peer(name)} reads as the game's own words (a line that starts with "
                "it could pass for the game speaking); choose another name.")
    from confusable_homoglyphs import categories, confusables

    # UTS #39: Common and Inherited (combining marks) go with any script
    if confusables.is_mixed_script(name, allowed_aliases=["COMMON", "INHERITED"]) and \
            confusables.is_confusable(name, preferred_aliases=[]):
        scripts = sorted(s.title() for s in
                         categories.unique_aliases(name) - {"COMMON", "INHERITED"})
        like = next((other for other in others if same_name(name, other)), None)
        reads = f"it reads like {quote_peer(like)}, who is here" if like else \
            "it reads like another name"
        return (f"{quote_peer(name)} mixes {' and '.join(scripts)} letters that look "
                f"alike, so {reads}; write your name in one script.")
    return None


#: how the game's own lines begin, where a person needs to act or hear the result
#: (``tui.plain``: "Your turn:", "Your move:", "Race:", "Refused:", "Game over:", and
#: "Chat from Ann:" for chat): a name that opens with these words is refused, so no line
#: that starts with a name reads as one of them
GAME_WORDS = ("your turn", "your move", "race", "refused", "game over", "match over",
              "chat from", "pass the keyboard", "the game starts", "seed revealed")


@functools.lru_cache(maxsize=1)
def _game_words() -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(_mapped(words).split()) for words in GAME_WORDS)


def _opens_with(key: str, words: tuple[str, ...]) -> bool:
    """Whether the words of ``key`` (a name's skeleton) begin with ``words``."""
    said = re.sub(r"[^\w]+", " ", key).split()
    return tuple(said[:len(words)]) == words


_classes: dict[str, str] | None = None


def _confusable_classes() -> dict[str, str]:
    """Character -> its look-alike set's representative (single characters only)."""
    global _classes
    if _classes is None:
        from confusable_homoglyphs import confusables

        parent: dict[str, str] = {}

        def find(ch: str) -> str:
            while parent.get(ch, ch) != ch:
                parent[ch] = parent.get(parent[ch], parent[ch])
                ch = parent[ch]
            return ch

        for source, entries in confusables.confusables_data.items():
            for entry in entries:
                target = "".join(c for c in entry["c"] if not invisible(c))
                if len(source) != 1 or len(target) != 1:
                    continue
                a, b = find(source), find(target)
                if a != b:
                    low, high = min(a, b), max(a, b)
                    parent[high] = low
        _classes = {ch: find(ch) for ch in parent}
        # the case-folded key decides case: a class never maps a letter to a capital
        _classes = {ch: rep.casefold() if len(rep.casefold()) == 1 else rep
                    for ch, rep in _classes.items()}
    return _classes


def quote_peer(text: str, limit: int = 40) -> str:
    """Peer text fit to quote in a message: cleaned, cut to ``limit`` characters (an
    ellipsis marks the cut), in quotes with anything unprintable escaped."""
    text = clean_text(text)
    if len(text) > limit:
        text = text[: limit - 1].rstrip() + "…"
    return repr(text)


def check_length(text: str, what: str, maximum: int) -> str | None:
    """A sentence saying what is wrong with the length of cleaned ``text``, or None."""
    if not text:
        return f"The {what} is empty (after removing control characters)."
    if len(text) > maximum:
        return f"The {what} has {len(text)} characters; at most {maximum} are allowed."
    return None
