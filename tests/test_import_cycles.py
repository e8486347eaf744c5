"""The package's imports, module-level and inside functions alike (and those
only for the type checker), read one way: no cycle anywhere in the package; the
rule families (``moonshine.classic``, the registry of variants) and the engine
reach nothing of the game layer; and only the registries and the families'
implementations ask which family or variant a game plays."""

from __future__ import annotations

import ast
import re
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "moonshine"


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
    assert "moonshine.gamedir" in graph["moonshine.families.classic"]
    assert cycles(graph) == []


# The game layer: what touches the game directory, git, clocks and mail, and the commands.
GAME_LAYER = (
    "moonshine.commands",
    "moonshine.families",
    "moonshine.cli",
    "moonshine.start",
    "moonshine.api",
    "moonshine.adjudicating",
    "moonshine.checking",
    "moonshine.gamedir",
    "moonshine.gitrepo",
    "moonshine.journal",
    "moonshine.gamelock",
    "moonshine.runner",
    "moonshine.judge",
    "moonshine.schedule",
    "moonshine.deadlines",
    "moonshine.inbox",
    "moonshine.intake",
    "moonshine.imapbox",
    "moonshine.idle",
    "moonshine.mail",
    "moonshine.mailcmd",
    "moonshine.mailcommands",
    "moonshine.press",
    "moonshine.votes",
    "moonshine.info",
    "moonshine.absence",
    "moonshine.whatif",
    "moonshine.observers",
    "moonshine.passwords",
    "moonshine.takeover",
    "moonshine.resultsjson",
    "moonshine.reports",
    "moonshine.site",
    "moonshine.charts",
    "moonshine.gamecharts",
    "moonshine.simulate",
)
# The rules and the engine: pure values and functions, whatever the game directory.
ENGINE = (
    "moonshine.classic",
    "moonshine.variants",
    "moonshine.resolver",
    "moonshine.outcome",
    "moonshine.rules",
    "moonshine.adjudicator",
    "moonshine.routes",
    "moonshine.turn",
    "moonshine.validate",
    "moonshine.orders",
    "moonshine.parser",
    "moonshine.state",
    "moonshine.geo",
    "moonshine.turns",
    "moonshine.police",
    "moonshine.upkeep",
    "moonshine.scoring",
    "moonshine.chatter",
)


def _within(module: str, prefixes: tuple[str, ...]) -> bool:
    return any(module == p or module.startswith(p + ".") for p in prefixes)


def reached(graph: dict[str, set[str]], start: str) -> set[str]:
    """Every module ``start`` imports, directly or through others."""
    seen: set[str] = set()
    todo = [start]
    while todo:
        for m in graph[todo.pop()]:
            if m not in seen:
                seen.add(m)
                todo.append(m)
    return seen


def test_the_layer_test_sees_a_wrong_arrow() -> None:
    graph = {"moonshine.resolver": {"moonshine.x"}, "moonshine.x": {"moonshine.inbox"}, "moonshine.inbox": set()}
    assert [m for m in reached(graph, "moonshine.resolver") if _within(m, GAME_LAYER)] == ["moonshine.inbox"]


def test_the_rule_families_and_the_engine_reach_nothing_of_the_game_layer() -> None:
    graph = import_graph()
    engine = [m for m in graph if _within(m, ENGINE)]
    assert "moonshine.classic.ack" in engine and "moonshine.resolver" in engine
    assert all(_within(m, GAME_LAYER) for m in ("moonshine.families.classic", "moonshine.commands.turn"))
    wrong = {m: sorted(x for x in reached(graph, m) if _within(x, GAME_LAYER)) for m in engine}
    assert {m: found for m, found in wrong.items() if found} == {}


# Asking which family or variant a game plays: is_classic, family == ..., variant == "classic" (a name).
FAMILY_TEST = re.compile(
    r"\bis_classic\b|\bfamily\s*[!=]=|\bvariant\s*[!=]=\s*(?:[\"']|variants\.|MOONSHINE\b|CLASSIC\b)"
)
# Where it belongs: the registries and the families' implementations.
MAY_ASK = ("moonshine.variants", "moonshine.families")
# moonshine.outcome's explainer words a few outcomes as each family's judges do (its own argument).
WORDING = ("moonshine.outcome",)


def test_the_family_test_pattern() -> None:
    asks = ("if game.is_classic:", 'if variant == "classic":', "x.family == variants.CLASSIC", "family != CLASSIC")
    assert all(FAMILY_TEST.search(line) for line in asks)
    fine = ("variant = game.variant", "if cfg.variant != GameConfig.variant", "families.of(game).messages")
    assert not any(FAMILY_TEST.search(line) for line in fine)


def test_only_the_registries_ask_which_family_a_game_plays() -> None:
    asking: list[str] = []
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        if _within(name, MAY_ASK + WORDING):
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if FAMILY_TEST.search(line.split("#", 1)[0]):
                asking.append(f"{path.relative_to(PACKAGE.parent)}:{n}: {line.strip()}")
    assert asking == []
