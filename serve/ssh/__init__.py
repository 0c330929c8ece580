"""The SSH front door of ``motherlode serve`` (asyncssh).

One session, one app: each SSH session gets its own process on a pseudo-terminal,
running the unchanged app in served mode (``motherlode served``), so one player's crash
or slow terminal takes no one else down, and Textual's own driver handles keys, a lone
Esc and resizes. Its rooms:

- ``door.py``: :class:`SSHDoor`, the door (``serve.door.Door``): listening, admitting
  or refusing a session, stopping with a goodbye;
- ``screen.py``: every socket screened before asyncssh sees it;
- ``gate.py``: one connection: its stage in the ledger, its login, its one session;
- ``apps.py``: the live apps: started, attached, kept for a dropped player, stopped;
- ``child.py``: one app on a pty, and the session attached to it;
- ``identity.py``: names, directories, the host key; ``environment.py``: what a
  client may set in its app; ``config.py``: :class:`DoorConfig`, the door's limits.

Identity: any public key is accepted and the user name is pinned to its fingerprint on
first use (``serve.pins``). A client without a key (keyboard-interactive with no
question) plays under a name nobody has pinned, gets a fresh app and a fresh directory,
and never re-attaches. ``authorized_keys`` admits only those keys; ``password`` asks
every client without a pinned key for a shared password.
"""

from serve.pins import Pins, slug
from serve.ssh.apps import measure_link
from serve.ssh.config import DoorConfig
from serve.ssh.door import SSHDoor
from serve.ssh.identity import DoorError, inside, load_host_key, player_name

__all__ = ["DoorConfig", "DoorError", "Pins", "SSHDoor", "inside", "load_host_key",
           "measure_link", "player_name", "slug"]
