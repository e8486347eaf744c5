"""Orders as JSON, for players' scripts and bots (``docs/orders.schema.json``,
``docs/orders-json.md``): a document names the game, the side, the turn (and may
carry the password), and lists the orders, each a structured object of its rule
family's (``{"type": "move", "unit": "H LOO", "to": "NSS"}``) or a line of text
(``{"text": "H LOO - NSS"}``)::

    {"format": "moonshine-orders", "version": 1, "family": "moonshine",
     "game": "Chicago", "side": "valley", "turn": "spring-1924",
     "orders": [{"type": "move", "unit": "H LOO", "to": "NSS"}, {"text": "sell all"}]}

The document becomes the orders text a player would type (``orders_text``): the
side's and turn's header lines, the password's, then one order a line in the
family's canonical notation, which the family's text reader then reads as any
other orders, so that the acknowledgement and the receipt are those of the same
orders sent as text.

A stranger may send anything, so reading is bounded: at most ``MAX_BYTES`` bytes,
nested at most ``MAX_DEPTH`` deep (checked before the JSON is parsed), a key given
twice, ``NaN`` or a number too long to read refused. ``validate`` checks a parsed
document against exactly the published schema's shape (the test suite holds the two
side by side) and says what is wrong where: a JSON pointer (RFC 6901), the problem
and a suggestion, as sentences of the catalogue. A rule family gives its orders'
shapes and canonical text as an ``OrderForms`` value
(``moonshine.variants.layout.Layout.orders_json``). Pure."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

import msgspec

from moonshine.errors import MoonshineError
from moonshine.text.catalogue import Message, say

FORMAT = "moonshine-orders"
VERSION = 1
FAMILIES = ("moonshine", "classic")  # the schema's "family" values
MAX_BYTES = 64 * 1024
MAX_DEPTH = 8  # the schema's deepest document is 4 levels deep: document, orders, an order, a list
MAX_ORDERS = 200
MAX_TEXT = 300  # an order given as a line of text, in characters
MAX_NAME = 100  # the game, the side, the turn
MAX_PASSWORD = 200
MAX_PROBLEMS = 20  # problems listed for one document; the rest are counted
# One line of text: no control character, no line or paragraph separator (the readers
# split lines on them), as the schema's patterns say it.
LINE = "^[^\\u0000-\\u001f\\u007f-\\u009f\\u2028\\u2029]*$"

# the keys of a document, as the schema lists them
REQUIRED = ("format", "version", "family", "game", "side", "turn", "orders")
OPTIONAL = ("password",)
# a text line that is a header of either family's orders: the document has its own keys for them
_HEADER = re.compile(
    r"^\s*(?:gang name|nom du gang|gang|bande|power|puissance|turn|tour|phase|password|passwd|pass|"
    r"mot de passe|mdp)\s*:",
    re.IGNORECASE,
)


# -- the shapes of the fields ----------------------------------------------------------


class Text(msgspec.Struct, frozen=True):
    """A string matching ``pattern`` (searched as JSON Schema searches it) and, when
    ``max_length`` is given, of ``min_length`` to ``max_length`` characters (otherwise the
    pattern bounds it)."""

    pattern: str
    what: Message
    min_length: int = 1
    max_length: int | None = None


class Texts(msgspec.Struct, frozen=True):
    """A list of ``min_items`` to ``max_items`` strings, each an ``item``."""

    item: Text
    what: Message
    min_items: int = 1
    max_items: int = 10


class Flag(msgspec.Struct, frozen=True):
    """true or false."""


class Crates(msgspec.Struct, frozen=True):
    """A whole number of crates from 0 to ``maximum``, or the text ``all``."""

    maximum: int = 100_000


class Dollars(msgspec.Struct, frozen=True):
    """A number of dollars above 0 and at most ``maximum``."""

    maximum: int = 1_000_000


FieldShape = Text | Texts | Flag | Crates | Dollars


class OrderShape(msgspec.Struct, frozen=True):
    """The fields of one type of order (besides ``type``): those it needs, those it may
    have, and among these the ones it may not have together."""

    required: Mapping[str, FieldShape]
    optional: Mapping[str, FieldShape] = msgspec.field(default_factory=dict)
    exclusive: tuple[str, ...] = ()


class OrderForms(Protocol):
    """A rule family's orders as JSON: its name in documents, the shape of each type of
    order, and the canonical line of an order object that fits its shape."""

    @property
    def family(self) -> str: ...

    @property
    def shapes(self) -> Mapping[str, OrderShape]: ...

    def line(self, order: Mapping[str, Any]) -> str:
        """The order in the family's canonical notation (``order`` fits its shape)."""
        ...


