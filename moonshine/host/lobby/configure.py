"""A game's settings after its creation, by its masters: ``set GAME KEY VALUE`` for
those that may change while it is played (``press``, ``dedication``, the schedule's
``deadlines``, ``every``, ``min_gap``, ``grace``, ``reminders``, ``timezone``, and
``observers`` and ``private``), ``invite GAME ADDRESS`` (a player who may join a
private game), and the words of the settings as ``list`` and the replies show them.

A setting changed is written in the registry (the game's game.yaml follows at the
pass's next step: ``moonshine.host.games.sync_players``) and every player of the
game is told. A change of the schedule makes the next deadlines; the current one
stays (``deadline GAME WHEN`` moves it)."""

from __future__ import annotations

import re
from typing import Any

import msgspec

from moonshine.errors import MoonshineError
from moonshine.host.lobby.announce import announce
from moonshine.host.lobby.request import LobbyRequest, after_game, game_named, status_word
from moonshine.host.lobby.seats import CLOSED, OPEN
from moonshine.host.registry import ACTIVE, FORMING, STARTING, GameRow
from moonshine.mail.commands.grammar import MASTER, Answer, Command, CommandLine, Refused
from moonshine.render.mailwords import Phrase, phrase
from moonshine.text.folding import fold

# set's keys, folded, in English and French
SET_KEYS = {
    "press": "press",
    "presse": "press",
    "dedication": "dedication",
    "assiduite": "dedication",
    "deadlines": "deadlines",
    "echeances": "deadlines",
    "every": "every",
    "chaque": "every",
    "min_gap": "min_gap",
    "ecart": "min_gap",
    "grace": "grace",
    "reminders": "reminders",
    "rappels": "reminders",
    "timezone": "timezone",
    "fuseau": "timezone",
    "observers": "observers",
    "observateurs": "observers",
    "private": "private",
    "privee": "private",
    "prive": "private",
}
SCHEDULE = ("deadlines", "every", "min_gap", "grace", "reminders", "timezone")
PRESS = {"none": "none", "aucune": "none", "white": "white", "blanche": "white", "grey": "grey", "gray": "grey"}
PRESS |= {"grise": "grey", "public": "public", "publique": "public"}
OBSERVERS = {"open": OPEN, "ouvert": OPEN, "ouverts": OPEN, "closed": CLOSED, "ferme": CLOSED, "fermes": CLOSED}
YES = ("yes", "oui", "on", "true")
NO = ("no", "non", "off", "false")


class Duration(msgspec.Struct, frozen=True):
    """A duration as a master typed it (``48h``), in a sentence of any language: French
    writes a space before the unit (``48 h``)."""

    typed: str

    def text(self, language: str = "en") -> str:
        return re.sub(r"(\d)\s*h\b", r"\1 h", self.typed) if language == "fr" else self.typed


def rule_words(settings: dict[str, Any]) -> Phrase:
    """A game's deadlines as the reader's language says them (``every 48h`` / ``toutes
    les 48h``; a weekly rule as its master wrote it)."""
    schedule = settings.get("schedule") or {}
    if "deadlines" in schedule:
        return phrase("lobby.rule.deadlines", rule=str(schedule["deadlines"]))
    return phrase("lobby.rule.every", every=Duration(str(schedule.get("every", "?"))))


def press_words(settings: dict[str, Any]) -> Phrase:
    """A game's press rule in the reader's words (``white`` / ``blanche``)."""
    kind = str((settings.get("press") or {}).get("kind", "white"))
    return phrase(f"lobby.press.{kind if kind in ('none', 'public', 'white', 'grey') else 'white'}")


def minimum(settings: dict[str, Any]) -> Phrase | None:
    """``, dedication at least 80%``, or None for a game that asks none."""
    value = int(settings.get("dedication") or 0)
    return phrase("lobby.list.minimum", dedication=value) if value else None


def set_command(req: LobbyRequest, cmd: CommandLine) -> Answer:
    row = game_named(req, cmd)
    given = after_game(cmd, row)
    name = SET_KEYS.get(fold(given[0]).rstrip(":")) if given else None
    if name is None or len(given) < 2:
        raise Refused(phrase("lobby.set.usage", keys=", ".join(sorted(set(SET_KEYS.values())))))
    return change_setting(req, cmd, row, name, " ".join(given[1:]))


