"""A gang (or a power) handed to a new player (``moonshine takeover GANG --email
ADDR``): the gang's addresses become the new player's alone, it gets a new
password (the old one no longer works), and the new player is mailed the
gang's history, every report so far. The password goes in a message of its
own, sent at once and never written to the outbox or to git; the history goes
through the outbox like any other mail."""

from __future__ import annotations

import functools
import json
import re
from datetime import UTC, datetime
from email.message import EmailMessage

import msgspec

from moonshine.errors import GameError
from moonshine.game.directory import (
    Game,
    GameConfig,
    Player,
    atomic_write_text,
    is_git_repo,
    player_language,
    save_config,
)
from moonshine.mail import outbox
from moonshine.mail.commands.press import private_log
from moonshine.mail.outbox import compose
from moonshine.mail.outbox.reports import REPORTS
from moonshine.mail.outbox.smtp import deliver_now
from moonshine.mail.passwords import check_new_password, edit_password_line, hash_password, new_passphrase
from moonshine.mail.settings import from_address, smtp_settings
from moonshine.render import mailwords


class Handover(msgspec.Struct, frozen=True):
    side: str
    email: str
    password: str  # shown to the game master only when it could not be mailed
    history: list[str]  # the turns whose reports the new player gets
    history_file: str  # the outbox file of the history message
    password_mailed: bool
    problem: str = ""


def _address(text: str) -> str:
    addr = text.strip()
    if not re.fullmatch(r"[^@\s<>,;]+@[^@\s<>,;]+\.[^@\s<>,;]+", addr):
        raise GameError(f"{text!r} is not an email address (expected e.g. ann@example.org)")
    return addr


def history(game: Game, side: str) -> list[tuple[str, str]]:
    """(turn, report text) of every turn reported so far, oldest first."""
    out = []
    for turn in game.turns():
        path = game.turn_dir(turn) / REPORTS / f"{side}.txt"
        if path.is_file():
            out.append((turn, path.read_text(encoding="utf-8")))
    return out


def takeover(game: Game, gang: str, email: str, *, name: str | None = None, send: bool = True) -> Handover:
    from moonshine.game.journal import transaction

    side = game.side_by_name(gang)
    if side is None:
        raise GameError(f"no {game.side_word} {gang!r} in this game ({game.side_word}s: {', '.join(game.sides())})")
    addr = _address(email)
    password = new_passphrase()
    check_new_password(password)
    cfg = game.config
    old = cfg.players.get(side, Player())
    player = msgspec.structs.replace(
        old, name=name if name is not None else old.name, email=[addr], password=hash_password(password)
    )
    want = msgspec.structs.replace(cfg, players={**cfg.players, side: player})
    turn = game.current_turn()
    now = datetime.now(UTC).replace(microsecond=0)
    name_eml, msg = history_mail(game, side, addr, player.name, now)
    past = history(game, side)
    lang = player_language(cfg, side)
    side_name = game.sides(lang)[side]
    with transaction(game.root, f"takeover {side}") as txn:
        only_password = msgspec.structs.replace(
            cfg, players={**cfg.players, side: msgspec.structs.replace(old, password=player.password)}
        )
        text = edit_password_line(game.config_path.read_text(encoding="utf-8"), side, only_password, game)
        if text is not None:
            text = _edit_line(text, side, "email", f"[{addr}]")
        if text is not None and name is not None and name != old.name:
            text = _edit_line(text, side, "name", json.dumps(name))
        if text is None or not _same(text, want, game):
            save_config(game, want)
        else:
            atomic_write_text(game.config_path, text)
        game.forget_config()
        outbox.write_outbox(game, turn, [outbox.Outgoing(name_eml, msg)])
        txn.commit(f"{side} handed to a new player", ["game.yaml", f"outbox/{turn}"], git=is_git_repo(game.root))
    mailed, problem = False, ""
    if send:
        mailed, problem = _mail_password(game, side_name, addr, password, turn, lang)
    return Handover(side, addr, password, [t for t, _ in past], name_eml, mailed, problem)


