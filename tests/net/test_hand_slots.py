"""A Fool's Gold hand keeps its slots (issue 18): the host lays each seat's hand out
from the game's history (``net.games.foolsgold``) and sends it in the seat's view
(``slots``, ``drawn``), so a client that comes back, a fresh app, or a host restored
from its save shows every card where it was. Real host, sockets, store; a fake clock."""

from __future__ import annotations

import asyncio
import random

import pytest

from foolsgold.cards import Card
from net import protocol as p
from net import saves as persist
from net.clock import FakeClock
from net.games.foolsgold import FoolsGoldSettings
from net.games.foolsgold import moves as fm
from net.games.foolsgold.host import FoolsGoldDriver, place
from net.host import Host
from net.saves import Store
from net.views import check, to_view
from tests.hardening.harness import Raw, drive

#: a table's own settings, its pause between rounds 5.0 s
SETTINGS = FoolsGoldSettings(intermission=5.0)

OWL_A, OWL_C, OWL_D = Card("Owl", "animal", "a"), Card("Owl", "animal", "c"), \
    Card("Owl", "animal", "d")  # fmt: skip
KATE = Card("Calamity Kate", "prospector", "f")
GILA, MULE, ELK = Card("Gila Monster", "animal", "b"), Card("Mule", "animal", "d"), \
    Card("Elk", "animal", "b")  # fmt: skip


def test_a_passed_card_leaves_its_slot_empty_and_the_next_card_fills_it():
    slots, fresh = place([], [OWL_A, OWL_C, KATE, GILA, MULE])
    assert slots == [OWL_A, OWL_C, KATE, GILA, MULE]
    slots, fresh = place(slots, [OWL_A, KATE, GILA, MULE])  # Owl c passed
    assert slots == [OWL_A, None, KATE, GILA, MULE] and fresh is None
    slots, fresh = place(slots, [OWL_A, KATE, GILA, MULE, OWL_D])  # a new card
    assert slots == [OWL_A, OWL_D, KATE, GILA, MULE] and fresh == 1
    slots, fresh = place(slots, [OWL_A, KATE, GILA, MULE, OWL_D, ELK])
    assert slots[5] == ELK and fresh == 5
    # the last card passed: the slot goes, nothing before it moves
    slots, _ = place(slots, [OWL_A, KATE, GILA, MULE, OWL_D])
    assert slots == [OWL_A, OWL_D, KATE, GILA, MULE]


def _cards(view) -> list[tuple[str, str] | None]:
    """A seat's hand as it lies: (name, variant) by slot, None for an empty one."""
    hand = view.hand
    return [None if i is None else (hand[i].name, hand[i].variant) for i in view.slots]


def test_the_driver_lays_every_hand_out_from_its_actions_alone():
    """Random passing at four seats: each seat's slots move only where its own card came
    or went, a second driver fed the same actions lays out the same, the view checks."""
    rng = random.Random(18)
    one = FoolsGoldDriver(4, 0, random.Random("deal"), SETTINGS)
    two = FoolsGoldDriver(4, 0, random.Random("deal"), SETTINGS)
    one.start(0.0), two.start(0.0)
    gaps = 0
    for step in range(400):
        seat = rng.randrange(4)
        before = _cards(to_view(one.wire_view(seat)))
        hand = one.match.round.hands[seat]
        if len(hand) == 6:
            action = fm.DISCARD(card=fm.CardRef(**rng.choice(hand).to_dict()))
        else:
            action = fm.DRAW()
        try:
            one.act(seat, action, step * 0.1)
        except ValueError:
            continue  # nothing to draw yet
        two.act(seat, action, step * 0.1)
        view = to_view(one.wire_view(seat))
        assert check(view) is None and view.slots is not None
        after = _cards(view)
        if action.move == "draw":
            new = view.drawn
            assert new is not None and (new == len(before) or before[new] is None)
            assert after[:new] + after[new + 1:] == before[:new] + before[new + 1:]
        else:
            assert view.drawn is None
            card = fm.DISCARD.parse(action).card
            gone = next(i for i, c in enumerate(before) if c == (card.name, card.variant))
            kept = [*before[:gone], None, *before[gone + 1:]]
            while kept and kept[-1] is None:
                kept.pop()
            assert after == kept
            gaps += None in after
        for s in range(4):
            assert one.wire_view(s) == two.wire_view(s)
    assert gaps > 20  # the walk made gaps, and filled them
    spectator = one.wire_view(None)
    assert spectator["slots"] is spectator["drawn"] is None  # no hand, no layout


