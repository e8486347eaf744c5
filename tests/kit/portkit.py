"""A free TCP port on 127.0.0.1, for the tests' real servers (SMTP, IMAP) and for a
port where nothing listens. The one helper of its kind: the servers' kits use it."""

from __future__ import annotations

import socket


def free_port() -> int:
    """A port of 127.0.0.1 free when asked (another process may take it before it is used)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])
