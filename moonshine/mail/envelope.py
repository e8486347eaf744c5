"""A message taken apart before its text is read: its sender, the time it was received,
whether it is an automatic reply or a bounce, and the receiving server's verdict on a
forged sender (Authentication-Results)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import UTC, datetime, timedelta
from email.message import Message
from email.utils import getaddresses, parsedate_to_datetime

FUTURE_SLACK = timedelta(hours=1)  # a date later than this after the time of reading is not believed


# An address a mail server accepts: no space, quote, bracket or separator in the local
# part; a domain of labels, or an address literal in brackets.
_ADDRESS = re.compile(r"[^\s@<>()\[\]\\,;:\"]+@(?:[^\s@<>()\[\]\\,;:\"]+|\[[0-9A-Fa-f.:]+\])")


def find_line(pattern: re.Pattern[str], text: str) -> str | None:
    """What the first line matching ``pattern`` says, before the signature
    (``-- ``), after which the order reader reads nothing."""
    for line in split_lines(text):
        if line.rstrip() == "--":
            break
        m = pattern.match(line)
        if m:
            return m.group(1)
    return None


def split_lines(text: str) -> list[str]:
    """The text's lines, numbered from 1 as the order reader numbers them."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def orders_text(text: str, blank: Iterable[int] = ()) -> str:
    """The orders to save: the text as sent, with the lines numbered in ``blank``
    (the password lines) left empty so that line numbers stay those of the
    message; normalised line ends, trailing spaces removed, one final newline."""
    hide = set(blank)
    lines = [("" if n in hide else _tidy(line)) for n, line in enumerate(split_lines(text), 1)]
    return "\n".join(lines).rstrip("\n") + "\n"


def _tidy(line: str) -> str:
    """Trailing spaces go, except the one of the signature delimiter ``-- ``."""
    return line if line == "-- " else line.rstrip()


def header_text(msg: Message, name: str) -> str:
    """A header's text, or "" when it is missing or cannot be read."""
    try:
        value = msg.get(name)
    except Exception:  # a malformed header must not stop the referee
        return ""
    return " ".join(str(value).split()) if value is not None else ""


_QUOTED_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')


_COMMENT = re.compile(r"\((?:[^()\\]|\\.)*\)")


def sender_of(msg: Message) -> str:
    """The one address a mail server sees in the message's ``From:`` line, lower
    case, or "" when there is no such single address. Read from the header as
    sent, never decoded: an encoded word (``=?utf-8?...?=``) is a display name,
    never an address; an angle address (``<...>``) is the address even after an
    unquoted display name that looks like one (``valley@... <evil@...>``); two
    addresses, two ``From:`` lines or none give "". The inbox, ``status`` and
    the reply all use this address."""
    try:
        values = [str(v) for k, v in msg.raw_items() if k.lower() == "from"]
    except Exception:
        return ""
    if len(values) != 1:
        return ""
    raw = " ".join(_utf8(values[0]).split())
    bare = _COMMENT.sub(" ", _QUOTED_STRING.sub('""', raw))
    angles = re.findall(r"<([^<>]*)>", bare)
    if len(angles) > 1 or bare.count("<") != len(angles) or bare.count(">") != len(angles):
        return ""
    if angles:
        addr = angles[0]
    else:
        found = [a for _, a in getaddresses([raw]) if a]
        if len(found) != 1 or "," in bare:
            return ""
        addr = found[0]
    addr = ascii_domain(addr.strip().lower())
    usable = (
        _ADDRESS.fullmatch(addr) and addr.isascii() and addr.isprintable() and "=?" not in addr and "?=" not in addr
    )
    return addr if usable else ""


def _utf8(value: str) -> str:
    """A header as sent in UTF-8 (RFC 6532), which the mail library hands over with its
    bytes escaped: the text it holds, or the value as it was when it is no UTF-8."""
    try:
        return value.encode("utf-8", "surrogateescape").decode("utf-8")
    except UnicodeError:
        return value


def ascii_domain(address: str) -> str:
    """An address with an internationalised domain (``joe@bücher.example``) in the
    ASCII form every mail server takes (``joe@xn--bcher-kva.example``): the one
    address the judge keeps, compares and answers. An address it cannot write so (a
    local part in other letters than ASCII's, which only a server speaking SMTPUTF8
    takes) is returned as it is, and refused by ``sender_of``."""
    local, at, domain = address.rpartition("@")
    if not at or domain.isascii():
        return address
    try:
        return f"{local}@{domain.encode('idna').decode('ascii')}"
    except UnicodeError:
        return address


def as_utc(when: datetime) -> datetime:
    return when.replace(tzinfo=UTC) if when.tzinfo is None else when.astimezone(UTC)


def received_time(msg: Message) -> datetime | None:
    """When the message reached the game master's server (top ``Received:``
    line), else its ``Date:``; None when neither can be read."""
    return received_when(msg)[0]


def received_when(msg: Message) -> tuple[datetime | None, bool]:
    """``received_time``, and whether it comes from the game master's server (a
    ``Received:`` line) rather than the sender's own claim (``Date:``)."""
    try:
        received = msg.get_all("Received") or []
    except Exception:
        received = []
    candidates = [(str(received[0]).rpartition(";")[2], True)] if received else []
    candidates.append((header_text(msg, "Date"), False))
    for text, server in candidates:
        try:
            return as_utc(parsedate_to_datetime(text.strip())), server
        except Exception:  # unreadable, or out of range (year 9999 at -2359): not a usable time
            continue
    return None, False


