"""Replay games real people played on other sites through the classic engine, phase
by phase, under each preset of rules, and print how many phases agree.

    .venv/bin/python scripts/replay_played.py                       # every 10th Droidippy game
    .venv/bin/python scripts/replay_played.py --all                 # every Droidippy game
    .venv/bin/python scripts/replay_played.py --corpus DIR --list droidippy

The corpora are read where they lie (``../shared/reference/played-games/`` beside the
checkout by default, ``--corpus`` elsewhere); nothing is copied into the project. Two:

- ``droidippy/games.jsonl.gz``: 5,741 games of Droidippy (2010-2013), one JSON line per
  game, each phase's units, dislodged units and centre owners at its start and its
  orders as logged (``lon move nwy via convoy``); its README says the log's conventions,
  which are handled here: retreat and winter phases with nothing to do are not logged
  (the engine goes through them with no orders), centre owners at the start of a fall
  retreat phase are compared only after the retreats, a dislodged unit with no retreat
  may be listed or not, orders use godip's codes (gol, mid, nrg, nat).
- ``webdiplomacy/game_*.json.gz``: 40 games of webDiplomacy in the ``diplomacy``
  package's saved-game format, as Cicero's engine replayed them.

A phase agrees when the engine's next position (units, dislodged units, centre owners)
is the one recorded. Each phase that does not is classified by what makes it agree
(``--list PRESET`` prints them): ``civil-disorder`` (the other civil-disorder rule),
``land-fallback`` (the DATC v2 land route of a move via convoy), ``explicit-via`` (a
move goes by convoy only when its order says so), ``excess-orders`` (more builds or
disbands than allowed: the site kept another subset), ``log-erratum`` (the corpus
maintainer's correction of the log, ``godip_fixes.json``), ``unexecuted-order`` (an
order of the log the site did not carry out), ``missing-order`` (a unit moved with no
order logged), ``record-gap`` (a phase missing from the log), ``reviewed:*``
(``reviewed.json``: the record contradicts the DATC), ``deleted-game`` (a game the
maintainer deleted as broken); anything else is ``unexplained``, and the exit status
is 1 when the matching preset leaves any.
"""

from __future__ import annotations

import argparse
import collections
import gzip
import itertools
import json
import sys
import time
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path

import msgspec

from moonshine.engine.rulebook import Rulebook
from moonshine.variants.classic import rulebooks
from moonshine.variants.classic import savedgame as sg
from moonshine.variants.classic.board import ClassicMap, Kind, standard_map
from moonshine.variants.classic.orders import Build, Disband, Move, Order, OrderError, UnitRef, parse_order
from moonshine.variants.classic.rules import retreat_problem
from moonshine.variants.classic.state import ClassicState, Dislodged, Step, Unit

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_CORPUS = ROOT.parent.parent / "shared" / "reference" / "played-games"
MATCHING = {"droidippy": "droidippy", "webdiplomacy": "webdiplomacy"}
GODIP_CODES = {"gol": "lyo", "mid": "mao", "nrg": "nwg", "nat": "nao"}


class Transition(msgspec.Struct):
    """One phase of a played game and what the site made of it."""

    corpus: str
    game: str
    phase: str
    start: ClassicState
    orders: dict[str, list[Order]]
    lines: dict[str, list[str]]  # the orders as recorded, by power
    theirs: ClassicState | None  # the position recorded next (None: the game ended with a win)
    erratum: dict[str, list[Order]] | None = None
    deleted: bool = False
    reviewed: str = ""
    gap: bool = False


# -- reading the corpora --------------------------------------------------------------------


def _units(gmap: ClassicMap, data: Mapping[str, Sequence[str]]) -> list[Unit]:
    return [Unit(p, Kind(t.split()[0]), t.split()[1]) for p, labels in data.items() for t in labels]


