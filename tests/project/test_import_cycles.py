"""The package's imports, module-level and inside functions alike (and those
only for the type checker), read one way: no cycle anywhere in the package; every
module has a floor (the README's layout table) and imports nothing on a higher
one, so the rule families and the engine reach nothing of rendering or the game
layer; and only the registries and the families' implementations ask which
family or variant a game plays."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from readmekit import layout_section
from repokit import ROOT

PACKAGE = ROOT / "moonshine"


def import_graph() -> dict[str, set[str]]:
    modules: dict[str, Path] = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        modules[name] = path
    graph: dict[str, set[str]] = {m: set() for m in modules}
    for name, path in modules.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                graph[name] |= {a.name for a in node.names if a.name in modules}
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                if node.module in modules:
                    graph[name].add(node.module)
                graph[name] |= {f"{node.module}.{a.name}" for a in node.names if f"{node.module}.{a.name}" in modules}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_the_walker_finds_a_cycle() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_import_cycle_in_the_package() -> None:
    graph = import_graph()
    # imports inside functions count: the classic family's game layer reads the game directory in its methods
    assert "moonshine.game.directory" in graph["moonshine.game.families.classic"]
    assert cycles(graph) == []


# -- the floors ---------------------------------------------------------------------------------
# Each module's floor is a column of the README's layout table (one place: the README shows it, this
# test reads it). A module imports only modules on its own floor or on a lower one.


def floors_of(section: str, packages: set[str]) -> dict[str, int]:
    """The floor of each module the layout table names, by dotted name (``classic/board.py`` is
    ``moonshine.variants.classic.board``; a folder that is a package, ``classic/``, names its ``__init__``).
    A module named on two floors is an error of the table."""
    found: dict[str, int] = {}
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if not line.startswith("|") or not cells[0].isdigit():
            continue
        floor = int(cells[0])
        names = [
            m[: -len(".py")]
            for m in re.findall(r"`([\w/]+\.py)`", cells[-1])
            if not m.startswith(("tests/", "scripts/"))
        ]
        names += [f[:-1] for f in re.findall(r"`([\w/]+/)`", cells[-1]) if f[:-1] in packages]
        for name in names:
            dotted = "moonshine." + name.replace("/", ".")
            assert found.setdefault(dotted, floor) == floor, f"{name} is on floors {found[dotted]} and {floor}"
    return found


def module_floors() -> dict[str, int]:
    section = layout_section((PACKAGE.parent / "README.md").read_text(encoding="utf-8"))
    packages = {p.parent.relative_to(PACKAGE).as_posix() for p in PACKAGE.rglob("*/__init__.py")}
    return {"moonshine": 0} | floors_of(section, packages)  # the package's __init__: its version


def upward(graph: dict[str, set[str]], floors: dict[str, int]) -> list[str]:
    """Every import of a module on a higher floor than the importer's, as ``a (n) -> b (m)``."""
    return [
        f"{m} ({floors[m]}) -> {x} ({floors[x]})"
        for m in sorted(graph)
        for x in sorted(graph[m])
        if floors[x] > floors[m]
    ]


def test_the_floor_reader_and_the_walker_see_an_arrow_up() -> None:
    table = "\n".join(
        (
            "| floor | role | modules |",
            "| --- | --- | --- |",
            "| 0 | leaves | `errors.py` (see `tests/t.py`) |",
            "| 2 | rules | `geo.py`, `classic/`: `classic/board.py` |",
            "| 4 | game | `gamedir.py` (`locale/x.po`) |",
        )
    )
    floors = floors_of(table, {"classic"})
    assert floors == {
        "moonshine.errors": 0,
        "moonshine.geo": 2,
        "moonshine.classic": 2,
        "moonshine.classic.board": 2,
        "moonshine.gamedir": 4,
    }
    graph = {"moonshine.geo": {"moonshine.errors", "moonshine.classic.board"}, "moonshine.gamedir": {"moonshine.geo"}}
    graph |= {"moonshine.errors": set(), "moonshine.classic": set(), "moonshine.classic.board": {"moonshine.gamedir"}}
    assert upward(graph, floors) == ["moonshine.classic.board (2) -> moonshine.gamedir (4)"]
    with pytest.raises(AssertionError, match="geo is on floors 2 and 4"):
        floors_of(table + "\n| 4 | again | `geo.py` |", set())


def test_every_module_has_a_floor() -> None:
    floors = module_floors()
    assert sorted(m for m in import_graph() if m not in floors) == []
    # the floors read from the command line (8) down to the leaves (0)
    assert (floors["moonshine.cli"], floors["moonshine.api"], floors["moonshine.game.directory"]) == (8, 7, 4)
    # the host of many games above one game's mail, above the game layer
    assert (floors["moonshine.host.run"], floors["moonshine.mail.run"], floors["moonshine.game.jobs"]) == (6, 5, 4)
    assert (floors["moonshine.render.ack"], floors["moonshine.variants.classic.rules"]) == (3, 2)
    assert floors["moonshine.variants.moonshine.scene"] == 2
    assert floors["moonshine.engine.resolver"] == floors["moonshine.picture.png"] == 1
    assert floors["moonshine.errors"] == floors["moonshine.text.catalogue"] == floors["moonshine"] == 0


