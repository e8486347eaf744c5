"""The lobby's commands about a player's own record: ``register NAME[, ZONE][,
LANGUAGE]`` (the password comes in a mail of its own, ``moonshine.host.passwords``),
``password NEW``, ``whois`` (``profile``)."""

from __future__ import annotations

import re

from moonshine.errors import MoonshineError
from moonshine.host.lobby.request import LobbyRequest, authenticate
from moonshine.host.registry import Dedication, RegisteredPlayer
from moonshine.mail.commands.grammar import ANYONE, PLAYER, Answer, Command, CommandLine, Refused
from moonshine.render.mailwords import Joined, phrase
from moonshine.text.catalogue import languages


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
    games = [f"{g.name} ({side})" if side else g.name for g, side in req.reg.games_of(player.id)]
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
    """A player's public record: name, registration, dedication, games (no address, no side)."""
    games = [g.name for g, _ in req.reg.games_of(player.id) if not g.private]
    head = phrase(
        "lobby.whois.public",
        name=player.name,
        registered=player.registered[:10],
        games=", ".join(games) or phrase("lobby.whois.none"),
    )
    return Joined((head, dedication(req.reg.dedication(player.id))), " ")


def dedication(d: Dedication) -> Joined:
    """``Dedication 80%: 8 turns ordered on time of 10 owed (1 resignation counted as a turn missed).``"""
    parts = [phrase("lobby.dedication", percent=d.percent, n=d.due + d.resigned, on_time=d.on_time)]
    if d.resigned:
        parts.append(phrase("lobby.dedication.resigned", n=d.resigned))
    if d.finished:
        parts.append(phrase("lobby.dedication.finished", n=d.finished))
    return Joined(tuple(parts), " ")


REGISTER = Command("register", {"en": ("register",), "fr": ("inscription", "inscrire")}, register, who=ANYONE)
PASSWORD = Command("password", {"en": ("password",), "fr": ("mot de passe", "motdepasse")}, password, who=PLAYER)
WHOIS = Command("whois", {"en": ("whois", "profile"), "fr": ("profil",)}, whois, who=PLAYER)
