"""The league at a running host: identities proved in the hello (protocol 4), the
``rated`` message after a rated game and the answers to ``standings``
(``net.league.board``) (:class:`Desk`, one a host: ``host.league``).

The hello exchange, on the host's side (docs/PROTOCOL.md, "Identity"): a hello that
names a key gets a ``challenge``; the connection's next message must be its ``prove``.
A signature that does not check is refused (an error, and the connection closes). A
good one admits the hello with that key: the member has an identity if the key is the
one pinned to its name, or the name had none (then it is pinned now). A hello without
a key has none, except on this machine's own in-process connection (the app's solo and
hot-seat games: the machine's league). A member without an identity is a guest.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from typing import Any

from net import protocol as p
from net.identity import Pins, b64, unb64, verify
from net.league.board import Board
from net.pipe import PipeWriter
from net.protocol import Code


class Desk:
    """A host's league desk: its pins, and the ``rated`` fan-out."""

    def __init__(self, host: Any) -> None:
        self.host = host
        self.pins = Pins(host.store)
        #: the answers to ``standings`` (``net.league.board``)
        self.board = Board(host.store.path if host.store is not None else None)
        self._listeners: list[Callable[[Any, str, list[Any]], None]] = []
        if host.store is not None:
            host.store.on_rated(self._rated)

    def on_rated(self, listener: Callable[[Any, str, list[Any]], None]) -> None:
        """Call ``listener(table, game, changes)`` after each rated game (the web
        door's /league page)."""
        self._listeners.append(listener)

    def _rated(self, table: Any, game: str, changes: list[Any]) -> None:
        message = p.Rated(game=game, changes=[
            p.RatedChange(seat=c.seat, name=c.name, before=c.before, after=c.after,
                          games=c.games, provisional=c.provisional) for c in changes])
        for member in list(table.members):
            if member.connected:
                member.deliver(message)
        for listener in self._listeners:
            listener(table, game, changes)

    # -- the hello's proof -------------------------------------------------------------

    def challenge(self, peer: Any, hello: p.Hello) -> bool:
        """For a hello that names a key: send the challenge (True: wait for the
        prove). A key that is not one is refused."""
        if hello.key is None or hello.protocol < 4:
            return False
        if unb64(hello.key, 32) is None:
            peer.send(p.Error(code=Code.BAD_FIELD, ref="hello", message=(
                "The hello's key is not an Ed25519 public key: 32 bytes in base64.")))
            peer.challenge = False  # refused; the client may say hello again
            return True
        nonce = secrets.token_bytes(32)
        peer.challenge = (hello, nonce)
        peer.send(p.Challenge(nonce=b64(nonce)))
        return True

    def proved(self, peer: Any, prove: p.Prove) -> p.Hello | None:
        """The hello a good ``prove`` admits (its key kept on the peer), or None after
        refusing a bad one (the connection closes)."""
        hello, nonce = peer.challenge
        peer.challenge = None
        assert hello.key is not None
        if not verify(hello.key, nonce, hello.name, prove.signature):
            peer.send(p.Error(code=Code.BAD_FIELD, ref="prove", message=(
                "That signature does not prove the hello's key: sign "
                "b'motherlode-hello-4\\0' + the nonce's bytes + your name (UTF-8).")))
            peer.close_after_flush()
            return None
        peer.key = hello.key
        return hello

    def identified(self, peer: Any) -> Callable[[str], bool]:
        """Whether the member a peer is admitted as, by its name, has an identity."""
        key = getattr(peer, "key", None)
        if isinstance(peer.writer, PipeWriter):  # this machine's own app, in-process
            return lambda name: True
        if key is None:
            return lambda name: False
        return lambda name: self.pins.admit(name, key, time.time())
