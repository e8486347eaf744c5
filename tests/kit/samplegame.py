"""The repository's sample game (spring-1924 of the Chicago map, every gang's orders),
copied for a test that changes it."""

from __future__ import annotations

import shutil
from pathlib import Path

from repokit import ROOT

FILES = ("game.yaml", ".moonshine-secret")
FOLDERS = ("orders", "turns")


def copy_sample(dest: Path) -> Path:
    """The sample game's files copied into ``dest`` (created); returns ``dest``."""
    dest.mkdir(parents=True, exist_ok=True)
    for name in FILES:
        shutil.copy2(ROOT / name, dest / name)
    for name in FOLDERS:
        shutil.copytree(ROOT / name, dest / name)
    return dest
