"""A turn's reports written into the game directory: ``turns/TURN/reports/``, each
gang's report and the bulletin (text and HTML), the map (SVG and PNG) and the charts,
each file atomically; and a report printed for the terminal. The pages themselves are
rendered by ``moonshine.render.report`` and ``moonshine.render.bulletin``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from moonshine.errors import GameError, StateError
from moonshine.game.directory import Game, GameConfig, atomic_write_bytes, atomic_write_text, config_section
from moonshine.render import phrasebook
from moonshine.render.bulletin import SeedNews, render_bulletin
from moonshine.render.figures import MAP_WIDTH, Legend, closeup_file, legend_file, map_file
from moonshine.render.report import Extras, render_all, render_report
from moonshine.render.turnmap import arrows_from_results, dislodged_units, map_title, picture_title
from moonshine.variants.moonshine.calendar import Turn
from moonshine.variants.moonshine.map import GameMap
from moonshine.variants.moonshine.results import TurnResults, as_results, check_results, load_results
from moonshine.variants.moonshine.state import GameState

if TYPE_CHECKING:
    from moonshine.picture.charts import Chart
    from moonshine.picture.png import PagePicture
    from moonshine.picture.shapes import Box, Scene


RESULTS_FILE = "results.yaml"


REPORTS_DIR = "reports"


CHART_FILES = ("vp.png", "price.png")  # the bulletin's charts, beside it and attached to its mail


CLOSEUP_WIDTH = 744  # pixels: twice what a phone shows it at (moonshine.variants.moonshine.scene.closeup.PHONE_WIDTH)


def reports_dir(game: Game, turn: str) -> Path:
    return game.turn_dir(turn) / REPORTS_DIR


def adjudicated_turns(game: Game) -> list[str]:
    """The turns with results, oldest first."""
    return [t for t in game.turns() if (game.turn_dir(t) / RESULTS_FILE).is_file()]


def charts_until(game: Game, turn: str, res: TurnResults, language: str) -> tuple[Chart, Chart]:
    """The charts of the game from its first turn to ``turn``, whose results are ``res``
    (the earlier turns' are read from the game directory)."""
    turns = [t for t in adjudicated_turns(game) if Turn.parse(t) < Turn.parse(turn)]
    vp: list[Mapping[str, int]] = []
    prices: list[float] = []
    for t in turns:
        earlier = load_results(game.turn_dir(t) / RESULTS_FILE)
        vp.append(dict(earlier.vp))
        prices.append(earlier.price / 100)
    from moonshine.game.charts import game_charts

    return game_charts(game, [*turns, turn], [*vp, dict(res.vp)], [*prices, res.price / 100], language)


def load_turn(game: Game, turn: str) -> tuple[TurnResults, GameState]:
    """A turn's results and the next turn's opening state, both checked."""
    _turn(turn)
    turn = game.turn_name(turn)
    path = game.turn_dir(turn) / RESULTS_FILE
    if not path.is_file():
        raise GameError(f"{path}: no results; adjudicate the turn first ('moonshine adjudicate {turn}')")
    res = load_results(path)
    nxt_name = _check_turn(game, turn, res, str(path))
    return res, game.load_state(nxt_name)


def opening_state(game: Game, turn: str) -> GameState | None:
    """The turn's opening state (for the bulletin's story), if the game has it."""
    if not game.state_path(turn).is_file():
        return None
    return game.load_state(turn)


def _turn(turn: str) -> Turn:
    try:
        return Turn.parse(turn)
    except ValueError as exc:
        raise GameError(str(exc)) from None


def _check_turn(game: Game, turn: str, res: TurnResults, source: str) -> str:
    """Check a turn's results against the map and the turn's name; the next turn's name."""
    t = _turn(turn)
    check_results(game.map, res, source=source)
    if res.turn != turn:
        raise StateError(source, "turn", f"these are the results of {res.turn}, not {turn}")
    nxt_name = t.next().name
    if res.next.turn != nxt_name:
        raise StateError(source, "next.turn", f"expected {nxt_name}, found {res.next.turn}")
    return nxt_name


def render_map(
    gmap: GameMap,
    res: TurnResults,
    nxt: GameState,
    language: str,
    *,
    width: int = MAP_WIDTH,
    whole: Scene | None = None,
) -> tuple[str, bytes]:
    """The map at the start of the next turn with this turn's orders as arrows, and the
    units dislodged this turn faded where they stood with their retreats (crossed out
    when disbanded): SVG and PNG."""
    from moonshine.picture import png as png_writer
    from moonshine.picture import svg

    scene = whole if whole is not None else map_scene(gmap, res, nxt, language)  # ``whole``: made already
    return svg.scene_svg(scene), png_writer.scene_png(scene, width)


def render_closeup(
    gmap: GameMap,
    res: TurnResults,
    nxt: GameState,
    language: str,
    gang: str,
    *,
    whole: Scene,
    boxes: dict[int, Box | None],
) -> bytes | None:
    """A gang's close-up of the same map: its own area (its districts and units and
    their neighbours), cropped, its labels readable on a phone, as a PNG (its zoomable
    version is the whole map's SVG), or None when the gang has no district and no unit
    left. ``whole`` and ``boxes``: the whole map's scene and its items' extents, made
    once for all the gangs' close-ups."""
    from moonshine.picture import png as png_writer
    from moonshine.variants.moonshine.scene.closeup import area_of, closeup

    area = area_of(gmap, nxt, gang)
    if not area:
        return None
    title = phrasebook.message(language, "map.closeup_alt", title=map_title(gmap, res.turn, language))
    near = closeup(gmap, whole, area, title=title, boxes=boxes)
    # drawn at its size: twice what a phone shows, so as fine as its device pixels
    return png_writer.scene_png(near, CLOSEUP_WIDTH, supersample=1)


def render_legend(whole: Scene, language: str) -> PagePicture:
    """The legend of the map ``whole`` (its scene, in ``language``) as a picture of its
    own, for the pages to show under the map at a size a phone reader reads (the map's
    own legend is drawn for the 1000 px picture). The same every turn for a map and a
    language: kept in the cache."""
    from moonshine.picture import png as png_writer
    from moonshine.variants.moonshine.scene.legend import legend

    return png_writer.legend_picture(legend(whole, title=phrasebook.message(language, "map.legend_alt")))


def map_scene(gmap: GameMap, res: TurnResults, nxt: GameState, language: str) -> Scene:
    """The turn's map picture as a scene, in ``language`` (``render_map`` draws it)."""
    from moonshine.variants.moonshine import scene as chicago_scene

    arrows = arrows_from_results(res, gmap)
    title = picture_title(gmap, res.turn, language)
    # the board as the turn left it, with the turn's own raid ("raided this turn"): the
    # next state already holds the next turn's raid, drawn at its opening
    shown = nxt.copy()
    shown.raid = res.raid
    return chicago_scene.build_scene(
        gmap, shown, arrows=arrows, title=title, language=language, dislodged=dislodged_units(res)
    )


def orders_address(cfg: GameConfig) -> str:
    """The address players send orders to: the judge's own (``smtp.from``), or "" for
    a game played without mail."""
    from email.utils import parseaddr  # here: the email package is not needed before

    value = config_section(cfg, "smtp").get("from")
    return parseaddr(value)[1] if isinstance(value, str) else ""


def write_reports(
    game: Game,
    turn: str,
    *,
    language: str | None = None,
    gangs: Sequence[str] | None = None,
    bulletin: bool = True,
    pictures: bool = True,
    for_email: bool = False,
    written_turn: tuple[TurnResults | Mapping[str, Any], GameState] | None = None,
    opening: GameState | None = None,
    now: datetime | None = None,
) -> list[Path]:
    """Write TURN's reports under ``turns/TURN/reports/``: ``GANG.txt`` and
    ``GANG.html`` for every gang (or those given), ``bulletin.txt``, ``bulletin.html``,
    ``map.svg`` and ``map.png``; each file atomically. Returns the paths written, in
    order. The HTML shows the ``map.png`` beside it, so that it opens from the disk
    with its picture; the mail makes it ``cid:map.png``, the attached picture
    (``moonshine.mail.outbox.reports.mail_pictures``; ``for_email=True`` writes that already). The
    ``adjudicate`` command calls it after adjudicating, handing over in
    ``written_turn`` the results' data and the next state it has just written, so that
    they are not read back, and in ``opening`` the turn's opening state it has read;
    without them, they are read from the game directory. A player who reads another
    language than the game's gets the map in it (``map.fr.png``), and its legend
    (``legend.png``, ``legend.fr.png``), shown under the map; each gang its close-up
    (``closeup-outfit.png``). The reports give the next turn's deadline when
    game.yaml has it, or, ``now`` being when the next turn opens, when the game's
    schedule will set it."""
    gmap = game.map
    lang = phrasebook.check_language(language or game.config.language)
    for g in gangs or ():
        if g not in gmap.gangs:
            raise GameError(f"unknown gang {g!r} (gangs: {', '.join(gmap.gangs)})")
    if written_turn is None:
        res, nxt = load_turn(game, turn)
    else:
        source = str(game.turn_dir(turn) / RESULTS_FILE)
        res = as_results(written_turn[0], source=source)
        _check_turn(game, turn, res, source)
        nxt = written_turn[1]
    base = reports_dir(game, turn)
    written: list[Path] = []
    chart_files: list[tuple[str, str]] = []
    if bulletin and pictures:
        from moonshine.picture import charts

        for name, chart in zip(CHART_FILES, charts_until(game, turn, res, lang), strict=True):
            atomic_write_bytes(base / name, charts.png(chart))
            written.append(base / name)
            chart_files.append((name, chart.title))
    from moonshine.game.deadlines import next_deadline_line

    own = {} if language else game.side_languages()  # --language: that one for all
    from moonshine.game import news as turn_news
    from moonshine.game.civil_disorder import marks

    disorder = marks(game, turn)
    chosen = list(gangs) if gangs is not None else list(gmap.gangs)
    send_to = orders_address(game.config)
    extras: dict[str, Extras] = {}
    closeups: dict[str, bytes] = {}
    scenes: dict[str, Scene] = {}  # the whole map's scene in each language read, made once
    boxes: dict[int, Box | None] = {}  # their items' extents, by item (the scenes are kept alive above)
    legends: dict[str, PagePicture] = {}  # the map's legend in each language read

    def legend_in(reads: str) -> Legend | None:
        if not pictures:
            return None
        if reads not in scenes:
            scenes[reads] = map_scene(gmap, res, nxt, reads)
        if reads not in legends:
            legends[reads] = render_legend(scenes[reads], reads)
        return Legend(legend_file(reads, lang), legends[reads].width, legends[reads].height)

    for g in chosen:
        reads = own.get(g, lang)
        legend = legend_in(reads)
        near = render_closeup(gmap, res, nxt, reads, g, whole=scenes[reads], boxes=boxes) if pictures else None
        if near is not None:
            closeups[g] = near
        extras[g] = Extras(
            deadline=next_deadline_line(game, res.next.turn, g, reads, opened=now, sentence=False),
            send_to=send_to,
            map_file=map_file(reads, lang),
            closeup=closeup_file(g) if near is not None else "",
            legend=legend,
            disorder_player=disorder[g].player if g in disorder else "",
            disorder_seed=disorder[g].seed if g in disorder else "",
        )
    texts = render_all(
        gmap,
        game.config,
        res,
        nxt,
        language=lang,
        gangs=gangs,
        bulletin=bulletin,
        for_email=for_email,
        seed=game.receipt_seed(turn),
        before=opening if opening is not None else opening_state(game, turn),
        charts=chart_files,
        # each player's report in their own language, unless one language was asked for
        gang_languages=own or None,
        extras=extras,
        deadline=next_deadline_line(game, res.next.turn, None, lang, opened=now) if bulletin else "",
        legend=legend_in(lang) if bulletin else None,
        seed_news=seed_news(game, turn),
        news=turn_news.sentences(game, turn, lang) if bulletin else (),
        disorder={g: m.player for g, m in disorder.items()},
    )
    for name, text in texts.items():
        path = base / name
        atomic_write_text(path, text)
        written.append(path)
    if pictures:
        # the map in every language read: the game's (the bulletin's), and each reader's
        drawn = ([lang] if bulletin else []) + [own.get(g, lang) for g in chosen]
        for reads in dict.fromkeys(drawn):
            svg, png = render_map(gmap, res, nxt, reads, whole=scenes.get(reads))
            atomic_write_text(base / map_file(reads, lang, "svg"), svg)
            atomic_write_bytes(base / map_file(reads, lang), png)
            written += [base / map_file(reads, lang, "svg"), base / map_file(reads, lang)]
            atomic_write_bytes(base / legend_file(reads, lang), legends[reads].png)
            written.append(base / legend_file(reads, lang))
        for g, png in closeups.items():
            atomic_write_bytes(base / closeup_file(g), png)
            written.append(base / closeup_file(g))
    return written


def seed_news(game: Game, turn: str) -> SeedNews | None:
    """The secret seed replaced during ``turn`` (game.yaml's ``earlier_seeds``), with
    the hash of the seed that followed it, for the turn's bulletin."""
    seeds = game.earlier_seeds()
    for i, earlier in enumerate(seeds):
        if earlier.last_turn == turn:
            after = seeds[i + 1].sha256 if i + 1 < len(seeds) else game.config.seed_sha256
            return SeedNews(earlier.reason, earlier.replaced, after)
    return None


def print_report(game: Game, turn: str, *, gang: str | None = None, language: str | None = None) -> str:
    """The text of one report (the gang's, or the bulletin), for the terminal."""
    gmap = game.map
    if gang is not None and gang not in gmap.gangs:
        raise GameError(f"unknown gang {gang!r} (gangs: {', '.join(gmap.gangs)})")
    lang = phrasebook.check_language(language or game.config.language)
    res, nxt = load_turn(game, turn)
    from moonshine.game import news as turn_news
    from moonshine.game.civil_disorder import marks

    disorder = marks(game, turn)
    if gang is None:
        before = opening_state(game, turn)
        return render_bulletin(
            gmap,
            game.config,
            res,
            nxt,
            language=lang,
            before=before,
            seed_news=seed_news(game, turn),
            news=turn_news.sentences(game, turn, lang),
            disorder={g: m.player for g, m in disorder.items()},
        )
    mark = disorder.get(gang)
    more = Extras(disorder_player=mark.player, disorder_seed=mark.seed) if mark is not None else None
    return render_report(
        gmap,
        game.config,
        res,
        nxt,
        gang,
        language=lang,
        seed=game.receipt_seed(turn),
        extras=more,
        before=opening_state(game, turn),
    )


__all__ = ["load_turn", "map_scene", "print_report", "render_legend", "render_map", "seed_news", "write_reports"]
