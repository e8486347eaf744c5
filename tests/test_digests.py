"""moonshine.digests gives what hashlib and hmac give (receipts, the seed's hash and
the cache's keys depend on it), for any key and message."""

from __future__ import annotations

import hashlib
import hmac

from hypothesis import given
from hypothesis import strategies as st

from moonshine import digests


@given(st.binary(max_size=300))
def test_sha256_as_hashlib(data: bytes) -> None:
    assert digests.sha256(data) == hashlib.sha256(data).digest()
    assert digests.sha256_hex(data) == hashlib.sha256(data).hexdigest()


@given(st.binary(max_size=200), st.binary(max_size=200))
def test_hmac_sha256_as_hmac(key: bytes, message: bytes) -> None:
    expected = hmac.new(key, message, hashlib.sha256)
    assert digests.hmac_sha256(key, message) == expected.digest()
    assert digests.hmac_sha256_hex(key, message) == expected.hexdigest()


def test_known_vector() -> None:
    """RFC 4231, test case 2."""
    assert digests.hmac_sha256_hex(b"Jefe", b"what do ya want for nothing?") == (
        "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
    )
