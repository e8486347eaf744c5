"""The masters' commands of the lobby: ``create GAME VARIANT`` and its settings, one
a line below it (a master of the judge); ``start``, ``pause``, ``resume``, ``extend
GAME HOURS``, ``eject GAME SIDE``, ``promote GAME ADDRESS``, ``terminate`` (a master
of the game). What they mean for the game's directory is done by
``moonshine.host.games`` at the pass's next step."""

from __future__ import annotations

import hashlib
import re
from datetime import datetime, timedelta
from typing import Any

from moonshine.errors import DataError, MoonshineError
from moonshine.host.announcements import Due
from moonshine.host.lobby.announce import Left, announce, turn_words
from moonshine.host.lobby.request import (
    LobbyRequest,
    after_game,
    authenticate,
    game_named,
    is_anonymous,
    notice,
    side_key,
    status_word,
    variant_title,
)
from moonshine.host.registry import (
    ACTIVE,
    FORMING,
    GAME_NAME,
    PAUSED,
    RUNNING,
    STARTING,
    TERMINATED,
    GameRow,
    RegisteredPlayer,
)
from moonshine.mail.commands.grammar import JUDGE_MASTER, MASTER, SETTINGS, Answer, Command, CommandLine, Refused
from moonshine.render.mailwords import Joined, phrase
from moonshine.text.catalogue import languages

# create's settings, by their folded name (English, French)
GAME_SETTINGS = {
    "title": "title",
    "titre": "title",
    "language": "language",
    "langue": "language",
    "deadlines": "deadlines",
    "echeances": "deadlines",
    "every": "every",
    "chaque": "every",
    "timezone": "timezone",
    "fuseau": "timezone",
    "grace": "grace",
    "min_gap": "min_gap",
    "ecart": "min_gap",
    "reminders": "reminders",
    "rappels": "reminders",
    "press": "press",
    "presse": "press",
    "dedication": "dedication",
    "assiduite": "dedication",
    "victory_vp": "victory_vp",
    "minimum_bribe": "minimum_bribe",
    "observers": "observers",
    "observateurs": "observers",
    "private": "private",
    "privee": "private",
    "prive": "private",
    # keeping the game moving (moonshine.mail.policy)
    "early": "early",
    "avance": "early",
    "nmr": "nmr",
    "max_pause": "max_pause",
    "pause_max": "max_pause",
    "master_pause_max": "master_pause_max",
    "pause_maitre_max": "master_pause_max",
    # who plays which side, hidden (moonshine.game.identities)
    "anonymous": "anonymous",
    "anonyme": "anonymous",
    "reveal": "reveal",
    "reveal_identities": "reveal",
    "revelation": "reveal",
    "gunboat": "gunboat",
}
MOVING = ("early", "nmr", "max_pause", "master_pause_max")  # game.yaml's keys, as written
PRESS_KINDS = ("none", "public", "white", "grey")
YES, NO = ("yes", "oui", "true", "y", "o"), ("no", "non", "false", "n")
# when an anonymous game's players are told who played which side (moonshine.game.identities)
REVEALS = {"at-end": "at-end", "end": "at-end", "fin": "at-end", "never": "never", "jamais": "never"}


def _yes(key: str, value: str) -> bool:
    word = value.strip().lower()
    if word not in (*YES, *NO):
        raise Refused(phrase("lobby.create.bad_setting", key=key, why="yes / no"))
    return word in YES


