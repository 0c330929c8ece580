"""The web door's frames, both pages': a tab sends JSON arrays (``["stdin", text]``,
``["resize", {...}]``, ``["ping", x]``, ``["blur"]``, ``["focus"]``). A frame is read
by :func:`read_frame` as the LAN protocol reads a line (``net.protocol.framing``): a
frame nested deeper than :data:`MAX_DEPTH` is refused with ``too_deep`` before it is
parsed, anything else malformed is ``bad_json``, and neither costs the tab its app
(the door answers with :func:`refusal` and reads on)."""

from __future__ import annotations

import json
from typing import Any

from net.protocol.errors import Code
from net.protocol.framing import nesting_depth

#: the deepest a tab's frame may nest: the deepest the pages send is 2
#: (``["resize", {"width": 80}]``); the LAN protocol allows 32 for its own messages
MAX_DEPTH = 4


class FrameError(ValueError):
    """A frame the door does not read: ``code`` (``net.protocol.errors.Code``) and a
    sentence for the tab."""

    def __init__(self, code: Code, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def read_frame(data: str) -> tuple[str, Any]:
    """``(kind, data)`` of one text frame (``data`` None when the frame has none);
    raises :class:`FrameError`."""
    raw = data.encode("utf-8", "replace")
    if raw.count(b"[") + raw.count(b"{") > MAX_DEPTH and nesting_depth(raw) > MAX_DEPTH:
        raise FrameError(Code.TOO_DEEP, f"nesting deeper than {MAX_DEPTH} levels")
    try:
        envelope = json.loads(data)
    except (ValueError, RecursionError):
        raise FrameError(Code.BAD_JSON, "a frame that is not JSON") from None
    if not isinstance(envelope, list) or not envelope or not isinstance(envelope[0], str):
        raise FrameError(Code.BAD_JSON, "a frame that is not a list naming its kind")
    return envelope[0], envelope[1] if len(envelope) > 1 else None


def refusal(error: FrameError) -> str:
    """The door's answer to a frame it refused (``["error", {"code", "message"}]``);
    the pages show it, or ignore it, and the tab plays on."""
    return json.dumps(["error", {"code": str(error.code),
                                 "message": f"The server refused a message: {error.message}."}])
