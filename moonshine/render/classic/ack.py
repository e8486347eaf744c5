"""The acknowledgement of a classic-family orders file: every line as understood
(in the notation of the reader's language, ``orders.notation``, and, where a
person reads, full province names), accepted or rejected with the reason and a
suggestion, and the units left without an order.

The reasons come from the rules module (``moonshine.variants.classic.rules``), the one the
adjudicator calls, so a check and the adjudication cannot disagree: a movement
order is assigned and judged by ``assign`` and ``problem``, a retreat by
``retreat_problem``, an adjustment by ``adjudicate_adjustments`` itself.
"""

from __future__ import annotations

import difflib
import re
import textwrap
from typing import TYPE_CHECKING

import msgspec

from moonshine.text.catalogue import Catalogue, fill, keyed, languages
from moonshine.variants.classic.adjustments import adjudicate_adjustments, adjustment_counts
from moonshine.variants.classic.board import ClassicMap, province_of, region_code
from moonshine.variants.classic.orders import KEYWORDS as _WORDS
from moonshine.variants.classic.orders import PLACE as _LOC
from moonshine.variants.classic.orders import WAIVE_WORDS as _WAIVE
from moonshine.variants.classic.orders import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    OrderError,
    Retreat,
    SupportHold,
    SupportMove,
    Waive,
    notation,
    parse_order,
    unit_of,
)
from moonshine.variants.classic.rules import Board, Problem, assign, problem, retreat_problem
from moonshine.variants.classic.state import ClassicState, Phase, Step

if TYPE_CHECKING:
    from moonshine.text.chatter import ChatterTest


# The words of the acknowledgement (the reasons are the rules module's PROBLEMS).
WORDS: Catalogue = {
    "classic.ack.title": "{board}: orders of {power} for {phase}",
    "classic.ack.file": "File: {file}",
    "classic.ack.understood": "ORDERS AS UNDERSTOOD",
    "classic.ack.line": "line",
    "classic.ack.ok": "accepted",
    "classic.ack.rejected": "REJECTED",
    "classic.ack.noted": "noted",
    "classic.ack.power_header": "power: {name} ({code})",
    "classic.ack.turn_header": "turn: {phase}",
    "classic.ack.units": "UNITS",
    "classic.ack.hold": "Without a valid order, these units hold: {units}",
    "classic.ack.disband": "Without a valid retreat, these units are disbanded: {units}",
    "classic.ack.all_ordered": "Every unit has an order.",
    "classic.ack.builds": (
        "{power} may build {n} unit in its empty home centres: {homes}",
        "{power} may build {n} units in its empty home centres: {homes}",
    ),
    "classic.ack.disbands": (
        "{power} must disband {n} unit; if no disband is ordered, the unit farthest from its centres goes",
        "{power} must disband {n} units; if too few disbands are ordered, the units farthest from its centres go first",
    ),
    "classic.ack.no_adjustment": "{power} has as many units as supply centres: nothing to build or disband",
    "classic.ack.summary": "SUMMARY",
    "classic.ack.counts": "{lines}: {ok}, {bad}.",
    "classic.ack.lines_n": ("{n} order line", "{n} order lines"),
    "classic.ack.accepted_n": ("{n} accepted", "{n} accepted"),
    "classic.ack.rejected_n": ("{n} rejected", "{n} rejected"),
    "classic.ack.advice": (
        "A rejected order is not carried out (the unit holds, or in a retreat is disbanded). To change your "
        "orders, send a complete new file before the deadline."
    ),
    "classic.ack.did_you_mean": "did you mean {what}?",
    "classic.ack.unknown_place": "{token!r} is not a province of the board",
    "classic.ack.unreadable": "cannot be read: {detail}",
    "classic.ack.too_long": "line too long ({n} characters)",
    "classic.ack.one_per_line": "write one order per line",
    "classic.ack.write_like": (
        "write it like A PAR - BUR, F NTH C A LON - NWY, A MUN S A PAR - BUR, A PAR R BUR, A PAR B"
    ),
    "classic.ack.twice": "a second order for {unit} (line {first}): a unit with several orders holds",
    "classic.ack.several": "several different orders for {unit} (lines {lines}): none is carried out, the unit holds",
    "classic.ack.movement": "movement",
    "classic.ack.retreats": "retreats",
    "classic.ack.adjustments": "adjustments",
    "classic.ack.moves_to": "{unit} moves to {dest}",
    "classic.ack.by_convoy": " by convoy",
    "classic.ack.holds": "{unit} holds",
    "classic.ack.supports_hold": "{unit} supports {target} holding",
    "classic.ack.supports_move": "{unit} supports {target} to {dest}",
    "classic.ack.convoys": "{unit} convoys {target} to {dest}",
    "classic.ack.retreats_to": "{unit} retreats to {dest}",
    "classic.ack.disbanded": "{unit} is disbanded",
    "classic.ack.build": "build {unit}",
    "classic.ack.waive": "a build waived",
    # a province in full in a sentence: {code} its code (STP/SC), {name} its name in the
    # reader's language, {coast} " (SC)" or nothing; a language whose prepositions
    # depend on the province (French: en Bourgogne, à Paris) may write the code first
    "classic.ack.place": "{name}{coast}",
    "classic.ack.army": "the army in {place}",
    "classic.ack.fleet": "the fleet in {place}",
    "classic.ack.an_army": "an army in {place}",
    "classic.ack.a_fleet": "a fleet in {place}",
    "classic.ack.unit_in": "the unit in {place}",
    # how a line written otherwise was read
    "classic.ack.read_as": "read {typed!r} as {word!r}",
    "classic.ack.unit_read": "read {typed!r} as {unit}: your unit there",
    "classic.ack.only_province": "read {typed!r} as {what}: the only province of that spelling {unit} can use",
    "classic.ack.ignored": "left out, as no part of an order: {words}",
    "classic.ack.could_be": "{typed!r} could be {provinces}: write the province's code",
}


