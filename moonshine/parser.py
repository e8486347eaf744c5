"""The order language as players type it: one order per line, in English or French,
with district codes, full names or the map's aliases, typographic dashes, email
quoting and comments. ``parse_line`` turns one line into the order objects of
``moonshine.orders`` (or a header line's value); ``orders.parse_canonical`` reads
only the canonical form, this module reads what people write.

Errors are a small family of ``ValueError`` subclasses that quote the text and say
what is wrong, in English and in French (``ParseError.describe(language)``), with a
suggestion where one helps ("no district 'HYDE'; did you mean HYD (Hyde Park)?").
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TypeAlias

from moonshine.geo import GameMap, UnitKind
from moonshine.money import Money, ratio
from moonshine.orders import (
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
from moonshine.text import Choices, Message, fmt, say
from moonshine.turns import Turn

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


@dataclass(frozen=True)
class GangHeader:
    """``gang: Valley Gang`` (``bande:`` in French): whose orders these are."""

    gang: str  # the gang's key

    def text(self) -> str:
        return f"gang: {self.gang}"


@dataclass(frozen=True)
class PasswordHeader:
    """``password: ...`` (``mot de passe:``): checked by the email intake, never echoed."""

    password: str

    def text(self) -> str:
        return f"password: {self.password}"


@dataclass(frozen=True)
class TurnHeader:
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
    |(?P<num>[0-9]+(?:[.,][0-9]+)?)
    |(?P<word>[^\W\d_]+(?:['’][^\W\d_]+)*)
    |(?P<sym>[/,:$×])
    |(?P<space>[\s().;!?"«»“”'’`]+)
    |(?P<other>.)
    """,
    re.VERBOSE | re.DOTALL,
)


def fold(text: str) -> str:
    """Lower case without accents: the form keywords and names are compared in."""
    decomposed = unicodedata.normalize("NFKD", text.replace("’", "'"))
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch)).casefold()


@dataclass(frozen=True)
class _Tok:
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
MOVE = _table(
    move="- | to | moves | move | moves to | move to | goes to | go to | va | va a | va en | va vers | vers "
    "| avance | avance vers | avance a | avance en | avancer | se deplace vers | se deplace a | se deplace en"
)
HOLD = _table(
    hold="hold | holds | stand | stands | stay | stays | h | tenir | tient | tiens | reste | hold position "
    "| holds position | tenir position | tient position | tient sa position"
)
SUPPORT = _table(support="/ | s | support | supports | soutient | soutien | soutiens | soutenir | supporte")
TRANSPORT = _table(
    transport="-> | transport | transports | transporte | transporter | carries | carry | convoy | convoys | c "
    "| convoie"
)
ASSAULT = _table(
    assault="x | assault | assaults | attack | attacks | attaque | attaquer | assaut | assaille | assaillir"
)
VIA = _table(via="via | par | through")
SEPARATOR = _table(sep=", | and | et | or | ou | then | puis")
FILLER = _table(fill="in | at | en | a | dans | au")
_FILLERS = {p[0] for p in FILLER}
STATION_BEFORE = _table(
    st="station | station in | the station in | the station of | the station at | poste | poste de | le poste de "
    "| poste du | le poste du | poste de police de | le poste de police de"
)
STATION_AFTER = _table(st="station | police station | poste | poste de police")
AMOUNT_BEFORE = _table(a="$ | with | for | of | de | pour | avec")
AMOUNT_AFTER = _table(a="$ | dollar | dollars | usd")
CRATES = _table(c="crate | crates | caisse | caisses | cases")
SELL_ALL = _table(a="all | everything | max | maximum | tout | tous | toutes")
UNIT_OPS: dict[tuple[str, ...], str] = {**MOVE, **HOLD, **SUPPORT, **TRANSPORT, **ASSAULT}

# Words that end a district's name: a run of unknown words stops at them.
_STOP = {p[0] for t in (KINDS, UNIT_OPS, VIA, SEPARATOR, STATION_AFTER, AMOUNT_AFTER, CRATES) for p in t}


