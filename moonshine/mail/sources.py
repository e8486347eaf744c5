"""The mail sources the inbox reads: a Maildir, an mbox file, a folder of ``.eml``
files, one ``.eml`` file, or the judge's IMAP mailbox; each message with a key that
says which message of which source it is, so that a pass never reads one twice."""

from __future__ import annotations

import mailbox
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path

import msgspec

from moonshine.errors import GameError
from moonshine.mail import imap


class Incoming(msgspec.Struct, frozen=True):
    raw: bytes
    origin: str  # where it was found, for the game master


class Entry(msgspec.Struct, frozen=True):
    """One message of a mail source, not yet loaded: the inbox holds one
    message's bytes at a time, never the whole mailbox."""

    origin: str
    load: Callable[[], bytes]
    done: Callable[[], None] | None = None  # once its outcome is saved (IMAP: moved to the judged folder)
    # what the source calls it for good (a Maildir's key, an .eml file's name, size and time): a message
    # processed once is known by it on every later pass without being read again
    key: str | None = None


def source_entries(source: Path) -> list[Entry]:
    """The messages of a Maildir, an mbox file, a folder of ``.eml`` files or one
    ``.eml`` file, in the source's order (an IMAP mailbox: ``imap_entries``)."""
    if source.is_dir():
        if (source / "cur").is_dir() or (source / "new").is_dir():
            box = mailbox.Maildir(str(source), factory=None, create=False)
            return [
                Entry(f"Maildir {key}", partial(box.get_bytes, key), key=f"maildir:{key}") for key in sorted(box.keys())
            ]
        files = sorted(p for p in source.iterdir() if p.suffix.lower() == ".eml" and p.is_file())
        return [Entry(p.name, p.read_bytes, key=_file_key(p)) for p in files]
    if source.is_file():
        with source.open("rb") as fh:
            head = fh.read(5)
        if head == b"From ":
            mbox = mailbox.mbox(str(source), create=False)
            return [Entry(f"mbox message {i}", partial(mbox.get_bytes, key)) for i, key in enumerate(mbox.keys(), 1)]
        return [Entry(source.name, source.read_bytes)]
    raise GameError(f"{source}: no such mailbox (expected a Maildir, an mbox file, or a folder of .eml files)")


def _file_key(path: Path) -> str | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return f"eml:{path.name}:{st.st_size}:{st.st_mtime_ns}"


def imap_entries(box: imap.ImapMailbox) -> list[Entry]:
    """The messages still in the IMAP folder, oldest first; each is moved to the
    judged folder once its outcome is saved."""
    return [Entry(f"IMAP message {uid}", partial(box.load, uid), partial(box.mark_done, uid)) for uid in box.pending()]


def read_source(source: Path) -> Iterator[Incoming]:
    """Every message of ``source`` as raw bytes, one at a time, in the source's order."""
    for entry in source_entries(source):
        yield Incoming(entry.load(), entry.origin)
