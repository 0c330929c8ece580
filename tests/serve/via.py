"""The relay of ``serve --via`` for its tests: a real OpenSSH server in a network
namespace (``Relay``, the module-scoped ``relay`` fixture), and serve started there."""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

from tests.netns import RELAY_ADDRESS, RelayNet
from tests.serve.helpers import ROOT, PtyPlayer, ServeProcess, children_of
from tests.waiting import until_blocking

SSHD = "/usr/sbin/sshd"
# CI (.ci/run) installs openssh-server and sets this: there a missing sshd fails the
# run instead of skipping the tests that need a real relay
REQUIRED = bool(os.environ.get("MOTHERLODE_REQUIRE_SSHD"))
USER = "nobody"  # the relay's test user: an account with no shell and no home
SSH = 2222  # the doors' ports, here and on the relay
WEB = 8080
LAN = 7777
SSHD_CONFIG = """\
Port {port}
ListenAddress {address}
HostKey {host_key}
PidFile none
UsePAM no
StrictModes no
AuthorizedKeysFile {authorized}
PasswordAuthentication no
KbdInteractiveAuthentication no
PermitRootLogin no
AllowUsers {user}
AllowTcpForwarding remote
GatewayPorts {gateway}
X11Forwarding no
AllowAgentForwarding no
PermitTTY no
LogLevel VERBOSE
"""













def why_not() -> str | None:
    """Why a relay cannot be set up here, or None if it can."""
    if not sys.platform.startswith("linux"):
        return "network namespaces are Linux's"
    if os.geteuid() != 0:
        return "making network namespaces and running sshd need root"
    if shutil.which("ip") is None:
        return "no `ip` command (iproute2)"
    if not os.path.exists(SSHD):
        return f"no {SSHD} (Debian's openssh-server; .ci/run installs it)"
    if shutil.which("ssh") is None:
        return "no ssh client (openssh-client)"
    return None


WHY_NOT = why_not()






class Relay:
    """The relay's sshds in their namespace, and the organiser's key and homes."""

    def __init__(self, net: RelayNet, root: Path) -> None:
        self.net = net
        self.root = root
        self.procs: dict[int, subprocess.Popen] = {}
        self.logs: dict[int, Path] = {}
        root.chmod(0o755)  # sshd reads authorized_keys as the user
        self.org_key = root / "organiser_ed25519"
        _keygen(self.org_key)
        (root / "authorized_keys").write_text(self.org_key.with_suffix(".pub").read_text())
        (root / "authorized_keys").chmod(0o644)
        self.host_keys = {22: root / "host_22", 2200: root / "host_2200"}
        for key in self.host_keys.values():
            _keygen(key)

    def start(self, port: int, gateway: str) -> None:
        config = self.root / f"sshd_config_{port}"
        config.write_text(SSHD_CONFIG.format(
            port=port, address=RELAY_ADDRESS, host_key=self.host_keys[port], user=USER,
            authorized=self.root / "authorized_keys", gateway=gateway))
        Path("/run/sshd").mkdir(mode=0o755, exist_ok=True)  # sshd's privilege separation
        self.logs[port] = self.root / f"sshd_{port}.log"
        with self.logs[port].open("ab") as log:
            self.procs[port] = subprocess.Popen(
                [*self.net.run_in(self.net.relay), SSHD, "-D", "-e", "-f", str(config)],
                stdout=log, stderr=log)
        until_blocking(lambda: self.listening(port),
                       lambda: f"sshd listens:\n{self.logs[port].read_text()}", 10, step=0.02)

    def listening(self, port: int, address: str = RELAY_ADDRESS) -> bool:
        found = subprocess.run([*self.net.run_in(self.net.relay), "ss", "-Htln",
                                f"sport = :{port}"], capture_output=True, text=True)
        return address in found.stdout or (address == "*" and found.stdout.strip() != "")

    def kill(self, port: int) -> None:
        """kill -9 the relay's sshd on ``port``: its listener and each connection's own
        sshd (they outlive the listener otherwise)."""
        tree, todo = [], [self.procs[port].pid]  # `ip netns exec` execs sshd: one pid
        while todo:
            pid = todo.pop()
            tree.append(pid)
            todo += children_of(pid)
        for pid in tree:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        self.procs[port].wait(10)

    def kill_all(self) -> None:
        """kill -9 every process of the relay's namespace."""
        for pid in self.net.pids(self.net.relay):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        for proc in self.procs.values():
            proc.wait(10)

    def public_key(self, port: int) -> str:
        return " ".join(self.host_keys[port].with_suffix(".pub").read_text().split()[:2])

    def home(self, directory: Path, known: dict[int, str] | None = None) -> Path:
        """An organiser's HOME: ``Host relay`` in ~/.ssh/config (HostName, User,
        IdentityFile), and known_hosts knowing ``known`` (port: key line)."""
        ssh = directory / ".ssh"
        ssh.mkdir(parents=True, mode=0o700)
        (ssh / "config").write_text(f"Host relay\n  HostName {RELAY_ADDRESS}\n  User {USER}\n"
                                    f"  IdentityFile {self.org_key}\n  IdentitiesOnly yes\n")
        known = {22: self.public_key(22)} if known is None else known
        (ssh / "known_hosts").write_text("".join(
            f"{RELAY_ADDRESS if port == 22 else f'[{RELAY_ADDRESS}]:{port}'} {key}\n"
            for port, key in known.items()))
        return directory


def _keygen(path: Path) -> None:
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "", "-f", str(path)],
                   check=True, capture_output=True)


async def start_serve(relay: Relay, home: Path, data: Path, *args: str,
                      via: str = "relay") -> ServeProcess:
    """``motherlode serve --via`` in the organiser's namespace, as a person starts it."""
    env = dict(os.environ, HOME=str(home), MOTHERLODE_DATA_DIR=str(data))
    proc = await asyncio.create_subprocess_exec(
        *relay.net.run_in(relay.net.organiser), sys.executable, "-m", "tui.cli", "serve",
        "--via", via, "--ssh", str(SSH), "--port", str(LAN), "--no-announce", *args,
        cwd=ROOT, env=env, stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)
    serve = ServeProcess(proc, data)
    try:
        await asyncio.wait_for(serve._until_ready(), 30)
    except BaseException:
        with contextlib.suppress(ProcessLookupError):
            proc.kill()
        await proc.wait()
        raise
    serve._reader = asyncio.create_task(serve._read_rest())
    return serve


async def serve_on_a_terminal(relay: Relay, home: Path, data: Path, via: str,
                              *args: str) -> PtyPlayer:
    """``motherlode serve --via`` on a terminal of its own (it may ask a question)."""
    env = dict(os.environ, HOME=str(home), MOTHERLODE_DATA_DIR=str(data),
               TERM="xterm-256color")
    return await PtyPlayer.spawn(
        [*relay.net.run_in(relay.net.organiser), sys.executable, "-m", "tui.cli", "serve",
         "--via", via, "--ssh", str(SSH), "--port", str(LAN), "--no-announce", *args],
        size=(140, 40), env=env)
