"""The message catalogue: every sentence a player reads is written in English in the
code (the catalogue's key, a gettext ``msgid``) and translated by one gettext
catalogue per language, ``moonshine/locale/LANG/LC_MESSAGES/moonshine.po``, compiled
to the ``.mo`` file shipped beside it (``scripts/catalogue.py`` extracts and compiles
them with Babel, a tool of the developers only). Adding a language is adding one
``.po`` file. A catalogue is read on its first use, by the standard library's
``gettext``: an English run reads none."""

from __future__ import annotations

import functools
import gettext
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Protocol, runtime_checkable

import msgspec

DOMAIN = "moonshine"
LOCALE = Path(__file__).resolve().parent.parent / "locale"  # moonshine/locale
SOURCE = "en"  # the language the code writes in


_where = [LOCALE]  # the folder of the catalogues (a test points it elsewhere)


def use_locale(folder: Path | None) -> None:
    """Read the catalogues from ``folder`` (None: the package's own) from now on."""
    _where[0] = LOCALE if folder is None else folder
    languages.cache_clear()
    translations.cache_clear()


@functools.cache
def languages() -> tuple[str, ...]:
    """The languages a player may read: English and every catalogue shipped."""
    found = sorted(p.parent.parent.name for p in _where[0].glob(f"*/LC_MESSAGES/{DOMAIN}.mo"))
    return (SOURCE, *(lang for lang in found if lang != SOURCE))


def check_language(language: str) -> str:
    """``language`` if a player may read it; ValueError naming the known ones if not."""
    if language not in languages():
        raise ValueError(f"unknown language {language!r} (expected {' or '.join(languages())})")
    return language


@functools.cache
def translations(language: str) -> gettext.NullTranslations:
    """The compiled catalogue of ``language`` (English: none, the text as written)."""
    if language == SOURCE:
        return gettext.NullTranslations()
    path = _where[0] / language / "LC_MESSAGES" / f"{DOMAIN}.mo"
    try:
        with path.open("rb") as f:
            return gettext.GNUTranslations(f)
    except FileNotFoundError:
        raise ValueError(f"unknown language {language!r} (expected {' or '.join(languages())})") from None


_ENGLISH = gettext.NullTranslations()

# A keyed catalogue of the code (``MESSAGES: Catalogue = {"report.title": "Private report"}``):
# key -> the English, or (singular, plural) for a sentence whose words follow a count
# ``n``. The key is the gettext context (``msgctxt``), the English its ``msgid``;
# ``scripts/catalogue.py`` extracts every module-level dict annotated ``Catalogue``.
Entry = str | tuple[str, str]
Catalogue = dict[str, Entry]


def keyed(language: str, catalogue: Mapping[str, Entry], key: str, n: object = None) -> str:
    """The text of ``key`` in ``language`` (``pgettext``, or ``npgettext`` with the
    count ``n`` for a singular / plural pair: a count that is not a whole number takes
    the plural). A sentence the language's catalogue lacks stays in English."""
    try:
        entry = catalogue[key]
    except KeyError:
        raise KeyError(f"no message {key!r} in the catalogue") from None
    t = _ENGLISH if language == SOURCE else translations(language)
    if isinstance(entry, tuple):
        count = n if isinstance(n, int) and not isinstance(n, bool) else 2
        return t.npgettext(key, entry[0], entry[1], count)
    return t.pgettext(key, entry)


# How a language writes punctuation, numbers and money: the catalogue decides, so that a
# new language needs no code.
FORMATS: Catalogue = {
    "format.colon": ": ",
    "format.semicolon": "; ",
    "format.thousands": ",",
    "format.decimal": ".",
    "format.money": "${amount}",
    "format.or": " or ",
    # words a language shortens before a vowel, "word shortened" pairs separated by |:
    # French "de d'|que qu'" writes "poste d'ENG", "ordres d'Angleterre"; English has none
    "format.elision": "(none)",
    # a word and the article a name begins with, written as one, "word article one" triples
    # separated by |: French "de le du|à les aux" writes "quartier du Chicago Outfit" for
    # "quartier de {gang}" when the gang's name in a sentence is "le Chicago Outfit"
    "format.contraction": "(none)",
    # between an order and what became of it, on one line: "H LIN - ALB: bounced: ...";
    # French, whose reasons have a colon of their own, "H LIN - ALB — standoff : ..."
    "format.result": ": ",
}


def fmt(language: str, key: str) -> str:
    """One of ``FORMATS`` in ``language``."""
    return keyed(language, FORMATS, key)


def number(language: str, n: int) -> str:
    """``4,096`` in English, ``4 096`` (no-break space) in French."""
    return f"{n:,}".replace(",", fmt(language, "format.thousands"))


def dollars(language: str, english: str) -> str:
    """A sum as English writes it (``$12.50``, ``-$3``), written the language's way:
    ``12,50 $``, ``-3 $`` in French."""
    sign = "-" if english.startswith("-") else ""
    amount = english.lstrip("-").lstrip("$").replace(".", fmt(language, "format.decimal"))
    return sign + fmt(language, "format.money").format(amount=amount)


