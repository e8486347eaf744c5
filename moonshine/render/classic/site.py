"""The pages of a classic-family game's public record as a static web site
(``moonshine site``; the site is written by ``moonshine.game.families.classic``).

One page per adjudicated phase (the phase's public bulletin and its map, with
links to the phases before and after), and an index with the timeline of the
phases, the latest map and the chart of the supply centres per power. Only the
bulletin goes in, never a power's report; the pages link to each other by
relative paths, so the site opens from ``file://`` as from any static host. The
pages themselves are the templates ``classic_site_phase.html.j2`` and
``classic_site_index.html.j2`` (``moonshine.render.pages``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from moonshine.text.catalogue import Catalogue, keyed, languages
from moonshine.variants.classic.state import Phase

if TYPE_CHECKING:
    pass

WORDS: Catalogue = {
    "classic.site.home": "The game",
    "classic.site.phases": "The phases",
    "classic.site.latest": "Latest phase",
    "classic.site.charts": "How the game went",
    "classic.site.previous": "Previous phase",
    "classic.site.next": "Next phase",
    "classic.site.svg": "The map as SVG (zoom without limit)",
    "classic.site.public": "The public record of the game: bulletins, maps and the chart of the supply centres.",
}


def words_of(language: str) -> dict[str, str]:
    """The site's words in ``language`` (English for a language it does not know), by key."""
    lang = language if language in languages() else "en"
    return {key.removeprefix("classic.site."): keyed(lang, WORDS, key) for key in WORDS}


def phase_title(phase: Phase, language: str) -> str:
    """``Autumn 1901 retreats`` for a person (``Automne 1901 (retraites)`` in French);
    the commands' own names (``fall-1901-retreats``) are for typing."""
    text = phase.words(language if language in languages() else "en")
    return text[:1].upper() + text[1:]
