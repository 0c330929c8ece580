"""Textual's Footer, built with its keys and rebuilt only when the keys it shows change.

Textual's Footer starts empty and rebuilds all its keys each time the screen says its
bindings may have changed: on the screen's resume, on each focus change, and again after
the next refresh. The menu opened with an empty footer bar, then rebuilt it three times
for the same keys, each rebuild restyling every key twice (a new key starts compact and
is made wide again) and laying the screen out again. This one draws the same footer,
from its first compose, and rebuilds it only for a change.
"""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.widgets import Footer as TextualFooter
from textual.widgets._footer import FooterKey


class Footer(TextualFooter):
    """A Footer that skips a rebuild showing the same keys as the one on screen."""

    _shown: tuple[Any, ...] | None = None

    def _keys_shown(self) -> tuple[Any, ...] | None:
        """Everything `compose` reads to draw the keys (None: not ready yet)."""
        if not self._bindings_ready:
            return None
        app = self.app
        active = self.screen.active_bindings
        keys = tuple(
            (binding.key, app.get_key_display(binding), binding.description, binding.action,
             binding.group, enabled, tooltip, binding.tooltip)
            for _, binding, enabled, tooltip in active.values() if binding.show)
        palette = None
        if self.show_command_palette and app.ENABLE_COMMAND_PALETTE:
            found = active.get(app.COMMAND_PALETTE_BINDING)
            if found is not None:
                _, binding, enabled, tooltip = found
                palette = (binding.key, app.get_key_display(binding), binding.description,
                           enabled, tooltip, binding.tooltip)
        return (self.compact, self.combine_groups, keys, palette)

    async def recompose(self) -> None:
        if self.is_attached and self._shown is not None and self._keys_shown() == self._shown:
            return
        await super().recompose()

    def compose(self) -> ComposeResult:
        if not self._bindings_ready and self.is_attached:
            # the keys from the first compose, in the screen's first frame: not an empty
            # bar that waits for the screen to say its bindings changed (a rebuild,
            # a layout and a paint more); a focus that brings keys of its own still
            # rebuilds it
            self.set_reactive(TextualFooter._bindings_ready, True)
        self._shown = self._keys_shown()
        for widget in super().compose():
            if isinstance(widget, FooterKey):
                # born with the footer's compact, not restyled once to its default
                # and again to the footer's (what data_bind does once it is mounted)
                widget.set_reactive(FooterKey.compact, self.compact)
                widget.set_class(self.compact, "-compact", update=False)
            yield widget
