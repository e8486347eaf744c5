"""The referee's cache directory: what it derives from its own files (the maps' YAML
as parsed data, the map pictures' labels drawn and their districts laid out), so
that a command started again does not redo that work. Entries are keyed by the
content they come from and by the package's version; the directory is safe to
delete at any time, and a missing, unwritable or damaged cache only costs the time
to redo the work.

Where: ``$MOONSHINE_CACHE_DIR`` if set (empty: no cache), else
``$XDG_CACHE_HOME/moonshine``, else ``~/.cache/moonshine``; one subdirectory per
version. Nothing secret is ever cached: only maps, and the labels and the
layout of the pictures every player receives."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from moonshine import __version__

ENV_VAR = "MOONSHINE_CACHE_DIR"


def cache_dir() -> Path | None:
    """This version's cache directory, created if need be; None when caching is off
    or the directory cannot be made."""
    chosen = os.environ.get(ENV_VAR)
    if chosen is not None:
        if not chosen.strip():
            return None
        base = Path(chosen)
    else:
        xdg = os.environ.get("XDG_CACHE_HOME")
        base = (Path(xdg) if xdg else Path.home() / ".cache") / "moonshine"
    path = base / __version__
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    return path


def content_key(kind: str, data: bytes) -> str:
    import hashlib

    return f"{kind}-{hashlib.sha256(data).hexdigest()}"


def load_value(kind: str, data: bytes) -> Any | None:
    """What ``store_value`` kept for this key, or None."""
    import marshal

    base = cache_dir()
    if base is None:
        return None
    try:
        return marshal.loads((base / f"{content_key(kind, data)}.bin").read_bytes())
    except (OSError, ValueError, EOFError, TypeError):
        return None


def _plain(value: Any) -> Any:
    """``value`` with its mappings and lists as plain ``dict`` and ``list`` (the YAML
    reader's keep the lines of their keys, which ``marshal`` does not write)."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def store_value(kind: str, data: bytes, value: Any) -> None:
    """Keep ``value`` (built of the types ``marshal`` writes: numbers, text, bytes,
    tuples, lists, dicts) for this key, written atomically; when it would not come back
    equal, or the cache cannot be written, nothing is kept. Read back with ``marshal``,
    faster than JSON and without its module."""
    import marshal
    import tempfile

    base = cache_dir()
    if base is None:
        return
    try:
        blob = marshal.dumps(_plain(value))
        if marshal.loads(blob) != value:
            return
    except ValueError:
        return
    try:
        fd, tmp = tempfile.mkstemp(prefix=".", suffix=".tmp", dir=base)
    except OSError:
        return
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(blob)
        os.replace(tmp, base / f"{content_key(kind, data)}.bin")
    except OSError:
        Path(tmp).unlink(missing_ok=True)
