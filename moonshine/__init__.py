"""Moonshine: a referee for play-by-email games of Moonshine, a Diplomacy variant
set in Prohibition-era Chicago."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pathlib import Path

__version__ = "0.1.0"

# The cyclic collector's thresholds while a command runs (``moonshine.cli``): a
# collection every 50,000 new objects, not 700 (why: ``moonshine.cli._tune_collector``).
GC_THRESHOLDS = (50_000, 20, 10)


def data_folder(name: str) -> Path:
    """The folder of the package's data ``name`` (``maps``, ``templates``): installed
    inside the package (``moonshine.maps``, ``moonshine.templates``), kept at the repository's top level
    (pyproject's ``package-dir`` maps one to the other; an editable install finds it
    there)."""
    from importlib.util import find_spec
    from pathlib import Path

    spec = find_spec(f"moonshine.{name}")
    if spec is None or not spec.submodule_search_locations:
        raise ModuleNotFoundError(f"moonshine.{name}: the package's {name} folder is missing; reinstall moonshine")
    return Path(next(iter(spec.submodule_search_locations)))
