"""The README's sections, as the project's tests read them."""

from __future__ import annotations


def layout_section(readme: str) -> str:
    """The "Layout" section: the table of the package's floors and the notes after it."""
    start = readme.index("\n## Layout\n")
    end = readme.index("\n## ", start + 1)
    return readme[start:end]