# -- district names -------------------------------------------------------------------


@dataclass(frozen=True)
class Names:
    """Every way the map lets a player name a district: code, name, the name without
    its parenthesis, aliases, the police station's name."""

    by_words: Mapping[tuple[str, ...], str | None]  # None: shared by several districts
    longest: int
    labels: Mapping[str, str]  # code -> "HYD (Hyde Park)"
    candidates: Mapping[str, str]  # folded text -> code, for suggestions
    sharing: Mapping[tuple[str, ...], tuple[str, ...]]  # name -> codes, when shared

    def at(self, keys: list[str], start: int) -> tuple[str | None, int]:
        """The longest name starting at ``keys[start]``: (code, length); (None, n) for a
        name shared by several districts; (None, 0) when none matches."""
        for n in range(min(self.longest, len(keys) - start), 0, -1):
            words = tuple(keys[start : start + n])
            if words in self.by_words:
                return self.by_words[words], n
        return None, 0

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
    # A district's own code always means that district.
    for code in gmap.districts:
        by_words[(fold(code),)] = code
    names = Names(
        by_words=by_words,
        longest=max(len(w) for w in by_words),
        labels=labels,
        candidates=candidates,
        sharing={w: tuple(c) for w, c in sharing.items() if len(c) > 1},
    )
    if len(_NAMES_CACHE) > 8:
        _NAMES_CACHE.clear()
    _NAMES_CACHE[id(gmap)] = (gmap, names)
    return names


# -- the parser -------------------------------------------------------------------------

_ORDER_WORDS = sorted({p[0] for t in (VERBS, KINDS) for p in t if len(p[0]) > 2 and p[0].isalpha()})


_A_DISTRICT = say("a district")


