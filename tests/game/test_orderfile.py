"""One reader of order files: UTF-8, else Windows-1252; binary data is refused with
where it is. ``moonshine check``, the inbox and ``moonshine adjudicate`` all read
through it (the case catalogue shows a cp1252 file giving one result everywhere)."""

from __future__ import annotations

from pathlib import Path

import pytest

from moonshine.errors import GameError
from moonshine.game.orderfile import NotText, decode, decode_lenient, read

TEXT = "H LOO se déplace vers NSS # café – ok\n"


@pytest.mark.parametrize(
    "data",
    [TEXT.encode("utf-8"), b"\xef\xbb\xbf" + TEXT.encode("utf-8"), TEXT.encode("cp1252")],
    ids=["utf-8", "utf-8 with BOM", "cp1252"],
)
def test_every_encoding_gives_the_same_text(data: bytes) -> None:
    assert decode(data) == TEXT
    assert decode_lenient(data) == TEXT


@pytest.mark.parametrize(
    ("data", "says"),
    [
        (b"H LOO - NSS\x00\x01", "not a text file (binary data at byte 11)"),
        (b"H LOO \x81 NSS", "not a text file (invalid UTF-8 at byte 6)"),  # 0x81: undefined in cp1252
    ],
)
def test_binary_data_is_refused_with_where(data: bytes, says: str) -> None:
    with pytest.raises(NotText, match=says.replace("(", r"\(").replace(")", r"\)")):
        decode(data)
    assert decode_lenient(data)  # the inbox still reads the lines, to reject them one by one


def test_read_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "valley.txt"
    path.write_bytes(TEXT.encode("cp1252"))
    assert read(path) == TEXT
    with pytest.raises(GameError, match="cannot read"):
        read(tmp_path / "missing.txt")
    with pytest.raises(GameError, match="is a directory"):
        read(tmp_path)
