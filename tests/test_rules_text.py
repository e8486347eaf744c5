"""The rules module's sentences (moonshine.rules) are the order checker's reasons in
English and French; the adjudicator reports the same rejections in English, and a
French report translates them from the same catalogue (no second copy)."""

from __future__ import annotations

import string

import pytest

from moonshine import rules
from moonshine.i18n import translate_reason

TEMPLATES = rules.reason_templates()


def _fill(template: str) -> str:
    names = {name for _, name, _, _ in string.Formatter().parse(template) if name}
    return template.format(**dict.fromkeys(names, "LOO"))


def test_the_catalogue_holds_every_rejection() -> None:
    english = {en for en, _ in TEMPLATES}
    assert "{u} is already in {d}" in english
    assert "a delivery man is not transported (R10): it goes by its own path (R8)" in english
    assert len(TEMPLATES) >= 40


@pytest.mark.parametrize(("en", "fr"), TEMPLATES, ids=[en for en, _ in TEMPLATES])
def test_each_sentence_reads_in_french_as_the_checker_writes_it(en: str, fr: str) -> None:
    assert translate_reason("fr", "rejected: " + _fill(en) + "; it held") == (
        "rejeté : " + _fill(fr) + " ; l'unité a tenu"
    )