async def _start(clock: FakeClock, store: Store):
    host = Host(clock=clock, store=store)
    await host.start("127.0.0.1", 0)
    table = host.create_table("Camp", "foolsgold", seats=2, seed="slots", first_player=0)
    ann, bob = await Raw.open(host.port), await Raw.open(host.port)
    tokens = [(await ann.hello("Ann")).token, (await bob.hello("Bob")).token]
    await ann.send(p.Ready())
    await bob.send(p.Ready())
    await drive(clock, lambda: table.phase == "playing")
    return host, table, ann, tokens


async def _mine(raw: Raw, where=lambda v: True):
    """Seat 0's next view for which ``where`` holds (within 10 s: a hang fails)."""
    state = await asyncio.wait_for(
        raw.expect(p.State, lambda m: m.seat == 0 and where(m.view)), 10.0)
    return state.view


@pytest.mark.timeout(60)
async def test_a_hand_with_a_gap_comes_back_the_same_from_a_restored_host(store_dir):  # noqa: F811
    clock = FakeClock()
    store = Store(store_dir)
    host, table, ann, tokens = await _start(clock, store)
    try:
        view = await _mine(ann, lambda v: v.hand)
        dealt = _cards(view)
        assert dealt == [(c.name, c.variant) for c in view.hand] and len(dealt) == 5
        await ann.send(fm.DRAW())  # Ann starts: from the draw pile
        view = await _mine(ann, lambda v: len(v.hand) == 6)
        assert view.drawn == 5 and _cards(view)[:5] == dealt
        passed = view.hand[view.slots[1]]  # the card in slot 2 goes to Bob
        await ann.send(fm.DISCARD(card=fm.CardRef(name=passed.name, variant=passed.variant)))
        view = await _mine(ann, lambda v: len(v.hand) == 5)
        before = _cards(view)
        assert before[1] is None and before[0] == dealt[0] and before[2:5] == dealt[2:]
        assert view.drawn is None and len(before) == 6
        await host.close("shutdown")  # the host goes away with the game unfinished
        # the replay of the save lays it out the same
        saves, problems = persist.load_all(Store(store_dir))
        assert problems == [] and len(saves) == 1
        steps = saves[0].steps()
        assert _cards(to_view(steps[-1][1][0])) == before

        clock2 = FakeClock(persist.resume_time(saves))
        host = Host(clock=clock2, store=Store(store_dir))
        host.restore(saves[0])
        await host.start("127.0.0.1", 0)
        ann2 = await Raw.open(host.port)
        assert (await ann2.hello("Ann", token=tokens[0])).resumed
        again = await _mine(ann2, lambda v: v.hand)
        assert _cards(again) == before and again.drawn is None
        bob2 = await Raw.open(host.port)  # the restored game waits for both
        assert (await bob2.hello("Bob", token=tokens[1])).resumed
        await ann2.send(fm.DRAW())  # the next card fills the gap, as it would have
        after = await _mine(ann2, lambda v: len(v.hand) == 6)
        assert after.drawn == 1 and _cards(after)[2:] == before[2:]
    finally:
        await host.close()


def test_a_view_whose_slots_disagree_with_its_hand_is_refused():
    """A client checks every view (``net.views.check``): slots that lose, repeat or
    invent a card, or a drawn card in an empty slot, are a protocol error, not a crash."""
    driver = FoolsGoldDriver(2, 0, random.Random("deal"), SETTINGS)
    driver.start(0.0)
    good = driver.wire_view(0)
    assert check(to_view(good)) is None and good["slots"] == [0, 1, 2, 3, 4]
    for slots, drawn in (([0, 1, 2, 3], None), ([0, 1, 2, 3, 3], None),
                         ([0, 1, 2, 3, 4, 5], None), ([0, None, 1, 2, 3, 4], 1),
                         ([0, 1, 2, 3, 4], 5)):  # fmt: skip
        assert check(to_view({**good, "slots": slots, "drawn": drawn})) is not None
    assert check(to_view({**good, "slots": None, "drawn": 0})) is not None
    assert check(to_view({**good, "slots": [None, 0, 1, 2, 3, 4], "drawn": None})) is None
