"""The package uses other packages (the standard library's included) only through their
public names: no import of a module or name with a leading underscore from a package
not ours, no attribute with a leading underscore read from a module not ours, and no
private attribute of an object that no class or module of ours defines. Our own
modules' private names are ours to use. What a newer Python, Pillow or aiosmtplib
may rename without notice is never relied on.

A module's dunder names (``__version__``, ``__init__``...) are public."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from repokit import ROOT

PACKAGE = ROOT / "moonshine"
# (file, line, name): uses that are allowed all the same. Empty, and meant to stay so.
ALLOWED: frozenset[tuple[str, int, str]] = frozenset()


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _ours(module: str | None, level: int) -> bool:
    return level > 0 or module == "moonshine" or (module or "").startswith("moonshine.")


def _trees() -> dict[str, ast.Module]:
    return {
        str(p.relative_to(PACKAGE.parent)): ast.parse(p.read_text(encoding="utf-8"), str(p))
        for p in sorted(PACKAGE.rglob("*.py"))
    }


def _defined_by_us(trees: dict[str, ast.Module]) -> set[str]:
    """Every private name the package itself defines: functions, classes, module and
    class variables, parameters, and attributes it assigns (``self._x = ...``)."""
    names: set[str] = set()
    for tree in trees.values():
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                names.add(node.name)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                names.add(node.id)
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
                names.add(node.attr)
            elif isinstance(node, ast.arg):
                names.add(node.arg)
            elif isinstance(node, ast.alias) and node.asname:
                names.add(node.asname)
    return {n for n in names if _private(n)}


def _foreign_modules(tree: ast.Module) -> set[str]:
    """The names a module binds to modules of other packages (``import os``,
    ``from PIL import Image``, ``import numpy as np``)."""
    bound: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if not _ours(alias.name, 0):
                    bound.add(alias.asname or alias.name.split(".")[0])
        elif isinstance(node, ast.ImportFrom) and not _ours(node.module, node.level):
            for alias in node.names:
                bound.add(alias.asname or alias.name)
    return bound


def _uses(file: str, tree: ast.Module, ours: set[str]) -> Iterator[tuple[str, int, str]]:
    foreign = _foreign_modules(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if not _ours(alias.name, 0) and any(_private(part) for part in alias.name.split(".")):
                    yield file, node.lineno, f"import {alias.name}"
        elif isinstance(node, ast.ImportFrom) and not _ours(node.module, node.level):
            if any(_private(part) for part in (node.module or "").split(".")):
                yield file, node.lineno, f"from {node.module} import ..."
            for alias in node.names:
                if _private(alias.name):
                    yield file, node.lineno, f"from {node.module} import {alias.name}"
        elif isinstance(node, ast.Attribute) and _private(node.attr):
            through = node.value
            if isinstance(through, ast.Name) and through.id in foreign:
                yield file, node.lineno, f"{through.id}.{node.attr}"
            elif node.attr not in ours:
                yield file, node.lineno, f"....{node.attr}"
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ("getattr", "setattr", "hasattr", "delattr")
            and len(node.args) >= 2
            and isinstance(node.args[1], ast.Constant)
            and isinstance(node.args[1].value, str)
            and _private(node.args[1].value)
            and node.args[1].value not in ours
        ):
            yield file, node.lineno, f"{node.func.id}(..., {node.args[1].value!r})"


def private_uses() -> list[tuple[str, int, str]]:
    trees = _trees()
    ours = _defined_by_us(trees)
    return [use for file, tree in trees.items() for use in _uses(file, tree, ours)]


def test_no_private_name_of_another_package_is_used() -> None:
    found = [use for use in private_uses() if use not in ALLOWED]
    assert found == [], "private names of other packages:\n" + "\n".join(f"{f}:{n}: {w}" for f, n, w in found)


def test_the_check_finds_each_kind_of_private_use() -> None:
    """The check itself: each way of reaching another package's private name is caught,
    and our own private names are not."""
    code = (
        "import os, atexit, imaplib\n"
        "from PIL import Image\n"
        "from _sha2 import sha256\n"
        "import email._parseaddr\n"
        "from hashlib import _hashlib\n"
        "from moonshine import _ours_module\n"
        "from . import _sibling\n"
        "def _helper(conn): return conn._new_tag(), conn._mine\n"
        "class K:\n"
        "    def __init__(self): self._mine = 1\n"
        "os._exit(0); atexit._run_exitfuncs(); Image._getencoder('RGB')\n"
        "getattr(Image, '_getencoder'); K().__init__(); _helper(K())\n"
    )
    tree = ast.parse(code)
    ours = _defined_by_us({"sample.py": tree})
    found = {what for _, _, what in _uses("sample.py", tree, ours)}
    assert found == {
        "from _sha2 import ...",
        "import email._parseaddr",
        "from hashlib import _hashlib",
        "...._new_tag",
        "os._exit",
        "atexit._run_exitfuncs",
        "Image._getencoder",
        "getattr(..., '_getencoder')",
    }


# The layers cut from the judge (one game's mail, the host of many games) and the command
# line reach nothing private of another module of ours: a private name stays in its module
# (an object's own private attributes are read only by its own methods, ``self._x``).
OWN_ONLY = ("moonshine/mail", "moonshine/host", "moonshine/cli")


def reaches_into(tree: ast.Module) -> list[tuple[int, str]]:
    """Private names read from another module or object: ``from m import _x``,
    ``obj._x`` (not ``self._x`` nor ``cls._x``)."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and _ours(node.module, node.level):
            found += [(node.lineno, f"from {node.module} import {a.name}") for a in node.names if _private(a.name)]
        elif (
            isinstance(node, ast.Attribute)
            and _private(node.attr)
            and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"))
        ):
            found.append((node.lineno, f"....{node.attr}"))
    return found


def test_the_check_of_private_names_of_our_own_modules() -> None:
    code = "from moonshine.mail import _x\nclass K:\n    def f(self, box):\n        return self._a, box._need()\n"
    assert reaches_into(ast.parse(code)) == [(1, "from moonshine.mail import _x"), (4, "...._need")]


def test_the_mail_the_host_and_the_command_line_use_no_private_name_of_another_module() -> None:
    found = [
        f"{file}:{line}: {what}"
        for file, tree in _trees().items()
        if file.startswith(OWN_ONLY)
        for line, what in reaches_into(tree)
    ]
    assert found == []
