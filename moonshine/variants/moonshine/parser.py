"""The order language as players type it: one order per line, in English or French,
with district codes, full names or the map's aliases, typographic dashes, email
quoting and comments. ``parse_line`` turns one line into the order objects of
``moonshine.variants.moonshine.orders`` (or a header line's value); ``orders.parse_canonical`` reads
only the canonical form, this module reads what people write.

Errors are a small family of ``ValueError`` subclasses that quote the text and say
what is wrong, in English and in French (``ParseError.describe(language)``), with a
suggestion where one helps ("no district 'HYDE'; did you mean HYD (Hyde Park)?").
"""

from __future__ import annotations

import contextlib
import functools
import re
import unicodedata
from collections.abc import Iterable, Mapping
from typing import Protocol, TypeAlias

import msgspec

from moonshine.text.catalogue import Choices, Message, fmt, say
from moonshine.text.money import Money, ratio
from moonshine.variants.moonshine.calendar import Turn
from moonshine.variants.moonshine.map import GameMap, UnitKind
from moonshine.variants.moonshine.orders import (
    Assault,
    Bribe,
    Disband,
    Hold,
    Move,
    Order,
    Recruit,
    Retreat,
    Sell,
    Store,
    SupportAssault,
    SupportHold,
    SupportMove,
    Transport,
    UnitRef,
)

MAX_LINE = 500  # characters; an order is a few words


# -- sentences for players, in two languages ---------------------------------------


def join(items: Iterable[str]) -> str:
    return ", ".join(items)


def printable(text: str, limit: int = 80) -> str:
    """Player text made safe to print: control characters and lone surrogates escaped,
    long text cut with an ellipsis."""
    out: list[str] = []
    size = 0
    for ch in text:
        piece = ch if ch.isprintable() else ascii(ch)[1:-1]
        out.append(piece)
        size += len(piece)
        if size > limit:
            break
    shown = "".join(out)
    return shown if size <= limit else shown[: limit - 1] + "…"


def quote(text: str, limit: int = 60) -> str:
    return "'" + printable(text, limit) + "'"


# -- errors ---------------------------------------------------------------------------


class ParseError(ValueError):
    """A line that is not an order. ``reason`` says why, ``suggestion`` how to fix it."""

    def __init__(self, text: str, reason: Message, suggestion: Message | None = None) -> None:
        self.text = text
        self.reason = reason
        self.suggestion = suggestion
        super().__init__(f"{quote(text)}: {self.describe()}")

    def describe(self, language: str = "en") -> str:
        out = self.reason.text(language)
        if self.suggestion is not None:
            out += fmt(language, "format.semicolon") + self.suggestion.text(language)
        return out


class OrderSyntaxError(ParseError):
    """The words are not in an order's shape."""


class UnknownDistrictError(ParseError):
    """A district the map does not know (or a name shared by several districts)."""


class UnknownGangError(ParseError):
    """A ``gang:`` header naming no gang of the map."""


class AmountError(ParseError):
    """An amount of money or crates that is not a number the game uses."""


# -- header lines -------------------------------------------------------------------


class GangHeader(msgspec.Struct, frozen=True):
    """``gang: Valley Gang`` (``bande:`` in French): whose orders these are."""

    gang: str  # the gang's key

    def text(self) -> str:
        return f"gang: {self.gang}"


class PasswordHeader(msgspec.Struct, frozen=True):
    """``password: ...`` (``mot de passe:``): checked by the email intake, never echoed."""

    password: str

    def text(self) -> str:
        return f"password: {self.password}"


class TurnHeader(msgspec.Struct, frozen=True):
    """``turn: spring-1924`` (``tour:``): the turn the player means these orders for."""

    turn: str

    def text(self) -> str:
        return f"turn: {self.turn}"


Header: TypeAlias = GangHeader | PasswordHeader | TurnHeader
Parsed: TypeAlias = Order | Header

_HEADER = re.compile(
    r"^(?P<key>gang|bande|gang name|nom du gang|password|passwd|pass|mot de passe|mdp|turn|tour)\s*:\s*(?P<value>.*)$",
    re.IGNORECASE | re.DOTALL,
)


def _header(body: str, gmap: GameMap) -> Header | None:
    m = _HEADER.match(body)
    if m is None:
        return None
    key = m.group("key").lower()
    value = m.group("value").strip()
    if key in ("password", "passwd", "pass", "mot de passe", "mdp"):
        if not value:
            raise OrderSyntaxError(body, say("the password line is empty"))
        return PasswordHeader(value)
    value = value.split("#", 1)[0].strip()
    if key in ("turn", "tour"):
        try:
            return TurnHeader(Turn.parse(value).name)
        except ValueError:
            raise OrderSyntaxError(
                body,
                say("not a turn: {q}", q=quote(value)),
                say("write it like spring-1924 or autumn-1925"),
            ) from None
    if not value:
        raise UnknownGangError(
            body,
            say("the gang line names no gang"),
            say("gangs: {g}", g=join(gmap.gangs)),
        )
    gang = gmap.gang_by_name(value)
    if gang is None:
        raise UnknownGangError(body, say("no gang {q}", q=quote(value)), _gang_hint(value, gmap))
    return GangHeader(gang.key)


