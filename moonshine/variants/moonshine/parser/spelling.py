"""How far a misspelling may be from the word it stands for: the distance between
two spellings, a name misspelt (a letter or two wrong, spaced otherwise, a usual
abbreviation), the names a typed text may stand for."""

from __future__ import annotations

import functools


def spelling_distance(a: str, b: str) -> int:
    """Letters changed, left out, added or two neighbours swapped to turn ``a`` into
    ``b`` (the optimal string alignment distance)."""
    if a == b:
        return 0
    if abs(len(a) - len(b)) > 2:
        return 3
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        row = [i] + [0] * len(b)
        for j, cb in enumerate(b, 1):
            row[j] = min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (ca != cb))
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                row[j] = min(row[j], prev2[j - 2] + 1)
        prev2, prev = prev, row
    return prev[-1]


_ABBREVIATIONS = {"blvd": "boulevard", "sq": "square", "pk": "park", "ave": "avenue", "av": "avenue", "st": "street"}


def misspells(typed: str, form: str) -> int | None:
    """How far ``typed`` (folded words) is from a name ``form`` when it may be that
    name misspelt, else None: a letter or two wrong (one in a short word), the same
    words spaced otherwise, or a usual abbreviation (``Grand Blvd``). The first
    letter must be right: a word that begins otherwise is another word."""
    return _misspells(_unabbreviated(typed), form)


def _unabbreviated(typed: str) -> str:
    return " ".join(_ABBREVIATIONS.get(w, w) for w in typed.split())


def _misspells(typed: str, form: str) -> int | None:
    if not typed or not form or typed[0] != form[0]:
        return None
    d = spelling_distance(typed, form)
    if d <= allowed_edits(typed):
        return d
    if typed.replace(" ", "") == form.replace(" ", ""):
        return 0
    return None


@functools.lru_cache(maxsize=4096)
def close_names(typed: str, forms: tuple[tuple[str, str], ...]) -> tuple[str, ...]:
    """The codes whose name (or code) among ``forms`` (folded form, code) ``typed``
    misspells (``misspells``), the nearest first; or, when none, the one code whose
    name begins with the words typed (``Adriatic`` for ``Adriatic Sea``, ``Harrison
    Street`` for its station), when they are five letters or more and begin no
    other code's name (``Lincoln`` begins two)."""
    best: dict[str, int] = {}
    leads: set[str] = set()
    typed = _unabbreviated(typed)
    if not typed:
        return ()
    size = len(typed.split())
    allowed = allowed_edits(typed)
    for form, code in forms:
        if form[:1] != typed[0]:
            continue
        d = _misspells(typed, form)
        if d is not None and d < best.get(code, 9):
            best[code] = d
        lead = " ".join(form.split()[:size])
        if lead != form and spelling_distance(typed, lead) <= allowed:
            leads.add(code)
    if not best and len(leads) == 1 and len(typed.replace(" ", "")) >= 5:
        return tuple(leads)
    return tuple(sorted(best, key=lambda c: (best[c], c)))


def allowed_edits(typed: str) -> int:
    """How far a misspelling may be from the word it stands for: one letter in a short
    word (a code: ``BRU`` is one letter from BRO, BRI, BRP and BUR), two in a name."""
    size = len(typed.replace(" ", ""))
    return 0 if size < 3 else 1 if size <= 5 else 2
