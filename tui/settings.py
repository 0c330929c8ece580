"""The player's settings, kept as JSON under platformdirs' config directory.

Headless: no Textual here, so the command line can read settings cheaply.
"""

from __future__ import annotations

import getpass
import json
import os
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path

import platformdirs

from net.catalogue import DIFFICULTIES
from net.text import clean_text

APP_NAME = "motherlode"
NAME_MAX = 20
#: what happens when a game needs you (``tui.alerts``): nothing; the terminal's bell (a
#: window marked urgent, a tab's title at the web door); the bell and, while the
#: terminal is not focused, a desktop notification (OSC 777 and OSC 9)
ALERTS = ("off", "bell", "desktop")


def config_dir() -> Path:
    """Where settings live; MOTHERLODE_CONFIG_DIR overrides it (tests, portable installs)."""
    override = os.environ.get("MOTHERLODE_CONFIG_DIR")
    return Path(override) if override else Path(platformdirs.user_config_dir(APP_NAME))


def log_dir() -> Path:
    """Where crash logs go; MOTHERLODE_LOG_DIR overrides it."""
    override = os.environ.get("MOTHERLODE_LOG_DIR")
    return Path(override) if override else Path(platformdirs.user_log_dir(APP_NAME))


def clean_name(raw: object) -> str:
    """A player name as the host will accept it: literal text, trimmed, 1-20 characters."""
    return clean_text(str(raw))[:NAME_MAX]


def _default_name() -> str:
    try:
        return clean_name(getpass.getuser()) or "Player"
    except Exception:  # getuser raises on odd systems (no passwd entry): not worth a crash
        return "Player"


@dataclass
class Settings:
    """What the Settings screen edits."""

    name: str = ""
    difficulty: str = "normal"
    ascii: bool = False
    advisor: bool = True
    theme: str = "textual-dark"  # any Textual theme; "ansi-dark" uses the terminal's colours
    # key remaps by binding id, e.g. {"foolsgold.grab": "x", "nuggets.roll": "enter,r"}
    keys: dict[str, str] = field(default_factory=dict)
    # the games whose guided first round was offered (once each, issue 47)
    guided: list[str] = field(default_factory=list)
    # when a game needs you at a table of people (your turn, a race, a steal): the bell
    # by default, as a terminal game's players expect (a window marked urgent, no pop-up
    # asked for); "desktop" adds a notification while the terminal is not focused
    alerts: str = "bell"

    def __post_init__(self) -> None:
        # whether the player chose a name (the first run asks; the login is a default)
        self.named = bool(clean_name(self.name))
        self.name = clean_name(self.name) or _default_name()
        if self.difficulty not in DIFFICULTIES:
            self.difficulty = "normal"
        self.ascii = bool(self.ascii)
        self.advisor = bool(self.advisor)
        if not isinstance(self.theme, str) or not self.theme:
            self.theme = "textual-dark"
        if not isinstance(self.keys, dict):
            self.keys = {}
        self.keys = {str(k): str(v) for k, v in self.keys.items()
                     if isinstance(k, str) and isinstance(v, str) and v.strip()}
        if self.alerts not in ALERTS:
            self.alerts = "bell"
        if not isinstance(self.guided, list):
            self.guided = []
        self.guided = [g for g in self.guided if isinstance(g, str)]

    @classmethod
    def load(cls, path: Path | None = None) -> Settings:
        """Read settings; a missing or damaged file gives the defaults, never an error."""
        path = path or config_dir() / "settings.json"
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return cls()
        if not isinstance(data, dict):
            return cls()
        known = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in known})

    def save(self, path: Path | None = None) -> Path:
        """Write settings atomically; returns the path written."""
        path = path or config_dir() / "settings.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(asdict(self), indent=2), encoding="utf-8")
        tmp.replace(path)
        return path