def _options(req: LobbyRequest, cmd: CommandLine) -> dict[str, Any]:
    """create's settings, checked."""
    from moonshine.game.schedule import parse_schedule

    schedule: dict[str, Any] = {"timezone": req.ctx.settings.timezone}
    options: dict[str, Any] = {"press": {"kind": "white"}, "dedication": 0}
    rules: dict[str, Any] = {}
    for _, key, value in cmd.settings:
        name = GAME_SETTINGS.get(key.replace(" ", "_"))
        if name is None:
            known = ", ".join(sorted(set(GAME_SETTINGS.values())))
            raise Refused(phrase("lobby.create.unknown_setting", key=key[:30], keys=known))
        if name in ("deadlines", "every", "timezone", "grace", "min_gap"):
            schedule[name] = value
        elif name == "reminders":
            schedule[name] = [v.strip() for v in value.split(",") if v.strip()]
        elif name == "press":
            if value.lower() not in PRESS_KINDS:
                raise Refused(phrase("lobby.create.bad_setting", key=key, why=" / ".join(PRESS_KINDS)))
            options["press"] = {"kind": value.lower()}
        elif name == "dedication":
            digits = value.rstrip("%").strip()
            if not digits.isdigit() or int(digits) > 100:
                raise Refused(phrase("lobby.create.bad_setting", key=key, why="0-100"))
            options["dedication"] = int(digits)
        elif name in ("victory_vp", "minimum_bribe"):  # a Moonshine game's house rules (others refuse them)
            if not re.fullmatch(r"\$?[0-9]{1,6}(?:\.[0-9]{1,2})?", value.strip()):
                raise Refused(phrase("lobby.create.bad_setting", key=key, why=value[:30]))
            number = value.strip().lstrip("$")
            rules[name] = int(number) if name == "victory_vp" and number.isdigit() else number
        elif name in ("observers", "private"):
            from moonshine.host.lobby.configure import change_setting_value

            change_setting_value(options, name, value)
        elif name in MOVING:
            options[name] = _moving(req, cmd, name, key, value)
        elif name in ("anonymous", "gunboat"):  # gunboat: anonymous, and no press
            options[name] = _yes(key, value)
        elif name == "reveal":
            if value.strip().lower() not in REVEALS:
                raise Refused(phrase("lobby.create.bad_setting", key=key, why="at-end / never"))
            options["reveal_identities"] = REVEALS[value.strip().lower()]
        elif name == "language":
            if value.lower() not in languages():
                raise Refused(phrase("lobby.create.bad_setting", key=key, why=", ".join(languages())))
            options["language"] = value.lower()
        elif not value.isprintable() or len(value) > 80:  # the title: one line of text
            raise Refused(phrase("lobby.create.bad_setting", key=key, why="80 printable characters at most"))
        else:
            options[name] = value
    if options.pop("gunboat", False):
        if options["press"]["kind"] != "none" and any(GAME_SETTINGS.get(k) == "press" for _, k, _ in cmd.settings):
            raise Refused(phrase("lobby.create.bad_setting", key="gunboat", why="press: none"))
        options["anonymous"] = True
        options["press"] = {"kind": "none"}
    if not options.get("anonymous"):
        options.pop("anonymous", None)
        options.pop("reveal_identities", None)
    if "deadlines" not in schedule and "every" not in schedule:
        schedule["every"] = "72h"
    try:
        parse_schedule(schedule)
    except MoonshineError as exc:
        raise Refused(phrase("lobby.create.bad_setting", key="schedule", why=str(exc)[:200])) from None
    options["schedule"] = schedule
    if rules:
        options["rules"] = rules
    return options


def _house_rules(variant: str, rules: dict[str, Any]) -> None:
    """The house rules as game.yaml's reader checks them (same bounds), before any
    directory is made."""
    if not rules:
        return
    from moonshine.game.directory import read_rules

    try:
        read_rules(variant, rules, "create")
    except MoonshineError as exc:
        why = str(exc).split(": ", 1)[-1]
        raise Refused(phrase("lobby.create.bad_setting", key="rules", why=why[:200])) from None


def _moving(req: LobbyRequest, cmd: CommandLine, name: str, key: str, value: str) -> Any:
    """A setting of ``moonshine.mail.policy`` as game.yaml keeps it, checked against the
    game's family (``nmr``'s civil-disorder player)."""
    from moonshine import variants
    from moonshine.mail import policy

    given = cmd.args.split()
    family = variants.get(given[1].lower()) if len(given) == 2 and variants.is_known(given[1].lower()) else None
    players = family.layout.civil_disorder_players if family is not None else ("keep", "hold", "smart")
    try:
        if name == "early":
            policy.read_early(value)
            return value.lower()
        if name == "nmr":
            return policy.read_nmr(value, players)
        policy.read_policy({name: value}, players)
        return value.lower()
    except DataError as exc:  # its problem: the key is the master's own
        raise Refused(phrase("lobby.create.bad_setting", key=key, why=exc.problem[:200])) from None


