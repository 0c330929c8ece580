"""``motherlode serve --via [USER@]HOST[:PORT]``: friends at home reach the doors
through any SSH host the organiser can log into (a small VPS, a university shell
account, a home router running OpenSSH), and still need nothing but ssh or a browser.

serve logs into the relay as the organiser's own ``ssh`` would (``~/.ssh/config``,
``known_hosts``, IdentityFile and the agent), and asks it to listen on the doors'
ports: the SSH door, the web door when it is on, and the LAN port for app players.
Each connection the relay forwards names who made it, and the doors count that
address as if the friend had connected here. Its rooms:

- ``relay.py``: :class:`Relay`, the address and the host key, checked as ssh checks
  it (an unknown key is asked about once, a changed one refused);
- ``tunnel.py``: :class:`Tunnel`, the remote listeners, and a dropped tunnel brought
  back with backoff, the doors and seats untouched;
- ``forwarded.py``: one forwarded connection handed to its door, with its originator's
  address (:class:`Originators`);
- ``check.py``: each port tried from outside, and the verdict in words (what to
  change on the relay when friends cannot reach it).
"""

from serve.via.check import check, reachable, verdict
from serve.via.forwarded import stream_protocol
from serve.via.relay import HostKeyRefused, Relay, RelayError, parse_relay
from serve.via.tunnel import Forward, Tunnel

__all__ = ["Forward", "HostKeyRefused", "Relay", "RelayError", "Tunnel", "check",
           "parse_relay", "reachable", "stream_protocol", "verdict"]
