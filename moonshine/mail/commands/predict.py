"""``predict``: what-if adjudication by mail (``moonshine.mail.commands``).

A player sends ``predict`` followed by a set of orders (theirs and the ones they
expect from others) and ``end predict``. The game's rule family adjudicates them on
the turn's position (``Family.predict``, ``moonshine.game.families.prediction``) and
the result comes back by mail, order by order with its reason, with the map picture
of the orders and their outcome. Nothing in the game changes, no file of the game
is written but the outbox's message, and no order a gang really sent is read: the
judge knows only what the block says."""

from __future__ import annotations

import hashlib

from moonshine.game import families
from moonshine.game.families.prediction import Block
from moonshine.mail import outbox
from moonshine.mail.commands.grammar import BLOCK, Answer, Command, CommandLine
from moonshine.mail.commands.request import GameRequest
from moonshine.mail.outbox import compose
from moonshine.mail.settings import from_address
from moonshine.render import mailwords
from moonshine.render.mailwords import phrase


def predict(req: GameRequest, cmd: CommandLine) -> Answer:
    """Adjudicate the block's orders on the turn's position (by the game's rule
    family) and mail the result."""
    if not cmd.closed:
        return Answer(cmd, False, phrase("predict.unclosed"))
    assert req.gang is not None
    block = Block(req.game, req.turn, req.st, req.gang, cmd.body, cmd.line + 1, req.language)
    found = families.of(req.game).predict(block)
    if found.problems:
        return Answer(cmd, False, phrase("predict.refused", n=len(found.problems)), "\n".join(found.problems))
    if not found.orders:
        return Answer(cmd, False, phrase("predict.empty"))
    mail_prediction(req, cmd, found.text, found.picture)
    return Answer(cmd, True, phrase("predict.done", n=found.orders))


def mail_prediction(req: GameRequest, cmd: CommandLine, text: str, png: bytes | None) -> None:
    cfg = req.game.config
    lang = req.language
    key = hashlib.sha256(f"{req.message_id}|{cmd.line}".encode()).hexdigest()[:12]
    referee = from_address(cfg)
    msg_id = compose.message_id(cfg, req.turn, "predict", req.message_id, str(cmd.line))
    msg = compose.text_message(
        sender=referee,
        to=[req.sender],
        subject=mailwords.text(lang, "subject.predict", prefix=compose.subject_prefix(cfg), turn=req.turn),
        body=f"{text}\n\n-- \n{mailwords.text(lang, 'signature', title=cfg.title)}\n",
        msg_id=msg_id,
        date=req.now,
        reply_to=referee,
    )
    if png is not None:
        msg.add_attachment(png, maintype="image", subtype="png", filename=f"predict-{req.turn}.png")
        for i, part in enumerate(msg.walk()):
            if part.is_multipart():
                part.set_boundary(f"==moonshine-{hashlib.sha256(f'{msg_id}|{i}'.encode()).hexdigest()[:24]}-{i}==")
    item = outbox.Outgoing(f"predict-{key}.eml", msg)
    outbox.write_outbox(req.game, req.turn, [item])
    req.outgoing.append(item)


PREDICT = Command(
    "predict",
    {"en": ("predict", "prediction"), "fr": ("prédire", "prédiction")},
    predict,
    reads=BLOCK,
    help="help.cmd.predict",
)
