"""Byte comparison of whole turns written by two revisions of the code.

    .venv/bin/python scripts/compare_turns.py BEFORE [AFTER] [--keep DIR]

BEFORE and AFTER are git revisions (AFTER defaults to the working tree). Each
revision's ``moonshine`` package is taken out of git into a scratch directory and
run, with this virtual environment's libraries, on the same games:

- the sample game's first turn adjudicated (``adjudicate spring-1924 --no-commit``),
  in English and again with ``language: fr`` in its game.yaml: results, next state,
  every report and bulletin (text and HTML), charts and the map (SVG and PNG);
- a game of eight turns played by the computer players (``simulate``), then every
  turn's reports written in English and in French (``report --language``) and its
  web site (``site``);
- a classic game of twelve phases (movement, retreats, adjustments) with random legal
  orders (``bench.classic``'s) written as the powers' orders files, each phase
  adjudicated, then its reports in both languages and its web site.

Every file the two revisions wrote must be byte-identical, except PNG pictures,
which are compared pixel by pixel: the script prints how many differ and by how
much. Exits 1 if a file other than a PNG differs, or one revision wrote a file the
other did not. ``--keep DIR`` keeps both sides' files in ``DIR/before`` and
``DIR/after``, to read the differences with ``diff -r``.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ("game.yaml", ".moonshine-secret", "orders", "turns")
TURNS = 8
PHASES = 12


DATA = ("maps", "templates")  # top-level folders installed inside the package


def extract(revision: str | None, dest: Path) -> Path:
    """The ``moonshine`` package of ``revision`` (None: the working tree) under ``dest``,
    with the rules book its ``RULES.md`` links to, and the top-level data folders
    (``maps/``, ``templates/``) placed inside it as the wheel installs them."""
    dest.mkdir(parents=True)
    ignore = shutil.ignore_patterns("__pycache__")
    if revision is None:
        shutil.copytree(ROOT / "moonshine", dest / "moonshine", ignore=ignore)
        shutil.copy2(ROOT / "RULES.md", dest / "RULES.md")
        for name in DATA:
            if (ROOT / name).is_dir():
                shutil.copytree(ROOT / name, dest / "moonshine" / name, ignore=ignore)
    else:
        listed = subprocess.run(
            ["git", "-C", str(ROOT), "ls-tree", "--name-only", revision, *DATA],
            check=True,
            capture_output=True,
            text=True,
        ).stdout.split()
        archive = subprocess.run(
            ["git", "-C", str(ROOT), "archive", revision, "moonshine", "RULES.md", *listed],
            check=True,
            capture_output=True,
        ).stdout
        subprocess.run(["tar", "-x", "-C", str(dest)], input=archive, check=True)
        for name in listed:
            shutil.move(dest / name, dest / "moonshine" / name)
    return dest


def moonshine(code: Path, cwd: Path, *args: str) -> None:
    """Run the command line of the code under ``code``, in ``cwd``."""
    env = dict(os.environ, PYTHONPATH=str(code), MOONSHINE_CACHE_DIR="")
    script = "import sys; from moonshine.cli import main; main(sys.argv[1:], prog_name='moonshine')"
    done = subprocess.run([sys.executable, "-c", script, *args], cwd=cwd, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"moonshine {' '.join(args)} failed in {cwd}:\n{done.stdout}{done.stderr}")


def sample_game(dest: Path, language: str) -> Path:
    dest.mkdir(parents=True)
    for name in SAMPLE:
        src = ROOT / name
        (shutil.copytree if src.is_dir() else shutil.copy2)(src, dest / name)
    config = dest / "game.yaml"
    text = config.read_text(encoding="utf-8")
    config.write_text(text.replace("language: en", f"language: {language}"), encoding="utf-8")
    return dest


def play_classic(code: Path, out: Path) -> None:
    """A classic game played phase by phase with random legal orders, each phase's
    orders drawn from the position the revision under test wrote."""
    import random

    sys.path.insert(0, str(ROOT))
    from bench.classic import _other_phase_orders, random_orders
    from moonshine.variants.classic.board import standard_map
    from moonshine.variants.classic.layout import load_state, phases
    from moonshine.variants.classic.orders import notation
    from moonshine.variants.classic.state import Step

    game = out / "classic"
    moonshine(code, out, "new", str(game), "--variant", "classic", "--seed", "compare", "--no-git")
    gmap, rnd = standard_map(), random.Random(1901)
    for _ in range(PHASES):
        phase = phases(game)[-1]
        st = load_state(game, phase, gmap)
        if st.winner:
            break
        if st.phase.step is Step.MOVEMENT:
            texts = random_orders(rnd, gmap, st.units)
        else:
            texts = {p: [notation(o) for o in os] for p, os in _other_phase_orders(rnd, gmap, st).items()}
        for power, lines in texts.items():
            if lines:
                orders = game / "orders" / phase / f"{power}.txt"
                orders.parent.mkdir(parents=True, exist_ok=True)
                orders.write_text(f"power: {power}\n" + "".join(line + "\n" for line in lines), encoding="utf-8")
        moonshine(code, game, "adjudicate", phase, "--no-commit")
    for phase in phases(game)[:-1]:
        for language in ("en", "fr"):
            moonshine(code, game, "report", phase, "--language", language)
            reports = game / "turns" / phase / "reports"
            reports.rename(reports.with_name(f"reports-{language}"))
    moonshine(code, game, "site", "--out", str(out / "classic-site"))


def play(code: Path, out: Path) -> None:
    """Everything one revision writes, under ``out``."""
    for language in ("en", "fr"):
        game = sample_game(out / f"sample-{language}", language)
        moonshine(code, game, "adjudicate", "spring-1924", "--no-commit")
    played = out / "played"
    moonshine(code, out, "simulate", "--turns", str(TURNS), "--seed", "compare", "--out", str(played))
    turns = sorted(p.name for p in (played / "turns").iterdir() if (p / "results.yaml").is_file())
    for turn in turns:
        for language in ("en", "fr"):
            moonshine(code, played, "report", turn, "--language", language)
            reports = played / "turns" / turn / "reports"
            reports.rename(reports.with_name(f"reports-{language}"))
    moonshine(code, played, "site", "--out", str(out / "site"))
    play_classic(code, out)


def files(root: Path) -> dict[str, Path]:
    skip = {".git", ".moonshine.lock"}
    return {
        str(p.relative_to(root)): p
        for p in sorted(root.rglob("*"))
        if p.is_file() and not skip & set(p.relative_to(root).parts)
    }


def pixels(a: Path, b: Path) -> str:
    from PIL import Image, ImageChops

    with Image.open(a) as x, Image.open(b) as y:
        if x.size != y.size:
            return f"sizes differ: {x.size} and {y.size}"
        diff = ImageChops.difference(x.convert("RGB"), y.convert("RGB"))
        total = x.size[0] * x.size[1]
        red, green, blue = diff.split()
        changed = total - ImageChops.lighter(ImageChops.lighter(red, green), blue).histogram()[0]
        counts = diff.histogram()  # 256 per channel: how many pixels differ by 0, 1, ... 255
        worst = max((i % 256 for i, n in enumerate(counts) if n), default=0)
    return f"{changed} of {total} pixels differ ({100 * changed / total:.3f}%), by at most {worst} of 255"


def compare(before: Path, after: Path) -> int:
    a, b = files(before), files(after)
    bad = 0
    for name in sorted(a.keys() - b.keys()):
        print(f"only before: {name}")
        bad += 1
    for name in sorted(b.keys() - a.keys()):
        print(f"only after: {name}")
        bad += 1
    same = 0
    for name in sorted(a.keys() & b.keys()):
        if a[name].read_bytes() == b[name].read_bytes():
            same += 1
        elif name.endswith(".png"):
            print(f"picture {name}: {pixels(a[name], b[name])}")
        else:
            print(f"DIFFERS: {name}")
            bad += 1
    print(f"{same} of {len(a.keys() & b.keys())} files byte-identical; {bad} problems")
    return 1 if bad else 0


def main(argv: Sequence[str]) -> int:
    args = list(argv)
    keep = None
    if "--keep" in args:  # --keep DIR: the two sides' files stay there, to diff
        at = args.index("--keep")
        keep = Path(args[at + 1]) if at + 1 < len(args) else None
        del args[at : at + 2]
        if keep is None or keep.exists():
            print("--keep needs a folder that does not exist yet")
            return 2
    if not 1 <= len(args) <= 2:
        print(__doc__)
        return 2
    before_rev, after_rev = args[0], args[1] if len(args) == 2 else None
    with tempfile.TemporaryDirectory(prefix="moonshine-compare-") as tmp:
        out = {}
        for side, rev in (("before", before_rev), ("after", after_rev)):
            code = extract(rev, Path(tmp) / "code" / side)
            out[side] = Path(tmp) / side
            out[side].mkdir()
            play(code, out[side])
        status = compare(out["before"], out["after"])
        if keep is not None:
            keep.mkdir(parents=True)
            for side in out:
                shutil.copytree(out[side], keep / side)
            print(f"the files are kept in {keep}/before and {keep}/after")
        return status


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