def change_setting(req: LobbyRequest, cmd: CommandLine, row: GameRow, name: str, value: str) -> Answer:
    """One setting of a game changed, and its players told."""
    if row.status not in (FORMING, STARTING, *ACTIVE):
        raise Refused(phrase("lobby.pause.not_running", game=row.name, status=status_word(row.status)))
    settings = dict(row.settings)
    change, more = _changed(settings, name, value.strip())
    req.reg.set_settings(row.name, settings)
    if row.status in ACTIVE:
        announce(req, row, "settings", key=str(cmd.line), change=change, more=more)
    else:
        waiting = [(m.player, None) for m in req.reg.members(row.name)]
        announce(req, row, "settings", key=str(cmd.line), to=waiting, change=change, more=more)
    return Answer(cmd, True, phrase("lobby.set.done", game=row.name, change=change))


def _changed(settings: dict[str, Any], name: str, value: str) -> tuple[Phrase, Phrase | str]:
    """``settings`` with ``name`` set to ``value`` (checked: Refused), and the change
    in words, with what it means for the deadlines."""
    from moonshine.game.schedule import parse_schedule

    word = fold(value)
    if name == "press":
        kind = PRESS.get(word)
        if kind is None:
            raise Refused(phrase("lobby.create.bad_setting", key=name, why="none / public / white / grey"))
        settings["press"] = {**(settings.get("press") or {}), "kind": kind}
        return phrase("lobby.set.press", value=phrase(f"lobby.press.{kind}")), ""
    if name == "dedication":
        digits = value.rstrip("%").strip()
        if not digits.isdigit() or int(digits) > 100:
            raise Refused(phrase("lobby.create.bad_setting", key=name, why="0-100"))
        settings["dedication"] = int(digits)
        return phrase("lobby.set.dedication", value=int(digits)), ""
    if name == "observers":
        policy = OBSERVERS.get(word)
        if policy is None:
            raise Refused(phrase("lobby.create.bad_setting", key=name, why="open / closed"))
        settings["observers"] = policy
        return phrase(f"lobby.set.observers.{policy}"), ""
    if name == "private":
        if word not in YES + NO:
            raise Refused(phrase("lobby.create.bad_setting", key=name, why="yes / no"))
        settings["private"] = word in YES
        return phrase("lobby.set.private" if word in YES else "lobby.set.public"), ""
    schedule = dict(settings.get("schedule") or {})
    if name == "deadlines":
        schedule.pop("every", None)
    if name == "every":
        schedule.pop("deadlines", None)
    if name == "reminders":
        schedule[name] = [v.strip() for v in value.split(",") if v.strip()]
    elif name == "grace" and value.rstrip("h").strip() in ("0", ""):
        schedule.pop("grace", None)
    else:
        schedule[name] = value[:80]
    try:
        parse_schedule(schedule)
    except MoonshineError as exc:
        raise Refused(phrase("lobby.create.bad_setting", key=name, why=str(exc)[:200])) from None
    settings["schedule"] = schedule
    if name == "grace" and "grace" not in schedule:
        return phrase("lobby.set.no_grace"), ""
    shown = Duration(value[:80]) if name in ("every", "grace", "min_gap") else value[:80]
    return phrase(f"lobby.set.{name}", value=shown), phrase("lobby.set.next_deadlines")


def change_setting_value(options: dict[str, Any], name: str, value: str) -> None:
    """``observers:`` or ``private:`` among ``create``'s settings (checked: Refused)."""
    _changed(options, name, value.strip())


def invite(req: LobbyRequest, cmd: CommandLine) -> Answer:
    """``invite GAME ADDRESS``: a registered player may join the game (a private one's
    only way in), take over its vacant sides or observe it; they are told."""
    row = game_named(req, cmd)
    given = after_game(cmd, row)
    if len(given) != 1:
        raise Refused(phrase("lobby.invite.usage"))
    other = req.reg.player(given[0])
    if other is None:
        raise Refused(phrase("lobby.promote.not_registered", address=given[0][:60]))
    if row.status not in (FORMING, STARTING, *ACTIVE):
        raise Refused(phrase("lobby.pause.not_running", game=row.name, status=status_word(row.status)))
    if req.reg.invite(row.name, other.id, req.ctx.now):
        what = "invited" if row.status in (FORMING, STARTING) else "invited_running"
        announce(req, row, what, key=str(cmd.line), to=[(other, None)])
    return Answer(cmd, True, phrase("lobby.invite.done", name=other.name, game=row.name))


SET = Command("set", {"en": ("set",), "fr": ("régler",)}, set_command, who=MASTER)
INVITE = Command("invite", {"en": ("invite",), "fr": ("inviter",)}, invite, who=MASTER)
