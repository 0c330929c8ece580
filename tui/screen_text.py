"""The text on screen, for tests and benches: what a person would read, no styles."""

from __future__ import annotations


def screen_text(app) -> str:
    """The current screen as plain lines (trailing spaces kept off)."""
    from tui.textual_internals import rendered_strips

    strips = rendered_strips(app.screen)
    return "\n".join(strip.text.rstrip() for strip in strips)
