"""Where the repository's files are, for the tests and their kits: ``ROOT``, the
checkout, and ``DATA``, the tests' data (``tests/data/``: the case catalogues, the
golden files, the mail corpus, the DATC's files)."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"