# -- problems ---------------------------------------------------------------------------


class Problem(msgspec.Struct, frozen=True):
    """What is wrong with a document, where: ``pointer`` (RFC 6901, ``""`` for the whole
    document), the problem and a suggestion."""

    pointer: str
    what: Message
    hint: Message | None = None

    def message(self) -> Message:
        """The problem as one sentence for the sender, in any language."""
        if not self.pointer:  # the whole document (RFC 6901's "")
            if self.hint is None:
                return say("the document: {what}", what=self.what)
            return say("the document: {what} ({hint})", what=self.what, hint=self.hint)
        if self.hint is None:
            return say("{pointer}: {what}", pointer=self.pointer, what=self.what)
        return say("{pointer}: {what} ({hint})", pointer=self.pointer, what=self.what, hint=self.hint)


class OrdersJsonError(MoonshineError):
    """A document of orders that is not JSON, or does not fit the schema, or names
    another game: every problem found (``problems``), worded by ``text``."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        self.problems = list(problems)
        super().__init__(self.text("en"))

    def messages(self) -> list[Message]:
        """A sentence per problem, and the count of those left out."""
        out = [p.message() for p in self.problems[:MAX_PROBLEMS]]
        if len(self.problems) > MAX_PROBLEMS:
            out.append(say("problems not listed: {n}", n=len(self.problems) - MAX_PROBLEMS))
        return out

    def text(self, language: str = "en") -> str:
        """The problems in ``language``, a line each."""
        return "\n".join(m.text(language) for m in self.messages())


def pointer(parent: str, key: str | int) -> str:
    """``parent``'s child ``key`` as a JSON pointer (``~`` and ``/`` escaped)."""
    return f"{parent}/{str(key).replace('~', '~0').replace('/', '~1')}"


