"""The lobby's commands about a player's own record: ``register NAME[, ZONE][,
LANGUAGE]`` (the password comes in a mail of its own, ``moonshine.host.passwords``;
its first use confirms the registration), ``password NEW``, ``whois`` (``profile``),
``rename NAME``, ``address NEW`` then ``confirm CODE`` from the new address, and
``forgot`` then ``reset CODE`` for a player who lost their password.

An address proves it is a player's by bringing back what the judge mailed to it only:
the password (a registration), a code (a new address, a reset). A registration never
confirmed is forgotten after ``limits.unconfirmed_days``. Names are checked
(``check_name``): a stranger's name is mailed back to the address it gave, so it is
short, made of letters, and no link, and never a master's or another player's.

A change of address is asked from the present address, with the password; the judge
mails a code to the new address, and the change is made when that address sends it
back (``confirm CODE``) within a week: an address that does not receive mail, or is
not the player's, never becomes theirs. The former address is told, and kept in the
registry's history."""

from __future__ import annotations

import hashlib
import re
import secrets
import unicodedata
from datetime import timedelta
from email.message import EmailMessage

from moonshine.errors import MoonshineError
from moonshine.host.lobby.request import LobbyRequest, authenticate, games_on_record
from moonshine.host.registry import Dedication, RegisteredPlayer
from moonshine.mail.commands.grammar import ANYONE, PLAYER, Answer, Command, CommandLine, Refused
from moonshine.mail.envelope import ascii_domain
from moonshine.mail.outbox import compose
from moonshine.mail.passwords import MAX_WRONG_PASSWORDS
from moonshine.mail.settings import from_address
from moonshine.render.mailwords import Joined, phrase
from moonshine.render.mailwords import text_or_english as words
from moonshine.text.catalogue import languages
from moonshine.text.folding import fold

NAME_LENGTH = (2, 30)
# A name: letters of any alphabet and their accents, digits, spaces, hyphens, apostrophes,
# and a full stop that ends a word ("J. R. Smith"); never a link, an address, a domain.
_NAME = re.compile(r"(?:[^\W_]|[ '’-]|\.(?= |$))+")
CODE_DAYS = 2  # a code mailed to an address is good for this many days
ADDRESS = re.compile(r"[^@\s<>,;:\"'()\[\]]{1,64}@[a-z0-9-]{1,63}(?:\.[a-z0-9-]{1,63}){1,8}")
CODE_LETTERS = "abcdefghjkmnpqrstuvwxyz23456789"  # no 0/o, 1/l/i to misread
CODE_LAPSES = timedelta(days=7)  # a change of address waits this long for its code
_ZONE_LIKE = re.compile(r"[A-Za-z][A-Za-z0-9_+-]{0,30}(?:/[A-Za-z0-9_+-]{1,30}){0,2}")


def check_name(req: LobbyRequest, name: str, *, but: int | None = None) -> str:
    """``name`` as the registry keeps it (NFC, single spaces), or ``Refused`` saying
    why not: 2 to 30 characters, letters first, nothing but letters, digits, spaces,
    hyphens, apostrophes and a full stop ending a word, and no other player's (or
    master's) name, whatever its case, accents and spacing (``but``: the player
    renaming)."""
    name = " ".join(unicodedata.normalize("NFC", name).split())
    low, high = NAME_LENGTH
    if not low <= len(name) <= high or not name[0].isalpha() or not _NAME.fullmatch(name):
        raise Refused(phrase("lobby.name.bad", low=low, high=high))
    others = [p for p in req.reg.players_named_alike(folded_name(name), folded_name) if p.id != but]
    if any(req.reg.is_master(p.id) or p.address in req.ctx.settings.masters for p in others):
        raise Refused(phrase("lobby.register.master_name", name=name))
    if others:
        raise Refused(phrase("lobby.name.taken", name=name))
    return name


def folded_name(name: str) -> str:
    """A name as names are compared: case, accents, spaces and punctuation aside."""
    return "".join(ch for ch in fold(name) if ch.isalnum())


