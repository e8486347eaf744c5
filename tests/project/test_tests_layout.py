"""The tests' own layout (README, "Layout"): test modules in folders that follow the
package, what several of them share in kits (``tests/kit/``, no module named
``test_*``), and the shared fixtures in the root ``conftest.py`` alone. Read from the
source, as the import floors are: no test module imports another; no fixture of a
real server or of a free port is defined twice; the one recording SMTP handler, the
one free-port helper and the one game factory have no copy."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from repokit import ROOT

TESTS = ROOT / "tests"
KIT = TESTS / "kit"
SHARED_FIXTURE = re.compile(r"smtp|imap|server|free_port|^port$")
ONE_DEFINITION = {  # a name defined once, in this kit module
    "Recorder": KIT / "smtpkit.py",
    "start_server": KIT / "smtpkit.py",
    "imap_server": KIT / "imapkit.py",
    "free_port": KIT / "portkit.py",
    "make_game": KIT / "gamekit.py",
}


def python_files() -> list[Path]:
    return sorted(p for p in TESTS.rglob("*.py") if "data" not in p.relative_to(TESTS).parts)


def imported_modules(tree: ast.AST) -> set[str]:
    """Every module an import statement names, at module level or inside a function."""
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found |= {f"{node.module}.{alias.name}" for alias in node.names}
    return found


def fixtures(tree: ast.AST) -> set[str]:
    """The names of the functions a ``pytest.fixture`` decorator makes fixtures."""
    names = set()
    for node in ast.walk(tree):
        decorators = getattr(node, "decorator_list", [])
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and any(
            re.match(r"(pytest\.)?fixture\b", ast.unparse(d)) for d in decorators
        ):
            names.add(node.name)
    return names


def definitions(tree: ast.AST) -> set[str]:
    return {n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.ClassDef)}


def called(tree: ast.AST) -> set[str]:
    """The names of what is called: ``f(...)``, ``m.f(...)``."""
    return {ast.unparse(n.func).rsplit(".", 1)[-1] for n in ast.walk(tree) if isinstance(n, ast.Call)}


def test_every_test_module_is_in_a_folder_of_a_layer() -> None:
    flat = sorted(p.name for p in TESTS.glob("test_*.py"))
    assert flat == [], f"move each into the folder of what it tests (README, Layout): {flat}"
    assert not list(KIT.glob("test_*.py")), "a kit is no test module: name it *kit.py"


def test_no_test_module_imports_another() -> None:
    test_modules = {p.stem for p in TESTS.rglob("test_*.py")}
    found = []
    for path in python_files():
        for name in imported_modules(ast.parse(path.read_text(encoding="utf-8"))):
            if set(name.split(".")) & test_modules:
                found.append(f"{path.relative_to(ROOT)}: import {name}")
    assert found == [], "move what several modules share into a kit (tests/kit/): " + "; ".join(found)


def test_the_shared_fixtures_are_the_root_conftests_alone() -> None:
    root = TESTS / "conftest.py"
    assert {"smtp", "imap"} <= fixtures(ast.parse(root.read_text(encoding="utf-8")))
    found = []
    for path in python_files():
        if path != root:
            found += [f"{path.relative_to(ROOT)}: {n}" for n in fixtures(ast.parse(path.read_text(encoding="utf-8")))]
    copies = [f for f in found if SHARED_FIXTURE.search(f.rsplit(": ", 1)[1])]
    assert copies == [], f"use the root conftest's smtp and imap fixtures (tests/conftest.py): {copies}"


def test_the_servers_helpers_and_the_game_factory_are_defined_once() -> None:
    found: dict[str, list[str]] = {}
    for path in python_files():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for name in definitions(tree) & set(ONE_DEFINITION):
            found.setdefault(name, []).append(str(path.relative_to(ROOT)))
        if path != ONE_DEFINITION["start_server"] and "Controller" in called(tree):  # aiosmtpd started elsewhere
            found.setdefault("Controller", []).append(str(path.relative_to(ROOT)))
    expected = {name: [str(path.relative_to(ROOT))] for name, path in ONE_DEFINITION.items()}
    assert found == expected


def test_the_checks_see_a_copy(tmp_path: Path) -> None:
    """The readers above find what they look for (they would pass on anything otherwise)."""
    source = (
        "import pytest\nfrom test_mail import Recorder\n\n"
        "@pytest.fixture(scope='module')\ndef smtp_server():\n    from test_inbox import make_game\n\n"
        "class Recorder:\n    pass\n\nController(Recorder(), port=0).start()\n"
    )
    tree = ast.parse(source)
    assert {"test_mail", "test_mail.Recorder", "test_inbox", "test_inbox.make_game"} <= imported_modules(tree)
    assert fixtures(tree) == {"smtp_server"} and SHARED_FIXTURE.search("smtp_server")
    assert definitions(tree) == {"smtp_server", "Recorder"}
    assert "Controller" in called(tree)