def create(req: LobbyRequest, cmd: CommandLine) -> Answer:
    from moonshine import variants
    from moonshine.host import games
    from moonshine.host.settings import draw_seed

    player = authenticate(req)
    settings = req.ctx.settings
    given = cmd.args.split()
    if len(given) != 2 or not variants.is_known(given[1].lower()):
        raise Refused(phrase("lobby.create.usage", variants=", ".join(variants.names())))
    name, variant = given[0].lower(), given[1].lower()
    if not GAME_NAME.fullmatch(name) or name in (".building",):
        raise Refused(phrase("lobby.create.bad_name", game=name[:30]))
    if req.reg.game(name) is not None:
        raise Refused(phrase("lobby.create.exists", game=name))
    options = _options(req, cmd)
    _house_rules(variant, options.get("rules") or {})
    if settings.game_dir(name).exists() or settings.game_dir(name).is_symlink():
        raise Refused(phrase("lobby.create.on_disk", game=name))
    try:
        sides = games.build(settings, name, variant, options, player.address)
    except MoonshineError as exc:
        why = str(exc).replace(str(settings.root) + "/", "")
        raise Refused(phrase("lobby.create.failed", why=why[:300])) from None
    options["sides"] = list(sides)
    req.reg.add_game(name, variant, options, player.id, req.ctx.now)
    from moonshine.host.lobby.configure import minimum, press_words, rule_words

    done = phrase(
        "lobby.create.done",
        game=name,
        variant=variant_title(variant),
        sides=len(sides),
        rule=rule_words(options),
        press=press_words(options),
        minimum=minimum(options) or "",
        private=phrase("lobby.create.private") if options.get("private") else "",
        seed_hash=hashlib.sha256(draw_seed(settings.root, name).encode()).hexdigest(),
    )
    if options.get("anonymous"):
        reveal = str(options.get("reveal_identities") or "at-end").replace("-", "_")
        return Answer(cmd, True, Joined((done, phrase(f"lobby.create.anonymous_{reveal}", game=name)), " "))
    return Answer(cmd, True, done)


def start(req: LobbyRequest, cmd: CommandLine) -> Answer:
    row = game_named(req, cmd)
    if row.status != FORMING:
        raise Refused(phrase("lobby.start.not_forming", game=row.name))
    n = req.reg.count_members(row.name)
    if n == 0:
        raise Refused(phrase("lobby.start.nobody", game=row.name))
    req.reg.set_status(row.name, STARTING)
    req.ctx.started.append(row.name)
    sides = len(row.settings.get("sides") or [])
    return Answer(cmd, True, phrase("lobby.start.done", game=row.name, n=n, vacant=sides - n))


def pause(req: LobbyRequest, cmd: CommandLine) -> Answer:
    from moonshine.host import games

    row = game_named(req, cmd)
    if row.status != RUNNING:
        raise Refused(phrase("lobby.pause.not_running", game=row.name, status=status_word(row.status)))
    turn, due = games.current_deadline(req.ctx.settings, req.reg, row)
    left = max(0, int((due - req.ctx.now).total_seconds())) if due is not None else None
    req.reg.set_paused(row.name, req.ctx.now.isoformat(), left)
    # when it ends by itself (the game's master_pause_max), kept: a pass need not read game.yaml to know it
    req.reg.set_pause_ends(row.name, games.pause_ends(req.ctx.settings, row, req.ctx.now))
    req.reg.set_deadline(row.name, games.pending(turn, None, games.MASTER_PAUSE))  # none while paused: nothing is late
    req.reg.set_status(row.name, PAUSED)
    if left is None:
        announce(req, row, "paused_no_deadline", key=str(cmd.line), turn=turn)
    else:
        announce(req, row, "paused", key=str(cmd.line), turn=turn, left=Left(max(left, HOUR)))
    return Answer(cmd, True, phrase("lobby.pause.done", game=row.name))


HOUR = 3600  # the least time a resumed game's players are given
RESUME_WITHIN = timedelta(days=7)  # a terminated game may be resumed so long after its end


def resume(req: LobbyRequest, cmd: CommandLine) -> Answer:
    from moonshine.host import games

    row = game_named(req, cmd)
    if row.status == TERMINATED:
        return _unterminate(req, cmd, row)
    if row.status != PAUSED:
        raise Refused(phrase("lobby.resume.not_paused", game=row.name))
    turn, due = games.current_deadline(req.ctx.settings, req.reg, row)
    if row.paused_left is not None:
        due = req.ctx.now + timedelta(seconds=max(row.paused_left, HOUR))
        req.reg.set_deadline(row.name, games.pending(turn, due, games.MASTER_RESUME))
    req.reg.set_paused(row.name, None, None)
    req.reg.set_status(row.name, RUNNING)
    if due is not None:  # the new deadline in the house's sentence, as when a pause ends by itself
        announce(req, row, "resumed", key=str(cmd.line), turn=turn, deadline=Due(turn, due, req.ctx.now))
    else:
        announce(req, row, "resumed_no_deadline", key=str(cmd.line), turn=turn)
    done = phrase(
        "lobby.resume.done", game=row.name, turn=turn_words(req, row, turn), due=req.moment(due) if due else "-"
    )
    return Answer(cmd, True, done)


