"""The TUI tests' harness: the one way to make the app and the one way to wait in it.

``make_app`` builds the real app on temporary settings, with nothing announced or
browsed on the LAN and keys at machine speed; ``until`` lets the app run (through its
pilot) until a condition holds, on ``tests.waiting.until``, and fails with the screen.
"""

from __future__ import annotations

from typing import Any

from tests.waiting import until as _poll
from tui.app import MotherlodeApp
from tui.settings import Settings

from .helpers import screen_text

FACE_KEY = {"nugget": "n", "lasso": "l", "2": "f2", "3": "f3", "4": "f4", "5": "f5"}


def make_app(tmp_path, **kwargs) -> MotherlodeApp:
    """The app, its settings in ``tmp_path``; ``kwargs`` go to ``MotherlodeApp``."""
    kwargs.setdefault("announce", False)
    kwargs.setdefault("discover", False)
    kwargs.setdefault("turn_pause", 0.0)  # keys at machine speed (the pause has its own test)
    kwargs.setdefault("settings", Settings(name="Ann"))
    return MotherlodeApp(settings_path=tmp_path / "s.json", **kwargs)


async def until(pilot, condition, what: str, deadline: float = 30.0) -> Any:
    """Let the app run until ``condition()`` holds, and return it; fail saying what
    never happened, with the screen."""
    try:
        return await _poll(condition, what, deadline, step=0.001, pause=pilot.pause)
    except AssertionError as error:
        raise AssertionError(f"{error}\n{screen_text(pilot.app)}") from None


def log_text(screen) -> str:
    """Every line of a table's event log, scrolled off or not."""
    return "\n".join(line.plain for line in screen.query_one("#log").lines)


def keys_for(rolled: list[str], faces) -> list[str]:
    """Keys that select ``faces`` from ``rolled``: a face key where all dice of that
    face are wanted, else the dice one by one."""
    keys = []
    wanted = [f.value for f in faces]
    for face in dict.fromkeys(wanted):
        if wanted.count(face) == rolled.count(face):
            keys.append(FACE_KEY[face])
        else:
            picks = [i for i, f in enumerate(rolled) if f == face][: wanted.count(face)]
            keys += [str(i + 1) for i in picks]
    return keys
