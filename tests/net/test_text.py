"""Peer text is cleaned at the host, in one function."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from net.text import CHAT_MAX, NAME_MAX, check_length, clean_text


@pytest.mark.parametrize(
    ("raw", "clean"),
    [
        ("Ann", "Ann"),
        ("\x1b[31mRed\x1b[0m", "Red"),
        ("\x1b[2J\x1b[HWiped", "Wiped"),
        ("a\x00b\x07c\x08d", "abcd"),
        ("x\x9b31my", "xy"),  # C1 CSI
        ("\x85\x90\x9f", ""),  # C1 controls
        ("\x1b]0;evil title\x07ok", "ok"),  # OSC set-title
        ("\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\", "link"),  # OSC 8 hyperlink
        ("bi\u202edi\u2066", "bidi"),  # bidi overrides and isolates
        ("tab\there\nnew\r\nline", "tab here new line"),
        ("\ud800lone", "lone"),  # a lone surrogate cannot be printed
        ("  many   spaces  ", "many spaces"),
        ("café 😀 [bold]x[/]", "café 😀 [bold]x[/]"),  # markup stays literal text
        ("ok\x7f", "ok"),
        ("\x1bcreset", "reset"),
    ],
)
def test_clean_text(raw, clean):
    assert clean_text(raw) == clean


@given(st.text())
def test_cleaned_text_holds_no_control_characters(raw):
    out = clean_text(raw)
    assert not any(ord(c) < 0x20 or 0x7F <= ord(c) <= 0x9F for c in out)
    assert "\x1b" not in out
    assert out == out.strip()
    assert clean_text(out) == out  # cleaning is idempotent


@given(st.text(alphabet=st.characters(min_codepoint=0, max_codepoint=0x7F)))
def test_the_printable_ascii_shortcut_cleans_as_the_whole_path_does(raw):
    """Printable ASCII (every host message, most names) skips the full pipeline; it must
    come out as the full pipeline would have made it, and other ASCII must not skip."""
    from net import text

    assert clean_text(raw) == text._clean(raw)


def test_lengths():
    assert check_length("", "name", NAME_MAX) is not None
    assert check_length("x" * NAME_MAX, "name", NAME_MAX) is None
    assert "21 characters" in check_length("x" * 21, "name", NAME_MAX)
    assert check_length("y" * CHAT_MAX, "chat message", CHAT_MAX) is None