def word(key: str, language: str, **values: object) -> str:
    lang = language if language in languages() else "en"
    return fill(lang, keyed(lang, WORDS, f"classic.ack.{key}", values.get("n")), **values)


class AckLine(msgspec.Struct, frozen=True):
    """One line of the file: what was read, and why it is rejected (None: accepted)."""

    number: int
    text: str
    order: Order | None = None
    problem: Problem | None = None
    detail: tuple[str, dict[str, object]] | None = None  # a WORDS key and values, for lines that cannot be read
    suggestion: tuple[str, dict[str, object]] | None = None
    noted: bool = False  # a header line (power:)
    notes: tuple[tuple[str, dict[str, object]], ...] = ()  # how a line written otherwise was read (WORDS keys)

    @property
    def ok(self) -> bool:
        return self.problem is None and self.detail is None


class ClassicAck(msgspec.Struct):
    power: str
    phase: str
    step: Step
    lines: list[AckLine] = msgspec.field(default_factory=list)
    unordered: list[str] = msgspec.field(default_factory=list)  # units (labels) without a valid order
    owed: int = 0  # winter: builds (positive) or disbands (negative) owed
    homes: list[str] = msgspec.field(default_factory=list)  # winter: empty home centres it owns

    @property
    def ok(self) -> bool:
        return all(line.ok for line in self.lines)


_HEADER = re.compile(r"^\s*(power|puissance|gang|turn|tour|phase)\s*:\s*(.*)$", re.IGNORECASE)
_WORDISH = re.compile(r"[A-Za-zÀ-ÿ]{3,}(?:[/(](?:nc|sc|ec|wc)\)?)?$", re.IGNORECASE)
_ORDER_WORDS = {
    "army",
    "fleet",
    "to",
    "hold",
    "holds",
    "support",
    "supports",
    "convoy",
    "convoys",
    "retreat",
    "retreats",
    "disband",
    "disbands",
    "remove",
    "removes",
    "build",
    "builds",
    "move",
    "moves",
    "via",
    "waive",
    "waived",
    # French
    "armée",
    "armee",
    "flotte",
    "tient",
    "tenir",
    "soutient",
    "soutien",
    "soutenir",
    "convoie",
    "convoi",
    "convoyer",
    "retraite",
    "dissoudre",
    "dissous",
    "dissoute",
    "construire",
    "construit",
    "construction",
    "renoncer",
    "renonce",
    "renonciation",
}


def _suggest(gmap: ClassicMap, token: str) -> tuple[str, dict[str, object]] | None:
    """The province a misspelt code or name probably means."""
    t = token.split("/", 1)[0].split("(", 1)[0]
    codes = list(gmap.provinces)
    names = {v.name.upper(): k for k, v in gmap.provinces.items()}
    for named in gmap.translations.values():
        names.update({name.upper(): code for (kind, code), name in named.items() if kind == "province"})
    found = names.get(t.upper())
    if found is None:
        close = difflib.get_close_matches(t.upper(), codes, n=3, cutoff=0.6)
        close.sort(key=lambda c: (-difflib.SequenceMatcher(None, t.upper(), c).ratio(), c[0] != t[:1].upper()))
        if not close:
            close = [names[n] for n in difflib.get_close_matches(t.upper(), list(names), n=1, cutoff=0.6)]
        found = close[0] if close else None
    if found is None:
        return None
    return "did_you_mean", {"province": found}  # named in the reader's language by render


