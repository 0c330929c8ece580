"""`legal_actions`: what a seat may do now, read from a view, is what `Round.apply`
accepts (the rules' one answer, for bots, the host and the app)."""

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from foolsgold import (
    ACTIONS,
    Call,
    Discard,
    Draw,
    Grab,
    IllegalAction,
    Match,
    Round,
    Tick,
    call_window_open,
    draw_source,
    legal_actions,
    race_open,
    standard_deck,
)
from foolsgold.actions import HAND_MAX
from tests.foolsgold.helpers import filler, snapshot

# -- the clear cases -------------------------------------------------------------------


def test_the_start_seat_draws_from_the_draw_pile_and_the_others_wait():
    r = filler(3, 0, "Owl x")
    assert legal_actions(r.view(0), 0) == {"draw", "grab"}
    assert draw_source(r.view(0), 0) == "draw"
    assert legal_actions(r.view(1), 1) == {"grab"}  # nothing in its incoming pile yet


def test_six_cards_discard_and_never_draw():
    r = filler(3, 0, "Owl x")
    r.apply(Draw(0), 1.0)
    assert len(r.hands[0]) == HAND_MAX
    assert legal_actions(r.view(0), 0) == {"discard", "grab"}
    r.apply(Discard(0, r.hands[0][0]), 2.0)
    assert legal_actions(r.view(0), 0) == {"grab"}  # the piles are empty now
    assert legal_actions(r.view(1), 1) == {"draw", "grab"}  # the discard came to seat 1
    assert draw_source(r.view(1), 1) == "incoming"


def test_the_start_seat_with_empty_piles_may_not_draw():
    r = filler(2, 0)  # ten cards dealt from a deck of ten: nothing left to draw
    assert r.draw_pile == [] and r.trash_pile == []
    assert legal_actions(r.view(0), 0) == {"grab"}
    with pytest.raises(IllegalAction, match="both empty"):
        r.apply(Draw(0), 0.0)


def test_the_start_seat_draws_from_the_trash_once_the_draw_pile_is_empty():
    r = filler(2, 0, "Owl x")
    r.apply(Draw(0), 0.0)
    r.apply(Discard(0, r.hands[0][0]), 0.1)
    r.apply(Draw(1), 0.2)
    r.apply(Discard(1, r.hands[1][0]), 0.3)  # seat 1's left is the start seat: trash
    assert r.draw_pile == [] and len(r.trash_pile) == 1
    assert "draw" in legal_actions(r.view(0), 0)
    assert draw_source(r.view(0), 0) == "trash"


def test_after_a_grab_the_others_grab_and_call_but_the_first_grabber_neither():
    r = filler(4, 0)  # three nuggets
    r.apply(Grab(2), 1.0)
    assert legal_actions(r.view(2), 2) == frozenset()  # the first grabber
    for seat in (0, 1, 3):
        assert legal_actions(r.view(seat), seat) == {"grab", "call"}  # no draw: frozen
    r.apply(Grab(0), 1.5)
    assert legal_actions(r.view(0), 0) == {"call"}  # one grab each, but still a call
    r.apply(Grab(3), 2.0)  # the last nugget: the race is over, the window still open
    assert not race_open(r.view(None)) and call_window_open(r.view(None))
    assert legal_actions(r.view(1), 1) == {"call"}
    assert legal_actions(r.view(2), 2) == frozenset()
    r.apply(Call(1), 3.0)  # the round settles: nothing more
    assert r.settled
    for seat in range(4):
        assert legal_actions(r.view(seat), seat) == frozenset()


def test_the_call_window_closes_while_the_race_runs_on():
    r = filler(3, 0)
    r.apply(Grab(1), 1.0)
    assert call_window_open(r.view(None))
    r.apply(Tick(), 6.0)  # the window (5 s) closed; the race (10 s) runs on
    assert not call_window_open(r.view(None)) and race_open(r.view(None))
    assert legal_actions(r.view(0), 0) == {"grab"}
    assert legal_actions(r.view(1), 1) == frozenset()


def test_a_race_out_of_time_is_told_with_race_over():
    r = filler(3, 0, grab_timeout=2.0, call_window=5.0)
    r.apply(Grab(1), 1.0)
    r.apply(Tick(), 3.0)  # the race ran out of time; the call window is still open
    assert r.race_over and not r.settled
    view = r.view(0)
    assert legal_actions(view, 0, race_over=True) == {"call"}
    assert not race_open(view, race_over=True)
    with pytest.raises(IllegalAction, match="the grab time-out ran out"):
        r.apply(Grab(0), 3.0)


def test_a_spectator_may_do_nothing_and_a_seat_must_be_at_the_table():
    r = filler(3, 0, "Owl x")
    assert legal_actions(r.view(None), None) == frozenset()
    # public keys only: a spectator's view answers for any seat as its own view does
    assert legal_actions(r.view(None), 0) == legal_actions(r.view(0), 0)
    with pytest.raises(IllegalAction, match="seat 3 is out of range"):
        legal_actions(r.view(0), 3)
    with pytest.raises(IllegalAction, match="a seat is a whole number"):
        legal_actions(r.view(0), True)


def test_a_match_allows_nothing_before_its_first_deal():
    match = Match(3, 0)
    assert legal_actions(match.view(0), 0) == frozenset()
    with pytest.raises(IllegalAction, match="no round has been dealt yet"):
        match.apply(Grab(0), 0.0)
    match.new_round(_deck(3))
    assert legal_actions(match.view(0), 0) == {"draw", "grab"}
    assert legal_actions(match.view(1), 1) == {"grab"}