def unseen_imports(name: str, source: str) -> list[str]:
    """Imports the walker cannot follow: relative ones, and modules imported by a name
    built at run time (``importlib.import_module``, ``__import__``)."""
    found: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.level:
            found.append(f"{name}:{node.lineno}: relative import")
        elif isinstance(node, ast.Call):
            f = node.func
            called = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""
            if called in ("import_module", "__import__"):
                found.append(f"{name}:{node.lineno}: {called}")
    return found


def test_the_walker_sees_every_import() -> None:
    """No import escapes the floors unseen; the one import by a built name is the command
    line's lazy loading of its own commands (floor 6 loading floor 6)."""
    assert unseen_imports("m", "from . import x\nimport importlib\nimportlib.import_module('a')\n") == [
        "m:1: relative import",
        "m:3: import_module",
    ]
    found: list[str] = []
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found += unseen_imports(name, path.read_text(encoding="utf-8"))
    assert [f.rsplit(":", 1)[1] for f in found] == [" import_module"]
    assert found[0].startswith("moonshine.cli:")
    floors = module_floors()
    assert {floors[m] for m in import_graph() if m.startswith("moonshine.cli")} == {floors["moonshine.cli"]}


def test_the_imports_read_one_way_down_the_floors() -> None:
    """commands -> host -> mail -> game -> render -> variants -> engine, leaves for all: no
    import, at module level, inside a function or for the type checker alone, reaches a
    higher floor."""
    assert upward(import_graph(), module_floors()) == []


def edges(graph: dict[str, set[str]], sources: str, targets: str) -> list[str]:
    """The imports from a module of the package ``sources`` to one of ``targets``."""
    return sorted(f"{m} -> {x}" for m in graph if _within(m, (sources,)) for x in graph[m] if _within(x, (targets,)))


def test_the_drawn_graph_between_the_game_the_mail_and_the_host(capsys: pytest.CaptureFixture[str]) -> None:
    """The import graph the floors are read on, counted between the layers the judge was
    cut into (printed with ``pytest -s``): nothing of the game layer reaches the mail or
    the host, nothing of one game's mail reaches the host of many games, and the mail
    knows Moonshine's rules only through the families' registry."""
    graph = import_graph()
    counts = {
        "game -> mail": edges(graph, "moonshine.game", "moonshine.mail"),
        "game -> host": edges(graph, "moonshine.game", "moonshine.host"),
        "mail -> host": edges(graph, "moonshine.mail", "moonshine.host"),
        "mail -> variants.moonshine": edges(graph, "moonshine.mail", "moonshine.variants.moonshine"),
        "host -> variants.moonshine": edges(graph, "moonshine.host", "moonshine.variants.moonshine"),
        "host -> mail": edges(graph, "moonshine.host", "moonshine.mail"),
        "mail -> game": edges(graph, "moonshine.mail", "moonshine.game"),
    }
    with capsys.disabled():
        print()
        for name, found in counts.items():
            print(f"  {name}: {len(found)}" + "".join(f"\n      {e}" for e in found if "variants" in e))
    assert counts["game -> mail"] == counts["game -> host"] == counts["mail -> host"] == []
    assert len(counts["mail -> variants.moonshine"]) <= 2
    assert counts["host -> mail"] and counts["mail -> game"]  # the layers do use the ones below


# Asking which family or variant a game plays: is_classic, family == ..., variant == "classic" (a name).
FAMILY_TEST = re.compile(
    r"\bis_classic\b|\bfamily\s*[!=]=|\bvariant\s*[!=]=\s*(?:[\"']|variants\.|MOONSHINE\b|CLASSIC\b)"
)
# Where it belongs: the registries and the families' implementations.
MAY_ASK = ("moonshine.variants", "moonshine.game.families")


def test_the_family_test_pattern() -> None:
    asks = ("if game.is_classic:", 'if variant == "classic":', "x.family == variants.CLASSIC", "family != CLASSIC")
    assert all(FAMILY_TEST.search(line) for line in asks)
    fine = ("variant = game.variant", "if cfg.variant != DEFAULT_VARIANT", "families.of(game).messages")
    assert not any(FAMILY_TEST.search(line) for line in fine)


def _within(module: str, prefixes: tuple[str, ...]) -> bool:
    return any(module == p or module.startswith(p + ".") for p in prefixes)


def test_only_the_registries_ask_which_family_a_game_plays() -> None:
    asking: list[str] = []
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        if _within(name, MAY_ASK):
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if FAMILY_TEST.search(line.split("#", 1)[0]):
                asking.append(f"{path.relative_to(PACKAGE.parent)}:{n}: {line.strip()}")
    assert asking == []
