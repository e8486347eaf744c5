"""A real IMAP server for the tests: pymap on 127.0.0.1 with a certificate made
by openssl, plain IMAP with STARTTLS, and TLS from the first byte through a TLS
terminator in front of the same server; with ``xoauth2``, one that takes OAuth2
access tokens only (XOAUTH2, ``pymap_xoauth2.py`` beside this kit), those listed in
its ``tokens`` file. The root ``conftest.py`` starts a password server for a test
module (the ``imap`` fixture)."""

from __future__ import annotations

import asyncio
import imaplib
import socket
import ssl
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from email.message import EmailMessage
from pathlib import Path

from portkit import free_port

USER, PASSWORD = "judge", "s3cret-imap"
OWN_TOKEN = "Tests0wnDeliveryToken"  # the tests' own access token, to put mail in an XOAUTH2 server


def _wait_for(port: int, proc: subprocess.Popen[bytes] | None = None) -> None:
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            raise RuntimeError(f"the IMAP server exited: {proc.stderr.read().decode() if proc.stderr else ''}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"nothing listens on 127.0.0.1:{port}")


def certificate(directory: Path, name: str) -> tuple[Path, Path]:
    """A certificate for 127.0.0.1 and localhost, and its key, made by openssl."""
    cert, key = directory / f"{name}.pem", directory / f"{name}.key"
    subprocess.run(
        [
            *("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=localhost"),
            *("-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost", "-keyout", str(key), "-out", str(cert)),
        ],
        check=True,
        capture_output=True,
    )
    return cert, key


@dataclass
class Server:
    port: int  # plain IMAP with STARTTLS
    tls_port: int  # TLS from the first byte, in front of the same server
    ca: Path
    other_ca: Path  # a certificate the server does not use
    tokens: Path | None = None  # XOAUTH2 only: the access tokens it takes, one a line


def _tls_terminator(listen: int, target: int, cert: Path, key: Path) -> threading.Thread:
    """Accept TLS on ``listen`` and relay the plain bytes to ``target``."""
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(str(cert), str(key))
    ready = threading.Event()

    async def pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while data := await reader.read(65536):
                writer.write(data)
                await writer.drain()
        except (ConnectionError, OSError):
            pass
        finally:
            writer.close()

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        up_reader, up_writer = await asyncio.open_connection("127.0.0.1", target)
        await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer))

    async def main() -> None:
        server = await asyncio.start_server(handle, "127.0.0.1", listen, ssl=context)
        ready.set()
        async with server:
            await server.serve_forever()

    thread = threading.Thread(target=lambda: asyncio.run(main()), daemon=True)
    thread.start()
    ready.wait(10)
    return thread


@contextmanager
def imap_server(directory: Path, *, xoauth2: bool = False) -> Iterator[Server]:
    """pymap on free ports of 127.0.0.1, stopped when the block ends. ``xoauth2``:
    a server that takes the access tokens of its ``tokens`` file only (the tests'
    own, ``OWN_TOKEN``, at first), never a password."""
    cert, key = certificate(directory, "server")
    other, _ = certificate(directory, "other")
    port, tls_port = free_port(), free_port()
    options = ["--host", "127.0.0.1", "--port", str(port), "--cert", str(cert), "--key", str(key)]
    tokens = None
    if xoauth2:
        tokens = directory / "tokens"
        tokens.write_text(OWN_TOKEN + "\n", encoding="utf-8")
        launcher = Path(__file__).with_name("pymap_xoauth2.py")
        command = [sys.executable, str(launcher), *options, "xoauth2", "--demo-user", USER, "--tokens", str(tokens)]
    else:
        command = [str(Path(sys.executable).with_name("pymap")), *options, "dict"]
        command += ["--demo-user", USER, "--demo-password", PASSWORD]
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        _wait_for(port, proc)
        _tls_terminator(tls_port, port, cert, key)
        _wait_for(tls_port)
        yield Server(port, tls_port, cert, other, tokens)
    finally:
        proc.terminate()
        proc.wait(10)


def client(server: Server) -> imaplib.IMAP4:
    """The tests' own connection, to put mail in and count it: with the password,
    or the tests' own access token on a server that takes no password."""
    conn = imaplib.IMAP4("127.0.0.1", server.port, timeout=10)
    conn.starttls(ssl_context=ssl.create_default_context(cafile=str(server.ca)))
    if server.tokens is None:
        conn.login(USER, PASSWORD)
    else:
        sasl = f"user={USER}\x01auth=Bearer {OWN_TOKEN}\x01\x01".encode()
        conn.authenticate("XOAUTH2", lambda _: sasl)
    return conn


def take_tokens(server: Server, *tokens: str) -> None:
    """The access tokens an XOAUTH2 server takes from now on (besides the tests' own);
    any other has expired, or never was."""
    assert server.tokens is not None
    server.tokens.write_text("\n".join([OWN_TOKEN, *tokens]) + "\n", encoding="utf-8")


def deliver(server: Server, folder: str, *bodies: str) -> None:
    """Messages arrive in ``folder``, as a mail server would put them there."""
    conn = client(server)
    try:
        conn.create(f'"{folder}"')
        for i, body in enumerate(bodies):
            msg = EmailMessage()
            msg["From"] = "valley@players.example.org"
            msg["To"] = "judge@moonshine.example.org"
            msg["Subject"] = f"orders {i}"
            msg["Message-ID"] = f"<{folder}-{i}@players.example.org>"
            msg.set_content(body)
            typ, _ = conn.append(f'"{folder}"', None, None, msg.as_bytes())
            assert typ == "OK"
    finally:
        conn.logout()


def post(imap: Server, folder: str, *raws: bytes) -> None:
    """Raw messages arrive in ``folder`` (created when missing), as a mail server would put them there."""
    conn = client(imap)
    try:
        conn.create(f'"{folder}"')
        for raw in raws:
            typ, _ = conn.append(f'"{folder}"', None, None, raw)
            assert typ == "OK"
    finally:
        conn.logout()


def count(imap: Server, folder: str) -> int:
    """How many messages ``folder`` holds (-1: no such folder)."""
    conn = client(imap)
    try:
        typ, data = conn.select(f'"{folder}"')
        return int(data[0] or b"0") if typ == "OK" else -1
    finally:
        conn.logout()
