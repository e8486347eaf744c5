"""What the players' commands (``moonshine.mail.commands``) ask, done: ``execute``
hands each command to the module that does it (``moonshine.mail.press``,
``moonshine.mail.votes``, ``moonshine.mail.info``, ``moonshine.mail.absence``, and the game's
rule family for a prediction, ``moonshine.game.families``)."""

from __future__ import annotations

from moonshine.mail import absence, info, press, votes, whatif
from moonshine.mail.commands import (
    ABSENT,
    BROADCAST,
    CONCEDE,
    DRAW,
    HELP,
    HISTORY,
    KEYWORDS,
    OBSERVE,
    PREDICT,
    PRESS,
    SHOWN,
    STATUS,
    UNKNOWN,
    VOTE,
    Command,
    Handler,
    Request,
    Result,
    Script,
)
from moonshine.render.mailwords import phrase


def execute(req: Request, script: Script) -> list[Result]:
    """Do what each command asks, in order; one refused command never stops the
    others, and a defect in one is its own refusal."""
    out: list[Result] = []
    for cmd in script.commands:
        try:
            out.append(_handle(req, cmd))
        except Exception as exc:  # one command must not void the others
            out.append(Result(cmd, False, phrase("cmd.failed", error=f"{type(exc).__name__}: {exc}")))
    return out


def _handle(req: Request, cmd: Command) -> Result:
    if cmd.name == UNKNOWN:
        return Result(cmd, False, phrase("cmd.unknown", word=cmd.written[:40], keyword=shown(req, cmd.suggestion)))
    open_to_all = (HELP, OBSERVE)
    if cmd.name not in open_to_all and req.gang is None:
        if cmd.name in (STATUS, HISTORY) and req.observer:
            pass
        elif cmd.name in (PRESS, BROADCAST):
            return Result(cmd, False, phrase("press.not_player", sender=req.sender))
        else:
            return Result(cmd, False, phrase("cmd.players_only", command=shown(req, cmd.name)))
    handlers: dict[str, Handler] = {
        PRESS: press.private,
        BROADCAST: press.broadcast,
        DRAW: votes.propose,
        CONCEDE: votes.propose,
        VOTE: votes.vote,
        STATUS: info.status,
        HISTORY: info.history,
        HELP: info.help_text,
        OBSERVE: info.observe,
        PREDICT: whatif.predict,
        ABSENT: absence.command,
    }
    return handlers[cmd.name](req, cmd)


def shown(req: Request, key_or_name: str) -> str:
    name = KEYWORDS.get(key_or_name, key_or_name)
    return SHOWN.get(req.language, SHOWN["en"]).get(name, key_or_name)
