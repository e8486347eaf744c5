"""The public bulletin of a Moonshine turn, in text and HTML, English or French: its
context for the templates (every gang's orders and results, the story of the turn
with its headline, what changed hands, the assaults, the raids, the standings, the
seed's check on the first turn) and the page rendered. Nothing here comes from a
gang's lines, bids, ledger, stocks or cash (R19)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

import msgspec

from moonshine.render import pages, phrasebook
from moonshine.render.figures import Legend, legend_figure
from moonshine.render.raids import raid_sentence, raid_short
from moonshine.render.turnmap import map_title
from moonshine.render.turnpage import (
    OrderRow,
    Settings,
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
from moonshine.variants.moonshine import story
from moonshine.variants.moonshine.map import GameMap
from moonshine.variants.moonshine.results import GangResults, TurnResults, as_results, check_results
from moonshine.variants.moonshine.state import GameState


class SeedNews(NamedTuple):
    """A secret seed replaced during the turn (``moonshine.game.seeds``): why (a reason's
    key), when (ISO 8601) and the SHA-256 of the new seed; the bulletin says so."""

    reason: str
    replaced: str
    new_sha256: str


class GangBlock(msgspec.Struct, frozen=True):
    key: str
    name: str
    colour: str
    submitted: bool
    orders: tuple[OrderRow, ...]  # every order but the plain holds
    changes: tuple[str, ...]  # the plain holds in one line, recruits, disbands
    disorder: str = ""  # its orders written by the civil-disorder player (R26): the mark, as a phrase


def _changes(gr: GangResults, w: Words) -> tuple[str, ...]:
    """Recruits and disbands as the board shows them (their reasons may tell of cash: private)."""
    recruited, disbanded = [], []
    for a in gr.adjustments:
        unit = a.order.removeprefix("recruit ").removeprefix("disband ")
        if a.kind == "recruit":
            recruited.append(unit)
        elif a.kind in ("disband", "disbanded for upkeep"):
            disbanded.append(unit)
    out = []
    if recruited:
        out.append(w("orders.recruited", units=", ".join(recruited), n=len(recruited)))
    if disbanded:
        out.append(w("orders.disbanded", units=", ".join(disbanded), n=len(disbanded)))
    return tuple(out)


class ChangeRow(msgspec.Struct, frozen=True):
    """A row of the bulletin's "what changed": a district or station, its holder before and after."""

    place: str
    before: str
    before_colour: str
    after: str
    after_colour: str


class VPChangeRow(msgspec.Struct, frozen=True):
    name: str
    colour: str
    before: int
    after: int
    change: str  # "+3", "−2"


def _holder(gmap: GameMap, w: Words, gang: str | None, station: bool = False) -> tuple[str, str]:
    """A gang's name and colour; for nobody, "neutral" (a district) or "nobody" (a station's corruption)."""
    if gang is None or gang not in gmap.gangs:
        return w("changed.uncorrupted" if station else "changed.nobody"), ""
    return gmap.gangs[gang].name, gmap.gangs[gang].colour


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else f"\u2212{-n}" if n < 0 else "0"


def _headline(gmap: GameMap, w: Words, item: story.News) -> str:
    """The headline of a piece of news, as the paper would set it (the text bulletin
    sets it in capitals)."""
    gang = gang_name(gmap, item.gangs[0], w.language) if item.gangs else ""
    k = story.Kind
    if item.kind is k.WIN:
        if len(item.gangs) > 1:
            return w("story.headline.wins", gangs=_and(w, [gang_name(gmap, g, w.language) for g in item.gangs]))
        return w("story.headline.win", gang=gang)
    if item.kind is k.ASSAULT:
        return w("story.headline.assault", gang=gang, station=station(gmap, item.place, w.language), code=item.place)
    if item.kind in (k.STATION, k.BOUGHT):
        return w("story.headline.station", gang=gang, station=station(gmap, item.place, w.language), code=item.place)
    if item.kind is k.RAID_ON_LEADER:
        return w(
            "story.headline.raid_leader",
            gang=gang,
            district=named(w.language, "map.district", gmap.districts[item.place].name),
        )
    if item.kind is k.WIPED_OUT:
        return w("story.headline.wiped_out", gang=gang)
    if item.kind is k.LAST_SPEAKEASY:
        return w("story.headline.last_speakeasy", gang=gang)
    if item.kind is k.PRICE:
        key = "story.headline.price_up" if item.n > item.before else "story.headline.price_down"
        return w(key, price=w.money(item.n))
    if item.kind is k.NEW_LEADER:
        return w("story.headline.leader", gang=gang)
    if item.kind in (k.GAINS, k.FEW_GAINS):
        return w("story.headline.gain", gang=gang, n=item.n)
    return w("story.headline.quiet")


