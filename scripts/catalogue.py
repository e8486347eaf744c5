"""The message catalogues (``moonshine/locale/LANG/LC_MESSAGES/moonshine.po``), with
Babel, a tool of the developers only (the referee reads the compiled ``.mo`` files
with the standard library):

    python scripts/catalogue.py update    # extract the sentences, add new ones to every .po
    python scripts/catalogue.py compile   # write each .mo from its .po

A sentence is extracted from the calls that write one: ``s("...")`` in the
explainer of outcomes (``moonshine.engine.outcome``), ``say("...", ...)`` and
``no("...", ...)`` for a message (``moonshine.text.catalogue.Message``), ``say_n(
"singular", "plural", n=...)`` for one that follows a count, ``translate(lang,
"...")``, the classic rules' ``PROBLEMS``, and every module-level dict annotated
``Catalogue`` (``moonshine.text.catalogue``: key -> English, or (singular, plural)), whose keys
become the entries' ``msgctxt``. The code holds the English only: every other language
is its ``.po``. ``update`` never removes a translation a person wrote; it drops
sentences no longer in the code, and adds new ones untranslated (a sentence without a
translation is shown in English). The catalogues name no source lines: an edit
elsewhere in the code leaves them as they are.

Adding a language: ``python scripts/catalogue.py new LANG`` writes
``moonshine/locale/LANG/LC_MESSAGES/moonshine.po`` with every sentence untranslated
and its header (``Plural-Forms`` from the language's rules); translate it, then
``compile``. See README.md, "Adding a language"."""

from __future__ import annotations

import ast
import io
import re
import sys
import tomllib
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import yaml
from babel import Locale, UnknownLocaleError
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_file
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "moonshine"
LOCALE = PACKAGE / "locale"
DOMAIN = "moonshine"
ISSUES = "the issues of the moonshine repository"  # no public address yet
KEY = re.compile(r"[a-z_]+(?:\.[a-z_]+)+")
KEYWORDS = {
    "say": None,
    "no": None,
    "_no": None,
    "sentence": None,
    "translate": (2,),
    "gettext": None,
    # a sentence after a count: its singular and plural (``moonshine.text.catalogue.say_n``)
    "say_n": (1, 2),
    "sentence_n": (1, 2),
}
# ``s("...")`` writes a sentence in the explainer of outcomes alone: elsewhere ``s`` is
# an ordinary name (``s.get("digest")`` is no sentence, though an extractor may read it so)
KEYWORDS_OF = {"moonshine/engine/outcome.py": {**KEYWORDS, "s": None}}


def sources() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if "locale" not in p.parts)


MsgId = str | tuple[str, str]  # a sentence, or its singular and plural


def extracted() -> Iterator[tuple[str | None, MsgId, str, int]]:
    """Every sentence of the code: (context, msgid, file, line). A keyed catalogue's
    entry has its key as context (see ``moonshine.text.catalogue.Catalogue``)."""
    for path in sources():
        rel = path.relative_to(ROOT).as_posix()
        keywords = KEYWORDS_OF.get(rel, KEYWORDS)
        for lineno, message, _comments, _context in extract_from_file(
            "python", str(path), keywords=keywords, comment_tags=(), options={}
        ):
            # the keys of the mail's older catalogue (``reply.reason``) are not sentences
            if isinstance(message, str) and message.strip() and not KEY.fullmatch(message):
                yield None, message, rel, lineno
            elif isinstance(message, tuple) and len(message) == 2 and all(message):
                yield None, (str(message[0]), str(message[1])), rel, lineno
        yield from keyed(path)
    for en, rel, lineno in problems():
        yield None, en, rel, lineno
    for en, rel in map_credits():
        yield None, en, rel, 1
    for context, en, rel in map_names():
        yield context, en, rel, 1


