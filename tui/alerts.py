"""Alerts when a game needs the person (issue 61): their turn in Gold Nuggets, a race
starting in Fool's Gold, a steal aimed at them. Each game says which of its events
need whom (``AppGame.alert``); this module decides how, by the ``alerts`` setting
(``tui.settings.ALERTS``):

- ``off``: nothing;
- ``bell`` (the default): the terminal's bell (BEL), which marks the window urgent in
  most terminals and in tmux, and changes the tab's title at the web door (its page
  reads the bell: ``serve/templates/app_index.html``);
- ``desktop``: the bell, and while the terminal says it is not focused (focus
  reporting, ``ESC [ ? 1004 h``, which Textual turns on and reads as ``AppBlur`` and
  ``AppFocus``: ``App.app_focus``) a desktop notification, as both OSC 777
  (``ESC ] 777 ; notify ; TITLE ; BODY BEL``: foot, Windows Terminal, the web door's
  page) and OSC 9 (``ESC ] 9 ; TEXT BEL``: iTerm2, kitty, WezTerm). A terminal that
  knows neither ignores them.

Only at a table of people (a LAN or served table): against bots or at a hot-seat
table, the person is at the keyboard already.
"""

from __future__ import annotations

import re
from typing import Any

#: the notification's title
TITLE = "Motherlode"


def _plain(text: str) -> str:
    """Text safe inside an OSC sequence: no control characters, no ``;``."""
    return re.sub(r"[\x00-\x1f\x7f-\x9f;]", " ", text)[:200]


def notification(text: str) -> str:
    """The two desktop notifications of ``text``: OSC 777, then OSC 9."""
    body = _plain(text)
    return f"\x1b]777;notify;{TITLE};{body}\x07\x1b]9;{TITLE}: {body}\x07"


def alert(app: Any, text: str) -> str:
    """Alert the person at ``app`` with ``text`` by their setting; returns what was done
    ("", "bell" or "desktop")."""
    mode = getattr(app.settings, "alerts", "bell")
    if mode == "off":
        return ""
    app.bell()
    if mode != "desktop" or app.app_focus:
        return "bell"
    from tui.textual_internals import write_to_terminal

    write_to_terminal(app, notification(text))
    return "desktop"


def game_alert(app: Any, session: Any, events: list[Any]) -> str:
    """What the game's ``events`` need of this seat, alerted (a table of people only)."""
    from tui.plugin import game_of

    table = session.table
    if table is None or not session.policy.lobby or not session.seats:
        return ""
    names = [s.name for s in table.seats]
    for event in events:
        text = game_of(table.game).alert(event, session.seats, names)
        if text:
            return alert(app, text)
    return ""
