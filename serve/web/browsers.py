"""Who a web player is: their browser (:class:`Browsers`), as an SSH player is their key.

Every browser gets a random player cookie on its first visit (``PLAYER_COOKIE``;
HttpOnly, SameSite=Strict, with or without ``--password``), signed with the door's own
secret, which is kept in the serve folder (``web_secret``, 0600) so a cookie outlives
``serve --resume``. A signed cookie names the browser's home, ``players/_web/<key>``:
its app's settings (the name it gave) and its seat tokens live there, not in a tab's
scratch, so a reload, a second tab or a visit after a restart finds the seat again.
The key is derived from the cookie with the secret: a forged or altered cookie names no
home, and the folder's name is not the cookie.

A browser with no cookie (a script, a first request that skipped the page) plays from a
scratch folder of its own, removed when its tab ends, as a keyless SSH login does.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import re
import secrets
import shutil
import tempfile
from pathlib import Path

from serve.pins import read_nofollow, write_nofollow

PLAYER_COOKIE = "motherlode_player"
SECRET_FILE = "web_secret"
COOKIE_AGE = 400 * 24 * 3600  # the longest a browser keeps a cookie (Chromium's cap)
_COOKIE = re.compile(r"^([A-Za-z0-9_-]{24})\.([0-9a-f]{32})$")


class Browsers:
    """The browsers of one web door: their cookies and their homes. ``root`` is the
    serve folder (None: a temporary one, forgotten at :meth:`close`)."""

    def __init__(self, root: Path | None) -> None:
        self._temporary = root is None
        self.root = Path(tempfile.mkdtemp(prefix="motherlode-web-")) if root is None else root
        self.players = self.root / "players"
        self.secret = self._load_secret()

    def _load_secret(self) -> bytes:
        path = self.root / SECRET_FILE
        with contextlib.suppress(OSError):
            secret = read_nofollow(path)
            if len(secret) >= 32:
                return secret
        secret = secrets.token_bytes(32)
        try:
            self.root.mkdir(parents=True, exist_ok=True, mode=0o700)
            write_nofollow(path, secret)
        except OSError:  # cookies hold for this run only
            pass
        return secret

    def _sign(self, ident: str) -> str:
        return hmac.new(self.secret, b"cookie " + ident.encode(), hashlib.sha256).hexdigest()[:32]

    def issue(self) -> str:
        """A new browser's cookie value."""
        ident = secrets.token_urlsafe(18)
        return f"{ident}.{self._sign(ident)}"

    def key_of(self, cookie: str | None) -> str | None:
        """The browser's key if ``cookie`` is one this door signed, else None."""
        match = _COOKIE.match(cookie or "")
        if match is None or not hmac.compare_digest(match[2], self._sign(match[1])):
            return None
        return hmac.new(self.secret, b"home " + match[1].encode(),
                        hashlib.sha256).hexdigest()[:24]

    def home(self, key: str | None) -> tuple[Path, bool]:
        """The folder a browser's app keeps its settings and seats in, and whether it is
        a scratch one (no key: removed when its tab ends)."""
        web = self.players / "_web"
        web.mkdir(parents=True, exist_ok=True, mode=0o700)
        if key is None:
            return Path(tempfile.mkdtemp(prefix="tab-", dir=web)), True
        home = web / key  # hex digits only: it stays inside
        home.mkdir(exist_ok=True, mode=0o700)
        return home, False

    def close(self) -> None:
        if self._temporary:
            shutil.rmtree(self.root, ignore_errors=True)
