"""The game's public record as a static web site: ``moonshine site``.

One page per adjudicated turn (the public bulletin with its map, and links to
the turns before and after), an index with the timeline of the turns and the
charts of the game (victory points per gang, the price of alcohol), and the
rules book. Only what the bulletin already publishes goes in: nothing from a
gang's private report, orders file, bids, ledger or receipt. The pages link to
each other by relative paths, so the site opens from ``file://`` as from any
static host; it needs no server and no script.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import msgspec
from markupsafe import Markup

from moonshine.errors import GameError
from moonshine.game.charts import game_charts
from moonshine.game.deadlines import next_deadline_line
from moonshine.game.directory import Game, atomic_write_bytes, atomic_write_text
from moonshine.game.reports import adjudicated_turns, load_turn, map_scene, opening_state, render_legend, render_map
from moonshine.picture import charts
from moonshine.render import pages, phrasebook
from moonshine.render.bulletin import bulletin_context
from moonshine.render.figures import Legend, legend_figure
from moonshine.render.turnmap import map_title
from moonshine.text.catalogue import Catalogue, fill, keyed

RULES_FILE = Path(__file__).resolve().parent.parent / "RULES.md"  # moonshine/RULES.md
RULES_LANGUAGE = "en"  # the language RULES.md is written in

# The site's own words (the bulletin's come from the reports' catalogue).
WORDS: Catalogue = {
    "site.home": "The game",
    "site.turns": "The turns",
    "site.latest": "Latest turn",
    "site.charts": "How the game went",
    "site.rules": "The rules",
    "site.rules_title": "The rules: {title}",
    "site.rules_note": (
        "The rules book as the referee applies it: the published rules and the rulings R1 to R26 that the reports cite."
    ),
    "site.previous": "Previous turn",
    "site.next": "Next turn",
    "site.svg": "The map as SVG (zoom without limit)",
    "site.public": "The public record of the game: bulletins, maps and charts. Private reports are not here.",
    "site.over": "The game is over: {winners} won, in {turn}.",
    "site.running": "The game goes on: {turn} is being played.",
    "site.map_alt": "Map of {turn}: {what}",
    "site.chart_data": "The figures of this chart",
    "site.players": "Who played which side",
    "site.players_note": "The game was played anonymously: its players are named now that it is over.",
    "site.no_player": "no player",
    "site.no_name": "a player who gave no name",
    "site.turn": "Turn",
    "site.price": "Price of a crate",
}


def words_of(language: str) -> dict[str, str]:
    """The site's words in ``language``, by key."""
    return {key.removeprefix("site."): keyed(language, WORDS, key) for key in WORDS}


class TurnLink(msgspec.Struct, frozen=True):
    name: str  # spring-1924
    label: str  # Spring 1924, or Printemps 1924
    href: str  # relative to the page that links
    line: str = ""  # what happened in it: the bulletin's headline


class ChartTable(msgspec.Struct, frozen=True):
    """A chart's figures as a table, for readers who cannot see the picture."""

    columns: tuple[str, ...]  # the first one names the rows (the turns)
    rows: tuple[tuple[str, ...], ...]


def _label(turn: str, language: str) -> str:
    return phrasebook.turn_label(language, turn, capital=True)


def clear_folder(out: Path) -> None:
    """Make ``out`` ready for a site: created, or emptied of the site written there
    before; a folder holding anything else is refused."""
    if out.exists():
        if not (out / "index.html").is_file() or not (out / "turns").is_dir():
            if any(out.iterdir()):
                raise GameError(f"{out}: not empty and not a site written by 'moonshine site'; choose another folder")
        else:
            shutil.rmtree(out / "turns")
    out.mkdir(parents=True, exist_ok=True)


