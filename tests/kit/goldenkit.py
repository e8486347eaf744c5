"""The golden files: output stored under ``tests/data/golden/`` that the tests compare with.

``UPDATE_GOLDEN=1 pytest ...`` rewrites the stored files that differ (and removes the
ones a directory no longer has) instead of comparing, and the run's closing lines name
every file it changed; any other value of the variable stops the run (see conftest)."""

from __future__ import annotations

import os
from pathlib import Path

from repokit import ROOT

MODE = os.environ.get("UPDATE_GOLDEN")
UPDATE = MODE == "1"
changed: list[str] = []  # what this run rewrote, added or removed, for the closing lines


def _rel(path: Path) -> str:
    try:
        return path.relative_to(ROOT).as_posix()
    except ValueError:
        return str(path)


def check(path: Path, text: str) -> None:
    """``text`` is what ``path`` stores; with ``UPDATE_GOLDEN=1``, make it so."""
    stored = path.read_text(encoding="utf-8") if path.is_file() else None
    if UPDATE:
        if stored != text:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            changed.append(f"{'rewritten' if stored is not None else 'added'}: {_rel(path)}")
        return
    assert stored is not None, f"{_rel(path)} is missing; to write it: UPDATE_GOLDEN=1"
    assert text == stored, f"{_rel(path)} differs; if the change is wanted: UPDATE_GOLDEN=1"


def check_directory(directory: Path, files: dict[str, str]) -> None:
    """``directory`` holds exactly ``files`` (name -> text); with ``UPDATE_GOLDEN=1``,
    make it so."""
    stored = sorted(p.name for p in directory.iterdir()) if directory.is_dir() else []
    if UPDATE:
        for name in sorted(set(stored) - set(files)):
            (directory / name).unlink()
            changed.append(f"removed: {_rel(directory / name)}")
    else:
        assert stored == sorted(files), f"{_rel(directory)} holds other files; if the change is wanted: UPDATE_GOLDEN=1"
    for name, text in files.items():
        check(directory / name, text)