def _unknown_place(gmap: ClassicMap, text: str) -> str | None:
    """The first word of the line that stands where a province should and is none."""
    for tok in re.findall(r"[^\s\-–—→>]+", text):
        low = tok.lower().rstrip(".,;")
        if low in _ORDER_WORDS or len(low) <= 1 or not _WORDISH.match(low):
            continue
        if province_of(low.upper().replace("(", "/").replace(")", "")) in gmap.provinces:
            continue
        return str(tok).rstrip(".,;")
    return None


# First words of an order: what follows them is a unit and its province.
_LEADS = ("a", "f", "army", "fleet", "build", "disband", "armée", "flotte", "construire", "dissoudre")
# Characters of an order line read at most, as Moonshine's reader: an order is a few words.
# A longer line is refused unread (its lenient reading tries each word against the board's
# names: seconds for a line of 100 KB, for each power a prediction tries it as).
MAX_LINE = 500


def read_line(gmap: ClassicMap, st: ClassicState, power: str, number: int, raw: str) -> AckLine:
    """One line of ``power``'s orders as a lenient referee reads it, never two ways:
    the standard notation as it is; otherwise province names in any language of the
    board, plain words around the order, a misspelt keyword, a unit written without
    its type (the power's unit there) and a misspelt province when only one of its
    readings is an order the power can give in this phase. The line's ``notes`` say
    how it was read. The acknowledgement and the adjudication read lines with it."""
    text = raw.strip()
    if len(text) > MAX_LINE:
        shown = text[:60] + "…"
        return AckLine(number, shown, detail=("too_long", {"n": len(text)}), suggestion=("one_per_line", {}))
    strict = _read(gmap, number, raw)
    if strict.ok:
        return strict
    lenient = _lenient(gmap, st, power, number, text)
    return lenient if lenient is not None else strict


def _read(gmap: ClassicMap, number: int, raw: str) -> AckLine:
    text = raw.strip()
    try:
        order = parse_order(text)
    except OrderError as exc:
        bad = _unknown_place(gmap, text)
        if bad is not None and text.split()[0].lower() in _LEADS:
            return AckLine(number, text, detail=("unknown_place", {"token": bad}), suggestion=_suggest(gmap, bad))
        detail = str(exc).split(": ", 1)[-1]
        return AckLine(number, text, detail=("unreadable", {"detail": detail}), suggestion=("write_like", {}))
    for place in _places(order):
        if province_of(place) not in gmap.provinces:
            return AckLine(
                number,
                text,
                order,
                detail=("unknown_place", {"token": place}),
                suggestion=_suggest(gmap, place),
            )
    return AckLine(number, text, order)


# -- the lenient reading ----------------------------------------------------------------

_LTOKEN = re.compile(r"->|[-–—→>]|[^\s\-–—→>,;:!?.]+")
_KIND_WORDS = {"a": "A", "army": "A", "armee": "A", "f": "F", "fleet": "F", "flotte": "F"}
# Words the standard reader does not know, read as its own (French moves; "attack" is a move).
_MORE_WORDS = {
    "va": "-",
    "vers": "-",
    "attack": "-",
    "attacks": "-",
    "attaque": "-",
    "goes": "-",
    "avance": "-",
    "aille": "-",
    "soutiens": "S",
    "supporte": "S",
    "convoys": "C",
}
_CONVOY_WORDS = {("via", "convoy"), ("by", "convoy"), ("par", "convoi"), ("via", "convoi")}
_FILLERS = {"en", "au", "dans", "in", "the", "du", "de", "at"}


class _Tok(msgspec.Struct, frozen=True):
    text: str  # as written
    key: str  # folded


def _fold(text: str) -> str:
    from moonshine.text.folding import fold

    return fold(text)


def _ltokens(text: str) -> list[_Tok]:
    return [_Tok(t, _fold(t)) for t in _LTOKEN.findall(text)]


_NAMES_CACHE: dict[int, tuple[ClassicMap, dict[tuple[str, ...], str | None], tuple[tuple[str, str], ...]]] = {}


