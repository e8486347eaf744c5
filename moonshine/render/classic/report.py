"""A classic phase's reports: each power's private report and the public bulletin,
in text and HTML, in any language of the catalogue. They give the results with their reasons,
the supply centres per power, after the fall the builds or disbands owed, the
dislodged units and where they may retreat, and the map picture of the phase
(``map.png``, attached to the mail and shown inline in the HTML)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import yaml

from moonshine.engine import outcome as oc
from moonshine.errors import GameError
from moonshine.render import pages
from moonshine.text.catalogue import Catalogue, fill, keyed, languages, message_from_data
from moonshine.variants.classic.adjustments import adjustment_counts
from moonshine.variants.classic.board import ClassicMap
from moonshine.variants.classic.orders import restate
from moonshine.variants.classic.phases import Event
from moonshine.variants.classic.rules import WORDING, retreat_problem
from moonshine.variants.classic.state import ClassicState, Phase, Step

WORDS: Catalogue = {
    "classic.report.report": "{board}: report of {power} for {phase}",
    "classic.report.bulletin": "{board}: bulletin of {phase}",
    "classic.report.your_results": "YOUR ORDERS AND THEIR RESULTS",
    "classic.report.results": "RESULTS",
    "classic.report.ignored": "Orders ignored",
    "classic.report.ok": "succeeded",
    "classic.report.fails": "failed",
    "classic.report.centres": "SUPPLY CENTRES",
    "classic.report.centre_row": "{power}: {centres}, {units}",
    "classic.report.centres_n": ("{n} centre", "{n} centres"),
    "classic.report.units_n": ("{n} unit", "{n} units"),
    "classic.report.adjust": "BUILDS AND DISBANDS OWED",
    "classic.report.build_n": "{power} may build {n}",
    "classic.report.disband_n": "{power} must disband {n}",
    "classic.report.nothing_owed": "No power builds or disbands.",
    "classic.report.dislodged": "DISLODGED UNITS",
    "classic.report.retreat_to": "{unit} ({power}) may retreat to: {options}",
    "classic.report.no_retreat": "{unit} ({power}) has nowhere to retreat: it is disbanded",
    "classic.report.notes": "EVENTS",
    "classic.report.taken": "{province} taken by {power}",
    "classic.report.taken_from": "{province} taken by {power} from {before}",
    "classic.report.civil_disorder": "{power}: {unit} disbanded in civil disorder",
    "classic.report.wins": "{power} owns {n} supply centres and wins the game",
    "classic.report.next": "Next phase: {phase}",
    "classic.report.winner": "The game is over: {power} wins.",
    "classic.report.map": "The map of the phase is attached (map.png).",
}


def word(key: str, language: str, **values: object) -> str:
    return fill(language, keyed(language, WORDS, f"classic.report.{key}", values.get("n")), **values)


def event_text(gmap: ClassicMap, event: Event, language: str) -> str:
    """An event between phases in the reader's language, with the board's names in it."""
    lang = language if language in languages() else "en"
    power = gmap.power_name(event.power, lang)
    if event.kind == "taken":
        province = f"{gmap.province_name(event.province, lang)} ({event.province})"
        if event.before:
            return word("taken_from", lang, province=province, power=power, before=gmap.power_name(event.before, lang))
        return word("taken", lang, province=province, power=power)
    if event.kind == "wins":
        return word("wins", lang, power=power, n=event.centres)
    return word("civil_disorder", lang, power=power, unit=event.unit)


def _label(phase: str, language: str) -> str:
    try:
        return Phase.parse(phase).label(language)
    except ValueError:
        return phase


def load_results(path: Path) -> dict[str, Any]:
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise GameError(f"{path}: the phase is not adjudicated yet (run 'moonshine adjudicate')") from None
    except (OSError, yaml.YAMLError) as exc:
        raise GameError(f"{path}: cannot read the results ({exc})") from None
    if not isinstance(data, dict):
        raise GameError(f"{path}: expected the results of a phase")
    return data


def retreat_options(gmap: ClassicMap, nxt: ClassicState) -> list[tuple[str, str, list[str]]]:
    """Each dislodged unit (power, label) and the provinces it may retreat to."""
    occupied = {u.province for u in nxt.units}
    out = []
    for d in nxt.dislodged:
        options = []
        for prov in sorted(gmap.near.get(d.unit.province, ())):
            for dest in gmap.fleet_regions(prov) if d.kind.value == "F" else (prov,):
                why, _ = retreat_problem(gmap, d, dest, occupied, set(nxt.contested))
                if why is None:
                    options.append(dest)
        out.append((d.power, d.label(), options))
    return out


def _rows(rows: Any, language: str) -> list[tuple[str, bool, str]]:
    """Each result: the order in the notation of ``language``, whether it succeeded,
    and its reason in ``language``, explained from the outcome the file stores (a
    file without one gives its English)."""
    out = []
    for r in rows or []:
        if isinstance(r, dict):
            reason = str(r.get("reason", ""))
            try:
                if isinstance(r.get("outcome"), dict):
                    reason = oc.explain(oc.from_data(r["outcome"]), language, WORDING)
                elif isinstance(r.get("message"), dict):
                    reason = message_from_data(r["message"]).text(language)
            except (ValueError, KeyError, TypeError, AttributeError) as exc:
                raise GameError(f"results: {r.get('order', '')}: expected an outcome ({exc})") from None
            out.append((restate(str(r.get("order", "")), language), r.get("result") == "succeeds", reason))
    return out


def render_text(
    gmap: ClassicMap,
    data: Mapping[str, Any],
    nxt: ClassicState,
    *,
    power: str | None,
    language: str,
) -> str:
    """A power's private report (``power``) or the bulletin (None), as text."""
    lang = language if language in languages() else "en"
    phase = _label(str(data.get("phase", "")), lang)

    def name(p: str) -> str:
        return f"{gmap.power_name(p, lang)} ({p})"

    if power is None:
        out = [word("bulletin", lang, board=gmap.info.title, phase=phase), ""]
        out.append(word("results", lang))
    else:
        out = [word("report", lang, board=gmap.info.title, power=name(power), phase=phase), ""]
        out.append(word("your_results", lang))
    results = data.get("results") or {}
    for p in gmap.powers:
        if power is not None and p != power:
            continue
        rows = _rows(results.get(p), lang)
        if not rows:
            continue
        out.append(f"  {name(p)}")
        verdicts = {True: word("ok", lang), False: word("fails", lang)}
        width = max(len(v) for v in verdicts.values())
        for order, ok, reason in rows:
            out.append(f"    {order:<28} {verdicts[ok]:<{width}}  {reason}")
    ignored = data.get("ignored") or {}
    mine = [(p, r) for p in gmap.powers if power in (None, p) for r in _rows(ignored.get(p), lang)]
    if mine:
        out += ["", f"  {word('ignored', lang)}"]
        for p, (order, _, reason) in mine:
            out.append(f"    {p}: {order:<24} {reason}")
    out += ["", word("centres", lang)]
    for p in gmap.powers:
        centres = word("centres_n", lang, n=len(nxt.centres_of(p)))
        units = word("units_n", lang, n=len(nxt.units_of(p)))
        out.append(f"  {word('centre_row', lang, power=name(p), centres=centres, units=units)}")
    if nxt.phase.step is Step.ADJUSTMENTS:
        out += ["", word("adjust", lang)]
        counts = adjustment_counts(gmap, nxt.units, nxt.owners)
        owed = [(p, n) for p, n in counts.items() if n and power in (None, p)]
        for p, n in owed:
            key = "build_n" if n > 0 else "disband_n"
            out.append(f"  {word(key, lang, power=name(p), n=abs(n))}")
        if not owed:
            out.append(f"  {word('nothing_owed', lang)}")
    if nxt.dislodged:
        out += ["", word("dislodged", lang)]
        for p, label, options in retreat_options(gmap, nxt):
            if power not in (None, p):
                continue
            if options:
                out.append(f"  {word('retreat_to', lang, unit=label, power=p, options=', '.join(options))}")
            else:
                out.append(f"  {word('no_retreat', lang, unit=label, power=p)}")
    events = data.get("events")
    if isinstance(events, list):  # the events as values, worded in the reader's language
        try:
            notes = [event_text(gmap, Event.from_data(e), lang) for e in events]
        except (KeyError, TypeError, AttributeError) as exc:
            raise GameError(f"results: events: expected an event ({exc})") from None
    else:  # a results file written before the events were values: its English notes
        notes = [str(n) for n in data.get("notes") or []]
    if notes:
        out += ["", word("notes", lang)] + [f"  {n}" for n in notes]
    out.append("")
    if nxt.winner:
        out.append(word("winner", lang, power=name(nxt.winner)))
    else:
        out.append(word("next", lang, phase=nxt.phase.label(lang)))
    out.append(word("map", lang))
    return "\n".join(out) + "\n"