def history_mail(
    game: Game,
    side: str,
    addr: str,
    name: str,
    now: datetime,
    *,
    own_password: bool = False,
    note: str = "",
    language: str | None = None,
) -> tuple[str, EmailMessage]:
    """The mail that gives ``side``'s new player at ``addr`` the side's history: every
    report so far and its press (its file's name in the outbox, and the message), and
    the turn's deadline. ``own_password``: the player keeps the password they have (a
    judge for many games' player), none is mailed; ``note``: a paragraph more (how to
    send orders there); ``language``: the player's (else their side's)."""
    cfg = game.config
    turn = game.current_turn()
    past = history(game, side)
    lang = language or player_language(cfg, side)  # the side's language, if its player chose one, else the game's
    side_name = game.sides(lang)[side]
    stamp = now.strftime("%Y%m%dt%H%M%S")
    press_log = private_log(game.root, side)  # what it sent and received: the new player needs it too
    words = functools.partial(mailwords.text, lang)
    from moonshine.game.deadlines import next_deadline_line

    due = next_deadline_line(game, turn, side, lang)
    body = (
        f"{name or words('takeover.hello')},\n\n"
        + words(
            "takeover.body_own" if own_password else "takeover.body",
            side=side_name,
            title=cfg.title,
            turn=mailwords.subject_turn(lang, turn),
            reports=len(past),
            press=len(press_log),
        )
        + (f"\n\n{due}" if due else "")
        + (f"\n\n{note}" if note else "")
        + "\n\n"
        + ("\n\n".join(f"==== {t} ====\n\n{text.rstrip()}" for t, text in past) or words("takeover.no_report"))
        + f"\n\n==== {words('takeover.press')} ====\n\n"
        + ("\n\n".join(entry.rstrip() for entry in press_log) if press_log else words("takeover.no_press"))
        + "\n\n-- \n"
        + words("signature", title=cfg.title)
        + "\n"
    )
    msg = compose.text_message(
        sender=from_address(cfg),
        to=[addr],
        subject=words("takeover.subject", prefix=compose.subject_prefix(cfg), side=side_name),
        body=body,
        msg_id=compose.message_id(cfg, turn, "takeover", side, addr, stamp),
        date=now,
        reply_to=from_address(cfg),
    )
    return f"takeover-{side.lower()}-{stamp}.eml", msg


def _edit_line(text: str, side: str, key: str, value: str) -> str | None:
    """``players.SIDE.KEY`` set to ``value`` on its one line; None for another layout."""
    from moonshine import yamlio

    raw = yamlio.loads(text, "game.yaml")
    entry = (raw.get("players") or {}).get(side) if isinstance(raw, dict) else None
    if not isinstance(entry, yamlio.LineDict) or key not in entry:
        return None
    lines = text.splitlines(keepends=True)
    i = entry.line_of(key) - 1
    pattern = rf"^(\s*{key}:[ \t]*)(\[[^\]\n]*\]|'[^']*'|\"[^\"]*\"|[^#\s\[][^#\n]*?|)([ \t]+#.*)?(\r?\n)?$"
    m = re.match(pattern, lines[i])
    if m is None:
        return None
    lines[i] = f"{m.group(1).rstrip()} {value}{m.group(3) or ''}\n"
    if not m.group(2):  # a block list under the key: its items go
        indent = len(lines[i]) - len(lines[i].lstrip())
        while i + 1 < len(lines) and lines[i + 1].strip():
            nxt = lines[i + 1]
            deeper = len(nxt) - len(nxt.lstrip()) > indent
            item = len(nxt) - len(nxt.lstrip()) == indent and nxt.lstrip().startswith("- ")
            if not (deeper or item):
                break
            del lines[i + 1]
    return "".join(lines)


def _same(text: str, want: GameConfig, game: Game) -> bool:
    from moonshine.errors import MoonshineError
    from moonshine.game.directory import load_config_text, same_settings

    try:
        return same_settings(load_config_text(text, str(game.config_path)), want)
    except MoonshineError:
        return False


def _mail_password(game: Game, side_name: str, addr: str, password: str, turn: str, lang: str) -> tuple[bool, str]:
    """Send the password at once, in a message kept nowhere."""
    cfg = game.config
    try:
        settings = smtp_settings(cfg)
        smtp_password = settings.password()
    except GameError as exc:
        return False, str(exc)
    now = datetime.now(UTC).replace(microsecond=0)
    msg = compose.text_message(
        sender=from_address(cfg),
        to=[addr],
        subject=mailwords.text(lang, "password.subject", prefix=compose.subject_prefix(cfg), side=side_name),
        body=mailwords.text(lang, "password.body", side=side_name, title=cfg.title, password=password) + "\n",
        msg_id=compose.message_id(cfg, turn, "password", addr, now.isoformat()),
        date=now,
    )
    try:
        done = deliver_now(msg, [addr], settings, smtp_password)
    except GameError as exc:  # a login the server refused, a token command that failed
        return False, str(exc)
    if addr in done.delivered:
        return True, ""
    why = done.failed.get(addr) or done.unknown.get(addr) or "not delivered"
    return False, why
