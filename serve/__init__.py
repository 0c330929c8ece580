"""Front doors of `motherlode serve`: play over plain SSH or a browser, nothing installed."""

import warnings

# asyncssh still names DSA keys, which cryptography deprecates: its import printed five
# warnings at the top of every `motherlode serve`, a traceback-like wall before the
# server's own words. The door's own host key is Ed25519 (serve.ssh.identity).
warnings.filterwarnings("ignore", message="DSA is deprecated", module=r"asyncssh(\.|$)")
