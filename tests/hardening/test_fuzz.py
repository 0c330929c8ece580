"""Fuzz: every input to the protocol core decodes or raises the protocol error with the
right code, line by line, however the bytes are cut; and over TCP a live host answers
thousands of hostile frames, each with its coded error (or a close after an oversize
line), while a game at another table finishes exactly as it would have without them.

``tests/net/test_protocol.py`` covers random junk fed whole, byte by byte and in
chunks; this suite adds targeted hostile families, mutations of valid messages, the
per-line oracle (one line's fate never depends on its neighbours) and the live host.
``bench/stress_fuzz.py`` is the long version (100k frames).
"""

import asyncio
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from net import protocol as p
from net.client import Client
from net.clock import FakeClock
from net.host import Host, HostConfig
from net.protocol import Code

from .harness import (
    FRAMING_CODES,
    VALID_LINES,
    Raw,
    fuzz_over_tcp,
    hostile_frame,
    oracle,
    oversize_frame,
    play_nuggets,
    reference_nuggets,
)

FAMILY_CODES = {
    "deep": {Code.TOO_DEEP},
    "utf8": {Code.BAD_UTF8},
    "type": {Code.UNKNOWN_TYPE},
    "field": {Code.BAD_FIELD},
    "missing": {Code.MISSING_FIELD},
    "notobj": {Code.BAD_JSON},
    "random": {Code.BAD_JSON, Code.BAD_UTF8, Code.UNKNOWN_TYPE},
}


def results(conn: p.Connection, chunks: list[bytes]) -> list:
    """Every message or error code the connection gives for these chunks, then EOF."""
    out: list = []
    for chunk in [*(c for c in chunks if c), b""]:
        conn.receive_data(chunk)
        while True:
            try:
                message = conn.next_message()
            except p.RemoteProtocolError as exc:
                out.append(exc.code)
                if conn.errored:
                    return out
                continue
            if message is p.NEED_DATA:
                break
            if message is p.CLOSED:
                return out
            out.append(message)
    return out


@settings(max_examples=400, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**32))
@pytest.mark.slow
def test_each_hostile_family_gets_its_code(seed):
    rng = random.Random(seed)
    for _ in range(10):
        kind, line = hostile_frame(rng, p.DEFAULT_MAX_LINE)
        outcome = oracle(line)
        if kind in FAMILY_CODES:
            assert outcome in FAMILY_CODES[kind], (kind, line[:80], outcome)
        elif kind == "nan" and (b"NaN" in line or b"Infinity" in line or b'"extra"' not in line):
            # NaN and Infinity anywhere, and a huge number in a field that is read
            assert outcome == Code.BAD_NUMBER, (line, outcome)
        else:
            # mutations, and a huge number in a field the host ignores: either way a
            # message or a framing code, never anything else
            if isinstance(outcome, Code):
                assert outcome in FRAMING_CODES
            else:
                assert type(outcome).__module__.startswith("net.protocol")


def _stream(rng: random.Random, max_line: int) -> tuple[list[bytes], bool]:
    lines = []
    for _ in range(rng.randint(1, 12)):
        pick = rng.random()
        if pick < 0.5:
            lines.append(hostile_frame(rng, max_line)[1])
        elif pick < 0.8:
            lines.append(rng.choice(VALID_LINES))
        else:
            lines.append(rng.choice([b"", b"   ", b"\r"]) + rng.choice(VALID_LINES))
    oversize = rng.random() < 0.2
    return lines, oversize


