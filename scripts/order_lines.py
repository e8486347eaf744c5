"""How the order readers do on order lines as players write them.

    .venv/bin/python scripts/order_lines.py [REVISION ...] [--show]

Reads every line of ``tests/data/cases/order_lines.yaml`` (Moonshine and classic,
English and French, each with the reading a lenient human referee would make, or
"refuse") with the code of each REVISION (a git revision, taken out of git into a
scratch directory, as ``compare_turns.py`` does; none: the working tree) and prints,
per family and language, how many lines were read as meant, how many were read
otherwise than meant (false readings: a line read as an order the player did not
write), and how many were refused, of which how many a referee would refuse too.
``--show`` lists the false readings and the refused lines a referee would read.

A line is read as one line of the side's orders file against the starting
position (``moonshine.variants.moonshine.checker.read_orders``; ``moonshine.render.classic.ack.check_orders``):
its reading is the order it was read as, whether the rules then accept it or not.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
CASES = ROOT / "tests" / "data" / "cases" / "order_lines.yaml"
REFUSE = "refuse"


def sections() -> list[dict[str, Any]]:
    import yaml

    data: dict[str, Any] = yaml.safe_load(CASES.read_text(encoding="utf-8"))
    return list(data["sections"])


def moonshine_reader(section: dict[str, Any]) -> Any:
    """A function reading one line as the side's orders, with the code on the path."""
    from moonshine.variants.moonshine import state as state_mod
    from moonshine.variants.moonshine.checker import BLANK, COMMENT, HEADER, read_orders
    from moonshine.variants.moonshine.map import load_map

    gmap = load_map()
    st = state_mod.initial_state(gmap)
    if section.get("extra_units"):
        data = state_mod.to_data(st)
        data["units"][section["side"]] += section["extra_units"]
        st = state_mod.from_data(data, gmap)

    def read(line: str) -> str:
        lines = read_orders(line + "\n", gmap, st, section["side"]).lines
        read = [x for x in lines if x.status not in (BLANK, COMMENT, HEADER)]
        if not read or read[0].order is None:
            return REFUSE
        return str(read[0].order.text())

    return read


def classic_reader(section: dict[str, Any]) -> Any:
    from moonshine.render.classic.ack import check_orders
    from moonshine.variants.classic.board import standard_map
    from moonshine.variants.classic.state import initial_state

    gmap = standard_map()
    st = initial_state(gmap)

    def read(line: str) -> str:
        lines = [x for x in check_orders(gmap, st, section["side"], line).lines if not x.noted]
        if not lines or lines[0].order is None:
            return REFUSE
        if lines[0].detail is not None and lines[0].detail[0] in ("unknown_place", "unreadable", "could_be"):
            return REFUSE
        return str(lines[0].order.text())

    return read


def measure() -> list[dict[str, Any]]:
    """Every line's reading with the code on the path, as rows."""
    rows = []
    for section in sections():
        reader = moonshine_reader(section) if section["family"] == "moonshine" else classic_reader(section)
        for entry in section["lines"]:
            line, meant = entry[0], entry[1]
            rows.append(
                {
                    "family": section["family"],
                    "language": section["language"],
                    "line": line,
                    "meant": meant,
                    "read": reader(line),
                }
            )
    return rows


def export(revision: str, dest: Path) -> Path:
    dest.mkdir(parents=True)
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", revision, "moonshine"], check=True, capture_output=True
    )
    subprocess.run(["tar", "-x", "-C", str(dest)], input=archive.stdout, check=True)
    return dest


def run(code: Path | None) -> list[dict[str, Any]]:
    env = dict(os.environ, MOONSHINE_CACHE_DIR="")
    if code is not None:
        env["PYTHONPATH"] = str(code)
    done = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), "--measure"], env=env, capture_output=True, text=True
    )
    if done.returncode != 0:
        raise SystemExit(f"measuring failed:\n{done.stdout}{done.stderr}")
    rows: list[dict[str, Any]] = json.loads(done.stdout)
    return rows


def counts(rows: Sequence[dict[str, Any]]) -> dict[str, int]:
    meant = [r for r in rows if r["meant"] != REFUSE]
    return {
        "lines": len(rows),
        "to read": len(meant),
        "read as meant": sum(1 for r in meant if r["read"] == r["meant"]),
        "false readings": sum(1 for r in rows if r["read"] not in (REFUSE, r["meant"])),
        "refused": sum(1 for r in rows if r["read"] == REFUSE),
        "refused, a referee would too": sum(1 for r in rows if r["read"] == REFUSE and r["meant"] == REFUSE),
    }


def table(results: dict[str, list[dict[str, Any]]]) -> str:
    groups = [("all", lambda r: True)]
    for family in ("moonshine", "classic"):
        for language in ("en", "fr"):
            groups.append(
                (f"{family} {language}", lambda r, f=family, lang=language: r["family"] == f and r["language"] == lang)
            )
    names = list(counts([]))
    out = []
    for label, keep in groups:
        out.append(f"{label}:")
        head = f"  {'':<30}" + "".join(f"{name:>14}" for name in results)
        out.append(head)
        per = {name: counts([r for r in rows if keep(r)]) for name, rows in results.items()}
        for what in names:
            cells = []
            for name in results:
                c = per[name]
                value = c[what]
                if what == "read as meant" and c["to read"]:
                    cells.append(f"{value} ({100 * value / c['to read']:.0f}%)")
                else:
                    cells.append(str(value))
            out.append(f"  {what:<30}" + "".join(f"{cell:>14}" for cell in cells))
    return "\n".join(out)


def main(argv: Sequence[str]) -> int:
    if "--measure" in argv:
        print(json.dumps(measure()))
        return 0
    show = "--show" in argv
    revisions = [a for a in argv if not a.startswith("--")]
    results: dict[str, list[dict[str, Any]]] = {}
    with tempfile.TemporaryDirectory() as scratch:
        for revision in revisions:
            results[revision] = run(export(revision, Path(scratch) / revision.replace("/", "_")))
        results["working tree"] = run(None)
    print(table(results))
    if show:
        for name, rows in results.items():
            print(f"\n{name}:")
            for r in rows:
                if r["read"] != r["meant"] and (r["read"] != REFUSE or r["meant"] != REFUSE):
                    kind = "FALSE" if r["read"] != REFUSE else "refused"
                    where = f"{r['family']} {r['language']}"
                    print(f"  {kind:<8} {where}  {r['line']!r}: read {r['read']!r}, meant {r['meant']!r}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