def _unterminate(req: LobbyRequest, cmd: CommandLine, row: GameRow) -> Answer:
    """A game a master terminated goes on, when resumed within a week of its end: the
    deadline as far off as it was then (an hour at least); a raid seed revealed at the
    end is replaced by a new secret, for the raids from the next turn on."""
    from moonshine.host import games

    ended = datetime.fromisoformat(row.ended) if row.ended else None
    if ended is None or req.ctx.now - ended > RESUME_WITHIN:  # (ended: it was being played)
        raise Refused(phrase("lobby.resume.too_late", game=row.name))
    turn, _ = games.current_deadline(req.ctx.settings, req.reg, row)
    due = req.ctx.now + timedelta(seconds=max(row.paused_left or 0, HOUR))
    req.reg.set_deadline(row.name, f"{turn} {due.isoformat()}")
    req.reg.set_paused(row.name, None, None)
    req.reg.set_ended(row.name, None)
    req.reg.set_status(row.name, RUNNING)
    reseed = games.reveals_seed(req.ctx.settings, row)
    req.reg.set_reseed(row.name, reseed)
    announce(req, row, "unterminated_seed" if reseed else "unterminated", key=str(cmd.line), turn=turn, due=due)
    return Answer(
        cmd,
        True,
        phrase("lobby.resume.unterminated", game=row.name, turn=turn_words(req, row, turn), due=req.moment(due)),
    )


