"""Hostile text (issue 10, point 10): no error message echoes a peer's text uncleaned,
and names are compared and shown by what a person sees, so look-alikes get a suffix."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from net import protocol as p
from net.games.foolsgold import moves as fm
from net.games.nuggets import moves as nm
from net.protocol import Code
from net.table import Settings, Table, Tables
from net.text import NAME_MAX, clean_text, invisible, name_problem, quote_peer, visible_key

# What the raw client of issue 10 sent: ESC, an 8-bit CSI, a right-to-left override.
HOSTILE = ["\x1b[31m", "\x9b2J", "\u202e", "\x1b]0;owned\x07", "\u200b", "\u00ad", "\x00"]
INVISIBLES = [
    "\u00ad",  # soft hyphen
    "\u034f",
    "\u061c",
    "\u115f",
    "\u180e",
    "\u200b",  # zero-width space
    "\u200c",
    "\u200d",  # zero-width joiner
    "\u200e",
    "\u202a",
    "\u2060",  # word joiner
    "\u2063",
    "\u2066",
    "\u3164",  # Hangul filler
    "\ufe0f",
    "\ufeff",
    "\uffa0",
    "\U000e0041",  # a tag character
    "\U000e0100",  # a variation selector
]


def clean_enough(message: str) -> bool:
    """A message fit for a terminal: what cleaning leaves, no control, and nothing
    invisible but what an emoji is built with (a presentation selector or a joiner
    after a symbol, which cleaning keeps on purpose)."""
    def emoji_part(i: int) -> bool:
        return message[i] in "\ufe0e\ufe0f\u200d" and i > 0 and (
            unicodedata.category(message[i - 1]) in ("So", "Sk")
            or message[i - 1] in "\ufe0e\ufe0f")

    return (
        message == clean_text(message)
        and not any(invisible(ch) and not emoji_part(i) for i, ch in enumerate(message))
        and not any(unicodedata.category(ch) in ("Cc", "Cs") for ch in message)
    )


def hostile_text() -> st.SearchStrategy[str]:
    return st.lists(st.one_of(st.text(max_size=8), st.sampled_from(HOSTILE + INVISIBLES))).map(
        "".join
    )


# -- (a) errors built from a peer's bytes ---------------------------------------------


def refuse(role: p.Role, line: bytes) -> p.RemoteProtocolError:
    conn = p.Connection(role)
    conn.receive_data(line + b"\n")
    with pytest.raises(p.RemoteProtocolError) as info:
        conn.next_message()
    return info.value


def test_an_unknown_type_is_quoted_cleaned():
    error = refuse(p.HOST, rb'{"type":"\u001b[31mx\u009b2Jy\u202ez"}')
    assert error.code == Code.UNKNOWN_TYPE and error.ref is None
    assert error.message.startswith("unknown message type 'xyz'; types: add_bot, add_local")
    raw = '{"type":"x\u009b2Jy\u202ez"}'.encode()  # the same, as raw UTF-8
    assert refuse(p.HOST, raw).message == error.message


def test_a_long_unknown_type_is_cut():
    error = refuse(p.HOST, b'{"type":"' + b"x" * 900 + b'"}')
    assert f"unknown message type {quote_peer('x' * 900)};" in error.message
    assert "x" * 40 not in error.message and len(error.message) < 300


@settings(max_examples=300, deadline=None, derandomize=True)
@given(
    text=hostile_text(),
    shape=st.sampled_from(
        [
            '{{"type":{0}}}',
            '{{"type":"hello","protocol": 3,"name":[{0}]}}',
            '{{"type":"discard","card":{{"name":{0},"variant":{0},"kind":1}}}}',
            '{{"type":"chat","type":{0},"text":"x"}}',
            "{{{0}:1}}",
            "[{0}]",
            '{{"type":{0}',
        ]
    ),
    role=st.sampled_from([p.HOST, p.CLIENT]),
)
@pytest.mark.slow
def test_no_decode_error_echoes_peer_text_uncleaned(text, shape, role):
    import json

    line = shape.format(json.dumps(text, ensure_ascii=bool(len(text) % 2))).encode(
        "utf-8", "surrogatepass"
    )
    conn = p.Connection(role)
    conn.receive_data(line + b"\n")
    try:
        conn.next_message()
    except p.RemoteProtocolError as error:
        assert clean_enough(error.message), error.message
        assert clean_enough(error.to_message().message)


@given(text=hostile_text())
def test_an_error_message_is_clean_however_it_was_built(text):
    assert clean_enough(p.Error(code="internal", message=f"about {text}").message)


def test_decode_refusals_name_the_refused_type():
    """``ref`` is the message's type when the line is JSON and names a known type."""
    cases = {
        rb'{"type":"remove_bot","seat":-1}': (Code.BAD_FIELD, "remove_bot"),
        rb'{"type":"hello","name":"Ann"}': (Code.MISSING_FIELD, "hello"),
        rb'{"type":"configure","grace":1e999}': (Code.BAD_NUMBER, "configure"),
        rb'{"type":"chat","text":"a","text":"x"}': (None, None),  # the last key counts
        rb'{"type":"chat","text":5,"text":"x"}': (Code.BAD_FIELD, "chat"),  # each is checked
        rb'{"type":"nope"}': (Code.UNKNOWN_TYPE, None),
        rb'{"type":"chat","text":"\ud800"}': (Code.BAD_JSON, None),
        rb'{"type":"configure","grace":NaN}': (Code.BAD_NUMBER, None),
    }
    for line, (code, ref) in cases.items():
        conn = p.Connection(p.HOST)
        conn.receive_data(line + b"\n")
        try:
            message = conn.next_message()
        except p.RemoteProtocolError as error:
            assert (error.code, error.ref, error.to_message().ref) == (code, ref, ref), line
        else:
            assert code is None and message == p.Chat(text="x"), line


