"""The text on screen, for tests and benches: what a person would read, no styles."""

from __future__ import annotations


def screen_text(app) -> str:
    """The current screen as plain lines (trailing spaces kept off)."""
    strips = app.screen._compositor.render_strips()
    return "\n".join(strip.text.rstrip() for strip in strips)
