"""Play by email, the sending side: the mail settings in ``game.yaml``, the
turn's report messages, the outbox (``outbox/TURN/*.eml``, files any mail
program opens) and their delivery by SMTP.

Settings, all optional until mail is sent::

    smtp:
      host: smtp.example.org
      port: 587                 # default: 587 starttls, 465 tls, 25 none
      security: starttls        # starttls | tls | none
      user: referee@example.org
      password_env: MOONSHINE_SMTP_PASSWORD   # the password is read from this variable
      from: "Moonshine referee <referee@example.org>"
      attempts: 3               # tries per message before giving up
      retry_delay: 2            # seconds before the second try, doubled after
    deadlines:
      spring-1924: "2024-03-01T18:00:00+00:00"
    inbox:
      max_message_bytes: 524288

Subjects are written in the game's language (``moonshine.render.mailwords``); the
reports themselves already are. Messages are written to the outbox first; sending delivers the files as they
are, and records each Message-ID and its recipients in ``outbox/TURN/sent.yaml``
so that sending again never delivers a message twice to the same address. A
recipient the server refused (5xx) is recorded as ``failed``; one it could not take
for a while (unreachable, a 4xx reply) as ``deferred``, with its next try.
"""

from __future__ import annotations

import asyncio
import hashlib
import os
import re
from collections.abc import Callable, Iterable, Sequence
from datetime import UTC, datetime, timedelta
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from email.utils import format_datetime, formataddr, getaddresses, parseaddr
from html import escape
from pathlib import Path
from typing import TYPE_CHECKING, Any

import msgspec

from moonshine.errors import GameError, StateError
from moonshine.game.directory import GAME_FILE, Game, GameConfig, atomic_write_text, player_language
from moonshine.game.directory import config_section as config_section
from moonshine.game.directory import deadline as deadline
from moonshine.game.directory import parse_deadline as parse_deadline
from moonshine.judge import observers, results_json

# dates and time left are written with the mail's words, in English by default
from moonshine.render.mailwords import describe_time_left as describe_time_left
from moonshine.render.mailwords import fmt_time as fmt_time
from moonshine.render.mailwords import gives_deadline, subject_turn, text
from moonshine.text.catalogue import Catalogue, keyed
from moonshine.variants.moonshine import state as state_mod

if TYPE_CHECKING:
    import aiosmtplib

DEFAULT_FROM = "Moonshine referee <referee@moonshine.invalid>"
SECURITIES = ("starttls", "tls", "none")
DEFAULT_PORTS = {"starttls": 587, "tls": 465, "none": 25}
DEFAULT_PASSWORD_ENV = "MOONSHINE_SMTP_PASSWORD"
DEFAULT_MAX_MESSAGE_BYTES = 512 * 1024
SENT_FILE = "sent.yaml"
# A delivery that failed for a while (the server unreachable, a 4xx reply) is tried
# again by later passes of the judge: first after RETRY_FIRST, each wait twice the one
# before, at most RETRY_MOST; after GIVE_UP since the first failure it has failed.
RETRY_FIRST = timedelta(minutes=2)
RETRY_MOST = timedelta(hours=1)
GIVE_UP = timedelta(days=2)
REPORTS = "reports"


# -- settings from game.yaml -------------------------------------------------------


class SmtpSettings(msgspec.Struct, frozen=True):
    host: str
    port: int
    security: str  # starttls | tls | none
    sender: str  # the From address, "Name <addr>" or "addr"
    user: str | None = None
    password_env: str | None = None
    timeout: float = 30.0
    attempts: int = 3
    retry_delay: float = 2.0

    @property
    def sender_address(self) -> str:
        return parseaddr(self.sender)[1]

    def password(self, environ: dict[str, str] | None = None) -> str | None:
        """The SMTP password, from the environment variable named in game.yaml."""
        if self.user is None:
            return None
        env = os.environ if environ is None else environ
        name = self.password_env or DEFAULT_PASSWORD_ENV
        value = env.get(name)
        if not value:
            raise GameError(
                f"the SMTP password for {self.user} is not set: put it in the environment variable {name} "
                f"(named by smtp.password_env in {GAME_FILE})"
            )
        return value


def _number(raw: dict[str, Any], section: str, key: str, default: float, *, minimum: float) -> float:
    value = raw.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int | float) or value < minimum:
        raise StateError(GAME_FILE, f"{section}.{key}", f"expected a number of at least {minimum}, found {value!r}")
    return float(value)


def _address_ok(text: str) -> bool:
    addr = parseaddr(text)[1]
    return bool(re.fullmatch(r"[^@\s<>]+@[^@\s<>]+", addr))


def from_address(cfg: GameConfig) -> str:
    """The referee's address: ``smtp.from``, or a placeholder for dry runs named after
    the game's variant ("Diplomacy referee" for a classic game)."""
    value = config_section(cfg, "smtp").get("from")
    if value is None:
        from moonshine import variants

        name = f"{variants.get(cfg.variant).title} referee" if variants.is_known(cfg.variant) else "Referee"
        return formataddr((name, parseaddr(DEFAULT_FROM)[1]))
    if not isinstance(value, str) or not _address_ok(value):
        raise StateError(
            GAME_FILE, "smtp.from", f"expected an address like 'Referee <ref@example.org>', found {value!r}"
        )
    return value


