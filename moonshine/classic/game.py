"""A classic game directory::

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
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from moonshine import outcome as oc
from moonshine.classic import state as state_mod
from moonshine.classic.board import ClassicMap, standard_map
from moonshine.classic.layout import load_state as load_state
from moonshine.classic.layout import orders_dir as orders_dir
from moonshine.classic.layout import phases as phases
from moonshine.classic.layout import state_path as state_path
from moonshine.classic.movement import Result
from moonshine.classic.orders import Order, OrderError, parse_order
from moonshine.classic.phases import PhaseOutcome, adjudicate_phase
from moonshine.classic.state import ClassicState, Phase
from moonshine.errors import GameError
from moonshine.records import dataclass
from moonshine.text import message_data

if TYPE_CHECKING:
    from moonshine.charts import Chart

VARIANT = "classic"
_HEADER = re.compile(r"^\s*(?:power|puissance|gang|turn|tour|phase|password|passwd|pass|mot de passe|mdp)\s*:", re.I)
MAP_NAME = "classic"


def create(root: Path, title: str | None, use_git: bool, board_name: str = MAP_NAME) -> ClassicState:
    """Write the first phase of a game of the classic family on the bundled board
    ``board_name`` into ``root`` (game.yaml is the caller's). Returns the starting state."""
    from moonshine.gamedir import write_first_phase

    return write_first_phase(root, board_name, title=title, use_git=use_git)


def power_of_file(path: Path, gmap: ClassicMap) -> str:
    """``ENG.txt``, ``eng.txt`` or ``england.txt`` -> ``ENG``."""
    stem = path.stem.strip().upper()
    if stem in gmap.powers:
        return stem
    for code, name in gmap.powers.items():
        if stem == name.upper():
            return code
    raise GameError(f"{path}: no power is called {path.stem!r} (expected {', '.join(gmap.powers)} or a power's name)")


def read_orders(directory: Path, gmap: ClassicMap) -> tuple[dict[str, list[Order]], list[str]]:
    """The powers' orders in ``directory``, and the lines that could not be read."""
    orders: dict[str, list[Order]] = {}
    problems: list[str] = []
    if not directory.is_dir():
        return orders, problems
    from moonshine import orderfile

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
            try:
                orders.setdefault(power, []).append(parse_order(line))
            except OrderError as exc:
                problems.append(f"{path.name}:{n}: {exc}")
    return orders, problems


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
        data["notes"] = list(outcome.notes)
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


@dataclass(frozen=True)
class Adjudicated:
    outcome: PhaseOutcome
    problems: list[str]
    results_path: Path
    next_state_path: Path


def adjudicate_phase_dir(
    root: Path,
    phase: str,
    *,
    force: bool = False,
    commit: bool = True,
    gmap: ClassicMap | None = None,
    extra_orders: Mapping[str, Sequence[Order]] | None = None,
) -> Adjudicated:
    """Adjudicate ``phase`` of the classic game in ``root`` from ``orders/PHASE/*.txt``."""
    from moonshine.classic.picture import has_layout, render_both
    from moonshine.gamedir import atomic_write_bytes, atomic_write_text, git_commit

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
    orders, problems = read_orders(orders_dir(root, ph.name), gmap)
    for power, more in (extra_orders or {}).items():
        orders.setdefault(power, []).extend(more)
    try:
        outcome = adjudicate_phase(gmap, st, orders)
    except ValueError as exc:
        raise GameError(f"{ph.name}: {exc}") from None
    data = results_data(outcome, problems)
    if has_layout(gmap):  # the map picture, beside the results (written first: results imply a picture)
        svg, png = render_both(gmap, st, outcome)
        atomic_write_text(results_path.with_name("map.svg"), svg)
        atomic_write_bytes(results_path.with_name("map.png"), png)
    atomic_write_text(results_path, yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100))
    atomic_write_text(results_path.with_suffix(".txt"), results_text(gmap, outcome, problems))
    nxt = outcome.next_state
    from moonshine import journal

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
    return Adjudicated(outcome, problems, results_path, next_path)


CENTRES_CHART = "centres.png"  # the bulletin's chart, beside it and attached to its mail
_CENTRES_WORDS = {
    "en": ("Supply centres", "{n} centres win"),
    "fr": ("Centres de ravitaillement", "{n} centres gagnent"),
}


def centres_chart(root: Path, gmap: ClassicMap, nxt: ClassicState, language: str) -> Chart:
    """Supply centres per power at the end of each year so far (the last state of
    each year up to ``nxt``, the position after the phase)."""
    from moonshine import charts

    last: dict[int, ClassicState] = {}
    for name in phases(root):
        ph = Phase.parse(name)
        if Phase.sort_key(ph) < Phase.sort_key(nxt.phase):
            last[ph.year] = load_state(root, name, gmap)
    last[nxt.phase.year] = nxt
    years = sorted(last)
    from moonshine.classic.picture import layout_of

    colours = layout_of(gmap).colours
    title, goal = _CENTRES_WORDS.get(language, _CENTRES_WORDS["en"])
    return charts.centres_chart(
        title,
        [str(y) for y in years],
        [last[y].owners for y in years],
        {p: (name, colours[p]) for p, name in gmap.powers.items()},
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
) -> list[Path]:
    """Write PHASE's reports under ``turns/PHASE/reports/``: ``POWER.txt`` and
    ``POWER.html`` for each power (or those given), ``bulletin.txt`` and
    ``bulletin.html``, and the phase's map picture (``map.svg``, ``map.png``)."""
    from moonshine.classic.report import load_results, render_all
    from moonshine.gamedir import atomic_write_bytes, atomic_write_text

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
        from moonshine import charts as charting

        atomic_write_bytes(base / CENTRES_CHART, charting.png(centres_chart(root, gmap, nxt, language)))
        written.append(base / CENTRES_CHART)
        charts.append(CENTRES_CHART)
    texts = render_all(
        gmap,
        data,
        nxt,
        language=language,
        powers=powers,
        bulletin=bulletin,
        charts=charts,
        power_languages=power_languages,
    )
    for name, text in texts.items():
        atomic_write_text(base / name, text)
        written.append(base / name)
    for picture in ("map.svg", "map.png"):
        src = root / "turns" / ph.name / picture
        if src.is_file():
            atomic_write_bytes(base / picture, src.read_bytes())
            written.append(base / picture)
    return written
