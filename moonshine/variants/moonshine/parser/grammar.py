"""The grammar of the orders, English and French alike: the shape of each order
read from a line's tokens (``Parser``), with the plain words around it left out and
a misspelt keyword read when it can mean one thing only; and what the reader may
ask of the position (``Position``) to read a misspelt district one way."""

from __future__ import annotations

import re
from typing import Protocol

import msgspec

from moonshine.text.catalogue import Message, say
from moonshine.text.money import Money, ratio
from moonshine.variants.moonshine.map import UnitKind
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
from moonshine.variants.moonshine.parser import join, quote
from moonshine.variants.moonshine.parser.errors import AmountError, OrderSyntaxError, UnknownDistrictError
from moonshine.variants.moonshine.parser.lexer import Tok, tokens
from moonshine.variants.moonshine.parser.names import Names
from moonshine.variants.moonshine.parser.phrases import (
    AMOUNT_AFTER,
    AMOUNT_BEFORE,
    ARROW,
    ASSAULT,
    ATTACK,
    CENTS,
    CRATES,
    FILLERS,
    HOLD,
    KINDS,
    LEAD_MOVE,
    MOVE,
    ORDER_WORDS,
    PLAIN,
    SELL_ALL,
    SEPARATOR,
    STATION_AFTER,
    STATION_BEFORE,
    STATION_WORDS,
    STOP,
    TO,
    UNIT_OPS,
    VERBS,
    VIA,
    Phrases,
    table,
)
from moonshine.variants.moonshine.parser.spelling import spelling_distance

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


class Slot(msgspec.Struct, frozen=True):
    """A misspelt district: what was typed, the districts it may stand for (nearest
    spelling first), and the unit whose order it is part of (None when it is that
    unit's own district)."""

    typed: str
    codes: tuple[str, ...]
    role: str  # "dest" (where a unit goes), "unit" (a unit's own district), "other"
    unit: UnitRef | None


class Parser:
    """One reading of a line: ``order()`` reads the order from its tokens, or raises a
    ParseError subclass. ``plan`` picks, for each misspelt district met in turn,
    which of its readings this run takes (``reader`` runs one parser per reading)."""

    def __init__(self, line: str, names: Names, position: Position | None = None, plan: tuple[int, ...] = ()) -> None:
        self.line = line
        self.toks = tokens(line)
        self.keys = [t.key for t in self.toks]
        self.names = names
        self.pos = 0
        self.position = position
        self.plan = plan
        self.slots: list[Slot] = []
        self.notes: list[Message] = []
        self.ignored: list[str] = []
        self.last: tuple[str, ...] = ()
        self.ordering: UnitRef | None = None  # the unit whose order is being read

    # -- looking at tokens ------------------------------------------------------------
    def peek(self, k: int = 0) -> Tok | None:
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
            self.match(TO)  # "mvoes to NSS"
        return near[0][2]

    def names_a_station(self) -> bool:
        """Whether the words after an attack name a police station (``the station in
        LOO``, ``Harrison Street station``): an assault, which "attack" does not write."""
        return self.match(STATION_BEFORE) is not None or any(k in STATION_WORDS for k in self.keys[self.pos :])

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

    def choose(self, slot: Slot) -> str:
        """One of a misspelt district's readings: the one this run of the parser
        tries (``reader`` runs it once per reading)."""
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
        while n == 0 and self.pos + skip < len(self.keys) and self.keys[self.pos + skip] in FILLERS:
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
        keyword: list[Tok] = []  # a keyword that ends the run ("par"), maybe a name's last word misspelt
        for nxt in self.toks[self.pos + 1 : self.pos + 5]:
            if nxt.kind != "word" or nxt.key in STOP:
                keyword = [nxt] if nxt.kind == "word" else []
                break
            run.append(nxt)
        if self.position is not None:  # a misspelling, read if only one of its readings is an order
            # the run's words first; then with the keyword that ended it ("Morgan Par" for
            # Morgan Park), only when the run alone reads as no district
            for k in [*range(len(run), 0, -1), *([len(run) + 1] if keyword else [])]:
                read = (run + keyword)[:k]
                typed = self.line[read[0].start : read[-1].start + len(read[-1].text)]
                codes = self.names.close(typed)
                if codes:
                    self.pos += k
                    return self.choose(Slot(typed, codes, role, self.ordering if role != "unit" else None))
        typed = self.line[run[0].start : run[-1].start + len(run[-1].text)]
        raise UnknownDistrictError(self.line, say("no district {q}", q=quote(typed)), self.names.suggest(typed))

    def district_list(self, role: str = "other") -> tuple[str, ...]:
        out = [self.district(role=role)]
        while not self.at_end():
            if self.match(SEPARATOR):
                out.append(self.district(role=role))
                continue
            tok = self.peek()
            if tok is not None and tok.kind == "word" and tok.key not in STOP and tok.key not in PLAIN:
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

    def unambiguous(self, tok: Tok) -> None:
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
            self.match(table(f="to | a | au | for | pour"))
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

    def _order_hint(self, tok: Tok) -> Message:
        key = tok.key
        if len(key) == 4 and key[0] in "hl" and (key[1:],) in self.names.by_words:
            fixed = f"{key[0].upper()} {key[1:].upper()}"
            return say("did you mean {f}?", f=quote(fixed))
        import difflib

        close = difflib.get_close_matches(key[:30], ORDER_WORDS, n=1, cutoff=0.75)
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
