"""A Moonshine turn's pages: each gang's private report, in text and HTML, English
or French (its context for the templates: the order lines as read, the receipt, the
results, the ledger, VP and rank, the position and what comes next), and every page
of the turn at once with the bulletin (``moonshine.render.bulletin``), from the map,
the game's settings, the turn's results (``moonshine.variants.moonshine.results``)
and the next turn's opening state. Pure: the pages are laid out by the templates
(``moonshine.render.pages``); ``moonshine.game.reports`` writes them into the game.

Privacy (R19): unit orders and their results, raids, control, VP and who corrupts
which station are public; a gang's order lines, sales, bids, stocks, ledger and cash
appear in its own report only."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import msgspec

from moonshine.engine import outcome as oc
from moonshine.errors import GameError
from moonshine.render import pages, phrasebook, receipts
from moonshine.render.bulletin import SeedNews, render_bulletin
from moonshine.render.figures import MAP_FILE, Legend, legend_figure
from moonshine.render.raids import raid_done_to, raid_effects_for, raid_sentence
from moonshine.render.turnpage import (
    OrderRow,
    Settings,
    Standing,
    TextRow,
    Words,
    common,
    dislodged_text,
    district,
    gang_name,
    order_row,
    standings,
    station,
    winner_line,
)
from moonshine.text.catalogue import named
from moonshine.text.money import Money
from moonshine.variants.moonshine import scoring, story
from moonshine.variants.moonshine.calendar import Turn
from moonshine.variants.moonshine.map import UPKEEP, Feature, GameMap
from moonshine.variants.moonshine.orders import restate
from moonshine.variants.moonshine.results import (
    AdjustmentRecord,
    GangResults,
    LedgerRecord,
    LineRecord,
    Text,
    TurnResults,
    UnitResult,
    as_results,
    check_results,
)
from moonshine.variants.moonshine.state import Arrested, GameState


class Extras(msgspec.Struct, frozen=True):
    """What a gang's report says that the turn's results do not hold: the next
    deadline (its date and the time left, already in the reader's words and time
    zone, "" when none is set), the judge's address for orders ("" when the game has no mail), and the
    pictures beside the report (the map in the reader's language, the close-up of
    the gang's area, "" when there is none, the map's legend in the reader's
    language)."""

    deadline: str = ""
    send_to: str = ""
    map_file: str = MAP_FILE
    closeup: str = ""
    legend: Legend | None = None
    disorder_player: str = ""  # its orders written by the civil-disorder player (R26): its name
    disorder_seed: str = ""  # ... and the seed it drew from


class LineRow(msgspec.Struct, frozen=True):
    number: int
    text: str
    understood: str
    status: str  # translated
    message: str  # translated
    accepted: bool  # accepted, or a header line
    note: str  # what the text report says under the line ("" when read exactly as written)


class Row(msgspec.Struct, frozen=True):
    label: str
    value: str
    op: str = ""  # "+", "-", "=" or ""


class VPRow(msgspec.Struct, frozen=True):
    label: str
    count: int
    vp: int


class DistrictRow(msgspec.Struct, frozen=True):
    code: str
    name: str
    feature: str
    station: str
    crates: str  # warehouse stock after the opening raid, "" otherwise

    @property
    def detail(self) -> str:
        return ", ".join(x for x in (self.feature, self.crates, self.station) if x)


def _line_row(w: Words, ln: LineRecord) -> LineRow:
    ok = ln.status in ("accepted", "header")
    old = ln.translations.get(w.language) or ln.message  # a file of an earlier version
    message = old if ln.reason is None else ln.reason.text(w.language)
    written = ln.text.split("#")[0].strip()
    understood = restate(ln.understood, w.language)
    if ln.status == "header":
        note = message
    elif ok:
        same = written in ("", ln.understood, understood)  # what was written reads as it is
        bits = [] if same or not understood else [f"{w('orders.understood')} {understood}"]
        note = w.semi.join([*bits, message] if message else bits)
    else:
        note = w.word(ln.status) + (w.colon + message if message else "")
        note += f" ({understood})" if understood else ""
    return LineRow(ln.number, ln.text.strip(), understood, w.word(ln.status), message, ok, note)


def _unit_of_line(ln: LineRecord) -> str | None:
    """The unit a unit order's line names (``H IRV`` for ``H IRV - LIP``, ``L EDG /
    H IRV - ALB``); None for a line of another kind (sell, bribe, retreat, recruit...)
    or one that could not be read."""
    words = ln.understood.split()
    if len(words) >= 2 and words[0] in ("H", "L") and len(words[1]) == 3 and words[1].isupper():
        return f"{words[0]} {words[1]}"
    return None


class Refusal(msgspec.Struct, frozen=True):
    """A line of the orders file that was not carried out: its number, its text (as
    understood, in the reader's notation, else as written), its fate and why."""

    number: int
    order: str
    status: str  # translated: "rejected", "replaced"
    reason: str  # translated

    def line(self, w: Words) -> str:
        """``line 3, H IRV - LIP: rejected: LIP is not next to IRV...``"""
        return w("orders.not_done_line", n=self.number, order=self.order, status=self.status, reason=self.reason)


def _refusals(w: Words, gr: GangResults) -> list[tuple[str | None, Refusal]]:
    """Every line of the gang's file that was not carried out (rejected, replaced),
    with the unit whose order it was (None when it is not a unit's order)."""
    out = []
    for ln in gr.lines:
        if ln.status in ("accepted", "header", "comment", "blank"):
            continue
        old = ln.translations.get(w.language) or ln.message
        reason = old if ln.reason is None else ln.reason.text(w.language)
        order = restate(ln.understood, w.language) if ln.understood else ln.text.split("#")[0].strip()
        out.append((_unit_of_line(ln), Refusal(ln.number, order, w.word(ln.status), reason)))
    return out


def unit_rows(w: Words, gr: GangResults) -> tuple[list[OrderRow], list[Refusal]]:
    """A gang's units and what each did, told truthfully: a unit whose order was
    refused says so and what it did instead ("held; your order H IRV - LIP was
    refused: ..."), a unit its file gave no order says it held for that (R12); and
    the lines not carried out that are no unit's order (a refused sell, an unreadable
    line, an order replaced by a later one)."""
    submitted = gr.orders_file is not None
    ordered = {u for u in (_unit_of_line(ln) for ln in gr.lines if ln.status == "accepted") if u}
    refused: dict[str, list[Refusal]] = {}
    others: list[Refusal] = []
    for unit, r in _refusals(w, gr):
        if unit is not None and r.status == w.word("rejected") and any(u.unit == unit for u in gr.units):
            refused.setdefault(unit, []).append(r)
        else:
            others.append(r)
    rows = []
    for u in gr.units:
        row = order_row(w, u)
        mine = refused.get(u.unit, [])
        if u.unit in ordered or isinstance(u.outcome, oc.Recruited):  # a recruit holds, ordered or not (R18)
            notes = [w("orders.refused_later", order=r.order, n=r.number, reason=r.reason) for r in mine]
            if notes:
                row = msgspec.structs.replace(row, reason=w.semi.join([row.reason, *notes]))
            rows.append(row)
            continue
        if mine:
            word = w.word("rejected")
            notes = [w("orders.refused_held", order=r.order, reason=r.reason) for r in mine]
        elif submitted:
            word, notes = w("orders.no_order"), [w("orders.unordered")]
        else:
            word, notes = w("orders.no_order"), []
        reason = w.semi.join([row.reason, *notes])
        rows.append(OrderRow(row.order, False, word, reason, row.order + w.then + reason))
    return rows, others


def _plain(u: UnitResult) -> bool:
    """A unit that held with nothing moving against it."""
    return isinstance(u.outcome, oc.Held) and not u.outcome.against


def happened_to(
    gmap: GameMap, w: Words, res: TurnResults, before: GameState | None, nxt: GameState, gang: str
) -> list[str]:
    """What the turn did to the gang, each loss named, for the first screen of its
    report: this turn's raid (units arrested, crates seized, a speakeasy closed, a
    supply zone dry), the districts and stations it lost (with the opening state
    ``before``), the crates it lost with its warehouses."""
    out = raid_done_to(gmap, res.raid, gang, res.next.turn, w)
    if before is not None:
        for c in story.story(gmap, before, res, nxt).changes:
            if c.before != gang:
                continue
            if c.station:
                where = station(gmap, c.code, w.language)
                if c.after is None:
                    out.append(w("happened.station_freed", station=where, code=c.code))
                else:
                    after = gang_name(gmap, c.after, w.language)
                    out.append(w("happened.station_lost", station=where, code=c.code, gang=after))
            elif c.after is None:
                out.append(w("happened.lost_neutral", district=district(gmap, c.code, w.language)))
            else:
                out.append(
                    w(
                        "happened.lost",
                        district=district(gmap, c.code, w.language),
                        gang=gang_name(gmap, c.after, w.language),
                    )
                )
    gr = res.gangs.get(gang)
    if gr is not None and gr.ledger.captured_from:
        out.append(w("happened.captured_from", n=gr.ledger.captured_from))
    return out


def _returns_of(res: TurnResults, gang: str) -> list[Text]:
    return [note for g, note in res.next.returns if g == gang]


def _ledger_rows(w: Words, lg: LedgerRecord, price: Money) -> tuple[list[Row], list[Row], str]:
    crates = [
        Row(w("crates.before_raid"), str(lg.before_raid)),
        Row(w("crates.seized"), str(lg.seized), "-"),
        Row(w("crates.at_start"), str(lg.at_start), "="),
        Row(w("crates.captured"), str(lg.captured), "+"),
        Row(w("crates.captured_from"), str(lg.captured_from), "-"),
        Row(w("crates.produced"), str(lg.produced), "+"),
        Row(w("crates.looted"), str(lg.looted), "+"),
        Row(w("crates.held"), str(lg.held), "="),
        Row(w("crates.sold", capacity=lg.capacity), str(lg.sold), "-"),
        Row(w("crates.lost"), str(lg.lost), "-"),
        Row(w("crates.stored"), str(sum(lg.stored.values())), "="),
    ]
    dollars_rows = [
        Row(w("dollars.start"), w.money(lg.cash_start)),
        Row(w("dollars.upkeep"), w.money(lg.upkeep), "-"),
        Row(w("dollars.recruits"), w.money(lg.recruits), "-"),
        Row(w("dollars.bribes"), w.money(lg.bribes), "-"),
        Row(w("dollars.revenue", n=lg.sold, price=w.money(price)), w.money(lg.revenue), "+"),
        Row(w("dollars.end"), w.money(lg.cash_end), "="),
    ]
    stored = ", ".join(f"{d} {n}" for d, n in lg.stored.items())
    return crates, dollars_rows, stored


def _vp_rows(w: Words, s: Standing) -> list[VPRow]:
    return [
        VPRow(w("vp.districts"), s.others, s.others),
        VPRow(w("vp.speakeasies"), s.speakeasies, 2 * s.speakeasies),
        VPRow(w("vp.supply"), s.supply, 3 * s.supply),
        VPRow(w("vp.stations"), s.stations, scoring.CORRUPTION_VP * s.stations),
        VPRow(w("vp.assaults"), s.assaults, scoring.ASSAULT_VP * s.assaults),
    ]


def _arrested_row(gmap: GameMap, w: Words, a: Arrested, back: str) -> str:
    unit = f"{a.kind.value} ({phrasebook.kind_label(w.language, a.kind)})"
    return w(
        "position.arrested_row",
        unit=unit,
        taken_in=a.taken_in,
        station=station(gmap, a.station, w.language),
        turn=w.turn(back),
        turn_of=w.turn_of(back),
        code=a.station,
    )


def _receipt(seed: str | None, turn: str, gang: str, gr: GangResults) -> dict[str, Any] | None:
    """The receipt of a gang's recorded orders, with the salt and the orders it
    covers, so the player can check it against the acknowledgement."""
    if seed is None or gr.orders_file is None:
        return None
    orders = [ln.understood for ln in gr.lines if ln.status == "accepted" and ln.understood]
    salt = receipts.salt(seed, turn, gang)
    return {"code": receipts.receipt(salt, orders), "salt": salt, "orders": orders}


def report_context(
    gmap: GameMap,
    config: Settings,
    data: TurnResults | Mapping[str, Any],
    nxt: GameState,
    gang: str,
    *,
    language: str | None = None,
    for_email: bool = False,
    seed: str | None = None,
    extras: Extras | None = None,
    before: GameState | None = None,
) -> dict[str, Any]:
    """Everything one gang's private report shows, already in its language. With the
    game's secret ``seed``, the receipt of the gang's recorded orders and its salt;
    ``extras``: the next deadline, where to send orders, the pictures' names;
    ``before``: the turn's opening state (the districts the gang lost are named)."""
    res = as_results(data)
    check_results(gmap, res)
    if gang not in gmap.gangs:
        raise GameError(f"unknown gang {gang!r} (gangs: {', '.join(gmap.gangs)})")
    w = Words(phrasebook.check_language(language or config.language))
    g = gmap.gangs[gang]
    gr = res.gangs.get(gang) or GangResults(gang, None, (), (), (), (), (), LedgerRecord(), res.vp.get(gang, 0))
    back = Turn.parse(res.next.turn).next().name
    crates, dollar_rows, stored = _ledger_rows(w, gr.ledger, res.price)
    every = standings(gmap, res, nxt)
    standing = next(s for s in every if s.key == gang)

    units = sorted(nxt.units_of(gang), key=lambda u: (gmap.districts[u.district].area, u.kind.value))
    districts = []
    for code in gmap.map_order(nxt.controlled_by(gang)):
        d = gmap.districts[code]
        crates_here = ""
        if d.feature is Feature.WAREHOUSE:
            crates_here = w("position.crates", n=nxt.stocks.get(code, 0))
        districts.append(
            DistrictRow(
                code,
                named(w.language, "map.district", d.name),
                phrasebook.feature_label(w.language, d.feature),
                station(gmap, code, w.language) if d.station else "",
                crates_here,
            )
        )
    arrested = [a for a in nxt.arrested if a.gang == gang]
    rows, not_done = unit_rows(w, gr)
    no_file = gr.orders_file is None
    plain = [u.unit for u in gr.units if no_file and _plain(u)]
    upkeep_units = len(units) + len(arrested)
    player = None if config.anonymous else config.players.get(gang)  # an anonymous game's report names nobody
    ctx = common(gmap, config, res, w, for_email)
    more = extras or Extras()
    the_next = phrasebook.the_turn(w.language, res.next.turn)  # "Spring 1925", "le printemps 1925"
    rank = 1 + sum(1 for s in every if s.vp > gr.vp)
    deadline, send = phrasebook.deadline_and_orders(w.language, the_next, deadline=more.deadline, send_to=more.send_to)
    ctx.update(
        {
            "map_src": ("cid:" if for_email else "") + more.map_file,
            "map_svg": "" if for_email else more.map_file.removesuffix(".png") + ".svg",
            "closeup_src": ("cid:" if for_email else "") + more.closeup if more.closeup else "",
            # the close-up's zoomable version is the whole map's SVG
            "closeup_svg": "" if for_email or not more.closeup else more.map_file.removesuffix(".png") + ".svg",
            "legend": legend_figure(more.legend, w("map.legend"), w("map.legend_alt"), for_email=for_email),
            "deadline": deadline,
            "send": send,
            "vp_rank": w("summary.vp_rank", vp=gr.vp, rank=rank, n=len(every), goal=scoring.VICTORY_VP),
            "gang": {"key": gang, "name": g.name, "colour": g.colour},
            "player": player.name if player is not None else "",
            "orders_file": gr.orders_file,
            "civil_disorder": (
                w("report.civil_disorder", player=more.disorder_player, seed=more.disorder_seed)
                if more.disorder_player
                else ""
            ),
            "lines": [_line_row(w, ln) for ln in gr.lines],
            "receipt": _receipt(seed, res.turn, gang, gr),
            # a gang that sent nothing: its units that simply held in one line, the others row by row
            "units": [r for r, u in zip(rows, gr.units, strict=True) if not (no_file and _plain(u))],
            "held": w("orders.held", n=len(plain), units=", ".join(plain)) if plain else "",
            "not_done": [r.line(w) for r in not_done],
            "no_orders": gr.orders_file is None and bool(gr.units),
            "happened": happened_to(gmap, w, res, before, nxt, gang),
            "dislodged": [TextRow(d.unit, dislodged_text(w, d)) for d in gr.dislodged],
            "adjustments": [_adjustment_row(w, a) for a in gr.adjustments],
            "bids": [
                {
                    "station": f"{b.station} ({station(gmap, b.station, w.language)})",
                    "paid": w.money(b.paid),
                    "won": b.won,
                    "outcome": w("bids.won" if b.won else "bids.lost"),
                    "reason": w.reason(b.reason),
                }
                for b in gr.bids
            ],
            "crates": crates,
            "stored": stored,
            "dollars": dollar_rows,
            "balanced": gr.ledger.balanced,
            "notes": [w.reason(n) for n in gr.ledger.notes],
            "vp_rows": _vp_rows(w, standing),
            "vp": gr.vp,
            "vp_goal": scoring.VICTORY_VP,
            "cash": w.money(nxt.cash.get(gang, 0)),
            "upkeep": w("position.upkeep", amount=w.money(UPKEEP * upkeep_units), n=upkeep_units),
            "position_units": [f"{u.kind.value} {u.district}" for u in units],
            "districts": districts,
            "stations": [
                f"{s} ({station(gmap, s, w.language)})"
                for s in gmap.map_order(s for s, o in nxt.corruption.items() if o == gang)
            ],
            "arrested": [_arrested_row(gmap, w, a, back) for a in arrested],
            "returned": [w.reason(n) for n in _returns_of(res, gang)],
            "price_next": w("price.next", price=w.money(res.next.price), reason=w.reason(res.next.price_reason)),
            "raid_next": raid_sentence(gmap, res.next.raid, w, "raid.next"),
            "raid_effects": raid_effects_for(gmap, res.next.raid, gang, back, w),
            "winners": winner_line(gmap, res, w),
        }
    )
    return ctx


def _adjustment_row(w: Words, a: AdjustmentRecord) -> TextRow:
    """A recruit or a disband done as ordered is its unit and what became of it (the
    reason says "recruited", so the order's verb is not said twice); any other
    adjustment is its kind, the order, and why."""
    if a.kind in ("recruit", "disband"):
        return TextRow(a.order.removeprefix("recruit ").removeprefix("disband "), w.reason(a.reason))
    return TextRow(w.word(a.kind), restate(a.order, w.language) + w.then + w.reason(a.reason))


def render_report(
    gmap: GameMap,
    config: Settings,
    data: TurnResults | Mapping[str, Any],
    nxt: GameState,
    gang: str,
    *,
    language: str | None = None,
    html: bool = False,
    for_email: bool = False,
    seed: str | None = None,
    extras: Extras | None = None,
    before: GameState | None = None,
) -> str:
    """One gang's private report (text, or HTML with ``html=True``)."""
    ctx = report_context(
        gmap, config, data, nxt, gang, language=language, for_email=for_email, seed=seed, extras=extras, before=before
    )
    return pages.inline_css(pages.render("report.html.j2", ctx)) if html else pages.render("report.txt.j2", ctx)


def render_all(
    gmap: GameMap,
    config: Settings,
    data: TurnResults | Mapping[str, Any],
    nxt: GameState,
    *,
    language: str | None = None,
    gangs: Iterable[str] | None = None,
    bulletin: bool = True,
    for_email: bool = False,
    seed: str | None = None,
    before: GameState | None = None,
    charts: Sequence[tuple[str, str]] = (),
    gang_languages: Mapping[str, str] | None = None,
    extras: Mapping[str, Extras] | None = None,
    deadline: str = "",
    legend: Legend | None = None,
    seed_news: SeedNews | None = None,
    news: Sequence[str] = (),
    disorder: Mapping[str, str] | None = None,
) -> dict[str, str]:
    """File name -> text: ``GANG.txt`` and ``GANG.html`` for each gang (all by default)
    and ``bulletin.txt`` and ``bulletin.html``. ``seed``: the game's secret, for the
    receipts in the private reports. ``gang_languages``: the language of a gang's
    report when its player reads another than ``language``. ``extras``: what each
    gang's report says beyond the results (its deadline, pictures); ``deadline`` and
    ``legend`` (the picture of the map's legend) and ``seed_news`` (the secret seed
    replaced during the turn), ``news`` (what the judge tells of the game) and
    ``disorder`` (the gangs whose orders the civil-disorder player wrote, with its
    name): the bulletin's."""
    res = as_results(data)
    out: dict[str, str] = {}
    for g in gangs if gangs is not None else gmap.gangs:
        own = (gang_languages or {}).get(g, language)
        more = (extras or {}).get(g)
        for html, ext in ((False, "txt"), (True, "html")):
            out[f"{g}.{ext}"] = render_report(
                gmap,
                config,
                res,
                nxt,
                g,
                language=own,
                html=html,
                for_email=for_email,
                seed=seed,
                extras=more,
                before=before,
            )
    if bulletin:
        for html, ext in ((False, "txt"), (True, "html")):
            out[f"bulletin.{ext}"] = render_bulletin(
                gmap,
                config,
                res,
                nxt,
                language=language,
                html=html,
                for_email=for_email,
                before=before,
                charts=charts,
                deadline=deadline,
                legend=legend,
                seed_news=seed_news,
                news=news,
                disorder=disorder,
            )
    return out


__all__ = ["Extras", "Refusal", "render_all", "render_report", "report_context", "unit_rows"]