def map_credits() -> Iterator[tuple[str, str]]:
    """The credits of the bundled maps (``maps/*.yaml``, ``credits:``), which the
    reports and the map pictures print in the reader's language: (en, file)."""
    for path in sorted((ROOT / "maps").glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        if isinstance(data, dict) and isinstance(data.get("credits"), str) and data["credits"].strip():
            yield data["credits"], path.relative_to(ROOT).as_posix()


def map_names() -> Iterator[tuple[str, str, str]]:
    """The names of the bundled maps that a sentence writes in the reader's language
    (``moonshine.text.catalogue.named``): each gang's (context ``map.gang``: French
    gives it its article, "le Chicago Outfit"), each police station's (``map.station``:
    "poste Town Hall"), and each district's name that holds English words
    (``map.district``: "Uptown (with Edgewater)"): (context, en, file)."""
    for path in sorted((ROOT / "maps").glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        if not isinstance(data, dict):
            continue
        rel = path.relative_to(ROOT).as_posix()
        gangs = data.get("gangs") or {}
        for g in gangs.values() if isinstance(gangs, dict) else gangs:
            if isinstance(g, dict) and isinstance(g.get("name"), str):
                yield "map.gang", g["name"], rel
        districts = data.get("districts") or {}
        for d in districts.values() if isinstance(districts, dict) else districts:
            if not isinstance(d, dict):
                continue
            if isinstance(d.get("station"), str):
                yield "map.station", d["station"], rel
            if isinstance(d.get("name"), str) and "(" in d["name"]:
                yield "map.district", d["name"], rel


def keyed(path: Path) -> Iterator[tuple[str | None, MsgId, str, int]]:
    """The entries of the module-level dicts annotated ``Catalogue`` in ``path``:
    key -> English, or key -> (singular, plural)."""
    rel = path.relative_to(ROOT).as_posix()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if not (
            isinstance(node, ast.AnnAssign)
            and isinstance(node.annotation, ast.Name)
            and node.annotation.id == "Catalogue"
            and isinstance(node.value, ast.Dict)
        ):
            continue
        for k, v in zip(node.value.keys, node.value.values, strict=True):
            key = ast.literal_eval(k) if k is not None else None
            entry = ast.literal_eval(v)
            if not isinstance(key, str):
                raise SystemExit(f"{rel}:{v.lineno}: a catalogue's key must be a string, found {key!r}")
            if isinstance(entry, tuple) and len(entry) == 2 and all(isinstance(e, str) for e in entry):
                yield key, (entry[0], entry[1]), rel, v.lineno
            elif isinstance(entry, str):
                yield key, entry, rel, v.lineno
            else:
                raise SystemExit(f"{rel}:{v.lineno}: {key!r}: expected an English text or (singular, plural)")


def problems() -> Iterator[tuple[str, str, int]]:
    """The classic rules' problems (``PROBLEMS``: key -> English), whose English is a
    message's key once stored in a results file: (en, file, line)."""
    path = PACKAGE / "variants" / "classic" / "rules.py"
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.target.id == "PROBLEMS":
            assert isinstance(node.value, ast.Dict)
            for entry in node.value.values:
                yield str(ast.literal_eval(entry)), path.relative_to(ROOT).as_posix(), entry.lineno


def template() -> Catalog:
    cat = Catalog(domain=DOMAIN, project="moonshine", charset="utf-8")
    seen: dict[tuple[str | None, str], tuple[MsgId, str]] = {}
    for context, msgid, rel, lineno in extracted():
        first = msgid[0] if isinstance(msgid, tuple) else msgid
        other = seen.setdefault((context, first), (msgid, rel))
        if other[0] != msgid:
            raise SystemExit(f"{rel}:{lineno}: {context}: {msgid!r} differs from {other[0]!r} in {other[1]}")
        cat.add(msgid, locations=[(rel, lineno)], context=context)
    return cat


def po_path(language: str) -> Path:
    return LOCALE / language / "LC_MESSAGES" / f"{DOMAIN}.po"


def languages() -> list[str]:
    return sorted(p.parent.parent.name for p in LOCALE.glob(f"*/LC_MESSAGES/{DOMAIN}.po"))


class _Catalog(Catalog):
    """Babel's catalogue, keeping the ``Plural-Forms`` a translator wrote for a language
    Babel does not know (it writes none for such a language)."""

    def _get_headers(self) -> list[tuple[str, str]]:
        headers: list[tuple[str, str]] = super().mime_headers
        if self.locale is None and not any(name == "Plural-Forms" for name, _ in headers):
            at = next((i + 1 for i, (name, _) in enumerate(headers) if name == "Language-Team"), 0)
            headers.insert(at, ("Plural-Forms", self.plural_forms))  # before Generated-By, which ends the lines
        return headers

    mime_headers = property(_get_headers, Catalog.mime_headers.fset)  # type: ignore[attr-defined]


def _locale(language: str) -> Locale | None:
    try:
        return Locale.parse(language)
    except (ValueError, UnknownLocaleError):
        return None  # a language Babel does not know: its header says how it counts


def read(language: str) -> Catalog:
    with po_path(language).open("rb") as f:
        cat = read_po(f, locale=language, domain=DOMAIN)
    cat.__class__ = _Catalog
    return cat


def version() -> str:
    with (ROOT / "pyproject.toml").open("rb") as f:
        return str(tomllib.load(f)["project"]["version"])


PLACEHOLDERS = ("FULL NAME", "EMAIL@ADDRESS", "LL@li.org", "LANGUAGE")


def _kept(value: object, default: str) -> str:
    """A header's value as a translator wrote it, or ``default`` for Babel's placeholder."""
    text = str(value or "")
    return default if not text or any(p in text for p in PLACEHOLDERS) else text


def header(language: str, old: Catalog | None) -> Catalog:
    """An empty catalogue of ``language`` with its header: the project and its version,
    the language, its team and last translator (kept as a translator writes them), and
    the dates (kept, so that ``update`` changes nothing when the code has not)."""
    known = _locale(language)
    name = known.english_name if known is not None else language
    created = old.creation_date if old is not None else datetime.now(UTC)
    revised = old.revision_date if old is not None and isinstance(old.revision_date, datetime) else created
    team = f"moonshine's {name} translators"
    cat = _Catalog(
        locale=language,
        domain=DOMAIN,
        header_comment=(
            f"# {name} translations of moonshine's player-facing text.\n"
            "# This file is distributed under the same license as the moonshine project.\n"
            "# Written by `python scripts/catalogue.py update`: fill in the msgstr lines, then run\n"
            "# `python scripts/catalogue.py compile`. The Plural-Forms line is the translators'\n"
            "# choice: `update` keeps it as written."
        ),
        project="moonshine",
        version=version(),
        copyright_holder="the moonshine developers",
        msgid_bugs_address=ISSUES,
        last_translator=_kept(old.last_translator if old is not None else None, team),
        language_team=_kept(old.language_team if old is not None else None, team),
        charset="utf-8",
        creation_date=created,
        revision_date=revised,
        fuzzy=False,
    )
    if old is not None:
        # The counting rule is the translator's choice, written in the catalogue's header,
        # never replaced by the one a newer Babel brings from CLDR (README, "Adding a language").
        cat.mime_headers = [("Plural-Forms", old.plural_forms)]
    return cat


def po_bytes(language: str) -> bytes:
    """The catalogue of ``language`` as ``update`` writes it: every sentence of the
    code, sorted, with its translation, and no source locations (so that moving code
    about leaves the catalogue unchanged); its header's dates are kept."""
    pot = template()
    old = read(language) if po_path(language).exists() else None
    new = header(language, old)
    for m in pot:
        if not m.id:
            continue
        kept = old.get(m.id, context=m.context) if old is not None else None
        string: str | tuple[str, ...]
        if isinstance(m.id, tuple | list):
            plural = kept is not None and isinstance(kept.string, tuple | list) and all(kept.string)
            string = tuple(kept.string) if plural and kept is not None else ("",) * new.num_plurals
        else:
            string = str(kept.string) if kept is not None and isinstance(kept.string, str) else ""
        new.add(m.id, string, context=m.context)
    buf = io.BytesIO()
    write_po(buf, new, width=0, no_location=True, omit_header=False, sort_output=True)
    return buf.getvalue()


def update() -> None:
    for language in languages():
        po_path(language).write_bytes(po_bytes(language))
        print(f"{po_path(language)}: {len(read(language)) - 1} sentences")


def new(language: str) -> None:
    """A catalogue for a new language: every sentence of the code, untranslated (a
    sentence left so is shown in English)."""
    path = po_path(language)
    if path.exists():
        sys.exit(f"{path} exists: translate it, then run compile")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(po_bytes(language))
    print(f"{path} written: check its Plural-Forms line, translate its msgstr lines, then run compile")


def mo_bytes(language: str) -> bytes:
    buf = io.BytesIO()
    write_mo(buf, read(language), use_fuzzy=False)
    return buf.getvalue()


def compile_all() -> None:
    for language in languages():
        path = po_path(language).with_suffix(".mo")
        path.write_bytes(mo_bytes(language))
        print(f"{path} written")


if __name__ == "__main__":
    command = sys.argv[1] if len(sys.argv) > 1 else ""
    if command == "update":
        update()
    elif command == "compile":
        compile_all()
    elif command == "new" and len(sys.argv) == 3:
        new(sys.argv[2])
    else:
        sys.exit("usage: python scripts/catalogue.py update|compile|new LANG")