def game_master_addresses(cfg: GameConfig) -> list[str]:
    """The game master's addresses (``referee.email``), else the judge's own
    (``smtp.from``); empty when the game file names neither. Error mails, the game
    master's copies of press and the bulletin go there."""
    ref = config_section(cfg, "referee").get("email")
    items = [ref] if isinstance(ref, str) else list(ref or [])
    found = [a for _, a in getaddresses([str(x) for x in items]) if a]
    if not found:
        sender = config_section(cfg, "smtp").get("from")
        if isinstance(sender, str):
            found = [a for _, a in getaddresses([sender]) if a]
    return sorted(set(found))


LOOPBACK = ("localhost", "127.0.0.1", "::1")  # a server on this machine: nothing crosses a network


def smtp_settings(cfg: GameConfig) -> SmtpSettings:
    """The ``smtp:`` section, checked. Raises StateError naming the bad key."""
    raw = config_section(cfg, "smtp")
    if not raw:
        raise GameError(f"no smtp section in {GAME_FILE}: add one (host, port, security, user, password_env, from)")
    if "password" in raw:
        raise StateError(
            GAME_FILE,
            "smtp.password",
            "the password is never kept in the game file; put it in an environment variable and name it "
            f"with password_env (e.g. password_env: {DEFAULT_PASSWORD_ENV})",
        )
    host = raw.get("host")
    if not isinstance(host, str) or not host.strip():
        raise StateError(GAME_FILE, "smtp.host", "missing: the mail server's name")
    security = raw.get("security", "starttls")
    if security not in SECURITIES:
        raise StateError(GAME_FILE, "smtp.security", f"expected one of {', '.join(SECURITIES)}, found {security!r}")
    port = raw.get("port", DEFAULT_PORTS[security])
    if isinstance(port, bool) or not isinstance(port, int) or not 0 < port < 65536:
        raise StateError(GAME_FILE, "smtp.port", f"expected a port number, found {port!r}")
    if "from" not in raw:
        raise StateError(GAME_FILE, "smtp.from", "missing: the referee's address, e.g. 'Referee <ref@example.org>'")
    user = raw.get("user")
    if user is not None and (not isinstance(user, str) or not user):
        raise StateError(GAME_FILE, "smtp.user", f"expected the login name, found {user!r}")
    if security == "none" and user is not None and host.strip().lower() not in LOOPBACK:
        raise StateError(
            GAME_FILE,
            "smtp.security",
            f"none would send the login ({user}) and its password in clear to {host.strip()}: "
            "use starttls or tls (or no user, for a server that needs no login)",
        )
    password_env = raw.get("password_env")
    if password_env is not None and (not isinstance(password_env, str) or not password_env):
        raise StateError(
            GAME_FILE, "smtp.password_env", f"expected an environment variable's name, found {password_env!r}"
        )
    attempts = _number(raw, "smtp", "attempts", 3, minimum=1)
    if attempts != int(attempts) or attempts > 10:
        raise StateError(GAME_FILE, "smtp.attempts", f"expected a whole number from 1 to 10, found {attempts!r}")
    return SmtpSettings(
        host=host.strip(),
        port=port,
        security=security,
        sender=from_address(cfg),
        user=user,
        password_env=password_env,
        timeout=_number(raw, "smtp", "timeout", 30, minimum=1),
        attempts=int(attempts),
        retry_delay=_number(raw, "smtp", "retry_delay", 2, minimum=0),
    )


def max_message_bytes(cfg: GameConfig) -> int:
    """The largest incoming message read as orders (``inbox.max_message_bytes``)."""
    raw = config_section(cfg, "inbox")
    value = raw.get("max_message_bytes", DEFAULT_MAX_MESSAGE_BYTES)
    if isinstance(value, bool) or not isinstance(value, int) or value < 1024:
        raise StateError(GAME_FILE, "inbox.max_message_bytes", f"expected a number of bytes (>= 1024), found {value!r}")
    return value


def authserv_id(cfg: GameConfig) -> str | None:
    """The authserv-id of the mail server whose ``Authentication-Results:`` the judge
    trusts (``inbox.authserv_id``), or None: then no such header is read."""
    value = config_section(cfg, "inbox").get("authserv_id")
    return str(value).strip().lower() if value else None


def player_addresses(cfg: GameConfig, gang: str) -> list[str]:
    player = cfg.players.get(gang)
    return sorted({a.strip() for a in player.email if a.strip()}) if player else []


# -- building messages ---------------------------------------------------------------


def outbox_dir(game: Game, turn: str) -> Path:
    return game.root / "outbox" / game.turn_name(turn)


def mail_domain(cfg: GameConfig) -> str:
    addr = parseaddr(from_address(cfg))[1]
    return addr.rpartition("@")[2] or "moonshine.invalid"


def message_id(cfg: GameConfig, *parts: str, label: int = 3) -> str:
    """A Message-ID that depends only on the game and ``parts`` (turn, kind, ...);
    the first ``label`` parts show in it."""
    digest = hashlib.sha256("|".join((cfg.seed_sha256, cfg.title, *parts)).encode("utf-8")).hexdigest()[:20]
    label_text = ".".join(re.sub(r"[^A-Za-z0-9-]", "", p)[:24] for p in parts[:label])
    return f"<moonshine.{label_text}.{digest}@{mail_domain(cfg)}>"


def subject_prefix(cfg: GameConfig) -> str:
    return f"[{cfg.title}]"


def _cte(text: str) -> str:
    return "7bit" if text.isascii() and all(len(line) < 900 for line in text.splitlines()) else "quoted-printable"


def _fix_boundaries(msg: EmailMessage, seed: str) -> None:
    """Multipart boundaries are random by default; make them depend on ``seed``
    so that the same message is written as the same bytes."""
    for i, part in enumerate(msg.walk()):
        if part.is_multipart():
            part.set_boundary(f"==moonshine-{hashlib.sha256(f'{seed}|{i}'.encode()).hexdigest()[:24]}-{i}==")


