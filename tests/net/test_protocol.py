"""The sans-I/O framing: messages round-trip, hostile lines map to stable codes, and any
input either decodes or raises the protocol error, however it is chunked."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import nuggets
from net import protocol as p
from net.games.foolsgold import moves as fm
from net.games.nuggets.moves import KEEP as Keep
from net.games.nuggets.moves import STOP as Stop
from net.games.nuggets.views import Turn
from net.protocol import (
    CLIENT,
    CLOSED,
    HOST,
    NEED_DATA,
    ChatLine,
    Code,
    Connection,
    Error,
    Hello,
    LocalProtocolError,
    RemoteProtocolError,
    State,
    encode,
    nesting_depth,
)
from net.views import to_view


def drain(conn):
    """All messages and errors until NEED_DATA or CLOSED."""
    out = []
    while True:
        try:
            msg = conn.next_message()
        except RemoteProtocolError as exc:
            out.append(exc.code)
            if conn.errored:
                return out
            continue
        if msg is NEED_DATA or msg is CLOSED:
            out.append(msg)
            return out
        out.append(msg)


def test_round_trip_both_directions():
    host, client = Connection(HOST), Connection(CLIENT)
    hello = Hello(protocol=3, name="Ann", table="saloon")
    host.receive_data(client.send(hello))
    assert host.next_message() == hello
    view = to_view(nuggets.Game(["Ann", "Bob"]).view(1))
    state = State(seat=1, view=view, events=[Turn(seat=0)], at=1.5)
    client.receive_data(host.send(state))
    assert client.next_message() == state
    assert client.next_message() is NEED_DATA


def test_partial_lines_and_byte_by_byte():
    data = encode(Keep(faces=["3", "3", "3"])) + encode(Stop(steal_from=2))
    conn = Connection(HOST)
    got = []
    for i in range(len(data)):
        conn.receive_data(data[i : i + 1])
        while (m := conn.next_message()) is not NEED_DATA:
            got.append(m)
    assert got == [Keep(faces=["3", "3", "3"]), Stop(steal_from=2)]


def test_crlf_blank_lines_and_eof():
    conn = Connection(HOST)
    conn.receive_data(b'\r\n  \n{"type":"move","move":"grab"}\r\n{"type":"move","move":"call"')
    assert conn.next_message() == fm.GRAB()
    assert conn.next_message() is NEED_DATA
    conn.receive_data(b"")
    # the partial last line is dropped at end of stream
    assert conn.next_message() is CLOSED


@settings(max_examples=60, deadline=None)
@given(cuts=st.lists(st.integers(min_value=0, max_value=2000), max_size=12))
def test_a_burst_of_lines_decodes_in_order_however_it_is_cut(cuts):
    # many lines in one read (the framing keeps its place in the buffer rather than
    # moving the rest down after every line), cut anywhere, "\r\n" and blank lines
    lines = [encode(Keep(faces=["3"] * (1 + i % 6))) for i in range(40)]
    lines[7] = lines[7][:-1] + b"\r\n"
    lines[20] = b"  \n" + lines[20]
    lines[33] = b'{"type":"move","move":"grab"}\r\n'
    data = b"".join(lines)
    want = [Keep(faces=["3"] * (1 + i % 6)) for i in range(40)]
    want[33] = fm.GRAB()
    conn, got, at = Connection(HOST), [], 0
    for cut in sorted({*(c for c in cuts if 0 < c < len(data)), len(data)}):
        conn.receive_data(data[at:cut])  # never b"": that is the end of the stream
        at = cut
        while (m := conn.next_message()) is not NEED_DATA:
            got.append(m)
    assert got == want
    conn.receive_data(b"")
    assert conn.next_message() is CLOSED


def test_discard_card_shape():
    """A move's arguments travel as an object; the game's declaration reads them."""
    conn = Connection(HOST)
    conn.receive_data(
        b'{"type":"move","move":"discard","args":{"card":{"name":"Owl","variant":"b"}}}\n')
    msg = conn.next_message()
    assert isinstance(msg, p.Move) and msg.move == "discard"
    card = fm.DISCARD.parse(msg).card
    assert card.name == "Owl" and card.kind is None


HOSTILE = [
    (b"{not json}", Code.BAD_JSON),
    (b'{"type":"hello"', Code.BAD_JSON),
    (b"[1,2]", Code.BAD_JSON),
    (b'"hello"', Code.BAD_JSON),
    (b'{"type":"chat","text":"\xff\xfe"}', Code.BAD_UTF8),
    (b"\xc3\x28", Code.BAD_UTF8),
    (b'{"type":"ping","id":NaN}', Code.BAD_NUMBER),
    (b'{"type":"ping","id":-Infinity}', Code.BAD_NUMBER),
    (b'{"type":"configure","grace":1e999}', Code.BAD_NUMBER),
    (b'{"type":"chat","text":' + b"[" * 40 + b"]" * 40 + b"}", Code.TOO_DEEP),
    (b'{"type":"teleport"}', Code.UNKNOWN_TYPE),
    (b'{"name":"Ann"}', Code.UNKNOWN_TYPE),
    (b'{"type":7}', Code.UNKNOWN_TYPE),
    (b'{"type":"hello","protocol":"1","name":"Ann"}', Code.BAD_FIELD),
    (b'{"type":"hello","protocol": 3.0,"name":"Ann"}', Code.BAD_FIELD),
    (b'{"type":"move","move":"keep","args":"333"}', Code.BAD_FIELD),
    (b'{"type":"remove_bot","seat":-1}', Code.BAD_FIELD),
    (b'{"type":"hello","name":"Ann"}', Code.MISSING_FIELD),
    (b'{"type":"chat"}', Code.MISSING_FIELD),
]


@pytest.mark.parametrize(("line", "code"), HOSTILE)
def test_hostile_line_gets_its_code_and_the_stream_carries_on(line, code):
    conn = Connection(HOST)
    conn.receive_data(line + b'\n{"type":"ping","id":1}\n')
    with pytest.raises(RemoteProtocolError) as info:
        conn.next_message()
    assert info.value.code == code
    assert info.value.message  # a sentence for a person
    assert not conn.errored
    assert conn.next_message().id == 1


def test_nan_inside_a_string_is_just_text():
    conn = Connection(HOST)
    conn.receive_data(b'{"type":"chat","text":"NaN Infinity [[[["}\n')
    assert conn.next_message().text == "NaN Infinity [[[["


def test_oversize_line_is_fatal():
    conn = Connection(HOST, max_line=100)
    conn.receive_data(b'{"type":"chat","text":"' + b"a" * 200)
    with pytest.raises(RemoteProtocolError) as info:
        conn.next_message()
    assert info.value.code == Code.LINE_TOO_LONG
    assert conn.errored
    conn.receive_data(b'"}\n{"type":"ping"}\n')
    with pytest.raises(RemoteProtocolError):
        conn.next_message()


def test_oversize_line_with_newline_in_one_chunk():
    conn = Connection(HOST, max_line=50)
    conn.receive_data(b'{"type":"chat","text":"' + b"a" * 60 + b'"}\n')
    with pytest.raises(RemoteProtocolError) as info:
        conn.next_message()
    assert info.value.code == Code.LINE_TOO_LONG


def test_line_exactly_at_the_limit_is_fine():
    line = b'{"type":"chat","text":"' + b"a" * 30 + b'"}'
    conn = Connection(HOST, max_line=len(line))
    conn.receive_data(line + b"\n")
    assert conn.next_message().text == "a" * 30


def test_default_limit_is_64_kib():
    conn = Connection(HOST)
    assert conn.max_line == 65536


def test_local_errors():
    host = Connection(HOST)
    with pytest.raises(LocalProtocolError):
        host.send(Hello(protocol=3, name="x"))  # a host never sends hello
    small = Connection(CLIENT, max_line=20)
    with pytest.raises(LocalProtocolError):
        small.send(Hello(protocol=3, name="x" * 50))
    host.receive_data(b"")
    with pytest.raises(LocalProtocolError):
        host.receive_data(b"more")


def test_nesting_depth_skips_strings():
    assert nesting_depth(b'{"a":[[1]],"b":"[[[[[["}') == 3
    assert nesting_depth(b'{"a":"\\"[[[["}') == 1


def test_error_message_shape_on_the_wire():
    line = encode(Error(code=Code.TABLE_FULL, message="The table is full."))
    assert json.loads(line) == {
        "type": "error",
        "code": "table_full",
        "message": "The table is full.",
        "ref": None,
    }


# --- fuzz: decode or raise the protocol error, nothing else -----------------

VALID = [
    encode(Hello(protocol=3, name="Ann")),
    encode(Keep(faces=["nugget", "3", "3", "3"], seat=1)),
    b'{"type":"move","move":"discard","args":{"card":{"name":"Owl","variant":"a"}}}\n',
    encode(Stop()),
]
CLIENT_VALID = [encode(ChatLine(name="Bo", seat=None, text="hi", at=0.0))]

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=10),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner),
    max_leaves=20,
)


junk = st.one_of(
    st.binary(max_size=300),
    st.sampled_from(VALID),
    json_values.map(lambda v: json.dumps(v).encode() + b"\n"),
    st.dictionaries(
        st.sampled_from(["type", "name", "protocol", "move", "args", "seat", "text"]),
        st.one_of(st.sampled_from(["hello", "move", "keep", "chat", "ping", "x"]), json_values),
    ).map(lambda d: json.dumps(d).encode() + b"\n"),
)


def feed(conn, chunks):
    out = []
    for chunk in [*(c for c in chunks if c), b""]:  # b"" last: end of stream
        conn.receive_data(chunk)
        out.extend(drain(conn))
        if conn.errored:
            break
    return out


def chunked(data, cuts):
    points = sorted({c % (len(data) + 1) for c in cuts})
    edges = [0, *points, len(data)]
    return [data[a:b] for a, b in zip(edges, edges[1:], strict=False) if b > a]


@settings(max_examples=300, deadline=None)
@given(parts=st.lists(junk, max_size=8), cuts=st.lists(st.integers(0, 4000), max_size=12))
@pytest.mark.slow
def test_fuzz_any_input_decodes_or_raises_the_protocol_error(parts, cuts):
    data = b"".join(parts)
    whole = feed(Connection(HOST, max_line=256), [data])
    one_by_one = feed(Connection(HOST, max_line=256), [data[i : i + 1] for i in range(len(data))])
    random_chunks = feed(Connection(HOST, max_line=256), chunked(data, cuts))

    def settled(out):
        # the results differ only in how many NEED_DATA markers appear
        return [x for x in out if x is not NEED_DATA]

    assert settled(whole) == settled(one_by_one) == settled(random_chunks)
    for item in settled(whole):
        assert isinstance(item, Code) or type(item).__module__.startswith("net.protocol")


@settings(max_examples=100, deadline=None)
@given(data=st.binary(max_size=500))
def test_fuzz_client_side_too(data):
    conn = Connection(CLIENT, max_line=128)
    conn.receive_data(data + b"\n" + CLIENT_VALID[0])
    for item in drain(conn):
        assert isinstance(item, Code) or type(item).__module__.startswith("net.protocol")


HOSTILE = [
    "\x1b]0;pwned\x07",
    "\x1b]52;c;ZXZpbA==\x07",
    "\x1b]8;;http://evil\x1b\\click\x1b]8;;\x1b\\",
    "\x1b[2J",
    "\x1bP1$rX\x1b\\",
    "\x9b2J",
    "\x9d0;c1\x9c",
    "\u202eevil\u2066",
    "\x1b]0;never ends",
]


@pytest.mark.parametrize("ascii_only", [True, False])
@pytest.mark.parametrize("payload", HOSTILE)
def test_a_client_strips_escapes_from_everything_a_hostile_host_sends(payload, ascii_only):
    conn = p.Connection(p.CLIENT)
    line = {"type": "chat", "name": f"Ann{payload}", "seat": 0, "text": f"hi{payload}!", "at": 1.0}
    error = {"type": "error", "code": "x", "message": f"bad{payload}"}
    for message in (line, error):
        conn.receive_data(json.dumps(message, ensure_ascii=ascii_only).encode() + b"\n")
    chat, error = conn.next_message(), conn.next_message()
    for text in (chat.name, chat.text, error.message):
        assert not any(ord(ch) < 32 or 0x7F <= ord(ch) <= 0x9F for ch in text), repr(text)
        assert "\u202e" not in text and "\u2066" not in text
        assert "pwned" not in text and "ZXZpbA" not in text and "http://evil" not in text
    assert chat.name.startswith("Ann") and chat.text.startswith("hi")


def test_a_client_keeps_ordinary_text_as_sent():
    conn = p.Connection(p.CLIENT)
    line = '{"type":"chat","name":"Zoë [bold]","seat":1,"text":"a\\tb\\nc","at":2}\n'
    conn.receive_data(line.encode())
    chat = conn.next_message()
    assert (chat.name, chat.text) == ("Zoë [bold]", "a\tb\nc")


# -- versions: a message carries the version that brought it in -----------------------


def _all_messages():
    import typing

    for union in (p.ClientMessage, p.HostMessage):
        yield from typing.get_args(union)


def test_every_message_says_the_version_that_brought_it_in():
    since = {cls.__struct_config__.tag: cls.since for cls in _all_messages()}
    assert all(1 <= v <= p.PROTOCOL_VERSION for v in since.values())
    # protocol 2 added the probes of lag-fair races, and nothing else; protocol 3 the
    # one ``move`` of every game (the moves of protocols 1 and 2 are gone: a host admits
    # protocol 3 only)
    assert {tag for tag, v in since.items() if v == 2} == {"probe", "probe_reply"}
    assert {tag for tag, v in since.items() if v == 3} == {"move"}
    # protocol 4: the rematch and reactions (issue 61) among its messages; a protocol 3
    # client is still admitted, and never sent them
    assert {"again", "react"} <= {tag for tag, v in since.items() if v == 4}
    # protocol 4 (issues 60 and 61): identity and ratings among others; a protocol 3
    # client is still admitted
    assert {"challenge", "prove", "rated"} <= {tag for tag, v in since.items() if v == 4}
    assert p.PROTOCOLS == (3, 4) and p.PROTOCOL_VERSION == 4


def test_a_connection_refuses_a_message_of_a_later_version_and_reads_on():
    host = Connection(HOST, version=1)
    host.receive_data(b'{"type":"probe_reply","id":7}\n{"type":"ping","id":1}\n')
    with pytest.raises(RemoteProtocolError) as refused:
        host.next_message()
    assert refused.value.code == Code.UNKNOWN_TYPE and refused.value.ref == "probe_reply"
    assert "protocol 2" in refused.value.message and "speaks protocol 1" in refused.value.message
    assert host.next_message() == p.Ping(id=1)  # one bad line costs nothing else
    # the same line at the version that has it decodes
    later = Connection(HOST)
    later.receive_data(b'{"type":"probe_reply","id":7}\n')
    assert later.next_message() == p.ProbeReply(id=7)


def test_a_connection_never_sends_a_message_its_peer_cannot_know():
    old, new = Connection(HOST, version=1), Connection(HOST, version=2)
    assert not old.speaks(p.Probe) and new.speaks(p.Probe) and old.speaks(p.Pong)
    with pytest.raises(LocalProtocolError, match="protocol 2"):
        old.send(p.Probe(id=1))
    assert new.send(p.Probe(id=1)) == b'{"type":"probe","id":1}\n'