def _gang_hint(value: str, gmap: GameMap) -> Message:
    choices = {g.key: g.key for g in gmap.gangs.values()} | {g.name.lower(): g.key for g in gmap.gangs.values()}
    import difflib

    close = difflib.get_close_matches(value.lower()[:60], list(choices), n=1, cutoff=0.6)
    if close:
        g = gmap.gangs[choices[close[0]]]
        return say("did you mean {name} ({key})?", name=g.name, key=g.key)
    return say("gangs: {g}", g=join(gmap.gangs))


def resolve_gang(value: str, gmap: GameMap) -> str:
    """A gang's key from its key or name (``valley``, ``Valley Gang``); raises
    UnknownGangError with a suggestion."""
    gang = gmap.gang_by_name(value)
    if gang is None:
        raise UnknownGangError(value, say("no gang {q}", q=quote(value)), _gang_hint(value, gmap))
    return gang.key


# -- cleaning a line ----------------------------------------------------------------

_QUOTING = re.compile(r"^(?:[ \t]*>)+[ \t]?")
_BULLET = re.compile(r"^(?:[-*•·+]|\(?\d{1,3}[.)])\s+")
_INVISIBLE = dict.fromkeys(map(ord, "\ufeff\u200b\u200c\u200d\u2060"), None) | {0xA0: " ", 0x202F: " "}


def unquote(line: str) -> str:
    """The line without email quoting (``> `` prefixes), byte-order mark, zero-width
    characters and surrounding whitespace."""
    return _QUOTING.sub("", line.translate(_INVISIBLE)).strip()


def is_signature(line: str) -> bool:
    """The email signature delimiter ``-- `` (not quoted): what follows is not orders."""
    return line.rstrip("\r\n") in ("-- ", "--")


_RULE = re.compile(r"^[-_=*~.]+$")  # "-----", "=====": a drawn line


# -- words ------------------------------------------------------------------------------

_DASHES = dict.fromkeys(map(ord, "‐‑‒–—―−﹘﹣－"), "-")
_TOKEN = re.compile(
    r"""
     (?P<arrow>-+>|=+>|[→⟶➔➜⇒>])
    |(?P<dash>-+)
    |(?P<num>[0-9]+(?:[.,][0-9]+)?|[.,][0-9]+)
    |(?P<word>[^\W\d_]+(?:['’][^\W\d_]+)*)
    |(?P<sym>[/,:$×])
    |(?P<space>(?:[\s();!?"«»“”'’`]|\.(?![0-9]))+)
    |(?P<other>.)
    """,
    re.VERBOSE | re.DOTALL,
)


def fold(text: str) -> str:
    """Lower case without accents: the form keywords and names are compared in."""
    decomposed = unicodedata.normalize("NFKD", text.replace("’", "'"))
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch)).casefold()


class _Tok(msgspec.Struct, frozen=True):
    kind: str  # word, num, sym, other
    text: str  # as typed
    key: str  # folded word, or the symbol's canonical form
    start: int  # offset in the line


def _tokens(line: str) -> list[_Tok]:
    out: list[_Tok] = []
    for m in _TOKEN.finditer(line):
        group = m.lastgroup
        text = m.group()
        if group == "space":
            continue
        if group == "arrow":
            out.append(_Tok("sym", text, "->", m.start()))
        elif group == "dash":
            out.append(_Tok("sym", text, "-", m.start()))
        elif group == "sym":
            out.append(_Tok("sym", text, "x" if text == "×" else text, m.start()))
        elif group == "word":
            out.append(_Tok("word", text, fold(text), m.start()))
        elif group == "num":
            out.append(_Tok("num", text, text, m.start()))
        else:
            out.append(_Tok("other", text, text, m.start()))
    return out


def _words(text: str) -> tuple[str, ...]:
    return tuple(t.key for t in _tokens(unicodedata.normalize("NFKC", text).translate(_DASHES)) if t.kind == "word")


Phrases: TypeAlias = Mapping[tuple[str, ...], str]


def _table(**groups: str) -> dict[tuple[str, ...], str]:
    """Phrases by meaning: ``_table(move="- | to | moves to")``."""
    out: dict[tuple[str, ...], str] = {}
    for meaning, phrases in groups.items():
        for p in phrases.split("|"):
            out[tuple(p.split())] = meaning
    return out


