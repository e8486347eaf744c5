"""The lobby's commands about a player's own record: ``register NAME[, ZONE][,
LANGUAGE]`` (the password comes in a mail of its own, ``moonshine.host.passwords``),
``password NEW``, ``whois`` (``profile``), ``address NEW`` and ``confirm CODE``.

A change of address is asked from the present address, with the password; the judge
mails a code to the new address, and the change is made when that address sends it
back (``confirm CODE``) within a week: an address that does not receive mail, or is
not the player's, never becomes theirs. The former address is told, and kept in the
registry's history."""

from __future__ import annotations

import hashlib
import re
import secrets
from datetime import timedelta

from moonshine.errors import MoonshineError
from moonshine.host.lobby.request import LobbyRequest, authenticate, games_on_record
from moonshine.host.registry import Dedication, RegisteredPlayer
from moonshine.mail.commands.grammar import ANYONE, PLAYER, Answer, Command, CommandLine, Refused
from moonshine.mail.outbox import compose
from moonshine.mail.passwords import MAX_WRONG_PASSWORDS
from moonshine.mail.settings import from_address
from moonshine.render.mailwords import Joined, phrase
from moonshine.render.mailwords import text_or_english as words
from moonshine.text.catalogue import languages

ADDRESS = re.compile(r"[^@\s<>,;:\"'()\[\]]{1,64}@[a-z0-9-]{1,63}(?:\.[a-z0-9-]{1,63}){1,8}")
CODE_LETTERS = "abcdefghjkmnpqrstuvwxyz23456789"  # no 0/o, 1/l/i to misread
CODE_LAPSES = timedelta(days=7)


def register(req: LobbyRequest, cmd: CommandLine) -> Answer:
    from zoneinfo import ZoneInfo

    ctx = req.ctx
    if req.player is not None:
        raise Refused(phrase("lobby.register.already", address=req.player.address, name=req.player.name))
    if ctx.reg.requests(req.mail.sender, ctx.day, "register") >= ctx.settings.limits.registrations:
        raise Refused(phrase("lobby.register.limit"))
    ctx.reg.count_request(req.mail.sender, ctx.day, "register")
    parts = [p.strip() for p in cmd.args.split(",")]
    name = " ".join(parts[0].split())[:60] if parts else ""
    if not name or not any(ch.isalpha() for ch in name):
        raise Refused(phrase("lobby.register.no_name"))
    if any(ctx.reg.is_master(p.id) or p.address in ctx.settings.masters for p in ctx.reg.players_named(name)):
        raise Refused(phrase("lobby.register.master_name", name=name))
    zone: str | None = None
    language = req.language
    for part in parts[1:]:
        if not part:
            continue
        if re.fullmatch(r"[a-z]{2}", part.lower()):
            if part.lower() not in languages():
                raise Refused(
                    phrase("lobby.register.bad_language", language=part[:10], languages=", ".join(languages()))
                )
            language = part.lower()
            continue
        try:
            ZoneInfo(part)
        except (ValueError, KeyError, OSError):
            raise Refused(phrase("lobby.register.bad_zone", zone=part[:40])) from None
        zone = part
    player = ctx.reg.register(req.mail.sender, name, timezone=zone, language=language, now=ctx.now, password_hash=None)
    req.player = player
    req.language = language
    return Answer(cmd, True, phrase("lobby.register.done", name=name, address=player.address))


def password(req: LobbyRequest, cmd: CommandLine) -> Answer:
    from moonshine.mail.passwords import check_new_password, hash_password

    player = authenticate(req)
    new = cmd.args.strip()
    try:
        check_new_password(new)
    except MoonshineError:
        raise Refused(phrase("lobby.password.weak")) from None
    req.reg.set_password(player.id, hash_password(new), mailed=True)
    return Answer(cmd, True, phrase("lobby.password.done"))


def address(req: LobbyRequest, cmd: CommandLine) -> Answer:
    """``address NEW``: a code mailed to the new address, which the change waits for."""
    from moonshine.mail.passwords import hash_password

    player = authenticate(req)
    ctx = req.ctx
    new = cmd.args.strip().strip("<>").lower()
    if not ADDRESS.fullmatch(new):
        raise Refused(phrase("lobby.address.usage"))
    if new == player.address:
        raise Refused(phrase("lobby.address.same", address=new))
    if ctx.reg.player(new) is not None:
        raise Refused(phrase("lobby.address.taken", address=new))
    if ctx.reg.requests(player.address, ctx.day, "address") >= ctx.settings.limits.registrations:
        raise Refused(phrase("lobby.address.limit"))
    ctx.reg.count_request(player.address, ctx.day, "address")
    code = "-".join("".join(secrets.choice(CODE_LETTERS) for _ in range(4)) for _ in range(3))
    ctx.reg.ask_address(player.id, new, hash_password(code), ctx.now)
    cfg = ctx.settings.config
    lang = player.language if player.language in languages() else "en"
    lapses = req.moment(ctx.now + CODE_LAPSES)
    ident = f"{player.id}|{new}|{req.mail.digest}"
    msg = compose.text_message(
        sender=from_address(cfg),
        to=[new],
        subject=words(lang, "lobby.address.subject", prefix=compose.subject_prefix(cfg)),
        body=words(
            lang,
            "lobby.address.body",
            name=player.name,
            title=cfg.title,
            old=player.address,
            address=new,
            code=code,
            lapses=lapses,
        )
        + "\n",
        msg_id=compose.message_id(cfg, "lobby", "address", ident),
        date=ctx.now,
        reply_to=from_address(cfg),
    )
    req.notices.append((f"address-{hashlib.sha256(ident.encode()).hexdigest()[:16]}.eml", msg))
    return Answer(cmd, True, phrase("lobby.address.asked", address=new, old=player.address, lapses=lapses))