def _net_sentence(gmap: GameMap, w: Words, st: story.Story) -> str:
    """How many districts changed hands, then each gang's net gain or loss, said as such."""
    moved = sum(1 for c in st.changes if not c.station)
    if not moved:
        return w("story.unchanged")
    out = [w("story.changed", n=moved)]
    gains = sorted(((g, n) for g, n in st.net.items() if n > 0), key=lambda kv: -kv[1])
    losses = sorted(((g, -n) for g, n in st.net.items() if n < 0), key=lambda kv: -kv[1])
    for key, side in (("story.net.gains", gains), ("story.net.losses", losses)):
        if side:
            items = w.semi.join(w("story.net.item", gang=gang_name(gmap, g, w.language), n=n) for g, n in side)
            out.append(w(key, items=items))
    if not gains and not losses:
        out.append(w("story.net.even"))
    return " ".join(out)


def _news_sentence(gmap: GameMap, res: TurnResults, w: Words, item: story.News, st: story.Story) -> str:
    """The sentence that tells a piece of news in the story, below the headline."""
    gang = gang_name(gmap, item.gangs[0], w.language) if item.gangs else ""
    k = story.Kind
    if item.kind is k.WIN:
        if len(item.gangs) > 1:
            return w("story.win.many", gangs=_and(w, [gang_name(gmap, g, w.language) for g in item.gangs]), vp=item.n)
        if not item.other:
            return w("story.win.alone", gang=gang, vp=item.n)
        margin = item.n - item.before
        return w("story.win.one", gang=gang, vp=item.n, n=margin, other=gang_name(gmap, item.other, w.language))
    name = station(gmap, item.place, w.language) if item.place else ""
    if item.kind is k.ASSAULT:
        return w("story.taken", gang=gang, station=name, code=item.place, unit=item.unit)
    if item.kind in (k.STATION, k.BOUGHT):
        if item.other:
            other = gang_name(gmap, item.other, w.language)
            return w("story.station.switched", gang=gang, station=name, code=item.place, other=other)
        return w("story.station.bought", gang=gang, station=name, code=item.place)
    if item.kind is k.RAID_ON_LEADER and res.raid is not None:
        return w("story.raid_leader", text=raid_short(gmap, res.raid, w))
    if item.kind is k.WIPED_OUT:
        return w("story.wiped_out", gang=gang)
    if item.kind is k.LAST_SPEAKEASY:
        return w("story.last_speakeasy", gang=gang, district=district(gmap, item.place, w.language))
    if item.kind is k.PRICE:
        return w(
            "story.price",
            before=w.money(item.before),
            after=w.money(item.n),
            reason=w.reason(res.next.price_reason),
        )
    if item.kind is k.NEW_LEADER:
        return w("story.leader", gang=gang, vp=item.n)
    if item.kind in (k.GAINS, k.FEW_GAINS):
        return _net_sentence(gmap, w, st)
    return ""