# The outbox's messages are written, and read back to be sent, with their headers on
# one line up to RFC 5322's limit of 998 characters instead of folded at 78: Python's
# folding of a header with encoded words (a French subject, "printemps 1924 : ordres
# reçus") writes a space the reader sees twice on 3.12.5 and later and on 3.13 until
# the fix of CPython's gh-144156, and some providers refuse such headers.
POLICY = policy.default.clone(max_line_length=998)


def text_message(
    *,
    sender: str,
    to: Sequence[str],
    subject: str,
    body: str,
    msg_id: str,
    date: datetime,
    cc: Sequence[str] = (),
    bcc: Sequence[str] = (),
    reply_to: str | None = None,
    in_reply_to: str | None = None,
    references: str | None = None,
    auto: str = "auto-generated",
) -> EmailMessage:
    """A plain-text message with the headers the referee always sets."""
    msg = EmailMessage(policy=POLICY)
    msg["From"] = sender
    msg["To"] = ", ".join(to)
    if cc:
        msg["Cc"] = ", ".join(cc)
    if bcc:
        msg["Bcc"] = ", ".join(bcc)
    if reply_to:
        msg["Reply-To"] = reply_to
    msg["Subject"] = subject
    msg["Date"] = format_datetime(date.astimezone(UTC), usegmt=True)
    msg["Message-ID"] = msg_id
    if in_reply_to:
        msg["In-Reply-To"] = in_reply_to
        msg["References"] = references or in_reply_to
    msg["Auto-Submitted"] = auto
    msg.set_content(body, cte=_cte(body))
    return msg


def unseen(sender: str, recipients: Sequence[str]) -> tuple[list[str], list[str]]:
    """To: and Bcc: of one mail to ``recipients`` who must not see each other's
    addresses: the one recipient in To:, or the judge's own address (``sender``) in
    To: and every recipient in Bcc:, as the bulletin goes."""
    people = sorted(dict.fromkeys(recipients))
    return (people, []) if len(people) <= 1 else ([sender], people)


class Outgoing(msgspec.Struct, frozen=True):
    """A message to put in the outbox under ``name`` (a file name we chose)."""

    name: str
    message: EmailMessage


class ReportMail(msgspec.Struct, frozen=True):
    messages: list[Outgoing]
    warnings: list[str]


def report_paths(game: Game, turn: str, gang: str | None) -> list[Path]:
    """The report files one message needs: the gang's report (or the bulletin)
    as text and HTML, the map it shows (``map.png``, or ``map.fr.png`` in its
    reader's language) and the other pictures of the turn it shows (a gang's close-up,
    the map's legend: ``legend.png``, ``legend.fr.png``)."""
    base = game.turn_dir(turn) / REPORTS
    stem = gang if gang is not None else "bulletin"
    html = base / f"{stem}.html"
    try:
        shown = shown_pictures(html.read_text(encoding="utf-8")) if html.is_file() else []
    except (OSError, UnicodeDecodeError) as exc:
        raise GameError(f"cannot read {html}: {exc}") from None
    maps = [n for n in shown if n.startswith("map")] or ["map.png"]
    more = [base / n for n in shown if n.startswith(("closeup-", "legend."))]
    return [base / f"{stem}.txt", html, base / maps[0], *more]


def shown_pictures(html: str) -> list[str]:
    """The pictures beside it that a saved report shows (``<img src="map.png">``), in order."""
    return list(dict.fromkeys(re.findall(r'<img\b[^>]*\bsrc="([\w.-]+\.png)"', html)))


# the bulletin's charts, beside it (moonshine.game.reports.CHART_FILES, a classic game's families.classic.CENTRES_CHART)
CHARTS = ("vp.png", "price.png", "centres.png")


def mail_pictures(html: str, names: Sequence[str] = ("map.png",)) -> str:
    """A report's HTML as saved (showing the ``map.png`` beside it, and the bulletin
    its charts) made the mail's body: each picture becomes the attached one, ``cid:NAME``."""
    for name in names:
        html = html.replace(f'src="{name}"', f'src="cid:{name}"').replace(f'href="{name}"', f'href="cid:{name}"')
    # the SVG beside a picture, linked on the disk and on the site, is not in the mail
    return re.sub(r' ?<a href="[\w.-]+\.svg"[^>]*>[^<]*</a>', "", html)


def chart_pictures(game: Game, turn: str) -> list[tuple[str, bytes]]:
    """The bulletin's charts written beside it (none for a game whose reports have none)."""
    base = game.turn_dir(turn) / REPORTS
    out = []
    for name in CHARTS:
        path = base / name
        if path.is_file():
            try:
                out.append((name, path.read_bytes()))
            except OSError as exc:
                raise GameError(f"cannot read {path}: {exc}") from None
    return out


class ReportFiles(msgspec.Struct, frozen=True):
    """A report's files as one message carries them."""

    text: str
    html: str
    map_name: str  # map.png, map.fr.png
    png: bytes
    date: datetime
    pictures: tuple[tuple[str, bytes], ...] = ()  # the other pictures it shows (a close-up, the legend)