def extend(req: LobbyRequest, cmd: CommandLine) -> Answer:
    from moonshine.host import games

    row = game_named(req, cmd)
    if row.status not in ACTIVE:
        raise Refused(phrase("lobby.pause.not_running", game=row.name, status=status_word(row.status)))
    given = after_game(cmd, row)
    hours = given[0].lower().rstrip("h") if given else ""
    if not hours.isdigit() or not 1 <= int(hours) <= 720:
        raise Refused(phrase("lobby.extend.usage"))
    most = games.master_pause_max(req.ctx.settings, row)
    if most is not None and int(hours) * 3600 > most.total_seconds():
        raise Refused(phrase("lobby.extend.over_max", game=row.name, n=int(most.total_seconds() // 3600)))
    turn, due = games.current_deadline(req.ctx.settings, req.reg, row)
    if row.status == PAUSED and row.paused_left is not None:  # the time left grows
        left = row.paused_left + int(hours) * 3600
        req.reg.set_paused(row.name, row.paused_at, left)
        announce(req, row, "paused_extended", key=str(cmd.line), turn=turn, n=int(hours), left=Left(left))
        return Answer(cmd, True, phrase("lobby.extend.paused", game=row.name, n=int(hours)))
    if due is None:
        raise Refused(phrase("lobby.extend.no_deadline", game=row.name))
    new = due + timedelta(hours=int(hours))
    req.reg.set_deadline(row.name, games.pending(turn, new, f"{games.MASTER_EXTEND}:{int(hours)}"))
    announce(req, row, "deadline", key=str(cmd.line), turn=turn, due=new, was=due)
    return Answer(
        cmd, True, phrase("lobby.extend.done", turn=turn_words(req, row, turn), game=row.name, due=req.moment(new))
    )


def eject(req: LobbyRequest, cmd: CommandLine) -> Answer:
    row = game_named(req, cmd)
    if row.status not in ACTIVE:  # a game not being played has nobody to eject
        raise Refused(phrase("lobby.pause.not_running", game=row.name, status=status_word(row.status)))
    given = after_game(cmd, row)
    if not given:
        raise Refused(phrase("lobby.eject.usage"))
    side = side_key(req, row, " ".join(given))
    holder = next((m for m in req.reg.members(row.name) if m.side == side), None)
    if holder is None:
        raise Refused(phrase("lobby.eject.no_player", side=side, game=row.name))
    req.reg.vacate(row.name, holder.player.id, "ejected", req.ctx.now)
    notice(req, row, "ejected", name=holder.player.name, side=side)
    announce(req, row, "ejected_you", key=str(cmd.line), about=side, to=[(holder.player, side)])
    announce(req, row, "ejected", key=str(cmd.line), about=side)
    return Answer(cmd, True, phrase("lobby.eject.done", side=side, name=holder.player.name, game=row.name))


def promote(req: LobbyRequest, cmd: CommandLine) -> Answer:
    """A registered player becomes a master of the game too: only its creator (or a
    master of the judge) may promote, never a master promoted before."""
    row = game_named(req, cmd)
    player = authenticate(req)
    if player.id != req.reg.creator(row.name) and player.address not in req.ctx.settings.masters:
        raise Refused(phrase("lobby.promote.creator", game=row.name))
    if row.status not in (FORMING, STARTING, *ACTIVE):
        raise Refused(phrase("lobby.pause.not_running", game=row.name, status=status_word(row.status)))
    given = after_game(cmd, row)
    if not given:
        raise Refused(phrase("lobby.promote.usage"))
    other = req.reg.player(given[0])
    if other is None:
        raise Refused(phrase("lobby.promote.not_registered", address=given[0][:60]))
    if not req.reg.confirmed(other.id):
        raise Refused(phrase("lobby.promote.unconfirmed", name=other.name))
    if any(p.id == other.id for p in req.reg.masters(row.name)):
        raise Refused(phrase("lobby.promote.already", name=other.name, game=row.name))
    if is_anonymous(row) and req.reg.member(row.name, other.id) is not None:  # its masters know who is who
        raise Refused(phrase("lobby.promote.plays_anonymous", name=other.name, game=row.name))
    req.reg.add_master(row.name, other.id)
    member = req.reg.member(row.name, other.id)
    announce(req, row, "master_you", key=str(cmd.line), to=[(other, member.side if member else None)])
    # its players and its other masters (the one who asked reads the reply)
    told: dict[int, tuple[RegisteredPlayer, str | None]] = {
        m.player.id: (m.player, m.side) for m in req.reg.members(row.name) if m.side is not None
    }
    for master in req.reg.masters(row.name):
        told.setdefault(master.id, (master, None))
    rest = [told[pid] for pid in sorted(told) if pid not in (other.id, player.id)]
    announce(req, row, "master", key=str(cmd.line), to=rest, master=other.name)
    return Answer(cmd, True, phrase("lobby.promote.done", name=other.name, game=row.name))


def terminate(req: LobbyRequest, cmd: CommandLine) -> Answer:
    from moonshine.host import games

    row = game_named(req, cmd)
    if row.status not in (FORMING, STARTING, *ACTIVE):
        raise Refused(phrase("lobby.pause.not_running", game=row.name, status=status_word(row.status)))
    if row.status in ACTIVE:  # the time left, should it be resumed within the week
        _, due = games.current_deadline(req.ctx.settings, req.reg, row)
        left = row.paused_left if row.status == PAUSED else None
        if row.status == RUNNING and due is not None:
            left = max(0, int((due - req.ctx.now).total_seconds()))
        req.reg.set_paused(row.name, None, left)
        req.reg.set_ended(row.name, req.ctx.now.isoformat())
    req.reg.set_status(row.name, TERMINATED)
    notice(req, row, "terminated")
    members = [(m.player, m.side) for m in req.reg.members(row.name) if m.side is not None]
    if row.status in ACTIVE:  # played: its raid seed is public now
        announce(req, row, "terminated", key=str(cmd.line), to=members)
        games.queue_reveal(req.ctx.settings, req.reg, row, req.ctx.now)
        games.queue_identities(req.ctx.settings, req.reg, row, req.ctx.now)
    else:
        waiting = [(m.player, None) for m in req.reg.members(row.name)]
        announce(req, row, "terminated_forming", key=str(cmd.line), to=waiting)
    return Answer(cmd, True, phrase("lobby.terminate.done", game=row.name))


CREATE = Command("create", {"en": ("create",), "fr": ("créer",)}, create, who=JUDGE_MASTER, reads=SETTINGS)
START = Command("start", {"en": ("start",), "fr": ("démarrer",)}, start, who=MASTER)
PAUSE = Command("pause", {"en": ("pause",), "fr": ("pause",)}, pause, who=MASTER)
RESUME = Command("resume", {"en": ("resume",), "fr": ("reprise",)}, resume, who=MASTER)
EXTEND = Command("extend", {"en": ("extend",), "fr": ("prolonger",)}, extend, who=MASTER)
EJECT = Command("eject", {"en": ("eject",), "fr": ("expulser",)}, eject, who=MASTER)
PROMOTE = Command("promote", {"en": ("promote",), "fr": ("promouvoir",)}, promote, who=MASTER)
TERMINATE = Command("terminate", {"en": ("terminate",), "fr": ("terminer",)}, terminate, who=MASTER)
