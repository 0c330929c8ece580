"""Who an SSH session is: the player's name from the user name, the directory a name
may own (``inside`` the players' folder), and the server's own host key. User names
are pinned to keys in ``serve.pins``."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

import asyncssh

from net.text import clean_text

HOST_KEY_FILE = "ssh_host_ed25519_key"
NAME_MAX = 20


class DoorError(Exception):
    """The door cannot open (a damaged host key, say): words for the person."""


def player_name(username: str) -> str:
    """The player's name from an SSH user name: literal text, 1-20 characters."""
    return clean_text(username)[:NAME_MAX] or "Player"


def inside(root: Path, child: Path) -> Path:
    """``child`` if it lies inside ``root``; raises ValueError otherwise."""
    resolved = child.resolve()
    if not resolved.is_relative_to(root.resolve()):
        raise ValueError(f"{child} is outside {root}")
    return resolved


def load_host_key(directory: Path) -> asyncssh.SSHKey:
    """The server's ed25519 host key: generated once, kept 0600, never regenerated."""
    path = directory / HOST_KEY_FILE
    if path.exists():
        try:
            return asyncssh.read_private_key(str(path))
        except (OSError, ValueError, asyncssh.KeyImportError) as error:
            raise DoorError(f"cannot read the SSH host key {path}: {error}. Fix or move "
                            "it away (a new key makes every friend's ssh warn).") from None
    directory.mkdir(parents=True, exist_ok=True, mode=0o700)
    key = asyncssh.generate_private_key("ssh-ed25519", comment="motherlode serve")
    tmp = path.with_suffix(".tmp")
    with contextlib.suppress(FileNotFoundError):
        tmp.unlink()
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as out:
        out.write(key.export_private_key())
    tmp.replace(path)
    return key
