"""Routes on a map, for any variant: chains of carriers (Diplomacy's convoy,
Moonshine's transport over land), found among the turn's carriers as the resolver
decides them, over the adjacency sets built once from the map's graph (how far a unit
reaches by itself is the graph's own answer: ``GameMap.within``).
Written once here; the rules modules, the adjudicators and the resolver call it.
Imports nothing from the project: a map is its neighbours, a district a string."""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping

Neighbours = Mapping[str, Collection[str]]


def chain(nb: Neighbours, starts: Iterable[str], usable: Callable[[str], bool]) -> set[str]:
    """The usable districts linked to ``starts`` through usable districts (the
    starts themselves included when usable)."""
    seen: set[str] = set()
    stack = [d for d in starts if usable(d)]
    while stack:
        d = stack.pop()
        if d in seen:
            continue
        seen.add(d)
        stack.extend(n for n in nb[d] if n not in seen and usable(n))
    return seen


def linked(nb: Neighbours, origin: str, dest: str, usable: Callable[[str], bool]) -> bool:
    """Is there a chain of usable districts (carriers) from a neighbour of ``origin``
    to a neighbour of ``dest``? Each district is asked about at most once, in a
    fixed order (the neighbours' listed order), so that ``usable`` may decide a
    carrier's fate as it goes (the resolver does): depth first, the origin's
    neighbours in their listed order, a carrier's own neighbours from the last."""
    seen: set[str] = set()
    stack = list(nb[origin])[::-1]
    while stack:
        d = stack.pop()
        if d in seen:
            continue
        seen.add(d)
        if not usable(d):
            continue
        if dest in nb[d]:
            return True
        stack.extend(x for x in nb[d] if x not in seen)
    return False
