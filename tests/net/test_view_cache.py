"""The Fool's Gold driver builds its views once per change (issue 22): the public part
of a state once, each seat's hand only when it changes. Its views must be exactly the
ones built the plain way (``Match.view``, and ``to_view`` of the wire dict) after every
change, a change must never leave a stale view behind, and no seat's view may carry
another seat's hand."""

from __future__ import annotations

import random

import msgspec
import pytest

from foolsgold.cards import Card
from net.games.foolsgold import FoolsGoldSettings
from net.games.foolsgold import moves as fm
from net.games.foolsgold.host import FoolsGoldDriver
from net.views import to_view

#: a table's own settings, its pause between rounds 3.0 s
SETTINGS = FoolsGoldSettings(intermission=3.0)

ENCODER = msgspec.json.Encoder()


def plain_wire_view(driver: FoolsGoldDriver, seat: int | None) -> dict:
    """The wire dict as the driver built it before the caches: ``Match.view`` and the
    slots found by card."""
    view = driver.match.view(seat)
    slots, drawn = None, None
    if seat is not None:
        slots = []
        if driver.match.round is not None:
            at = {card: i for i, card in enumerate(driver.match.round.hands[seat])}
            slots = [None if card is None else at[card] for card in driver.slots[seat]]
            drawn = driver.drawn[seat]
    view["slots"], view["drawn"] = slots, drawn
    return view


def check_views(driver: FoolsGoldDriver) -> None:
    seats = [*range(driver.players), None]
    for seat in seats:
        plain = driver.match.view(seat)
        fast = driver.view(seat)
        assert fast == plain and list(fast) == list(plain)  # the same keys, in order
        wire = plain_wire_view(driver, seat)
        assert driver.wire_view(seat) == wire and list(driver.wire_view(seat)) == list(wire)
        sent = driver.state_view(seat)
        assert sent == to_view(wire)
        assert ENCODER.encode(sent) == ENCODER.encode(to_view(wire))  # the same bytes
    # no seat's view carries another seat's hand, or shares a hand with it
    hands = [driver.state_view(seat).hand for seat in range(driver.players)]
    for seat, hand in enumerate(hands):
        own = driver.match.round.hands[seat] if driver.match.round else []
        assert [(c.name, c.kind, c.variant) for c in hand] == [
            (c.name, c.kind, c.variant) for c in own
        ]
        assert all(hand is not other for other in hands[seat + 1 :])
    assert driver.state_view(None).hand is None and driver.view(None)["hand"] is None


def random_action(driver: FoolsGoldDriver, rng: random.Random):
    seat = rng.randrange(driver.players)
    kind = rng.choices(["draw", "discard", "grab", "call"], weights=[10, 10, 1, 1])[0]
    if kind == "discard":
        hand = driver.match.round.hands[seat] if driver.match.round else []
        if not hand:
            return seat, fm.DRAW()
        card = rng.choice(hand)
        return seat, fm.DISCARD(card=fm.CardRef(name=card.name, variant=card.variant))
    return seat, {"draw": fm.DRAW(), "grab": fm.GRAB(), "call": fm.CALL()}[kind]


@pytest.mark.parametrize("players", [2, 3, 5, 8])
@pytest.mark.slow
def test_the_cached_views_are_the_plain_ones_after_every_change(players):
    rng = random.Random(players)
    changes = matches = 0
    rounds = set()
    driver = None
    for _ in range(3000):
        if driver is None or driver.over:  # matches in a row, on fresh decks
            matches += 1
            driver = FoolsGoldDriver(players, 0, random.Random(f"{players}/{matches}"),
                                     SETTINGS)  # fmt: skip
            now = 0.0
            driver.start(now)
            check_views(driver)
        now += rng.choice([0.01, 0.1, 1.0, 4.0])
        deadline = driver.deadline()
        if deadline is not None and now >= deadline:
            events = driver.tick(now)
        else:
            seat, action = random_action(driver, rng)
            # the views built before an action (legal or not) must not outlive it
            driver.state_view(seat), driver.view(seat)
            try:
                events = driver.act(seat, action, now)
            except ValueError:
                check_views(driver)  # an illegal action changed nothing
                continue
        changes += bool(events)
        rounds.add((matches, driver.match.round_no))
        check_views(driver)
    assert changes > 300 and len(rounds) > 3  # rounds settled and new ones dealt


