"""The mail-reading layer: a message in, the player's own new text out.

Real mail is replies: the player writes new orders on top and the mail program
appends the message answered (their own earlier orders, the referee's
acknowledgement or reminder), quoted with ``>`` or under a reply header; phones
send HTML only; some programs send ``format=flowed``; signatures follow ``-- ``.
Nothing is ever taken from quoted or forwarded text, not an order and not a
password. This module finds the player's own lines:

- ``texts``: the candidate texts of a message (the plain body, plain-text
  attachments, the HTML body as text), decoded, ``format=flowed`` joined;
- ``json_documents``: the documents of orders as JSON it carries
  (``docs/orders-json.md``): a part of type ``application/json`` or named ``*.json``,
  or a text whose own lines open with ``{``, as bytes for the JSON reader;
- ``own_text``: in one text, the lines the player wrote. Dropped are quoted
  lines (``>``), reply headers of Gmail, Outlook, Apple Mail and Thunderbird in
  English and French (``On ... wrote:``, ``Le ... a écrit :``, ``-----Original
  Message-----``, ``De : ... Envoyé : ... À : ... Objet :``) and everything
  below an unquoted copy (Outlook's header block, forwarded messages), the
  signature after ``-- ``;
- ``ignore_chatter``: with the map, the greetings and sign-offs before the
  first order and after the last ("Hi all,", "Bonjour", "Thanks", a first name,
  "Sent from my iPhone"): lines with no unit, no order word and no district.

A line longer than ``MAX_LINE`` characters is left out whole (``TOO_LONG``) before
the readers see it, and the reply says so: an order is a few words and a line of
press a paragraph. It is never cut short: what is left of a line cut may be another
order.

Dropped lines are left empty, so the line numbers of the acknowledgement are
those of the text the player sees in their sent mail. Everything here is pure
(a text in, a value out) and never raises on odd input.

No reply-parsing library is used: see the README ("Libraries, and why")."""

from __future__ import annotations

import re
from email.message import Message
from html.parser import HTMLParser

import msgspec

from moonshine.game.orderfile import decode_lenient
from moonshine.game.ordersjson import is_other_document, looks_like_json
from moonshine.text.chatter import ChatterTest

# -- what was left out, as values --------------------------------------------------------

QUOTED = "quoted"  # lines quoted with ">"
REPLY_HEADER = "reply-header"  # "On ... wrote:", "Le ... a écrit :"
COPY = "copy"  # an unquoted copy below a header: Outlook's block, a forwarded message
SIGNATURE = "signature"  # after "-- "
CHATTER = "chatter"  # greetings and sign-offs around the orders
TOO_LONG = "too-long"  # a line longer than MAX_LINE characters
KINDS = (QUOTED, REPLY_HEADER, COPY, SIGNATURE, CHATTER, TOO_LONG)


class Dropped(msgspec.Struct, frozen=True):
    """Lines ``first`` to ``last`` (from 1) left out, and why (one of KINDS)."""

    kind: str
    first: int
    last: int


class OwnText(msgspec.Struct, frozen=True):
    """A text with only the player's own lines: the others are empty, so that
    every line keeps its number."""

    text: str
    dropped: tuple[Dropped, ...]
    original: str = ""  # the text as it came, for quoting what was left out

    def lines_dropped(self, *kinds: str) -> list[int]:
        return [n for d in self.dropped if d.kind in kinds for n in range(d.first, d.last + 1)]

    @property
    def quoted(self) -> bool:
        """Whether quoted or forwarded text was left out."""
        return any(d.kind in (QUOTED, REPLY_HEADER, COPY) for d in self.dropped)


# -- decoding a message --------------------------------------------------------------------

MAX_TEXT = 1_000_000  # characters of one text read at most: orders are a few hundred
# Characters of one line read at most: an order is a few words; a paragraph of press,
# joined into one line by format=flowed or an HTML body, a few hundred. A longer line
# is left out whole (TOO_LONG), and the reply says which.
MAX_LINE = 10_000
# A mail's MIME parts read at most, and how deep they may nest: a phone's message has
# two to six; thousands of tiny parts would cost a stranger nothing and the judge seconds.
MAX_PARTS = 64
MAX_DEPTH = 8