def _droidippy_order(gmap: ClassicMap, st: ClassicState, line: str) -> tuple[str, Order] | None:
    """A logged order as (power, order): the power is the unit's (a build's: the home
    centre's owner); None for an order of no unit (dropped, as by Droidippy)."""
    toks = [
        GODIP_CODES.get(t.split("/")[0], t.split("/")[0]) + ("/" + t.split("/")[1] if "/" in t else "")
        for t in line.split()
        if t != "null"  # "bel support null hel move hol": a support logged with no unit kind
    ]
    at = {u.province: u for u in st.units}
    at.update({d.region.split("/")[0]: Unit(d.power, d.kind, d.region) for d in st.dislodged})
    if toks[0] == "build":
        prov = toks[2].split("/")[0].upper()
        owner = gmap.provinces[prov].home if prov in gmap.provinces else None
        if owner is None:
            return None
        return owner, Build(UnitRef(Kind.ARMY if toks[1] == "Army" else Kind.FLEET, toks[2].upper()))
    if toks[0] == "remove":
        u = at.get(toks[1].split("/")[0].upper())
        return (u.power, Disband(UnitRef(u.kind, u.region))) if u else None
    u = at.get(toks[0].split("/")[0].upper())
    if u is None:
        return None
    unit = f"{u.kind.value} {u.region}"
    rest = toks[1:]

    def target(tok: str) -> str:
        t = at.get(tok.split("/")[0].upper())
        return f"{t.kind.value if t else 'A'} {tok.upper()}"

    if rest == ["hold"]:
        text = f"{unit} H"
    elif rest == ["disband"]:
        text = f"{unit} D"
    elif rest[0] == "move" and st.phase.step is Step.RETREATS:
        text = f"{unit} R {rest[1].upper()}"
    elif rest[0] == "move":
        text = f"{unit} - {rest[1].upper()}" + (" via convoy" if rest[2:] == ["via", "convoy"] else "")
    elif rest[0] == "support" and len(rest) == 2:
        text = f"{unit} S {target(rest[1])}"
    elif rest[0] == "support" and len(rest) == 4:
        text = f"{unit} S {target(rest[1])} - {rest[3].upper()}"
    elif rest[0] == "convoy" and len(rest) == 4:
        text = f"{unit} C {target(rest[1])} - {rest[3].upper()}"
    else:
        return None
    try:
        return u.power, parse_order(text)
    except OrderError:
        return None


def _read_droidippy(gmap: ClassicMap, lines: Sequence[str], st: ClassicState) -> dict[str, list[Order]]:
    out: dict[str, list[Order]] = {}
    for line in lines:
        read = _droidippy_order(gmap, st, line)
        if read is not None:
            out.setdefault(read[0], []).append(read[1])
    return out


def droidippy(gmap: ClassicMap, folder: Path, every: int) -> Iterator[list[Transition]]:
    """The Droidippy games (every ``every``-th one), each a list of transitions."""
    fixes = json.loads((folder / "godip_fixes.json").read_text())
    reviewed = json.loads((folder / "reviewed.json").read_text())["phases"]
    deleted = set(fixes["deleted_games"])
    with gzip.open(folder / "games.jsonl.gz", "rt") as f:
        for n, line in enumerate(f):
            if n % every:
                continue
            game = json.loads(line)
            gid = str(game["g"])
            phases = game["ph"]
            out = []
            for ph, nxt in itertools.pairwise(phases):
                start = _droidippy_state(gmap, ph)
                theirs = _droidippy_state(gmap, nxt)
                lines = ph.get("o", [])
                orders = _read_droidippy(gmap, lines, start)
                erratum = fixes["errata"].get(gid, {}).get(ph["p"])
                out.append(
                    Transition(
                        "droidippy",
                        gid,
                        ph["p"],
                        start,
                        orders,
                        {"?": list(lines)},
                        theirs,
                        _read_droidippy(gmap, erratum, start) if erratum is not None else None,
                        game["g"] in deleted,
                        reviewed.get(f"{gid}:{ph['p']}", {}).get("class", ""),
                        theirs.phase.sort_key() <= start.phase.sort_key(),
                    )
                )
            yield out


