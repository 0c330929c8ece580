"""Textual's Footer, built with its keys and rebuilt only when the keys it shows change.

Textual's Footer starts empty and rebuilds all its keys each time the screen says its
bindings may have changed: on the screen's resume, on each focus change, and again after
the next refresh. The menu opened with an empty footer bar, then rebuilt it three times
for the same keys, each rebuild restyling every key twice (a new key starts compact and
is made wide again) and laying the screen out again. This one draws the same footer,
from its first compose, and rebuilds it only for a change.

A busy table's keys come and go with every card (``d Draw`` only while a draw would be
accepted). A rebuild for each made a new widget a key, styled and mounted, on the path
from a key to its repaint (issue 22: 4 ms of its median). So this footer builds a key
for every binding its screen could show, hides those that do nothing now, and for a
change of which keys work only shows and hides the keys it built.
"""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.css.scalar import Scalar
from textual.widgets import Footer as TextualFooter
from textual.widgets._footer import FooterKey


class Footer(TextualFooter):
    """A Footer that skips a rebuild showing the same keys as the one on screen, and
    shows and hides the keys it built when only which of them work changes."""

    _shown: tuple[Any, ...] | None = None
    _possible: tuple[Any, ...] | None = None  # every key it built, shown or not

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

    def _keys_possible(self) -> list[tuple[Any, ...]] | None:
        """The keys the footer would show if every binding's action worked, in
        `compose`'s order, each ``(key, display, description, action, enabled or
        None if hidden now, tooltip)``: one for an action's first binding, as `compose`
        draws them. None where this footer cannot draw them itself (a group of keys,
        the command palette's key)."""
        if self.show_command_palette and self.app.ENABLE_COMMAND_PALETTE:
            return None
        app = self.app
        found: dict[str, tuple[Any, Any]] = {}
        try:  # (Textual's own, as ``Screen.active_bindings`` reads them; gone: rebuild)
            chain = self.screen._modal_binding_chain
            check = app._check_action_state
        except AttributeError:
            return None
        for namespace, bindings in chain:
            for key, binding in bindings:
                existing = found.get(key)
                if existing is None or (binding.priority and not existing[0].priority):
                    # (as ``Screen.active_bindings``; ``_agrees`` checks the keys shown)
                    found[key] = (binding, check(binding.action, namespace))
        keys: dict[str, tuple[Any, ...]] = {}
        for binding, state in found.values():
            if not binding.show:
                continue
            if binding.group is not None:
                return None
            keys.setdefault(binding.action, (
                binding.key, app.get_key_display(binding), binding.description,
                binding.action, None if state is False else bool(state), binding.tooltip))
        return list(keys.values())

    async def recompose(self) -> None:
        if self.is_attached and self._shown is not None:
            shown = self._keys_shown()
            if shown == self._shown:
                return
            if self._show_in_place(shown):
                self._fit_width()
                return
        await super().recompose()
        self._fit_width()

    def on_mount(self) -> None:
        self._fit_width()

    def on_resize(self) -> None:
        self._fit_width()

    def _fit_width(self) -> None:
        """Keys that do not fit one row (a narrow terminal) go in rows of a grid, each
        key whole, rather than off the edge; one row again when they fit."""
        keys = [k for k in self.query_children(FooterKey) if k.display]
        width = self.app.size.width
        # what a key takes: " key description " and the gap after it
        need = sum(len(k.key_display) + len(k.description) + 3 for k in keys)
        if not keys or need - 1 <= width:  # (the last key's trailing space may go)
            if self.styles.height != Scalar.parse("1"):
                self.styles.layout = "horizontal"
                self.styles.height = 1
            return
        cell = max(len(k.key_display) + len(k.description) + 2 for k in keys)
        columns = max(1, min(len(keys), width // cell))
        rows = -(-len(keys) // columns)
        self.styles.layout = "grid"
        self.styles.grid_size_columns = columns
        self.styles.height = rows

    def _show_in_place(self, shown: tuple[Any, ...] | None) -> bool:
        """Show the keys of ``shown`` by showing and hiding the keys built, if they are
        the same keys; False if not (the footer is then built again)."""
        possible = self._keys_possible()
        if shown is None or possible is None or self._possible is None:
            return False
        built = list(self.query_children(FooterKey))
        if (shown[:2] != self._shown[:2] or len(built) != len(possible)
                or _unlit(possible) != _unlit(self._possible)
                or not self._agrees(possible, shown)):  # fmt: skip
            return False
        for widget, (*_, enabled, _tooltip) in zip(built, possible, strict=True):
            widget.display = enabled is not None
            if enabled is not None and widget.has_class("-disabled") == enabled:
                # what FooterKey(disabled=...) sets: its class, and the flag a click reads
                widget._disabled = not enabled
                widget.set_class(not enabled, "-disabled")
        self._lay_out(possible)
        self._shown = shown
        return True

    def _lay_out(self, possible: list[tuple[Any, ...]]) -> None:
        self._possible = tuple(possible)
        # (as Textual's: a column a key shown)
        if self.styles.layout is None or self.styles.layout.name != "grid":
            self.styles.grid_size_columns = sum(1 for *_, on, _t in possible if on is not None)

    @staticmethod
    def _agrees(possible: list[tuple[Any, ...]], shown: tuple[Any, ...]) -> bool:
        """Whether the keys ``possible`` shows are the ones Textual's footer would (an
        action's first binding, as ``compose`` draws them)."""
        drawn: dict[str, tuple[Any, ...]] = {}
        for key, display, description, action, _group, enabled, tooltip, _ in shown[2]:
            drawn.setdefault(action, (key, display, description, action, enabled, tooltip))
        return [k for k in possible if k[4] is not None] == list(drawn.values())

    def compose(self) -> ComposeResult:
        if not self._bindings_ready and self.is_attached:
            # the keys from the first compose, in the screen's first frame: not an empty
            # bar that waits for the screen to say its bindings changed (a rebuild,
            # a layout and a paint more); a focus that brings keys of its own still
            # rebuilds it
            self.set_reactive(TextualFooter._bindings_ready, True)
        self._shown = self._keys_shown()
        possible = self._keys_possible() if self._shown is not None else None
        if possible is None or not self._agrees(possible, self._shown):
            self._possible = None
            yield from self._styled(super().compose(), bind=False)
            return
        self._lay_out(possible)
        for key, display, description, action, enabled, tooltip in possible:
            widget = FooterKey(key, display, description, action,
                               disabled=enabled is False, tooltip=tooltip)
            widget.display = enabled is not None
            yield from self._styled([widget], bind=True)

    def _styled(self, widgets: Any, bind: bool) -> ComposeResult:
        for widget in widgets:
            if isinstance(widget, FooterKey):
                # born with the footer's compact, not restyled once to its default
                # and again to the footer's (what data_bind does once it is mounted)
                widget.set_reactive(FooterKey.compact, self.compact)
                widget.set_class(self.compact, "-compact", update=False)
                if bind:  # (Textual's compose binds its own)
                    widget.data_bind(compact=TextualFooter.compact)
            yield widget


def _unlit(keys: Any) -> list[tuple[Any, ...]]:
    """The keys without whether each works now: what the built widgets draw."""
    return [key[:4] + key[5:] for key in keys]