def _story_context(gmap: GameMap, res: TurnResults, before: GameState, nxt: GameState, w: Words) -> dict[str, Any]:
    """The bulletin's headline (its turn's biggest news), its few sentences (the news
    in the order of ``story.Kind``, then the standing, the districts that changed hands,
    the dislodged units, the raid and the stations freed) and its "what changed" tables."""
    st = story.story(gmap, before, res, nxt)

    def name(gang: str | None) -> str:
        return gang_name(gmap, gang, w.language)

    kinds = {n.kind for n in st.news}
    k = story.Kind
    headline = _headline(gmap, w, st.news[0])
    bought = [n for n in st.news if n.kind is k.BOUGHT]
    sentences = []
    for item in st.news:
        if item.kind is k.BOUGHT and len(bought) > 1:  # stations bought: most turns see some, told in one sentence
            if item is bought[0]:
                items = [
                    w(
                        "story.bought.item",
                        station=station(gmap, b.place, w.language),
                        code=b.place,
                        gang=name(b.gangs[0]),
                    )
                    for b in bought
                ]
                sentences.append(w("story.bought.many", n=len(bought), items=", ".join(items)))
            continue
        sentence = _news_sentence(gmap, res, w, item, st)
        if sentence:
            sentences.append(sentence)
    if st.leaders and not kinds & {k.WIN, k.NEW_LEADER}:
        if len(st.leaders) == 1:
            sentences.append(w("story.lead.one", gang=name(st.leaders[0]), vp=st.lead_vp))
        else:
            sentences.append(w("story.lead.many", gangs=_and(w, [name(g) for g in st.leaders]), vp=st.lead_vp))
    if not kinds & {k.GAINS, k.FEW_GAINS}:
        sentences.append(_net_sentence(gmap, w, st))
    if st.dislodged:
        units = [
            w("story.retreated", unit=d.unit, gang=gang_name(gmap, d.gang), district=d.retreated_to)
            if d.retreated_to
            else w("story.disbanded", unit=d.unit, gang=gang_name(gmap, d.gang))
            for d in st.dislodged
        ]
        sentences.append(w("story.dislodged", n=len(units), units=w.semi.join(units)))
    if res.raid is not None and k.RAID_ON_LEADER not in kinds:
        sentences.append(w("story.raid", text=raid_short(gmap, res.raid, w)))
    freed = [
        w("story.station_freed", station=station(gmap, c.code, w.language), code=c.code, gang=name(c.before))
        for c in st.changes
        if c.station and c.after is None
    ]
    if freed:
        sentences.append(w("story.stations_freed", stations=", ".join(freed), n=len(freed)))
    rows = []
    for c in st.changes:
        place = (
            w("changed.station", station=station(gmap, c.code, w.language), code=c.code)
            if c.station
            else district(gmap, c.code, w.language)
        )
        b, bc = _holder(gmap, w, c.before, c.station)
        a, ac = _holder(gmap, w, c.after, c.station)
        rows.append(ChangeRow(place, b, bc, a, ac))
    vp_rows = [
        VPChangeRow(gmap.gangs[c.gang].name, gmap.gangs[c.gang].colour, c.before, c.after, _signed(c.delta))
        for c in st.vp
    ]
    return {"headline": headline, "story": sentences, "changed": rows, "vp_changes": vp_rows}


def _and(w: Words, names: list[str]) -> str:
    """``A, B and C`` / ``A, B et C``."""
    return w.listed(names)