def build_site(game: Game, out: Path, *, language: str | None = None) -> list[Path]:
    """Write a Moonshine game's site into ``out`` (created, or emptied of an older
    site first); returns the files written. (The game's family writes it:
    ``moonshine.game.families``.)"""
    lang = phrasebook.check_language(language or game.config.language)
    turns = adjudicated_turns(game)
    if not turns:
        raise GameError(f"{game.root}: no turn adjudicated yet, so nothing is public")
    clear_folder(out)
    written: list[Path] = []
    gmap = game.map
    words = words_of(lang)
    vp_rows = []
    prices: list[int] = []  # cents, per turn
    headlines: dict[str, str] = {}
    alts: dict[str, str] = {}
    last_winners: list[str] = []
    for i, turn in enumerate(turns):
        res, nxt = load_turn(game, turn)
        vp_rows.append(dict(res.vp))
        prices.append(res.price)
        page_dir = out / "turns" / turn
        scene = map_scene(gmap, res, nxt, lang)
        svg, png = render_map(gmap, res, nxt, lang, whole=scene)
        legend = render_legend(scene, lang)
        atomic_write_bytes(page_dir / "map.png", png)
        atomic_write_text(page_dir / "map.svg", svg)
        atomic_write_bytes(page_dir / "legend.png", legend.png)
        before = opening_state(game, turn)
        shown = Legend("legend.png", legend.width, legend.height)
        ctx = bulletin_context(gmap, game.config, res, nxt, language=lang, for_email=False, before=before, legend=shown)
        ctx["map_svg"] = "map.svg"  # linked beside the picture
        # the latest turn's page says when the orders of the turn being played are due
        ctx["deadline"] = next_deadline_line(game, res.next.turn, None, lang) if i + 1 == len(turns) else ""
        ctx["site"] = {
            "home": "../../index.html",
            "prev": TurnLink(turns[i - 1], _label(turns[i - 1], lang), f"../{turns[i - 1]}/index.html") if i else None,
            "next": (
                TurnLink(turns[i + 1], _label(turns[i + 1], lang), f"../{turns[i + 1]}/index.html")
                if i + 1 < len(turns)
                else None
            ),
        }
        ctx["site_words"] = words
        headlines[turn] = str(ctx.get("headline") or "")
        alts[turn] = fill(
            lang, words["map_alt"], turn=_label(turn, lang), what=headlines[turn] or map_title(gmap, turn, lang)
        )
        last_winners = [gmap.gangs[g].name for g in res.winners if g in gmap.gangs]
        atomic_write_text(page_dir / "index.html", pages.inline_css(pages.render("site_turn.html.j2", ctx)))
        written += [page_dir / "index.html", page_dir / "map.png", page_dir / "map.svg", page_dir / "legend.png"]
    vp, price = game_charts(game, turns, vp_rows, [c / 100 for c in prices], lang)
    for name, chart in (("vp", vp), ("price", price)):
        atomic_write_bytes(out / f"{name}.png", charts.png(chart))
        atomic_write_text(out / f"{name}.svg", charts.svg(chart))
        written += [out / f"{name}.png", out / f"{name}.svg"]
    rules = pages.inline_css(_rules_page(game, lang))
    atomic_write_text(out / "rules.html", rules)
    written.append(out / "rules.html")
    links = [TurnLink(t, _label(t, lang), f"turns/{t}/index.html", headlines.get(t, "")) for t in turns]
    last = turns[-1]
    deadline = ""
    if last_winners:
        state_line = fill(lang, words["over"], winners=", ".join(last_winners), turn=_label(last, lang))
    else:
        nxt_turn = load_turn(game, last)[1].turn
        state_line = fill(lang, words["running"], turn=_label(nxt_turn, lang))
        deadline = next_deadline_line(game, nxt_turn, None, lang)  # when the turn being played is due
    gangs = list(gmap.gangs)
    vp_table = ChartTable(
        (words["turn"], *(gmap.gangs[g].name for g in gangs)),
        tuple((_label(t, lang), *(str(row.get(g, 0)) for g in gangs)) for t, row in zip(turns, vp_rows, strict=True)),
    )
    price_table = ChartTable(
        (words["turn"], words["price"]),
        tuple((_label(t, lang), phrasebook.money_text(lang, cents)) for t, cents in zip(turns, prices, strict=True)),
    )
    index = pages.render(
        "site_index.html.j2",
        dict(
            lang=lang,
            game_title=game.config.title,
            title=game.config.title,
            turns=links,
            latest=links[-1],
            latest_map=f"turns/{turns[-1]}/map.png",
            latest_svg=f"turns/{turns[-1]}/map.svg",
            latest_map_title=alts[last],
            legend=legend_figure(
                Legend(f"turns/{last}/legend.png", shown.width, shown.height),
                phrasebook.message(lang, "map.legend"),
                phrasebook.message(lang, "map.legend_alt"),
            ),
            state_line=state_line,
            deadline=deadline,
            revealed=revealed_players(game, lang),
            colon=phrasebook.colon(lang),
            words=words,
            charts=[("vp.png", "vp.svg", vp.title, vp_table), ("price.png", "price.svg", price.title, price_table)],
        ),
    )
    index = pages.inline_css(index)
    atomic_write_text(out / "index.html", index)
    written.insert(0, out / "index.html")
    return written