def _droidippy_state(gmap: ClassicMap, ph: Mapping[str, object]) -> ClassicState:
    units = _units(gmap, ph.get("u", {}))  # type: ignore[arg-type]
    dislodged = [Dislodged(u.power, u.kind, u.region, "", False) for u in _units(gmap, ph.get("d", {}))]  # type: ignore[arg-type]
    owners = {c: p for p, cs in ph.get("c", {}).items() for c in cs}  # type: ignore[attr-defined]
    st = ClassicState(sg.phase_of(str(ph["p"])), units, owners, dislodged, [])
    st.normalise()
    return st


def webdiplomacy(gmap: ClassicMap, folder: Path) -> Iterator[list[Transition]]:
    for path in sorted(folder.glob("game_*.json.gz")):
        with gzip.open(path, "rt") as f:
            phases = sg.read_saved_game(gmap, json.load(f))
        gid = path.name.split("_")[1]
        out = []
        for saved, nxt in itertools.pairwise(phases):
            if saved.state is None:
                break
            orders, _ = sg.parse_orders(saved.orders)
            out.append(Transition("webdiplomacy", gid, saved.name, saved.state, orders, saved.orders, nxt.state))
        yield out


# -- replaying and comparing ---------------------------------------------------------------


def _no_retreat(gmap: ClassicMap, st: ClassicState) -> set[str]:
    """Labels of the dislodged units that have no legal retreat."""
    occupied = {u.province for u in st.units}
    out = set()
    for d in st.dislodged:
        options = [
            r
            for prov in gmap.near[d.region.split("/")[0]]
            for r in ([prov] if d.kind is Kind.ARMY else gmap.fleet_targets(d.region, prov))
            if retreat_problem(gmap, d, r, occupied, set(st.contested))[0] is None
        ]
        if not options:
            out.add(Unit(d.power, d.kind, d.region).label())
    return out


def agrees(gmap: ClassicMap, ours: ClassicState, theirs: ClassicState) -> bool:
    what = sg.differences(ours, theirs)
    if not what:
        return True
    if theirs.phase.step is Step.RETREATS and ours.phase == theirs.phase:
        # a dislodged unit with no retreat: listed by one, removed at once by the other
        drop = _no_retreat(gmap, ours) | _no_retreat(gmap, theirs)
        trim = [d for d in ours.dislodged if Unit(d.power, d.kind, d.region).label() not in drop]
        mine = msgspec.structs.replace(ours, dislodged=trim)
        other = msgspec.structs.replace(
            theirs, dislodged=[d for d in theirs.dislodged if Unit(d.power, d.kind, d.region).label() not in drop]
        )
        return not sg.differences(mine, other)
    return False


def run(
    gmap: ClassicMap, t: Transition, orders: Mapping[str, Sequence[Order]], rules: Rulebook, prev: ClassicState | None
) -> ClassicState:
    start = t.start
    if start.phase.step is Step.RETREATS and prev is not None and prev.phase == start.phase:
        # the attackers' origins and standoffs of our own adjudication, when it dislodged the same units
        if sorted(d.region for d in prev.dislodged) == sorted(d.region for d in start.dislodged) or not start.dislodged:
            start = ClassicState(
                start.phase, list(start.units), dict(start.owners), list(prev.dislodged), list(prev.contested)
            )
        elif t.corpus == "droidippy":
            start = ClassicState(
                start.phase, list(start.units), dict(start.owners), list(start.dislodged), list(prev.contested)
            )
    until = t.theirs.phase if t.theirs is not None else None
    _, ours = sg.advance(gmap, start, orders, until, rules)
    return ours