def test_a_change_invalidates_the_views():
    driver = FoolsGoldDriver(3, 0, random.Random("x"), SETTINGS)
    driver.start(0.0)
    public, seat0, dict0 = driver.state_view(None), driver.state_view(0), driver.view(0)
    assert driver.state_view(None) is public  # built once for this state
    driver.act(0, fm.DRAW(), 1.0)  # the start player draws from the draw pile
    assert driver.state_view(None) is not public
    assert driver.state_view(None).hand_sizes == [6, 5, 5] != public.hand_sizes
    assert len(driver.state_view(0).hand) == 6 and len(seat0.hand) == 5
    assert len(driver.view(0)["hand"]) == 6 and len(dict0["hand"]) == 5
    assert driver.state_view(0).drawn is not None


def test_two_seats_holding_equal_looking_states_never_share_a_private_view():
    # the same public state, different hands: each seat sees only its own
    driver = FoolsGoldDriver(2, 0, random.Random("y"), SETTINGS)
    driver.start(0.0)
    hands = driver.match.round.hands
    for seat in (0, 1):
        view = driver.state_view(seat)
        assert view.seat == seat
        names = {(c.name, c.variant) for c in view.hand}
        assert names == {(c.name, c.variant) for c in hands[seat]}
        other = {(c.name, c.variant) for c in hands[1 - seat]}
        assert not names & other
    assert driver.state_view(0).hand is not driver.state_view(1).hand
    assert driver.view(0)["hand"] is not driver.view(1)["hand"]
    # a view handed out is a copy at its top: changing it changes no other view
    mine = driver.view(0)
    mine["hand"].clear()
    mine["seat"] = 1
    assert driver.view(0)["hand"] and driver.view(0)["seat"] == 0


def test_a_hand_changed_outside_the_driver_is_noticed():
    # the seat's own part is checked against the hand itself, not a version number
    driver = FoolsGoldDriver(2, 0, random.Random("z"), SETTINGS)
    driver.start(0.0)
    driver.state_view(1)
    hand = driver.match.round.hands[1]
    hand[0] = Card("Owl", "animal", "z")
    driver.slots[1][0] = hand[0]
    assert driver.state_view(1).hand[0].variant == "z"
    assert driver.view(1)["hand"][0]["variant"] == "z"


def test_gold_nuggets_views_are_the_plain_ones_after_every_change():
    from net.games.nuggets import NuggetsSettings
    from net.games.nuggets.host import HOST, NuggetsDriver

    make_brain = HOST.make_brain

    for n in range(3):
        driver = NuggetsDriver(["A", "B", "C"], n % 3, random.Random(f"dice{n}"),
                               NuggetsSettings(supply=20))
        brains = [make_brain(i, "normal", random.Random(i), 0.5) for i in range(3)]
        driver.start(0.0)
        steps = 0
        while not driver.over and steps < 2000:
            for seat in [*range(3), None]:
                sent = driver.state_view(seat)
                assert sent == to_view(driver.view(seat)) and sent.seat == seat
                assert ENCODER.encode(sent) == ENCODER.encode(to_view(driver.view(seat)))
            public = driver.state_view(None)
            assert driver.state_view(None) is public  # once per change
            seat = driver.state.current
            planned = brains[seat].plan(driver.view(seat), 0.0)
            driver.act(seat, planned[0], 0.0)
            assert driver.state_view(None) is not public  # and no longer
            steps += 1
        assert driver.over