KINDS = _table(
    H="h | henchman | henchmen | hdm | homme de main | hommes de main | homme",
    L="l | delivery man | delivery men | deliveryman | livreur | livreurs",
)
VERBS = _table(
    recruit="recruit | recruits | recruter | recrute | recrutement | build",
    disband="disband | disbands | licencier | licencie | licenciement | dismiss",
    sell="sell | sells | vendre | vend | vends | vente",
    store="store | stores | stocker | stocke | stockage | entreposer",
    bribe="bribe | bribes | corrompre | corrompt | corromps | corruption",
    retreat="retreat | retreats | retraite | retraiter | se retire",
    hold="hold | holds | tenir | tient",
)
# "attack" is a move, as the rules use the word (R6, R12): an assault is "x" or "assault".
MOVE = _table(
    move="- | to | moves | move | moves to | move to | goes to | go to | to move to | to move | to go to "
    "| attack | attacks | attaque | attaquer | attaque en | attaque a | va | va a | va en | va vers | vers "
    "| avance | avance vers | avance a | avance en | avancer | se deplace vers | se deplace a | se deplace en "
    "| aille a | aille en | aille vers"
)
HOLD = _table(
    hold="hold | holds | stand | stands | stay | stays | h | tenir | tient | tiens | reste | hold position "
    "| holds position | tenir position | tient position | tient sa position | stay put | stays put | stands still"
)
SUPPORT = _table(support="/ | s | support | supports | soutient | soutien | soutiens | soutenir | supporte")
TRANSPORT = _table(
    transport="-> | transport | transports | transporte | transporter | carries | carry | convoy | convoys | c "
    "| convoie"
)
ASSAULT = _table(assault="x | assault | assaults | assaut | assaille | assaillir | assaillit")
VIA = _table(via="via | par | through")
SEPARATOR = _table(sep=", | and | et | or | ou | then | puis")
FILLER = _table(fill="in | at | en | a | dans | au | du | the")
_FILLERS = {p[0] for p in FILLER}
STATION_BEFORE = _table(
    st="station | station in | the station in | the station of | the station at | poste | poste de | le poste de "
    "| poste du | le poste du | poste de police de | le poste de police de"
)
STATION_AFTER = _table(st="station | police station | poste | poste de police")
AMOUNT_BEFORE = _table(a="$ | with | for | of | de | pour | avec")
AMOUNT_AFTER = _table(a="$ | dollar | dollars | usd")
CENTS = _table(c="cents | cent | centimes")
CRATES = _table(c="crate | crates | caisse | caisses | cases")
SELL_ALL = _table(a="all | everything | max | maximum | tout | tous | toutes")
UNIT_OPS: dict[tuple[str, ...], str] = {**MOVE, **HOLD, **SUPPORT, **TRANSPORT, **ASSAULT}
ARROW = _table(arrow="->")
_TO = _table(to="to | a | en | vers")
_STATION_WORDS = frozenset({"station", "poste", "commissariat"})
ATTACK = frozenset({("attack",), ("attacks",), ("attaque",), ("attaquer",), ("attaque", "en"), ("attaque", "a")})

# Plain words a player writes around an order, which order nothing: read past (and
# named in the acknowledgement) where an order's words begin or end. A word that
# changes an order's meaning ("not", "if", "or", "unless", "ne", "pas", "si") is none
# of them, nor one that may speak of another gang's unit ("their", "his", "son"): a
# line with one is refused.
PLAIN = frozenset(
    p[0]
    for p in _table(
        plain="please | pls | plz | kindly | the | i | i'd | we | want | wants | would | like | my | our | thanks "
        "| thank | you | thx | now | also | just | order | orders | should | shall | will | must "
        "| svp | stp | s'il | vous | plait | merci | je | j'aimerais | voudrais | voudrait | veux | veut | souhaite "
        "| que | qu'il | mon | ma | mes | notre | nos | le | la | les | doit | devrait"
    )
)
# A move verb written before the unit ("Move H LOO to NSS"): read only when the order is a move.
LEAD_MOVE = _table(move="move | moving | deplacer | deplace | deplacez | bouger | bouge")

# Words that end a district's name: a run of unknown words stops at them.
_STOP = {p[0] for t in (KINDS, UNIT_OPS, VIA, SEPARATOR, STATION_AFTER, AMOUNT_AFTER, CRATES) for p in t}


# -- spelling -----------------------------------------------------------------------------


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


# -- district names -------------------------------------------------------------------


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
        typed = " ".join(_words(text))
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
            words = _words(form)
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


# -- the parser -------------------------------------------------------------------------

_ORDER_WORDS = sorted({p[0] for t in (VERBS, KINDS) for p in t if len(p[0]) > 2 and p[0].isalpha()})


_A_DISTRICT = say("a district")
_HOW_ORDERS_START = say(
    "an order starts with a unit (H LOO ...) or with recruit, disband, sell, store, bribe or retreat"
)
_THOUSANDS = re.compile(r"[0-9]{1,3}[.,][0-9]{3}")


class Position(Protocol):
    """What the reader may ask of the position, to read a line only one way: the
    gang's units and whether an order can be carried out (``moonshine.variants.moonshine.checker``
    answers with the rules the adjudicator applies)."""

    def usable(self, order: Order) -> bool:
        """Whether ``order`` is one the gang can give (its unit, within its reach)."""
        ...

    def units_in(self, district: str, *, own: bool) -> tuple[UnitRef, ...]:
        """The units in ``district``: the gang's own, or anyone's."""
        ...

    def steps(self, start: str, district: str) -> int:
        """How many steps from ``start`` to ``district``."""
        ...


