"""Key bindings' ids (light: no Textual import, so every screen and the app can use it
without loading the screens of `tui.screens.common`)."""

from __future__ import annotations

import dataclasses
import re
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from textual.binding import Binding


def with_ids(prefix: str, bindings: list[Binding]) -> list[Binding]:
    """Give every binding an id, ``<prefix>.<action>`` (``nuggets.roll``,
    ``foolsgold.discard-0``, ``lobby.seats-minus-1``), so the settings file can remap
    its keys (``"keys": {"foolsgold.grab": "x"}``)."""
    out: list[Binding] = []
    for binding in bindings:
        if binding.id is None:
            action = binding.action.removeprefix("app.").replace("-", "minus-")
            name = re.sub(r"[^a-z0-9_]+", "-", action.lower()).strip("-")
            ident = f"{prefix}.{name}"
            if any(b.id == ident for b in out):  # a second key for one action: its own id
                ident += "-" + re.sub(r"[^a-z0-9_]+", "-", binding.key.lower())
            binding = dataclasses.replace(binding, id=ident)
        out.append(binding)
    return out


def add_bindings(node: Any, prefix: str, bindings: list[Binding]) -> None:
    """Give one screen or widget more bindings, after its class's (for keys built from
    the games registered when it is made, not when its module was imported). Call it
    in ``__init__``: the app's keymap applies to them as to the class's."""
    from tui import textual_internals

    textual_internals.add_bindings(node, with_ids(prefix, bindings))
