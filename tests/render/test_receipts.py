"""Receipts (moonshine/render/receipts.py): recomputed by hand as the README shows,
changed by any change to the orders, and no help to anyone without the salt."""

from __future__ import annotations

import hashlib
import re

from repokit import ROOT

from moonshine.render.receipts import receipt, recorded_text, salt

ORDERS = ["H LOO - NSS", "L BRO S H LOO - NSS", "bid 5 LOO"]


def test_the_readme_recomputes_the_receipt() -> None:
    """The README's few lines of standard-library Python give the same receipt."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"```python\n(# Check a receipt.*?)```", readme, re.S)
    assert block, "the README shows how to check a receipt"
    s = salt("seed", "spring-1924", "valley")
    code = block.group(1).replace("PASTE-THE-SALT", s).replace("PASTE THE ORDERS\n", "".join(f"{o}\n" for o in ORDERS))
    scope: dict[str, object] = {}
    exec(compile(code, "README.md", "exec"), scope)  # the reader's own check, run as written
    assert scope["receipt"] == receipt(s, ORDERS)


def test_by_hand() -> None:
    s = salt("seed", "spring-1924", "valley")
    digest = hashlib.sha256((s + "\n" + "H LOO - NSS\nL BRO S H LOO - NSS\nbid 5 LOO\n").encode()).hexdigest()
    assert receipt(s, ORDERS).replace("-", "") == digest[:20]


def test_any_change_changes_the_receipt() -> None:
    s = salt("seed", "spring-1924", "valley")
    base = receipt(s, ORDERS)
    assert receipt(s, ["  H LOO - NSS  ", "", *ORDERS[1:]]) == base  # blank lines and spaces around do not count
    assert receipt(s, ORDERS[::-1]) != base
    assert receipt(s, [*ORDERS[:2], "bid 6 LOO"]) != base
    assert receipt(s, ORDERS[:2]) != base


def test_salts_differ_per_turn_gang_and_game() -> None:
    salts = {
        salt("seed", "spring-1924", "valley"),
        salt("seed", "autumn-1924", "valley"),
        salt("seed", "spring-1924", "outfit"),
        salt("other seed", "spring-1924", "valley"),
    }
    assert len(salts) == 4 and all(len(x) == 64 for x in salts)
    assert recorded_text(["a", " ", "b "]) == "a\nb\n"


def test_published_receipts_stay_valid() -> None:
    """Salts and receipts already mailed to players keep their values: HMAC-SHA256 and
    SHA-256 as RFC 2104 and FIPS 180-4 define them (computed once and kept here)."""
    s = salt("seed", "spring-1924", "valley")
    assert s == "d562982a64657c7c407b83f7b8ede4742af32d834d09c2fd4a8e418cddfb5cb9"
    assert receipt(s, ["H LOO - NSS"]) == "7090-7665-068b-3d05-16c6"
