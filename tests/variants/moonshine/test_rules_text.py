"""The rules module's sentences (moonshine.variants.moonshine.rules) are the order checker's reasons, in
English in the code and translated by the catalogue; the adjudicator reports the same
rejections as values, and a French report explains them through the catalogue with
the checker's words, sentence by sentence."""

from __future__ import annotations

import ast
import inspect
import string

import pytest

from moonshine.engine import outcome as oc
from moonshine.text.catalogue import Message, gettext_for, message_data, message_from_data
from moonshine.variants.moonshine import rules


def _templates() -> list[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(inspect.getsource(rules))):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("no", "say"):
            first = node.args[0] if node.args else None
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                found.add(first.value)
    return sorted(found)


TEMPLATES = _templates()


def _params(template: str) -> tuple[tuple[str, object], ...]:
    names = {name for _, name, _, _ in string.Formatter().parse(template) if name}
    return tuple(sorted(dict.fromkeys(names, "LOO").items()))


def test_the_rules_write_every_rejection() -> None:
    english = set(TEMPLATES)
    assert "{u} is already in {d}" in english
    assert "a delivery man is not transported (R10): it goes by its own path (R8)" in english
    assert len(TEMPLATES) >= 40


@pytest.mark.parametrize("en", TEMPLATES)
def test_each_rejection_reads_in_french_as_the_checker_writes_it(en: str) -> None:
    stored = message_from_data(message_data(Message(en, _params(en))))  # as a results file gives it back
    checker = Message(en, _params(en))
    assert gettext_for("fr")(en) != en, "untranslated: run scripts/catalogue.py update and translate"
    assert oc.explain(oc.Rejected(stored), "fr") == "rejeté\u00a0: " + checker.text("fr") + "\u202f; l'unité a tenu"