# The subject lines of automatic replies and bounces as the common mail programs and
# servers write them, in English and French: a prefix ending in a colon, never a
# player's subject ("out of office" alone could be one).
_AUTOMATIC_SUBJECT = re.compile(
    r"^\s*(?:out\s+of\s+(?:the\s+)?office(?:\s+reply)?|automatic\s+reply|auto[- ]?reply|auto[- ]?response|"
    r"r[ée]ponse\s+automatique|absence\s+du\s+bureau|absent(?:e)?\s+du\s+bureau|"
    r"undeliverable|undelivered\s+mail(?:\s+returned\s+to\s+sender)?|delivery\s+status\s+notification"
    r"(?:\s*\(failure\))?|mail\s+delivery\s+failed|non\s+remis)\s*:",
    re.IGNORECASE,
)


# Headers that only automatic mail carries (RFC 3834's Auto-Submitted, and the vendors'
# own): any value but "no" marks the message as automatic.
_AUTOMATIC_HEADERS = ("Auto-Submitted", "X-Autoreply", "X-Autorespond", "X-Auto-Response-Suppress", "X-Autogenerated")


def is_automatic(msg: Message, sender: str) -> bool:
    """Bounces, automatic replies and list mail (RFC 3834 and the common vendor headers
    and subjects), never answered: answering them is how two robots mail each other
    for ever."""
    for name in _AUTOMATIC_HEADERS:
        value = header_text(msg, name).strip().lower()
        if value and value != "no":
            return True
    if header_text(msg, "Return-Path") == "<>" or msg.get_content_type() == "multipart/report":
        return True
    if _AUTOMATIC_SUBJECT.match(header_text(msg, "Subject")):
        return True
    local = sender.partition("@")[0]
    return local in ("mailer-daemon", "postmaster") or header_text(msg, "Precedence").lower() in (
        "bulk",
        "junk",
        "list",
    )


_COMMENT_PARENS = re.compile(r"\([^()]*\)")


def _results_of(value: str) -> tuple[str, list[tuple[str, str, dict[str, str]]]]:
    """An ``Authentication-Results:`` value (RFC 8601) as its authserv-id and its
    results: (method, result, properties such as ``header.from``), comments dropped."""
    text = " ".join(_COMMENT_PARENS.sub(" ", value).split())
    head, _, rest = text.partition(";")
    results = []
    for resinfo in rest.split(";"):
        words = resinfo.split()
        if not words or "=" not in words[0]:
            continue
        method, _, result = words[0].partition("=")
        props = {k.lower(): v.strip('"').lower() for k, _, v in (w.partition("=") for w in words[1:]) if v}
        results.append((method.split("/")[0].lower(), result.lower(), props))
    return (head.split()[0].lower() if head.split() else ""), results


def _aligned(domain: str, sender_domain: str) -> bool:
    """Whether a result's domain is the From domain's, or one of them is a subdomain of
    the other (DMARC's relaxed alignment, without the public suffix list)."""
    domain = domain.rpartition("@")[2].strip(".")
    return bool(domain) and (
        domain == sender_domain or sender_domain.endswith("." + domain) or domain.endswith("." + sender_domain)
    )


def forged_verdict(msg: Message, sender: str, authserv: str | None) -> str | None:
    """Why the trusted mail server (``inbox.authserv_id``) found the message forged for
    its ``From:`` domain, as it wrote it (``dmarc=fail``, ``spf=fail``, ``dkim=fail``),
    or None. Only the topmost ``Authentication-Results:`` of that server is read: one
    further down with its name came with the message and is the sender's word. DMARC
    decides when the server checked it; else an SPF failure of the envelope's domain,
    or a DKIM failure of the From domain with no signature of it that passed."""
    if authserv is None or "@" not in sender:
        return None
    domain = sender.rpartition("@")[2]
    try:
        values = [str(v) for k, v in msg.raw_items() if k.lower() == "authentication-results"]
    except Exception:
        return None
    for value in values:
        server, results = _results_of(value)
        if server != authserv:
            continue
        dmarc = [(res, p) for m, res, p in results if m == "dmarc" and _aligned(p.get("header.from", domain), domain)]
        if dmarc:
            return "dmarc=fail" if any(res == "fail" for res, _ in dmarc) else None
        if any(m == "spf" and res == "fail" and _aligned(p.get("smtp.mailfrom", ""), domain) for m, res, p in results):
            return "spf=fail"
        dkim = [(res, p.get("header.d") or p.get("header.i", "")) for m, res, p in results if m == "dkim"]
        if any(res == "fail" and _aligned(d, domain) for res, d in dkim) and not any(
            res == "pass" and _aligned(d, domain) for res, d in dkim
        ):
            return "dkim=fail"
        return None
    return None


def authenticated(msg: Message, sender: str, authserv: str | None) -> bool:
    """Whether the trusted mail server (``inbox.authserv_id``) vouches for the message's
    ``From:`` domain: its topmost ``Authentication-Results:`` says ``dmarc=pass`` for it,
    or, without a DMARC result, ``dkim=pass`` with a signature of that domain. A forger
    cannot earn it: the inbox reads such mail before the rest, so that forged guesses
    queued ahead of a player's own mail never hold it back."""
    if authserv is None or "@" not in sender:
        return False
    domain = sender.rpartition("@")[2]
    try:
        values = [str(v) for k, v in msg.raw_items() if k.lower() == "authentication-results"]
    except Exception:
        return False
    for value in values:
        server, results = _results_of(value)
        if server != authserv:
            continue
        dmarc = [res for m, res, p in results if m == "dmarc" and _aligned(p.get("header.from", domain), domain)]
        if dmarc:
            return all(res == "pass" for res in dmarc)
        return any(
            m == "dkim" and res == "pass" and _aligned(p.get("header.d") or p.get("header.i", ""), domain)
            for m, res, p in results
        )
    return False
