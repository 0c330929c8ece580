"""The environment of an SSH player's app: the server's own, minus what describes the
server's terminal, plus the few variables a client may set (whitelisted, with
locale-like values), plus the player's own directories. A client's env requests are
capped in number and size (asyncssh keeps every one for the channel's life)."""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import asyncssh

from serve.ssh.config import DoorConfig

# what a client's environment may set in its app (values are checked too)
CLIENT_ENV = re.compile(r"^(LANG|LC_[A-Z_]+|COLORTERM|NO_COLOR)$")
SAFE_VALUE = re.compile(r"^[A-Za-z0-9_.@+=:,-]{0,64}$")
TERM_VALUE = re.compile(r"^[A-Za-z0-9_.+-]{1,64}$")
# the server's own variables that describe *its* terminal, not the player's
SERVER_TERMINAL_ENV = ("TERM", "COLORTERM", "NO_COLOR", "COLUMNS", "LINES", "LANG",
                       "TERM_PROGRAM", "TERM_PROGRAM_VERSION", "TMUX", "STY")


def app_environment(process: asyncssh.SSHServerProcess, home: Path) -> dict[str, str]:
    """The environment of the app ``process`` starts, its directories under ``home``."""
    env = {k: v for k, v in os.environ.items()
           if k not in SERVER_TERMINAL_ENV and not k.startswith(("LC_", "MOTHERLODE_"))}
    term = process.get_terminal_type() or "xterm"
    env["TERM"] = term if TERM_VALUE.match(term) else "xterm-256color"
    for raw_key, raw_value in process.env.items():
        key = raw_key.decode("ascii", "replace") if isinstance(raw_key, bytes) else raw_key
        value = (raw_value.decode("utf-8", "replace") if isinstance(raw_value, bytes)
                 else str(raw_value))
        if CLIENT_ENV.match(key) and SAFE_VALUE.match(value):
            env[key] = value
    for kind in ("config", "state", "data", "log"):
        env[f"MOTHERLODE_{kind.upper()}_DIR"] = str(home / kind)
    return env


def capped_env(channel: Any, config: DoorConfig) -> Callable[[Any], bool]:
    """An env request handler keeping at most ``max_env`` small variables (asyncssh
    keeps every one, of any size, for the channel's life)."""
    original = channel._process_env_request

    def process(packet: Any) -> bool:
        env = channel._env
        size = len(packet.get_remaining_payload()) if hasattr(
            packet, "get_remaining_payload") else 0
        if len(env) >= config.max_env or size > config.max_env_bytes + 8:
            return False
        return original(packet)

    return process
