"""Whole-process benchmark: what a player and the game master wait for.

In one run, interleaved (bare start, check, adjudicate; again and again, so that a
busy moment of the machine hits all three alike):

- ``python -c pass`` with the project's own interpreter (the floor: the interpreter
  and the venv's site packages starting);
- ``moonshine check orders/spring-1924/valley.txt`` in a copy of the sample game
  (the acknowledgement a player gets);
- ``moonshine adjudicate spring-1924 --no-commit --force`` in the same copy: the
  whole turn with its results, next state, reports, bulletin, SVG and PNG map.

Each as the median of the wall-clock times and of the CPU times (user + system of
the child) and as a ratio of medians to the bare start; the targets are ratios of
CPU times, which a busy machine sways less than wall-clock times.
"""

from __future__ import annotations

import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from time import perf_counter

ROOT = Path(__file__).resolve().parent.parent
RUNS = 11
CHECK_TARGET = 4.0  # CPU time, as a ratio to the bare start's
ADJUDICATE_TARGET = 14.0
SAMPLE = ("game.yaml", ".moonshine-secret", "orders", "turns")
# As a user's shell runs them: byte code cached (a first, warming run writes it).
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def copy_sample(dest: Path) -> Path:
    """The repository's sample game (its first turn only) copied to ``dest``."""
    dest.mkdir(parents=True, exist_ok=True)
    for name in SAMPLE:
        src = ROOT / name
        if src.is_dir():
            shutil.copytree(src, dest / name)
        else:
            shutil.copy2(src, dest / name)
    return dest


def timed(argv: Sequence[str], cwd: Path) -> tuple[float, float]:
    """Wall-clock and CPU seconds of one child process, which must succeed (the sample's
    valley orders are all accepted, so check exits 0)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = perf_counter()
    done = subprocess.run(argv, cwd=cwd, env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=False)
    wall = perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"bench: {' '.join(argv)} failed ({done.returncode}): {done.stderr.decode()[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def run(runs: int = RUNS) -> list[str]:
    python = sys.executable
    moonshine = str(Path(python).parent / "moonshine")
    commands = {
        "bare start": [python, "-c", "pass"],
        "check": [moonshine, "check", "orders/spring-1924/valley.txt"],
        "adjudicate": [moonshine, "adjudicate", "spring-1924", "--no-commit", "--force"],
    }
    # check in a copy never adjudicated (so against spring-1924), adjudicate in another
    walls: dict[str, list[float]] = {k: [] for k in commands}
    cpus: dict[str, list[float]] = {k: [] for k in commands}
    with tempfile.TemporaryDirectory(prefix="moonshine-bench-") as tmp:
        where = {name: copy_sample(Path(tmp) / name.replace(" ", "-")) for name in commands}
        for name, argv in commands.items():  # warm: byte code, file cache, the map cache
            timed(argv, where[name])
        for _ in range(runs):
            for name, argv in commands.items():
                wall, cpu = timed(argv, where[name])
                walls[name].append(wall)
                cpus[name].append(cpu)
    base_wall = statistics.median(walls["bare start"])
    base_cpu = statistics.median(cpus["bare start"])
    lines = [f"process: medians of {runs} interleaved runs of each, in a copy of the sample game"]
    targets = {"check": CHECK_TARGET, "adjudicate": ADJUDICATE_TARGET}
    for name in commands:
        wall, cpu = statistics.median(walls[name]), statistics.median(cpus[name])
        line = f"process: {name:<11} {wall * 1000:7.1f} ms wall, {cpu * 1000:7.1f} ms CPU"
        if name in targets:
            ratio = cpu / base_cpu
            verdict = "met" if ratio <= targets[name] else "MISSED"
            line += (
                f"; {wall / base_wall:.1f}x the bare start's wall time, {ratio:.1f}x its CPU "
                f"(target at most {targets[name]:g}x its CPU: {verdict})"
            )
        lines.append(line)
    return lines


def main() -> int:
    for line in run():
        print(line, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
