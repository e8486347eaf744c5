"""A turn's reports and bulletin as messages (``report_messages``): one message per
side with players (its private report, text and HTML, its map and pictures inline,
its results as JSON attached), and the bulletin to every player, observer and the
game master at once, by Bcc. Subjects are written in each reader's language
(``moonshine.render.mailwords``); the reports themselves already are. A report
mailed again after the turn was adjudicated again is marked as a correction."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from datetime import UTC, datetime
from email.message import EmailMessage
from html import escape
from pathlib import Path

import msgspec

from moonshine.errors import GameError
from moonshine.game import results_json
from moonshine.game.directory import GAME_FILE, Game, GameConfig, player_language
from moonshine.game.ledger import outbox_dir, sent_versions
from moonshine.mail import observers
from moonshine.mail.outbox import Outgoing
from moonshine.mail.outbox.compose import cte, fix_boundaries, message_id, subject_prefix, text_message
from moonshine.mail.settings import from_address, game_master_addresses, player_addresses
from moonshine.render.mailwords import gives_deadline, subject_turn, text
from moonshine.text.catalogue import Catalogue, keyed


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


REPORTS = "reports"  # a turn's reports folder (moonshine.game.reports)
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
    language: str | None = None,
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
        reader = language or cfg.language  # the correction said in its reader's language
        mark, line = (keyed(reader, CORRECTED, f"mail.corrected.{k}") for k in ("mark", "line"))
        subject = f"{mark} {subject}"
        lines.insert(0, line)
    for line in reversed(lines):
        text = f"{line}\n\n{text}"
        body = re.search(r"<body[^>]*>", html)
        at = body.end() if body else 0
        html = f"{html[:at]}\n<p><strong>{escape(line)}</strong></p>\n{html[at:]}"
    msg = text_message(sender=from_address(cfg), to=to, bcc=bcc, subject=subject, body=text, msg_id=msg_id, date=date)
    html = mail_pictures(html, (files.map_name, *(name for name, _ in pictures)))
    msg.add_alternative(html, subtype="html", cte=cte(html))
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
    if results is not None:  # the turn's results for players' tools (moonshine.game.results_json)
        stem = f"moonshine-{turn}" + ("" if key == "bulletin" else f"-{key.lower()}")
        msg.add_attachment(results, maintype="application", subtype="json", filename=f"{stem}.json")
    fix_boundaries(msg, msg_id)
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
    for key in game.sides():  # gangs, or a classic game's powers
        to = player_addresses(cfg, key)
        if not to:
            warnings.append(f"{key}: no address in {GAME_FILE} (players.{key}.email): no report mailed")
            continue
        everyone.update(to)
        files = _read_reports(report_paths(game, turn, key), turn)
        own = player_language(cfg, key)  # the report is in its player's language, its side named so
        side = game.sides(own)[key]
        subject = text(own, "subject.report", prefix=subject_prefix(cfg), turn=subject_turn(own, turn), gang=side)
        name = f"report-{key.lower()}.eml"  # outbox names are lower case (a power is FRA)
        earlier = sent_versions(outbox_dir(game, turn), name)
        results = results_json.attachment(game, turn, key)
        lead = _next_deadline_line(game, nxt, key, own)
        msg = _report_message(
            cfg,
            turn,
            key,
            to=to,
            bcc=(),
            subject=subject,
            files=files,
            earlier=earlier,
            results=results,
            lead=lead,
            language=own,
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
            earlier=sent_versions(outbox_dir(game, turn), "bulletin.eml"),
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
    from moonshine.game.deadlines import next_deadline_line

    return next_deadline_line(game, nxt, side, language)
