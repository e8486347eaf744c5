"""The message catalogues: one .po per language in the package, its compiled .mo
shipped beside it and up to date, every sentence of the code in every catalogue,
translated, with the same fields."""

from __future__ import annotations

import gettext
import io
import string
import sys
from collections.abc import Iterable

import pytest
from babel.messages.catalog import Message
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po
from repokit import ROOT

sys.path.insert(0, str(ROOT / "scripts"))
import catalogue

from moonshine.render import mailwords
from moonshine.text import catalogue as text_catalogue

LANGUAGES = catalogue.languages()


def test_french_is_a_catalogue_and_english_the_code() -> None:
    assert "fr" in LANGUAGES
    assert text_catalogue.languages() == ("en", *LANGUAGES)


def _entries(catalog: Iterable[Message]) -> set[tuple[str, str, str]]:
    """Every translated entry of a catalogue: (context, sentence, translation), the
    singular and plural forms joined, as gettext reads them (some Babel releases read
    a compiled catalogue's contexts as bytes)."""
    return {
        (_text(m.context or ""), _text(m.id), _text(m.string))
        for m in catalog
        if m.id and (all(m.string) if m.pluralizable else m.string)
    }


def _text(value: object) -> str:
    if isinstance(value, tuple | list):
        return "\x00".join(map(_text, value))
    return value.decode("utf-8") if isinstance(value, bytes) else str(value)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_compiled_catalogue_is_up_to_date(language: str) -> None:
    with catalogue.po_path(language).with_suffix(".mo").open("rb") as f:
        shipped = read_mo(f)
    po = catalogue.read(language)
    stale = _entries(shipped) ^ _entries(po)
    assert not stale, f"the .mo differs from the .po in {len(stale)} entries; run: python scripts/catalogue.py compile"
    assert shipped.plural_forms == po.plural_forms, "run: python scripts/catalogue.py compile"


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_sentence_of_the_code_is_translated(language: str) -> None:
    po = catalogue.read(language)
    in_code = {(context or "", str(msgid)) for context, msgid, _, _ in catalogue.extracted()}
    in_po = {(m.context or "", str(m.id)) for m in po if m.id}
    missing = sorted(in_code - in_po)
    assert not missing, (
        f"sentences of the code not in {language}.po: {missing}; run: python scripts/catalogue.py update"
    )
    gone = sorted(in_po - in_code)
    assert not gone, (
        f"sentences of {language}.po no longer in the code: {gone}; run: python scripts/catalogue.py update"
    )
    untranslated = sorted(str(m.id) for m in po if m.id and not (all(m.string) if m.pluralizable else m.string))
    assert untranslated == []
    assert any(m.pluralizable for m in po), "the singular / plural pairs are gettext plurals"