def bulletin_context(
    gmap: GameMap,
    config: Settings,
    data: TurnResults | Mapping[str, Any],
    nxt: GameState,
    *,
    language: str | None = None,
    for_email: bool = False,
    before: GameState | None = None,
    charts: Sequence[tuple[str, str]] = (),
    legend: Legend | None = None,
    seed_news: SeedNews | None = None,
    news: Sequence[str] = (),
    disorder: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """Everything the public bulletin shows, already in its language. Nothing here
    comes from a gang's lines, bids, ledger, stocks or cash. With the turn's opening
    state ``before``: the headline, the story and what changed; ``legend``: the
    picture of the map's legend beside it; ``seed_news``: the secret seed replaced
    during the turn; ``news``: what the judge tells of the game (the turn ran early,
    a gang in civil disorder, a pause), sentences in the bulletin's language;
    ``disorder``: the gangs whose orders the civil-disorder player wrote, with its
    name (R26)."""
    res = as_results(data)
    check_results(gmap, res)
    w = Words(phrasebook.check_language(language or config.language))
    blocks = []
    dislodged = []
    for key, g in gmap.gangs.items():
        gr = res.gangs.get(key)
        if gr is None:
            continue
        held = [u.unit for u in gr.units if story.is_plain_hold(u.order, u.succeeded, u.reason, u.outcome)]
        blocks.append(
            GangBlock(
                key=key,
                name=g.name,
                colour=g.colour,
                submitted=gr.orders_file is not None,
                orders=tuple(
                    order_row(w, u)
                    for u in gr.units
                    if not story.is_plain_hold(u.order, u.succeeded, u.reason, u.outcome)
                ),
                changes=((w("orders.held", n=len(held), units=", ".join(held)),) if held else ()) + _changes(gr, w),
                disorder=w("orders.civil_disorder", player=(disorder or {})[key]) if key in (disorder or {}) else "",
            )
        )
        dislodged += [TextRow(g.name + w.colon + d.unit, dislodged_text(w, d)) for d in gr.dislodged]
    assaults = [
        w(
            "assault.took",
            gang=gang_name(gmap, a.gang),
            unit=a.unit,
            station=f"{a.station} ({station(gmap, a.station, w.language)})",
            strength=a.strength,
            needed=a.needed,
        )
        for a in res.assaults
        if a.succeeded
    ]
    corruption = [
        {
            "station": f"{s} ({station(gmap, s, w.language)})",
            "gang": gang_name(gmap, owner),
            "colour": gmap.gangs[owner].colour,
        }
        for s, owner in sorted(res.corruption.items(), key=lambda kv: gmap.districts[kv[0]].area)
    ]
    first = res.turn == gmap.scenario.start
    table = ", ".join(f"{d} {n}" for d, n in gmap.raid_table.items())
    total = sum(gmap.raid_table.values())
    ctx = common(gmap, config, res, w, for_email)
    winners = winner_line(gmap, res, w)
    ctx["charts"] = [{"src": f"cid:{n}" if for_email else n, "title": t} for n, t in charts]
    ctx["chart_names"] = ", ".join(n for n, _ in charts)
    ctx["news"] = list(news)
    if before is not None:
        ctx.update(_story_context(gmap, res, before, nxt, w))
    else:
        ctx.update({"headline": "", "story": [], "changed": None, "vp_changes": []})
    # the map's alternative text says what the picture shows: the turn's news
    news = ctx["story"][0] if ctx["story"] else ctx["headline"]
    title = map_title(gmap, res.turn, w.language)
    ctx["map_alt"] = w("map.alt_news", title=title, news=news) if news else w("map.alt", title=title)
    ctx["legend"] = legend_figure(legend, w("map.legend"), w("map.legend_alt"), for_email=for_email)
    ctx.update(
        {
            "price_now": w("price.now", price=w.money(res.price)),
            "raid_now": raid_sentence(gmap, res.raid, w, "raid.this_turn"),
            "raid_now_draw": w("raid.draw", draw=res.raid.draw) if res.raid is not None and res.raid.draw else "",
            "blocks": blocks,
            "dislodged": dislodged,
            "assaults": assaults,
            "standings": standings(gmap, res, nxt),
            "corruption": corruption,
            "winners": winners,
            "price_next": w("price.next", price=w.money(res.next.price), reason=w.reason(res.next.price_reason)),
            "raid_next": raid_sentence(gmap, res.next.raid, w, "raid.next"),
            "raid_next_draw": (
                w("raid.draw", draw=res.next.raid.draw) if res.next.raid is not None and res.next.raid.draw else ""
            ),
            "first": first,
            "house_rules": [m.text(w.language) for m in config.house.sentences()] if first else [],
            "seed_sha256": config.seed_sha256,
            "seed_replaced": (
                w(
                    f"seed.replaced.{seed_news.reason}",
                    date=seed_news.replaced[:10],
                    hash=seed_news.new_sha256,
                )
                if seed_news is not None
                else ""
            ),
            "seed_how": w("seed.how", total=total) if total else w("seed.no_raids"),
            "seed_table": table,
            "seed_python": (
                (
                    "import hashlib, hmac; "
                    "print(int.from_bytes(hmac.new(b'SEED', b'spring-1924', hashlib.sha256).digest(), 'big')"
                    f" % {total})"
                )
                if total
                else ""
            ),
        }
    )
    return ctx


def render_bulletin(
    gmap: GameMap,
    config: Settings,
    data: TurnResults | Mapping[str, Any],
    nxt: GameState,
    *,
    language: str | None = None,
    html: bool = False,
    for_email: bool = False,
    before: GameState | None = None,
    charts: Sequence[tuple[str, str]] = (),
    deadline: str = "",
    legend: Legend | None = None,
    seed_news: SeedNews | None = None,
    news: Sequence[str] = (),
    disorder: Mapping[str, str] | None = None,
) -> str:
    """The public bulletin (text, or HTML with ``html=True``); with the turn's opening
    state ``before``, its story and what changed; ``charts``: the pictures of the
    charts beside it (file name, title); ``deadline``: the next deadline as a sentence
    in the game's time zone ("" when none is set); ``legend``: the picture of the
    map's legend beside it; ``seed_news``: the secret seed replaced during the turn;
    ``news`` and ``disorder``: as ``bulletin_context``'s."""
    ctx = bulletin_context(
        gmap,
        config,
        data,
        nxt,
        language=language,
        for_email=for_email,
        before=before,
        charts=charts,
        legend=legend,
        seed_news=seed_news,
        news=news,
        disorder=disorder,
    )
    ctx["deadline"] = deadline
    return pages.inline_css(pages.render("bulletin.html.j2", ctx)) if html else pages.render("bulletin.txt.j2", ctx)


__all__ = ["SeedNews", "bulletin_context", "render_bulletin"]
