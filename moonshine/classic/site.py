"""A classic-family game's public record as a static web site (``moonshine site``).

One page per adjudicated phase (the phase's public bulletin and its map, with
links to the phases before and after), and an index with the timeline of the
phases, the latest map and the chart of the supply centres per power. Only the
bulletin goes in, never a power's report; the pages link to each other by
relative paths, so the site opens from ``file://`` as from any static host.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from moonshine.classic.state import Phase, Step

if TYPE_CHECKING:
    from moonshine.classic.board import ClassicMap

WORDS = {
    "en": {
        "home": "The game",
        "phases": "The phases",
        "latest": "Latest phase",
        "charts": "How the game went",
        "previous": "Previous phase",
        "next": "Next phase",
        "svg": "The map as SVG (zoom without limit)",
        "public": "The public record of the game: bulletins, maps and the chart of the supply centres.",
    },
    "fr": {
        "home": "La partie",
        "phases": "Les phases",
        "latest": "Dernière phase",
        "charts": "Le cours de la partie",
        "previous": "Phase précédente",
        "next": "Phase suivante",
        "svg": "La carte en SVG (zoom sans limite)",
        "public": "Les archives publiques de la partie : bulletins, cartes et graphique des centres.",
    },
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


def phase_title(phase: Phase, language: str) -> str:
    """``Fall 1901 (retreats)`` for a person (``Automne 1901 (retraites)`` in French);
    the commands' own names (``fall-1901-retreats``) are for typing."""
    if language == "fr":
        text = phase.label("fr")
        return text[:1].upper() + text[1:]
    text = f"{phase.season.value.capitalize()} {phase.year}"
    return text + " (retreats)" if phase.step is Step.RETREATS else text


def adjudicated_phases(root: Path) -> list[str]:
    """The phases with results, oldest first."""
    from moonshine.classic.layout import phases

    return [p for p in phases(root) if (root / "turns" / p / "results.yaml").is_file()]


def build_site(
    root: Path, gmap: ClassicMap, done: Sequence[str], title: str, out: Path, *, language: str
) -> list[Path]:
    """Write the site of the classic-family game at ``root``, whose adjudicated phases
    are ``done`` (oldest first), into the folder ``out``; returns the files written."""
    from moonshine import charts
    from moonshine.classic.game import centres_chart
    from moonshine.classic.layout import load_state
    from moonshine.classic.report import load_results, render_text, word
    from moonshine.gamedir import atomic_write_bytes, atomic_write_text

    words = WORDS.get(language, WORDS["en"])
    labels = {p: phase_title(Phase.parse(p), language) for p in done}
    written: list[Path] = []
    last_next = None
    for i, phase in enumerate(done):
        data = load_results(root / "turns" / phase / "results.yaml")
        nxt = load_state(root, str(data.get("next", "")), gmap)
        last_next = nxt
        page = out / "turns" / phase
        pictures: list[str] = []
        for picture in ("map.png", "map.svg"):
            src = root / "turns" / phase / picture
            if src.is_file():
                atomic_write_bytes(page / picture, src.read_bytes())
                written.append(page / picture)
                pictures.append(picture)
        text = render_text(gmap, data, nxt, power=None, language=language)
        lines = text.rstrip("\n").split("\n")
        attached = word("map", language)  # the mail's "the map is attached": on the site it is shown
        body_lines = [ln for ln in lines[1:] if ln != attached]
        prev = (labels[done[i - 1]], f"../{done[i - 1]}/index.html") if i else None
        after = (labels[done[i + 1]], f"../{done[i + 1]}/index.html") if i + 1 < len(done) else None
        nav = _nav(words, "../../index.html", prev, after)
        body = nav + f"<h1 {_H1}>{html.escape(lines[0])}</h1>\n"
        body += f"<pre {_PRE}>{html.escape(chr(10).join(body_lines))}</pre>\n"
        if "map.png" in pictures:
            body += _picture("map.png", f"{gmap.info.title}, {labels[phase]}", 672)
        if "map.svg" in pictures:
            body += f'<p><a href="map.svg">{html.escape(words["svg"])}</a></p>\n'
        body += nav
        atomic_write_text(page / "index.html", _page(language, lines[0], body))
        written.append(page / "index.html")
    assert last_next is not None
    chart = centres_chart(root, gmap, last_next, language)
    atomic_write_bytes(out / "centres.png", charts.png(chart))
    atomic_write_text(out / "centres.svg", charts.svg(chart))
    written += [out / "centres.png", out / "centres.svg"]
    latest = done[-1]
    body = f"<h1 {_H1}>{html.escape(title)}</h1>\n"
    body += f'<p style="color:#555555;">{html.escape(words["public"])}</p>\n'
    body += f"<h2 {_H2}>{html.escape(words['latest'])}: {html.escape(labels[latest])}</h2>\n"
    if (out / "turns" / latest / "map.png").is_file():
        body += _picture(f"turns/{latest}/map.png", labels[latest], 672, href=f"turns/{latest}/index.html")
    body += f"<h2 {_H2}>{html.escape(words['phases'])}</h2>\n<ol>\n"
    body += "".join(f'<li><a href="turns/{p}/index.html">{html.escape(labels[p])}</a></li>\n' for p in done)
    body += "</ol>\n"
    body += f"<h2 {_H2}>{html.escape(words['charts'])}</h2>\n"
    body += _picture("centres.png", chart.title, 640, href="centres.svg")
    atomic_write_text(out / "index.html", _page(language, title, body))
    written.insert(0, out / "index.html")
    return written
