"""The lobby's commands that tell, to anyone: ``list`` (the games waiting for
players and the games being played), ``list GAME`` (one game: its settings, masters,
sides, players, turn and deadline, the hash of its draw's seed), ``list vacant``
(the sides to take over), and ``help``. A private game is shown to its players,
masters and invited players alone."""

from __future__ import annotations

import hashlib

from moonshine.host.announcements import game_zone
from moonshine.host.lobby.announce import turn_words
from moonshine.host.lobby.configure import minimum, press_words, rule_words
from moonshine.host.lobby.request import (
    LobbyRequest,
    game_named,
    is_anonymous,
    names_shown,
    status_word,
    variant_title,
)
from moonshine.host.registry import ACTIVE, FORMING, PAUSED, STARTING, GameRow
from moonshine.mail.commands.grammar import ANYONE, Answer, Command, CommandLine, Refused
from moonshine.render.mailwords import Joined, Phrase, phrase

VACANT = ("vacant", "vacants", "vacantes", "vacances")


def listing(req: LobbyRequest, cmd: CommandLine) -> Answer:
    word = cmd.args.strip().lower()
    if word in VACANT:
        return Answer(cmd, True, _vacant(req))
    if word:
        row = game_named(req, cmd, word)
        if not visible(req, row):  # a private game is no game to others
            raise Refused(phrase("lobby.game.unknown", game=word[:30]))
        return Answer(cmd, True, _one_game(req, row))
    reg = req.reg
    forming = [row for row in reg.games(FORMING, STARTING) if visible(req, row)]
    out: list[Phrase | Joined] = [phrase("lobby.list.forming") if forming else phrase("lobby.list.no_forming")]
    for row in forming:
        sides = len(row.settings.get("sides") or [])
        line = phrase(
            "lobby.list.forming_line",
            game=row.name,
            variant=variant_title(row.variant),
            free=sides - reg.count_members(row.name),
            sides=sides,
            rule=rule_words(row.settings),
            press=press_words(row.settings),
            minimum=minimum(row.settings) or "",
        )
        out.append(line)
        if is_anonymous(row):
            out.append(phrase("lobby.list.forming_anonymous"))
    running = [row for row in reg.games(*ACTIVE) if visible(req, row)]
    out.append(phrase("lobby.list.running") if running else phrase("lobby.list.no_running"))
    for row in running:
        out.append(
            phrase(
                "lobby.list.running_line",
                game=row.name,
                variant=variant_title(row.variant),
                status=status_word(row.status),
                vacant=len(reg.vacancies(row.name)),
            )
        )
    return Answer(cmd, True, Joined(tuple(out)))


MAX_VACANT = 40  # vacant sides listed in one reply (the others: "and N more")


def _vacant(req: LobbyRequest) -> Phrase | Joined:
    """The vacant sides, each game's names read once, ``MAX_VACANT`` at most."""
    from moonshine.host import games

    reg = req.reg
    lines: list[Phrase | Joined] = [phrase("lobby.list.vacant")]
    names_of: dict[str, dict[str, str]] = {}
    rows: dict[str, GameRow | None] = {}
    more = 0
    for game, side, since in reg.vacancies():
        if game not in rows:  # each game read once
            found = reg.game(game)
            assert found is not None
            rows[game] = found if visible(req, found) else None
            if rows[game] is not None:
                names_of[game] = games.vacant_sides(req.ctx.settings, game)
        row = rows[game]
        if row is None:
            continue
        if len(lines) > MAX_VACANT:
            more += 1
            continue
        names = names_of[game]
        line = phrase(
            "lobby.list.vacant_line",
            game=game,
            side=side,
            name=names.get(side, side),
            variant=variant_title(row.variant),
            since=since[:10],
            minimum=minimum(row.settings) or "",
        )
        lines.append(line)
    if more:
        lines.append(phrase("lobby.list.vacant_more", n=more))
    return Joined(tuple(lines)) if len(lines) > 1 else phrase("lobby.list.no_vacant")


def _one_game(req: LobbyRequest, row: GameRow) -> Phrase | Joined:
    from moonshine.host import games
    from moonshine.host.settings import draw_seed

    reg = req.reg
    settings = req.ctx.settings
    members = reg.members(row.name)
    players: str | Phrase = ", ".join(
        f"{m.player.name} ({m.side + ', ' if m.side else ''}{reg.dedication(m.player.id).percent}%)" for m in members
    )
    if members and not names_shown(req, row):  # an anonymous game: how many, never who
        players = phrase("lobby.list.anonymous_players", n=len(members))
    zone = game_zone(row, settings.timezone)
    text = phrase(
        "lobby.list.game",
        game=row.name,
        title=row.settings.get("title") or row.name,
        variant=variant_title(row.variant),
        status=status_word(row.status),
        masters=", ".join(p.name for p in reg.masters(row.name)),
        rule=rule_words(row.settings),
        zone=zone,
        press=press_words(row.settings),
        dedication=phrase("lobby.list.game_minimum", dedication=int(row.settings.get("dedication") or 0))
        if row.settings.get("dedication")
        else phrase("lobby.list.game_no_minimum"),
        sides=", ".join(row.settings.get("sides") or []),
        players=players or phrase("lobby.list.nobody"),
        seed_hash=hashlib.sha256(draw_seed(settings.root, row.name).encode()).hexdigest(),
    )
    if row.status not in ACTIVE:
        return text
    turn, due = games.current_deadline(settings, reg, row)
    if row.status == PAUSED and due is None:
        return Joined((text, phrase("lobby.list.game_paused", turn=turn_words(req, row, turn))), " ")
    return Joined(
        (text, phrase("lobby.list.game_turn", turn=turn_words(req, row, turn), due=req.moment(due) if due else "-")),
        " ",
    )


def visible(req: LobbyRequest, row: GameRow) -> bool:
    """Whether the sender may see the game: a public one, or a private one they play,
    master, observe or are invited to."""
    if not row.private:
        return True
    player = req.player
    if player is None:
        return False
    reg = req.reg
    return (
        reg.member(row.name, player.id) is not None
        or reg.invited(row.name, player.id)
        or any(p.id == player.id for p in reg.masters(row.name))
        or any(p.id == player.id for p in reg.observers(row.name))
    )


def help_text(req: LobbyRequest, cmd: CommandLine) -> Answer:
    return Answer(cmd, True, phrase("lobby.help"))


LIST = Command("list", {"en": ("list",), "fr": ("liste",)}, listing, who=ANYONE)
HELP = Command("help", {"en": ("help",), "fr": ("aide",)}, help_text, who=ANYONE)
