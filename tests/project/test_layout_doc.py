"""The README's layout section (the twin of the design's architecture sketch)
matches the tree: every module of the package is named there with its folder,
and every module named there exists."""

from __future__ import annotations

import re

from readmekit import layout_section
from repokit import ROOT

PACKAGE = ROOT / "moonshine"


def named_modules(section: str) -> set[str]:
    """The module paths the section's table of the package names in backquotes
    (``classic/board.py``); its notes on tests/ and scripts/ are not the package."""
    rows = "\n".join(line for line in section.splitlines() if line.startswith("|"))
    return {m for m in re.findall(r"`([\w/]+\.py)`", rows) if not m.startswith(("tests/", "scripts/"))}


def tree_modules() -> set[str]:
    """The package's modules, by path in the package; a folder's ``__init__.py`` is
    named by the folder itself."""
    return {p.relative_to(PACKAGE).as_posix() for p in PACKAGE.rglob("*.py") if p.name != "__init__.py"} | {
        f"{p.parent.relative_to(PACKAGE).as_posix()}/" for p in PACKAGE.rglob("__init__.py") if p.parent != PACKAGE
    }


def test_the_reader_of_the_section() -> None:
    row = "| x | `a.py`, `classic/`: `classic/b.py` (`c.md`, `tests/t.py`) |"
    text = f"intro\n## Layout\n{row}\n- `e.py`\n## Next\n`d.py`\n"
    assert named_modules(layout_section(text)) == {"a.py", "classic/b.py"}


def test_the_readme_names_every_module_and_no_other() -> None:
    section = layout_section((ROOT / "README.md").read_text(encoding="utf-8"))
    named = named_modules(section)
    folders = set(re.findall(r"`([\w/]+/)`", "\n".join(line for line in section.splitlines() if line.startswith("|"))))
    tree = tree_modules()
    missing = sorted(m for m in tree if m not in named and m not in folders)
    gone = sorted(m for m in named if m not in tree)
    assert (missing, gone) == ([], [])
