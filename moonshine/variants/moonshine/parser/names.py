"""Every way the map lets a player name a district (code, name, the name without its
parenthesis, aliases, the police station's name), and the districts a misspelt
name may stand for."""

from __future__ import annotations

from collections.abc import Mapping

import msgspec

from moonshine.text.catalogue import Choices, Message, say
from moonshine.variants.moonshine.map import GameMap
from moonshine.variants.moonshine.parser import lexer
from moonshine.variants.moonshine.parser.lexer import fold
from moonshine.variants.moonshine.parser.spelling import close_names


class Names(msgspec.Struct, frozen=True):
    """Every way the map lets a player name a district: code, name, the name without
    its parenthesis, aliases, the police station's name."""

    by_words: Mapping[tuple[str, ...], str | None]  # None: shared by several districts
    longest: int
    labels: Mapping[str, str]  # code -> "HYD (Hyde Park)"
    candidates: Mapping[str, str]  # folded text -> code, for suggestions
    sharing: Mapping[tuple[str, ...], tuple[str, ...]]  # name -> codes, when shared
    all_forms: tuple[tuple[str, str], ...] = ()  # (folded form, code) for every name, shared ones too

    def at(self, keys: list[str], start: int) -> tuple[str | None, int]:
        """The longest name starting at ``keys[start]``: (code, length); (None, n) for a
        name shared by several districts; (None, 0) when none matches."""
        for n in range(min(self.longest, len(keys) - start), 0, -1):
            words = tuple(keys[start : start + n])
            if words in self.by_words:
                return self.by_words[words], n
        return None, 0

    def close(self, text: str) -> tuple[str, ...]:
        """The districts whose code or a name is ``text`` misspelt (a few letters
        changed, left out, added or swapped, or the same words spaced otherwise),
        the nearest first."""
        typed = " ".join(lexer.words(text))
        if len(typed) > 40 or len(typed) < 3:
            return ()
        return close_names(typed, self.all_forms)

    def suggest(self, text: str) -> Message | None:
        if len(text) > 40:
            return None
        import difflib

        close = difflib.get_close_matches(fold(text), list(self.candidates), n=4, cutoff=0.6)
        codes: list[str] = []
        for c in close:
            code = self.candidates[c]
            if code not in codes:
                codes.append(code)
        if not codes:
            return None
        shown = [self.labels[c] for c in codes[:2]]
        return say(
            "did you mean {choices}?",
            choices=Choices(tuple(shown)),
        )


_NAMES_CACHE: dict[int, tuple[GameMap, Names]] = {}


def names_of(gmap: GameMap) -> Names:
    cached = _NAMES_CACHE.get(id(gmap))
    if cached is not None and cached[0] is gmap:
        return cached[1]
    by_words: dict[tuple[str, ...], str | None] = {}
    sharing: dict[tuple[str, ...], list[str]] = {}
    candidates: dict[str, str] = {}
    all_forms: dict[tuple[str, str], None] = {}
    labels: dict[str, str] = {}
    for code, d in gmap.districts.items():
        labels[code] = f"{code} ({d.name})"
        forms = [code, d.name, d.name.split("(")[0], *d.aliases]
        if d.station:
            forms.append(d.station)
        for form in forms:
            words = lexer.words(form)
            if not words:
                continue
            codes = sharing.setdefault(words, [])
            if code not in codes:
                codes.append(code)
            by_words[words] = code if len(codes) == 1 else None
            candidates.setdefault(" ".join(words), code)
            all_forms[(" ".join(words), code)] = None
    # A district's own code always means that district.
    for code in gmap.districts:
        by_words[(fold(code),)] = code
    names = Names(
        by_words=by_words,
        longest=max(len(w) for w in by_words),
        labels=labels,
        candidates=candidates,
        sharing={w: tuple(c) for w, c in sharing.items() if len(c) > 1},
        all_forms=tuple(all_forms),
    )
    if len(_NAMES_CACHE) > 8:
        _NAMES_CACHE.clear()
    _NAMES_CACHE[id(gmap)] = (gmap, names)
    return names
