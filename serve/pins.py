"""SSH user names pinned to the key that first used them (the SSH door's identity).

A name is pinned only once its session is admitted (``serve.ssh``), so a refused or
busy login pins nothing. A name is also held against look-alikes: ``аnn`` (Cyrillic
``а``) is refused while ``ann`` is pinned to another key (``net.text.name_keys``).
A pin not used for ``max_age`` seconds expires. The file (0600 JSON, opened without
following symlinks) is written off the event loop, at most once per ``save_every``.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import json
import logging
import os
import re
import time
from pathlib import Path
from typing import Any

from net.text import name_keys

log = logging.getLogger(__name__)

MAX_AGE = 180 * 24 * 3600.0  # a pin unused for half a year is let go
OK, TAKEN = "ok", "taken"


def slug(name: str) -> str:
    """A directory name for a player: ASCII letters, digits, ``-`` and ``_`` only, plus a
    hash of the whole name (two names never share a directory; ``../..`` stays inside)."""
    folded = name.casefold()
    readable = re.sub(r"[^a-z0-9_-]+", "-", folded).strip("-_")[:24] or "player"
    digest = hashlib.sha256(folded.encode("utf-8", "surrogatepass")).hexdigest()[:10]
    return f"{readable}-{digest}"


def read_nofollow(path: Path) -> bytes:
    """The bytes of ``path``, refusing a symlink (OSError)."""
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
    with os.fdopen(fd, "rb") as src:
        return src.read(1 << 26)


def write_nofollow(path: Path, data: bytes) -> None:
    """Write ``path`` atomically (0600), never through a symlink planted beside it."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with contextlib.suppress(FileNotFoundError):
        tmp.unlink()
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC,
                 0o600)
    with os.fdopen(fd, "wb") as out:
        out.write(data)
    os.replace(tmp, path)  # replaces a symlink at ``path`` itself, never its target


class Pins:
    """User name (as a slug) -> key fingerprint, with the name and when it was last used."""

    def __init__(self, path: Path, *, max_age: float = MAX_AGE, save_every: float = 1.0) -> None:
        self.path = path
        self.max_age = max_age
        self.save_every = save_every
        self.pins: dict[str, dict[str, Any]] = {}
        self._looks: dict[str, str] = {}  # each name key -> slug
        self._dirty = False
        self._saving: asyncio.Task | None = None
        try:
            data = json.loads(read_nofollow(path))
        except (OSError, ValueError):
            data = {}
        now = time.time()
        for key, value in (data.items() if isinstance(data, dict) else ()):
            if isinstance(value, str):  # the first format: a fingerprint alone
                value = {"fp": value, "name": "", "used": now}
            if not (isinstance(key, str) and isinstance(value, dict)
                    and isinstance(value.get("fp"), str)):
                continue
            used = value.get("used")
            if not isinstance(used, int | float) or now - used > max_age:
                self._dirty = True
                continue
            name = value.get("name") if isinstance(value.get("name"), str) else ""
            self._put(key, {"fp": value["fp"], "name": name, "used": used})

    def _put(self, key: str, entry: dict[str, Any]) -> None:
        self.pins[key] = entry
        if entry["name"]:
            for look in name_keys(entry["name"]):
                self._looks.setdefault(look, key)

    def get(self, name: str) -> str | None:
        entry = self.pins.get(slug(name))
        return entry["fp"] if entry is not None else None

    def check(self, name: str, fingerprint: str | None) -> str:
        """``OK`` if ``name`` may be used with ``fingerprint`` (None: keyless), else
        ``TAKEN`` (pinned to another key, or a look-alike of a pinned name)."""
        entry = self.pins.get(slug(name))
        if entry is not None:
            ok = fingerprint is not None and hmac.compare_digest(entry["fp"], fingerprint)
            return OK if ok else TAKEN
        other = next((self._looks[k] for k in name_keys(name) if k in self._looks), None)
        if other is not None and other in self.pins:
            theirs = self.pins[other]["fp"]
            if fingerprint is None or not hmac.compare_digest(theirs, fingerprint):
                return TAKEN
        return OK

    def admit(self, name: str, fingerprint: str) -> bool:
        """Pin ``name`` to ``fingerprint`` (or note its use); False if it is taken."""
        if self.check(name, fingerprint) != OK:
            return False
        key = slug(name)
        entry = self.pins.get(key)
        if entry is None:
            self._put(key, {"fp": fingerprint, "name": name, "used": time.time()})
        else:
            entry["used"] = time.time()
        self._dirty = True
        self._save_soon()
        return True

    def _save_soon(self) -> None:
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            self.save()
            return
        if self._saving is None or self._saving.done():
            self._saving = loop.create_task(self._save_later())

    async def _save_later(self) -> None:
        await asyncio.sleep(self.save_every)  # one write for a burst of logins
        if self._dirty:
            await asyncio.to_thread(self.save)

    def save(self) -> None:
        """Write the pins now (in a thread when called from ``admit``)."""
        self._dirty = False
        now = time.time()
        data = {k: v for k, v in list(self.pins.items()) if now - v["used"] <= self.max_age}
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            write_nofollow(self.path, json.dumps(data, indent=1).encode())
        except OSError as error:  # the pin holds for this run anyway
            log.warning("cannot save the pinned names: %s", error)

    async def flush(self) -> None:
        """Write what is pending (the door's close)."""
        if self._saving is not None and not self._saving.done():
            self._saving.cancel()
        if self._dirty:
            await asyncio.to_thread(self.save)
