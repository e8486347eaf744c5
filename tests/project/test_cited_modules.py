"""Every module the words of the project cite exists: a docstring, a comment, the
README or a guide in ``docs/`` that names ``moonshine.some.module`` (or
``moonshine.some.module.name``) names a module of the package, and the name after it
is one that module defines. A module moved or cut leaves no reader looking for it
under its old name."""

from __future__ import annotations

import ast
import functools
import re
from pathlib import Path

from repokit import ROOT

PACKAGE = ROOT / "moonshine"
# the data folders installed inside the package (pyproject.toml's package-dir)
DATA = {"moonshine.maps", "moonshine.templates", "moonshine.locale"}
# what looks like a module and is not: files (.moonshine.lock, moonshine.po, moonshine.mo, systemd's
# moonshine.service and moonshine.timer) and the placeholder domain of addresses (moonshine.invalid)
NOT_MODULES = {"lock", "po", "mo", "service", "timer", "invalid"}
CITED = re.compile(r"(?<![\w.@/-])moonshine(?:\.[A-Za-z_]\w*)+")


def modules() -> dict[str, Path]:
    found: dict[str, Path] = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(ROOT).with_suffix("").parts
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


@functools.cache
def defined(path: Path) -> frozenset[str]:
    """The names a module defines at its top level (imports included)."""
    names: set[str] = set()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names |= {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}
        elif isinstance(node, ast.Import | ast.ImportFrom):
            names |= {(a.asname or a.name).split(".")[0] for a in node.names}
    return frozenset(names)


def unknown(text: str, known: dict[str, Path]) -> list[str]:
    """The cited names of ``text`` that name no module, or no name of their module."""
    out: list[str] = []
    for line in text.splitlines():
        if re.match(r"\s*(?:from|import)\s+moonshine\b", line):
            continue
        for m in CITED.finditer(line):
            parts = m.group(0).split(".")
            if ".".join(parts[:2]) in DATA or parts[1] in NOT_MODULES:
                continue
            k = len(parts)
            while k > 1 and ".".join(parts[:k]) not in known:
                k -= 1
            module = ".".join(parts[:k])  # "moonshine" itself, when no longer prefix is a module
            if k < len(parts) and parts[k] not in defined(known[module]):
                out.append(m.group(0))
    return out


def test_the_check_sees_a_module_gone_and_a_name_gone() -> None:
    known = modules()
    text = (
        "see ``moonshine.game.ledger.load_sent`` and moonshine.game.deadlines;\n"
        "not moonshine.judge.zones, nor moonshine.game.ledger.nothing_here;\n"
        "from moonshine.judge import zones\n"
        "files: .moonshine.lock, referee@moonshine.invalid, moonshine/locale/fr/moonshine.po, moonshine.templates\n"
    )
    assert unknown(text, known) == ["moonshine.judge.zones", "moonshine.game.ledger.nothing_here"]


def test_every_module_the_code_and_the_guides_cite_exists() -> None:
    known = modules()
    texts = [*sorted(PACKAGE.rglob("*.py")), ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    found = [
        f"{path.relative_to(ROOT)}: {name}"
        for path in texts
        for name in unknown(path.read_text(encoding="utf-8"), known)
    ]
    assert found == []
