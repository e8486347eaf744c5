"""The rules module's sentences (moonshine.rules) are the order checker's reasons in
English and French; the adjudicator reports the same rejections as values, and a
French report explains them through the catalogue: the catalogue's French is the
checker's, sentence by sentence."""

from __future__ import annotations

import ast
import inspect
import string

import pytest

from moonshine import outcome as oc
from moonshine import rules
from moonshine.text import Message


def _templates() -> list[tuple[str, str]]:
    found: dict[str, str] = {}
    for node in ast.walk(ast.parse(inspect.getsource(rules))):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("no", "say"):
            args = node.args[:2]
            if len(args) == 2 and all(isinstance(a, ast.Constant) and isinstance(a.value, str) for a in args):
                en, fr = (str(a.value) for a in args if isinstance(a, ast.Constant))
                found.setdefault(en, fr)
    return sorted(found.items())


TEMPLATES = _templates()


def _params(template: str) -> tuple[tuple[str, object], ...]:
    names = {name for _, name, _, _ in string.Formatter().parse(template) if name}
    return tuple(sorted(dict.fromkeys(names, "LOO").items()))


def test_the_rules_write_every_rejection() -> None:
    english = {en for en, _ in TEMPLATES}
    assert "{u} is already in {d}" in english
    assert "a delivery man is not transported (R10): it goes by its own path (R8)" in english
    assert len(TEMPLATES) >= 40


@pytest.mark.parametrize(("en", "fr"), TEMPLATES, ids=[en for en, _ in TEMPLATES])
def test_each_rejection_reads_in_french_as_the_checker_writes_it(en: str, fr: str) -> None:
    stored = Message(en, "", _params(en))  # as a results file gives it back: no French of its own
    checker = Message(en, fr, _params(en))
    assert oc.explain(oc.Rejected(stored), "fr") == "rejeté : " + checker.text("fr") + " ; l'unité a tenu"