def confirm(req: LobbyRequest, cmd: CommandLine) -> Answer:
    """``confirm CODE``, from the new address: the change of address it confirms is
    made, and the former address told. A wrong code counts as a wrong password."""
    from moonshine.mail.passwords import verify_password

    ctx = req.ctx
    sender = req.mail.sender.lower()
    code = cmd.args.strip().lower()
    if not code:
        raise Refused(phrase("lobby.confirm.usage"))
    if ctx.wrong[sender] >= MAX_WRONG_PASSWORDS:
        raise Refused(phrase("lobby.confirm.wrong", address=sender))
    asked = ctx.reg.address_changes_to(sender, ctx.now - CODE_LAPSES)
    found = next((pid for pid, stored in asked if verify_password(code, stored)), None)
    if found is None or ctx.reg.player(sender) is not None:
        ctx.wrong[sender] += 1
        raise Refused(phrase("lobby.confirm.wrong", address=sender))
    before = ctx.reg.player_by_id(found)
    assert before is not None
    player = ctx.reg.change_address(found, sender, ctx.now)
    req.player, req.authenticated = player, True
    req.language = player.language if player.language in languages() else req.language
    cfg = ctx.settings.config
    lang = req.language
    ident = f"{player.id}|{before.address}|{req.mail.digest}"
    msg = compose.text_message(
        sender=from_address(cfg),
        to=[before.address],
        subject=words(lang, "lobby.address.changed.subject", prefix=compose.subject_prefix(cfg)),
        body=words(
            lang,
            "lobby.address.changed.body",
            name=player.name,
            title=cfg.title,
            old=before.address,
            address=player.address,
            when=req.moment(ctx.now),
        )
        + "\n",
        msg_id=compose.message_id(cfg, "lobby", "address-changed", ident),
        date=ctx.now,
        reply_to=from_address(cfg),
    )
    req.notices.append((f"address-changed-{hashlib.sha256(ident.encode()).hexdigest()[:16]}.eml", msg))
    return Answer(cmd, True, phrase("lobby.confirm.done", address=player.address, old=before.address))


def whois(req: LobbyRequest, cmd: CommandLine) -> Answer:
    """``whois``: one's own record; ``whois NAME``: the public record of the players
    of that name (their name, dedication and games; never their address)."""
    player = authenticate(req)
    name = " ".join(cmd.args.split())
    if name:
        found = req.reg.players_named(name)
        if not found:
            raise Refused(phrase("lobby.whois.nobody", name=name[:60]))
        return Answer(cmd, True, Joined(tuple(_public(req, p) for p in found[:5])))
    d = req.reg.dedication(player.id)
    games = [f"{g.name} ({side})" if side else g.name for g, side in games_on_record(req, player)]
    own = phrase(
        "lobby.whois",
        name=player.name,
        address=player.address,
        zone=player.timezone or req.ctx.settings.timezone,
        language=player.language,
        registered=player.registered[:10],
        games=", ".join(games) or phrase("lobby.whois.none"),
    )
    return Answer(cmd, True, Joined((own, dedication(d)), " "))


def _public(req: LobbyRequest, player: RegisteredPlayer) -> Joined:
    """A player's public record: name, registration, dedication, games (no address, no
    side; no private game, nor an anonymous game whose players are not named to the
    reader: ``games_on_record``)."""
    games = [g.name for g, _ in games_on_record(req, player) if not g.private]
    head = phrase(
        "lobby.whois.public",
        name=player.name,
        registered=player.registered[:10],
        games=", ".join(games) or phrase("lobby.whois.none"),
    )
    return Joined((head, dedication(req.reg.dedication(player.id))), " ")


def dedication(d: Dedication) -> Joined:
    """``Dedication 80%: 8 of 10 turns ordered on time. Among them, 1 resignation or
    ejection, counted as a turn missed.`` (and the sides left in civil disorder, each a
    turn missed more)."""
    parts = [phrase("lobby.dedication", percent=d.percent, n=d.due + d.resigned + d.disorder, on_time=d.on_time)]
    if d.resigned:
        parts.append(phrase("lobby.dedication.resigned", n=d.resigned))
    if d.disorder:
        parts.append(phrase("lobby.dedication.disorder", n=d.disorder))
    if d.finished:
        parts.append(phrase("lobby.dedication.finished", n=d.finished))
    return Joined(tuple(parts), " ")


REGISTER = Command("register", {"en": ("register",), "fr": ("inscription", "inscrire")}, register, who=ANYONE)
PASSWORD = Command("password", {"en": ("password",), "fr": ("mot de passe", "motdepasse")}, password, who=PLAYER)
WHOIS = Command("whois", {"en": ("whois", "profile"), "fr": ("profil",)}, whois, who=PLAYER)
ADDRESS_CHANGE = Command("address", {"en": ("address",), "fr": ("adresse",)}, address, who=PLAYER)
CONFIRM = Command("confirm", {"en": ("confirm",), "fr": ("confirmer",)}, confirm, who=ANYONE)
