"""The players' commands by mail in a game (``docs/commands.md``): lines of a message
to the judge, next to the orders, that ask for something other than orders::

    press to outfit, genna          presse à outfit, genna
    ...the message...               ...le message...
    end press                       fin presse
    broadcast                       diffusion
    ...                             ...
    end                             fin
    draw all by 2024-03-10          nulle tous avant 2024-03-10
    concede to outfit               concéder à outfit
    vote yes 1                      vote oui 1
    status  history  help  observe  état  historique  aide  observer
    predict                         prédire
    ...orders of every gang...      ...
    end predict                     fin prédire
    absent 2026-12-01 to 2026-12-05 absent du 2026-12-01 au 2026-12-05
    ready  wait                     prêt  attendre
    pause  resume  extend 12        pause  reprise  prolonger 12

Each command is a value of the one grammar of mail commands
(``moonshine.mail.commands.grammar``), declared beside its handler in the module of
its family (``press``, ``votes``, ``info``, ``predict``, ``absence``, ``ready``, ``timevotes``) and listed in
``GAME`` below. Command lines never reach the order reader: their line numbers stay
those of the message, as for the password line. A line whose first word is close to
a keyword and is no order word is an unknown command, answered with a suggestion.

``read`` is pure: text in, commands out. ``execute`` does what they ask for a
request (``moonshine.mail.commands.request.GameRequest``) and returns one answer per
command, each with its sentence, worded in the reader's language by ``render``."""

from __future__ import annotations

from collections.abc import Collection

from moonshine.mail.commands import absence, info, predict, press, ready, timevotes, votes
from moonshine.mail.commands.grammar import Answer, Grammar, Script, answer
from moonshine.mail.commands.request import GameRequest, authorise
from moonshine.render.mailwords import phrase

# The game's commands, in the order its help lists them.
GAME = Grammar(
    (
        press.PRESS,
        press.BROADCAST,
        votes.PROPOSE_DRAW,
        votes.PROPOSE_CONCESSION,
        votes.VOTE,
        info.STATUS,
        info.HISTORY,
        info.HELP,
        predict.PREDICT,
        info.OBSERVE,
        absence.ABSENT,
        ready.READY_COMMAND,
        ready.WAIT_COMMAND,
        timevotes.PAUSE_COMMAND,
        timevotes.RESUME_COMMAND,
        timevotes.EXTEND_COMMAND,
    ),
    careful=True,
)


def read(text: str, order_words: Collection[str] = ()) -> Script:
    """The commands of ``text`` (its lines numbered from 1). ``order_words``: words
    the order language uses, never taken for a misspelt command."""
    from moonshine.mail.commands.grammar import read as read_lines

    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    return read_lines(lines, GAME, order_words=order_words)


def execute(req: GameRequest, script: Script) -> list[Answer]:
    """Do what each command asks, in order; one refused command never stops the
    others, and a defect in one is its own refusal."""
    req.grammar = GAME
    out: list[Answer] = []
    for cmd in script.commands:
        try:
            if cmd.command is None:
                found = GAME.of_word(cmd.suggestion)
                keyword = found.shown(req.language) if found is not None else cmd.suggestion
                out.append(Answer(cmd, False, phrase("cmd.unknown", word=cmd.written[:40], keyword=keyword)))
            else:
                out.append(answer(req, cmd, authorise))
        except Exception as exc:  # one command must not void the others
            out.append(Answer(cmd, False, phrase("cmd.failed", error=f"{type(exc).__name__}: {exc}")))
    return out