class _Slot(msgspec.Struct, frozen=True):
    """A misspelt district: what was typed, the districts it may stand for (nearest
    spelling first), and the unit whose order it is part of (None when it is that
    unit's own district)."""

    typed: str
    codes: tuple[str, ...]
    role: str  # "dest" (where a unit goes), "unit" (a unit's own district), "other"
    unit: UnitRef | None


class Reading(msgspec.Struct, frozen=True):
    """A line as read: the order or header (None for a blank or comment line), and
    what the acknowledgement says about how it was read."""

    parsed: Parsed | None
    notes: tuple[Message, ...] = ()


class _Parser:
    def __init__(self, line: str, names: Names, position: Position | None = None, plan: tuple[int, ...] = ()) -> None:
        self.line = line
        self.toks = _tokens(line)
        self.keys = [t.key for t in self.toks]
        self.names = names
        self.pos = 0
        self.position = position
        self.plan = plan
        self.slots: list[_Slot] = []
        self.notes: list[Message] = []
        self.ignored: list[str] = []
        self.last: tuple[str, ...] = ()
        self.ordering: UnitRef | None = None  # the unit whose order is being read

    # -- looking at tokens ------------------------------------------------------------
    def peek(self, k: int = 0) -> _Tok | None:
        i = self.pos + k
        return self.toks[i] if i < len(self.toks) else None

    def at_end(self) -> bool:
        return self.pos >= len(self.toks)

    def done_so_far(self) -> str:
        tok = self.peek()
        return self.line[: tok.start].strip() if tok is not None else self.line.strip()

    def match(self, phrases: Phrases) -> str | None:
        for n in range(min(4, len(self.toks) - self.pos), 0, -1):
            words = tuple(self.keys[self.pos : self.pos + n])
            meaning = phrases.get(words)
            if meaning is not None:
                self.pos += n
                self.last = words
                return meaning
        return None

    def match_typo(self, phrases: Phrases) -> str | None:
        """A keyword of ``phrases`` misspelt (``suports``, ``soutein``): read when every
        keyword that close means the same, and said in the acknowledgement; a word
        that names a district is no misspelling."""
        tok = self.peek()
        if tok is None or tok.kind != "word" or self.names.at(self.keys, self.pos)[1] or tok.key in PLAIN:
            return None
        if len(tok.key) < 3:
            return None
        close = [
            (spelling_distance(tok.key, p[0]), p[0], meaning)
            for p, meaning in phrases.items()
            if len(p) == 1 and len(p[0]) >= 4 and p[0] != tok.key and p[0][0] == tok.key[0]
        ]
        near = sorted(c for c in close if c[0] <= 1)  # one letter: a word two letters off may be a name
        if not near or len({c[2] for c in near}) > 1:
            return None
        self.pos += 1
        self.last = (near[0][1],)
        self.notes.append(say("read {q} as {w}", q=quote(tok.text), w=quote(near[0][1])))
        if near[0][2] == "move":
            self.match(_TO)  # "mvoes to NSS"
        return near[0][2]

    def names_a_station(self) -> bool:
        """Whether the words after an attack name a police station (``the station in
        LOO``, ``Harrison Street station``): an assault, which "attack" does not write."""
        return self.match(STATION_BEFORE) is not None or any(k in _STATION_WORDS for k in self.keys[self.pos :])

    def skip_plain(self) -> None:
        """Read past plain words (``please``, ``I want``, ``my``) that order nothing,
        and a comma after them or before them at the end. A plain word that is also
        a district's code (``mon``, MON) is the code when written in capitals."""
        after_plain = False
        while True:
            tok = self.peek()
            if (
                tok is not None
                and tok.key == ","
                and (after_plain or self.pos + 1 >= len(self.toks) or self.keys[self.pos + 1] in PLAIN)
            ):
                self.pos += 1
                after_plain = False
                continue
            if tok is None or tok.kind != "word" or tok.key not in PLAIN:
                return
            code, n = self.names.at(self.keys, self.pos)
            if n > 1 or (n == 1 and (code is None or tok.text.isupper())):
                return
            self.ignored.append(tok.text)
            self.pos += 1
            after_plain = True

    def choose(self, slot: _Slot) -> str:
        """One of a misspelt district's readings: the one this run of the parser
        tries (``read`` runs it once per reading)."""
        i = len(self.slots)
        self.slots.append(slot)
        return slot.codes[self.plan[i] if i < len(self.plan) else 0]

    def fail(self, reason: Message, suggestion: Message | None = None) -> OrderSyntaxError:
        return OrderSyntaxError(self.line, reason, suggestion)

    def expected(self, what: Message) -> OrderSyntaxError:
        tok = self.peek()
        after = self.done_so_far()
        if tok is None:
            return self.fail(say("expected {what} after {after}", what=what, after=quote(after)))
        if not after:
            return self.fail(say("expected {what}, found {found}", what=what, found=quote(tok.text)))
        return self.fail(
            say("expected {what} after {after}, found {found}", what=what, after=quote(after), found=quote(tok.text))
        )

    def end(self) -> None:
        tok = self.peek()
        if tok is None:
            return
        rest = self.line[tok.start :].strip()
        raise self.fail(
            say("unexpected {rest} after {done} (one order per line)", rest=quote(rest), done=quote(self.done_so_far()))
        )

    # -- pieces ------------------------------------------------------------------------
    def district(self, what: Message = _A_DISTRICT, role: str = "other") -> str:
        tok = self.peek()
        if tok is None or tok.kind != "word":
            raise self.expected(what)
        code, n = self.names.at(self.keys, self.pos)
        skip = 0
        while n == 0 and self.pos + skip < len(self.keys) and self.keys[self.pos + skip] in _FILLERS:
            skip += 1
            code, n = self.names.at(self.keys, self.pos + skip)
        if n:
            self.pos += skip
            tok = self.toks[self.pos]
        if n and code is not None:
            self.pos += n
            return code
        if n:  # a name several districts share
            words = tuple(self.keys[self.pos : self.pos + n])
            shared = self.names.sharing.get(words, ())
            typed = self.line[tok.start : self.toks[self.pos + n - 1].start + len(self.toks[self.pos + n - 1].text)]
            choices = [self.names.labels[c] for c in shared]
            raise UnknownDistrictError(
                self.line,
                say(
                    "{q} could be {choices}",
                    q=quote(typed),
                    choices=say("{a} or {b}", a=", ".join(choices[:-1]), b=choices[-1]),
                ),
                say("write the district's code"),
            )
        run = [tok]
        for nxt in self.toks[self.pos + 1 : self.pos + 5]:
            if nxt.kind != "word" or nxt.key in _STOP:
                break
            run.append(nxt)
        if self.position is not None:  # a misspelling, read if only one of its readings is an order
            for k in range(len(run), 0, -1):
                typed = self.line[run[0].start : run[k - 1].start + len(run[k - 1].text)]
                codes = self.names.close(typed)
                if codes:
                    self.pos += k
                    return self.choose(_Slot(typed, codes, role, self.ordering if role != "unit" else None))
        typed = self.line[run[0].start : run[-1].start + len(run[-1].text)]
        raise UnknownDistrictError(self.line, say("no district {q}", q=quote(typed)), self.names.suggest(typed))

    def district_list(self, role: str = "other") -> tuple[str, ...]:
        out = [self.district(role=role)]
        while not self.at_end():
            if self.match(SEPARATOR):
                out.append(self.district(role=role))
                continue
            tok = self.peek()
            if tok is not None and tok.kind == "word" and tok.key not in _STOP and tok.key not in PLAIN:
                out.append(self.district(role=role))
                continue
            break
        return tuple(out)

    def kind(self) -> UnitKind | None:
        meaning = self.match(KINDS)
        return None if meaning is None else UnitKind(meaning)

    def peek_kind(self) -> UnitKind | None:
        start = self.pos
        kind = self.kind()
        self.pos = start
        return kind

    def unit(self, *, own: bool = False) -> UnitRef:
        """A unit: its type and district. Without its type, the one unit standing in
        the district (``own``: the gang's own) when the position is known."""
        kind = self.kind()
        if kind is not None:
            return UnitRef(kind, self.district(role="unit" if own else "other"))
        tok = self.peek()
        if self.position is None or tok is None or tok.kind != "word":
            raise self._missing_kind(say("a unit (H or L and its district)"))
        start = self.pos
        try:
            district = self.district(role="unit" if own else "other")
        except UnknownDistrictError:
            self.pos = start
            raise self._missing_kind(say("a unit (H or L and its district)")) from None
        typed = self.line[tok.start : self.toks[self.pos - 1].start + len(self.toks[self.pos - 1].text)]
        there = self.position.units_in(district, own=own)
        if len(there) > 1:
            raise self.fail(
                say(
                    "{q} names a district with two units: {a} and {b}",
                    q=quote(typed),
                    a=there[0].text(),
                    b=there[1].text(),
                ),
                say("write which: {a} or {b}", a=there[0].text(), b=there[1].text()),
            )
        if not there:
            self.pos = start
            raise self._missing_kind(say("a unit (H or L and its district)"))
        unit = there[0]
        if own:
            self.notes.append(say("read {q} as {u}: your only unit in {d}", q=quote(typed), u=unit.text(), d=district))
        else:
            self.notes.append(say("read {q} as {u}: the only unit in {d}", q=quote(typed), u=unit.text(), d=district))
        return unit

    def _missing_kind(self, what: Message) -> OrderSyntaxError:
        code, n = self.names.at(self.keys, self.pos)
        if n and code is not None:
            return self.fail(
                say("missing the unit type before {code}", code=code),
                say("write H {code} (henchman) or L {code} (delivery man)", code=code),
            )
        return self.expected(what)

    def station(self) -> str:
        self.match(STATION_BEFORE)
        code = self.district(say("a police station's district"))
        self.match(STATION_AFTER)
        return code

    def amount(self) -> Money:
        self.match(AMOUNT_BEFORE)
        tok = self.peek()
        negative = False
        if tok is not None and tok.key == "-":
            negative = True
            self.pos += 1
            tok = self.peek()
        if tok is None or tok.kind != "num":
            raise self.expected(say("an amount of dollars"))
        self.pos += 1
        in_cents = self.match(CENTS) is not None
        if not in_cents:
            self.match(AMOUNT_AFTER)
        self.unambiguous(tok)
        numerator, denominator = ratio(tok.text.replace(",", "."))
        cents, rest = divmod(numerator * (1 if in_cents else 100), denominator)
        if negative:
            raise AmountError(self.line, say("a bribe cannot be negative"))
        if rest != 0:
            raise AmountError(
                self.line,
                say("{q} is not an amount of money", q=quote(tok.text)),
                say("bribes move in steps of $0.50, e.g. 12.50"),
            )
        return cents

    def unambiguous(self, tok: _Tok) -> None:
        """A number read one way only: ``1,000`` and ``1.000`` are a thousand in one
        language and one in another, so they are refused."""
        if _THOUSANDS.fullmatch(tok.text):
            raise AmountError(
                self.line,
                say("{q} reads two ways: a thousand, or one with decimals", q=quote(tok.text)),
                say("write the number without a separator, e.g. 1000, or with two decimals, e.g. 1.00"),
            )

    # -- orders --------------------------------------------------------------------------
    def order(self) -> Order:
        self.skip_plain()
        lead = None
        if self.peek() is not None and self.names.at(self.keys, self.pos)[1] == 0:
            start = self.pos
            lead = self.match(LEAD_MOVE)
            if lead is not None and self.peek_kind() is None and self.position is None:
                self.pos, lead = start, None  # "move" before no unit: not a lead
            self.skip_plain()
        out = self.order_words()
        self.skip_plain()
        self.end()
        if lead is not None and not isinstance(out, Move):
            raise self.fail(
                say("{q} reads as {o}, not as a move", q=quote(self.line), o=quote(out.text())),
                say("write a move like H LOO - NSS"),
            )
        if self.ignored:
            self.notes.insert(0, say("left out, as no part of an order: {w}", w=join(quote(w) for w in self.ignored)))
        return out

    def order_words(self) -> Order:
        verb = self.match(VERBS)
        tok = self.peek()
        if verb is None and tok is not None and self.peek_kind() is None and not self.names.at(self.keys, self.pos)[1]:
            verb = self.match_typo(VERBS)
        if verb == "recruit":
            kind = self.kind()
            if kind is None:
                raise self._missing_kind(say("the unit type (H or L)"))
            out: Order = Recruit(kind, self.district())
        elif verb == "disband":
            out = Disband(self.unit(own=True))
        elif verb == "sell":
            out = self.sell()
        elif verb == "store":
            out = Store(self.district_list())
        elif verb == "bribe":
            out = self.bribe()
        elif verb == "retreat":
            unit = self.unit(own=True)
            self.ordering = unit
            self.match(MOVE)
            out = Retreat(unit, self.district_list(role="dest"))
        elif verb == "hold":
            out = Hold(self.unit(own=True))
        else:
            out = self.unit_order()
        return out

    def sell(self) -> Sell:
        if self.match(SELL_ALL):
            return Sell(None)
        negative = False
        tok = self.peek()
        if tok is not None and tok.key == "-":
            negative = True
            self.pos += 1
            tok = self.peek()
        if tok is None or tok.kind != "num":
            raise self.expected(say("a number of crates"))
        self.unambiguous(tok)
        if not tok.text.isdigit():
            raise AmountError(
                self.line,
                say(
                    "{q} is not a whole number of crates",
                    q=quote(tok.text),
                ),
            )
        self.pos += 1
        self.match(CRATES)
        return Sell(-int(tok.text) if negative else int(tok.text))

    def bribe(self) -> Bribe:
        tok = self.peek()
        if tok is not None and (tok.kind == "num" or tok.key == "$"):
            amount = self.amount()
            self.match(_table(f="to | a | au | for | pour"))
            return Bribe(self.station(), amount)
        station = self.station()
        return Bribe(station, self.amount())

    def unit_order(self) -> Order:
        first = self.peek()
        if self.peek_kind() is None:
            if first is not None and first.kind == "word":
                code, n = self.names.at(self.keys, self.pos)
                if n and code is not None and self.position is None:
                    raise self._missing_kind(say("a unit"))
                if self.position is None or (n == 0 and not self.names.close(first.text)):
                    raise self.fail(
                        say("not an order: no order starts with {q}", q=quote(first.text)), self._order_hint(first)
                    )
            else:
                raise self.fail(
                    say("not an order", q=quote(self.line)),
                    _HOW_ORDERS_START,
                )
        unit = self.unit(own=True)
        self.ordering = unit
        self.skip_plain()
        if self.at_end():
            return Hold(unit)
        op = self.match(UNIT_OPS) or self.match_typo(UNIT_OPS)
        if op == "hold":
            return Hold(unit)
        if op == "move":
            self.attack_is_a_move(unit)
            return self.move(unit)
        if op == "assault":
            return Assault(unit, self.station())
        if op == "support":
            return self.support(unit)
        if op == "transport":
            if self.peek_kind() is None and self.names.at(self.keys, self.pos)[1]:
                return self.move(unit)  # "H LOO -> NSS": an arrow for a move
            target = self.unit()
            if not (self.match(MOVE) or self.match(ARROW)):
                raise self.expected(say("'-' and the destination"))
            return Transport(unit, target, self.district())
        error = self.expected(
            say(
                "'-' (move), '/' (support), 'x' (assault), '->' (transport) or 'hold'",
            )
        )
        tok = self.peek()
        if tok is not None and tok.kind == "word" and len(tok.key) >= 4:  # a keyword misspelt twice over
            close = sorted(
                (spelling_distance(tok.key, p[0]), p[0])
                for p in UNIT_OPS
                if len(p) == 1 and len(p[0]) >= 4 and p[0][0] == tok.key[0]
            )
            if close and close[0][0] <= 2:
                raise self.fail(error.reason, say("did you mean {w}?", w=quote(close[0][1])))
        raise error

    def _order_hint(self, tok: _Tok) -> Message:
        key = tok.key
        if len(key) == 4 and key[0] in "hl" and (key[1:],) in self.names.by_words:
            fixed = f"{key[0].upper()} {key[1:].upper()}"
            return say("did you mean {f}?", f=quote(fixed))
        import difflib

        close = difflib.get_close_matches(key[:30], _ORDER_WORDS, n=1, cutoff=0.75)
        if close:
            return say("did you mean {w}?", w=quote(close[0]))
        return say(
            "an order starts with a unit (H LOO ...) or with recruit, disband, sell, store, bribe or retreat",
        )

    def move(self, unit: UnitRef) -> Move:
        steps = [self.district(role="dest")]
        while self.match(MOVE) or self.match(ARROW):  # "L LOO - NSS → KEN": any arrow for a path
            steps.append(self.district(role="dest"))
        via: tuple[str, ...] = ()
        if self.match(VIA):
            via = self.district_list()
        # An L's "via" is kept as written: the rules reject it with its reason (R10,
        # amended: only an H is carried; an L names its path, R8).
        return Move(unit, steps[-1], tuple(steps[:-1]), via)

    def attack_is_a_move(self, mover: UnitRef) -> None:
        """After the verb of a move just read: "attack" is a move (R12), said in a note;
        an "attack" on a police station is refused rather than read as either."""
        verb = self.last
        if verb not in ATTACK:
            return
        if self.names_a_station():
            raise self.fail(
                say(
                    "{w} means a move (R12): an assault on a police station is written 'x' (R11)",
                    w=quote(" ".join(verb)),
                ),
                say(
                    "write {a} for an assault, {m} for a move",
                    a=quote(f"{mover.text()} x ..."),
                    m=quote(f"{mover.text()} - ..."),
                ),
            )
        self.notes.append(_attack_note(verb))

    def support(self, unit: UnitRef) -> Order:
        target = self.unit()
        self.skip_plain()
        if self.at_end() or self.match(HOLD):
            return SupportHold(unit, target)
        if self.match(MOVE) or self.match(ARROW):  # any arrow for the supported move
            self.attack_is_a_move(target)
            dest = self.district()
            while self.match(MOVE) or self.match(ARROW):  # a delivery man's path: only the destination matters
                dest = self.district()
            return SupportMove(unit, target, dest)
        if self.match(ASSAULT):
            return SupportAssault(unit, target, self.station())
        raise self.expected(
            say(
                "'-' (a move), 'x' (an assault) or nothing (a hold)",
            )
        )


