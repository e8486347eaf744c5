"""The one place that masks passwords in anything the referee writes.

A password is never written to a report, a result, an outbox message, a log or a
commit. Two things are masked:

- the value of every password line (``password:``, ``passwd:``, ``pass:``,
  ``mot de passe :``, ``mdp:``, quoted or not): ``password: ********``;
- any password the referee knows of in a text (a password a message gave, which
  a player may also have put in the subject line).

An access token (XOAUTH2's, ``moonshine.mail.oauth``) is never written either: a
token command's complaint or a mail server's refusal quoted in an error is masked
first (``mask_tokens``).

``blank_password_lines`` empties the password lines of orders saved from mail,
so that the saved file keeps the message's line numbers."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from pathlib import Path

from moonshine.game.orderfile import decode_lenient

MASK = "********"
MIN_SECRET = 4  # shorter strings are not searched for: they would mask ordinary words

# The value runs to its last character that is no space or tab, taken run by run; possessive
# runs (*+, ++) are never given back, so a line costs one pass ("[^\r\n]*?[ \t]*$" cost one per
# character of a line of blanks).
_PASSWORD_LINE = re.compile(
    r"(?P<lead>^[ \t>]*+(?:password|passwd|pass|mot de passe|mdp)[ \t\u00a0\u202f]*+:[ \t\u00a0\u202f]*+)"
    r"(?P<value>(?:[^\r\n \t]++|[ \t]++(?=[^\r\n \t]))*+)(?P<tail>[ \t]*+)$",
    re.IGNORECASE | re.MULTILINE,
)
_INLINE = re.compile(
    r"(?P<lead>\b(?:password|passwd|mot de passe|mdp)[ \t\u00a0\u202f]*[:=][ \t\u00a0\u202f]*)(?P<value>\S+)",
    re.IGNORECASE,
)


def password_values(text: str) -> list[str]:
    """What the password lines of ``text`` say (quoted ones too)."""
    return [m.group("value").strip() for m in _PASSWORD_LINE.finditer(text) if m.group("value").strip()]


def mask_password_lines(text: str) -> str:
    """``text`` with the value of every password line replaced by the mask."""
    return _PASSWORD_LINE.sub(lambda m: m.group("lead") + (MASK if m.group("value") else "") + m.group("tail"), text)


def blank_password_lines(text: str) -> str:
    """``text`` with every password line emptied (line numbers kept)."""
    return _PASSWORD_LINE.sub("", text)


def mask(text: str, secrets: Iterable[str] = ()) -> str:
    """``text`` with password lines masked, ``password: x`` inside a line (a
    subject) masked, and every known secret masked wherever it appears."""
    out = mask_password_lines(text)
    out = _INLINE.sub(lambda m: m.group("lead") + MASK, out)
    return mask_secrets(out, secrets)


def mask_secrets(text: str, secrets: Iterable[str]) -> str:
    """``text`` with every known secret masked wherever it appears (for texts the
    referee wrote itself, whose own password lines are examples)."""
    for secret in sorted({s for s in secrets if len(s) >= MIN_SECRET}, key=len, reverse=True):
        text = text.replace(secret, MASK)
    return text


def mask_tokens(text: str, tokens: Iterable[str] = ()) -> str:
    """``text`` that may quote an access token (what a token command wrote on its
    error output, a mail server's refusal) with every token the judge knows masked,
    and anything that looks like one: a run of 32 or more characters of base64 or
    base64url (a JWT's dots too) mixing capitals, small letters and digits. A path
    or a sentence is left as it is."""
    return _TOKEN_LIKE.sub(lambda m: MASK if _mixed(m.group()) else m.group(), mask_secrets(text, tokens))


_TOKEN_LIKE = re.compile(r"[A-Za-z0-9._~+/=-]{32,}")


def _mixed(run: str) -> bool:
    return any(c.isupper() for c in run) and any(c.islower() for c in run) and any(c.isdigit() for c in run)


def has_secret(text: str, secrets: Iterable[str]) -> bool:
    """Whether ``text`` would show a password: a password line with a value, or a
    known secret."""
    return mask(text, secrets) != text


def terminal_safe(text: str) -> str:
    """``text`` for the game master's terminal: escape sequences, bidirectional
    controls and other invisible characters a player may have written are shown
    escaped (``\\x1b``, ``\\u202e``); line breaks, tabs and the no-break spaces of French
    typography (U+00A0, U+202F) stay."""
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() or ch in _SHOWN else ascii(ch)[1:-1] for ch in text)


_SHOWN = frozenset("\n\t\u00a0\u202f")  # not printable to Python, yet harmless on a terminal


def mask_files(paths: Iterable[Path], write: Callable[[Path, str], None]) -> list[Path]:
    """Mask the password lines of text files in place (orders files a game master
    placed by hand): the files changed, written with ``write`` (an atomic write)."""
    changed: list[Path] = []
    for path in paths:
        try:
            data = path.read_bytes()
        except OSError:
            continue
        text = decode_lenient(data)  # as every orders file is read (moonshine.game.orderfile)
        masked = mask_password_lines(text)
        if masked != text:
            write(path, masked)
            changed.append(path)
    return changed
