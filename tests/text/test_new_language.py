"""Adding a language is adding one file: a catalogue for a made-up language ``xx``,
written by ``scripts/catalogue.py new`` into a copy of the locale folder, a few of its
sentences translated (with three plural forms and its own way of writing sums, dates
and turns), compiled, and read with no code change: the acknowledgement, the report
and the mail use its words, and what it leaves untranslated stays English."""

from __future__ import annotations

import io
import shutil
import sys
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from babel.messages.pofile import write_po
from repokit import ROOT

sys.path.insert(0, str(ROOT / "scripts"))
import catalogue

from moonshine import api
from moonshine.render import mailwords, phrasebook
from moonshine.text import catalogue as text_catalogue

# (context, English) -> the xx words; a tuple for a plural's three forms
XX: dict[tuple[str | None, str | tuple[str, str]], str | tuple[str, ...]] = {
    ("report.heading", "{gang}: private report, {turn}"): "{gang} -- xx-report -- {turn}",
    ("word.spring", "Spring"): "sprong",
    ("turn.label", "{season} {year}"): "{year}/{season}",
    ("format.money", "${amount}"): "¤{amount}",
    ("format.decimal", "."): "'",
    ("format.thousands", ","): "_",
    ("date.time", "{year}-{month:02d}-{day:02d} {hour:02d}:{minute:02d} {zone}"): (
        "{day_th}. {month_name} {year}, {hour}h{minute:02d} {zone}"
    ),
    ("date.first_day", "1"): "1st",
    ("date.turn_in_sentence", "label"): "label",
    ("date.month.3", "March"): "Marz",
    ("reply.reason", "Reason: {reason}."): "Grund: {reason}.",
    ("ack.title", "Moonshine: orders for {turn}"): "Moonshine xx: orders of {turn}",
    ("dollars.revenue", ("Sales: {n} crate at {price} (R15)", "Sales: {n} crates at {price} (R15)")): (
        "one sale of {n} at {price}",
        "a pair of sales, {n} at {price}",
        "{n} sales at {price}",
    ),
}
THREE_FORMS = "nplurals=3; plural=(n==1 ? 0 : n==2 ? 1 : 2);"


@pytest.fixture
def xx(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A copy of the package's locale folder with a catalogue for ``xx``, as a
    translator writes it, and the referee pointed at it."""
    locale = tmp_path / "locale"
    shutil.copytree(text_catalogue.LOCALE, locale)
    monkeypatch.setattr(catalogue, "LOCALE", locale)
    catalogue.new("xx")
    po = catalogue.po_path("xx")
    header = po.read_text(encoding="utf-8")
    assert '"Language: xx\\n"' in header
    po.write_text(header.replace("nplurals=2; plural=(n != 1);", THREE_FORMS), encoding="utf-8")
    cat = catalogue.read("xx")
    assert cat.num_plurals == 3
    for (context, msgid), words in XX.items():
        m = cat.get(msgid, context=context)
        assert m is not None, (context, msgid)
        m.string = words
    buf = io.BytesIO()
    write_po(buf, cat, width=0, no_location=True, sort_output=True)
    po.write_bytes(buf.getvalue())
    catalogue.update()  # as a translator would run it: nothing of theirs is lost
    assert THREE_FORMS in po.read_text(encoding="utf-8")
    assert catalogue.read("xx").get("Spring", context="word.spring").string == "sprong"
    catalogue.compile_all()
    text_catalogue.use_locale(locale)
    try:
        yield locale
    finally:
        text_catalogue.use_locale(None)


def test_a_new_catalogue_is_a_language(xx: Path) -> None:
    assert "xx" in text_catalogue.languages()
    assert text_catalogue.languages()[:1] == ("en",)
    with pytest.raises(ValueError, match="unknown language 'yy'"):
        phrasebook.message("yy", "report.title")


def test_its_words_its_plurals_and_its_ways_of_writing(xx: Path) -> None:
    assert phrasebook.message("xx", "report.heading", gang="G", turn="T") == "G -- xx-report -- T"
    assert phrasebook.message("xx", "report.title") == "Private report"  # untranslated: English, never dropped
    sales = [phrasebook.message("xx", "dollars.revenue", n=n, price="p") for n in (1, 2, 5)]
    assert sales == ["one sale of 1 at p", "a pair of sales, 2 at p", "5 sales at p"]
    assert phrasebook.turn_label("xx", "spring-1925") == "1925/sprong"
    assert phrasebook.money_text("xx", 1250) == "¤12'50"
    assert phrasebook.money_text("xx", -300) == "-¤3"
    assert text_catalogue.number("xx", 4096) == "4_096"
    assert mailwords.fmt_time(datetime(2024, 3, 1, 18, 5, tzinfo=UTC), "xx") == "1st. Marz 2024, 18h05 UTC"
    assert mailwords.text("xx", "reply.reason", reason="late") == "Grund: late."
    assert mailwords.text("xx", "reply.unchanged") == "No order file was changed."
    # the languages already shipped are as they were
    assert phrasebook.money_text("fr", 1250) == "12,50\u00a0$"
    assert phrasebook.message("fr", "report.title") == "Rapport privé"


def test_a_game_in_the_new_language(xx: Path, tmp_path: Path) -> None:
    game_dir = tmp_path / "game"
    game_dir.mkdir()
    for name in ("game.yaml", ".moonshine-secret", "orders", "turns"):
        src = ROOT / name
        (shutil.copytree if src.is_dir() else shutil.copy2)(src, game_dir / name)
    config = game_dir / "game.yaml"
    config.write_text(config.read_text(encoding="utf-8").replace("language: en", "language: xx"), encoding="utf-8")
    game = api.open_game(game_dir)
    assert game.config.language == "xx"

    ack, _ = api.check(game, "orders/spring-1924/valley.txt")
    assert ack.splitlines()[0] == "Moonshine xx: orders of 1924/sprong"
    assert "ORDERS AS UNDERSTOOD" in ack  # untranslated: English

    api.adjudicate(game, "spring-1924", commit=False)
    report = api.report(game, "spring-1924", side="valley")
    assert "xx-report -- 1924/sprong" in report
    assert "This report is for your gang only: do not forward it." in report
    assert "¤" in report and "$" not in report.replace("(R15)", "")