class Revealed(msgspec.Struct, frozen=True):
    """The players of an anonymous game named on its site once it is over: a heading, a
    note, and (side, player) rows."""

    title: str
    note: str
    rows: tuple[tuple[str, str], ...]


def revealed_players(game: Game, language: str) -> Revealed | None:
    """The players of an anonymous game whose identities are revealed, for its site's
    index (``moonshine.game.identities``: revealed at its end, which the judge records,
    or won): None for any other game. The site names no player of a game that is not
    anonymous (their names were never public), nor of one still being played, nor of
    one that reveals them never."""
    from moonshine.game import identities

    found = identities.of(game.config)
    if not found.anonymous or found.reveal == identities.NEVER:
        return None
    if not found.revealed and not game.layout.winners(game.load_any_state(game.current_turn())):
        return None
    words = words_of(language)
    names = identities.players(game.config)
    rows = []
    for side, side_name in game.sides(language).items():
        name = names.get(side)
        rows.append((f"{side_name} ({side})", name if name else words["no_player" if name is None else "no_name"]))
    return Revealed(words["players"], words["players_note"], tuple(rows))


def heading_id(text: str, taken: set[str]) -> str:
    """A heading's anchor as GitHub writes it, so that the book's own links
    (``[R8](#4-orders)``) work on the site as in the repository: lower case, spaces to
    hyphens, other punctuation dropped; a repeated heading gets ``-1``, ``-2``..."""
    slug = "".join(c for c in text.strip().lower() if c.isalnum() or c in " -_").replace(" ", "-")
    found, n = slug, 0
    while found in taken:
        n += 1
        found = f"{slug}-{n}"
    taken.add(found)
    return found


def rules_html(text: str) -> Markup:
    """The rules book's Markdown as HTML: CommonMark with tables (markdown-it-py), each
    heading with its anchor (``heading_id``); any HTML written in the book is shown as
    text, never run."""
    from markdown_it import MarkdownIt

    md = MarkdownIt("commonmark", {"html": False}).enable("table")
    tokens = md.parse(text)
    taken: set[str] = set()
    for i, token in enumerate(tokens):
        if token.type == "heading_open" and i + 1 < len(tokens):
            token.attrSet("id", heading_id(tokens[i + 1].content, taken))
    return Markup(md.renderer.render(tokens, md.options, {}))


def _rules_page(game: Game, language: str) -> str:
    """The rules book as a page (the project's RULES.md, rendered from its Markdown)."""
    try:
        text = RULES_FILE.read_text(encoding="utf-8")
    except OSError:
        raise GameError(f"{RULES_FILE}: the rules book is missing from the installation") from None
    words = words_of(language)
    return pages.render(
        "site_rules.html.j2",
        dict(
            lang=language,
            title=fill(language, words["rules_title"], title=game.config.title),
            words=words,
            game_title="",
            fixed_layout=True,
            rules=rules_html(text),
            text_lang=RULES_LANGUAGE,
        ),
    )
