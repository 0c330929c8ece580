"""The dice on the table and the set-aside tray of Gold Nuggets."""

from __future__ import annotations

from rich.text import Text
from textual.events import Click
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from tui.games.nuggets import glyphs

DICE = 7
SLOT = glyphs.DIE_WIDTH + 1
SMALL_SLOT = 5  # a small die, " [N] ", where the big ones do not fit


class DieClicked(Message):
    """A die was clicked: toggle it, as its number key would."""

    def __init__(self, index: int) -> None:
        super().__init__()
        self.index = index


class DiceTray(Widget):
    """The rolled dice, big, with their keys 1-7 and selection marks beneath.

    `faces` is the view's `rolled` (None when no dice are on the table, then
    `dice_left` ghost dice show what the next roll throws).
    """

    COMPONENT_CLASSES = {
        "dice--nugget",
        "dice--lasso",
        "dice--number",
        "dice--selected",
        "dice--ghost",
        "dice--key",
    }

    faces: reactive[tuple[str, ...] | None] = reactive(None)
    selected: reactive[frozenset[int]] = reactive(frozenset())
    dice_left: reactive[int] = reactive(DICE)
    ascii_mode: reactive[bool] = reactive(False)

    def _face_style(self, face: str, selected: bool):
        name = {"nugget": "dice--nugget", "lasso": "dice--lasso"}.get(face, "dice--number")
        style = self.get_component_rich_style(name)
        if selected:
            style += self.get_component_rich_style("dice--selected")
        return style

    @property
    def small(self) -> bool:
        """The big dice do not fit this tray (a narrow or short terminal): one row of
        small dice and a row of their keys."""
        width, height = self.content_size
        return width < DICE * SLOT - 1 or height < glyphs.DIE_HEIGHT + 1

    def on_resize(self) -> None:
        self.refresh()

    def render(self) -> Text:
        if self.small:
            return self._render_small()
        out = Text(no_wrap=True, overflow="crop")
        if self.faces is None:
            ghost = self.get_component_rich_style("dice--ghost")
            lines = [" " * glyphs.DIE_WIDTH] * glyphs.DIE_HEIGHT
            box = _ghost_lines(self.ascii_mode)
            for row in range(glyphs.DIE_HEIGHT):
                for i in range(DICE):
                    out.append((box if i < self.dice_left else lines)[row], ghost)
                    out.append(" ")
                out.append("\n")
            left = self.dice_left
            out.append(f" {left} {'die' if left == 1 else 'dice'} to roll", ghost)
            return out
        pictures = [
            glyphs.die_lines(face, ascii_mode=self.ascii_mode, selected=i in self.selected)
            for i, face in enumerate(self.faces)
        ]
        for row in range(glyphs.DIE_HEIGHT):
            for i, picture in enumerate(pictures):
                out.append(picture[row], self._face_style(self.faces[i], i in self.selected))
                out.append(" ")
            out.append("\n")
        key_style = self.get_component_rich_style("dice--key")
        for i in range(len(self.faces)):
            if i in self.selected:
                mark = f"[{i + 1}]" if self.ascii_mode else f"▲{i + 1}▲"
                out.append(mark.center(glyphs.DIE_WIDTH), self._face_style("", True))
            else:
                out.append(str(i + 1).center(glyphs.DIE_WIDTH), key_style)
            out.append(" ")
        return out

    def _render_small(self) -> Text:
        out = Text(no_wrap=True, overflow="crop")
        if self.faces is None:
            ghost = self.get_component_rich_style("dice--ghost")
            left = self.dice_left
            out.append(" [ ] " * left, ghost)
            out.append(f"\n {left} {'die' if left == 1 else 'dice'} to roll", ghost)
            return out
        for i, face in enumerate(self.faces):
            selected = i in self.selected
            die = glyphs.small_die(face, ascii_mode=self.ascii_mode)
            out.append(f" {die} ", self._face_style(face, selected))
        out.append("\n")
        key_style = self.get_component_rich_style("dice--key")
        for i in range(len(self.faces)):
            if i in self.selected:
                mark = f"[{i + 1}]" if self.ascii_mode else f"▲{i + 1}▲"
                out.append(mark.center(SMALL_SLOT), self._face_style("", True))
            else:
                out.append(str(i + 1).center(SMALL_SLOT), key_style)
        return out

    def on_click(self, event: Click) -> None:
        at = event.get_content_offset(self)
        if at is None:
            return
        index = at.x // (SMALL_SLOT if self.small else SLOT)
        if self.faces is not None and 0 <= index < len(self.faces):
            self.post_message(DieClicked(index))


def _ghost_lines(ascii_mode: bool) -> list[str]:
    w = glyphs.DIE_WIDTH - 2
    if ascii_mode:
        return ["." + "." * w + ".", *(":" + " " * w + ":" for _ in range(3)), "." + "." * w + "."]
    return ["┌" + "┄" * w + "┐", *("┆" + " " * w + "┆" for _ in range(3)), "└" + "┄" * w + "┘"]


class KeptTray(Widget):
    """The dice set aside this turn and what they are worth."""

    COMPONENT_CLASSES = {"tray--label", "tray--value", "tray--steal", "tray--chosen"}

    # (each laid out again when it changes: a long tray wraps to a second line on a
    # narrow screen, a phone's, rather than lose what it is worth)
    kept: reactive[tuple[str, ...]] = reactive((), layout=True)
    # the dice selected on the table to join them: never "nothing yet" beside a hint
    # that names a set-aside (issue 47)
    chosen: reactive[tuple[str, ...]] = reactive((), layout=True)
    # whether the rules take the chosen dice as a set-aside (else they add nothing)
    allowed: reactive[bool] = reactive(True, layout=True)
    value: reactive[int] = reactive(0, layout=True)
    can_steal: reactive[bool] = reactive(False, layout=True)

    def render(self) -> Text:
        label = self.get_component_rich_style("tray--label")
        out = Text("Set aside: ", label, overflow="fold")
        if self.kept:
            out.append(" ".join(glyphs.small_die(face) for face in self.kept))
        if self.chosen:
            if self.kept:
                out.append(" + ", label)
            out.append(" ".join(glyphs.small_die(face) for face in self.chosen),
                       self.get_component_rich_style("tray--chosen"))
            out.append(" chosen" if self.allowed else " chosen, not allowed", label)
        elif not self.kept:
            out.append("nothing yet", label)
        out.append("   worth ", label)
        out.append(str(self.value), self.get_component_rich_style("tray--value"))
        if self.can_steal:
            steal_style = self.get_component_rich_style("tray--steal")
            out.append("   3 lassos: you may steal (s)", steal_style)
        return out