def _read_reports(paths: list[Path], turn: str) -> ReportFiles:
    for p in paths:
        if not p.is_file():
            raise GameError(f"{p}: missing; run 'moonshine report {turn}' first")
    try:
        text = paths[0].read_text(encoding="utf-8")
        html = paths[1].read_text(encoding="utf-8")
        png = paths[2].read_bytes()
        more = tuple((p.name, p.read_bytes()) for p in paths[3:])
    except (OSError, UnicodeDecodeError) as exc:
        raise GameError(f"cannot read the reports of {turn}: {exc}") from None
    stamp = max(int(p.stat().st_mtime) for p in paths)
    return ReportFiles(text, html, paths[2].name, png, datetime.fromtimestamp(stamp, UTC), more)


def _report_message(
    cfg: GameConfig,
    turn: str,
    key: str,
    *,
    to: Sequence[str],
    bcc: Sequence[str],
    subject: str,
    files: ReportFiles,
    earlier: Sequence[str] = (),
    results: bytes | None = None,
    pictures: Sequence[tuple[str, bytes]] = (),
    lead: str = "",
) -> EmailMessage:
    """``earlier``: Message-IDs of versions of this report already mailed; a
    different one is a correction, marked in its subject and first line.
    ``pictures``: more pictures the HTML shows (the bulletin's charts), attached.
    ``lead``: a line the mail opens with (the next turn's deadline), left out when the
    report says it already; the report's files, and so the message's identity, are
    the same without it."""
    text, html, png, date = files.text, files.html, files.png, files.date
    pictures = (*files.pictures, *pictures)
    parts = (text.encode("utf-8"), html.encode("utf-8"), png, *(data for _, data in pictures))
    content = hashlib.sha256(b"\0".join(parts)).hexdigest()
    msg_id = message_id(cfg, turn, key, content, label=2)  # a corrected report is a new message
    # the lead only when it says what the report does not: a report written at the
    # adjudication gives the deadline the schedule had set by then, or none
    lines = [lead] if lead and not gives_deadline(text, lead) else []
    if earlier and msg_id not in earlier:
        mark, line = (keyed(cfg.language, CORRECTED, f"mail.corrected.{k}") for k in ("mark", "line"))
        subject = f"{mark} {subject}"
        lines.insert(0, line)
    for line in reversed(lines):
        text = f"{line}\n\n{text}"
        body = re.search(r"<body[^>]*>", html)
        at = body.end() if body else 0
        html = f"{html[:at]}\n<p><strong>{escape(line)}</strong></p>\n{html[at:]}"
    msg = text_message(sender=from_address(cfg), to=to, bcc=bcc, subject=subject, body=text, msg_id=msg_id, date=date)
    html = mail_pictures(html, (files.map_name, *(name for name, _ in pictures)))
    msg.add_alternative(html, subtype="html", cte=_cte(html))
    # The pictures the HTML shows go with it in a multipart/related part, inline: a mail
    # program shows each once, in the page, not again as an attachment at the end.
    html_part = list(msg.iter_parts())[-1]
    assert isinstance(html_part, EmailMessage)
    shown = [(files.map_name, f"moonshine-{turn}.png", png)]
    shown += [(name, f"moonshine-{turn}-{name.removesuffix('.png')}.png", data) for name, data in pictures]
    for name, filename, data in shown:
        html_part.add_related(
            data, maintype="image", subtype="png", disposition="inline", filename=filename, cid=f"<{name}>"
        )
    if results is not None:  # the turn's results for players' tools (moonshine.judge.results_json)
        stem = f"moonshine-{turn}" + ("" if key == "bulletin" else f"-{key.lower()}")
        msg.add_attachment(results, maintype="application", subtype="json", filename=f"{stem}.json")
    _fix_boundaries(msg, msg_id)
    return msg


# A report mailed again after the turn was adjudicated again (rollback): subject mark, first line.
CORRECTED: Catalogue = {
    "mail.corrected.mark": "[corrected]",
    "mail.corrected.line": "CORRECTED: this report replaces the one mailed earlier for this turn.",
}


def report_messages(game: Game, turn: str) -> ReportMail:
    """One message per gang with players (its private report, text and HTML, and
    the map attached) and one bulletin sent to every player at once (by Bcc, so
    that players do not see each other's addresses). Raises GameError naming the
    first missing report file."""
    game.turn_key(turn)  # a turn (or a classic game's phase), else a GameError
    cfg = game.config
    lang = cfg.language
    out: list[Outgoing] = []
    warnings: list[str] = []
    everyone: set[str] = set()
    nxt = _turn_after(game, turn)
    for key, side in game.sides().items():  # gangs, or a classic game's powers
        to = player_addresses(cfg, key)
        if not to:
            warnings.append(f"{key}: no address in {GAME_FILE} (players.{key}.email): no report mailed")
            continue
        everyone.update(to)
        files = _read_reports(report_paths(game, turn, key), turn)
        own = player_language(cfg, key)  # the report is in its player's language
        subject = text(own, "subject.report", prefix=subject_prefix(cfg), turn=subject_turn(own, turn), gang=side)
        name = f"report-{key.lower()}.eml"  # outbox names are lower case (a power is FRA)
        earlier = sent_versions(game, turn, name)
        results = results_json.attachment(game, turn, key)
        lead = _next_deadline_line(game, nxt, key, own)
        msg = _report_message(
            cfg, turn, key, to=to, bcc=(), subject=subject, files=files, earlier=earlier, results=results, lead=lead
        )
        out.append(Outgoing(name, msg))
    files = _read_reports(report_paths(game, turn, None), turn)
    everyone.update(observers.addresses(cfg))  # observers get the bulletin, never a gang's report
    if everyone:
        everyone.update(game_master_addresses(cfg))  # and the game master a copy, as the players get it
    if everyone:
        subject = text(lang, "subject.bulletin", prefix=subject_prefix(cfg), turn=subject_turn(lang, turn))
        msg = _report_message(
            cfg,
            turn,
            "bulletin",
            to=[from_address(cfg)],
            bcc=sorted(everyone),
            subject=subject,
            files=files,
            earlier=sent_versions(game, turn, "bulletin.eml"),
            pictures=chart_pictures(game, turn),
            results=results_json.attachment(game, turn),
            lead=_next_deadline_line(game, nxt, None, lang),
        )
        out.append(Outgoing("bulletin.eml", msg))
    else:
        warnings.append("no player has an address: no bulletin mailed")
    return ReportMail(out, warnings)