def _deck(players: int, seed: int = 0):
    deck = standard_deck(players)
    random.Random(seed).shuffle(deck)
    return deck


# -- the property: the view's answer is what apply does ------------------------------

# A round is played in two parts: passing, where (with a short draw pile) the start
# seat comes to draw from the trash pile or to wait with both piles empty; then any
# action from any seat, where the race and the call window run their course. One step
# is (kind, seat, which card, time step, lag). "pass" is a draw or a discard by the
# first seat from `seat` on that can make one; "late" grabs and calls carry the host's
# lag correction (`at` before `now`), which can leave a time-out due at once.
passes = st.tuples(st.integers(0, 100), st.integers(0, 2**32 - 1))  # how many, whose
steps = st.lists(
    st.tuples(
        st.sampled_from(["pass"] * 3 + ["draw", "discard", "grab", "call", "tick", "late"]),
        st.integers(0, 7),
        st.integers(0, 5),
        st.sampled_from([0.0, 0.1, 0.5, 2.0, 4.0]),
        st.sampled_from([0.5, 3.0, 8.0]),
    ),
    min_size=15,
    max_size=40,
)

# (grab time-out, call window): the default; equal; the race shorter than the window
# (the one case a view cannot tell alone); the window much shorter
TIMEOUTS = [(10.0, 5.0), (5.0, 5.0), (2.0, 5.0), (8.0, 1.0)]


@st.composite
def deals(draw):
    """(players, start, deck)."""
    players = draw(st.integers(2, 8))
    start = draw(st.integers(0, players - 1))
    seed = draw(st.integers(0, 2**32 - 1))
    # a short draw pile now and then, so that it runs out while cards still pass
    spare = draw(st.sampled_from([None, 0, 1, 3, 8]))
    deck = _deck(players, seed)
    if spare is not None:
        deck = deck[: 5 * players + spare]
    return players, start, deck


def _step(r: Round, kind: str, seat: int, index: int, now: float, lag: float):
    seat %= r.players
    if kind == "pass":
        for i in range(r.players):
            s = (seat + i) % r.players
            if len(r.hands[s]) == HAND_MAX or r.can_draw(s):
                seat = s
                break
        kind = "discard" if len(r.hands[seat]) == HAND_MAX else "draw"
    if kind == "late":
        kind = "grab" if index % 2 else "call"
        return (Grab if kind == "grab" else Call)(seat, max(0.0, now - lag), lag)
    return _action(r, kind, seat, index)


def _action(r: Round, kind: str, seat: int, index: int = 0):
    if kind == "draw":
        return Draw(seat)
    if kind == "discard":
        hand = r.hands[seat]
        return Discard(seat, hand[index % len(hand)])
    return {"grab": Grab(seat), "call": Call(seat), "tick": Tick()}[kind]


def _accepted(r: Round, action, now: float) -> bool:
    """Whether `apply` takes `action` at `now`, tried on a copy; a refusal changes
    nothing."""
    trial = r.copy()
    before = snapshot(trial)
    try:
        trial.apply(action, now)
    except IllegalAction:
        assert snapshot(trial) == before, f"{action} changed the round though refused"
        return False
    return True


def _check(r: Round, now: float) -> None:
    """For every seat and every kind of action: legal by the view exactly when accepted."""
    spectator = r.view(None)
    for seat in range(r.players):
        view = r.view(seat)
        legal = legal_actions(view, seat, race_over=r.race_over)
        assert legal <= set(ACTIONS)
        for kind in ACTIONS:
            accepted = _accepted(r, _action(r, kind, seat), now)
            assert (kind in legal) == accepted, (
                f"seat {seat}, {kind}: legal_actions says {kind in legal}, apply says "
                f"{accepted}, in {r!r}"
            )
        # public keys only: a spectator's view says the same
        assert legal_actions(spectator, seat, race_over=r.race_over) == legal
        if r.grab_timeout >= r.call_window:
            # a race out of time while the window is open needs a race shorter than it:
            # otherwise the view alone tells everything
            assert legal_actions(view, seat) == legal
        if "draw" in legal:
            assert draw_source(view, seat) == r.draw_source(seat)


@pytest.mark.parametrize(("grab_timeout", "call_window"), TIMEOUTS)
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(deals(), passes, steps)
@pytest.mark.slow
def test_legal_actions_is_what_apply_accepts_at_every_step(
    grab_timeout, call_window, deal, passing, script
):
    r = Round(*deal, grab_timeout, call_window)
    now = 0.0
    _check(r, now)
    count, seed = passing
    seats = random.Random(seed)
    script = [("pass", seats.randrange(8), 0, 0.1, 0.0) for _ in range(count)] + script
    for kind, seat, index, dt, lag in script:
        now += dt
        try:
            r.apply(_step(r, kind, seat, index, now, lag), now)
        except IllegalAction:
            pass
        # A lag-corrected first grab can set a time-out that is due already; the host
        # applies it at once (a `Tick` at its deadline), and so does this, so the view
        # is of the moment `now` (`legal_actions` answers for the view's moment).
        if r.deadline is not None and r.deadline <= now:
            r.apply(Tick(), now)
        _check(r, now)
        if r.settled:
            break