@settings(max_examples=300, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**32), cuts=st.lists(st.integers(0, 10**6), max_size=20))
def test_a_stream_gives_each_line_its_own_fate_however_it_is_cut(seed, cuts):
    max_line = 512
    rng = random.Random(seed)
    lines, oversize = _stream(rng, max_line)
    ending = rng.choice([b"\n", b"\r\n"])
    data = b"".join(line + ending for line in lines)
    # the oracle: each line alone, in a fresh connection
    expected = [
        o for o in (oracle(line.rstrip(b"\r"), max_line) for line in lines) if o is not None
    ]
    if oversize:
        data += oversize_frame(max_line) + b"\n" + lines[0] + b"\n"
        expected.append(Code.LINE_TOO_LONG)  # fatal: nothing after it
    points = sorted({c % (len(data) + 1) for c in cuts})
    edges = [0, *points, len(data)]
    chunked = [data[a:b] for a, b in zip(edges, edges[1:], strict=False)]
    whole = results(p.Connection(p.HOST, max_line=max_line), [data])
    bytewise = results(p.Connection(p.HOST, max_line=max_line), [bytes([b]) for b in data])
    pieces = results(p.Connection(p.HOST, max_line=max_line), chunked)
    assert whole == bytewise == pieces == expected


@settings(max_examples=300, deadline=None, derandomize=True)
@given(line=st.sampled_from(VALID_LINES), seed=st.integers(0, 2**32))
def test_a_decoded_mutation_is_a_whole_valid_message(line, seed):
    """A mutated line that still decodes is a real message: it encodes and decodes back
    to itself, so the host never holds a half-valid message."""
    from .harness import _mutate

    mutated = _mutate(random.Random(seed), line).replace(b"\n", b" ")
    outcome = oracle(mutated)
    if outcome is None or isinstance(outcome, Code):
        assert outcome is None or outcome in FRAMING_CODES
        return
    again = p.Connection(p.HOST)
    again.receive_data(p.encode(outcome))
    assert again.next_message() == outcome


@pytest.mark.slow
async def test_hostile_frames_over_tcp_while_a_game_finishes_at_another_table():
    clock = FakeClock()  # never advanced: no hello time-out, no rate refill
    max_line = 4096
    host = Host(clock=clock, config=HostConfig(max_line=max_line, rate=1e9, burst=1e9,
                                                   spectator_rate=1e9, spectator_burst=1e9))
    await host.start("127.0.0.1", 0)
    try:
        host.create_table("Camp", "nuggets", seats=2, seed="fuzz-game", first_player=0)
        host.create_table("Fuzz", "foolsgold", seats=2)
        ann = await Client.connect("127.0.0.1", host.port, "Ann", table="Camp", clock=clock)
        bob = await Client.connect("127.0.0.1", host.port, "Bob", table="Camp", clock=clock)
        await ann.send(p.Ready())
        await bob.send(p.Ready())
        game = asyncio.gather(play_nuggets(ann), play_nuggets(bob))
        fuzzers = asyncio.gather(
            *(
                fuzz_over_tcp(
                    host.port,
                    random.Random(i),
                    900,
                    max_line=max_line,
                    name=f"F{i}",
                    oversize_every=300,
                )
                for i in range(4)
            )
        )
        (over_a, over_b), tallies = await asyncio.wait_for(asyncio.gather(game, fuzzers), 100)
        # the game ends exactly as the same seeded game without any fuzzing
        assert over_a == over_b == reference_nuggets("fuzz-game", ["Ann", "Bob"])
        assert over_a.winners and sum(over_a.scores) == 77
        frames = sum(t.frames for t in tallies)
        assert frames >= 3600
        for tally in tallies:
            assert tally.mismatches == []
            assert tally.oversize == tally.closes >= 2  # each oversize line: error, close
            assert tally.connections == tally.oversize + 1
            assert set(tally.by_kind) >= {"mutated", "random", "nan", "deep", "utf8"}
        errors = sum(sum(t.errors.values()) for t in tallies)
        assert errors >= frames * 0.9  # nearly every frame is an error (the rest decode)
        # the host is still up and serving: a newcomer joins and is answered
        late = await Raw.open(host.port)
        await late.hello("Late", table="Fuzz")
        await late.send(p.Ping(id="alive"))
        assert (await late.expect(p.Pong)).id == "alive"
        late.close()
        await ann.close()
        await bob.close()
    finally:
        await host.close()
