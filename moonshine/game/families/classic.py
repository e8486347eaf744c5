"""The classic family (Diplomacy's rules: the standard board, and every board
defined by data alone), as the game layer plays it. A classic game directory::

    game.yaml                     variant: classic, title, players by power
    turns/spring-1901/state.yaml  the state at the start of each phase
    turns/spring-1901/results.yaml, results.txt   once adjudicated
    turns/spring-1901/map.svg, map.png            the phase's map picture (orders and results)
    orders/spring-1901/ENG.txt    one file per power (AUS, ENG, ... or england.txt)

An orders file has one order per line in standard notation; ``#`` starts a
comment. A line that cannot be read is reported and skipped.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterable, Iterator, Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypedDict

import msgspec
import yaml

from moonshine.engine import outcome as oc
from moonshine.errors import GameError
from moonshine.game.families.base import Notify, OrderCheck, OrderOutcome
from moonshine.text.catalogue import Catalogue, fmt, keyed, languages, message_data
from moonshine.variants.classic import state as state_mod
from moonshine.variants.classic.board import ClassicMap, board, standard_map
from moonshine.variants.classic.layout import load_state as load_state
from moonshine.variants.classic.layout import orders_dir as orders_dir
from moonshine.variants.classic.layout import phases as phases
from moonshine.variants.classic.layout import state_path as state_path
from moonshine.variants.classic.movement import Result
from moonshine.variants.classic.orders import Order, OrderError, parse_order
from moonshine.variants.classic.phases import PhaseOutcome, adjudicate_phase
from moonshine.variants.classic.rules import CLASSIC
from moonshine.variants.classic.state import ClassicState, Phase

if TYPE_CHECKING:
    from moonshine.engine.rulebook import Rulebook
    from moonshine.game.directory import Game
    from moonshine.game.families.prediction import Block, Prediction
    from moonshine.game.site import Revealed
    from moonshine.picture.charts import Chart
    from moonshine.picture.shapes import Scene
    from moonshine.render.figures import Legend
    from moonshine.text.chatter import ChatterTest

VARIANT = "classic"
_HEADER = re.compile(r"^\s*(?:power|puissance|gang|turn|tour|phase|password|passwd|pass|mot de passe|mdp)\s*:", re.I)
MAP_NAME = "classic"


def create(root: Path, title: str | None, use_git: bool, board_name: str = MAP_NAME) -> ClassicState:
    """Write the first phase of a game of the classic family on the bundled board
    ``board_name`` into ``root`` (game.yaml is the caller's); commit it when git is
    available. Returns the starting state."""
    import subprocess

    from moonshine.game.directory import atomic_write_text, git_available, git_commit, is_git_repo

    st = state_mod.initial_state(board(board_name))
    atomic_write_text(state_path(root, st.phase.name), state_mod.dumps(st))
    odir = orders_dir(root, st.phase.name)
    odir.mkdir(parents=True, exist_ok=True)
    (odir / ".keep").touch()
    if use_git and git_available():
        if not is_git_repo(root):
            subprocess.run(["git", "init", "-q", str(root)], check=False, capture_output=True)
        git_commit(root, f"New game: {title or 'Diplomacy'}, {st.phase.name}")
    return st


def power_of_file(path: Path, gmap: ClassicMap) -> str:
    """``ENG.txt``, ``eng.txt``, ``england.txt`` or ``angleterre.txt`` -> ``ENG``."""
    code = gmap.power_by_name(path.stem)
    if code is not None:
        return code
    raise GameError(f"{path}: no power is called {path.stem!r} (expected {', '.join(gmap.powers)} or a power's name)")


def read_orders(
    directory: Path, gmap: ClassicMap, st: ClassicState, unread: list[dict[str, Any]] | None = None
) -> tuple[dict[str, list[Order]], list[str]]:
    """The powers' orders in ``directory``, and the lines that could not be read: each
    line read as the acknowledgement reads it (``classic.ack.read_line``). ``unread``,
    when given, receives each line that could not be read as a value (its power, line
    number and text, and why: the acknowledgement's ``detail`` key and fields), so that
    the power's report says why in its reader's language."""
    from moonshine.render.classic.ack import read_line, word

    orders: dict[str, list[Order]] = {}
    problems: list[str] = []
    if not directory.is_dir():
        return orders, problems
    from moonshine.game import orderfile

    for path in sorted(directory.glob("*.txt")):
        # one bad file never voids the others: it is left out, and the results say why
        try:
            power = power_of_file(path, gmap)
            text = orderfile.read(path)
        except GameError as exc:
            problems.append(f"{exc}; the file is left out")
            continue
        for n, raw in enumerate(text.splitlines()[:1000], start=1):
            line = raw.split("#", 1)[0].strip()
            if not line or _HEADER.match(line):  # power:, turn: (a mailed file's headers)
                continue
            read = read_line(gmap, st, power, n, line)
            if read.order is not None:
                orders.setdefault(power, []).append(read.order)
                continue
            if unread is not None and read.detail is not None:
                fields = {k: str(v) for k, v in read.detail[1].items()}
                unread.append({"power": power, "line": n, "text": line, "detail": read.detail[0], "fields": fields})
            try:
                parse_order(line)
            except OrderError as exc:
                problems.append(f"{path.name}:{n}: {exc}")
            else:
                detail = word(read.detail[0], "en", **read.detail[1]) if read.detail is not None else line
                problems.append(f"{path.name}:{n}: {line!r}: {detail}")
    return orders, problems


def expected_of(gmap: ClassicMap, st: ClassicState) -> list[str]:
    """The powers with something to order in ``st``'s phase: units (movement), a
    dislodged unit (retreats), builds or disbands owed (adjustments); none once the
    game is won."""
    from moonshine.variants.classic.adjustments import adjustment_counts
    from moonshine.variants.classic.state import Step

    if st.winner:
        return []
    if st.phase.step is Step.RETREATS:
        who = {d.power for d in st.dislodged}
    elif st.phase.step is Step.ADJUSTMENTS:
        who = {p for p, n in adjustment_counts(gmap, st.units, st.owners).items() if n}
    else:
        who = {u.power for u in st.units}
    return [p for p in gmap.powers if p in who]


def who_sent(directory: Path, gmap: ClassicMap) -> set[str]:
    """The powers with an orders file in ``directory`` (a file no power is called by is none)."""
    out = set()
    for path in directory.glob("*.txt") if directory.is_dir() else ():
        try:
            out.add(power_of_file(path, gmap))
        except GameError:
            continue
    return out


def left_out(
    gmap: ClassicMap, st: ClassicState, orders: Mapping[str, Sequence[Order]], sent: set[str]
) -> dict[str, Any]:
    """What the reports tell a power of the orders it did not give: ``silent``, the
    powers that had something to order and sent no file; ``unordered``, for each power
    that sent one, the units of a movement phase its file gave no order (they held)."""
    from moonshine.variants.classic.state import Step

    expected = expected_of(gmap, st)
    out: dict[str, Any] = {}
    silent = [p for p in expected if p not in sent]
    if silent:
        out["silent"] = silent
    if st.phase.step is Step.MOVEMENT:
        unordered: dict[str, list[str]] = {}
        for p in expected:
            if p not in sent:
                continue
            given = {o.unit.province for o in orders.get(p, ()) if hasattr(o, "unit")}
            missing = [u.label() for u in st.units_of(p) if u.province not in given]
            if missing:
                unordered[p] = missing
        if unordered:
            out["unordered"] = unordered
    return out


def results_data(outcome: PhaseOutcome, problems: Sequence[str]) -> dict[str, Any]:
    def rows(results: Sequence[Result]) -> dict[str, list[dict[str, Any]]]:
        out: dict[str, list[dict[str, Any]]] = {}
        for r in results:
            row: dict[str, Any] = {"order": r.order, "result": "succeeds" if r.succeeded else "fails"}
            row["reason"] = r.reason  # in English, for a person reading the file
            if r.outcome is not None:
                row["outcome"] = oc.to_data(r.outcome)  # what the reports explain
            elif r.message is not None:
                row["message"] = message_data(r.message)  # a retreat's or adjustment's reason, likewise
            out.setdefault(r.power, []).append(row)
        return {p: out[p] for p in sorted(out)}

    data: dict[str, Any] = {
        "phase": outcome.phase.name,
        "results": rows(outcome.results),
        "next": outcome.next_state.phase.name,
    }
    if outcome.ignored:
        data["ignored"] = rows(outcome.ignored)
    if problems:
        data["unreadable"] = list(problems)
    if outcome.notes:
        data["notes"] = list(outcome.notes)  # in English, for a person reading the file
    if outcome.events:
        data["events"] = [e.to_data() for e in outcome.events]  # what the reports word
    return data


def results_text(gmap: ClassicMap, outcome: PhaseOutcome, problems: Sequence[str]) -> str:
    lines = [f"Results of {outcome.phase.name}", ""]
    for title, results in (("", outcome.results), ("Ignored orders", outcome.ignored)):
        if not results:
            continue
        if title:
            lines += [title, ""]
        for power in sorted({r.power for r in results}):
            lines.append(gmap.powers[power])
            for r in (x for x in results if x.power == power):
                lines.append(f"  {r.order:<28} {'ok  ' if r.succeeded else 'FAIL'}  {r.reason}")
            lines.append("")
    for p in problems:
        lines.append(f"Unreadable: {p}")
    for note in outcome.notes:
        lines.append(note)
    nxt = outcome.next_state
    lines.append(f"Next: {nxt.phase.name}" + (f" (game over: {gmap.powers[nxt.winner]} wins)" if nxt.winner else ""))
    return "\n".join(lines).rstrip() + "\n"


class Adjudicated(msgspec.Struct, frozen=True):
    outcome: PhaseOutcome
    problems: list[str]
    results_path: Path
    next_state_path: Path
    scene: Scene | None = None  # the phase's map picture, in the language it was drawn in (None: no layout)


def adjudicate_phase_dir(
    root: Path,
    phase: str,
    *,
    force: bool = False,
    commit: bool = True,
    gmap: ClassicMap | None = None,
    extra_orders: Mapping[str, Sequence[Order]] | None = None,
    language: str = "en",
    rules: Rulebook | None = None,
) -> Adjudicated:
    """Adjudicate ``phase`` of the classic game in ``root`` from ``orders/PHASE/*.txt``
    under ``rules`` (by default the game's, from its game.yaml); the map picture names
    the provinces and powers in ``language``."""
    from moonshine.game.directory import atomic_write_bytes, atomic_write_text, git_commit
    from moonshine.picture.png import scene_png
    from moonshine.picture.svg import scene_svg
    from moonshine.variants.classic.scene import build_scene
    from moonshine.variants.classic.scene.layout import has_layout

    gmap = gmap or standard_map()
    try:
        ph = Phase.parse(phase)
    except ValueError as exc:
        raise GameError(str(exc)) from None
    known = phases(root)
    path = state_path(root, ph.name)
    if not path.is_file():
        raise GameError(f"{path}: no state for {ph.name} (phases in this game: {', '.join(known) or 'none'})")
    if known and known[-1] != ph.name and not force:
        raise GameError(f"{ph.name} is not the current phase ({known[-1]}); use --force to adjudicate it again")
    results_path = root / "turns" / ph.name / "results.yaml"
    if results_path.exists() and not force:
        raise GameError(f"{ph.name} is already adjudicated ({results_path}); use --force to do it again")
    later = known[known.index(ph.name) + 1 :]
    if len(later) > 1 or any((root / "turns" / p / "results.yaml").exists() for p in later):
        raise GameError(
            f"{ph.name} is not the game's latest phase (phases after it: {', '.join(later)}); "
            f"use 'moonshine rollback {ph.name}' first"
        )
    st = state_mod.load(path, gmap)
    unread: list[dict[str, Any]] = []
    orders, problems = read_orders(orders_dir(root, ph.name), gmap, st, unread)
    for power, more in (extra_orders or {}).items():
        orders.setdefault(power, []).extend(more)
    try:
        outcome = adjudicate_phase(gmap, st, orders, rules or rulebook_of(root))
    except ValueError as exc:
        raise GameError(f"{ph.name}: {exc}") from None
    data = results_data(outcome, problems)
    data.update(left_out(gmap, st, orders, who_sent(orders_dir(root, ph.name), gmap)))
    if unread:
        data["unread"] = unread
    scene = None
    if has_layout(gmap):  # the map picture, beside the results (written first: results imply a picture)
        scene = build_scene(gmap, st, outcome, language=language)
        atomic_write_text(results_path.with_name("map.svg"), scene_svg(scene))
        atomic_write_bytes(results_path.with_name("map.png"), scene_png(scene))
    atomic_write_text(results_path, yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100))
    atomic_write_text(results_path.with_suffix(".txt"), results_text(gmap, outcome, problems))
    nxt = outcome.next_state
    from moonshine.game import journal

    txn = journal.active(root)
    for old in later:  # adjudicated again: the phase it led to before goes (its orders stay)
        if txn is not None:
            txn.remove_tree(root / "turns" / old)
        else:
            shutil.rmtree(root / "turns" / old)
    next_path = state_path(root, nxt.phase.name)
    atomic_write_text(next_path, state_mod.dumps(nxt))
    if not nxt.winner:
        odir = orders_dir(root, nxt.phase.name)
        odir.mkdir(parents=True, exist_ok=True)
        atomic_write_text(odir / ".keep", "")  # through the journal: undone with the rest
    if commit:
        git_commit(root, f"Adjudicate {ph.name}")
    return Adjudicated(outcome, problems, results_path, next_path, scene)


CENTRES_CHART = "centres.png"  # the bulletin's chart, beside it and attached to its mail
_CENTRES_WORDS: Catalogue = {
    "classic.centres.title": "Supply centres",
    "classic.centres.goal": ("{n} centre wins", "{n} centres win"),
}


def centres_chart(root: Path, gmap: ClassicMap, nxt: ClassicState, language: str) -> Chart:
    """Supply centres per power at the end of each year so far (the last state of
    each year up to ``nxt``, the position after the phase)."""
    from moonshine.picture import charts

    last: dict[int, ClassicState] = {}
    for name in phases(root):
        ph = Phase.parse(name)
        if Phase.sort_key(ph) < Phase.sort_key(nxt.phase):
            last[ph.year] = load_state(root, name, gmap)
    last[nxt.phase.year] = nxt
    years = sorted(last)
    from moonshine.variants.classic.scene.layout import layout_of

    colours = layout_of(gmap).colours
    lang = language if language in languages() else "en"
    title = keyed(lang, _CENTRES_WORDS, "classic.centres.title")
    goal = keyed(lang, _CENTRES_WORDS, "classic.centres.goal", gmap.victory_centres)
    return charts.centres_chart(
        title,
        [str(y) for y in years],
        [last[y].owners for y in years],
        {p: (name, colours[p]) for p, name in gmap.power_names(lang).items()},
        target=gmap.victory_centres,
        target_label=goal.format(n=gmap.victory_centres),
    )


def write_phase_reports(
    root: Path,
    phase: str,
    gmap: ClassicMap,
    *,
    language: str,
    powers: Sequence[str] | None = None,
    bulletin: bool = True,
    power_languages: Mapping[str, str] | None = None,
    redraw: bool = False,
    scenes: Mapping[str, Scene] | None = None,
    news: Sequence[str] = (),
    disorder: Mapping[str, str] | None = None,
) -> list[Path]:
    """Write PHASE's reports under ``turns/PHASE/reports/``: ``POWER.txt`` and
    ``POWER.html`` for each power (or those given), ``bulletin.txt`` and
    ``bulletin.html``, and the phase's map picture (``map.svg``, ``map.png``): the
    one drawn at its adjudication, or with ``redraw`` drawn again in ``language``
    (the game's language may have changed since); and the map's legend, shown under
    it, in each language read (``legend.png``, ``legend.fr.png``). ``scenes``: the
    phase's picture as a scene in a language, drawn already (the adjudication's).
    ``news``: what the judge tells the bulletin of the game; ``disorder``: the powers
    whose orders the civil-disorder player wrote, with its name (R26)."""
    from moonshine.game.directory import atomic_write_bytes, atomic_write_text
    from moonshine.render.classic.report import load_results, render_all
    from moonshine.render.figures import closeup_file, map_file

    try:
        ph = Phase.parse(phase)
    except ValueError as exc:
        raise GameError(str(exc)) from None
    for p in powers or ():
        if p not in gmap.powers:
            raise GameError(f"unknown power {p!r} (powers: {', '.join(gmap.powers)})")
    data = load_results(root / "turns" / ph.name / "results.yaml")
    nxt = load_state(root, str(data.get("next", "")), gmap)
    base = root / "turns" / ph.name / "reports"
    written: list[Path] = []
    charts: list[str] = []
    if bulletin:
        from moonshine.picture import charts as charting

        atomic_write_bytes(base / CENTRES_CHART, charting.png(centres_chart(root, gmap, nxt, language)))
        written.append(base / CENTRES_CHART)
        charts.append(CENTRES_CHART)
    drawn = dict(scenes or {})
    if redraw:
        again = _draw_again(root, ph, gmap, language)
        if again is not None:
            drawn[language] = again
    # the legend in the bulletin's language and in each reader's
    chosen = list(powers) if powers is not None else list(gmap.powers)
    reads = ([language] if bulletin else []) + [(power_languages or {}).get(p, language) for p in chosen]
    legends = _legends(root, ph, gmap, dict.fromkeys(reads), language, drawn)
    # each reader's map in their language (map.fr.png), and each power's close-up of its area
    images = {p: map_file((power_languages or {}).get(p, language), language) for p in chosen}
    pictures: dict[str, bytes] = {}
    for lang in dict.fromkeys(reads):
        if lang != language and lang in drawn:
            svg_bytes, png_bytes = _drawn_bytes(drawn[lang])
            pictures[map_file(lang, language, "svg")] = svg_bytes
            pictures[map_file(lang, language)] = png_bytes
    closeups: dict[str, str] = {}
    for p in chosen:
        own = (power_languages or {}).get(p, language)
        near = _closeup(gmap, ph, nxt, p, drawn.get(own), own)
        if near is not None:
            closeups[p] = closeup_file(p)
            pictures[closeup_file(p)] = near
    texts = render_all(
        gmap,
        data,
        nxt,
        language=language,
        powers=powers,
        bulletin=bulletin,
        charts=charts,
        power_languages=power_languages,
        legends={lang: shown for lang, (shown, _) in legends.items()},
        summaries=_summaries(root, nxt, chosen, language, power_languages),
        images=images,
        closeups=closeups,
        news=news,
        disorder=disorder,
    )
    for name, text in texts.items():
        atomic_write_text(base / name, text)
        written.append(base / name)
    for i, picture in enumerate(("map.svg", "map.png")):
        src = root / "turns" / ph.name / picture
        if redraw and language in drawn:
            scene = drawn[language]
            atomic_write_bytes(base / picture, _drawn_bytes(scene)[i])
            written.append(base / picture)
        elif src.is_file():
            atomic_write_bytes(base / picture, src.read_bytes())
            written.append(base / picture)
    for shown, png in legends.values():
        atomic_write_bytes(base / shown.file, png)
        written.append(base / shown.file)
    for name, data_bytes in pictures.items():
        atomic_write_bytes(base / name, data_bytes)
        written.append(base / name)
    return written


CLOSEUP_WIDTH = 744  # pixels: twice what a phone shows it at (moonshine.variants.classic.scene.closeup.PHONE_WIDTH)


def _closeup(
    gmap: ClassicMap, ph: Phase, nxt: ClassicState, power: str, scene: Scene | None, lang: str
) -> bytes | None:
    """A power's close-up of the phase's picture (``scene``, in its reader's language):
    its own area as the phase leaves it, cropped, its names readable on a phone, as a
    PNG; None for a power out of the game or a board without a picture."""
    from moonshine.picture.png import scene_png
    from moonshine.render.classic.report import word
    from moonshine.variants.classic.scene.closeup import area_of, closeup

    if scene is None:
        return None
    area = area_of(gmap, nxt, power)
    if not area:
        return None
    title = word("closeup_alt", lang, board=gmap.info.title, phase=ph.label(lang))
    return scene_png(closeup(gmap, scene, area, title=title), CLOSEUP_WIDTH, supersample=1)


def _drawn_bytes(scene: Scene) -> tuple[bytes, bytes]:
    """A phase's picture as its files: SVG and PNG."""
    from moonshine.picture.png import scene_png
    from moonshine.picture.svg import scene_svg

    return scene_svg(scene).encode("utf-8"), scene_png(scene)


def _legends(
    root: Path,
    ph: Phase,
    gmap: ClassicMap,
    languages_read: Iterable[str],
    game_language: str,
    drawn: dict[str, Scene],
) -> dict[str, tuple[Legend, bytes]]:
    """The map's legend as a picture of its own in each language read (none for a board
    without a layout): the page's view of it and its PNG. ``drawn``: the phase's scene
    in a language, drawn already; those drawn here are added to it."""
    from moonshine.picture.png import legend_picture
    from moonshine.render.classic.report import word
    from moonshine.render.figures import Legend, legend_file
    from moonshine.variants.classic.scene.legend import legend

    out: dict[str, tuple[Legend, bytes]] = {}
    for lang in languages_read:
        scene = drawn.get(lang)
        if scene is None:
            scene = _draw_again(root, ph, gmap, lang)
            if scene is None:
                return {}
            drawn[lang] = scene
        title = word("legend_alt", lang)
        picture = legend_picture(legend(scene, title=title))
        out[lang] = (Legend(legend_file(lang, game_language), picture.width, picture.height), picture.png)
    return out


def _summaries(
    root: Path, nxt: ClassicState, powers: Sequence[str], language: str, power_languages: Mapping[str, str] | None
) -> dict[str, list[tuple[str, str]]]:
    """Each power's first rows in its report: the next phase's deadline in its
    player's zone and language, what to send and where (``game.yaml``'s judge address,
    else the game master), its centres and units; none for a directory without a
    game.yaml."""
    from moonshine.game.deadlines import next_deadline_line
    from moonshine.game.directory import GAME_FILE, Game
    from moonshine.game.reports import orders_address
    from moonshine.render.classic.report import summary_rows

    if not (root / GAME_FILE).is_file():
        return {}
    game = Game(root)
    send_to = orders_address(game.config)
    out: dict[str, list[tuple[str, str]]] = {}
    for p in powers:
        lang = (power_languages or {}).get(p, language)
        line = next_deadline_line(game, nxt.phase.name, p, lang, sentence=False)
        out[p] = summary_rows(nxt, p, lang, deadline=line, send_to=send_to)
    return out


def rulebook_of(root: Path) -> Rulebook:
    """The rule choices of the classic game in ``root`` (its game.yaml's ``rules:``; the
    2023 rulebook's when it names none, or has no game.yaml)."""
    from moonshine.game.directory import GAME_FILE, load_config

    if not (root / GAME_FILE).is_file():
        return CLASSIC
    return load_config(root / GAME_FILE).rulebook or CLASSIC


def _draw_again(root: Path, ph: Phase, gmap: ClassicMap, language: str) -> Scene | None:
    """The phase's map picture drawn again in ``language``, as a scene: the phase
    adjudicated again, a pure function, from its opening state and its orders files;
    None for a board with no layout."""
    from moonshine.variants.classic.scene import build_scene
    from moonshine.variants.classic.scene.layout import has_layout

    if not has_layout(gmap):
        return None
    st = state_mod.load(state_path(root, ph.name), gmap)
    orders, _ = read_orders(orders_dir(root, ph.name), gmap, st)
    try:
        outcome = adjudicate_phase(gmap, st, orders, rulebook_of(root))
    except ValueError as exc:
        raise GameError(f"{ph.name}: {exc}") from None
    return build_scene(gmap, st, outcome, language=language)


def adjudicated_phases(root: Path) -> list[str]:
    """The phases with results, oldest first."""
    return [p for p in phases(root) if (root / "turns" / p / "results.yaml").is_file()]


def build_site(
    root: Path,
    gmap: ClassicMap,
    done: Sequence[str],
    title: str,
    out: Path,
    *,
    language: str,
    deadline: str = "",
    revealed: Revealed | None = None,
) -> list[Path]:
    """Write the site of the classic-family game at ``root``, whose adjudicated phases
    are ``done`` (oldest first), into the folder ``out``; returns the files written.
    ``deadline``: when the phase being played is due (a sentence), on the home page.
    ``revealed``: an anonymous game's players, named once it is over
    (``moonshine.game.site.revealed_players``)."""
    from moonshine.game.directory import atomic_write_bytes, atomic_write_text
    from moonshine.picture import charts
    from moonshine.render import pages
    from moonshine.render.classic.report import html_context, load_results, word
    from moonshine.render.classic.site import phase_title, words_of
    from moonshine.render.figures import Legend, legend_figure

    words = words_of(language)
    labels = {p: phase_title(Phase.parse(p), language) for p in done}
    written: list[Path] = []
    last_next = None
    for i, phase in enumerate(done):
        data = load_results(root / "turns" / phase / "results.yaml")
        nxt = load_state(root, str(data.get("next", "")), gmap)
        last_next = nxt
        page = out / "turns" / phase
        pictures: list[str] = []
        # drawn in the site's language (the game's may have changed since the phase)
        drawn = _draw_again(root, Phase.parse(phase), gmap, language)
        files = _drawn_bytes(drawn) if drawn is not None else None
        for j, picture in enumerate(("map.svg", "map.png")):
            src = root / "turns" / phase / picture
            if files is not None:
                atomic_write_bytes(page / picture, files[j])
            elif src.is_file():
                atomic_write_bytes(page / picture, src.read_bytes())
            else:
                continue
            written.append(page / picture)
            pictures.append(picture)
        prev = {"label": labels[done[i - 1]], "href": f"../{done[i - 1]}/index.html"} if i else None
        after = {"label": labels[done[i + 1]], "href": f"../{done[i + 1]}/index.html"} if i + 1 < len(done) else None
        image = "map.png" if "map.png" in pictures else ""
        legends = _legends(root, Phase.parse(phase), gmap, [language], language, {language: drawn} if drawn else {})
        legend = legends[language][0] if image and language in legends else None
        if legend is not None:
            atomic_write_bytes(page / legend.file, legends[language][1])
            written.append(page / legend.file)
        ctx = html_context(gmap, data, nxt, power=None, language=language, image=image, legend=legend)
        ctx.update(
            words=words,
            prev=prev,
            next=after,
            svg="map.svg" if "map.svg" in pictures else "",
            svg_label=words["svg"],
            game_title=title,
        )
        atomic_write_text(page / "index.html", pages.inline_css(pages.render("classic_site_phase.html.j2", ctx)))
        written.append(page / "index.html")
    assert last_next is not None
    chart = centres_chart(root, gmap, last_next, language)
    atomic_write_bytes(out / "centres.png", charts.png(chart))
    atomic_write_text(out / "centres.svg", charts.svg(chart))
    written += [out / "centres.png", out / "centres.svg"]
    latest = done[-1]
    index: dict[str, object] = dict(
        lang=language,
        words=words,
        title=title,
        game_title="",
        colon=fmt(language, "format.colon"),
        latest={"label": labels[latest], "href": f"turns/{latest}/index.html"},
        latest_map=f"turns/{latest}/map.png" if (out / "turns" / latest / "map.png").is_file() else None,
        legend=(
            legend_figure(
                Legend(f"turns/{latest}/{legend.file}", legend.width, legend.height),
                word("legend", language),
                word("legend_alt", language),
            )
            if legend is not None
            else None
        ),
        phases=[{"label": labels[p], "href": f"turns/{p}/index.html"} for p in done],
        chart_title=chart.title,
        deadline=deadline,
        revealed=revealed,
    )
    atomic_write_text(out / "index.html", pages.inline_css(pages.render("classic_site_index.html.j2", index)))
    written.insert(0, out / "index.html")
    return written


class Told(TypedDict):
    news: list[str]
    disorder: dict[str, str]


def _told(game: Game, phase: str, language: str) -> Told:
    """What the phase's reports tell beside its results: the judge's news of the game
    (``moonshine.game.news``) and the powers whose orders the civil-disorder player
    wrote (R26)."""
    from moonshine.game import news
    from moonshine.game.civil_disorder import marks

    return Told(
        news=news.sentences(game, phase, language),
        disorder={p: m.player for p, m in marks(game, phase).items()},
    )


class ClassicFamily:
    name = "classic"
    messages = ".classic"
    reveals_seed = True  # its secret seed draws the civil-disorder player's choices (R26)
    raids = False  # no raid: the seed draws nothing else

    def create(
        self,
        root: Path,
        *,
        variant: str,
        map_name: str,
        seed: str | None,
        title: str | None,
        language: str,
        use_git: bool,
    ) -> Game:
        from moonshine.game.directory import (
            GAME_FILE,
            IGNORED,
            SECRET_FILE,
            Game,
            GameConfig,
            Player,
            atomic_write_text,
            config_to_yaml,
            seed_hash,
            write_secret,
        )
        from moonshine.game.seeds import new_secret

        gmap = board(variant)
        seed = seed if seed is not None else new_secret()  # the civil-disorder player draws from it (R26)
        if not seed.strip():
            raise GameError("the seed cannot be empty")
        root.mkdir(parents=True, exist_ok=True)
        cfg = GameConfig(
            title=title or gmap.info.title,
            map=variant,
            language=language,
            seed_sha256=seed_hash(seed),
            players={p: Player(name="", email=[]) for p in gmap.powers},
            variant=variant,
        )
        write_secret(root / SECRET_FILE, seed)
        atomic_write_text(root / ".gitignore", "".join(f"{pattern}\n" for pattern in IGNORED))
        atomic_write_text(root / GAME_FILE, config_to_yaml(cfg))
        create(root, cfg.title, use_git, variant)
        return Game(root)

    def created(self, game: Game) -> list[str]:
        first = phases(game.root)[0]
        spec = game.variant
        return [
            f"Created {game.root}: {game.config.title}, variant {spec.name} ({spec.title}), first phase {first}.",
            f"Seed hash (publish it): {game.config.seed_sha256}",
            f"Next: add players' addresses to {game.config_path}, collect orders in {game.root}/orders/{first}/.",
        ]

    def check_orders(
        self, text: str, game: Game, st: Any, side: str | None, *, source: str, language: str
    ) -> OrderCheck:
        from moonshine.render.classic.ack import read_submission, render

        gmap = game.board()
        sub = read_submission(gmap, st, text, side)
        ack = sub.ack
        lines = [line for line in ack.lines if not line.noted] if ack is not None else []
        return OrderCheck(
            header_gang=sub.power,
            header_turn=sub.turn,
            password=sub.password,
            password_lines=sub.password_lines,
            accepted=sum(1 for line in lines if line.ok),
            rejected=sum(1 for line in lines if not line.ok),
            problems=(),
            acknowledgement=render(ack, gmap, language=language, source=source) if ack is not None else "",
        )

    def acknowledge(
        self, game: Game, file: Path, text: str, turn: str | None, side: str | None, language: str | None
    ) -> tuple[str, bool]:
        """A classic-family orders file: the power is --gang, else the file's
        ``power:`` line, else its name (FRA.txt, france.txt)."""
        from moonshine.render.classic.ack import check_orders, render

        gmap = game.board()
        known = phases(game.root)
        if turn is not None:
            try:
                turn = Phase.parse(turn).name
            except ValueError as exc:
                raise GameError(str(exc)) from None
        elif not known:
            raise GameError(f"{game.root}: no phase yet (no turns/*/state.yaml)")
        st = load_state(game.root, turn or known[-1], gmap)
        # blanks but no line break before the word ("^\s*" read every empty line to the end)
        header = re.search(r"^[^\S\n]*+(?:power|puissance|gang)\s*+:\s*+(\S+)", text, re.IGNORECASE | re.MULTILINE)
        named = side or (header.group(1) if header else None)
        code = power_of_file(Path(f"{named}.txt") if named else file, gmap)
        ack = check_orders(gmap, st, code, text)
        return render(ack, gmap, language=language or game.config.language, source=str(file)), ack.ok

    def chatter_test(self, game: Game) -> ChatterTest:
        from moonshine.render.classic.ack import chatter_test

        return chatter_test(game.board())

    def adjudicate(
        self,
        game: Game,
        turn: str,
        *,
        force: bool = False,
        commit: bool = True,
        now: datetime | None = None,
        notify: Notify | None = None,
    ) -> list[str]:
        """A phase (spring-1901, spring-1901-retreats, winter-1901) on the game's
        board: orders from orders/PHASE/POWER.txt, results in
        turns/PHASE/results.yaml, the pictures and the reports. One transaction,
        as for Moonshine: if it is interrupted, the next command undoes it."""
        from moonshine.game.directory import is_git_repo
        from moonshine.game.journal import transaction

        game.turn_key(turn)  # a phase's name, else a clear error
        gmap = game.board()
        with transaction(game.root, f"adjudicate {turn}", notify=notify) as txn:
            tdir = game.turn_dir(Phase.parse(turn).name)
            for picture in ("map.svg", "map.png"):
                txn.protect(tdir / picture)
            txn.protect_tree(tdir / "reports")
            done = adjudicate_phase_dir(
                game.root,
                turn,
                force=force,
                commit=False,
                gmap=gmap,
                language=game.config.language,
                rules=game.config.rulebook or CLASSIC,
            )
            name = done.outcome.phase.name
            reports = write_phase_reports(
                game.root,
                name,
                gmap,
                language=game.config.language,
                power_languages=game.side_languages(),
                scenes={game.config.language: done.scene} if done.scene is not None else None,
                **_told(game, name, game.config.language),
            )
            txn.commit(f"Adjudicate {name}", git=commit and is_git_repo(game.root))
        return [
            done.results_path.with_suffix(".txt").read_text(encoding="utf-8").rstrip(),
            "",
            f"Results: {done.results_path}",
            f"Reports, bulletin and map: {reports[0].parent}/",
            f"Next state: {done.next_state_path}",
        ]

    def write_reports(self, game: Game, turn: str, *, side: str | None, language: str | None) -> list[Path]:
        gmap = game.board()
        lang = language or game.config.language
        key = None
        if side is not None:
            key = game.side_by_name(side)
            if key is None:
                raise GameError(f"no power {side!r} (powers: {', '.join(gmap.powers)})")
        return write_phase_reports(
            game.root,
            turn,
            gmap,
            language=lang,
            powers=[key] if key else None,
            bulletin=key is None,
            power_languages=None if language else game.side_languages(),  # --language: that one for all
            redraw=True,  # in the language asked for, or the game's now
            **_told(game, turn, lang),
        )

    def report_text(self, game: Game, turn: str, *, side: str | None, language: str | None) -> str:
        from moonshine.render.classic.report import load_results, render_text

        gmap = game.board()
        key = None
        if side is not None:
            key = game.side_by_name(side)
            if key is None:
                raise GameError(f"no power {side!r} (powers: {', '.join(gmap.powers)})")
        data = load_results(game.turn_dir(turn) / "results.yaml")
        nxt = load_state(game.root, str(data.get("next", "")), gmap)
        lang = language or game.config.language
        return render_text(gmap, data, nxt, power=key, language=lang, **_told(game, turn, lang))

    def outcomes(self, game: Game, turn: str) -> Iterator[OrderOutcome]:
        from moonshine.render.classic.report import load_results

        data = load_results(game.turn_dir(turn) / "results.yaml")
        words = game.variant.layout.wording
        for side, rows in (data.get("results") or {}).items():
            for r in rows or []:
                value = oc.from_data(r["outcome"]) if isinstance(r.get("outcome"), dict) else None
                order = str(r.get("order", ""))
                unit = " ".join(order.split()[:2])
                ok = r.get("result") == "succeeds"
                yield OrderOutcome(str(side), unit, order, ok, value, str(r.get("reason", "")), words)

    def build_site(self, game: Game, out: Path, *, language: str | None) -> list[Path]:
        from moonshine.game.site import clear_folder, revealed_players
        from moonshine.render import phrasebook

        lang = phrasebook.check_language(language or game.config.language)
        done = adjudicated_phases(game.root)
        if not done:
            raise GameError(f"{game.root}: no phase adjudicated yet, so nothing is public")
        from moonshine.game.deadlines import next_deadline_line

        clear_folder(out)
        playing = phases(game.root)[-1]  # the phase being played, when the game goes on
        deadline = next_deadline_line(game, playing, None, lang) if playing not in done else ""
        revealed = revealed_players(game, lang)
        return build_site(
            game.root, game.board(), done, game.config.title, out, language=lang, deadline=deadline, revealed=revealed
        )

    def predict(self, block: Block) -> Prediction:
        return predict(block)


def predict(block: Block) -> Prediction:
    """A classic game's prediction: each line read by the board's checker as the
    order of the power whose unit it names (or the power a ``power:`` line in the
    block names), the phase adjudicated by the same function as the real one."""
    from moonshine.game.families.prediction import Prediction, read_block
    from moonshine.render import mailwords
    from moonshine.render.classic.ack import check_orders, word
    from moonshine.render.classic.report import event_text
    from moonshine.variants.classic.orders import restate

    gmap = block.game.board()
    st = block.st
    lang = block.language
    powers = list(gmap.powers)

    def read(power: str, line: str) -> tuple[Order | None, str]:
        read_lines = [x for x in check_orders(gmap, st, power, line).lines if not x.noted]
        if not read_lines:
            return None, ""
        x = read_lines[0]
        if x.ok and x.order is not None:
            return x.order, ""
        if x.problem is not None:
            return None, x.problem.text(lang)
        return None, word(x.detail[0], lang, **x.detail[1]) if x.detail is not None else ""

    taken: list[tuple[str, Order, int]]
    taken, problems = read_block(block, powers, read)
    orders: dict[str, list[Order]] = {}
    for power, order, _ in taken:
        orders.setdefault(power, []).append(order)
    if problems:
        return Prediction(problems=tuple(problems))
    if not orders:
        return Prediction()
    outcome = adjudicate_phase(gmap, st, orders, block.game.config.rulebook or CLASSIC)
    sides = gmap.power_names(lang)
    lines = [mailwords.text(lang, "predict.head", turn=mailwords.subject_turn(lang, block.turn))]
    for power in powers:
        rows = [r for r in outcome.results if r.power == power]
        if not rows:
            continue
        lines.append(f"{sides.get(power, power)}{fmt(lang, 'format.colon').rstrip()}")
        for r in rows:
            mark = mailwords.text(lang, "predict.ok" if r.succeeded else "predict.failed")
            lines.append(f"  {restate(r.order, lang)}{fmt(lang, 'format.colon')}{mark} ({r.explain(lang)})")
    lines.extend(event_text(gmap, e, lang) for e in outcome.events)
    lines.append(mailwords.text(lang, "predict.note_classic"))
    text = "\n".join(lines)
    png: bytes | None
    try:
        from moonshine.variants.classic.scene import render_png

        title = mailwords.text(lang, "predict.title", turn=mailwords.subject_turn(lang, block.turn))
        png = render_png(gmap, st, outcome, title=title, language=lang)
    except Exception:  # a board without a layout: the text alone
        png = None
    return Prediction(sum(len(v) for v in orders.values()), text, png)