class _Parser:
    def __init__(self, line: str, names: Names) -> None:
        self.line = line
        self.toks = _tokens(line)
        self.keys = [t.key for t in self.toks]
        self.names = names
        self.pos = 0

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
            meaning = phrases.get(tuple(self.keys[self.pos : self.pos + n]))
            if meaning is not None:
                self.pos += n
                return meaning
        return None

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
    def district(self, what: Message = _A_DISTRICT) -> str:
        tok = self.peek()
        if tok is None or tok.kind != "word":
            raise self.expected(what)
        code, n = self.names.at(self.keys, self.pos)
        if n == 0 and tok.key in _FILLERS:
            code, n = self.names.at(self.keys, self.pos + 1)
            if n:
                self.pos += 1
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
        typed = self.line[run[0].start : run[-1].start + len(run[-1].text)]
        raise UnknownDistrictError(self.line, say("no district {q}", q=quote(typed)), self.names.suggest(typed))

    def district_list(self) -> tuple[str, ...]:
        out = [self.district()]
        while not self.at_end():
            if self.match(SEPARATOR):
                out.append(self.district())
                continue
            tok = self.peek()
            if tok is not None and tok.kind == "word" and tok.key not in _STOP:
                out.append(self.district())
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

    def unit(self) -> UnitRef:
        kind = self.kind()
        if kind is None:
            raise self._missing_kind(say("a unit (H or L and its district)"))
        return UnitRef(kind, self.district())

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
        self.match(AMOUNT_AFTER)
        numerator, denominator = ratio(tok.text.replace(",", "."))
        cents, rest = divmod(numerator * 100, denominator)
        if negative:
            raise AmountError(self.line, say("a bribe cannot be negative"))
        if rest != 0:
            raise AmountError(
                self.line,
                say("{q} is not an amount of money", q=quote(tok.text)),
                say("bribes move in steps of $0.50, e.g. 12.50"),
            )
        return cents

    # -- orders --------------------------------------------------------------------------
    def order(self) -> Order:
        verb = self.match(VERBS)
        if verb == "recruit":
            kind = self.kind()
            if kind is None:
                raise self._missing_kind(say("the unit type (H or L)"))
            out: Order = Recruit(kind, self.district())
        elif verb == "disband":
            out = Disband(self.unit())
        elif verb == "sell":
            out = self.sell()
        elif verb == "store":
            out = Store(self.district_list())
        elif verb == "bribe":
            out = self.bribe()
        elif verb == "retreat":
            unit = self.unit()
            self.match(MOVE)
            out = Retreat(unit, self.district_list())
        elif verb == "hold":
            out = Hold(self.unit())
        else:
            out = self.unit_order()
        self.end()
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
        kind = self.kind()
        if kind is None:
            if first is not None and first.kind == "word":
                code, n = self.names.at(self.keys, self.pos)
                if n and code is not None:
                    raise self._missing_kind(say("a unit"))
                raise self.fail(
                    say("not an order: no order starts with {q}", q=quote(first.text)), self._order_hint(first)
                )
            raise self.fail(
                say("not an order", q=quote(self.line)),
                say("an order starts with a unit (H LOO ...) or with recruit, disband, sell, store, bribe or retreat"),
            )
        unit = UnitRef(kind, self.district())
        if self.at_end():
            return Hold(unit)
        op = self.match(UNIT_OPS)
        if op == "hold":
            return Hold(unit)
        if op == "move":
            return self.move(unit)
        if op == "assault":
            return Assault(unit, self.station())
        if op == "support":
            return self.support(unit)
        if op == "transport":
            if self.peek_kind() is None and self.names.at(self.keys, self.pos)[1]:
                return self.move(unit)  # "H LOO -> NSS": an arrow for a move
            target = self.unit()
            if not self.match(MOVE):
                raise self.expected(say("'-' and the destination"))
            return Transport(unit, target, self.district())
        raise self.expected(
            say(
                "'-' (move), '/' (support), 'x' (assault), '->' (transport) or 'hold'",
            )
        )

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
        steps = [self.district()]
        while self.match(MOVE):
            steps.append(self.district())
        via: tuple[str, ...] = ()
        if self.match(VIA):
            via = self.district_list()
        # An L's "via" is kept as written: the rules reject it with its reason (R10,
        # amended: only an H is carried; an L names its path, R8).
        return Move(unit, steps[-1], tuple(steps[:-1]), via)

    def support(self, unit: UnitRef) -> Order:
        target = self.unit()
        if self.at_end() or self.match(HOLD):
            return SupportHold(unit, target)
        if self.match(MOVE):
            dest = self.district()
            while self.match(MOVE):  # a delivery man's path: only the destination matters
                dest = self.district()
            return SupportMove(unit, target, dest)
        if self.match(ASSAULT):
            return SupportAssault(unit, target, self.station())
        raise self.expected(
            say(
                "'-' (a move), 'x' (an assault) or nothing (a hold)",
            )
        )


def _strip_comment(body: str) -> str:
    return body.split("#", 1)[0]


def parse_line(text: str, gmap: GameMap) -> Parsed | None:
    """One line of an orders file: an order, a header (``gang:``, ``password:``,
    ``turn:``) or None for a blank or comment line. Raises a ParseError subclass."""
    body = unquote(text)
    if not body or body.startswith("#"):
        return None
    if len(body) > MAX_LINE:
        raise OrderSyntaxError(
            body,
            say("line too long ({n} characters)", n=len(body)),
            say("write one order per line"),
        )
    header = _header(body, gmap)
    if header is not None:
        return header
    body = _strip_comment(body).strip()
    if _RULE.match(body) or body.endswith(":"):  # a drawn line or a heading ("Orders:") orders nothing
        return None
    body = _BULLET.sub("", body).strip().rstrip(",").strip()
    if not body:
        return None
    line = unicodedata.normalize("NFKC", body).translate(_DASHES)
    return _Parser(line, names_of(gmap)).order()


def parse_order(text: str, gmap: GameMap) -> Order:
    """One order (not a header, not blank); raises a ParseError subclass."""
    parsed = parse_line(text, gmap)
    if parsed is None or isinstance(parsed, GangHeader | PasswordHeader | TurnHeader):
        raise OrderSyntaxError(text, say("not an order: {q}", q=quote(text)))
    return parsed
