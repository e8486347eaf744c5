"""Inbox benchmark: the inbox's work is linear in the number of messages and its
memory is bounded by the largest message, not by the mailbox.

Time: mboxes of 100 and 1,000 messages (a mix a real referee's address gets:
mostly strangers' junk, some players' orders, some wrong passwords), each read
by ``moonshine inbox`` in a fresh process on a fresh copy of the sample game;
the median of 3 runs of the CPU time. Target: 1,000 messages in at most 10x the CPU time of 100.

Memory: the peak resident memory of a fresh process reading mboxes of 100 and
1,000 messages of 100 KB each (10 MB and 100 MB), and one with a single 20 MB
message among small ones. Target: the 100 MB mailbox takes no more memory than
the 10 MB one plus a few of its messages.

``python -m bench.inbox``."""

from __future__ import annotations

import json
import mailbox
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from email.utils import format_datetime
from pathlib import Path

from bench.mailfuzz import PASSWORD, fuzz_game

GROWTH_TARGET = 10.0
RUNS = 3
START = datetime(2024, 2, 27, 8, 0, tzinfo=UTC)


def _message(rng: random.Random, i: int, *, pad: int = 0) -> bytes:
    msg = EmailMessage()
    when = START + timedelta(seconds=37 * i)
    msg["Received"] = f"from mx by mail.moonshine.example; {format_datetime(when)}"
    kind = rng.random()
    if kind < 0.8:
        msg["From"] = f"spammer{i}@junk.example"
        body = "Cheap watches! " * rng.randint(5, 40)
    elif kind < 0.95:
        msg["From"] = "valley@players.example.org"
        body = (
            f"Hi,\ngang: valley\npassword: {PASSWORD}\nH LOO - LIT\nL KEN hold\nThanks\n\n"
            "On Mon, Terry wrote:\n> H LOO hold\n"
        )
    else:
        msg["From"] = "outfit@players.example.org"
        body = "gang: outfit\npassword: a-wrong-guess\nL UPT - ROG\n"
    msg["To"] = "referee@moonshine.example.org"
    msg["Subject"] = f"message {i}"
    msg["Date"] = format_datetime(when)
    msg["Message-ID"] = f"<bench-{i}@example.org>"
    msg.set_content(body + ("x" * 76 + "\n") * (pad // 77))
    return msg.as_bytes()


def make_mbox(path: Path, count: int, *, pad: int = 0, big: int = 0, seed: int = 15) -> Path:
    rng = random.Random(seed)
    box = mailbox.mbox(str(path), create=True)
    for i in range(count):
        box.add(_message(rng, i, pad=big if (big and i == count // 2) else pad))
    box.flush()
    box.close()
    return path


def peak_mb() -> float:
    """This process's peak resident memory in MB: the kernel's high-water mark of its
    own memory (``VmHWM``). Not ``getrusage``'s ``ru_maxrss``, which Linux keeps
    across ``exec``: a process started by a large one (this benchmark, after its
    runs) reports at least its parent's size."""
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024  # kB
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # kB on Linux


def one(game: str, source: str) -> None:
    """In a fresh process: read ``source`` into ``game``; print seconds and peak memory."""
    from moonshine.cli import main as cli

    started = time.process_time()
    try:
        cli(["inbox", source, "--game", game], standalone_mode=False)
    finally:
        took = time.process_time() - started
        peak = peak_mb()
        sys.stdout.flush()
        print(json.dumps({"seconds": took, "peak_mb": peak}), file=sys.stderr)


def _measure(base: Path, mbox: Path, tag: str) -> dict[str, float]:
    work = base / tag
    game = fuzz_game(work)
    out = subprocess.run(
        [sys.executable, "-m", "bench.inbox", "--one", str(game), str(mbox)],
        capture_output=True,
        text=True,
        check=True,
        cwd=Path(__file__).resolve().parent.parent,
    )
    return json.loads(out.stderr.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["--one"]:
        one(args[1], args[2])
        return 0
    status = 0
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        times: dict[int, float] = {}
        for count in (100, 1000):
            mbox = make_mbox(base / f"m{count}.mbox", count)
            runs = [_measure(base, mbox, f"t{count}-{r}")["seconds"] for r in range(RUNS)]
            times[count] = statistics.median(runs)
            per = 1000 * times[count] / count
            print(
                f"inbox: {count:>5} messages in {times[count]:.2f} s CPU (median of {RUNS}; {per:.1f} ms per message)"
            )
        ratio = times[1000] / times[100]
        verdict = "ok" if ratio <= GROWTH_TARGET else "TOO SLOW"
        print(f"inbox: 1,000 messages take {ratio:.1f}x the CPU of 100 (target at most {GROWTH_TARGET:g}x): {verdict}")
        status = status or (ratio > GROWTH_TARGET)
        peaks: dict[str, float] = {}
        cases = {
            "100 x 100 KB (10 MB mbox)": make_mbox(base / "p100.mbox", 100, pad=100_000),
            "1,000 x 100 KB (100 MB mbox)": make_mbox(base / "p1000.mbox", 1000, pad=100_000),
            "100 small + one of 20 MB": make_mbox(base / "pbig.mbox", 100, big=20_000_000),
        }
        for name, mbox in cases.items():
            m = _measure(base, mbox, "p" + str(len(peaks)))
            peaks[name] = m["peak_mb"]
            size = mbox.stat().st_size / 1e6
            print(
                f"inbox memory: {name}: peak {m['peak_mb']:.0f} MB for a {size:.0f} MB mailbox ({m['seconds']:.1f} s)"
            )
        small, large = peaks["100 x 100 KB (10 MB mbox)"], peaks["1,000 x 100 KB (100 MB mbox)"]
        grew = large - small
        verdict = "ok" if grew < 20 else "GROWS WITH THE MAILBOX"
        print(f"inbox memory: 10x the mailbox (+90 MB) adds {grew:.0f} MB of peak memory: {verdict}")
        status = status or (grew >= 20)
    return int(bool(status))


if __name__ == "__main__":
    sys.exit(main())