def _turn_after(game: Game, turn: str) -> str | None:
    """The turn (or a classic game's phase) that follows ``turn`` in the game, if opened."""
    key = game.turn_key(turn)
    return next((t for t in game.turns() if game.turn_key(t) > key), None)  # turns() is in order


def _next_deadline_line(game: Game, nxt: str | None, side: str | None, language: str) -> str:
    from moonshine.judge.zones import next_deadline_line

    return next_deadline_line(game, nxt, side, language)


# -- the outbox -------------------------------------------------------------------


def smtp_bytes(msg: EmailMessage) -> bytes:
    """The message as the SMTP ``DATA`` carries it: CRLF line ends, no ``Bcc`` or
    ``Resent-Bcc`` header, and the headers unfolded up to 998 characters (``POLICY``)."""
    import copy
    import io
    from email.generator import BytesGenerator

    out = copy.copy(msg)
    del out["Bcc"]
    del out["Resent-Bcc"]
    with io.BytesIO() as buf:
        BytesGenerator(buf, policy=POLICY.clone(linesep="\r\n")).flatten(out)
        return buf.getvalue()


def serialise(msg: EmailMessage) -> str:
    return msg.as_string(policy=POLICY)


def write_outbox(game: Game, turn: str, items: Iterable[Outgoing]) -> list[Path]:
    """Write messages as ``outbox/TURN/NAME`` (atomically); returns the paths."""
    paths = []
    for item in items:
        if not re.fullmatch(r"[a-z0-9][a-z0-9._-]*\.eml", item.name):
            raise GameError(f"not an outbox file name: {item.name!r}")
        path = outbox_dir(game, turn) / item.name
        atomic_write_text(path, serialise(item.message))
        paths.append(path)
    return paths


def load_message(path: Path) -> EmailMessage:
    with path.open("rb") as fh:
        msg = BytesParser(policy=POLICY).parse(fh)
    assert isinstance(msg, EmailMessage)
    return msg


def recipients(msg: EmailMessage) -> list[str]:
    """Envelope recipients: every address in To, Cc and Bcc, once, in order."""
    found: list[str] = []
    for header in ("To", "Cc", "Bcc"):
        for _, addr in getaddresses([str(v) for v in msg.get_all(header, [])]):
            if addr and addr not in found:
                found.append(addr)
    return found


def load_sent(game: Game, turn: str) -> dict[str, dict[str, Any]]:
    out = _load_sent_raw(game, turn)
    for entry in out.values():
        # recipients a killed run was sending to: the server may have the message
        sending = entry.pop("sending", None) or []
        if sending:
            unknown = dict(entry.get("unknown") or {})
            for r in sending:
                if r not in (entry.get("delivered") or []):
                    unknown.setdefault(str(r), "the run sending it was interrupted after the message was sent")
            entry["unknown"] = dict(sorted(unknown.items()))
    return out


def _save_entry(game: Game, turn: str, msg_id: str, entry: dict[str, Any]) -> None:
    sent = _load_sent_raw(game, turn)
    sent[msg_id] = entry
    _save_sent(game, turn, sent)


def _load_sent_raw(game: Game, turn: str) -> dict[str, dict[str, Any]]:
    """``outbox/TURN/sent.yaml``, checked strictly (``moonshine.schema.SENT``)."""
    from moonshine import schema, yamlio

    path = outbox_dir(game, turn) / SENT_FILE
    if not path.is_file():
        return {}
    raw = yamlio.load(path, what="record of sent mail")
    if raw is None:
        return {}
    schema.check(raw, schema.SENT, str(path))
    return {str(k): dict(v) for k, v in raw.items()}


def _save_sent(game: Game, turn: str, sent: dict[str, dict[str, Any]]) -> None:
    path = outbox_dir(game, turn) / SENT_FILE
    text = "# Mail delivered for this turn, by Message-ID. Sending again skips these recipients.\n"
    atomic_write_text(path, text + state_mod.dump_yaml({k: sent[k] for k in sorted(sent)}))


def sent_versions(game: Game, turn: str, name: str) -> list[str]:
    """Message-IDs already sent (to someone) from the outbox file ``name``."""
    return sorted(k for k, v in load_sent(game, turn).items() if v.get("file") == name and v.get("delivered"))


def delivered_to(game: Game, turn: str, msg_id: str) -> list[str]:
    entry = load_sent(game, turn).get(msg_id, {})
    done = entry.get("delivered") or []
    return [str(a) for a in done] if isinstance(done, list) else []


def _iso(when: datetime) -> str:
    return when.astimezone(UTC).replace(microsecond=0).isoformat()


def _when(value: Any) -> datetime:
    when = value if isinstance(value, datetime) else datetime.fromisoformat(str(value))
    return when if when.tzinfo else when.replace(tzinfo=UTC)