def _attack_note(verb: tuple[str, ...]) -> Message:
    return say("{w} is a move (R12): an assault is written 'x'", w=quote(" ".join(verb)))


def _strip_comment(body: str) -> str:
    return body.split("#", 1)[0]


def parse_line(text: str, gmap: GameMap) -> Parsed | None:
    """One line of an orders file: an order, a header (``gang:``, ``password:``,
    ``turn:``) or None for a blank or comment line. Raises a ParseError subclass."""
    return read_line(text, gmap).parsed


def read_line(text: str, gmap: GameMap, position: Position | None = None) -> Reading:
    """One line of an orders file read as a lenient referee would, never two ways:
    the order or header (None for a blank or comment line) and the notes that say
    how it was read (plain words left out, a misspelt keyword). Given the
    ``position``, a misspelt district is read when only one of the districts it may
    stand for makes an order the gang can give, and a unit written without its type
    is the one unit standing there. Raises a ParseError subclass."""
    body = unquote(text)
    if not body or body.startswith("#"):
        return Reading(None)
    if len(body) > MAX_LINE:
        raise OrderSyntaxError(
            body,
            say("line too long ({n} characters)", n=len(body)),
            say("write one order per line"),
        )
    header = _header(body, gmap)
    if header is not None:
        return Reading(header)
    body = _strip_comment(body).strip()
    if _RULE.match(body):  # a drawn line orders nothing
        return Reading(None)
    heading = body.endswith(":")  # a heading ("Orders:") orders nothing; "H LOO - NSS:" is an order
    body = _BULLET.sub("", body.rstrip(":") if heading else body).strip().rstrip(",").strip()
    if not body:
        return Reading(None)
    line = unicodedata.normalize("NFKC", body).translate(_DASHES)
    try:
        return _read(line, names_of(gmap), position)
    except ParseError:
        if heading:
            return Reading(None)
        raise


