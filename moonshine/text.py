"""The message catalogue: every sentence a player reads is written in English in the
code (the catalogue's key, a gettext ``msgid``) and translated by one gettext
catalogue per language, ``moonshine/locale/LANG/LC_MESSAGES/moonshine.po``, compiled
to the ``.mo`` file shipped beside it (``scripts/catalogue.py`` extracts and compiles
them with Babel, a tool of the developers only). Adding a language is adding one
``.po`` file. A catalogue is read on its first use, by the standard library's
``gettext``: an English run reads none."""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from moonshine.records import dataclass

if TYPE_CHECKING:
    import gettext

DOMAIN = "moonshine"
LOCALE = Path(__file__).resolve().parent / "locale"
SOURCE = "en"  # the language the code writes in


def languages() -> tuple[str, ...]:
    """The languages a player may read: English and every catalogue shipped."""
    found = sorted(p.parent.parent.name for p in LOCALE.glob(f"*/LC_MESSAGES/{DOMAIN}.mo"))
    return (SOURCE, *(lang for lang in found if lang != SOURCE))


@functools.cache
def translations(language: str) -> gettext.NullTranslations:
    """The compiled catalogue of ``language`` (English: none, the text as written)."""
    import gettext

    if language == SOURCE:
        return gettext.NullTranslations()
    path = LOCALE / language / "LC_MESSAGES" / f"{DOMAIN}.mo"
    try:
        with path.open("rb") as f:
            return gettext.GNUTranslations(f)
    except FileNotFoundError:
        raise ValueError(f"unknown language {language!r} (expected {' or '.join(languages())})") from None


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
    out = gettext_for(language)(msgid)
    return out.format(**fields) if fields else out


@dataclass(frozen=True)
class Message:
    """A sentence for a player: its English template (the catalogue's key) and its
    parameters, inserted as they are (codes, numbers, quoted text) or, when they are
    Messages, in the same language. ``fr``: the French the code gives beside the
    English, which ``scripts/catalogue.py`` puts into the French catalogue."""

    en: str
    fr: str
    params: tuple[tuple[str, object], ...] = ()

    def text(self, language: str = "en") -> str:
        template = self.fr if language == "fr" else gettext_for(language)(self.en)
        values = {k: (v.text(language) if isinstance(v, Message) else v) for k, v in self.params}
        return template.format(**values)

    def __str__(self) -> str:
        return self.text("en")


def say(en: str, fr: str, **params: object) -> Message:
    return Message(en, fr, tuple(sorted(params.items())))
