"""The lobby's commands about a player's place in a game: ``join GAME [SIDE...]``
(with the sides preferred, in order; the game starts when it is full), ``leave
GAME`` before it starts, ``resign GAME`` once it is played (the side is vacant),
``takeover GAME SIDE`` (a vacant side; its history comes by mail). A player ejected
from a game never takes a side of it again, and one who resigned not within a day
(``RESIGN_WAIT``): no trading one's side for a better one that fell vacant."""

from __future__ import annotations

from datetime import datetime, timedelta

from moonshine.host.lobby.announce import announce
from moonshine.host.lobby.request import (
    LobbyRequest,
    after_game,
    authenticate,
    dedication_ok,
    game_named,
    is_anonymous,
    notice,
    side_key,
    status_word,
)
from moonshine.host.registry import ACTIVE, FORMING, PAUSED, STARTING, GameRow, RegisteredPlayer
from moonshine.mail.commands.grammar import Answer, Command, CommandLine, Refused
from moonshine.render.mailwords import phrase

RESIGN_WAIT = timedelta(hours=24)  # after a resignation, before a takeover in the same game


def not_its_master(req: LobbyRequest, player: RegisteredPlayer, row: GameRow) -> None:
    """A master of an anonymous game knows who plays which side: they do not play in it."""
    if is_anonymous(row) and any(p.id == player.id for p in req.reg.masters(row.name)):
        raise Refused(phrase("lobby.join.master_anonymous", game=row.name))


def join(req: LobbyRequest, cmd: CommandLine) -> Answer:
    player = authenticate(req)
    row = game_named(req, cmd)
    if row.status != FORMING:
        raise Refused(phrase("lobby.join.not_forming", game=row.name, status=status_word(row.status)))
    if req.reg.member(row.name, player.id) is not None:
        raise Refused(phrase("lobby.join.already", game=row.name))
    not_its_master(req, player, row)
    dedication_ok(req, player, row)
    prefs: list[str] = []
    for word in after_game(cmd, row)[:10]:
        key = side_key(req, row, word.strip(","))
        if key not in prefs:
            prefs.append(key)
    invited_only(req, player, row)
    req.reg.join(row.name, player.id, prefs, req.ctx.now)
    sides = len(row.settings.get("sides") or [])
    n = req.reg.count_members(row.name)
    if n >= sides:
        req.reg.set_status(row.name, STARTING)
        req.ctx.started.append(row.name)
        return Answer(cmd, True, phrase("lobby.join.full", game=row.name))
    return Answer(cmd, True, phrase("lobby.join.done", game=row.name, n=n, sides=sides))


def leave(req: LobbyRequest, cmd: CommandLine) -> Answer:
    player = authenticate(req)
    row = game_named(req, cmd)
    if req.reg.member(row.name, player.id) is None:
        raise Refused(phrase("lobby.leave.not_member", game=row.name))
    if row.status != FORMING:
        raise Refused(phrase("lobby.leave.started", game=row.name))
    req.reg.leave(row.name, player.id)
    return Answer(cmd, True, phrase("lobby.leave.done", game=row.name))


def resign(req: LobbyRequest, cmd: CommandLine) -> Answer:
    player = authenticate(req)
    row = game_named(req, cmd)
    m = req.reg.member(row.name, player.id)
    if m is None or m.side is None or row.status not in ACTIVE:
        raise Refused(phrase("lobby.resign.not_playing", game=row.name))
    side = req.reg.vacate(row.name, player.id, "resigned", req.ctx.now)
    notice(req, row, "resigned", name=player.name, side=side)
    announce(req, row, "resigned", key=str(cmd.line), about=side)
    return Answer(cmd, True, phrase("lobby.resign.done", game=row.name, side=side))


def takeover(req: LobbyRequest, cmd: CommandLine) -> Answer:
    player = authenticate(req)
    row = game_named(req, cmd)
    given = after_game(cmd, row)
    if not given:
        raise Refused(phrase("lobby.takeover.usage"))
    side = side_key(req, row, " ".join(given))
    vacant = [s for _, s, _ in req.reg.vacancies(row.name)]
    if req.reg.member(row.name, player.id) is not None:
        raise Refused(phrase("lobby.takeover.in_game", game=row.name))
    if side not in vacant or row.status not in ACTIVE:
        if not vacant or row.status not in ACTIVE:
            raise Refused(phrase("lobby.takeover.none_vacant", side=side, game=row.name))
        raise Refused(phrase("lobby.takeover.not_vacant", side=side, game=row.name, vacant=", ".join(vacant)))
    if req.reg.event_at(player.id, row.name, "ejected") is not None:
        raise Refused(phrase("lobby.takeover.ejected", game=row.name))
    resigned = req.reg.event_at(player.id, row.name, "resigned")
    if resigned is not None and req.ctx.now - datetime.fromisoformat(resigned) < RESIGN_WAIT:
        raise Refused(phrase("lobby.takeover.resigned", game=row.name, n=int(RESIGN_WAIT.total_seconds() // 3600)))
    not_its_master(req, player, row)
    dedication_ok(req, player, row)
    invited_only(req, player, row)
    req.reg.take_over(row.name, side, player.id, req.ctx.now)
    notice(req, row, "taken", name=player.name, side=side)
    if is_anonymous(row):  # its players are told a side has a player again, never who
        announce(req, row, "taken_anonymous", key=str(cmd.line), about=side, skip=[player.id])
    else:
        announce(req, row, "taken", key=str(cmd.line), about=side, skip=[player.id], taker=player.name)
    done = "lobby.takeover.done_paused" if row.status == PAUSED else "lobby.takeover.done"
    return Answer(cmd, True, phrase(done, side=side, game=row.name))


def invited_only(req: LobbyRequest, player: RegisteredPlayer, row: GameRow) -> None:
    """A private game is joined, taken over and observed by the invited (and its masters) alone."""
    if not row.private or req.reg.invited(row.name, player.id):
        return
    if any(p.id == player.id for p in req.reg.masters(row.name)):
        return
    raise Refused(phrase("lobby.private.not_invited", game=row.name))


def observe(req: LobbyRequest, cmd: CommandLine) -> Answer:
    """``observe GAME``: the player follows the game (its bulletins, broadcast press and
    votes' results, ``status`` and ``history`` by mail), as its settings allow."""
    player = authenticate(req)
    row = game_named(req, cmd)
    if row.status not in (FORMING, STARTING, *ACTIVE):
        raise Refused(phrase("lobby.route.over", game=row.name, status=status_word(row.status)))
    if req.reg.member(row.name, player.id) is not None:
        raise Refused(phrase("lobby.observe.player", game=row.name))
    if (row.settings.get("observers") or OPEN) != OPEN:
        raise Refused(phrase("lobby.observe.closed", game=row.name))
    invited_only(req, player, row)
    if not req.reg.add_observer(row.name, player.id, req.ctx.now):
        return Answer(cmd, True, phrase("lobby.observe.already", game=row.name))
    return Answer(cmd, True, phrase("lobby.observe.done", game=row.name))


OPEN, CLOSED = "open", "closed"  # a game's observers: anyone may observe, or nobody


JOIN = Command("join", {"en": ("join",), "fr": ("rejoindre",)}, join)
LEAVE = Command("leave", {"en": ("leave",), "fr": ("quitter",)}, leave)
RESIGN = Command("resign", {"en": ("resign",), "fr": ("abandonner",)}, resign)
TAKEOVER = Command("takeover", {"en": ("takeover",), "fr": ("reprendre",)}, takeover)
OBSERVE = Command("observe", {"en": ("observe",), "fr": ("observer",)}, observe)