def _names(gmap: ClassicMap) -> tuple[dict[tuple[str, ...], str | None], tuple[tuple[str, str], ...]]:
    """The board's province names in every language, as folded words (None: shared by
    several), and every (folded name or code, code) for misspellings."""
    cached = _NAMES_CACHE.get(id(gmap))
    if cached is not None and cached[0] is gmap:
        return cached[1], cached[2]
    by_words: dict[tuple[str, ...], str | None] = {}
    forms: dict[tuple[str, str], None] = {}
    for code in gmap.provinces:
        named = {gmap.province_name(code, lang) for lang in ("en", *sorted(gmap.translations))}
        forms[(code.casefold(), code)] = None
        for name in named:
            words = tuple(t.key for t in _ltokens(name))
            if not words:
                continue
            by_words[words] = code if by_words.get(words, code) == code else None
            forms[(" ".join(w for w in words if w != "-"), code)] = None
    _NAMES_CACHE[id(gmap)] = (gmap, by_words, tuple(forms))
    return by_words, tuple(forms)


def _close_provinces(gmap: ClassicMap, typed: str) -> tuple[str, ...]:
    from moonshine.variants.moonshine.parser.spelling import close_names

    return close_names(typed, _names(gmap)[1])


def _close_keyword(key: str) -> str | None:
    """The keyword ``key`` misspells, when all the keywords that close mean one thing."""
    from moonshine.variants.moonshine.parser.spelling import spelling_distance

    if len(key) < 3:
        return None
    words = {**_WORDS_BY_MEANING, **_MORE_WORDS}
    near = sorted(
        (spelling_distance(key, w), w)
        for w in words
        if len(w) >= 4 and w[0] == key[0] and spelling_distance(key, w) <= 1
    )
    if not near or len({words[w] for _, w in near}) > 1:
        return None
    return near[0][1]


def _unit_at(st: ClassicState, power: str, province: str) -> str | None:
    """The label of ``power``'s unit in ``province`` (dislodged, in a retreat phase)."""
    units = st.dislodged if st.phase.step is Step.RETREATS else st.units
    for u in units:
        if u.power == power and province_of(u.region) == province:
            return f"{u.kind.value} {u.region}"
    return None


def _usable(gmap: ClassicMap, st: ClassicState, power: str, order: Order) -> bool:
    """Whether ``order`` is one ``power`` can give in this phase (the rules module's view)."""
    if any(province_of(p) not in gmap.provinces for p in _places(order)):
        return False
    step = st.phase.step
    if step is Step.MOVEMENT:
        board = Board(gmap, st.units)
        _, ignored = assign(board, {power: [order]})
        ref = unit_of(order)
        if ignored or ref is None:
            return False
        i = board.at[ref.province]  # the unit as written, of its type: a reading names no other
        return board.plans[i].unit.kind is ref.kind and problem(board, i, order) is None
    if step is Step.RETREATS:
        ref = unit_of(order)
        if ref is None or not any(d.kind is ref.kind and d.unit.province == ref.province for d in st.dislodged):
            return False
        lines, _ = _retreats(gmap, st, power, [AckLine(0, "", order)])
        return lines[0].ok
    outcome = adjudicate_adjustments(gmap, st.units, st.owners, {power: [order]})
    return outcome.problems[0] is None


_MOST_READINGS = 64


