"""A phone's pass buttons (issue 58, finding 9): at 40 and 42 columns the Fool's Gold
touch bar's pass buttons read in the hand's order (1-2-3 before 4-5-6, top to bottom,
left to right), each says what it does ("Pass ...") and names its card whole, or by
initials and a last word no other card of the deck ends in ("Pass P. Pete"). They
once ran 4-5-6 above 1-2-3, one said Pass, and names were cut ("Rattlesn.").

The bar's rule still holds: a button keeps its place while it exists, and no place
shows another button within ``SLOT_MEMORY`` of its last; a card drawn after a pass
goes to the passed card's place once that rule allows, so the order comes back."""

from __future__ import annotations

import pytest
from textual.widgets import Button

from foolsgold.cards import ANIMAL_NAMES, PROSPECTOR_NAMES
from net.clock import FakeClock
from tui.games.foolsgold.screen import FoolsGoldScreen, pass_label
from tui.screen_text import screen_text
from tui.widgets.touchbar import SLOT_MEMORY, TouchBar

from .harness import make_app, until
from .helpers import foolsgold_view, replace

pytestmark = pytest.mark.timeout(60)

NAMES = ANIMAL_NAMES + PROSPECTOR_NAMES
SIZES = pytest.mark.parametrize("size", [(40, 30), (42, 30)], ids=["40x30", "42x30"])


def _card(name: str, variant: str = "a") -> dict:
    kind = "prospector" if name in PROSPECTOR_NAMES else "animal"
    return {"name": name, "kind": kind, "variant": variant}


def _passes(app) -> list[tuple[str, str, tuple[int, int]]]:
    """The pass buttons as a person reads them: (card, words, place), top to bottom,
    left to right."""
    bar = app.screen.query_one(TouchBar)
    found = [(str(b.name)[11:-2], str(b.label), (b.region.y, b.region.x))
             for b in bar.query(Button) if str(b.name).startswith("pass_card(")]
    return sorted(found, key=lambda p: p[2])


async def _settled(pilot, cards: list[str]) -> list[tuple[str, str, tuple[int, int]]]:
    last: list = [None]

    def still():
        found = _passes(pilot.app)
        if sorted(c for c, _, _ in found) == sorted(cards) and \
                all(p != (0, 0) for _, _, p in found) and found == last[0]:
            return found
        last[0] = found
        return None

    return await until(pilot, still, f"the pass buttons of {cards}", step=None)


def _named(name: str, label: str) -> bool:
    """``label`` passes ``name``, naming it whole or by initials and its last word."""
    if label == f"Pass {name}":
        return True
    *first, last = name.split()
    return bool(first) and label == "Pass " + " ".join(w[0] + "." for w in first) + f" {last}"


@SIZES
async def test_the_pass_buttons_read_in_the_hands_order_and_name_their_cards(tmp_path, size,
                                                                             monkeypatch):
    monkeypatch.setenv("MOTHERLODE_TOUCH", "1")
    clock = FakeClock()
    app = make_app(tmp_path)
    app.touch_clock = clock.now
    hand = ["Rattlesnake", "Panhandle Pete", "Owl", "Gila Monster", "Prairie Dog",
            "Calamity Kate"]
    async with app.run_test(size=size) as pilot:
        screen = FoolsGoldScreen(0, ["Ann", "Bob", "Cid", "Dee"])
        await app.push_screen(screen)
        six = foolsgold_view(hand=[_card(n) for n in hand])
        screen.show_state(six, [])
        found = await _settled(pilot, hand)
        assert [card for card, _, _ in found] == hand, found  # 1-2-3 before 4-5-6
        shown = screen_text(app)
        for card, words, _ in found:
            assert _named(card, words), (card, words)
            assert words in shown, (words, shown)  # drawn whole: not cut by the button
        # so is every card of the deck at this width: its own words, no other card's
        width = screen.query_one(TouchBar).label_width()
        said = {name: pass_label(name, width) for name in NAMES}
        assert all(len(w) <= width and _named(n, w) for n, w in said.items()), said
        assert len(set(said.values())) == len(NAMES)
        places = {card: place for card, _, place in found}
        # the third card (the Owl) is passed: the others keep their places
        five = replace(six, hand=[c for c in six.hand if c.name != "Owl"],
                       slots=[0, 1, None, 2, 3, 4], hand_sizes=[5, 5, 5, 5],
                       incoming_sizes=[1, 2, 1, 0])
        screen.show_state(five, [])
        await until(pilot, lambda: not _passes(app), "the passes gone (the draw's turn)")
        # a draw at once (within the slot memory): the others are back where they
        # were, and the Elk's button waits for the Owl's place (no other button shows
        # there so soon after the Owl's)
        clock.advance(0.5)
        drawn = [*hand[:2], "Elk", *hand[3:]]
        screen.show_state(foolsgold_view(hand=[_card(n) for n in drawn]), [])
        waiting = [c for c in drawn if c != "Elk"]
        found = await _settled(pilot, waiting)
        assert all(place == places[card] for card, _, place in found), (found, places)
        # the memory over, the Elk takes the third place: the buttons read in the
        # hand's order again
        clock.advance(SLOT_MEMORY)
        screen.query_one(TouchBar).recheck()
        found = await _settled(pilot, drawn)
        assert [card for card, _, _ in found] == drawn, found
        assert {c: p for c, _, p in found}["Elk"] == places["Owl"]
