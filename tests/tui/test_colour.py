"""Colour that carries nothing alone (issue 61): both tables rendered in every theme the
app offers, their colours read from the widgets as drawn, and seen as a person with
protanopia, deuteranopia or tritanopia sees them (Machado 2009, ``tests/tui/colour.py``):

- the banner's moods, which carry meaning (idle, your turn, bust, bonus or steal, game
  over), stay apart: CIEDE2000 at least 10 for every pair, in every vision;
- the text of the tables keeps 4.5:1 against its background (WCAG AA): the banner in
  each mood, the hint and the status line, the log, the seats (a grab, a player away,
  the headings), the supply.

The two ANSI themes are the terminal's own colours, which no test can know; they are
left out, and said so. Each failure names its theme, vision and pair."""

from __future__ import annotations

import pytest

from tests.tui.colour import VISIONS, ciede2000, contrast, seen
from tests.tui.harness import make_app
from tests.tui.helpers import events, foolsgold_view, nuggets_view
from tui.games.foolsgold.screen import FoolsGoldScreen
from tui.games.nuggets.screen import NuggetsScreen
from tui.widgets.board import TurnBanner

pytestmark = pytest.mark.timeout(300)

MOODS = {"idle": "", "your turn": "-mine", "bust": "-bust", "bonus": "-bonus",
         "game over": "-over"}
DISTINCT = 10.0  # CIEDE2000
READABLE = 4.5  # WCAG AA


def rgb(color) -> tuple[int, int, int]:
    triplet = color.get_truecolor()
    return triplet.red, triplet.green, triplet.blue


def text_of(widget, component: str | None = None) -> tuple:
    """(text colour, background) of ``widget`` (or one of its component classes), as
    drawn: a component without a colour of its own draws in the widget's."""
    base = widget.rich_style
    if component is None:
        return rgb(base.color), rgb(base.bgcolor)
    own = widget.get_component_rich_style(component)
    return rgb(own.color or base.color), rgb(own.bgcolor or base.bgcolor)


async def colours(pilot, app, screens) -> dict:
    """Every meaning-carrying colour of both tables in the app's current theme."""
    nuggets, fools = screens
    found: dict = {"moods": {}, "text": {}}
    await app.push_screen(nuggets)
    await pilot.pause()
    banner = nuggets.query_one(TurnBanner)
    for name, mood in MOODS.items():
        banner.show("x", mood)
        await pilot.pause()
        found["moods"][name] = rgb(banner.rich_style.bgcolor)
        found["text"][f"banner text ({name})"] = text_of(banner)
    found["text"]["hint"] = text_of(nuggets.query_one("#hint"))
    nuggets.show_status("The host is gone: trying again")
    await pilot.pause()
    found["text"]["status line"] = text_of(nuggets.query_one("#status"))
    found["text"]["log"] = text_of(nuggets.query_one("#log"))
    holdings = nuggets.query_one("Holdings")
    for part in ("supply", "away", "current", "me"):
        found["text"][f"nuggets seats ({part})"] = text_of(holdings, f"holdings--{part}")
    app.pop_screen()
    await app.push_screen(fools)
    await pilot.pause()
    seats = fools.query_one("Seats")
    for part in ("grab", "away", "head", "me"):
        found["text"][f"card seats ({part})"] = text_of(seats, f"seats--{part}")
    app.pop_screen()
    await pilot.pause()
    return found


def problems(theme: str, found: dict) -> list[str]:
    said = []
    moods = list(found["moods"])
    for vision in VISIONS:
        for i, one in enumerate(moods):
            for two in moods[i + 1:]:
                d = ciede2000(seen(found["moods"][one], vision), seen(found["moods"][two], vision))
                if d < DISTINCT:
                    said.append(f"{theme}, {vision}: banner {one} / {two}: CIEDE2000 {d:.1f}")
        for what, (fg, bg) in found["text"].items():
            c = contrast(seen(fg, vision), seen(bg, vision))
            if c < READABLE:
                said.append(f"{theme}, {vision}: {what}: contrast {c:.2f}:1")
    return said


async def test_every_theme_keeps_its_meanings_apart_and_its_text_readable(tmp_path):
    app = make_app(tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        themes = sorted(t for t in app.available_themes if not t.startswith("ansi-"))
        nuggets = NuggetsScreen([0], advisor=True, hotseat=False)
        view = nuggets_view(names=("Ann", "Bob"))
        fools = FoolsGoldScreen(0, ["Ann", "Bob", "Cid", "Dee"])
        said = []
        for theme in themes:
            app.theme = theme
            await pilot.pause()
            screens = (nuggets, fools)
            if nuggets.view is None:
                await app.push_screen(nuggets)
                await pilot.pause()
                nuggets.show_state(view, events({"type": "turn", "seat": 0}))
                nuggets.set_away(frozenset({1}))
                app.pop_screen()
                await app.push_screen(fools)
                await pilot.pause()
                fools.show_state(foolsgold_view(grabbed=[[2, 10.0]], frozen=True),
                                 events({"type": "grabbed", "seat": 2, "at": 10.0,
                                         "order": 1, "nuggets_left": 2}))
                fools.set_away(frozenset({3}))
                app.pop_screen()
                await pilot.pause()
            said += problems(theme, await colours(pilot, app, screens))
        if "high-contrast" not in themes:
            said.append("no high-contrast theme among the app's themes")
    assert not said, f"{len(said)} problems:\n" + "\n".join(said)


async def test_every_state_a_colour_shows_has_a_word_or_a_mark(tmp_path):
    """The seat that acts, a player away, the winner, a grab: each has its mark or word
    in the text itself (read without any style), and the banner says each mood."""
    app = make_app(tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        nuggets = NuggetsScreen([0], advisor=True, hotseat=False)
        await app.push_screen(nuggets)
        await pilot.pause()
        nuggets.show_state(nuggets_view(names=("Ann", "Bob")),
                           events({"type": "turn", "seat": 0}))
        nuggets.set_away(frozenset({1}))
        await pilot.pause()
        seats = nuggets.query_one("Holdings").render().plain
        assert "▶ Ann" in seats and "Bob 0 (away)" in seats, seats
        app.pop_screen()
        fools = FoolsGoldScreen(0, ["Ann", "Bob", "Cid", "Dee"])
        await app.push_screen(fools)
        await pilot.pause()
        fools.show_state(foolsgold_view(grabbed=[[2, 10.0]], frozen=True, winner=1,
                                        scores=[1, 3, 0, 0]), events())
        fools.set_away(frozenset({3}))
        await pilot.pause()
        lines = fools.query_one("Seats").render().plain.splitlines()
        assert "★" in next(line for line in lines if "Bob" in line), lines
        assert "#1 first" in next(line for line in lines if "Cid" in line), lines
        assert "away" in next(line for line in lines if "Dee" in line), lines
        assert "wins the match" in str(fools.query_one(TurnBanner).render())
