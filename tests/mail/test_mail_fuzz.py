"""A small sample of the hostile-mail run (``python -m bench.mailfuzz`` runs 10,000):
the corpus and 300 generated messages that break RFC 5322 and MIME in every way
the generator knows go through one inbox run, and every message gets an outcome
without an exception and without the inbox failing on it."""

from __future__ import annotations

import sys
from pathlib import Path

from repokit import ROOT

sys.path.insert(0, str(ROOT))

from bench.mailfuzz import CORPUS, hostile, run


def test_the_generator_makes_hostile_mail() -> None:
    import random

    rng = random.Random(7)
    made = [hostile(rng, i) for i in range(200)]
    assert len(set(made)) == len(made)
    assert any(b"9999" in m for m in made) and any(b"\x1b" in m for m in made)
    assert any(b"multipart" in m for m in made) and any(b"=?utf-8?b?" in m for m in made)


def test_no_message_stops_or_fails_the_inbox(tmp_path: Path) -> None:
    n, counts, failures = run(300, tmp_path, seed=12)
    assert failures == []
    assert n == 300 + len(list(CORPUS.glob("*.eml")))
    assert sum(counts.values()) == n
    assert counts["accepted"] > 0 and counts["rejected"] > 100 and counts["ignored"] > 0