def register(req: LobbyRequest, cmd: CommandLine) -> Answer:
    from zoneinfo import ZoneInfo

    ctx = req.ctx
    if req.player is not None:
        raise Refused(phrase("lobby.register.already", address=req.player.address, name=req.player.name))
    if ctx.reg.requests(req.mail.sender, ctx.day, "register") >= ctx.settings.limits.registrations:
        raise Refused(phrase("lobby.register.limit"))
    ctx.reg.count_request(req.mail.sender, ctx.day, "register")
    parts = [p.strip() for p in cmd.args.split(",")]
    if not parts or not any(ch.isalpha() for ch in parts[0]):
        raise Refused(phrase("lobby.register.no_name"))
    name = check_name(req, parts[0])
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
            zone_written = (
                part if re.fullmatch(r"[A-Za-z][A-Za-z0-9_+-]{0,30}(?:/[A-Za-z0-9_+-]{1,30}){0,2}", part) else "?"
            )
            raise Refused(phrase("lobby.register.bad_zone", zone=zone_written[:40])) from None
        zone = part
    if not ctx.budget.allow(req.mail.sender):  # the password's own mail
        raise Refused(phrase("lobby.register.limit"))
    player = ctx.reg.register(req.mail.sender, name, timezone=zone, language=language, now=ctx.now, password_hash=None)
    req.player = player
    req.language = language
    days = ctx.settings.limits.unconfirmed_days
    return Answer(cmd, True, phrase("lobby.register.done", name=name, address=player.address, days=days))


# Passwords a player would choose that a guesser tries first: the words, keyboard rows and
# runs that make up most of the lists of leaked passwords (with digits, case and signs aside).
COMMON = frozenset(
    [
        "password",
        "passwd",
        "motdepasse",
        "secret",
        "qwerty",
        "azerty",
        "qwertz",
        "asdf",
        "asdfgh",
        "asdfghjkl",
        "zxcvbn",
        "letmein",
        "welcome",
        "bienvenue",
        "admin",
        "administrator",
        "root",
        "login",
        "master",
        "monkey",
        "dragon",
        "football",
        "baseball",
        "soleil",
        "iloveyou",
        "jetaime",
        "sunshine",
        "princess",
        "shadow",
        "superman",
        "batman",
        "trustno",
        "abc",
        "abcd",
        "abcdef",
        "abcdefgh",
        "abcdefghij",
        "moonshine",
        "diplomacy",
        "judge",
        "chicago",
        "gangster",
        "whisky",
        "whiskey",
        "bourbon",
        "prohibition",
    ]
)


def weak(password: str, player: RegisteredPlayer | None = None) -> bool:
    """A password a guess finds: the game's own rules (``check_new_password``: at least
    10 characters, not one repeated, not all digits), then a common word or keyboard
    run with digits and signs around it (``password12``, ``Qwerty!2024``), or the
    player's own name or address."""
    from moonshine.mail.passwords import check_new_password

    try:
        check_new_password(password)
    except MoonshineError:
        return True
    letters = "".join(ch for ch in fold(password) if ch.isalpha())
    if not letters or letters in COMMON or len(set(letters)) < 3:
        return True
    if any(letters.startswith(w) and len(letters) - len(w) <= 2 for w in COMMON):
        return True
    if len(letters) >= 4 and any(letters in row or letters[::-1] in row for row in RUNS):
        return True
    if player is not None:
        local, _, domain = player.address.partition("@")
        own = {folded_name(player.name), folded_name(local), folded_name(local + domain.partition(".")[0])}
        if letters in own or any(w and w in letters and len(letters) - len(w) <= 3 for w in own):
            return True
    return False


# Rows of letters a hand runs along: the alphabet and the keyboards' (QWERTY, AZERTY, QWERTZ).
RUNS: tuple[str, ...] = ("abcdefghijklmnopqrstuvwxyz", "qwertyuiop", "asdfghjkl", "zxcvbnm")
RUNS += ("azertyuiop", "qsdfghjklm", "wxcvbn", "qwertzuiop", "yxcvbnm")


def password(req: LobbyRequest, cmd: CommandLine) -> Answer:
    from moonshine.mail.passwords import hash_password

    player = authenticate(req)
    new = cmd.args.strip()
    if weak(new, player):
        raise Refused(phrase("lobby.password.weak"))
    req.reg.set_password(player.id, hash_password(new), mailed=True)
    return Answer(cmd, True, phrase("lobby.password.done"))


def address(req: LobbyRequest, cmd: CommandLine) -> Answer:
    """``address NEW``: a code mailed to the new address, which the change waits for."""
    from moonshine.mail.passwords import hash_password

    player = authenticate(req)
    ctx = req.ctx
    new = ascii_domain(cmd.args.strip().strip("<>").lower())
    if not ADDRESS.fullmatch(new):
        raise Refused(phrase("lobby.address.usage"))
    if new == player.address:
        raise Refused(phrase("lobby.address.same", address=new))
    if ctx.reg.player(new) is not None:
        raise Refused(phrase("lobby.address.taken", address=new))
    if ctx.reg.requests(player.address, ctx.day, "address") >= ctx.settings.limits.registrations:
        raise Refused(phrase("lobby.address.limit"))
    if not ctx.budget.allow(new):
        raise Refused(phrase("lobby.address.later", address=new))
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
    ctx.reg.confirm(found, ctx.now)  # the new address proved itself
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