def _lenient(gmap: ClassicMap, st: ClassicState, power: str, number: int, text: str) -> AckLine | None:
    """``text`` read leniently, or None when it cannot be (the strict reader's answer stands)."""
    from moonshine.variants.moonshine.parser.phrases import LEAD_MOVE, PLAIN

    by_words, _ = _names(gmap)
    toks = _ltokens(text)
    pieces: list[str | tuple[str, tuple[str, ...]]] = []  # a word, or (typed, provinces) for a misspelling
    notes: list[tuple[str, dict[str, object]]] = []
    ignored: list[str] = []
    lead = False
    first = ""  # the first piece as written
    i = 0
    while i < len(toks):
        tok = toks[i]
        key = tok.key
        pair = (key, toks[i + 1].key) if i + 1 < len(toks) else ("", "")
        if pair in _CONVOY_WORDS:
            pieces += ["via", "convoy"]
            i += 2
            continue
        name = next(
            (n for n in range(min(6, len(toks) - i), 0, -1) if tuple(t.key for t in toks[i : i + n]) in by_words), 0
        )
        if name and not (name == 1 and (key in _WORDS or key in _KIND_WORDS)):
            code = by_words[tuple(t.key for t in toks[i : i + name])]
            if code is None:
                return None
            if not pieces:
                first = " ".join(t.text for t in toks[i : i + name])
            pieces.append(code)
            i += name
            continue
        if _LOC.match(key) and province_of(region_code(key)) in gmap.provinces:
            if not pieces:
                first = tok.text
            pieces.append(key.upper())
        elif key in _KIND_WORDS:
            pieces.append(_KIND_WORDS[key])
        elif not pieces and (key,) in LEAD_MOVE:
            lead = True
        elif key in _WORDS or key in _WAIVE:
            pieces.append(key)
        elif key in _MORE_WORDS:
            pieces.append(_MORE_WORDS[key])
        elif key in _FILLERS and i > 0:
            pass
        elif key in PLAIN:
            ignored.append(tok.text)
        elif (fixed := _close_keyword(key)) is not None:
            notes.append(("read_as", {"typed": tok.text, "word": fixed}))
            pieces.append(_MORE_WORDS.get(fixed, fixed))
        else:
            run = [t for t in toks[i : i + 3]]
            for n in range(len(run), 0, -1):
                words = [t.key for t in run[:n]]
                if any(w in _WORDS or w in _KIND_WORDS or not w.isalpha() for w in words[1:]):
                    continue
                found = _close_provinces(gmap, " ".join(words))
                if found:
                    if not pieces:
                        first = " ".join(t.text for t in run[:n])
                    pieces.append((" ".join(t.text for t in run[:n]), found))
                    i += n
                    break
            else:
                return None
            continue
        i += 1
    # "to move to": one move
    squeezed: list[str | tuple[str, tuple[str, ...]]] = []
    for piece in pieces:
        if piece in ("-", "to", "move", "moves") and squeezed and squeezed[-1] in ("-", "to", "move", "moves"):
            continue
        squeezed.append(piece)
    if len(squeezed) > 8:  # an order is seven words at most (F NTH C A LON - NWY), and "par convoi" one more
        return None  # (a line of 25,000 misspelt provinces tried 64 readings of 25,000 words, after building them
    slots = [p for p in squeezed if isinstance(p, tuple)]
    readings: dict[Order, tuple[tuple[str, dict[str, object]], ...]] = {}
    plans: list[tuple[int, ...]] = [()]
    for slot in slots:
        plans = [(*plan, k) for plan in plans for k in range(len(slot[1]))][:_MOST_READINGS]
    for plan in plans:
        chosen = iter(plan)
        words = [p if isinstance(p, str) else p[1][next(chosen)] for p in squeezed]
        extra: list[tuple[str, dict[str, object]]] = []
        if words and _LOC.match(words[0]) and words[0].casefold() not in _WORDS:
            unit = _unit_at(st, power, province_of(region_code(words[0])))
            if unit is None:
                continue
            extra.append(("unit_read", {"typed": first or words[0], "unit": unit}))
            words = unit.split() + words[1:]
        try:
            order = parse_order(" ".join(words))
        except OrderError:
            continue
        if lead and not isinstance(order, Move):
            continue
        if (not slots or _usable(gmap, st, power, order)) and order not in readings:
            said: list[tuple[str, dict[str, object]]] = [
                ("only_province", {"typed": slot[0], "province": slot[1][k], "unit": _label(order)})
                for slot, k in zip(slots, plan, strict=True)
            ]
            readings[order] = tuple(said + extra)
    if len(readings) != 1:
        if slots and len(readings) > 1:
            codes = sorted({o.dest for o in readings if isinstance(o, Move | SupportMove | Convoy | Retreat)})
            if len(codes) > 1:
                info: dict[str, object] = {"typed": slots[-1][0], "provinces": ", ".join(codes)}
                return AckLine(number, text, detail=("could_be", info))
        return None
    [(order, how)] = readings.items()
    if ignored:
        notes.insert(0, ("ignored", {"words": ", ".join(repr(w) for w in ignored)}))
    return AckLine(number, text, order, notes=tuple(notes) + how)


def _label(order: Order) -> str:
    ref = unit_of(order)
    return ref.text() if ref is not None else ""


_WORDS_BY_MEANING = {w: m for w, m in _WORDS.items() if w.isalpha()}


def _places(order: Order) -> list[str]:
    out: list[str] = []
    ref = unit_of(order)
    if ref is not None:
        out.append(ref.region)
    if isinstance(order, SupportHold | SupportMove | Convoy):
        out.append(order.target.region)
    if isinstance(order, Move | SupportMove | Convoy | Retreat):
        out.append(order.dest)
    return out


