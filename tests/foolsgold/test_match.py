"""Match: points carried to 3, negative scores, the start passes to the point scorer."""

import random

import pytest

from foolsgold import Call, Draw, Grab, IllegalAction, Match, Tick, standard_deck
from tests.foolsgold.helpers import forced_deck


def deck_with_set(players: int, start: int, holder: int) -> list:
    """Seat `holder` is dealt three Owls; everyone else five distinct names."""
    names = ["Mule", "Coyote", "Bison", "Buzzard", "Raccoon", "Jackrabbit", "Armadillo"]
    hands = {}
    for seat in range(players):
        if seat == holder:
            hands[seat] = f"Owl a, Owl b, Owl c, Mule {seat}, Coyote {seat}"
        else:
            hands[seat] = ", ".join(f"{names[(seat + j) % 7]} {seat}" for j in range(5))
    return forced_deck(players, start, hands, "Owl d, Bison x")


def play(m: Match, grabs: list[int], caller: int | None, t: float) -> list[dict]:
    """One round: `grabs` in order, then an optional call, then the window closes."""
    events = []
    for i, seat in enumerate(grabs):
        events += m.apply(Grab(seat), t + 0.1 * i)
        if i == 0 and caller is not None:
            events += m.apply(Call(caller), t + 0.05)
    if not m.round.settled:
        events += m.apply(Tick(), t + 20)
    return events


def test_points_carry_and_the_first_to_three_wins():
    m = Match(3, 0)
    t = 0.0
    for n in range(3):
        m.new_round(deck_with_set(3, m.start, 1))
        events = play(m, [1, 0], None, t)
        t += 100
        assert m.scores == [0, n + 1, -(n + 1)]
        assert m.start == 1
    assert m.winner == 1
    assert events[-1] == {"type": "match_over", "winner": 1, "scores": [0, 3, -3]}
    assert m.view(0)["winner"] == 1 and m.view(None)["round_no"] == 3
    with pytest.raises(IllegalAction, match="the match is over"):
        m.new_round(standard_deck(3))
    with pytest.raises(IllegalAction, match="the match is over"):
        m.apply(Tick(), t)


def test_negative_points_and_the_start_passes_to_the_point_scorer():
    m = Match(4, 2)
    m.new_round(deck_with_set(4, 2, holder=3))
    assert m.round.start == 2
    # Seat 0 bluffs; seat 1 calls rightly but is left without a nugget: net 0 for
    # seat 1, yet it gained the round's point and starts the next round (F10).
    play(m, [0, 2, 3], caller=1, t=0.0)
    assert m.round.deltas == [-1, 0, 0, 0]
    assert m.scores == [-1, 0, 0, 0]
    assert m.start == 1
    m.new_round(deck_with_set(4, 1, holder=3))
    assert m.round.start == 1 and m.view(3)["start"] == 1
    # Seat 3 holds a set; seat 0 calls wrongly and is left without a nugget.
    events = play(m, [3, 1, 2], caller=0, t=50.0)
    assert m.scores == [-3, 0, 0, 1]
    assert m.start == 3
    assert {"type": "scores", "scores": [-3, 0, 0, 1], "start": 3} in events


def test_a_new_round_waits_for_the_last_to_settle():
    m = Match(2, 0)
    with pytest.raises(IllegalAction, match="no round has been dealt"):
        m.apply(Draw(0), 0)
    assert m.view(1)["hand"] == [] and m.view(None)["round_no"] == 0
    assert m.new_round(standard_deck(2)) == [{"type": "round_started", "round_no": 1, "start": 0}]
    with pytest.raises(IllegalAction, match="not settled"):
        m.new_round(standard_deck(2))


def test_match_view_extends_the_round_view():
    m = Match(3, 1)
    deck = standard_deck(3)
    random.Random(5).shuffle(deck)
    m.new_round(deck)
    v = m.view(2)
    assert v == {**m.round.view(2), "scores": [0, 0, 0], "winner": None, "round_no": 1}


def test_without_the_house_rule_a_match_runs_past_any_round_count():
    m = Match(2, 0)
    t = 0.0
    for _ in range(12):  # each bluffs in turn and is called: 0-0 again, never an end
        for holder in (0, 1):
            m.new_round(deck_with_set(2, m.start, holder))
            play(m, [1 - holder], holder, t)  # the other bluffs, the holder calls (F12)
            t += 100
    assert m.winner is None and m.round_no == 24 and m.round_cap is None
    assert m.scores == [0, 0]


