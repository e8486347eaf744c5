"""Counts agree with their nouns (issue 38): every sentence of the catalogue where a
number stands before a countable noun counts it with the field ``n`` and has its
singular and plural (the catalogue's plural forms, ``ngettext``); rendered with 0, 1
and 2 in English and in French, the noun after the number takes the form the
language gives that count (English: "1 crate", "0 crates"; French: "0 caisse",
"1 caisse", "2 caisses")."""

from __future__ import annotations

import re
import string
import sys

import pytest
from repokit import ROOT

sys.path.insert(0, str(ROOT / "scripts"))
import catalogue

from moonshine.text.catalogue import fill, translations

# the countable nouns of the sentences, singular -> plural, in each language
NOUNS = {
    "en": {
        w: w + "s"
        for w in [
            "crate",
            "unit",
            "district",
            "centre",
            "command",
            "side",
            "place",
            "player",
            "hour",
            "day",
            "minute",
            "line",
            "message",
            "station",
            "vote",
            "order",
            "proposal",
            "turn",
            "gang",
            "game",
            "point",
        ]
    },
    "fr": {
        **{
            w: w + "s"
            for w in [
                "caisse",
                "unité",
                "quartier",
                "centre",
                "commande",
                "camp",
                "place",
                "joueur",
                "heure",
                "jour",
                "minute",
                "ligne",
                "message",
                "poste",
                "vote",
                "ordre",
                "proposition",
                "tour",
                "gang",
                "partie",
                "point",
            ]
        },
    },
}
FORMS = {lang: {**{s: (s, "one") for s in n}, **{p: (s, "many") for s, p in n.items()}} for lang, n in NOUNS.items()}


def _fields(text: str) -> list[str]:
    return [name for _, name, _, _ in string.Formatter().parse(text) if name]


# the fields that hold a number (others, such as {prefix} or {price}, never count a noun)
NUMBERS = {"n", "m", "sides", "vacant", "free", "hours", "due", "finished", "resigned", "on_time", "centres", "units"}
NUMBERS |= {"vp", "usual", "count", "total", "size", "limit", "depth", "rank", "goal", "strength", "needed"}


def _head(first: str, second: str) -> tuple[str, ...]:
    """The words that may be the counted noun: the second first ("order lines", "unsold
    crates"), then the one right after the number ("crates seized")."""
    return (second, first.strip())


def _counted(text: str, language: str = "en") -> list[tuple[str, str]]:
    """Each (field, noun) of ``text`` where a field that holds a number stands before a
    countable noun, maybe after one other word ("{n} unsold crates", "{n} police
    stations")."""
    out = []
    for m in re.finditer(r"\{(\w+)\}[ \u00a0\u202f]((?:[\w'’-]+[ \u00a0])?)([\w'’]+)", text):
        if m.group(1) not in NUMBERS:
            continue
        for word in _head(m.group(2), m.group(3)):
            if word.lower() in FORMS[language]:
                out.append((m.group(1), word.lower()))
                break
    return out


def _sentences() -> list[tuple[str | None, str | tuple[str, str]]]:
    return [(ctx, msgid) for ctx, msgid, _, _ in catalogue.extracted()]


SENTENCES = _sentences()


def test_a_number_before_a_countable_noun_is_the_count_n_with_its_plural() -> None:
    wrong = []
    for ctx, msgid in SENTENCES:
        forms = msgid if isinstance(msgid, tuple) else (msgid,)
        for form in forms:
            for field, noun in _counted(form):
                if field != "n" or not isinstance(msgid, tuple):
                    wrong.append(f"{ctx or ''} {form!r}: {{{field}}} {noun}")
    assert not wrong, "\n".join(wrong)


def _plurals() -> list[tuple[str | None, tuple[str, str]]]:
    return [(ctx, msgid) for ctx, msgid in SENTENCES if isinstance(msgid, tuple)]


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize("n", [0, 1, 2])
def test_every_count_renders_its_noun_in_the_form_of_its_number(language: str, n: int) -> None:
    t = translations(language)
    wrong = []
    for ctx, (one, many) in _plurals():
        template = t.npgettext(ctx, one, many, n) if ctx else t.ngettext(one, many, n)
        values = {f: "X" for f in _fields(one) + _fields(many)} | {"n": n}
        text = fill(language, template, **values)
        counted = str(n)
        for m in re.finditer(rf"(?<![\d,.]){counted}[ \u00a0\u202f]((?:[\w'’-]+[ \u00a0])?)([\w'’]+)", text):
            for word in _head(m.group(1), m.group(2)):
                found = FORMS[language].get(word.lower())
                if found is None:
                    continue
                wanted = "one" if (n == 1 or (language == "fr" and n == 0)) else "many"
                if found[1] != wanted:
                    wrong.append(f"{ctx or ''}: {text!r}")
                break
    assert not wrong, "\n".join(wrong)


def test_a_message_with_a_count_is_written_in_the_form_of_its_number() -> None:
    from moonshine.text.catalogue import ngettext_for, say_n

    m = say_n("{n} unsold crate lost: no warehouse (R16)", "{n} unsold crates lost: no warehouse (R16)", n=1)
    assert m.text("en") == "1 unsold crate lost: no warehouse (R16)"
    assert m.text("fr").startswith("1 caisse invendue perdue")
    assert say_n(m.en, m.plural, n=0).text("fr").startswith("0 caisse invendue perdue")
    assert say_n(m.en, m.plural, n=2).text("en").startswith("2 unsold crates lost")
    assert ngettext_for("fr")(m.en, m.plural, 2).startswith("{n} caisses invendues perdues")