def check_orders(gmap: ClassicMap, st: ClassicState, power: str, text: str) -> ClassicAck:
    """Check ``power``'s orders ``text`` against the phase ``st`` is at."""
    ack = ClassicAck(power, st.phase.name, st.phase.step)
    read: list[AckLine] = []
    for n, raw in enumerate(text.splitlines()[:1000], start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        if _HEADER.match(line):
            read.append(AckLine(n, line, noted=True))
            continue
        read.append(read_line(gmap, st, power, n, line))
    step = st.phase.step
    if step is Step.MOVEMENT:
        ack.lines, ack.unordered = _movement(gmap, st, power, read)
    elif step is Step.RETREATS:
        ack.lines, ack.unordered = _retreats(gmap, st, power, read)
    else:
        ack.lines = _adjustments(gmap, st, power, read)
        ack.owed = adjustment_counts(gmap, st.units, st.owners)[power]
        taken = {u.province for u in st.units}
        ack.homes = [c for c in gmap.home_centres(power) if st.owners.get(c) == power and c not in taken]
    return ack


def _movement(gmap: ClassicMap, st: ClassicState, power: str, read: list[AckLine]) -> tuple[list[AckLine], list[str]]:
    board = Board(gmap, st.units)
    out: list[AckLine] = []
    legal: dict[int, list[int]] = {}  # unit index -> positions in ``out`` of its legal orders
    for line in read:
        if line.order is None or not line.ok:
            out.append(line)
            continue
        _, ignored = assign(board, {power: [line.order]})
        if ignored:
            out.append(_with(line, ignored[0][2]))
            continue
        ref = unit_of(line.order)
        assert ref is not None
        i = board.at[ref.province]
        why = problem(board, i, line.order)
        if why is None:
            legal.setdefault(i, []).append(len(out))
        out.append(_with(line, why))
    # Several different legal orders for one unit: none is carried out, the unit holds
    # (DATC 4.D.3), so every one of them is rejected.
    for i, places in legal.items():
        if len({out[k].order for k in places}) > 1:  # the same order twice counts once, as in the adjudication
            numbers = ", ".join(str(out[k].number) for k in places)
            for k in places:
                info: dict[str, object] = {"unit": board.plans[i].unit.label(), "lines": numbers}
                out[k] = AckLine(out[k].number, out[k].text, out[k].order, detail=("several", info), notes=out[k].notes)
    ordered = {i for i, places in legal.items() if len({out[k].order for k in places}) == 1}
    unordered = [p.unit.label() for i, p in enumerate(board.plans) if p.unit.power == power and i not in ordered]
    return out, unordered


def _retreats(gmap: ClassicMap, st: ClassicState, power: str, read: list[AckLine]) -> tuple[list[AckLine], list[str]]:
    by_prov = {d.unit.province: d for d in st.dislodged}
    occupied = {u.province for u in st.units}
    standoff = set(st.contested)
    out: list[AckLine] = []
    done: dict[str, int] = {}
    for line in read:
        order = line.order
        if order is None or not line.ok:
            out.append(line)
            continue
        if not isinstance(order, Retreat | Move | Disband):
            out.append(_with(line, Problem("not_retreat", order=order.text())))
            continue
        d = by_prov.get(order.unit.province)
        if d is None or d.power != power:
            out.append(_with(line, Problem("no_dislodged", prov=order.unit.province)))
            continue
        if d.unit.province in done:
            info = {"unit": d.label(), "first": done[d.unit.province]}
            out.append(AckLine(line.number, line.text, order, detail=("twice", info), notes=line.notes))
            continue
        why: Problem | None = None
        if isinstance(order, Move) and order.via_convoy:
            why = Problem("retreat_by_convoy")
        elif not isinstance(order, Disband):
            why, _ = retreat_problem(gmap, d, order.dest, occupied, standoff)
        if why is None:
            done[d.unit.province] = line.number
        out.append(_with(line, why))
    unordered = [d.label() for d in st.dislodged if d.power == power and d.unit.province not in done]
    return out, unordered


def _adjustments(gmap: ClassicMap, st: ClassicState, power: str, read: list[AckLine]) -> list[AckLine]:
    orders = [line.order for line in read if line.order is not None and line.ok]
    outcome = adjudicate_adjustments(gmap, st.units, st.owners, {power: orders})
    verdicts = iter(outcome.problems)
    out = []
    for line in read:
        if line.order is None or not line.ok:
            out.append(line)
        else:
            out.append(_with(line, next(verdicts)))
    return out


def _with(line: AckLine, why: Problem | None) -> AckLine:
    return AckLine(line.number, line.text, line.order, problem=why, notes=line.notes)


# -- text ----------------------------------------------------------------------------


def _place(gmap: ClassicMap, region: str, language: str) -> str:
    prov = province_of(region)
    if prov not in gmap.provinces:
        return region
    coast = f" ({region.split('/', 1)[1].upper()})" if "/" in region else ""
    return word("place", language, code=region, name=gmap.province_name(prov, language), coast=coast)


def describe(order: Order, gmap: ClassicMap, language: str) -> str:
    """An order in words, with the provinces' full names."""
    if isinstance(order, Waive):
        return word("waive", language)
    ref = unit_of(order)
    assert ref is not None
    unit = word("army" if ref.kind.value == "A" else "fleet", language, place=_place(gmap, ref.region, language))
    if isinstance(order, Build):
        kind = "an_army" if ref.kind.value == "A" else "a_fleet"
        return word("build", language, unit=word(kind, language, place=_place(gmap, ref.region, language)))
    if isinstance(order, Hold):
        return word("holds", language, unit=unit)
    if isinstance(order, Disband):
        return word("disbanded", language, unit=unit)
    if isinstance(order, Move):
        text = word("moves_to", language, unit=unit, dest=_place(gmap, order.dest, language))
        return text + (word("by_convoy", language) if order.via_convoy else "")
    if isinstance(order, Retreat):
        return word("retreats_to", language, unit=unit, dest=_place(gmap, order.dest, language))
    t = order.target
    key = "unit_in" if t.kind is None else "army" if t.kind.value == "A" else "fleet"
    target = word(key, language, place=_place(gmap, t.region, language))
    if isinstance(order, SupportHold):
        return word("supports_hold", language, unit=unit, target=target)
    if isinstance(order, SupportMove):
        return word("supports_move", language, unit=unit, target=target, dest=_place(gmap, order.dest, language))
    return word("convoys", language, unit=unit, target=target, dest=_place(gmap, order.dest, language))


def _header(text: str, gmap: ClassicMap, language: str) -> str:
    """A header line in the reader's language (``puissance : France (FRA)``,
    ``tour : printemps 1901``); as written when it names no power or phase."""
    m = _HEADER.match(text)
    if m is None:
        return text
    what, value = m.group(1).casefold(), m.group(2).strip()
    if what in ("power", "puissance", "gang"):
        code = gmap.power_by_name(value)
        return text if code is None else word("power_header", language, name=gmap.power_name(code, language), code=code)
    try:
        return word("turn_header", language, phase=Phase.parse(value).label(language))
    except ValueError:
        return text


def _named(values: dict[str, object], gmap: ClassicMap, language: str) -> dict[str, object]:
    """A note's values, its province (``what``) with its name in the reader's language."""
    out = dict(values)
    if isinstance(prov := out.get("province"), str):
        out["what"] = f"{prov} ({gmap.province_name(prov, language)})"
    return out


def render(ack: ClassicAck, gmap: ClassicMap, *, language: str = "en", source: str = "") -> str:
    """The acknowledgement as the player reads it."""
    lang = language if language in languages() else "en"
    step = {Step.MOVEMENT: "movement", Step.RETREATS: "retreats", Step.ADJUSTMENTS: "adjustments"}[ack.step]
    name = gmap.power_name(ack.power, lang)
    phase = f"{Phase.parse(ack.phase).label(lang)} ({word(step, lang)})"
    out = [word("title", lang, board=gmap.info.title, power=f"{name} ({ack.power})", phase=phase)]
    if source:
        out.append(word("file", lang, file=source))
    out += ["", word("understood", lang)]
    label = word("line", lang)
    for line in ack.lines:
        shown = notation(line.order, lang) if line.order is not None and not line.noted else repr(line.text)
        if line.noted:
            out.append(f"  {label} {line.number:>3}  {_header(line.text, gmap, lang):<30} {word('noted', lang)}")
            continue
        verdict = word("ok" if line.ok else "rejected", lang)
        out.append(f"  {label} {line.number:>3}  {shown:<30} {verdict}")
        if line.order is not None:
            out.append(f"           {describe(line.order, gmap, lang)}")
        for key, values in line.notes:
            out.append(f"           {word(key, lang, **_named(values, gmap, lang))}")
        if line.problem is not None:
            out.append(f"           {line.problem.text(lang)}")
        if line.detail is not None:
            out.append(f"           {word(line.detail[0], lang, **line.detail[1])}")
        if line.suggestion is not None:
            values = dict(line.suggestion[1])
            if isinstance(prov := values.get("province"), str):
                values["what"] = f"{prov} ({gmap.province_name(prov, lang)})"
            out.append(f"           {word(line.suggestion[0], lang, **values)}")
    out += ["", word("units", lang)]
    if ack.step is Step.ADJUSTMENTS:
        if ack.owed > 0:
            homes = ", ".join(f"{c} ({gmap.province_name(c, lang)})" for c in ack.homes) or "-"
            out.append(f"  {word('builds', lang, power=name, n=ack.owed, homes=homes)}")
        elif ack.owed < 0:
            out.append(f"  {word('disbands', lang, power=name, n=-ack.owed)}")
        else:
            out.append(f"  {word('no_adjustment', lang, power=name)}")
    elif ack.unordered:
        key = "hold" if ack.step is Step.MOVEMENT else "disband"
        out.append(f"  {word(key, lang, units=', '.join(ack.unordered))}")
    else:
        out.append(f"  {word('all_ordered', lang)}")
    counted = [line for line in ack.lines if not line.noted]
    good = sum(1 for line in counted if line.ok)
    out += ["", word("summary", lang)]
    lines, ok, bad = (
        word(k, lang, n=n)
        for k, n in (("lines_n", len(counted)), ("accepted_n", good), ("rejected_n", len(counted) - good))
    )
    out.append(f"  {word('counts', lang, lines=lines, ok=ok, bad=bad)}")
    out += textwrap.wrap(word("advice", lang), width=78, initial_indent="  ", subsequent_indent="  ")
    return "\n".join(out) + "\n"


# -- a submission by mail -----------------------------------------------------------------

# The value: its first to last non-blank character, taken run by run; possessive runs
# (*+, ++) are never given back, so a line costs one pass ("(.*?)\s*$" cost one per character).
_VALUE = r"((?:\S++|\s++(?=\S))*+)"
_PASSWORD = re.compile(rf"^\s*+(?:password|passwd|pass|mot de passe|mdp)\s*+:\s*+{_VALUE}\s*+$", re.IGNORECASE)
_POWER = re.compile(rf"^\s*+(?:power|puissance|gang)\s*+:\s*+{_VALUE}\s*+$", re.IGNORECASE)
_TURN = re.compile(rf"^\s*+(?:turn|tour|phase)\s*+:\s*+{_VALUE}\s*+$", re.IGNORECASE)


class Submission(msgspec.Struct, frozen=True):
    """What a mailed orders text says: its headers, its password (never echoed)
    and the acknowledgement of its orders."""

    power: str | None  # the power its ``power:`` line names (or the one given), a code
    named: str | None  # the ``power:`` line's text
    turn: str | None  # its ``turn:`` (``phase:``) line, a phase name
    password: str | None
    password_lines: tuple[int, ...]
    ack: ClassicAck | None  # None when no power is known


def read_submission(gmap: ClassicMap, st: ClassicState, text: str, power: str | None) -> Submission:
    """Read a mailed text as ``power``'s orders (or the power its ``power:`` line
    names). Password lines are blanked before anything reads the orders."""
    lines = text.splitlines()
    password: str | None = None
    password_lines: list[int] = []
    named: str | None = None
    turn: str | None = None
    for i, raw in enumerate(lines):
        line = raw.split("#", 1)[0] if not _PASSWORD.match(raw) else raw
        if (m := _PASSWORD.match(line)) is not None:
            password = password if password is not None else m.group(1)
            password_lines.append(i + 1)
            lines[i] = ""
        elif named is None and (m := _POWER.match(line)) is not None:
            named = m.group(1)
        elif turn is None and (m := _TURN.match(line)) is not None:
            turn = m.group(1).lower()
    code = power
    if code is None and named is not None:
        code = gmap.power_by_name(named)
    ack = check_orders(gmap, st, code, "\n".join(lines)) if code is not None else None
    return Submission(code, named, turn, password, tuple(password_lines), ack)


def chatter_test(gmap: ClassicMap) -> ChatterTest:
    """The mail intake's test for lines that are plainly not orders (a greeting, a
    sign-off), with the board's words: its provinces' codes and names."""
    from moonshine.text.chatter import ChatterTest
    from moonshine.text.folding import fold

    places: set[tuple[str, ...]] = set()
    for code, prov in gmap.provinces.items():
        places.add((fold(code),))
        places.add(tuple(fold(w) for w in re.findall(r"[^\W\d_]+", prov.name)))
    order_words = frozenset(_ORDER_WORDS | {"power", "puissance", "password", "phase", "turn", "nc", "sc", "ec", "wc"})
    return ChatterTest(order_words, frozenset(places), max(len(p) for p in places))
