"""Every hint line whole at 80x24 and 60x20 (issue 47): a first-timer plays by what the
line under the dice or the cards says, so none of it may be cut. The real app against
real bots, played by the keys the hints name, with every hint checked as it changes."""

from __future__ import annotations

import contextlib

import pytest

from net.clock import FakeClock
from tests.tui.helpers import SIZES, flat
from tui.games.foolsgold.screen import FoolsGoldScreen
from tui.games.nuggets.screen import NuggetsScreen
from tui.widgets.board import Hint

from .harness import make_app, until
from .helpers import screen_text

pytestmark = [pytest.mark.timeout(180), pytest.mark.slow]


async def hints_whole(pilot) -> list[str]:
    """Every shown hint's text, each checked to be on the screen whole (wrapped lines
    joined) once the screen has laid out its new text: the cut ones fail."""
    app = pilot.app

    def whole() -> bool:
        shown = flat(screen_text(app))
        return all(flat(h.text) in shown for h in app.screen.query(Hint) if h.display and h.text)

    # a hint that grew a line is laid out again on the next refresh
    with contextlib.suppress(AssertionError):
        await until(pilot, whole, "every hint whole", deadline=2)
    shown = flat(screen_text(app))
    hints = [h for h in app.screen.query(Hint) if h.display and h.text]
    for hint in hints:
        assert flat(hint.text) in shown, (hint.text, screen_text(app))
    return [h.text for h in hints]


@pytest.mark.parametrize("size", SIZES, ids=["80x24", "60x20"])
async def test_gold_nuggets_hints_fit_and_agree(tmp_path, size):
    app = make_app(tmp_path, start=("solo", "nuggets", 2),
                   table_options={"seed": "hints-fit", "bot_pace": 0.0})
    async with app.run_test(size=size) as pilot:
        await until(pilot, lambda: isinstance(app.screen, NuggetsScreen), "the table")
        screen: NuggetsScreen = app.screen
        await until(pilot, lambda: screen.view is not None, "a first view")
        seen: set[str] = set()
        my_turns = all_chosen = 0
        while not screen.view.over and my_turns < 6:
            await until(pilot, lambda: screen.acting_seat is not None or screen.view.over,
                        "a keyboard seat's turn, or the end")
            view = screen.view
            if view.over:
                break
            texts = await hints_whole(pilot)
            seen.update(texts)
            old = view
            if view.phase == "roll":
                my_turns += 1
                await pilot.press("enter")  # the turn's first roll, as the hint says
            else:
                await pilot.press("space")  # the advisor's set-aside, as its hint says
                chosen = " ".join(await hints_whole(pilot))
                if view.phase == "keep" and len(screen.selected) == len(view.rolled) \
                        and screen.view is old:
                    # every die chosen: nothing is left to roll on, and the line agrees
                    assert "enter rolls on" not in chosen, chosen
                    assert "nothing yet worth 0" not in flat(screen_text(app))
                    all_chosen += 1
                if screen.view is old:
                    await pilot.press("space")  # then the advised roll on, take or steal
            await until(pilot, lambda old=old: screen.view is not old or screen.view.over,
                        "the host answers")
        assert my_turns >= 3 or screen.view.over
        assert all_chosen, "the advisor never chose every die left (the seed's game)"
        assert seen, "no hint was ever shown"


@pytest.mark.parametrize("size", SIZES, ids=["80x24", "60x20"])
async def test_fools_gold_hints_fit(tmp_path, size):
    clock = FakeClock()
    app = make_app(tmp_path, start=("solo", "foolsgold", 3), host_clock=clock,
                   table_options={"seed": "hints-fit", "bot_pace": 0.5})
    async with app.run_test(size=size) as pilot:
        await until(pilot, lambda: isinstance(app.screen, FoolsGoldScreen), "the table")
        screen: FoolsGoldScreen = app.screen
        await until(pilot, lambda: screen.view is not None and screen.view.hand, "the deal")
        seen: set[str] = set()

        async def play() -> bool:
            """Ann's part now, then 0.1 s of the host's clock; True once settled."""
            view = screen.view
            if view.settled or view.round_no > 1:
                return True
            seen.update(await hints_whole(pilot))
            hand = view.hand or []
            if not view.frozen and len(hand) == 5 and (view.start == 0 or
                                                       view.incoming_sizes[0]):
                await pilot.press("1")  # one key a card: draw and pass the first
            clock.advance(0.1)
            return False

        await until(pilot, play, "the round settles", deadline=120, step=0.002)
        seen.update(await hints_whole(pilot))
        assert len(seen) >= 2, seen
