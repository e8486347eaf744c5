"""The tests' own layout (README, "Layout"): test modules in the folders that follow
the package (``FOLDERS``, each named in the README), what several of them share in
kits (``tests/kit/``, no module named ``test_*``), their data in ``tests/data/``, and
the shared fixtures in the root ``conftest.py`` alone. Read from the source, as the
import floors are: no test module imports another; no fixture of a real server or of a
free port is defined twice; the one recording SMTP handler, the one free-port helper
and the one game factory have no copy. Each failure says where a module goes, or which
kit now holds the helper a module imported."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from readmekit import layout_section
from repokit import ROOT

TESTS = ROOT / "tests"
KIT = TESTS / "kit"
# Where a test module goes: the folder of the package whose behaviour it asserts.
FOLDERS = {
    "leaves": "moonshine/errors.py, yamlio.py, cache.py",
    "text": "moonshine/text/ and the catalogues",
    "engine": "moonshine/engine/ and schema.py",
    "picture": "moonshine/picture/",
    "variants": "moonshine/variants/ itself and what both families do",
    "variants/moonshine": "moonshine/variants/moonshine/",
    "variants/classic": "moonshine/variants/classic/",
    "render": "moonshine/render/: reports, bulletins, acknowledgements",
    "game": "moonshine/game/",
    "mail": "moonshine/mail/: one game's mail, moonshine run GAME",
    "host": "moonshine/host/: a judge for many games, the lobby",
    "api": "moonshine/api.py",
    "cli": "moonshine/cli/",
    "project": "the whole project: import floors, layout, packaging",
}
OTHERS = {  # what else tests/ holds
    "conftest.py": "the shared fixtures",
    "kit": "what several test modules share (servers, games, helpers), imported by name",
    "data": "cases, golden files, the mail corpus, the DATC's files (repokit.DATA)",
}
WHERE = "; ".join(
    [f"tests/{folder}/ for {what}" for folder, what in FOLDERS.items()]
    + [f"tests/{name}{'' if '.' in name else '/'}: {what}" for name, what in OTHERS.items()]
)
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


def imports_of_test_modules(tree: ast.AST, test_modules: set[str]) -> list[tuple[str, str | None]]:
    """Every import of a test module, at module level or inside a function: the
    statement, and the name it takes (None for ``import test_x``)."""
    found: list[tuple[str, str | None]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and set(node.module.split(".")) & test_modules:
            found += [(f"from {node.module} import {alias.name}", alias.name) for alias in node.names]
        elif isinstance(node, ast.Import):
            found += [(f"import {a.name}", None) for a in node.names if set(a.name.split(".")) & test_modules]
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
    assert flat == [], f"move {flat} into the folder of the package each tests (README, Layout): {WHERE}"
    kits = sorted(p.name for p in KIT.glob("test_*.py"))
    assert kits == [], f"{kits}: a kit is no test module: rename it (no test_ prefix), or move it to its layer: {WHERE}"
    elsewhere = sorted(
        str(p.parent.relative_to(TESTS)) for p in TESTS.rglob("test_*.py") if p.parent not in {TESTS, KIT}
    )
    unknown = sorted({folder for folder in elsewhere if folder not in FOLDERS and not folder.startswith("data")})
    assert unknown == [], f"test modules in {unknown}, a folder of no layer: {WHERE}"


def test_tests_holds_the_layers_the_kits_and_the_data_alone() -> None:
    """A golden file, a case catalogue or a kit dropped directly into tests/ is found."""
    entries = {p.name for p in TESTS.iterdir() if p.name != "__pycache__" and not p.name.startswith(".")}
    tops = {folder.split("/")[0] for folder in FOLDERS}
    strays = sorted(entries - tops - set(OTHERS))
    assert strays == [], f"tests/ holds {strays}: move each where it belongs: {WHERE}"


def test_the_readme_names_every_folder() -> None:
    section = layout_section((ROOT / "README.md").read_text(encoding="utf-8"))
    missing = [f"tests/{folder}/" for folder in FOLDERS if f"`tests/{folder}/`" not in section]
    assert missing == [], f"README's Layout section does not say what goes in {missing}"


def kit_names() -> dict[str, str]:
    """Each name a kit defines at its top level (function, class, constant), as
    ``kit.name`` (several kits joined by "or"): where a helper that a test module used
    to import now lives."""
    homes: dict[str, list[str]] = {}
    for path in sorted(KIT.glob("*.py")):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.FunctionDef | ast.ClassDef):
                names = [node.name]
            elif isinstance(node, ast.Assign | ast.AnnAssign):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                names = [n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)]
            else:
                continue
            for name in names:
                homes.setdefault(name, []).append(f"{path.stem}.{name}")
    return {name: " or ".join(kits) for name, kits in homes.items()}


# the game factories of test_mail, test_inbox and runkit became presets of gamekit's
RENAMED = {
    "make_game": "gamekit.make_game, or its presets mailkit.outbox_game, inboxkit.inbox_game, runkit.unattended_game"
}


def test_no_test_module_imports_another() -> None:
    test_modules = {p.stem for p in TESTS.rglob("test_*.py")}
    homes = {**kit_names(), **RENAMED}
    found = [
        f"{path.relative_to(ROOT)}: {statement}" + (f" (now {homes[name]})" if name in homes else "")
        for path in python_files()
        for statement, name in imports_of_test_modules(ast.parse(path.read_text(encoding="utf-8")), test_modules)
    ]
    assert found == [], (
        "import what several modules share from its kit in tests/kit/ (on the path: `from smtpkit import Recorder`), "
        "or move it there: " + "; ".join(found)
    )


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
    """The readers above find what they look for (they would pass on anything otherwise),
    and a helper's new home is found in the kits."""
    source = (
        "import pytest, test_press\nfrom test_mail import Recorder\n\n"
        "@pytest.fixture(scope='module')\ndef smtp_server():\n    from test_inbox import make_game\n\n"
        "class Recorder:\n    pass\n\nController(Recorder(), port=0).start()\n"
    )
    tree = ast.parse(source)
    assert imports_of_test_modules(tree, {"test_mail", "test_inbox", "test_press"}) == [
        ("import test_press", None),
        ("from test_mail import Recorder", "Recorder"),
        ("from test_inbox import make_game", "make_game"),
    ]
    assert fixtures(tree) == {"smtp_server"} and SHARED_FIXTURE.search("smtp_server")
    assert definitions(tree) == {"smtp_server", "Recorder"}
    assert "Controller" in called(tree)
    assert (
        kit_names()["Recorder"] == "smtpkit.Recorder"
        and kit_names()["TURN"] == "inboxkit.TURN or mailkit.TURN or playerkit.TURN or samplegame.TURN"
    )
