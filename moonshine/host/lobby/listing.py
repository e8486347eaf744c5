"""The lobby's commands that tell, to anyone: ``list`` (the games waiting for
players and the games being played), ``list GAME`` (one game: its settings, masters,
sides, players, turn and deadline, the hash of its draw's seed), ``list vacant``
(the sides to take over), and ``help``."""

from __future__ import annotations

import hashlib

from moonshine.host.lobby.request import (
    LobbyRequest,
    deadline_rule,
    game_named,
    is_anonymous,
    names_shown,
    press_kind,
    status_word,
    utc,
    variant_title,
)
from moonshine.host.registry import ACTIVE, FORMING, STARTING, GameRow
from moonshine.mail.commands.grammar import ANYONE, Answer, Command, CommandLine
from moonshine.render.mailwords import Joined, Phrase, phrase

VACANT = ("vacant", "vacants", "vacantes", "vacances")


def listing(req: LobbyRequest, cmd: CommandLine) -> Answer:
    word = cmd.args.strip().lower()
    if word in VACANT:
        return Answer(cmd, True, _vacant(req))
    if word:
        return Answer(cmd, True, _one_game(req, game_named(req, cmd, word)))
    reg = req.reg
    forming = reg.games(FORMING, STARTING)
    out = [phrase("lobby.list.forming") if forming else phrase("lobby.list.no_forming")]
    for row in forming:
        sides = len(row.settings.get("sides") or [])
        out.append(
            phrase(
                "lobby.list.forming_line",
                game=row.name,
                variant=variant_title(row.variant),
                free=sides - reg.count_members(row.name),
                sides=sides,
                rule=deadline_rule(row.settings),
                press=press_kind(row.settings),
                dedication=row.settings.get("dedication", 0),
            )
        )
        if is_anonymous(row):
            out.append(phrase("lobby.list.forming_anonymous"))
    running = reg.games(*ACTIVE)
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
    lines = [phrase("lobby.list.vacant")]
    every = reg.vacancies()
    names_of: dict[str, dict[str, str]] = {}
    rows: dict[str, GameRow] = {}
    for game, side, since in every[:MAX_VACANT]:
        if game not in rows:
            found = reg.game(game)
            assert found is not None
            rows[game] = found
            names_of[game] = games.vacant_sides(req.ctx.settings, game)
        row, names = rows[game], names_of[game]
        lines.append(
            phrase(
                "lobby.list.vacant_line",
                game=game,
                side=side,
                name=names.get(side, side),
                variant=variant_title(row.variant),
                since=since[:10],
                dedication=row.settings.get("dedication", 0),
            )
        )
    if len(every) > MAX_VACANT:
        lines.append(phrase("lobby.list.vacant_more", n=len(every) - MAX_VACANT))
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
    text = phrase(
        "lobby.list.game",
        game=row.name,
        title=row.settings.get("title") or row.name,
        variant=variant_title(row.variant),
        status=status_word(row.status),
        masters=", ".join(p.name for p in reg.masters(row.name)),
        rule=deadline_rule(row.settings),
        zone=(row.settings.get("schedule") or {}).get("timezone", settings.timezone),
        press=press_kind(row.settings),
        dedication=row.settings.get("dedication", 0),
        sides=", ".join(row.settings.get("sides") or []),
        players=players or phrase("lobby.list.nobody"),
        seed_hash=hashlib.sha256(draw_seed(settings.root, row.name).encode()).hexdigest(),
    )
    if row.status not in ACTIVE:
        return text
    turn, due = games.current_deadline(settings, reg, row)
    return Joined((text, phrase("lobby.list.game_turn", turn=turn, due=utc(due) if due else "-")), " ")


def help_text(req: LobbyRequest, cmd: CommandLine) -> Answer:
    return Answer(cmd, True, phrase("lobby.help"))


LIST = Command("list", {"en": ("list",), "fr": ("liste",)}, listing, who=ANYONE)
HELP = Command("help", {"en": ("help",), "fr": ("aide",)}, help_text, who=ANYONE)