class Deferral(msgspec.Struct, frozen=True):
    """A recipient not reached for a transient reason (``deferred`` in ``sent.yaml``):
    the last reason, the tries so far, the first failure and the next try."""

    reason: str
    tries: int
    first: datetime
    next: datetime

    def again(self, reason: str, now: datetime) -> Deferral:
        """One more failed try at ``now``: the wait doubles."""
        tries = self.tries + 1
        wait = min(RETRY_FIRST * 2 ** min(tries - 1, 20), RETRY_MOST)
        return Deferral(reason, tries, self.first, now + wait)

    def data(self) -> dict[str, Any]:
        return {"reason": self.reason, "tries": self.tries, "first": _iso(self.first), "next": _iso(self.next)}


def deferrals(entry: dict[str, Any]) -> dict[str, Deferral]:
    """The deferred recipients of one ``sent.yaml`` entry."""
    return {
        str(addr): Deferral(str(d["reason"]), int(d["tries"]), _when(d["first"]), _when(d["next"]))
        for addr, d in (entry.get("deferred") or {}).items()
    }


def interrupted(game: Game, turn: str) -> dict[str, dict[str, Any]]:
    """The entries of ``sent.yaml`` a killed run left while sending (``sending``), by
    Message-ID: each with its file and the recipients whose outcome is unknown."""
    return {k: v for k, v in _load_sent_raw(game, turn).items() if v.get("sending")}


def settle_interrupted(game: Game, turn: str) -> list[tuple[str, str, str]]:
    """Record the deliveries a killed run left at ``sending`` as of unknown outcome
    (never sent again by itself); returns (file, address, why) for each. The caller
    holds the game's lock."""
    sent = _load_sent_raw(game, turn)
    found = []
    for entry in sent.values():
        sending = entry.pop("sending", None) or []
        done = entry.get("delivered") or []
        unknown = dict(entry.get("unknown") or {})
        for r in sending:
            if r not in done:
                why = unknown.setdefault(str(r), "the run sending it was interrupted after the message was sent")
                found.append((str(entry.get("file")), str(r), why))
        if unknown:
            entry["unknown"] = dict(sorted(unknown.items()))
    if found:
        _save_sent(game, turn, sent)
    return found


# -- sending ---------------------------------------------------------------------


class SendResult(msgspec.Struct):
    name: str  # the outbox file
    message_id: str
    delivered: list[str] = msgspec.field(default_factory=list)  # this time
    already: list[str] = msgspec.field(default_factory=list)  # before
    failed: dict[str, str] = msgspec.field(default_factory=dict)  # address -> reason
    unknown: dict[str, str] = msgspec.field(default_factory=dict)  # this time: the server may have it
    unknown_before: list[str] = msgspec.field(default_factory=list)  # of unknown outcome before, not sent again
    deferred: dict[str, str] = msgspec.field(default_factory=dict)  # a transient failure: address -> next try (ISO)

    def line(self) -> str:
        parts = []
        if self.delivered:
            parts.append(f"{self.name}: sent to {', '.join(self.delivered)}")
        parts += [
            f"{self.name}: FAILED for {addr}: {why}"
            + (f"; a transient failure, tried again from {self.deferred[addr]}" if addr in self.deferred else "")
            for addr, why in sorted(self.failed.items())
        ]
        parts += [
            f"{self.name}: OUTCOME UNKNOWN for {addr}: {why}; not sent again"
            for addr, why in sorted(self.unknown.items())
        ]
        if self.unknown_before:
            parts.append(
                f"{self.name}: outcome unknown for {', '.join(self.unknown_before)} (an earlier run); not sent again "
                "(--resend-unknown sends it again, with the same Message-ID)"
            )
        if not parts:
            return f"{self.name}: already sent ({self.message_id}), not sent again"
        return "\n".join(parts)

    def transient(self) -> dict[str, str]:
        """The failures that later passes try again (address -> reason)."""
        return {a: why for a, why in self.failed.items() if a in self.deferred}

    def permanent(self) -> dict[str, str]:
        """The failures that are final: a refusal (5xx), or transient for too long."""
        return {a: why for a, why in self.failed.items() if a not in self.deferred}


class _Fatal(Exception):
    """A failure that no retry and no other message can get past (bad login, no TLS)."""


class _Attempt(msgspec.Struct):
    """What one delivery attempt left to do."""

    retry: list[str] = msgspec.field(default_factory=list)
    last: dict[str, str] = msgspec.field(default_factory=dict)  # transient reasons, for the final report
    failed: dict[str, str] = msgspec.field(default_factory=dict)  # permanent failures

    def refused(self, addr: str, code: int, text: str) -> None:
        why = f"{code} {text.strip()}"
        if 400 <= code < 500:  # try again later (RFC 5321: 4yz is transient)
            self.retry.append(addr)
            self.last[addr] = why
        else:
            self.failed[addr] = why


class _Delivery(msgspec.Struct):
    delivered: list[str] = msgspec.field(default_factory=list)
    failed: dict[str, str] = msgspec.field(default_factory=dict)
    unknown: dict[str, str] = msgspec.field(default_factory=dict)  # the server may have the message: never sent again
    transient: list[str] = msgspec.field(default_factory=list)  # of the failed: worth trying again later