def test_french_counts_zero_and_one_as_one_whatever_babel_says() -> None:
    """The French rule is the translators' choice (nplurals=2, plural=(n > 1)), kept by
    ``update`` whatever rule a newer Babel takes from CLDR (which adds a form for
    "1 000 000 de ..."): a player reads "0 centre", "1 centre", "2 centres"."""
    po = catalogue.read("fr")
    assert po.plural_forms == "nplurals=2; plural=(n > 1);"
    assert b'"Plural-Forms: nplurals=2; plural=(n > 1);\\n"' in catalogue.po_bytes("fr")
    compiled = gettext.GNUTranslations(io.BytesIO(catalogue.po_path("fr").with_suffix(".mo").read_bytes()))
    pair = next(m for m in po if m.pluralizable and all(m.string))
    one, many = map(str, pair.string)
    singular, plural = map(str, pair.id)
    forms = [
        compiled.npgettext(pair.context, singular, plural, n)
        if pair.context
        else compiled.ngettext(singular, plural, n)
        for n in (0, 1, 2, 1_000_000)
    ]
    assert forms == [one, one, many, many]


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_translation_has_the_fields_of_its_sentence(language: str) -> None:
    def fields(s: str) -> set[str]:
        return {name for _, name, _, _ in string.Formatter().parse(s) if name}

    def pieces(x: object) -> list[str]:
        return [str(p) for p in x] if isinstance(x, tuple | list) else [str(x)]

    wrong = []
    for m in catalogue.read(language):
        if not m.id:
            continue
        english = set().union(*(fields(p) for p in pieces(m.id)))
        # the reports give a turn both ways: {turn} ("spring 1924") and {turn_of} ("du printemps 1924")
        allowed = english | ({"turn_of"} if "turn" in english else set())
        needed = english - {"n", "turn"}  # a plural's form may leave out the count ("un quartier pris")
        # a province in a sentence: a language may write its code ({code}: STP/SC, which
        # carries the coast) where the province's own preposition would be needed
        if m.context == "classic.ack.place":
            allowed, needed = english | {"code"}, english - {"coast"}
        if m.context == "date.time":
            allowed, needed = set(mailwords.DATE_FIELDS), {"zone", "year", "minute"}
        for translated in pieces(m.string):
            has = fields(translated)
            if not needed <= has <= allowed or ("turn" in english and not {"turn", "turn_of"} & has):
                wrong.append((m.context, str(m.id), translated))
    assert wrong == []


def test_an_unknown_language_is_refused_and_a_missing_sentence_stays_english() -> None:
    with pytest.raises(ValueError, match="unknown language 'xx'"):
        text_catalogue.gettext_for("xx")
    assert text_catalogue.translate("fr", "no such sentence {n}", n=3) == "no such sentence 3"
    assert text_catalogue.translate("fr", "held against {units}", units="H LOO") == "a tenu face à H LOO"


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_catalogue_names_no_source_lines_and_is_as_update_writes_it(language: str) -> None:
    shipped = catalogue.po_path(language).read_bytes()
    assert [line for line in shipped.splitlines() if line.startswith(b"#:")] == []
    updated = read_po(io.BytesIO(catalogue.po_bytes(language)))
    po = catalogue.read(language)
    differ = sorted(_entries(updated) ^ _entries(po))
    assert not differ, (
        f"{language}.po is not as update writes it ({differ[:3]}...); run: python scripts/catalogue.py update"
    )
    assert updated.plural_forms == po.plural_forms


@pytest.mark.parametrize("language", LANGUAGES)
def test_moving_code_about_leaves_the_catalogue_unchanged(language: str, monkeypatch: pytest.MonkeyPatch) -> None:
    before = catalogue.po_bytes(language)
    found = list(catalogue.extracted())
    assert found
    # every sentence ten lines further down, and in another file
    moved = [(context, msgid, rel.replace(".py", "_moved.py"), line + 10) for context, msgid, rel, line in found]
    monkeypatch.setattr(catalogue, "extracted", lambda: iter(moved))
    assert catalogue.po_bytes(language) == before


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_header_names_the_project_and_the_language_not_babels_placeholders(language: str) -> None:
    shipped = catalogue.po_path(language).read_text(encoding="utf-8")
    header = shipped.split("\n\n", 1)[0]
    for placeholder in ("ORGANIZATION", "FIRST AUTHOR", "EMAIL@ADDRESS", "VERSION", "LL@li.org", "YEAR-MO-DA"):
        assert placeholder not in header, placeholder
    assert "#, fuzzy" not in header  # a fuzzy header makes gettext tools skip the catalogue
    po = catalogue.read(language)
    assert po.project == "moonshine"
    assert po.version == catalogue.version()
    assert f'"Language: {language}\\n"' in header
    assert "Plural-Forms: nplurals=" in header
    compiled = gettext.GNUTranslations(io.BytesIO(catalogue.po_path(language).with_suffix(".mo").read_bytes()))
    assert compiled.info()["language"] == language
    assert compiled.info()["project-id-version"] == f"moonshine {catalogue.version()}"
