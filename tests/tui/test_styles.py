"""Each style sheet parsed once a process (``tui.styles``, issue 48): a second app in
the same process (as every app the warm parent forks is) parses no CSS to draw its
menu, and draws the same screen; a change of theme, which changes the CSS variables,
parses again and draws in the new colours. The real app, headless, counting Textual's
own parser's calls."""

from __future__ import annotations

import pytest
from textual.css import stylesheet

from tests.tui.helpers import screen_text
from tests.tui.test_modes import make_app

pytestmark = pytest.mark.timeout(60)


@pytest.fixture
def parses(monkeypatch) -> list[str]:
    """Each call of Textual's CSS parser, by the source it parsed (where it came from)."""
    calls: list[str] = []
    real = stylesheet.parse

    def counted(scope, css, read_from, *args, **kwargs):
        calls.append(repr(read_from))
        return real(scope, css, read_from, *args, **kwargs)

    monkeypatch.setattr(stylesheet, "parse", counted)
    return calls


async def _menu(tmp_path) -> tuple[str, str]:
    """Draw the menu once; its text and the menu's background colour."""
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        text = screen_text(app)
        background = str(app.screen.styles.background)
    return text, background


async def test_a_second_app_parses_no_style_sheet_and_draws_the_same(tmp_path, parses):
    first, _ = await _menu(tmp_path / "one")
    parsed = len(parses)
    second, _ = await _menu(tmp_path / "two")
    assert "hot-seat" in first  # the menu drew
    assert second == first
    assert len(parses) == parsed, parses[parsed:]  # nothing parsed again


async def test_a_new_theme_parses_again_in_its_own_colours(tmp_path, parses):
    _, dark = await _menu(tmp_path / "one")
    app = make_app(tmp_path / "two")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        before = len(parses)
        app.theme = "textual-light" if app.theme != "textual-light" else "textual-dark"
        await pilot.pause()
        assert len(parses) > before  # the new variables: the sheets parsed for them
        light = str(app.screen.styles.background)
    assert light != dark
