"""An orders file's bytes read one way everywhere: ``moonshine check``, the inbox,
and ``moonshine adjudicate`` all decode a gang's file with ``decode`` (directly or
through ``read``), so one file means one text and one set of orders.

The rule: UTF-8 (a byte-order mark is dropped); else Windows-1252, which older
mail clients and editors still write. A file with a NUL byte, or one that is
neither, is not a text file: ``decode`` says where the first bad byte is."""

from __future__ import annotations

from pathlib import Path

from moonshine.errors import GameError

FALLBACK = "cp1252"
MAX_BYTES = 1024 * 1024  # an orders file is a few hundred bytes; a device or a huge file is refused
_ALLOWED_CONTROLS = frozenset("\t\n\r\f\v")


class NotText(ValueError):
    """The bytes are not an orders file's text; ``str()`` says why and where."""


def decode(data: bytes) -> str:
    """The text of an orders file: UTF-8 (with or without a BOM), else Windows-1252.
    Raises ``NotText`` for binary data (a NUL byte, control characters) or bytes
    that are neither encoding."""
    nul = data.find(b"\x00")
    if nul >= 0:
        raise NotText(f"not a text file (binary data at byte {nul})")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        bad = exc.start
    try:
        text = data.decode(FALLBACK)
    except UnicodeDecodeError:
        raise NotText(f"not a text file (invalid UTF-8 at byte {bad})") from None
    if any(ord(ch) < 32 and ch not in _ALLOWED_CONTROLS for ch in text):
        raise NotText(f"not a text file (invalid UTF-8 at byte {bad})")
    return text


def decode_lenient(data: bytes) -> str:
    """``decode``, but bytes that are not text still give a text (UTF-8 with
    replacement characters), for mail parts whose lines are then checked one by one."""
    try:
        return decode(data)
    except NotText:
        return data.decode("utf-8", errors="replace")


def read_bytes(path: Path) -> bytes:
    """The bytes of the orders file at ``path``, at most ``MAX_BYTES``. Raises
    ``GameError`` naming the file for a missing, unreadable or larger file."""
    from moonshine.errors import StateError
    from moonshine.yamlio import read_bytes as read_limited

    try:
        return read_limited(path, limit=MAX_BYTES, what="orders file")
    except StateError as exc:
        raise GameError(str(exc)) from None
    except IsADirectoryError:
        raise GameError(f"{path}: is a directory, not an orders file") from None
    except OSError as exc:
        raise GameError(f"{path}: cannot read ({exc.strerror or exc})") from None


def read(path: Path) -> str:
    """The text of the orders file at ``path`` (see ``decode``). Raises ``GameError``
    naming the file for a missing, unreadable or binary file."""
    data = read_bytes(path)
    try:
        return decode(data)
    except NotText as exc:
        raise GameError(f"{path}: {exc}") from None