def check(
    gmap: ClassicMap, t: Transition, rules: Rulebook, prev: ClassicState | None
) -> tuple[bool, ClassicState | None]:
    try:
        ours = run(gmap, t, t.orders, rules, prev)
    except ValueError:
        return False, None
    if t.theirs is None:
        return bool(ours.winner), ours
    return agrees(gmap, ours, t.theirs), ours


def _tries(
    gmap: ClassicMap, t: Transition, rules: Rulebook
) -> Iterator[tuple[str, Mapping[str, Sequence[Order]], Rulebook]]:
    """Ways to make a differing phase agree, each with its class."""
    if t.reviewed:
        yield f"reviewed:{t.reviewed}", t.orders, rules
    if t.gap:
        yield "record-gap", t.orders, rules
    if t.erratum is not None:
        yield "log-erratum", t.erratum, rules
    other = "home-distance" if rules.civil_disorder == "owned-distance" else "owned-distance"
    yield "civil-disorder", t.orders, msgspec.structs.replace(rules, civil_disorder=other)
    if t.start.phase.step is Step.MOVEMENT:
        yield "land-fallback", t.orders, msgspec.structs.replace(rules, transport_falls_back_to_land=True)
        yield (
            "explicit-via",
            t.orders,
            msgspec.structs.replace(rules, own_carrier_means_transport=False, any_carrier_means_transport=False),
        )
    if t.theirs is not None and t.start.phase.step is Step.ADJUSTMENTS:
        yield "excess-orders", _recorded_adjustments(t), rules
    flat = [(p, o) for p, os in t.orders.items() for o in os]
    for i in range(len(flat)):
        fewer: dict[str, list[Order]] = {}
        for j, (p, o) in enumerate(flat):
            if j != i:
                fewer.setdefault(p, []).append(o)
        yield "unexecuted-order", fewer, rules
    if t.theirs is not None and t.start.phase.step is Step.MOVEMENT:
        ordered = {o.unit.region.split("/")[0] for os in t.orders.values() for o in os if hasattr(o, "unit")}
        gone = [u for u in t.start.units if u not in t.theirs.units and u.province not in ordered]
        new = [u for u in t.theirs.units if u not in t.start.units]
        for u in gone:
            for v in new:
                if v.power == u.power and v.kind is u.kind and v.province in gmap.near[u.province]:
                    more = {p: list(os) for p, os in t.orders.items()}
                    more.setdefault(u.power, []).append(Move(UnitRef(u.kind, u.region), v.region))
                    yield "missing-order", more, rules


def _recorded_adjustments(t: Transition) -> dict[str, list[Order]]:
    """The builds and disbands the record shows, as orders."""
    assert t.theirs is not None
    out: dict[str, list[Order]] = {}
    for u in t.theirs.units:
        if u not in t.start.units:
            out.setdefault(u.power, []).append(Build(UnitRef(u.kind, u.region)))
    for u in t.start.units:
        if u not in t.theirs.units:
            out.setdefault(u.power, []).append(Disband(UnitRef(u.kind, u.region)))
    return out


def classify(gmap: ClassicMap, t: Transition, rules: Rulebook, prev: ClassicState | None) -> str:
    for name, orders, book in _tries(gmap, t, rules):
        if name.startswith("reviewed:") or name == "record-gap":
            return name
        try:
            ours = run(gmap, t, orders, book, prev)
        except ValueError:
            continue
        if t.theirs is not None and agrees(gmap, ours, t.theirs):
            if name == "civil-disorder" and t.start.phase.step is not Step.ADJUSTMENTS:
                continue
            return name
    return "deleted-game" if t.deleted else "unexplained"


# Classes that are the log's conventions, not the site's rules: the log is not what the
# site adjudicated (the maintainer's corrections; the rows of a power's excess builds or
# disbands in the database's order, not the player's). A phase they make agree counts as
# agreeing "by the log's conventions", apart from the phases that agree as logged.
CONVENTIONS = ("log-erratum", "excess-orders")


