"""Dice and cards as text: fixed sizes, distinct shapes, ASCII mode without box drawing."""

import pytest
from rich.cells import cell_len

from net.games.foolsgold.views import Card
from tui import glyphs
from tui.games.foolsgold import glyphs as card_glyphs
from tui.games.nuggets import glyphs as dice_glyphs

BOX_DRAWING = {chr(c) for c in range(0x2500, 0x2600)}  # box drawing + block elements


@pytest.mark.parametrize("ascii_mode", [False, True])
@pytest.mark.parametrize("selected", [False, True])
def test_every_die_has_the_same_size(ascii_mode, selected):
    for face in dice_glyphs.FACES:
        lines = dice_glyphs.die_lines(face, ascii_mode=ascii_mode, selected=selected)
        assert len(lines) == dice_glyphs.DIE_HEIGHT
        assert all(cell_len(line) == dice_glyphs.DIE_WIDTH for line in lines), lines


@pytest.mark.parametrize("ascii_mode", [False, True])
def test_the_six_faces_look_different(ascii_mode):
    pictures = {tuple(dice_glyphs.die_lines(f, ascii_mode=ascii_mode)) for f in dice_glyphs.FACES}
    assert len(pictures) == 6


def test_a_selected_die_differs_from_an_unselected_one_without_colour():
    for ascii_mode in (False, True):
        for face in dice_glyphs.FACES:
            assert dice_glyphs.die_lines(face, ascii_mode=ascii_mode) != dice_glyphs.die_lines(
                face, ascii_mode=ascii_mode, selected=True
            )


def test_ascii_mode_is_plain_ascii():
    for face in dice_glyphs.FACES:
        for selected in (False, True):
            for line in dice_glyphs.die_lines(face, ascii_mode=True, selected=selected):
                assert line.isascii(), line
    for variant in "abcdefz":
        card = Card(name="Calamity Kate", kind="prospector", variant=variant)
        for line in card_glyphs.card_lines(card, ascii_mode=True, key="1"):
            assert line.isascii(), line
    for line in card_glyphs.card_back_lines(ascii_mode=True):
        assert line.isascii()


def test_unicode_mode_draws_boxes():
    assert set("".join(dice_glyphs.die_lines("3"))) & BOX_DRAWING


def test_same_name_cards_look_alike_whatever_their_variant():
    """A name decides a set, and a name has one look (``name_look``): the variant
    (a-h, the art of the printed deck) once showed as a stray letter on the foot."""
    for ascii_mode in (False, True):
        pictures = {
            tuple(card_glyphs.card_lines(Card(name="Owl", kind="animal", variant=v),
                                    ascii_mode=ascii_mode))
            for v in "abcdef"
        }
        assert len(pictures) == 1


@pytest.mark.parametrize("name", ["Owl", "Rattlesnake", "Calamity Kate", "Gila Monster", "X" * 40])
def test_cards_keep_their_size_with_long_names(name):
    lines = card_glyphs.card_lines(Card(name=name, kind="animal", variant="a"), key="6")
    assert len(lines) == card_glyphs.CARD_HEIGHT
    assert all(cell_len(line) == card_glyphs.CARD_WIDTH for line in lines)
    joined = " ".join(line[1:-1].strip() for line in lines[1:3])
    assert name[:11] in joined.replace(" ", "") or name.split()[0] in joined


def test_card_shows_the_discard_key_and_set_size():
    lines = card_glyphs.card_lines(Card(name="Owl", kind="animal", variant="b"), key="4")
    assert "4" in lines[0]
    # the foot in words only: the variant (b) tells the art apart, a stray letter there
    assert lines[-2].strip("│ ") == "set of 3"


def test_unknown_face_is_refused_with_its_name():
    with pytest.raises(ValueError, match="'7'"):
        dice_glyphs.die_lines("7")


@pytest.mark.parametrize(("encoding", "expected"), [
    ("utf-8", False), ("UTF8", False), ("ascii", True), ("ANSI_X3.4-1968", True),
    ("latin-1", True),
])
def test_ascii_mode_is_automatic_when_the_terminal_is_not_utf8(monkeypatch, encoding, expected):
    class Stream:
        pass

    stream = Stream()
    stream.encoding = encoding
    monkeypatch.setattr("sys.stdout", stream)
    for key in ("LC_ALL", "LC_CTYPE"):
        monkeypatch.delenv(key, raising=False)
    monkeypatch.setenv("LANG", "en_US.UTF-8")  # the encoding decides, not the locale
    assert glyphs.ascii_default() is expected


@pytest.mark.parametrize(("env", "expected"), [
    ({"LANG": "C"}, True),
    ({"LC_ALL": "C"}, True),
    ({"LANG": "POSIX"}, True),
    ({"LANG": "C", "LC_CTYPE": "C.UTF-8"}, True),  # Python's own coercion of a C locale
    ({"LANG": "en_US.UTF-8"}, False),
    ({"LC_ALL": "C.UTF-8"}, False),
    ({"LANG": "C", "LC_ALL": "en_GB.UTF-8"}, False),
    ({}, False),
])
def test_a_c_locale_turns_ascii_on(env, expected):
    assert glyphs.locale_is_c(env) is expected


def test_ascii_is_on_under_lang_c_even_with_a_utf8_stdout(monkeypatch):
    class Stream:
        encoding = "utf-8"

    monkeypatch.setattr("sys.stdout", Stream())
    for key in ("LC_ALL", "LC_CTYPE", "LANG"):
        monkeypatch.delenv(key, raising=False)
    monkeypatch.setenv("LANG", "C")
    assert glyphs.ascii_default() is True
    monkeypatch.setenv("LANG", "en_US.UTF-8")
    assert glyphs.ascii_default() is False