def test_under_the_rules_before_f12_an_uncalled_round_at_two_moves_both_scores():
    """A game saved under version 1 (before F12) plays on by it: at two seats the
    player without the nugget loses 1 whatever happened, so 0-0 comes back."""
    m = Match(2, 0, rules=1)
    t = 0.0
    for _ in range(6):
        for holder in (0, 1):
            m.new_round(deck_with_set(2, m.start, holder))
            play(m, [holder], None, t)
            t += 100
    assert m.winner is None and m.round_no == 12 and m.scores == [0, 0]
    assert m.copy().rules == 1 and m.round.rules == 1


def test_two_seats_under_f12_every_round_gives_exactly_one_point():
    m = Match(2, 0)
    m.new_round(deck_with_set(2, 0, 0))
    play(m, [0], None, 0.0)  # no call: the grabber +1, the other 0
    assert m.round.deltas == [1, 0] and m.round.scorer == 0
    m.new_round(deck_with_set(2, m.start, 0))
    play(m, [1], 0, 100.0)  # seat 1 bluffs, seat 0 calls rightly
    assert m.round.deltas == [1, -1] and m.round.scorer == 0
    m.new_round(deck_with_set(2, m.start, 1))
    play(m, [1], 0, 200.0)  # seat 1 holds a set, seat 0 calls wrongly
    assert m.round.deltas == [-1, 1] and m.round.scorer == 1
    assert m.scores == [1, 0]


@pytest.mark.parametrize("rules", [0, 3, "2", True, None])
def test_a_rules_version_not_played_is_refused(rules):
    with pytest.raises(ValueError, match="rules must be a version"):
        Match(2, 0, rules=rules)


def test_the_round_cap_gives_the_match_to_the_highest_score():
    # House rule: after the cap the highest score wins, before anyone reaches 3.
    m = Match(3, 0, round_cap=2)
    m.new_round(deck_with_set(3, 0, 1))
    play(m, [1, 0], None, 0.0)  # seat 1 +1, seat 2 -1
    assert m.winner is None
    m.new_round(deck_with_set(3, m.start, 0))
    events = play(m, [0, 1], None, 100.0)  # seat 0 +1, seat 2 -1 again
    assert m.scores == [1, 1, -2] and m.winner is None  # level: one more round
    assert {"type": "tie_break", "seats": [0, 1]} in events
    m.new_round(deck_with_set(3, m.start, 1))
    events = play(m, [1, 2], None, 200.0)  # seat 1 +1, seat 0 -1
    assert m.scores == [0, 2, -2] and m.winner == 1
    assert events[-1] == {"type": "match_over", "winner": 1, "scores": [0, 2, -2]}
    assert m.view(0)["round_cap"] == 2


def test_a_tie_at_the_cap_plays_on_until_it_breaks():
    m = Match(2, 0, round_cap=2)
    t = 0.0
    for holder, scores in ((0, [1, 0]), (1, [1, 1]), (0, [2, 1])):
        m.new_round(deck_with_set(2, m.start, holder))
        events = play(m, [holder], None, t)
        t += 100
        assert m.scores == scores
        if m.round_no == 2:
            assert m.winner is None and events[-1] == {"type": "tie_break", "seats": [0, 1]}
    assert m.winner == 0 and m.round_no == 3


@pytest.mark.parametrize("cap", [0, -1, 2.5, True, "3"])
def test_a_bad_round_cap_is_refused(cap):
    with pytest.raises(ValueError, match="round_cap"):
        Match(2, 0, round_cap=cap)


def test_match_copy_is_independent():
    m = Match(3, 0)
    m.new_round(deck_with_set(3, 0, 1))
    c = m.copy()
    play(c, [1, 0], None, 0.0)
    assert c.scores == [0, 1, -1] and m.scores == [0, 0, 0] and not m.round.settled


@pytest.mark.parametrize("start", [-1, 3, None])
def test_match_refuses_a_bad_start(start):
    with pytest.raises(ValueError, match="start"):
        Match(3, start)