class _Link:
    """One SMTP connection for a whole batch of messages: opened when the first message
    needs it, kept for the next, opened again after a failure broke it."""

    def __init__(self, settings: SmtpSettings, password: str | None) -> None:
        self.settings = settings
        self.password = password
        self.client: aiosmtplib.SMTP | None = None
        # why the server could not be reached for a whole message: the batch's later
        # messages are not tried (each would spend its attempts on the same outage)
        self.down: str | None = None

    async def ready(self) -> tuple[aiosmtplib.SMTP, bool]:
        """The connection, and whether it was open already (used for an earlier message)."""
        if self.client is not None and self.client.is_connected:
            return self.client, True
        import aiosmtplib

        s = self.settings
        client = aiosmtplib.SMTP(
            hostname=s.host,
            port=s.port,
            username=s.user,
            password=self.password,
            use_tls=s.security == "tls",
            start_tls=s.security == "starttls",
            timeout=s.timeout,
        )
        self.client = client
        await client.connect()
        return client, False

    def drop(self) -> None:
        """Forget a connection a failure broke (the next message opens another)."""
        if self.client is not None and self.client.is_connected:
            self.client.close()
        self.client = None

    async def reset(self) -> None:
        """End a transaction the server refused, so that the next message starts afresh."""
        import aiosmtplib

        if self.client is None or not self.client.is_connected:
            return
        try:
            await self.client.rset()
        except (aiosmtplib.SMTPException, OSError, TimeoutError):
            self.drop()

    async def close(self) -> None:
        import aiosmtplib

        if self.client is not None and self.client.is_connected:
            try:
                await self.client.quit()
            except (aiosmtplib.SMTPException, OSError, TimeoutError):
                self.client.close()
        self.client = None


async def _deliver(
    msg: EmailMessage,
    rcpts: list[str],
    link: _Link,
    before_data: Callable[[list[str]], None],
) -> _Delivery:
    """Deliver ``msg`` to ``rcpts`` over ``link``, at most once each: a failure before
    the message's data may have gone out is retried (``smtp.attempts``); once it may
    have, only the server's reply tells whether it has the message, and without one
    the outcome is unknown: recorded as such, never retried here.

    ``before_data`` is called with the accepted recipients just before the ``DATA``
    command, and that is what "sending" means in ``sent.yaml``: aiosmtplib's
    ``SMTP.data`` sends the command and, after the server's 354, the message, and
    nothing public tells the caller when the second part starts. So from the moment
    the recipients are accepted until the server's last reply, a run killed or a
    connection lost leaves them of unknown outcome, even when the server never got
    the data (a drop between ``DATA`` and its 354): a message is never delivered
    twice without that being recorded, at the price of sometimes naming as unknown
    one the server never had (``--resend-unknown`` sends it). A reply refusing the
    command or the data is an answer: the server does not have the message."""
    import aiosmtplib

    settings = link.settings
    out = _Delivery()
    if link.down is not None:
        out.failed = dict.fromkeys(rcpts, f"{link.down} (not tried again in this run)")
        out.transient = list(rcpts)
        return out
    payload = smtp_bytes(msg)
    pending = list(rcpts)
    state = _Attempt()
    attempt = 1
    fresh_tried = False
    unreachable: str | None = None  # the last attempt could not reach the server
    while True:
        state.retry = []
        unreachable = None
        accepted: list[str] = []
        data_may_be_out = False
        reused = False
        try:
            client, reused = await link.ready()
            await client.mail(settings.sender_address)
            for r in pending:
                try:
                    await client.rcpt(r)
                    accepted.append(r)
                except aiosmtplib.SMTPRecipientRefused as exc:
                    state.refused(r, exc.code, exc.message)
            if accepted:
                before_data(accepted)
                data_may_be_out = True
                await client.data(payload)
                out.delivered += accepted
            else:
                await link.reset()
        except aiosmtplib.SMTPAuthenticationError as exc:
            raise _Fatal(f"the server refused the login as {settings.user}: {exc.code} {exc.message}") from None
        except aiosmtplib.SMTPNotSupported as exc:
            raise _Fatal(f"{settings.host}:{settings.port} ({settings.security}): {exc}") from None
        except aiosmtplib.SMTPResponseException as exc:  # the server answered: it does not have the message
            for r in accepted or pending:
                state.refused(r, exc.code, exc.message)
            for r in pending:
                if r not in accepted and r not in state.retry and r not in state.failed:
                    state.retry.append(r)
            await link.reset()
        except (aiosmtplib.SMTPException, OSError, TimeoutError) as exc:
            link.drop()
            if reused and not data_may_be_out and not fresh_tried:
                # a connection kept from the previous message that the server has
                # meanwhile closed: a new one at once, without spending an attempt
                fresh_tried = True
                continue
            why = f"{exc or type(exc).__name__}"
            if data_may_be_out:
                for r in accepted:
                    out.unknown[r] = (
                        f"the connection to {settings.host}:{settings.port} ended after the message was sent ({why})"
                    )
                state.retry = [r for r in pending if r not in accepted and r not in state.failed]
            else:
                state.retry = [r for r in pending if r not in state.failed]
                unreachable = f"cannot reach {settings.host}:{settings.port}: {why}"
            state.last.update(dict.fromkeys(state.retry, f"cannot reach {settings.host}:{settings.port}: {why}"))
        pending = state.retry
        if not pending or attempt >= settings.attempts:
            break
        await asyncio.sleep(settings.retry_delay * 2 ** (attempt - 1))
        attempt += 1
    out.failed = dict(state.failed)
    for r in pending:
        out.failed[r] = f"{state.last.get(r, 'not delivered')} (gave up after {settings.attempts} attempts)"
        out.transient.append(r)
    if pending and unreachable is not None:
        link.down = unreachable
    return out


def deliver_now(msg: EmailMessage, rcpts: list[str], settings: SmtpSettings, password: str | None) -> _Delivery:
    """Deliver one message that is kept in no outbox (a password mailed to a new
    player) on a connection of its own."""

    async def once() -> _Delivery:
        link = _Link(settings, password)
        try:
            return await _deliver(msg, rcpts, link, lambda _: None)
        finally:
            await link.close()

    return asyncio.run(once())