def hello(name: str, **kw) -> p.Hello:
    return p.Hello(protocol=3, name=name, **kw)


def join(tables: Tables, name: str, **kw):
    inbox: list = []
    member = tables.hello(hello(name, **kw), inbox.append, lambda reason: None, 0.0)
    return member, inbox


def test_every_refusal_the_host_builds_from_peer_text_is_clean():
    """Hostile text wherever a peer's string reaches an error: the table name of a
    hello, a setting, a bot's difficulty, a die's face, a card's name, kind and
    variant, a local player's name."""
    evil = "\x1b[31mRed\x9b2J\u202eevil\u200b\x1b]0;t\x07"
    tables = Tables()
    tables.add(Table("Saloon", "foolsgold", Settings(seats=3, seed="t", first_player=0)))
    tables.add(Table("Camp", "nuggets", Settings(seats=2, seed="t", first_player=0)))
    errors: list[p.Error] = []
    with pytest.raises(Exception) as info:
        join(tables, "Ann", table=evil)
    assert info.value.code == Code.NO_SUCH_TABLE
    errors.append(p.Error(code=info.value.code, message=info.value.message))
    ann, inbox = join(tables, "Ann", table="Saloon")
    bob, _ = join(tables, "Bob", table="Saloon")
    table = tables.tables["Saloon"]
    table.handle(ann, p.Configure(difficulty=evil), 0.0)
    table.handle(ann, p.AddBot(difficulty=evil), 0.0)
    table.handle(ann, p.AddLocal(name=evil), 0.0)
    table.handle(ann, p.Ready(), 0.0)
    table.handle(bob, p.Ready(), 0.0)
    table.handle(ann, p.Start(), 0.0)
    assert table.phase == "playing"
    for card in (
        fm.CardRef(name=evil, variant="a"),
        fm.CardRef(name="Owl", variant="a", kind=evil),
        fm.CardRef(name="Owl", variant=evil),
    ):
        table.handle(ann, fm.DRAW(), 0.0)
        table.handle(ann, fm.DISCARD(card=card), 0.0)
    camp = tables.tables["Camp"]
    cy, cy_inbox = join(tables, "Cy", table="Camp")
    camp.handle(cy, p.AddBot(), 0.0)
    camp.handle(cy, p.Start(), 0.0)
    camp.handle(cy, nm.ROLL(), 0.0)
    camp.handle(cy, nm.KEEP(faces=[evil]), 0.0)
    errors += [m for m in inbox + cy_inbox if isinstance(m, p.Error)]
    codes = [e.code for e in errors]
    for code in ("no_such_table", "bad_setting", "illegal_action"):
        assert code in codes, codes
    assert len(errors) >= 7, codes
    for error in errors:
        assert clean_enough(error.message), error
        assert "\x1b" not in error.message and "\u202e" not in error.message


# -- (b) names by their visible form ---------------------------------------------------


