"""The web front door of ``motherlode serve --web`` (textual-serve, the ``web`` extra).

Each browser tab gets its own app process in served mode, as an SSH session does,
forked from the same warm parent (``serve.warm``) on pipes (``serve.web.forked``), or
started the old way, as textual-serve does, where no parent is ready; the app asks the
player's name (a browser has no user name to go by). What this adds to
textual-serve's ``Server``:

- Works offline: our own page template, with the font textual-serve ships
  (``serve/templates/app_index.html``), and no URL outside this host.
- Works from another machine: the page's websocket and static URLs come from the
  request's ``Host`` header (checked), not from the bind address, so binding 0.0.0.0
  still gives other machines a URL they can dial.
- Sessions are capped. The seat follows the browser: a signed player cookie names the
  browser's own folder, where its app keeps its name and seat tokens
  (``serve.web.browsers``); a browser's new tab replaces its old app and goes back to
  its seat.
- Holds against a hostile LAN (issue 20): every connection is counted in the process's
  ledger (``net.budgets``) from accept to close, per address; a request must finish its
  headers within ``header_timeout`` seconds; ``Host`` and ``Origin`` must name an address
  the server listens on (403 otherwise: no cross-site use, no DNS rebinding); with a
  password, a page asks for it and a cookie holding a random session token follows;
  every resize is clamped; the apps inherit no secret from the server's environment.

Its rooms: ``door.py`` (:class:`WebDoor`, the door: ``serve.door.Door``; the page, one
app per tab), ``browsers.py`` (the player cookie, each browser's folder), ``guard.py``
(``Host``, ``Origin``, the password), ``counted.py`` (every connection in the ledger),
``forked.py`` (a tab's app, forked or not), ``plain.py`` (the plain page's seat) and
``link.py`` (the person's link, timed, for lag-fair races).
"""

from serve.web.door import WebDoor, clamp
from serve.web.guard import allowed_hosts, host_name
from serve.web.link import TimedWebSocket

__all__ = ["TimedWebSocket", "WebDoor", "allowed_hosts", "clamp", "host_name"]
