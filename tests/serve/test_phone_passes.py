"""A phone's pass buttons at the web door (issue 58, finding 9): headless Chromium as a
390x844 phone at ``motherlode serve --web``, a Fool's Gold round against two bots. Once
the player has drawn, the touch bar's pass buttons read in the hand's order (the card
in slot 1 first, top to bottom, left to right: they ran 4-5-6 above 1-2-3), each says
what it does ("Pass ...": one did) and names its card whole or by initials and its last
word, never cut ("Rattlesn."). The screenshot is kept in the test's folder (and in
``MOTHERLODE_SCREENSHOT_DIR``, if set, as ``web-phone-passes.png``)."""

from __future__ import annotations

import pytest

from tests.serve.browser import CHROMIUM, PHONE, REQUIRED, Browser, buttons_drawn
from tests.serve.helpers import serving
from tests.serve.phone import NOT_PASSES, hand_shown, shoot, sit_down, until_page
from tests.serve.phone import tap as _tap

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(CHROMIUM is None and not REQUIRED,
                       reason="no chromium here (.ci/run installs it and requires it)"),
]


def _passes(lines: list[str]) -> list[str]:
    """The pass buttons' words as a person reads them: top to bottom, left to right."""
    found = sorted((row, left, label) for label, left, row, _ in buttons_drawn(lines)
                   if label not in NOT_PASSES)
    return [label for _, _, label in found]


@pytest.mark.timeout(300)
async def test_a_phones_pass_buttons_read_in_order_and_say_pass_and_the_card(tmp_path):
    async with serving(tmp_path, "--web", "0", "--game", "foolsgold", "--seed",
                       "phone-passes", "--pace", "relaxed") as (serve, _):
        async with Browser.open(tmp_path / "profile", PHONE) as browser:
            await sit_down(browser, serve.web_port, "Fool's Gold at")
            for n in range(2):
                await browser.settled()
                await _tap(browser, "Add bot")
                await browser.wait_for(rf"{n + 2}\. .+\(bot\) +bot")
            await browser.settled()
            await browser.tap_button("Start")
            await browser.wait_for(r"Round 1: collect a set")
            await until_page(browser, lambda: "Draw" in browser.touch_bar()
                             or len(hand_shown(browser.text)) == 6, "a card to draw, or six")
            if "Draw" in browser.touch_bar():
                await browser.tap_button("Draw")
            await until_page(browser, lambda: len(_passes(browser.screen.display)) >= 5,
                             "the pass buttons")
            lines = browser.screen.display
            await shoot(browser, tmp_path, "web-phone-passes.png")
    shown = "\n".join(lines)
    hand = list(dict.fromkeys(hand_shown(shown)))  # the hand in its order (two Owls: one)
    said = _passes(lines)
    assert len(hand) >= 5 and len(said) == len(hand), shown
    for card, words in zip(hand, said, strict=True):  # in the hand's order
        assert words.startswith("Pass ") and not words.endswith("."), shown
        # the card whole, or its initials and last word (the hand may show either)
        assert words.split()[-1] == card.split()[-1], (card, words, shown)
