"""XOAUTH2's access token, from a command the operator names (``token_command:``),
the way isync's ``PassCmd`` and msmtp's ``passwordeval`` get a password: the judge
needs no provider's library, and the operator any helper that prints a token
(``oama``, ``mutt_oauth2.py``, ``oauth2ms``, a script of their own).

The command runs without a shell (its words split as a shell would split them,
``shlex.split``; a leading ``~`` is the user's home), with nothing on its standard
input and a time limit; the first line it prints is the token. A command that fails,
is not found or prints nothing is an error that names the setting, its status and
its last complaint, the token masked (``moonshine.game.masking.mask_tokens``).

The token is kept in this process's memory only, never written anywhere, and
reused for ``REUSE`` seconds (the connections of one pass); when a server refuses
it (it expired early, or was revoked) the caller asks for another with
``again=True``, which runs the command once more, and tries once with that."""

from __future__ import annotations

import os
import shlex
import subprocess
import threading
import time

import msgspec

from moonshine.errors import GameError, StateError
from moonshine.game.masking import mask_tokens

REUSE = 600.0  # seconds a token is used again without running the command (a pass)
MAX_TOKEN = 16 * 1024  # characters; the longest providers' tokens are a few thousand


class TokenCommand(msgspec.Struct, frozen=True):
    """The command that prints an access token, and where it is set."""

    argv: tuple[str, ...]
    where: str  # the setting, for errors: "smtp.token_command", "inbox.imap.token_command"
    timeout: float = 30.0


def parse_command(value: object, *, file: str, key: str, timeout: float) -> TokenCommand:
    """``token_command:`` as written in ``file`` under ``key``: a command line (split
    as a shell would, without running one) or a list of its words. The program is a
    name found on ``PATH`` or a full path: the judge runs from cron, in any directory."""
    if isinstance(value, str):
        try:
            argv = shlex.split(value)
        except ValueError as exc:
            raise StateError(file, key, f"cannot split the command into words ({exc})") from None
    elif isinstance(value, list) and all(isinstance(w, str) for w in value):
        argv = [str(w) for w in value]
    else:
        raise StateError(file, key, f"expected a command line, e.g. 'oauth2-helper --account judge', found {value!r}")
    if not argv or not argv[0].strip():
        raise StateError(file, key, "empty: expected the command that prints the access token")
    argv = [os.path.expanduser(w) if w.startswith("~") else w for w in argv]
    program = argv[0]
    if "/" in program and not os.path.isabs(program):
        raise StateError(
            file, key, f"{program}: give the program's full path (or a name found on PATH), not a relative one"
        )
    return TokenCommand(tuple(argv), key, timeout)


class _Kept(msgspec.Struct):
    token: str
    at: float  # time.monotonic() when the command gave it


_kept: dict[tuple[str, ...], _Kept] = {}
_lock = threading.Lock()


def token(command: TokenCommand, *, again: bool = False) -> str:
    """The access token: the one ``command`` gave less than ``REUSE`` seconds ago,
    else the first line it prints now. ``again``: the server refused the last one,
    run the command again."""
    with _lock:
        kept = _kept.get(command.argv)
        if kept is not None and not again and time.monotonic() - kept.at < REUSE:
            return kept.token
        value = _run(command)
        _kept[command.argv] = _Kept(value, time.monotonic())
        return value


def forget() -> None:
    """Forget every token kept (the next connection runs its command again)."""
    with _lock:
        _kept.clear()


def _run(command: TokenCommand) -> str:
    program = command.argv[0]
    what = f"the token command of {command.where}"
    try:
        done = subprocess.run(
            command.argv, stdin=subprocess.DEVNULL, capture_output=True, timeout=command.timeout, check=False
        )
    except FileNotFoundError:
        raise GameError(f"{what}: no program {program!r} (give its full path, or put it on PATH)") from None
    except PermissionError:
        raise GameError(f"{what}: {program!r} cannot be run (permission denied)") from None
    except subprocess.TimeoutExpired:
        raise GameError(f"{what}: {program!r} did not finish in {command.timeout:g} seconds") from None
    except OSError as exc:
        raise GameError(f"{what}: {program!r} cannot be run ({exc.strerror or exc})") from None
    if done.returncode != 0:
        why = _last_line(done.stderr)
        raise GameError(f"{what}: {program!r} failed (exit status {done.returncode})" + (f": {why}" if why else ""))
    first = done.stdout.decode("utf-8", "replace").splitlines()[:1]
    value = first[0].strip() if first else ""
    if not value:
        raise GameError(f"{what}: {program!r} printed no token (the first line of its output is the token)")
    if len(value) > MAX_TOKEN or not value.isascii() or not value.isprintable() or " " in value:
        raise GameError(
            f"{what}: the first line {program!r} printed is not an access token "
            "(expected one word of printable ASCII characters)"
        )
    return value


def _last_line(stderr: bytes) -> str:
    """The command's last complaint, short and with anything like a token masked."""
    lines = [line.strip() for line in stderr.decode("utf-8", "replace").splitlines() if line.strip()]
    return mask_tokens(lines[-1][:300]) if lines else ""


def sasl(user: str, access_token: str) -> bytes:
    """XOAUTH2's initial client response, before base64:
    ``user=USER^Aauth=Bearer TOKEN^A^A``."""
    return f"user={user}\x01auth=Bearer {access_token}\x01\x01".encode()
