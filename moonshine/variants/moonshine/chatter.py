"""Moonshine's test for lines of a player's mail that are plainly not orders
(``moonshine.text.chatter``), built with the words of the order reader and the
map's district names."""

from __future__ import annotations

from moonshine.text.chatter import ChatterTest

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