def render_html(text: str, *, image: str, language: str, charts: Sequence[str] = ()) -> str:
    """The HTML version: the text's lines, wrapped to the screen's width (a phone's
    too), and the map picture fitted to it, linked to the full-size picture."""
    lines = text.rstrip("\n").split("\n")
    ctx = dict(lang=language, title=lines[0], body="\n".join(lines[1:]), image=image, charts=list(charts))
    return pages.render("classic_report.html.j2", ctx)


def render_all(
    gmap: ClassicMap,
    data: Mapping[str, Any],
    nxt: ClassicState,
    *,
    language: str,
    powers: Sequence[str] | None = None,
    bulletin: bool = True,
    image: str = "map.png",
    charts: Sequence[str] = (),
    power_languages: Mapping[str, str] | None = None,
) -> dict[str, str]:
    """File name -> text: ``POWER.txt``/``.html`` for each power, and the bulletin.
    ``power_languages``: the language of a power's report when its player reads
    another than ``language``."""
    out: dict[str, str] = {}
    for p in powers if powers is not None else list(gmap.powers):
        own = (power_languages or {}).get(p, language)
        text = render_text(gmap, data, nxt, power=p, language=own)
        out[f"{p}.txt"] = text
        out[f"{p}.html"] = render_html(text, image=image, language=own)
    if bulletin:
        text = render_text(gmap, data, nxt, power=None, language=language)
        out["bulletin.txt"] = text
        out["bulletin.html"] = render_html(text, image=image, language=language, charts=charts)
    return out