_VOWELS = frozenset("aeiouAEIOUàâäéèêëîïôöùûüÀÂÄÉÈÊËÎÏÔÖÙÛÜ")  # not h nor y: Hyde Park, Yale


@functools.cache
def _elisions(language: str) -> tuple[tuple[str, str], ...]:
    """The language's ``format.elision`` pairs: (word, its shortened form)."""
    pairs = []
    for pair in keyed(language, FORMATS, "format.elision").split("|"):
        word, _, short = pair.strip().partition(" ")
        if word and short:
            pairs.append((word, short.strip()))
    return tuple(pairs)


@functools.cache
def _contractions(language: str) -> tuple[tuple[str, str, str], ...]:
    """The language's ``format.contraction`` triples: (word, article, the two as one)."""
    out = []
    for triple in keyed(language, FORMATS, "format.contraction").split("|"):
        parts = triple.split()
        if len(parts) == 3:
            out.append((parts[0], parts[1], parts[2]))
    return tuple(out)


def named(language: str, context: str, name: str) -> str:
    """A name of a map (a gang's, a station's, a district's) as a sentence in
    ``language`` writes it (the catalogue's entry of ``context``: French "le Chicago
    Outfit", "poste Town Hall"); a name the catalogue lacks as it is."""
    if language == SOURCE or not name:
        return name
    return translations(language).pgettext(context, name)


def fill(language: str, template: str, /, **fields: object) -> str:
    """``template`` (a sentence of the catalogue in ``language``) with its ``{fields}``
    filled, the language's contractions made where a field begins with an article (in
    French ``quartier de {gang}`` reads ``quartier du Chicago Outfit``), and its
    elisions where a field begins with a vowel: in
    French ``poste de {d}`` reads ``poste d'ENG``, ``Ordres de {power}`` reads
    ``Ordres d'Angleterre`` (``format.elision``; the word must stand alone before the
    field, as in ``de {d}``, not ``Inde {d}``)."""
    if fields and "{" in template and language != SOURCE:
        for word, article, one in _contractions(language):
            for name, value in fields.items():
                spot = f"{word} {{{name}}}"
                text = str(value)
                if spot in template and text.startswith(article + " "):
                    rest = text[len(article) + 1 :].replace("{", "{{").replace("}", "}}")
                    template = _at_word_start(template, spot, f"{one} {rest}")
    if fields and "{" in template:
        for word, short in _elisions(language) if language != SOURCE else ():
            if word + " {" not in template:
                continue
            for name, value in fields.items():
                spot = f"{word} {{{name}}}"
                if spot in template and str(value)[:1] in _VOWELS:
                    template = _at_word_start(template, spot, short + "{" + name + "}")
    return template.format(**fields) if fields else template


def _at_word_start(template: str, spot: str, by: str) -> str:
    """``template`` with ``spot`` replaced by ``by`` where ``spot`` starts a word."""
    parts = template.split(spot)
    out = parts[0]
    for part in parts[1:]:
        out += (by if not out or not (out[-1].isalnum() or out[-1] in "'’") else spot) + part
    return out


def gettext_for(language: str) -> Callable[[str], str]:
    """The function that translates an English sentence into ``language``; a sentence
    the catalogue lacks stays in English (never dropped)."""
    if language == SOURCE:
        return _same
    return translations(language).gettext


def _same(text: str) -> str:
    return text


def translate(language: str, msgid: str, /, **fields: object) -> str:
    """``msgid`` in ``language``, its ``{fields}`` filled."""
    return fill(language, gettext_for(language)(msgid), **fields)


@runtime_checkable
class Localized(Protocol):
    """A value a sentence writes in its own language (a message, a sum, a list of choices,
    an order in the reader's notation)."""

    def text(self, language: str = "en") -> str: ...


class Message(msgspec.Struct, frozen=True):
    """A sentence for a player: its English template (the catalogue's key) and its
    parameters, inserted as they are (codes, numbers, quoted text) or, when they are
    ``Localized`` values (messages, sums), in the same language. A sentence that
    follows a count ``n`` has its English ``plural`` too: the language's plural form
    for ``n`` is written (``ngettext``)."""

    en: str
    params: tuple[tuple[str, object], ...] = ()
    plural: str = ""  # the English plural ("" for a sentence with no count)

    def text(self, language: str = "en") -> str:
        if self.plural:
            n = dict(self.params).get("n")
            count = n if isinstance(n, int) and not isinstance(n, bool) else 2
            template = ngettext_for(language)(self.en, self.plural, count)
        else:
            template = gettext_for(language)(self.en)
        values = {k: (v.text(language) if isinstance(v, Localized) else v) for k, v in self.params}
        return fill(language, template, **values)

    def __str__(self) -> str:
        return self.text("en")