_MOST_READINGS = 64  # a line's misspelt districts are read in at most this many ways


def _read(line: str, names: Names, position: Position | None) -> Reading:
    first = _Parser(line, names, position)
    order: Order | None = None
    error: ParseError | None = None
    try:
        order = first.order()
    except ParseError as exc:
        if not first.slots:
            raise
        error = exc
    if not first.slots:
        return Reading(order, tuple(first.notes))
    assert position is not None  # a misspelling is read only with the position
    # Every reading of the misspelt districts, each a run of the parser.
    runs: list[tuple[_Parser, Order]] = [] if order is None else [(first, order)]
    plans = [(0,) * j + (alt,) for j in range(len(first.slots)) for alt in range(1, len(first.slots[j].codes))]
    tried = 1
    while plans and tried < _MOST_READINGS:
        plan = plans.pop(0)
        parser = _Parser(line, names, position, plan)
        tried += 1
        with contextlib.suppress(ParseError):
            runs.append((parser, parser.order()))
        plans += [
            plan + (0,) * (j - len(plan)) + (alt,)
            for j in range(len(plan), len(parser.slots))
            for alt in range(1, len(parser.slots[j].codes))
        ]
    usable: dict[Order, _Parser] = {}
    for parser, candidate in runs:
        if position.usable(candidate):
            usable.setdefault(candidate, parser)
    if len(usable) == 1:
        [(order, parser)] = usable.items()
        notes = [_slot_note(slot, parser.plan, i, names) for i, slot in enumerate(parser.slots)]
        return Reading(order, tuple(notes + parser.notes))
    slot = first.slots[0]
    if len(usable) > 1:  # the first misspelt district that the readings differ on
        plans_used = [p.plan + (0,) * (len(p.slots) - len(p.plan)) for p in usable.values()]
        at = next((i for i in range(len(first.slots)) if len({plan[i] for plan in plans_used if i < len(plan)}) > 1), 0)
        slot = first.slots[at]
        codes = [slot.codes[i] for i in sorted({plan[at] for plan in plans_used if at < len(plan)})]
        codes = _by_reach(codes, slot, position)
        if slot.unit is not None:  # the nearest: those no farther than the second
            start = slot.unit.district
            codes = [c for c in codes if position.steps(start, c) <= position.steps(start, codes[1])]
        raise UnknownDistrictError(
            line,
            say("{q} could be {choices}", q=quote(slot.typed), choices=Choices(tuple(names.labels[c] for c in codes))),
            say("write the district's code"),
        )
    if error is not None and not runs and not isinstance(error, UnknownDistrictError):
        raise error
    codes = _by_reach(list(slot.codes), slot, position)
    raise UnknownDistrictError(
        line,
        say("no district {q}", q=quote(slot.typed)),
        say("did you mean {choices}?", choices=Choices(tuple(names.labels[c] for c in codes[:3]))),
    )