@pytest.mark.parametrize(
    "look_alike",
    [
        "A\u200bnn",  # zero-width space
        "An\u00adn",  # soft hyphen
        "Ann\u2060",  # word joiner
        "\u3164Ann",  # a Hangul filler, which shows as a blank
        "A\U000e0041nn",  # a tag character
        "Ａｎｎ",  # fullwidth letters
    ],
)
def test_a_look_alike_name_gets_a_suffix(look_alike):
    tables = Tables()
    tables.add(Table("Saloon", "nuggets", Settings(seats=4)))
    ann, _ = join(tables, "Ann")
    other, inbox = join(tables, look_alike)
    assert visible_key(other.name) == visible_key("Ann 2")
    assert not any(invisible(ch) for ch in other.name)
    assert inbox[0].name == other.name  # the welcome shows the name the table knows


def test_the_three_anns_of_issue_10_read_differently():
    tables = Tables()
    tables.add(Table("Saloon", "nuggets", Settings(seats=4)))
    names = [join(tables, raw)[0].name for raw in ["Ann", "A\u200bnn", "An\u00adn"]]
    assert names == ["Ann", "Ann 2", "Ann 3"]


def test_an_accent_typed_apart_is_the_same_letter():
    assert clean_text("Jose\u0301") == "José"  # NFC
    tables = Tables()
    tables.add(Table("Saloon", "nuggets", Settings(seats=4)))
    assert [join(tables, n)[0].name for n in ["José", "Jose\u0301"]] == ["José", "José 2"]


def test_emoji_keep_their_joiners():
    for text in ["👩\u200d🚀", "❤\ufe0f", "👩🏽\u200d🚀", "🏳\ufe0f\u200d🌈"]:
        assert clean_text(text) == text
    assert clean_text("a\u200db") == "ab"  # a joiner between letters shows nothing


NAME_CHARS = st.characters(
    codec="utf-8", categories=["Lu", "Ll", "Lo", "Nd", "So", "Mn", "Zs", "Po"]
)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(
    name=st.text(NAME_CHARS, min_size=1, max_size=NAME_MAX),
    hidden=st.lists(
        st.tuples(st.integers(0, NAME_MAX), st.sampled_from(INVISIBLES)), min_size=1, max_size=4
    ),
)
@pytest.mark.slow
def test_hidden_characters_never_make_a_name_new(name, hidden):
    """Any name, with invisible characters slipped in anywhere, reads as the same
    name: it gets a suffix beside the plain one, and neither shows anything hidden. A
    name refused as a mixed-script look-alike is refused hidden characters and all."""
    plain = clean_text(name)
    if not plain:
        return
    chars = list(name)
    for where, ch in hidden:
        chars.insert(where % (len(chars) + 1), ch)
    sneaky = "".join(chars)
    assert visible_key(sneaky) == visible_key(plain)
    tables = Tables()
    tables.add(Table("Saloon", "nuggets", Settings(seats=4)))
    if name_problem(plain) is not None:
        for typed in (plain, sneaky):
            with pytest.raises(p.ProtocolError) as refused:
                join(tables, typed)
            assert refused.value.code == Code.BAD_NAME
        return
    first, _ = join(tables, plain)
    second, _ = join(tables, sneaky)
    assert visible_key(first.name) != visible_key(second.name)
    assert second.name.endswith(" 2") and len(second.name) <= NAME_MAX
    for shown in (first.name, second.name):
        assert shown == clean_text(shown)
        assert not any(invisible(ch) for ch in shown if ch not in "\u200d\ufe0e\ufe0f")


@given(st.text())
@pytest.mark.slow
def test_cleaned_text_shows_nothing_invisible(raw):
    out = clean_text(raw)
    assert out == clean_text(out)  # idempotent
    assert out == unicodedata.normalize("NFC", out)
    for i, ch in enumerate(out):
        if invisible(ch):  # only what builds an emoji: a selector or joiner after a symbol
            assert ch in "\u200d\ufe0e\ufe0f", (raw, out)
            assert i > 0 and unicodedata.category(out[i - 1]) in ("So", "Sk", "Mn")
    assert visible_key(out) == visible_key(raw)


def test_a_confusable_look_alike_name_is_renamed_at_a_table():
    """``аnn`` with a Cyrillic ``а`` reads as ``ann``: its UTS #39 skeleton says so."""
    from net.table import Member, Table
    from net.text import same_name

    assert same_name("\u0430nn", "Ann") and not same_name("Ann", "Bob")
    table = Table("Saloon", "nuggets")
    ann, fake = Member(name="ann"), Member(name="\u0430nn")
    table.join(ann, 0.0)
    table.join(fake, 0.0)
    assert fake.name == "\u0430nn 2"
