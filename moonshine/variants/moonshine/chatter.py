"""The test for lines of a player's mail that are plainly not orders (a greeting,
a sign-off): no unit, no order word, no place of the map, no header. The mail
intake (``moonshine.judge.intake``) drops such lines before the order reader; each
rule family builds the test with its own words (Moonshine's here, the classic
family's in ``moonshine.render.classic.ack``)."""

from __future__ import annotations

import re


class ChatterTest:
    """Whether a line is plainly not an order: no unit, no order word, no
    district, no header. Built once per map (the parser's own words)."""

    def __init__(self, order_words: frozenset[str], district_words: frozenset[tuple[str, ...]], longest: int) -> None:
        self.order_words = order_words
        self.district_words = district_words
        self.longest = longest

    def __call__(self, line: str) -> bool:
        from moonshine.variants.moonshine.parser.lexer import fold

        body = line.strip().lstrip(">").strip()
        if not body or _HEADERISH.match(body) or len(body) > 120:
            return False
        tokens = re.findall(r"[^\W\d_]+", body)
        words = [fold(w) for w in tokens]
        if not words or len(words) > 12:
            return False
        if any(w in self.order_words for w in words):
            return False
        for start in range(len(words)):
            for size in range(1, min(self.longest, len(words) - start) + 1):
                if tuple(words[start : start + size]) not in self.district_words:
                    continue
                short = size == 1 and len(tokens[start]) <= 3 and not tokens[start].isupper()
                if not short:  # "mon", "Loo" in a sentence are words; "MON", "Loop" name districts
                    return False
        return True


_HEADERISH = re.compile(
    r"^(?:gang|bande|gang name|nom du gang|password|passwd|pass|mot de passe|mdp|turn|tour)\s*:", re.IGNORECASE
)


# Words that make a line look like an order gone wrong, not a greeting: it stays a
# rejected line with its reason.
_ORDERISH = frozenset(
    [
        "march",
        "marche",
        "attack",
        "move",
        "moves",
        "go",
        "goes",
        "support",
        "convoy",
        "retreat",
        "unit",
        "units",
        "army",
        "fleet",
        "north",
        "south",
        "east",
        "west",
        "nord",
        "sud",
        "est",
        "ouest",
        "henchman",
        "delivery",
    ]
)


def chatter_test(gmap: object) -> ChatterTest:
    """The chatter test for a map (a ``moonshine.variants.moonshine.map.GameMap``)."""
    from moonshine.variants.moonshine.parser import phrases
    from moonshine.variants.moonshine.parser.names import names_of

    names = names_of(gmap)  # type: ignore[arg-type]
    tables = (
        phrases.KINDS,
        phrases.VERBS,
        phrases.MOVE,
        phrases.HOLD,
        phrases.SUPPORT,
        phrases.TRANSPORT,
        phrases.ASSAULT,
        phrases.SELL_ALL,
        phrases.CRATES,
    )
    words = {w for t in tables for phrase in t for w in phrase if len(w) > 1 or w in ("h", "l")}
    words -= {"to", "a", "de", "en", "s", "c", "x", "all", "max", "tout", "tous", "toutes", "everything", "vers"}
    words |= {"h", "l"} | _ORDERISH
    return ChatterTest(frozenset(words), frozenset(names.by_words), names.longest)
