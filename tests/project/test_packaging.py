"""pyproject.toml ships the whole package: every folder of ``moonshine/`` that is a
package, and the top-level data folders (``maps/`` with each board's folder,
``templates/``) mapped inside it, each with its files."""

from __future__ import annotations

import tomllib
from fnmatch import fnmatch

from repokit import ROOT


def test_pyproject_lists_every_package_and_maps_the_data_folders() -> None:
    setup = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    code = {
        ".".join(("moonshine", *p.parent.relative_to(ROOT / "moonshine").parts))
        for p in (ROOT / "moonshine").rglob("__init__.py")
    }
    boards = {f"moonshine.maps.{p.name}" for p in (ROOT / "maps").iterdir() if p.is_dir() and p.name != "__pycache__"}
    assert set(setup["packages"]) == code | boards | {"moonshine.maps", "moonshine.templates"}
    assert setup["package-dir"] == {"moonshine.maps": "maps", "moonshine.templates": "templates"}
    data = setup["package-data"]
    for package in sorted(boards | {"moonshine.maps", "moonshine.templates"}):
        folder = ROOT / "maps" / package.rsplit(".", 1)[1] if package.startswith("moonshine.maps.") else None
        folder = folder or ROOT / setup["package-dir"][package]
        files = [p.name for p in folder.iterdir() if p.is_file() and p.suffix not in (".py", ".pyc")]
        shipped = [f for f in files if any(fnmatch(f, pattern) for pattern in data.get(package, ()))]
        assert sorted(shipped) == sorted(files), (package, sorted(set(files) - set(shipped)))