def say(en: str, /, **params: object) -> Message:
    """The message ``en`` (a sentence of the catalogue), its fields ``params``."""
    return Message(en, tuple(sorted(params.items())))


def say_n(singular: str, plural: str, /, **params: object) -> Message:
    """The message that follows the count ``n`` (a field of ``params``): its English
    ``singular`` and ``plural``; each language writes its own form for ``n``."""
    if "n" not in params:
        raise ValueError(f"{singular!r}: a sentence with a plural needs its count n")
    return Message(singular, tuple(sorted(params.items())), plural)


sentence = say
sentence_n = say_n


def ngettext_for(language: str) -> Callable[[str, str, int], str]:
    """The function that picks and translates the form of a sentence for a count in
    ``language`` (English: the singular for 1, else the plural)."""
    if language == SOURCE:
        return _ENGLISH.ngettext
    return translations(language).ngettext


class Amount(msgspec.Struct, frozen=True):
    """A sum of money inside a message, as English writes it (``$12.50``, ``$2.867``),
    and written the language's way: ``12,50 $`` in French."""

    dollars: str

    @classmethod
    def of(cls, cents: int) -> Amount:
        from moonshine.text import money

        return cls(money.fmt(cents))

    def text(self, language: str = "en") -> str:
        return dollars(language, self.dollars)


class Choices(msgspec.Struct, frozen=True):
    """Words offered as alternatives: ``LOO or NSS``, ``LOO ou NSS`` in French."""

    words: tuple[str, ...]

    def text(self, language: str = "en") -> str:
        return fmt(language, "format.or").join(self.words)


class Names(msgspec.Struct, frozen=True):
    """A name in every language that has its own (a province: ``Mid-Atlantic Ocean``,
    ``Atlantique moyen``), English first; a sentence in another language writes the
    English one."""

    names: tuple[tuple[str, str], ...]  # (language, name)

    def text(self, language: str = "en") -> str:
        found = dict(self.names)
        return found.get(language) or found.get(SOURCE) or (self.names[0][1] if self.names else "")


def message_data(m: Message) -> dict[str, object]:
    """A message as plain data (a results file stores it): its English text, the
    catalogue's key (and its English plural, for a sentence that follows a count), and
    its parameters (a sum of money as ``{money: "$3"}``, a
    place's names as ``{names: {en: Mid-Atlantic Ocean, fr: Atlantique moyen}}``)."""
    out: dict[str, object] = {"text": m.en}
    if m.plural:
        out["plural"] = m.plural
    if m.params:
        out["params"] = {k: _param_data(v) for k, v in m.params}
    return out


def _param_data(v: object) -> object:
    if isinstance(v, Message):
        return message_data(v)
    if isinstance(v, Amount):
        return {"money": v.dollars}
    if isinstance(v, Choices):
        return {"choices": list(v.words)}
    if isinstance(v, Names):
        return {"names": dict(v.names)}
    if isinstance(v, Localized):
        return v.text("en")
    return v


def message_from_data(data: object) -> Message:
    """The message ``message_data`` wrote; ValueError when it is not one."""
    if not isinstance(data, dict) or not isinstance(data.get("text"), str):
        raise ValueError(f"expected a message (text and params), found {data!r}")
    raw = data.get("params") or {}
    if not isinstance(raw, dict):
        raise ValueError(f"expected the message's params as a mapping, found {raw!r}")
    params: dict[str, object] = {}
    for k, v in raw.items():
        if isinstance(v, dict) and "money" in v:
            params[str(k)] = Amount(str(v["money"]))
        elif isinstance(v, dict) and isinstance(v.get("choices"), list):
            params[str(k)] = Choices(tuple(str(w) for w in v["choices"]))
        elif isinstance(v, dict) and isinstance(v.get("names"), dict) and v["names"]:
            params[str(k)] = Names(tuple((str(lang), str(name)) for lang, name in v["names"].items()))
        elif isinstance(v, dict):
            params[str(k)] = message_from_data(v)
        elif isinstance(v, str | int | float):
            params[str(k)] = v
        else:
            raise ValueError(f"{k}: expected a text, a number, money, names or a message, found {v!r}")
    _check_fields(data["text"], params)
    plural = data.get("plural", "")
    if not isinstance(plural, str):
        raise ValueError(f"expected the message's plural as a text, found {plural!r}")
    if plural:
        _check_fields(plural, params)
    return Message(data["text"], tuple(sorted(params.items())), plural)


def _check_fields(text: str, params: Mapping[str, object]) -> None:
    """A message's text is a format whose every field is among its params (ValueError
    otherwise: an unbalanced brace, a field with no value), so that it can be worded."""
    import string

    try:
        fields = {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}
    except ValueError as exc:
        raise ValueError(f"the message's text {text!r} is not a format: {exc}") from None
    missing = sorted(f for f in fields if f.split(".")[0].split("[")[0] not in params)
    if missing:
        raise ValueError(f"the message's text {text!r} names {', '.join(missing)}, which its params lack")
