"""Property tests over random interleavings of actions from every seat."""

import json
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from foolsgold import Call, Card, Discard, Draw, Grab, IllegalAction, Round, Tick, standard_deck
from tests.foolsgold.helpers import places, snapshot

# One step: (kind, seat, which card, time step). "pass" is a draw or a discard by the
# first seat from `seat` on that can make one; kinds are weighted toward passing so
# cards travel round the table (to the trash pile too) before someone grabs.
steps = st.lists(
    st.tuples(
        st.sampled_from(["pass"] * 40 + ["draw", "discard", "grab", "call", "tick"]),
        st.integers(0, 7),
        st.integers(0, 5),
        st.sampled_from([0.0, 0.0, 0.1, 0.5, 2.0, 4.0]),
    ),
    min_size=20,
    max_size=200,
)


@st.composite
def rounds(draw):
    players = draw(st.integers(2, 8))
    start = draw(st.integers(0, players - 1))
    seed = draw(st.integers(0, 2**32 - 1))
    deck = standard_deck(players)
    random.Random(seed).shuffle(deck)
    return players, start, deck


def to_action(r: Round, kind: str, seat: int, index: int):
    seat %= r.players
    if kind == "pass":
        for i in range(r.players):
            if len(r.hands[(seat + i) % r.players]) == 6 or r.can_draw((seat + i) % r.players):
                seat = (seat + i) % r.players
                break
        kind = "discard" if len(r.hands[seat]) == 6 else "draw"
    if kind == "draw":
        return Draw(seat)
    if kind == "discard":
        hand = r.hands[seat]
        return Discard(seat, hand[index % len(hand)])
    return {"grab": Grab(seat), "call": Call(seat), "tick": Tick()}[kind]


def run(players, start, deck, script, checked=True):
    """Play `script`; check the invariants after every step; return the trace."""
    r = Round(players, start, deck)
    now = 0.0
    trace = []
    for kind, seat, index, dt in script:
        now += dt
        action = to_action(r, kind, seat, index)
        before = snapshot(r)
        try:
            events = r.apply(action, now)
        except IllegalAction as error:
            assert snapshot(r) == before, f"{action} changed the round though refused"
            trace.append(("refused", str(error)))
            continue
        trace.append(("ok", json.dumps(events)))
        if checked:
            check(r, deck)
    return r, trace


def cards_in(value):
    """Every card dict inside `value`, at any depth."""
    if isinstance(value, dict):
        if "variant" in value or "name" in value:
            yield Card.from_dict(value)
        else:
            for item in value.values():
                yield from cards_in(item)
    elif isinstance(value, list):
        for item in value:
            yield from cards_in(item)


def check(r: Round, deck: list[Card]) -> None:
    # Every card is in exactly one place.
    assert Counter(places(r)) == Counter(deck)
    if not r.frozen:
        assert all(5 <= len(hand) <= 6 for hand in r.hands)
    assert r.incoming[r.start] == []  # nobody discards onto the start player
    # A view never shows a card its seat may not see.
    revealed = set(r.revealed or [])
    for seat in [None, *range(r.players)]:
        view = r.view(seat)
        json.dumps(view)  # JSON-safe
        own = set() if seat is None else set(r.hands[seat])
        # Every card anywhere in the view, however deep, is one this seat may see.
        assert set(cards_in(view)) <= own | revealed
        if seat is not None:  # its own hand, whole and in order
            assert [Card.from_dict(d) for d in view["hand"]] == r.hands[seat]
        else:
            assert view["hand"] is None
    if r.settled:
        assert r.deltas is not None and sum(1 for d in r.deltas if d > 0) <= 1


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rounds(), steps)
@pytest.mark.slow
def test_invariants_hold_after_every_action(game, script):
    run(*game, script)


@settings(max_examples=40, deadline=None)
@given(rounds(), steps)
@pytest.mark.slow
def test_same_deck_and_actions_give_the_same_result(game, script):
    a, trace_a = run(*game, script, checked=False)
    b, trace_b = run(*game, script, checked=False)
    assert trace_a == trace_b
    assert snapshot(a) == snapshot(b)
    for seat in [None, *range(a.players)]:
        assert a.view(seat) == b.view(seat)


@settings(max_examples=40, deadline=None)
@given(rounds(), steps)
def test_copy_then_same_actions_gives_the_same_result(game, script):
    players, start, deck = game
    r = Round(players, start, deck)
    half = len(script) // 2
    now = 0.0
    for i, (kind, seat, index, dt) in enumerate(script):
        if i == half:
            twin = r.copy()
            rest = script[half:]
            twin_now = now
        now += dt
        try:
            r.apply(to_action(r, kind, seat, index), now)
        except IllegalAction:
            pass
    if len(script) < 2:
        return
    for kind, seat, index, dt in rest:
        twin_now += dt
        try:
            twin.apply(to_action(twin, kind, seat, index), twin_now)
        except IllegalAction:
            pass
    assert snapshot(twin) == snapshot(r)
