"""A classic phase's reports: each power's private report and the public bulletin,
in text and HTML, in any language of the catalogue. They give the results with their reasons,
the supply centres per power, after the fall the builds or disbands owed, the
dislodged units and where they may retreat, and the map picture of the phase
(``map.png``, attached to the mail and shown inline in the HTML)."""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import msgspec
import yaml

from moonshine.engine import outcome as oc
from moonshine.errors import GameError
from moonshine.render import pages
from moonshine.text.catalogue import Catalogue, fill, fmt, keyed, languages, message_from_data
from moonshine.variants.classic.adjustments import adjustment_counts
from moonshine.variants.classic.board import ClassicMap
from moonshine.variants.classic.orders import restate
from moonshine.variants.classic.phases import Event
from moonshine.variants.classic.rules import WORDING, retreat_problem
from moonshine.variants.classic.state import ClassicState, Phase, Step

if TYPE_CHECKING:
    from moonshine.render.figures import Legend

WORDS: Catalogue = {
    "classic.report.report": "{board}: report of {power} for {phase}",
    "classic.report.bulletin": "{board}: bulletin of {phase}",
    "classic.report.your_results": "YOUR ORDERS AND THEIR RESULTS",
    "classic.report.results": "RESULTS",
    "classic.report.ok": "succeeded",
    "classic.report.fails": "failed",
    "classic.report.centres": "SUPPLY CENTRES",
    "classic.report.centre_row": "{power}: {centres}, {units}",
    "classic.report.counts": "{centres}, {units}",
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
    "classic.report.disorder_mark": "in civil disorder: orders written by the civil-disorder player, {player} (R26)",
    "classic.report.wins": (
        "{power} owns {n} supply centre and wins the game",
        "{power} owns {n} supply centres and wins the game",
    ),
    "classic.report.next": "Next phase: {phase}",
    "classic.report.winner": "The game is over: {power} wins.",
    "classic.report.map": "The map of the phase is attached ({map}).",
    "classic.report.map_closeup": "The map of the phase is attached ({map}), with a close-up of your area ({closeup}).",
    "classic.report.closeup_alt": "Close-up of {board}, {phase}: your provinces and their neighbours",
    "classic.report.closeup_caption": "Your provinces and their neighbours, larger; the whole map follows.",
    "classic.report.map_heading": "The map",
    "classic.report.map_alt": "Map of {board}, {phase}",
    "classic.report.legend": "Legend",
    "classic.report.legend_alt": "Legend of the map: what its colours, symbols and arrows mean",
    "classic.report.power": "Power",
    "classic.report.centres_col": "Centres",
    "classic.report.units_col": "Units",
    "classic.report.held": ("held: {units}", "held: {units}"),
    "classic.report.charts": "How the game is going",
    "classic.report.no_orders_movement": "No orders received: your units held.",
    "classic.report.no_orders_retreats": "No orders received: your dislodged units were disbanded.",
    "classic.report.no_orders_builds": "No orders received: the builds you were owed are lost.",
    "classic.report.no_orders_disbands": (
        "No orders received: the disbands you owed were made for you (civil disorder)."
    ),
    "classic.report.silent": "No orders received from {powers}.",
    "classic.report.no_order": "no order",
    "classic.report.unordered": "held; you gave it no order",
    "classic.report.unordered_public": "held; no order given",
    "classic.report.not_done": "Not carried out",
    "classic.report.unread_line": "line {n}, {text}: {reason}",
    "classic.report.nothing_ordered": "You had nothing to order in {phase}.",
    "classic.report.nothing_retreats": "nothing; you have no dislodged unit to retreat in {phase}.",
    "classic.report.nothing_adjustments": "nothing; you have no build or disband to make in {phase}.",
    "classic.report.chart_alt": "Supply centres of each power, phase by phase",
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


class ResultRow(msgspec.Struct, frozen=True):
    order: str  # in the notation of the reader's language
    succeeded: bool
    verdict: str  # "succeeded" / "failed"
    reason: str
    plain: bool = False  # a hold that nothing happened to: the HTML tells these in one line per power


class PowerBlock(msgspec.Struct, frozen=True):
    code: str
    name: str  # "England (ENG)"
    colour: str  # the power's colour on the map ("" for a board without a layout)
    rows: tuple[ResultRow, ...]
    disorder: str = ""  # its orders written by the civil-disorder player (R26): that, in a phrase

    @property
    def others(self) -> tuple[ResultRow, ...]:
        return tuple(r for r in self.rows if not r.plain)

    @property
    def held(self) -> tuple[str, ...]:
        """The units of the plain holds (``A BUD``)."""
        return tuple(r.order.rsplit(" ", 1)[0] for r in self.rows if r.plain)


class CentreRow(msgspec.Struct, frozen=True):
    code: str
    name: str
    colour: str
    centres: int
    units: int
    text: str  # "England (ENG): 4 centres, 3 units"


class Ignored(msgspec.Struct, frozen=True):
    power: str
    order: str
    reason: str


class Parts(msgspec.Struct, frozen=True, kw_only=True):
    """What a power's report (or the bulletin) says, already in its language: the text
    and the HTML are two layouts of these. ``silent``: the power sent no orders (its
    report), or the powers that sent none (the bulletin); ``nothing``: the power had
    nothing to order in the phase ("" otherwise)."""

    heading: str
    results_title: str
    blocks: tuple[PowerBlock, ...]
    ignored: tuple[Ignored, ...]
    silent: str = ""
    nothing: str = ""
    centres: tuple[CentreRow, ...]
    owed: tuple[str, ...] | None  # None: not an adjustment phase next
    dislodged: tuple[str, ...]
    notes: tuple[str, ...]
    closing: str  # the next phase, or the winner
    map_line: str


def _colours(gmap: ClassicMap) -> Mapping[str, str]:
    from moonshine.variants.classic.scene.layout import has_layout, layout_of

    return layout_of(gmap).colours if has_layout(gmap) else {}


def parts(
    gmap: ClassicMap,
    data: Mapping[str, Any],
    nxt: ClassicState,
    *,
    power: str | None,
    language: str,
    news: Sequence[str] = (),
    disorder: Mapping[str, str] | None = None,
) -> Parts:
    """A power's private report (``power``) or the bulletin (None), as values.
    ``news``: what the judge tells of the game (the phase ran early, a power in civil
    disorder, a pause: sentences in ``language``), first among the events; ``disorder``:
    the powers whose orders the civil-disorder player wrote, with its name (R26)."""
    lang = language if language in languages() else "en"
    phase = _label(str(data.get("phase", "")), lang)
    colours = _colours(gmap)

    def name(p: str) -> str:
        return f"{gmap.power_name(p, lang)} ({p})"

    if power is None:
        heading = word("bulletin", lang, board=gmap.info.title, phase=phase)
        results_title = word("results", lang)
    else:
        heading = word("report", lang, board=gmap.info.title, power=name(power), phase=phase)
        results_title = word("your_results", lang)
    results = data.get("results") or {}
    verdicts = {True: word("ok", lang), False: word("fails", lang)}
    unordered = data.get("unordered") or {}
    silent_powers = [str(p) for p in data.get("silent") or []]
    blocks = []
    for p in gmap.powers:
        if power is not None and p != power:
            continue
        raw = results.get(p)
        rows = _rows(raw, lang)
        if rows:
            plain = [_plain_hold(r) for r in raw or [] if isinstance(r, dict)]
            left = {f"{u} H" for u in unordered.get(p) or []}
            block = tuple(
                _unordered_row(order, reason, lang, power is not None)
                if str(row.get("order", "")) in left or (power is not None and p in silent_powers)
                else ResultRow(order, ok, verdicts[ok], reason, plain=hold)
                for (order, ok, reason), hold, row in zip(
                    rows, plain, [r for r in raw or [] if isinstance(r, dict)], strict=True
                )
            )
            mark = word("disorder_mark", lang, player=disorder[p]) if disorder and p in disorder else ""
            blocks.append(PowerBlock(p, name(p), colours.get(p, ""), block, mark))
    ignored = data.get("ignored") or {}
    mine = tuple(
        Ignored(p, order, reason)
        for p in gmap.powers
        if power in (None, p)
        for order, _, reason in _rows(ignored.get(p), lang)
    )
    if power is not None:  # the lines of its file that could not be read, in its own report only
        mine += tuple(
            _unread(u, lang) for u in data.get("unread") or [] if isinstance(u, dict) and u.get("power") == power
        )
    before = Phase.parse(str(data.get("phase"))) if _is_phase(data.get("phase")) else None
    silent = ""
    if power is not None and power in silent_powers and before is not None:
        silent = word(_silent_key(gmap, before, power, data), lang)
    elif power is None and silent_powers:
        silent = word("silent", lang, powers=", ".join(name(p) for p in silent_powers))
    nothing = ""
    if power is not None and not blocks and not mine and not silent and before is not None:
        nothing = word("nothing_ordered", lang, phase=before.in_sentence(lang))
    centres = []
    for p in gmap.powers:
        nc, nu = len(nxt.centres_of(p)), len(nxt.units_of(p))
        text = word(
            "centre_row",
            lang,
            power=name(p),
            centres=word("centres_n", lang, n=nc),
            units=word("units_n", lang, n=nu),
        )
        centres.append(CentreRow(p, name(p), colours.get(p, ""), nc, nu, text))
    owed: tuple[str, ...] | None = None
    if nxt.phase.step is Step.ADJUSTMENTS:
        counts = adjustment_counts(gmap, nxt.units, nxt.owners)
        owed = tuple(
            word("build_n" if n > 0 else "disband_n", lang, power=name(p), n=abs(n))
            for p, n in counts.items()
            if n and power in (None, p)
        )
    dislodged = tuple(
        word("retreat_to", lang, unit=label, power=p, options=", ".join(options))
        if options
        else word("no_retreat", lang, unit=label, power=p)
        for p, label, options in (retreat_options(gmap, nxt) if nxt.dislodged else [])
        if power in (None, p)
    )
    events = data.get("events")
    if isinstance(events, list):  # the events as values, worded in the reader's language
        try:
            notes = [event_text(gmap, Event.from_data(e), lang) for e in events]
        except (KeyError, TypeError, AttributeError) as exc:
            raise GameError(f"results: events: expected an event ({exc})") from None
    else:  # a results file written before the events were values: its English notes
        notes = [str(n) for n in data.get("notes") or []]
    closing = (
        word("winner", lang, power=name(nxt.winner)) if nxt.winner else word("next", lang, phase=nxt.phase.label(lang))
    )
    return Parts(
        heading=heading,
        results_title=results_title,
        blocks=tuple(blocks),
        ignored=mine,
        silent=silent,
        nothing=nothing,
        centres=tuple(centres),
        owed=owed,
        dislodged=dislodged if nxt.dislodged else (),
        notes=(*news, *notes),
        closing=closing,
        map_line=word("map", lang, map="map.png"),
    )


def _unordered_row(order: str, reason: str, language: str, own: bool) -> ResultRow:
    """A unit that held because its power gave it no order: said so, not "succeeded"."""
    note = word("unordered" if own else "unordered_public", language)
    return ResultRow(order, False, word("no_order", language), note)


def _unread(u: Mapping[str, Any], language: str) -> Ignored:
    """A line of the power's file that could not be read, and why, in ``language``."""
    from moonshine.render.classic.ack import word as ack_word

    raw = u.get("fields")
    fields: dict[str, object] = {str(k): v for k, v in raw.items()} if isinstance(raw, dict) else {}
    try:
        reason = ack_word(str(u.get("detail", "")), language, **fields)
    except (KeyError, IndexError, ValueError):
        reason = str(u.get("detail", ""))
    line = word("unread_line", language, n=u.get("line", ""), text=u.get("text", ""), reason=reason)
    return Ignored(str(u.get("power", "")), "", line)


def _is_phase(name: object) -> bool:
    try:
        Phase.parse(str(name))
    except ValueError:
        return False
    return True


def _silent_key(gmap: ClassicMap, phase: Phase, power: str, data: Mapping[str, Any]) -> str:
    """What a power that sent no orders is told happened, by the kind of phase."""
    if phase.step is Step.RETREATS:
        return "no_orders_retreats"
    if phase.step is Step.ADJUSTMENTS:
        raw = data.get("events")
        events: list[Any] = raw if isinstance(raw, list) else []
        disbanded = any(
            isinstance(e, dict) and e.get("event") == "civil_disorder" and e.get("power") == power for e in events
        )
        return "no_orders_disbands" if disbanded else "no_orders_builds"
    return "no_orders_movement"


def _plain_hold(row: Mapping[str, Any]) -> bool:
    """A hold that succeeded with nothing moving against it (its outcome says so)."""
    outcome = row.get("outcome")
    if row.get("result") != "succeeds" or not str(row.get("order", "")).endswith(" H") or not isinstance(outcome, dict):
        return False
    try:
        return oc.from_data(outcome) == oc.Held()
    except (ValueError, KeyError, TypeError):
        return False


def render_text(
    gmap: ClassicMap,
    data: Mapping[str, Any],
    nxt: ClassicState,
    *,
    power: str | None,
    language: str,
    summary: Sequence[tuple[str, str]] = (),
    image: str = "map.png",
    closeup: str = "",
    news: Sequence[str] = (),
    disorder: Mapping[str, str] | None = None,
) -> str:
    """A power's private report (``power``) or the bulletin (None), as text: first,
    for a power, what its player opens it for (``summary``: the next deadline, what to
    send, its centres; ``summary_rows``), then the results, what was not carried out,
    the centres, what is owed, the retreats and the events; no heading without
    content (``news``, ``disorder``: as ``parts``')."""
    from moonshine.text.wrap import wrap

    lang = language if language in languages() else "en"
    pt = parts(gmap, data, nxt, power=power, language=lang, news=news, disorder=disorder)
    colon = fmt(lang, "format.colon")  # "FRA : ..." in French
    out = [pt.heading, ""]
    for label, value in summary:
        out += wrap(label + colon + value, 74, indent="  ", hang="  ")
    if summary:
        out.append("")
    out.append(pt.results_title)
    if pt.silent:
        out += wrap(pt.silent, 74, indent="  ")
    if pt.nothing:
        out += wrap(pt.nothing, 74, indent="  ")
    width = max((len(r.verdict) for b in pt.blocks for r in b.rows), default=0)
    for b in pt.blocks:
        out.append(f"  {b.name} ({b.disorder})" if b.disorder else f"  {b.name}")
        for r in b.rows:
            out += wrap(f"{r.order:<28} {r.verdict:<{width}}  {r.reason}", 74, indent="    ", hang=" " * (31 + width))
    if pt.ignored:
        out += ["", f"  {word('not_done', lang)}"]
        for i in pt.ignored:
            text = i.reason if not i.order else f"{i.power}{colon}{i.order:<24} {i.reason}"
            out += wrap(text, 74, indent="    ", hang="  ")
    out += ["", word("centres", lang)]
    out += [f"  {c.text}" for c in pt.centres]
    if pt.owed is not None:
        out += ["", word("adjust", lang)]
        out += [f"  {o}" for o in pt.owed] or [f"  {word('nothing_owed', lang)}"]
    if pt.dislodged:
        out += ["", word("dislodged", lang)]
        out += [f"  {d}" for d in pt.dislodged]
    if pt.notes:
        out += ["", word("notes", lang)] + [f"  {n}" for n in pt.notes]
    out += ["", *wrap(pt.closing, 74)]
    if image:
        out += wrap(
            word("map_closeup", lang, map=image, closeup=closeup) if closeup else word("map", lang, map=image), 74
        )
    return "\n".join(out) + "\n"


def html_context(
    gmap: ClassicMap,
    data: Mapping[str, Any],
    nxt: ClassicState,
    *,
    power: str | None,
    language: str,
    image: str = "map.png",
    charts: Sequence[str] = (),
    legend: Legend | None = None,
    summary: Sequence[tuple[str, str]] = (),
    closeup: str = "",
    news: Sequence[str] = (),
    disorder: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """What the HTML pages of a phase show (``classic_report.html.j2``): a power's
    summary (``summary``: its next deadline, what to send, its centres) first, then
    the results of each power's units, the map and its legend (``legend``: the picture, shown
    with the map), the centres, what is owed, the retreats, the events, then the
    orders that were ignored."""
    from moonshine.render.figures import legend_figure

    lang = language if language in languages() else "en"
    pt = parts(gmap, data, nxt, power=power, language=lang, news=news, disorder=disorder)
    return {
        "lang": lang,
        "game_title": "",
        "p": pt,
        "image": image,
        "svg": "",  # a site's page links the zoomable picture beside the map
        "charts": list(charts),
        "w": {
            key.removeprefix("classic.report."): word(key.removeprefix("classic.report."), lang)
            for key in WORDS
            if not isinstance(WORDS[key], tuple) and "{" not in str(WORDS[key])
        },
        "held": {b.code: word("held", lang, units=", ".join(b.held), n=len(b.held)) for b in pt.blocks if b.held},
        "map_alt": word("map_alt", lang, phase=_label(str(data.get("phase", "")), lang), board=gmap.info.title),
        "legend": legend_figure(legend, word("legend", lang), word("legend_alt", lang)) if image else None,
        "summary": list(summary),
        "closeup": closeup if image else "",
        "closeup_alt": word("closeup_alt", lang, phase=_label(str(data.get("phase", "")), lang), board=gmap.info.title),
    }


def summary_rows(
    nxt: ClassicState, power: str, language: str, *, deadline: str = "", send_to: str = ""
) -> list[tuple[str, str]]:
    """The first rows of a power's report, what its player opens it for: the next
    phase's deadline (``deadline``, a sentence; "not set yet" when empty), what to send
    and where (``send_to``: the judge's address, else the game master), and the power's
    centres and units. None once the game is won, or for a power out of it (no unit,
    no centre)."""
    from moonshine.render import phrasebook

    if nxt.winner or not (nxt.units_of(power) or nxt.centres_of(power)):
        return []
    lang = language if language in languages() else "en"
    due, send = phrasebook.deadline_and_orders(lang, nxt.phase.in_sentence(lang), deadline=deadline, send_to=send_to)
    if nxt.phase.step is Step.RETREATS and not any(d.power == power for d in nxt.dislodged):
        send = word("nothing_retreats", lang, phase=nxt.phase.in_sentence(lang))
    elif nxt.phase.step is Step.ADJUSTMENTS and len(nxt.centres_of(power)) == len(nxt.units_of(power)):
        send = word("nothing_adjustments", lang, phase=nxt.phase.in_sentence(lang))
    say = functools.partial(phrasebook.message, lang)
    counts = word(
        "counts",
        lang,
        centres=word("centres_n", lang, n=len(nxt.centres_of(power))),
        units=word("units_n", lang, n=len(nxt.units_of(power))),
    )
    return [
        (say("summary.deadline"), due),
        (say("summary.send"), send),
        (word("centres_col", lang), counts),
    ]


def render_html(
    gmap: ClassicMap,
    data: Mapping[str, Any],
    nxt: ClassicState,
    *,
    power: str | None,
    language: str,
    image: str = "map.png",
    charts: Sequence[str] = (),
    legend: Legend | None = None,
    summary: Sequence[tuple[str, str]] = (),
    closeup: str = "",
    news: Sequence[str] = (),
    disorder: Mapping[str, str] | None = None,
) -> str:
    """The HTML version: tables that stack on a phone, the map fitted to the screen and
    linked to the full-size picture, dark mode; the stylesheet written into each
    element for mail programs (``inline_css``)."""
    ctx = html_context(
        gmap,
        data,
        nxt,
        power=power,
        language=language,
        image=image,
        charts=charts,
        legend=legend,
        summary=summary,
        closeup=closeup,
        news=news,
        disorder=disorder,
    )
    return pages.inline_css(pages.render("classic_report.html.j2", ctx))


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
    legends: Mapping[str, Legend] | None = None,
    summaries: Mapping[str, Sequence[tuple[str, str]]] | None = None,
    images: Mapping[str, str] | None = None,
    closeups: Mapping[str, str] | None = None,
    news: Sequence[str] = (),
    disorder: Mapping[str, str] | None = None,
) -> dict[str, str]:
    """File name -> text: ``POWER.txt``/``.html`` for each power, and the bulletin.
    ``power_languages``: the language of a power's report when its player reads
    another than ``language``; ``legends``: the picture of the map's legend in each
    language, shown under the map; ``summaries``: each power's first rows in its
    report's page (``summary_rows``); ``images``: the map a power's report shows, in
    its reader's language (``map.fr.png``; ``image`` for the others); ``closeups``:
    each power's close-up of its area, shown first; ``news``: the bulletin's news of
    the game; ``disorder``: the powers whose orders the civil-disorder player wrote
    (R26)."""
    out: dict[str, str] = {}
    shown = legends or {}
    for p in powers if powers is not None else list(gmap.powers):
        own = (power_languages or {}).get(p, language)
        first = (summaries or {}).get(p, ())
        mine = (images or {}).get(p, image)
        near = (closeups or {}).get(p, "")
        out[f"{p}.txt"] = render_text(
            gmap,
            data,
            nxt,
            power=p,
            language=own,
            summary=first,
            image=mine if image else "",
            closeup=near,
            disorder=disorder,
        )
        out[f"{p}.html"] = render_html(
            gmap,
            data,
            nxt,
            power=p,
            language=own,
            image=mine if image else "",
            legend=shown.get(own),
            summary=first,
            closeup=near,
            disorder=disorder,
        )
    if bulletin:
        out["bulletin.txt"] = render_text(gmap, data, nxt, power=None, language=language, news=news, disorder=disorder)
        out["bulletin.html"] = render_html(
            gmap,
            data,
            nxt,
            power=None,
            language=language,
            image=image,
            charts=charts,
            legend=shown.get(language),
            news=news,
            disorder=disorder,
        )
    return out
