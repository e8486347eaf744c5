"""The message catalogues (``moonshine/locale/LANG/LC_MESSAGES/moonshine.po``), with
Babel, a tool of the developers only (the referee reads the compiled ``.mo`` files
with the standard library):

    python scripts/catalogue.py update    # extract the sentences, add new ones to every .po
    python scripts/catalogue.py compile   # write each .mo from its .po

A sentence is extracted from the calls that write one: ``s("...")`` in the
explainer of outcomes (``moonshine.outcome``), ``say("...", ...)`` and
``no("...", ...)`` for a message (``moonshine.text.Message``), ``translate(lang,
"...")``, and the classic rules' ``PROBLEMS``. A ``say`` or ``no`` call still giving its French beside the English fills
that sentence's translation when the catalogue has none. ``update`` never removes a
translation a person wrote; it drops sentences no longer in the code. The
catalogues name no source lines: an edit elsewhere in the code leaves them as they are."""

from __future__ import annotations

import ast
import io
import re
import sys
from collections.abc import Iterator
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_file
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "moonshine"
LOCALE = PACKAGE / "locale"
DOMAIN = "moonshine"
KEY = re.compile(r"[a-z_]+(?:\.[a-z_]+)+")
KEYWORDS = {"s": None, "say": None, "no": None, "sentence": None, "translate": (2,), "gettext": None}


def sources() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if "locale" not in p.parts)


def extracted() -> Iterator[tuple[str, str, int]]:
    """Every sentence of the code: (msgid, file, line)."""
    for path in sources():
        rel = path.relative_to(ROOT).as_posix()
        for lineno, message, _comments, _context in extract_from_file(
            "python", str(path), keywords=KEYWORDS, comment_tags=(), options={}
        ):
            # the keys of the mail's older catalogue (``reply.reason``) are not sentences
            if isinstance(message, str) and message.strip() and not KEY.fullmatch(message):
                yield message, rel, lineno
    for en, _, rel, lineno in problems():
        yield en, rel, lineno


def problems() -> Iterator[tuple[str, str, str, int]]:
    """The classic rules' problems (``PROBLEMS``: key -> {"en": ..., "fr": ...}), whose
    English is a message's key once stored in a results file: (en, fr, file, line)."""
    path = PACKAGE / "classic" / "rules.py"
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.AnnAssign | ast.Assign):
            targets = [node.target] if isinstance(node, ast.AnnAssign) else node.targets
            if not any(isinstance(t, ast.Name) and t.id == "PROBLEMS" for t in targets):
                continue
            assert isinstance(node.value, ast.Dict)
            for entry in node.value.values:
                assert isinstance(entry, ast.Dict)
                pair = {
                    k.value: v.value
                    for k, v in zip(entry.keys, entry.values, strict=True)
                    if isinstance(k, ast.Constant) and isinstance(v, ast.Constant)
                }
                yield str(pair["en"]), str(pair.get("fr", "")), path.relative_to(ROOT).as_posix(), entry.lineno


def code_french() -> dict[str, str]:
    """The French the code itself still gives beside the English (``say(en, fr)``)."""
    found: dict[str, str] = {en: fr for en, fr, _, _ in problems() if fr}
    for path in sources():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                not isinstance(node, ast.Call)
                or not isinstance(node.func, ast.Name)
                or node.func.id not in ("say", "no")
            ):
                continue
            args = node.args[:2]
            if len(args) == 2 and all(isinstance(a, ast.Constant) and isinstance(a.value, str) for a in args):
                en, fr = (str(a.value) for a in args if isinstance(a, ast.Constant))
                found.setdefault(en, fr)
    return found


def template() -> Catalog:
    cat = Catalog(domain=DOMAIN, project="moonshine", charset="utf-8")
    for msgid, rel, lineno in extracted():
        cat.add(msgid, locations=[(rel, lineno)])
    return cat


def po_path(language: str) -> Path:
    return LOCALE / language / "LC_MESSAGES" / f"{DOMAIN}.po"


def languages() -> list[str]:
    return sorted(p.parent.parent.name for p in LOCALE.glob(f"*/LC_MESSAGES/{DOMAIN}.po"))


def read(language: str) -> Catalog:
    with po_path(language).open("rb") as f:
        return read_po(f, locale=language, domain=DOMAIN)


def po_bytes(language: str) -> bytes:
    """The catalogue of ``language`` as ``update`` writes it: every sentence of the
    code, sorted, with its translation, and no source locations (so that moving code
    about leaves the catalogue unchanged); its header's dates are kept."""
    pot = template()
    french = code_french()
    old = read(language)
    new = Catalog(
        locale=language,
        domain=DOMAIN,
        project="moonshine",
        charset="utf-8",
        creation_date=old.creation_date,
        revision_date=old.revision_date,
    )
    for m in pot:
        if not m.id:
            continue
        kept = old.get(m.id)
        string = kept.string if kept is not None and kept.string else ""
        if not string and language == "fr":
            string = french.get(str(m.id), "")
        new.add(m.id, string)
    buf = io.BytesIO()
    write_po(buf, new, width=0, no_location=True, omit_header=False, sort_output=True)
    return buf.getvalue()


def update() -> None:
    for language in languages():
        po_path(language).write_bytes(po_bytes(language))
        print(f"{po_path(language).relative_to(ROOT)}: {len(read(language)) - 1} sentences")


def mo_bytes(language: str) -> bytes:
    buf = io.BytesIO()
    write_mo(buf, read(language), use_fuzzy=False)
    return buf.getvalue()


def compile_all() -> None:
    for language in languages():
        path = po_path(language).with_suffix(".mo")
        path.write_bytes(mo_bytes(language))
        print(f"{path.relative_to(ROOT)} written")


if __name__ == "__main__":
    command = sys.argv[1] if len(sys.argv) > 1 else ""
    if command == "update":
        update()
    elif command == "compile":
        compile_all()
    else:
        sys.exit("usage: python scripts/catalogue.py update|compile")