def _by_reach(codes: list[str], slot: _Slot, position: Position) -> list[str]:
    """Districts nearest the unit whose order it is first, then by spelling."""
    if slot.unit is None:
        return codes
    start = slot.unit.district
    return sorted(codes, key=lambda c: (position.steps(start, c), codes.index(c)))


def _slot_note(slot: _Slot, plan: tuple[int, ...], i: int, names: Names) -> Message:
    code = slot.codes[plan[i] if i < len(plan) else 0]
    label = names.labels[code]
    if slot.role == "dest" and slot.unit is not None:
        return say(
            "read {q} as {d}: the only district of that spelling {u} can reach",
            q=quote(slot.typed),
            d=label,
            u=slot.unit.text(),
        )
    if slot.role == "unit":
        return say(
            "read {q} as {d}: the only district of that spelling where you have that unit", q=quote(slot.typed), d=label
        )
    return say("read {q} as {d}: the only district of that spelling this order can use", q=quote(slot.typed), d=label)


def parse_order(text: str, gmap: GameMap) -> Order:
    """One order (not a header, not blank); raises a ParseError subclass."""
    parsed = parse_line(text, gmap)
    if parsed is None or isinstance(parsed, GangHeader | PasswordHeader | TurnHeader):
        raise OrderSyntaxError(text, say("not an order: {q}", q=quote(text)))
    return parsed