class Tally(msgspec.Struct):
    transitions: int = 0
    with_orders: int = 0
    agree: int = 0
    agree_with_orders: int = 0
    by_convention: int = 0  # phases with orders that agree once the log's conventions are applied
    classes: collections.Counter[str] = msgspec.field(default_factory=collections.Counter)
    listed: list[str] = msgspec.field(default_factory=list)


def replay_games(gmap: ClassicMap, games: Sequence[list[Transition]], rules: Rulebook, tally: Tally) -> None:
    for game in games:
        prev: ClassicState | None = None
        for t in game:
            ok, ours = check(gmap, t, rules, prev)
            has_orders = any(t.lines.values())
            tally.transitions += 1
            tally.with_orders += has_orders
            if ok:
                tally.agree += 1
                tally.agree_with_orders += has_orders
            else:
                why = classify(gmap, t, rules, prev)
                tally.classes[why] += 1
                tally.by_convention += has_orders and why in CONVENTIONS
                what = sg.differences(ours, t.theirs) if ours is not None and t.theirs is not None else []
                tally.listed.append(
                    f"{t.corpus} {t.game} {t.phase} [{why}]{'' if has_orders else ' (no orders)'}: {'; '.join(what)}"
                )
            prev = ours


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS, help="the played-games folder")
    ap.add_argument("--all", action="store_true", help="every Droidippy game (default: every 10th)")
    ap.add_argument("--presets", default=",".join(rulebooks.PRESETS), help="presets to replay under")
    ap.add_argument("--list", metavar="PRESET", help="list every differing phase under PRESET")
    args = ap.parse_args(argv)
    if not args.corpus.is_dir():
        print(f"no corpus at {args.corpus} (give --corpus DIR)", file=sys.stderr)
        return 2
    gmap = standard_map()
    started = time.process_time()
    corpora: dict[str, list[list[Transition]]] = {}
    if (args.corpus / "droidippy").is_dir():
        corpora["droidippy"] = list(droidippy(gmap, args.corpus / "droidippy", 1 if args.all else 10))
    if (args.corpus / "webdiplomacy").is_dir():
        corpora["webdiplomacy"] = list(webdiplomacy(gmap, args.corpus / "webdiplomacy"))
    read = time.process_time() - started
    print(f"read in {read:.0f} s CPU: " + ", ".join(f"{k} {len(v)} games" for k, v in corpora.items()))
    print()
    header = (
        f"{'corpus':<13} {'preset':<13} {'phases':>7} {'agree':>7} {'%':>8} {'with orders':>11} {'agree':>7} "
        f"{'%':>8} {'+conventions':>12} {'%':>8}  differences by class"
    )
    print(header)
    print("-" * len(header))
    failed = False
    for corpus, games in corpora.items():
        for preset in args.presets.split(","):
            tally = Tally()
            replay_games(gmap, games, rulebooks.rulebook(preset), tally)
            pct = 100 * tally.agree / max(tally.transitions, 1)
            pct_o = 100 * tally.agree_with_orders / max(tally.with_orders, 1)
            conv = tally.agree_with_orders + tally.by_convention
            pct_c = 100 * conv / max(tally.with_orders, 1)
            print(
                f"{corpus:<13} {preset:<13} {tally.transitions:>7} {tally.agree:>7} {pct:>7.3f}% "
                f"{tally.with_orders:>11} {tally.agree_with_orders:>7} {pct_o:>7.3f}% {conv:>12} {pct_c:>7.3f}%  "
                + ", ".join(f"{k} {v}" for k, v in tally.classes.most_common())
            )
            if MATCHING.get(corpus) == preset and tally.classes.get("unexplained"):
                failed = True
            if args.list == preset:
                for line in tally.listed:
                    print("   ", line)
    print(f"\n{time.process_time() - started:.0f} s CPU in all")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
