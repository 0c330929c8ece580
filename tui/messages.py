"""Messages that flow up from widgets and screens to the app.

State flows down (screens set widgets' reactive attributes); intent flows up as these
messages, handled with `@on(...)`.
"""

from __future__ import annotations

from typing import Any

from textual.message import Message


class DieClicked(Message):
    """A die was clicked: toggle it, as its number key would."""

    def __init__(self, index: int) -> None:
        super().__init__()
        self.index = index


class CardClicked(Message):
    """A card in the hand was clicked: discard it, as its number key would."""

    def __init__(self, index: int) -> None:
        super().__init__()
        self.index = index


class SendAction(Message):
    """A table screen wants an action sent to the host."""

    def __init__(self, action: dict[str, Any]) -> None:
        super().__init__()
        self.action = action


class Update(Message):
    """Something arrived from the host: a message dict of the protocol."""

    def __init__(self, message: dict[str, Any]) -> None:
        super().__init__()
        self.message = message
