"""A client's questions to its host, each answered by one message (protocol 4's
``standings``): :class:`Asks`, one a :class:`net.client.Client` (``client.asks``).

A question is sent like any message; its answer, or the ``error`` that refuses it (its
``ref`` the question's type), comes back on the same connection (perhaps after the
answers to messages sent later: the host reads its league off its loop). The client's
reader hands every message to :meth:`Asks.answered` first, and the one a question waits
for goes to it, never to the app's stream. A host that does not know the question's type
(a protocol 4 host from before it) answers ``unknown_type``, with no ``ref``: while a
question waits, that answers it. The questions of one client go one at a time (a host
answers one of a connection's at a time), each bounded by its time-out.
"""

from __future__ import annotations

import asyncio
from collections import deque
from typing import Any

from net import protocol as p
from net.protocol import Code


class Asks:
    """The questions a client waits on (see the module docstring)."""

    def __init__(self) -> None:
        self._waiting: deque[tuple[type, str, asyncio.Future]] = deque()
        self._turn: asyncio.Lock | None = None

    async def ask(self, client: Any, question: Any, answer: type, timeout: float) -> Any:
        """Send ``question`` and return the host's answer: a message of type ``answer``,
        or the ``p.Error`` refusing it. Raises TimeoutError after ``timeout`` seconds
        without one (and ``net.client.ConnectionLost`` once the connection is closed)."""
        if self._turn is None:
            self._turn = asyncio.Lock()
        async with self._turn:
            future = asyncio.get_running_loop().create_future()
            entry = (answer, p.message_type(question), future)
            self._waiting.append(entry)
            try:
                await client.send(question)
                return await asyncio.wait_for(future, timeout)
            finally:
                if entry in self._waiting:  # unanswered: a late answer goes to the app
                    self._waiting.remove(entry)

    def answered(self, message: Any) -> bool:
        """Whether ``message`` answers the question waiting (and is taken for it)."""
        if not self._waiting:
            return False
        answer, ref, future = self._waiting[0]
        if not isinstance(message, answer):
            if not isinstance(message, p.Error):
                return False
            if message.ref != ref and message.code != Code.UNKNOWN_TYPE:
                return False
        self._waiting.popleft()
        if not future.done():
            future.set_result(message)
        return True
