"""The pages of a classic-family game's public record as a static web site
(``moonshine site``; the site is written by ``moonshine.families.classic``).

One page per adjudicated phase (the phase's public bulletin and its map, with
links to the phases before and after), and an index with the timeline of the
phases, the latest map and the chart of the supply centres per power. Only the
bulletin goes in, never a power's report; the pages link to each other by
relative paths, so the site opens from ``file://`` as from any static host.
"""

from __future__ import annotations

import html
from typing import TYPE_CHECKING

from moonshine.classic.state import Phase
from moonshine.text import Catalogue, keyed, languages

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

_BODY = (
    'style="margin:0;padding:12px 10px;background-color:#ffffff;color:#222222;font-family:Helvetica,Arial,sans-serif;"'
)
_H1 = 'style="font-family:Georgia,serif;font-size:20px;line-height:1.25;margin:0 0 8px 0;"'
_H2 = 'style="font-family:Georgia,serif;font-size:17px;line-height:1.25;margin:18px 0 6px 0;"'
_PRE = (
    'style="white-space:pre-wrap;overflow-wrap:anywhere;margin:0;'
    'font-family:Menlo,Consolas,Courier New,monospace;font-size:13px;line-height:1.4;"'
)
_IMG = 'style="display:block;width:100%;max-width:{w}px;height:auto;border:0;"'


def _page(language: str, title: str, body: str) -> str:
    return (
        f'<!DOCTYPE html>\n<html lang="{language}">\n<head><meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        '<meta name="color-scheme" content="light">\n'
        f"<title>{html.escape(title)}</title></head>\n<body {_BODY}>\n{body}</body>\n</html>\n"
    )


def _picture(src: str, alt: str, width: int, href: str | None = None) -> str:
    """A picture fitted to the width, linked to ``href`` (the picture itself by default)."""
    s = html.escape(src)
    link = html.escape(href or src)
    return (
        f'<p style="margin:12px 0 0 0;"><a href="{link}"><img src="{s}" alt="{html.escape(alt)}" '
        f'width="{width}" {_IMG.format(w=width)}></a></p>\n'
    )


def _nav(words: dict[str, str], home: str, prev: tuple[str, str] | None, nxt: tuple[str, str] | None) -> str:
    parts = [f'<a href="{home}">{html.escape(words["home"])}</a>']
    if prev:
        parts.append(f'<a href="{prev[1]}" title="{html.escape(words["previous"])}">← {html.escape(prev[0])}</a>')
    if nxt:
        parts.append(f'<a href="{nxt[1]}" title="{html.escape(words["next"])}">{html.escape(nxt[0])} →</a>')
    return '<p style="margin:8px 0;">' + " · ".join(parts) + "</p>\n"


def words_of(language: str) -> dict[str, str]:
    """The site's words in ``language`` (English for a language it does not know), by key."""
    lang = language if language in languages() else "en"
    return {key.removeprefix("classic.site."): keyed(lang, WORDS, key) for key in WORDS}


def phase_title(phase: Phase, language: str) -> str:
    """``Fall 1901 (retreats)`` for a person (``Automne 1901 (retraites)`` in French);
    the commands' own names (``fall-1901-retreats``) are for typing."""
    text = phase.words(language if language in languages() else "en")
    return text[:1].upper() + text[1:]
