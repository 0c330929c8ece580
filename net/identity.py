"""A player's identity on a host: an Ed25519 key of the app's own (protocol 4).

The app makes its key on first use and keeps it in the user's data directory
(``identity.key``, mode 0600, in a 0700 folder; ``$MOTHERLODE_KEY`` names another
file). The doors give each served app the data folder of its player: the SSH door one
per pinned SSH login, the web door one per browser (its signed cookie, bound at first
visit); so the key a served app makes lives with that login or browser, and the SSH
key (or the cookie) is what stands behind the app key the host pins. In the hello it names its
public key; the host answers with a ``challenge`` (32 random bytes) and the client
signs :func:`signed` of it: a domain tag, the nonce and the hello's name, so a
signature proves this key for this name on this connection and for nothing else
(docs/PROTOCOL.md, "Identity"). The host pins the first key proved with a name
(:class:`Pins`); the name with another key, or with none, plays as a guest.

Headless (no Textual): the app, the doors and the host share it.
"""

from __future__ import annotations

import base64
import binascii
import os
from pathlib import Path

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import (
    Ed25519PrivateKey,
    Ed25519PublicKey,
)
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from net.paths import data_dir
from net.text import name_keys

DOMAIN = b"motherlode-hello-4\x00"
NONCE_BYTES = 32
KEY_ENV = "MOTHERLODE_KEY"
#: set ("1") by a door for an app whose folder is a scratch one (a keyless SSH login, a
#: browser without the door's cookie): a key there would be thrown away with it, and
#: would pin the name to nobody, so the app proves none and plays as a guest
GUEST_ENV = "MOTHERLODE_GUEST"
FILE = "identity.key"


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def unb64(text: str, size: int | None = None) -> bytes | None:
    """Decoded standard base64 (padded), or None if it is not (or not ``size`` bytes)."""
    try:
        data = base64.b64decode(text.encode("ascii"), validate=True)
    except (binascii.Error, UnicodeEncodeError, ValueError):
        return None
    return data if size is None or len(data) == size else None


def signed(nonce: bytes, name: str) -> bytes:
    """What a client signs to prove its key: the domain tag, the nonce, the name."""
    return DOMAIN + nonce + name.encode("utf-8")


class Identity:
    """A private key and what the hello needs of it."""

    def __init__(self, key: Ed25519PrivateKey) -> None:
        self._key = key
        raw = key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
        self.public = b64(raw)  # the hello's ``key``

    @classmethod
    def generate(cls) -> Identity:
        return cls(Ed25519PrivateKey.generate())

    def prove(self, nonce: str, name: str) -> str:
        """The ``prove`` message's signature for a challenge's nonce (base64)."""
        raw = unb64(nonce, NONCE_BYTES)
        if raw is None:
            raise ValueError("the host's nonce is not 32 bytes of base64")
        return b64(self._key.sign(signed(raw, name)))

    def save(self, path: Path) -> None:
        """Write the private key (raw 32 bytes, base64) to a new 0600 file."""
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        from cryptography.hazmat.primitives.serialization import NoEncryption, PrivateFormat

        raw = self._key.private_bytes(Encoding.Raw, PrivateFormat.Raw, NoEncryption())
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
        with os.fdopen(fd, "w") as out:
            out.write(b64(raw) + "\n")

    @classmethod
    def load_or_create(cls, path: Path | None = None) -> Identity:
        """This user's key (see the module docstring), made on first use. Raises
        OSError (with words) for a file that is not a key or is open to others."""
        path = Path(path) if path is not None else default_path()
        try:
            fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
        except FileNotFoundError:
            key = cls.generate()
            try:
                key.save(path)
                return key
            except FileExistsError:  # another app made it first: read theirs
                fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
        with os.fdopen(fd) as source:
            if os.fstat(source.fileno()).st_mode & 0o077:
                raise PermissionError(f"{path} is readable by others: `chmod 600 {path}`")
            raw = unb64(source.read().strip(), 32)
        if raw is None:
            raise OSError(f"{path} is not a Motherlode key; move it away to make a new one")
        return cls(Ed25519PrivateKey.from_private_bytes(raw))


def default_path() -> Path:
    override = os.environ.get(KEY_ENV)
    if override:
        return Path(override)
    return data_dir() / FILE


def verify(key: str, nonce: bytes, name: str, signature: str) -> bool:
    """Whether ``signature`` (base64) proves ``key`` (base64, raw 32 bytes) for the
    nonce and name."""
    public, sig = unb64(key, 32), unb64(signature, 64)
    if public is None or sig is None:
        return False
    try:
        Ed25519PublicKey.from_public_bytes(public).verify(sig, signed(nonce, name))
    except (InvalidSignature, ValueError):
        return False
    return True


class Pins:
    """The first key proved with each name on this host (casefolded), as the SSH door
    pins its names (``serve.pins``), and held the same way against look-alikes: a name
    that reads as a pinned one (``net.text.name_keys``, the UTS #39 skeleton: ``Асе``
    in Cyrillic, ``ＡＣＥ`` fullwidth, for a pinned ``Ace``) is that name's key's alone;
    another key with it plays as a guest. ``store`` (a ``net.saves.Store``) keeps them
    in the saves database; without one they last as long as the host."""

    def __init__(self, store=None) -> None:
        self.store = store
        self._keys: dict[str, str] | None = None
        #: each look-alike key of a pinned name (as typed and as shown in the league)
        #: -> the keys pinned to the names that read so
        self._looks: dict[str, set[str]] = {}

    def _all(self) -> dict[str, str]:
        if self._keys is None:
            self._keys = {}
            if self.store is not None:
                try:
                    rows, shown = self.store.league(lambda c: (
                        c.execute("SELECT who, key FROM identities").fetchall(),
                        # the names as people typed them (a capital's look-alikes:
                        # "lris" reads as "Iris", not as "iris")
                        c.execute("SELECT DISTINCT s.who, s.name FROM league_seats s "
                                  "JOIN identities i ON i.who = s.who").fetchall()))
                except Exception:  # a damaged database: the store says so elsewhere
                    rows, shown = [], []
                self._keys = dict(rows)
                for who, name in [*((who, who) for who, _ in rows), *shown]:
                    self._index(name, self._keys[who])
        return self._keys

    def _index(self, name: str, key: str) -> None:
        for look in name_keys(name):
            self._looks.setdefault(look, set()).add(key)

    def admit(self, name: str, key: str, wall: float) -> bool:
        """Whether ``key`` is ``name``'s: pinned to it now if neither the name nor a
        name that reads the same is pinned to another key."""
        who = name.casefold()
        keys = self._all()
        pinned = keys.get(who)
        if pinned is None:
            theirs = set().union(*(self._looks.get(look, ()) for look in name_keys(name)))
            if theirs - {key}:
                return False  # a look-alike of a name pinned to another key
            keys[who] = key
            if self.store is not None:
                self.store.pin(who, key, wall)
        elif pinned != key:
            return False
        self._index(name, key)
        return True