def rename(req: LobbyRequest, cmd: CommandLine) -> Answer:
    player = authenticate(req)
    name = check_name(req, cmd.args, but=player.id)
    if name == player.name:
        raise Refused(phrase("lobby.rename.same", name=name))
    req.reg.rename(player.id, name, req.ctx.now)
    return Answer(cmd, True, phrase("lobby.rename.done", old=player.name, name=name))


# -- codes mailed to an address ------------------------------------------------------------


def new_code() -> str:
    """A code of 12 digits in three groups (``4821-7730-1194``): easy to copy, and out
    of reach of guesses at three wrong ones a pass."""
    return "-".join(f"{secrets.randbelow(10_000):04d}" for _ in range(3))


def code_digest(code: str) -> str:
    digits = "".join(ch for ch in code if ch.isdigit())
    return hashlib.sha256(f"moonshine code|{digits}".encode()).hexdigest()


def _code_mail(
    req: LobbyRequest, to: str, key: str, language: str, file: str, **fields: object
) -> tuple[str, EmailMessage]:
    cfg = req.ctx.settings.config
    lang = language if language in languages() else cfg.language
    body = words(lang, f"lobby.{key}.body", title=cfg.title, **fields).rstrip() + "\n\n-- \n"
    body += words(lang, "lobby.signature", title=cfg.title) + "\n"
    msg = compose.text_message(
        sender=from_address(cfg),
        to=[to],
        subject=words(lang, f"lobby.{key}.subject", prefix=compose.subject_prefix(cfg)),
        body=body,
        msg_id=compose.message_id(cfg, "lobby", key, to, req.mail.digest),
        date=req.ctx.now,
        reply_to=from_address(cfg),
        auto="auto-generated",
    )
    digest = hashlib.sha256(f"{key}|{to}|{req.mail.digest}".encode()).hexdigest()[:16]
    return f"{file}-{digest}.eml", msg


def forgot(req: LobbyRequest, cmd: CommandLine) -> Answer:
    """``forgot``: a code to the registered address (the sender's, whoever wrote the
    mail: only its owner reads the answer). The old password works until ``reset``."""
    player = req.player
    if player is None:
        raise Refused(phrase("lobby.auth.not_registered", address=req.mail.sender))
    now = req.ctx.now
    if req.reg.pending_code(player.id, "reset", now) is not None:
        raise Refused(phrase("lobby.forgot.pending", days=CODE_DAYS))
    code = new_code()
    req.reg.add_code(code_digest(code), player.id, "reset", "", now, now + timedelta(days=CODE_DAYS))
    return Answer(cmd, True, phrase("lobby.forgot.sent", code=code, days=CODE_DAYS))


def reset(req: LobbyRequest, cmd: CommandLine) -> Answer:
    """``reset CODE`` from the registered address: a new password comes in a mail of
    its own (the old one stops working)."""
    ctx = req.ctx
    player = req.player
    if player is None:
        raise Refused(phrase("lobby.auth.not_registered", address=req.mail.sender))
    if ctx.wrong[req.mail.sender] >= MAX_WRONG_PASSWORDS:
        raise Refused(phrase("lobby.code.wrong"))
    found = ctx.reg.take_code(code_digest(cmd.args), "reset", ctx.now)
    if found is None or found[0] != player.id:
        ctx.wrong[req.mail.sender] += 1
        raise Refused(phrase("lobby.code.wrong"))
    ctx.reg.reset_password(player.id)
    ctx.reg.confirm(player.id, ctx.now)
    return Answer(cmd, True, phrase("lobby.reset.done"))


REGISTER = Command("register", {"en": ("register",), "fr": ("inscription", "inscrire")}, register, who=ANYONE)
PASSWORD = Command("password", {"en": ("password",), "fr": ("mot de passe", "motdepasse")}, password, who=PLAYER)
WHOIS = Command("whois", {"en": ("whois", "profile"), "fr": ("profil",)}, whois, who=PLAYER)
RENAME = Command("rename", {"en": ("rename",), "fr": ("renommer",)}, rename, who=PLAYER)
ADDRESS_CHANGE = Command("address", {"en": ("address",), "fr": ("adresse",)}, address, who=PLAYER)
CONFIRM = Command("confirm", {"en": ("confirm",), "fr": ("confirmer",)}, confirm, who=ANYONE)
FORGOT = Command("forgot", {"en": ("forgot",), "fr": ("oubli", "oublié")}, forgot, who=ANYONE)
RESET = Command("reset", {"en": ("reset",), "fr": ("réinitialiser",)}, reset, who=ANYONE)