class _Intent(msgspec.Struct, frozen=True):
    """Records, before a message's data goes out, that it is being sent to these
    recipients: a run killed then leaves them recorded as of unknown outcome."""

    game: Game
    turn: str
    msg_id: str
    name: str

    def __call__(self, rcpts: list[str]) -> None:
        entry = dict(_load_sent_raw(self.game, self.turn).get(self.msg_id, {}))
        entry["file"] = self.name
        entry["sending"] = sorted(set(entry.get("sending") or []) | set(rcpts))
        _save_entry(self.game, self.turn, self.msg_id, entry)


def send_files(
    game: Game,
    turn: str,
    names: Sequence[str],
    *,
    settings: SmtpSettings | None = None,
    environ: dict[str, str] | None = None,
    progress: Callable[[SendResult], None] | None = None,
    resend_unknown: bool = False,
    now: datetime | None = None,
) -> list[SendResult]:
    """Deliver outbox files of ``turn`` by SMTP, each to the recipients it has
    not reached yet; record deliveries in ``sent.yaml`` after each message.
    A delivery of unknown outcome (the connection ended after the message was
    sent) is recorded and not sent again unless ``resend_unknown`` (the same
    message, with the same Message-ID, so that mail programs merge the copies).
    A transient failure (the server unreachable, a 4xx reply) is recorded as
    ``deferred`` with the time of the next try; a refusal (5xx) as ``failed``.

    ``now``: the judge's pass, at that time: a deferred recipient is tried only
    once its next try is due, and one still failing ``GIVE_UP`` after its first
    failure has failed for good. Without it (the game master's own command) every
    recipient not reached is tried.
    Raises GameError at once for a failure no retry can mend (bad login)."""
    settings = settings or smtp_settings(game.config)
    password = settings.password(environ)
    return asyncio.run(_send_all(game, turn, names, settings, password, progress, resend_unknown, now))


async def _send_all(
    game: Game,
    turn: str,
    names: Sequence[str],
    settings: SmtpSettings,
    password: str | None,
    progress: Callable[[SendResult], None] | None,
    resend_unknown: bool = False,
    now: datetime | None = None,
) -> list[SendResult]:
    link = _Link(settings, password)  # one connection for the whole batch
    try:
        return await _send_each(game, turn, names, link, progress, resend_unknown, now)
    finally:
        await link.close()


async def _send_each(
    game: Game,
    turn: str,
    names: Sequence[str],
    link: _Link,
    progress: Callable[[SendResult], None] | None,
    resend_unknown: bool,
    now: datetime | None = None,
) -> list[SendResult]:
    results = []
    clock = now or datetime.now(UTC).replace(microsecond=0)
    for name in names:
        path = outbox_dir(game, turn) / name
        msg = load_message(path)
        msg_id = str(msg.get("Message-ID", "")).strip()
        if not msg_id:
            raise GameError(f"{path}: no Message-ID; write the message again")
        sent = load_sent(game, turn)
        entry = sent.get(msg_id, {})
        already = [str(a) for a in entry.get("delivered") or []]
        unknown = {str(k): str(v) for k, v in (entry.get("unknown") or {}).items()}
        skip = set(already) | (set() if resend_unknown else set(unknown))
        deferred = deferrals(entry)
        if now is not None:  # the judge's pass: the refused are done, the deferred wait for their time
            skip |= {str(a) for a in entry.get("failed") or {}}
            skip |= {a for a, d in deferred.items() if d.next > now}
        todo = [r for r in recipients(msg) if r not in skip]
        result = SendResult(name, msg_id, already=already)
        result.unknown_before = sorted(set(unknown) - set(todo))
        if todo:
            del msg["Bcc"]

            try:
                done = await _deliver(msg, todo, link, _Intent(game, turn, msg_id, name))
            except _Fatal as exc:
                raise GameError(f"{name}: not sent: {exc}") from None
            result.delivered, result.failed, result.unknown = done.delivered, done.failed, done.unknown
            entry = dict(_load_sent_raw(game, turn).get(msg_id, {}))
            entry.pop("sending", None)
            entry["file"] = name
            entry["delivered"] = sorted(set(already) | set(done.delivered))
            still = {k: v for k, v in unknown.items() if k not in done.delivered and k not in done.failed}
            still.update(done.unknown)
            entry["unknown"] = dict(sorted(still.items()))
            tried = set(done.delivered) | set(done.failed) | set(done.unknown)
            failed = {str(k): str(v) for k, v in (entry.get("failed") or {}).items() if k not in tried}
            later = {a: d for a, d in deferred.items() if a not in tried}
            for addr in done.transient:
                d = deferred.get(addr, Deferral(done.failed[addr], 0, clock, clock)).again(done.failed[addr], clock)
                if now is not None and clock - d.first >= GIVE_UP:
                    why = f"not delivered since {_iso(d.first)}, given up: {d.reason}"
                    result.failed[addr] = failed[addr] = why
                else:
                    later[addr] = d
                    result.deferred[addr] = _iso(d.next)
            failed.update({a: why for a, why in done.failed.items() if a not in done.transient})
            entry["failed"] = dict(sorted(failed.items()))
            entry["deferred"] = {a: later[a].data() for a in sorted(later)}
            for key in ("unknown", "failed", "deferred"):
                if not entry[key]:
                    del entry[key]
            _save_entry(game, turn, msg_id, entry)
        results.append(result)
        if progress:
            progress(result)
    return results
