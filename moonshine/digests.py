"""SHA-256 and HMAC-SHA256 (RFC 2104), as ``hashlib`` and ``hmac`` compute them, from
the interpreter's built-in SHA-256 module: ``hashlib`` loads OpenSSL when imported
(2 ms, a twentieth of a player's ``moonshine check``) for the one hash the referee
uses (receipts, the seed's hash, the cache's keys). Where the built-in module is
missing, ``hashlib``'s is used."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def _builtin() -> Callable[[bytes], Any]:
    try:
        from _sha2 import sha256  # type: ignore[import-not-found]  # Python 3.12 and later
    except ImportError:
        try:
            from _sha256 import sha256  # type: ignore[import-not-found]  # Python 3.11
        except ImportError:
            from hashlib import sha256
    return sha256  # type: ignore[no-any-return]


_sha256 = _builtin()
_BLOCK = 64  # SHA-256's block, in bytes
_INNER = bytes(x ^ 0x36 for x in range(256))
_OUTER = bytes(x ^ 0x5C for x in range(256))


def sha256(data: bytes) -> bytes:
    """The SHA-256 digest of ``data``."""
    return _sha256(data).digest()  # type: ignore[no-any-return]


def sha256_hex(data: bytes) -> str:
    """The SHA-256 digest of ``data`` in hexadecimal."""
    return _sha256(data).hexdigest()  # type: ignore[no-any-return]


def hmac_sha256(key: bytes, message: bytes) -> bytes:
    """HMAC-SHA256 of ``message`` under ``key``: ``hmac.new(key, message, hashlib.sha256).digest()``."""
    if len(key) > _BLOCK:
        key = sha256(key)
    key = key.ljust(_BLOCK, b"\0")
    inner = sha256(key.translate(_INNER) + message)
    return sha256(key.translate(_OUTER) + inner)


def hmac_sha256_hex(key: bytes, message: bytes) -> str:
    """HMAC-SHA256 of ``message`` under ``key``, in hexadecimal."""
    return hmac_sha256(key, message).hex()