def _found(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else text[:37] + "..."


def _closest(word: str, known: Sequence[str]) -> Message:
    import difflib

    near = difflib.get_close_matches(word, known, n=1)
    if near:
        return say("did you mean {what}?", what=near[0])
    return say("expected one of {words}", words=", ".join(known))


# -- reading the bytes -------------------------------------------------------------------


class _Duplicate(ValueError):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise _Duplicate(key)
        out[key] = value
    return out


def _constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number JSON allows")


_STRING = re.compile(r'"(?:[^"\\]|\\.)*"?', re.DOTALL)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")


def depth(text: str, limit: int | None = None) -> int:
    """How deep the arrays and objects of a JSON text nest (brackets inside strings not
    counted), read in one pass before any parsing; past ``limit``, ``limit + 1``."""
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", text))
    deepest = level = 0
    for c in brackets:
        if c in "[{":
            level += 1
            if level > deepest:
                deepest = level
                if limit is not None and deepest > limit:
                    return deepest
        else:
            level -= 1
    return deepest


def parse(raw: bytes) -> Any:
    """The JSON value of ``raw``, read within bounds: UTF-8 (a byte-order mark
    allowed), at most ``MAX_BYTES`` bytes, ``MAX_DEPTH`` levels, no key twice in an
    object, no ``NaN``. Raises ``OrdersJsonError``."""
    if len(raw) > MAX_BYTES:
        raise OrdersJsonError(
            [Problem("", say("{n} bytes: a document of orders is at most {limit} bytes", n=len(raw), limit=MAX_BYTES))]
        )
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise OrdersJsonError(
            [Problem("", say("not UTF-8 text (byte {n})", n=exc.start), say("save the file as UTF-8"))]
        ) from None
    if depth(text, MAX_DEPTH) > MAX_DEPTH:
        raise OrdersJsonError([Problem("", say("nested more than {n} levels deep", n=MAX_DEPTH))])
    try:
        return json.loads(text, object_pairs_hook=_object, parse_constant=_constant)
    except _Duplicate as exc:
        raise OrdersJsonError(
            [Problem("", say("the key {key} appears twice in one object", key=exc.key), say("keep one"))]
        ) from None
    except json.JSONDecodeError as exc:
        raise OrdersJsonError(
            [
                Problem(
                    "",
                    say(
                        "not JSON: {why} (line {line}, column {column})", why=exc.msg, line=exc.lineno, column=exc.colno
                    ),
                    say("check the commas, quotes and brackets there"),
                )
            ]
        ) from None
    except ValueError as exc:  # NaN, Infinity; an integer of more digits than Python reads
        raise OrdersJsonError([Problem("", say("not JSON: {why}", why=str(exc)))]) from None
    except RecursionError:  # not reached below MAX_DEPTH; kept as the last bound
        raise OrdersJsonError([Problem("", say("nested more than {n} levels deep", n=MAX_DEPTH))]) from None


# -- the document's shape ----------------------------------------------------------------

_NAME = Text(LINE, say("one line of text"), 1, MAX_NAME)
_ORDER_TEXT = Text(LINE, say("one line of text"), 1, MAX_TEXT)
_PASSWORD = Text(LINE, say("one line of text"), 1, MAX_PASSWORD)


def validate(doc: Any, forms: OrderForms) -> list[Problem]:
    """Every way ``doc`` does not fit ``docs/orders.schema.json`` for a game of the
    rule family ``forms`` (none: it fits)."""
    if not isinstance(doc, dict):
        what = say("expected a JSON object with {keys}", keys=", ".join(REQUIRED))
        return [Problem("", what, say("found {found}", found=_found(doc)))]
    out: list[Problem] = []
    for key in doc:
        if key not in REQUIRED and key not in OPTIONAL:
            out.append(Problem(pointer("", key), say("unknown key"), _closest(key, (*REQUIRED, *OPTIONAL))))
    for key in REQUIRED:
        if key not in doc:
            out.append(Problem("", say("missing {key}", key=key), _envelope_hint(key)))
    if "format" in doc and doc["format"] != FORMAT:
        out.append(_expected("/format", f'"{FORMAT}"', doc["format"]))
    if "version" in doc and (isinstance(doc["version"], bool) or doc["version"] != VERSION):
        out.append(_expected("/version", str(VERSION), doc["version"]))
    if "family" in doc:
        family = doc["family"]
        if family not in FAMILIES:
            out.append(_expected("/family", " or ".join(f'"{f}"' for f in FAMILIES), family))
        elif family != forms.family:
            what = say("this game plays the {rules} rules", rules=forms.family)
            out.append(Problem("/family", what, say("write {family}, and its orders", family=forms.family)))
    for key, shape in (("game", _NAME), ("side", _NAME), ("turn", _NAME), ("password", _PASSWORD)):
        if key in doc:
            out += _field(pointer("", key), doc[key], shape)
    if "orders" in doc:
        out += _orders(doc["orders"], forms)
    return out


def _envelope_hint(key: str) -> Message:
    hints = {
        "format": say('write "format": "{value}"', value=FORMAT),
        "version": say('write "version": {value}', value=VERSION),
        "family": say("moonshine or classic: the rules the game plays"),
        "game": say("the game's name or title"),
        "side": say("your gang's or power's name or key"),
        "turn": say("the turn, such as {example}", example="spring-1924"),
        "orders": say("a list of orders, such as [{example}]", example='{"text": "H LOO hold"}'),
    }
    return hints[key]


def _expected(where: str, what: str | Message, found: Any) -> Problem:
    return Problem(where, say("expected {what}", what=what), say("found {found}", found=_found(found)))


def _orders(orders: Any, forms: OrderForms) -> list[Problem]:
    if not isinstance(orders, list):
        return [_expected("/orders", say("a list of orders"), orders)]
    if len(orders) > MAX_ORDERS:
        return [Problem("/orders", say("too many orders ({n}): at most {limit}", n=len(orders), limit=MAX_ORDERS))]
    out: list[Problem] = []
    for i, order in enumerate(orders):
        out += _order(pointer("/orders", i), order, forms)
    return out


def _order(where: str, order: Any, forms: OrderForms) -> list[Problem]:
    types = list(forms.shapes)
    if not isinstance(order, dict):
        what = say("expected an order: an object with a type, or with a text")
        return [Problem(where, what, say("found {found}", found=_found(order)))]
    if "text" in order or "type" not in order:
        if "type" not in order and "text" not in order:
            hint = say("such as {example}", example='{"type": "hold", "unit": "..."} or {"text": "..."}')
            return [Problem(where, say("an order has a type, or a text"), hint)]
        out = [
            Problem(pointer(where, key), say("unknown key"), say("an order given as text has its text alone"))
            for key in order
            if key != "text"
        ]
        return out + _field(pointer(where, "text"), order["text"], _ORDER_TEXT)
    kind = order["type"]
    shape = forms.shapes.get(kind) if isinstance(kind, str) else None
    if shape is None:
        what = say("unknown type of order {found}", found=_found(kind))
        hint = (
            _closest(kind, types) if isinstance(kind, str) else say("expected one of {words}", words=", ".join(types))
        )
        return [Problem(pointer(where, "type"), what, hint)]
    out = []
    known = ("type", *shape.required, *shape.optional)
    for key in order:
        if key not in known:
            out.append(Problem(pointer(where, key), say("unknown key"), _closest(key, known[1:] or known)))
    for key, field in shape.required.items():
        if key not in order:
            out.append(Problem(where, say("missing {key}", key=key), _what(field)))
        else:
            out += _field(pointer(where, key), order[key], field)
    for key, field in shape.optional.items():
        if key in order:
            out += _field(pointer(where, key), order[key], field)
    given = [k for k in shape.exclusive if k in order]
    if len(given) > 1:
        out.append(Problem(where, say("{a} and {b} together", a=given[0], b=given[1]), say("keep one")))
    return out


def _what(field: FieldShape) -> Message:
    if isinstance(field, Text | Texts):
        return field.what
    if isinstance(field, Flag):
        return say("true or false")
    if isinstance(field, Crates):
        return say('a whole number of crates from 0 to {n}, or "all"', n=field.maximum)
    return say("a number of dollars above 0, such as {example}", example="4.5")


def _field(where: str, value: Any, field: FieldShape) -> list[Problem]:
    if isinstance(field, Text):
        if not isinstance(value, str):
            return [_expected(where, field.what, value)]
        if field.max_length is not None and not field.min_length <= len(value) <= field.max_length:
            least, most = field.min_length, field.max_length
            what = say("expected {what} of {least} to {most} characters", what=field.what, least=least, most=most)
            return [Problem(where, what, say("found {n} characters", n=len(value)))]
        if re.search(field.pattern, value) is None:
            return [_expected(where, field.what, value)]
        return []
    if isinstance(field, Texts):
        if not isinstance(value, list):
            return [_expected(where, field.what, value)]
        if not field.min_items <= len(value) <= field.max_items:
            what = say(
                "expected {what}: {least} to {most} of them",
                what=field.what,
                least=field.min_items,
                most=field.max_items,
            )
            return [Problem(where, what, say("found {n}", n=len(value)))]
        return [p for i, v in enumerate(value) for p in _field(pointer(where, i), v, field.item)]
    if isinstance(field, Flag):
        return [] if isinstance(value, bool) else [_expected(where, _what(field), value)]
    if isinstance(field, Crates):
        if value == "all" or (_integer(value) and 0 <= value <= field.maximum):
            return []
        return [_expected(where, _what(field), value)]
    if _number(value) and 0 < value <= field.maximum:
        return []
    return [_expected(where, _what(field), value)]


def _integer(value: Any) -> bool:
    """A JSON integer as JSON Schema counts one: a number with no fraction (3.0 too)."""
    return _number(value) and float(value).is_integer()


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and value == value  # not NaN


# -- what the document means -----------------------------------------------------------


def check_game(doc: Mapping[str, Any], names: Sequence[str]) -> list[Problem]:
    """The document's ``game`` must be one of ``names`` (the game's title, its
    directory's name), compared without case or extra spaces; its text lines must not be
    header lines (the side, the turn and the password are the document's keys)."""
    out: list[Problem] = []
    fold = [" ".join(n.split()).casefold() for n in names if n]
    if " ".join(str(doc["game"]).split()).casefold() not in fold:
        what = say("these orders are for the game {given}", given=_found(doc["game"]))
        out.append(Problem("/game", what, say("this game is {name}", name=_found(names[0]))))
    for i, order in enumerate(doc["orders"]):
        if "text" in order and _HEADER.match(order["text"]):
            what = say("a header line")
            hint = say("the side, the turn and the password are keys of the document")
            out.append(Problem(pointer(pointer("/orders", i), "text"), what, hint))
    return out


def orders_text(doc: Mapping[str, Any], forms: OrderForms, side_word: str, password: str | None = None) -> str:
    """The orders text the document stands for (it fits the schema): the side's and the
    turn's header lines (``side_word``: ``gang``, ``power``), the password's when it has
    one (else ``password``'s, when given: the mail's own password line), then each order
    on its line, a structured one in the family's canonical notation, a text one as
    written."""
    lines = [f"{side_word}: {doc['side'].strip()}", f"turn: {doc['turn'].strip()}"]
    if "password" in doc:
        lines.append(f"password: {doc['password'].strip()}")
    elif password is not None and password.strip():
        lines.append(f"password: {password.strip()}")
    for order in doc["orders"]:
        lines.append(order["text"].strip() if "text" in order else forms.line(order))
    return "".join(f"{line}\n" for line in lines)


def looks_like_json(raw: bytes) -> bool:
    """Whether ``raw`` (an attachment, a mail's body, a file) is meant as JSON: its first
    character, after any byte-order mark and white space, opens an object."""
    return raw.removeprefix(b"\xef\xbb\xbf").lstrip()[:1] == b"{"


# The judge's other documents: a turn's results (docs/results.schema.json), which every
# report mail attaches, and a game's export (docs/moonshine-game.schema.json). JSON, and
# never orders; the judge writes their format first (sorted keys, or written so).
OTHER_FORMATS = ("moonshine-results", "moonshine-game")
_OTHER_DOCUMENT = re.compile(
    r'\ufeff?[ \t\r\n]*+\{[ \t\r\n]*+"format"[ \t\r\n]*+:[ \t\r\n]*+"(?:'
    + "|".join(re.escape(f) for f in OTHER_FORMATS)
    + ')"'
)


def is_other_document(raw: bytes) -> bool:
    """Whether ``raw`` opens as another of the judge's own documents (``OTHER_FORMATS``:
    its ``format`` its first key, as the judge writes them), such as the results a player
    forwards with a report: not orders, so a mail's reader leaves it. Reads at most its
    first 256 bytes."""
    return _OTHER_DOCUMENT.match(raw[:256].decode("utf-8", "replace")) is not None


def envelope(raw: bytes) -> dict[str, str]:
    """The text values of a document's ``game``, ``side``, ``turn`` and ``password``, as far
    as ``raw`` reads as a JSON object (within ``parse``'s bounds; none when it does not):
    enough to route a mail and to mask its password before the document is checked."""
    try:
        doc = parse(raw)
    except OrdersJsonError:
        return {}
    if not isinstance(doc, dict):
        return {}
    return {k: v for k in ("game", "side", "turn", "password") if isinstance(v := doc.get(k), str)}