def too_many_parts(raw: bytes) -> bool:
    """Whether a message has more than ``MAX_PARTS`` MIME parts or nests them deeper
    than ``MAX_DEPTH``: to be refused before it is parsed for reading. Ordinary mail is
    told apart from the raw bytes alone (a part starts at a line ``--boundary``); only a
    message with many such lines has its structure parsed, by the mail library's cheap
    legacy policy, which leaves the headers unparsed."""
    if raw.count(b"\n--") <= MAX_PARTS:
        return False
    from email import policy
    from email.parser import BytesParser

    try:
        root = BytesParser(policy=policy.compat32).parsebytes(raw)
    except Exception:
        return True
    count = 0
    stack: list[tuple[Message, int]] = [(root, 0)]
    while stack:
        part, depth = stack.pop()
        count += 1
        if count > MAX_PARTS or depth > MAX_DEPTH:
            return True
        payload = part.get_payload() if part.is_multipart() else None
        if isinstance(payload, list):
            stack.extend((p, depth + 1) for p in payload if isinstance(p, Message))
    return False


class _HtmlText(HTMLParser):
    """Visible text of an HTML body, one line per block or ``<br>``; quoted blocks
    (``<blockquote>``) are left out."""

    BLOCKS = frozenset(
        {"p", "div", "br", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "pre", "blockquote", "hr", "table"}
    )
    HIDDEN = frozenset({"script", "style", "head", "title"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.skip = 0
        self.quote = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self.HIDDEN:
            self.skip += 1
        elif tag == "blockquote":
            self.quote += 1
        if tag in self.BLOCKS:
            self.parts.append("\n")
        if tag == "hr" and not self.quote and not self.skip:
            self.parts.append("________________________________\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in self.HIDDEN:
            self.skip = max(0, self.skip - 1)
        elif tag == "blockquote":
            self.quote = max(0, self.quote - 1)
        if tag in self.BLOCKS:
            self.parts.append("\n")

    def handle_data(self, data: str) -> None:
        if not self.skip and not self.quote:
            self.parts.append(data.replace("\xa0", " "))


def html_to_text(html: str) -> str:
    """The visible text of an HTML body without its quoted blocks."""
    parser = _HtmlText()
    try:
        parser.feed(html[:MAX_TEXT])
        parser.close()
    except Exception:  # HTMLParser is lenient; this is a guard, not a path
        pass
    lines = [" ".join(line.split()) for line in "".join(parser.parts).splitlines()]
    return "\n".join(line for line in lines if line)


def unflow(text: str, *, delsp: bool = False) -> str:
    """A ``format=flowed`` text (RFC 3676) as its paragraphs' lines: a line ending
    in a space goes on with the next one at the same quote depth; space-stuffing
    is removed. The signature delimiter ``-- `` is never joined."""
    out: list[str] = []
    pending: str | None = None
    pending_depth = 0
    for raw in text.split("\n"):
        line = raw.rstrip("\r")
        depth = len(line) - len(line.lstrip(">"))
        body = line[depth:]
        if body.startswith(" "):
            body = body[1:]  # space-stuffed
        if pending is not None and depth == pending_depth:
            body = pending + body
        elif pending is not None:
            out.append(">" * pending_depth + (" " if pending_depth else "") + pending)
        pending = None
        flowed = body.endswith(" ") and body != "-- "
        if flowed:
            pending, pending_depth = (body[:-1] if delsp else body), depth
            continue
        out.append(">" * depth + (" " if depth else "") + body)
    if pending is not None:
        out.append(">" * pending_depth + (" " if pending_depth else "") + pending)
    return "\n".join(out)


def decode_part(part: Message) -> str:
    """A text part's text: its charset (as an orders file when undeclared or UTF-8:
    ``moonshine.game.orderfile``), ``format=flowed``
    joined, bounded in size."""
    try:
        payload = part.get_payload(decode=True)
    except Exception:
        return ""
    if not isinstance(payload, bytes):
        return ""
    try:
        charset = part.get_content_charset()
    except Exception:
        charset = None
    data = payload[: MAX_TEXT * 4]
    try:
        if charset is None or charset in ("utf-8", "us-ascii"):
            # undeclared (an attached file) or the default: read as `check` and
            # `adjudicate` read an orders file (UTF-8, else Windows-1252)
            text = decode_lenient(data)
        else:
            text = data.decode(charset, errors="replace")
    except (LookupError, ValueError):  # an unknown charset
        text = decode_lenient(data)
    text = text[:MAX_TEXT].replace("\r\n", "\n").replace("\r", "\n")
    try:
        fmt = str(part.get_param("format", "") or "").lower()
        delsp = str(part.get_param("delsp", "") or "").lower() == "yes"
    except Exception:
        fmt, delsp = "", False
    if fmt == "flowed" and part.get_content_type() == "text/plain":
        text = unflow(text, delsp=delsp)
    return text


def _is_attachment(part: Message) -> bool:
    return str(part.get("Content-Disposition", "")).strip().lower().startswith("attachment")


def _is_json(part: Message) -> bool:
    """A part meant as a JSON document: its type (``application/json``, or a type of
    the ``+json`` family), or its file's name (``orders.json``) whatever its type."""
    ctype = part.get_content_type()
    if ctype == "application/json" or (ctype.startswith("application/") and ctype.endswith("+json")):
        return True
    try:
        name = part.get_filename()
    except Exception:  # a name the mail library cannot decode is no name
        return False
    return isinstance(name, str) and name.strip().lower().endswith(".json")


def texts(msg: Message) -> list[tuple[str, str]]:
    """The texts orders may be in, in order of preference: (where, text). The
    plain body, then plain-text attachments, then the HTML body as text (only
    when there is no plain body: a phone's HTML-only mail). Attachments' names
    are never used; attached messages (forwarded ``message/rfc822``) are never
    read."""
    plain: list[tuple[str, str]] = []
    attached: list[tuple[str, str]] = []
    html: list[tuple[str, str]] = []
    stack: list[tuple[Message, int]] = [(msg, 0)]
    seen = 0
    while stack and seen < MAX_PARTS:  # the first parts only, however many there are
        part, depth = stack.pop(0)
        seen += 1
        ctype = part.get_content_type()
        if ctype == "message/rfc822" or ctype.startswith("message/"):
            continue  # a forwarded message is someone else's text
        if part.is_multipart():
            payload = part.get_payload()
            if isinstance(payload, list) and depth < MAX_DEPTH:
                stack[0:0] = [(p, depth + 1) for p in payload if isinstance(p, Message)]
            continue
        if ctype == "text/plain" and _is_attachment(part):
            attached.append(("attachment", decode_part(part)))
        elif ctype == "text/plain":
            plain.append(("body", decode_part(part)))
        elif ctype == "text/html" and not _is_attachment(part):
            html.append(("HTML body", html_to_text(decode_part(part))))
    return plain + attached + (html if not plain else [])


JSON_ATTACHMENT = "JSON attachment"
JSON_TEXT = "JSON text"  # the body, or a plain-text attachment, that is a JSON document


def json_documents(msg: Message, found: list[tuple[str, str]]) -> list[tuple[str, bytes]]:
    """The documents of orders as JSON in a message, in order of preference: (where,
    bytes). First its JSON parts (``application/json``, or named ``*.json``), then
    each of its texts ``found`` (``texts``) whose own lines (``own_text``: without
    quoted text and signature; a long line kept, as JSON may write a document on one)
    open with ``{``. Not a document of the judge's own that is no orders (the turn's
    results a report mail attaches, forwarded with it: ``is_other_document``). The first
    parts only, as ``texts`` reads them; the bytes are bounded by the message's size,
    and the JSON reader reads at most its own limit."""
    out: list[tuple[str, bytes]] = []
    stack: list[tuple[Message, int]] = [(msg, 0)]
    seen = 0
    while stack and seen < MAX_PARTS:
        part, depth = stack.pop(0)
        seen += 1
        if part.get_content_type().startswith("message/"):
            continue  # a forwarded message is someone else's
        if part.is_multipart():
            payload = part.get_payload()
            if isinstance(payload, list) and depth < MAX_DEPTH:
                stack[0:0] = [(p, depth + 1) for p in payload if isinstance(p, Message)]
            continue
        if _is_json(part):
            try:
                data = part.get_payload(decode=True)
            except Exception:
                data = None
            if isinstance(data, bytes) and not is_other_document(data) and data not in [raw for _, raw in out]:
                out.append((JSON_ATTACHMENT, data))
    for _, text in found:
        data = json_text(text).encode("utf-8")
        if looks_like_json(data) and not is_other_document(data) and data not in [raw for _, raw in out]:
            out.append((JSON_TEXT, data))
    return out


def json_text(text: str) -> str:
    """A text's own lines as a JSON document is read from them: ``own_text``'s, with
    the lines too long for orders given back."""
    own = own_text(text)
    if not own.lines_dropped(TOO_LONG):
        return own.text
    long = set(own.lines_dropped(TOO_LONG))
    lines, original = _lines(own.text), _lines(text)
    return "\n".join(original[n - 1] if n in long else line for n, line in enumerate(lines, 1)) + "\n"


# -- the player's own lines ---------------------------------------------------------------

_SPACES = "[ \t\u00a0\u202f]"
_QUOTE = re.compile(r"^[ \t]*>")
_WROTE_EN = re.compile(rf"^On\b.*\bwrote{_SPACES}*:{_SPACES}*$", re.IGNORECASE)
_WROTE_FR = re.compile(rf"^Le\b.*\ba{_SPACES}+[ée]crit{_SPACES}*:{_SPACES}*$", re.IGNORECASE)
_WROTE_SHORT = re.compile(rf"^.{{1,120}}\b(?:wrote|a{_SPACES}+[ée]crit){_SPACES}*:{_SPACES}*$", re.IGNORECASE)
_WROTE_START = re.compile(r"^(?:On|Le)\s.{4,}$", re.IGNORECASE)
_WROTE_END = re.compile(rf"^.*\b(?:wrote|a{_SPACES}+[ée]crit){_SPACES}*:{_SPACES}*$", re.IGNORECASE)
# Possessive runs (*+): neighbouring runs of blanks never trade characters, so a line
# of blanks costs one pass (plain runs backtracked cubically: days for 100 KB of them).
_SEPARATOR = re.compile(
    r"^[ \t]*+(?:-{2,}+|_{2,}+|={2,}+)?[ \t]*+(?:"
    r"original message|message d'origine|message original|"
    r"forwarded message|message transf[ée]r[ée]|mail transf[ée]r[ée]|"
    r"begin forwarded message|d[ée]but du message r[ée]exp[ée]di[ée]|message r[ée]exp[ée]di[ée]"
    r")[ \t:]*+(?:(?:-{2,}+|_{2,}+|={2,}+)[ \t]*+:?[ \t]*+)?$",
    re.IGNORECASE,
)
_RULE = re.compile(r"^[ \t]*_{10,}[ \t]*$")
_FIELD_FROM = re.compile(rf"^[ \t*]*(?:From|De|Exp[ée]diteur){_SPACES}*:", re.IGNORECASE)
_FIELD_OTHER = re.compile(
    rf"^[ \t*]*(?:Sent|Date|To|Subject|Cc|Envoy[ée]|[ÀA]|Objet|Destinataire){_SPACES}*:", re.IGNORECASE
)


def _lines(text: str) -> list[str]:
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def _header_block(lines: list[str], i: int) -> bool:
    """Whether line ``i`` starts an Outlook-style header block: ``From:`` (``De :``)
    followed within four lines by at least two of ``Sent:``, ``To:``,
    ``Subject:`` (``Envoyé :``, ``À :``, ``Objet :``)."""
    if not _FIELD_FROM.match(lines[i]):
        return False
    others = sum(1 for line in lines[i + 1 : i + 6] if _FIELD_OTHER.match(line))
    return others >= 2


def _wrote_at(lines: list[str], i: int) -> int:
    """How many lines the reply header starting at line ``i`` takes (0: none).
    ``On ... wrote:`` on one line, or on two when the mail program wrapped it;
    the short form ``Name wrote:`` only when quoted lines follow."""
    line = lines[i]
    if _WROTE_EN.match(line) or _WROTE_FR.match(line):
        return 1
    if i + 1 < len(lines) and _WROTE_START.match(line) and _WROTE_END.match(lines[i + 1]) and len(line) < 200:
        return 2
    if _WROTE_SHORT.match(line):
        for nxt in lines[i + 1 : i + 3]:
            if nxt.strip():
                return 1 if _QUOTE.match(nxt) else 0
    return 0


def own_text(text: str) -> OwnText:
    """The player's own lines of ``text`` (the others left empty), and what was left out."""
    lines = _lines(text)
    keep = [True] * len(lines)
    dropped: list[Dropped] = []

    def drop(kind: str, first: int, last: int) -> None:
        for k in range(first, last + 1):
            keep[k] = False
        if dropped and dropped[-1].kind == kind and dropped[-1].last == first:
            dropped[-1] = Dropped(kind, dropped[-1].first, last + 1)
        else:
            dropped.append(Dropped(kind, first + 1, last + 1))

    i = 0
    n = len(lines)
    while i < n:
        line = lines[i]
        if line.rstrip("\r") in ("-- ", "--"):
            drop(SIGNATURE, i, n - 1)
            break
        if len(line) > MAX_LINE and not _QUOTE.match(line):  # (a quoted one is quoted: left out as such)
            drop(TOO_LONG, i, i)
            i += 1
            continue
        if _SEPARATOR.match(line) or _header_block(lines, i) or (_RULE.match(line) and _next_is_header(lines, i)):
            drop(COPY, i, n - 1)
            break
        if _QUOTE.match(line):
            drop(QUOTED, i, i)
            i += 1
            continue
        took = _wrote_at(lines, i)
        if took:
            drop(REPLY_HEADER, i, i + took - 1)
            i += took
            continue
        i += 1
    own = [line if k else "" for line, k in zip(lines, keep, strict=True)]
    return OwnText("\n".join(own) + ("\n" if own else ""), tuple(dropped), text)


def _next_is_header(lines: list[str], i: int) -> bool:
    for j in range(i + 1, min(i + 4, len(lines))):
        if lines[j].strip():
            return _header_block(lines, j)
    return False


# -- greetings and sign-offs ----------------------------------------------------------------


def ignore_chatter(own: OwnText, is_chatter: ChatterTest) -> OwnText:
    """``own`` with the lines before the first order-like line and after the last
    one left out when ``is_chatter`` says they are plainly not orders."""
    lines = _lines(own.text)
    marks = [bool(line.strip()) and is_chatter(line) for line in lines]
    meaningful = [k for k, line in enumerate(lines) if line.strip() and not marks[k]]
    if not meaningful:
        return own
    first, last = meaningful[0], meaningful[-1]
    chatter = [k for k in range(len(lines)) if marks[k] and (k < first or k > last)]
    if not chatter:
        return own
    out = list(lines)
    extra: list[Dropped] = []
    for k in chatter:
        out[k] = ""
        if extra and extra[-1].last == k:
            extra[-1] = Dropped(CHATTER, extra[-1].first, k + 1)
        else:
            extra.append(Dropped(CHATTER, k + 1, k + 1))
    ordered = tuple(sorted((*own.dropped, *extra), key=lambda d: d.first))
    return OwnText("\n".join(out) + ("\n" if out else ""), ordered, own.original)
