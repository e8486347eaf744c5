"""Whole-turn benchmark on big maps: the game master's ``adjudicate`` (every gang's
orders file read and checked, the turn adjudicated, results and next state written,
reports, bulletin, SVG and PNG map) on grid maps of 1,000 and 10,000 districts with a
unit in every district.

Each size is a real game directory: a generated map (a square grid with supply
zones, speakeasies, warehouses and police stations, its GeoJSON outlines beside it),
``moonshine new`` on it, and random legal-looking orders for every unit written as
the gangs' orders files. Each turn runs in a fresh process through the command line's own entry point
(nothing cached from an earlier run but what a real run would find on disk), timed
from just after the imports to the end, as CPU time; the median of 3 runs per size.
Target: 10x the units in at most 12x the CPU time.
"""

from __future__ import annotations

import json
import random
import statistics
import string
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import yaml

GROWTH_TARGET = 12.0
RUNS = 3
GANGS = 8
TURN = "spring-1924"


def _code(i: int) -> str:
    letters = string.ascii_uppercase
    return letters[i // 676] + letters[i // 26 % 26] + letters[i % 26]


def _feature(i: int) -> str:
    return "supply" if i % 7 == 3 else "speakeasy" if i % 5 == 1 else "warehouse" if i % 11 == 6 else "none"


def grid_map(n: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """The map's YAML data and its GeoJSON: ``side`` x ``side`` squares, each
    neighbouring the four beside it (no wrapping: the edges have fewer); a police
    station in the middle of every 5 x 5 block, its precinct that block; every
    district a home of one of eight gangs (in bands) with a unit in it."""
    side = round(n**0.5)
    codes = [_code(i) for i in range(side * side)]
    rnd = random.Random(n)
    units: dict[int, list[str]] = {k: [] for k in range(GANGS)}
    homes: dict[int, list[str]] = {k: [] for k in range(GANGS)}
    districts = []
    features = []
    for i, code in enumerate(codes):
        r, c = divmod(i, side)
        nb = [
            codes[(r + dr) * side + c + dc]
            for dr, dc in ((-1, 0), (0, -1), (0, 1), (1, 0))
            if 0 <= r + dr < side and 0 <= c + dc < side
        ]
        br, bc = min(r // 5 * 5 + 2, side - 1), min(c // 5 * 5 + 2, side - 1)
        precinct = codes[br * side + bc]
        d: dict[str, Any] = {"code": code, "name": f"Block {code}", "area": i + 1, "precinct": precinct}
        if _feature(i) != "none":
            d["feature"] = _feature(i)
        if precinct == code:
            d["station"] = f"Station {code}"
        d["neighbours"] = nb
        districts.append(d)
        gang = min(GANGS - 1, r * GANGS // side)
        homes[gang].append(code)
        units[gang].append(f"{rnd.choice('HL')} {code}")
        x0, y0 = -87.9 + c * 0.004, 42.0 - r * 0.004
        square = [[x0, y0], [x0 + 0.004, y0], [x0 + 0.004, y0 - 0.004], [x0, y0 - 0.004], [x0, y0]]
        features.append(
            {
                "type": "Feature",
                "properties": {"code": code, "name": f"Block {code}"},
                "geometry": {"type": "Polygon", "coordinates": [square]},
            }
        )
    colours = ["#c0392b", "#2980b9", "#27ae60", "#8e44ad", "#d35400", "#16a085", "#7f8c8d", "#f1c40f"]
    data = {
        "name": f"grid-{len(codes)}",
        "title": f"Grid of {len(codes)}",
        "geometry": "grid.geojson",
        "credits": "A generated grid.",
        "districts": districts,
        "gangs": [
            {"key": f"g{k}", "name": f"Gang {k}", "colour": colours[k], "homes": homes[k], "units": units[k]}
            for k in range(GANGS)
        ],
        "scenario": {"start": TURN, "cash": 10_000, "price": 3},
        "raid_table": {d["code"]: 1 for d in districts if "station" in d},
    }
    return data, {"type": "FeatureCollection", "name": data["name"], "features": features}


def orders_texts(data: dict[str, Any], seed: int) -> dict[str, list[str]]:
    """Order lines for every unit, by gang: about half move (an L sometimes two
    steps), some henchmen assault a station, the rest support a neighbour (its move
    when it moves), transport it, or hold."""
    rnd = random.Random(seed)
    nb = {d["code"]: d["neighbours"] for d in data["districts"]}
    station = {d["code"] for d in data["districts"] if "station" in d}
    unit_at: dict[str, tuple[str, str]] = {}  # district -> (kind, gang)
    for g in data["gangs"]:
        for u in g["units"]:
            kind, code = u.split()
            unit_at[code] = (kind, g["key"])
    texts: dict[str, list[str]] = {g["key"]: [f"gang: {g['name']}"] for g in data["gangs"]}
    order: dict[str, tuple[str, str]] = {}  # district -> (what, destination)
    for code, (kind, gang) in unit_at.items():
        x = rnd.random()
        if x < 0.5:
            dest = rnd.choice(nb[code])
            if kind == "L" and rnd.random() < 0.4:
                far = [d for d in nb[dest] if d != code]
                if far:
                    order[code] = ("move", rnd.choice(far))
                    texts[gang].append(f"L {code} - {dest} - {order[code][1]}")
                    continue
            order[code] = ("move", dest)
            texts[gang].append(f"{kind} {code} - {dest}")
        elif x < 0.56 and kind == "H":
            near = [s for s in (code, *nb[code]) if s in station]
            if near:
                order[code] = ("assault", near[0])
                texts[gang].append(f"H {code} x {near[0]}")
    for code, (kind, gang) in unit_at.items():
        if code in order:
            continue
        friend = rnd.choice(nb[code])
        fkind = unit_at[friend][0]
        what, dest = order.get(friend, ("hold", friend))
        if what == "move" and dest in nb[code]:
            texts[gang].append(f"{kind} {code} / {fkind} {friend} - {dest}")
        elif what == "assault" and (dest == code or dest in nb[code]):
            texts[gang].append(f"{kind} {code} / {fkind} {friend} x {dest}")
        elif what == "hold":
            texts[gang].append(f"{kind} {code} / {fkind} {friend}")
        else:
            texts[gang].append(f"{kind} {code} hold")
        order[code] = ("hold", code)
    return texts


def make_game(base: Path, n: int) -> Path:
    """A game directory on a grid of about ``n`` districts, its orders written."""
    from moonshine.game.families import new_game

    data, geo = grid_map(n)
    mapdir = base / "map"
    mapdir.mkdir(parents=True)
    (mapdir / "grid.yaml").write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    (mapdir / "grid.geojson").write_text(json.dumps(geo), encoding="utf-8")
    game = new_game(base / "game", map_name=str(mapdir / "grid.yaml"), seed=f"grid-{n}", use_git=False)
    turn = game.current_turn()
    for gang, lines in orders_texts(data, n).items():
        (game.orders_dir(turn) / f"{gang}.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return game.root


def child(root: str) -> None:
    """One whole turn in this process, as the game master runs it (``moonshine
    adjudicate TURN --force --no-commit``); prints its CPU seconds, imports excluded."""
    from moonshine.cli import main

    t0 = time.process_time()
    main(["adjudicate", TURN, "--force", "--no-commit", "--game", root], standalone_mode=False)
    print(time.process_time() - t0, file=sys.stderr)


def run_once(root: Path) -> tuple[float, int]:
    out = subprocess.run(
        [sys.executable, "-m", "bench.wholeturn", "--child", str(root)],
        capture_output=True,
        text=True,
        check=False,
        cwd=Path(__file__).resolve().parent.parent,
    )
    if out.returncode != 0:
        raise SystemExit(f"bench: the whole turn failed in {root}:\n{out.stderr[-3000:]}")
    return float(out.stderr.split()[-1]), _units_of(root)


def _units_of(root: Path) -> int:
    state = yaml.safe_load((root / "turns" / TURN / "state.yaml").read_text(encoding="utf-8"))
    return sum(len(v or []) for v in state["units"].values())


def run(sizes: tuple[int, ...] = (1_000, 10_000), runs: int = RUNS, keep: Path | None = None) -> list[str]:
    lines = []
    cpu: dict[int, float] = {}
    units: dict[int, int] = {}
    with tempfile.TemporaryDirectory(prefix="moonshine-bench-") as tmp:
        for n in sizes:
            base = (keep or Path(tmp)) / f"grid-{n}"
            root = make_game(base, n)
            times = []
            for _ in range(runs):
                t, units[n] = run_once(root)
                times.append(t)
            cpu[n] = statistics.median(times)
            lines.append(
                f"whole turn: grid of {units[n]:,} units: median {cpu[n] * 1000:.0f} ms CPU "
                f"({cpu[n] * 1e6 / units[n]:.0f} µs a unit; runs {min(times) * 1000:.0f} to {max(times) * 1000:.0f} ms)"
            )
    if len(sizes) >= 2:
        a, b = sizes[0], sizes[-1]
        ratio = cpu[b] / cpu[a]
        verdict = "met" if ratio <= GROWTH_TARGET else "MISSED"
        lines.append(
            f"whole turn: {units[b] / units[a]:.0f}x the units in {ratio:.1f}x the CPU time "
            f"(target at most {GROWTH_TARGET:g}x: {verdict})"
        )
    return lines


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["--child"]:
        child(args[1])
        return 0
    keep = Path(args[args.index("--keep") + 1]) if "--keep" in args else None
    sizes = tuple(int(a) for a in args if a.isdigit()) or (1_000, 10_000)
    for line in run(sizes, keep=keep):
        print(line, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
