"""``predict``: what-if adjudication by mail (``moonshine.judge.commands``).

A player sends ``predict`` followed by a set of orders (theirs and the ones they
expect from others) and ``end predict``. Each line is read by the order checker
as the order of the gang whose unit it names (``gang: NAME`` lines inside the
block say whose orders follow, for a unit two gangs could order); units
without an order hold. The orders are adjudicated by the same adjudicator, on
the turn's position, and the result comes back by mail, order by order with its
reason, with the map picture of the orders and their outcome. Nothing in the
game changes, no file of the game is written but the outbox's message, and no
order a gang really sent is read: the judge knows only what the block says.
Sales, bids, recruits and disbands are not adjudicated (the raids and the
market need the turn's secret draw, which stays secret).

A block with any line the checker cannot take for any gang (a unit that does
not exist, a district unknown...) is refused whole, each such line with its
reason, so that a prediction never silently leaves an order out.

A classic game's prediction (``moonshine.game.families.classic``) is read by the
board's checker (``power:`` lines inside the block) and adjudicated by the
function that adjudicates the phase, whichever phase it is (movement, retreats
or adjustments)."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Sequence
from typing import TypeVar

from moonshine.judge import outbox
from moonshine.judge.commands import Command, Request, Result
from moonshine.render import mailwords
from moonshine.render.mailwords import phrase
from moonshine.variants.moonshine.orders import (
    Assault,
    Hold,
    Move,
    Order,
    Retreat,
    SupportAssault,
    SupportHold,
    SupportMove,
    Transport,
    UnitOrder,
    UnitRef,
    notation,
)

# The value: its first to last non-blank character, taken run by run; possessive runs
# (*+, ++) are never given back, so a line costs one pass ("(.*?)\s*$" cost one per character).
GANG_LINE = re.compile(r"^\s*+(?:gang|bande|power|puissance)\s*+:\s*+((?:\S++|\s++(?=\S))*+)\s*+$", re.IGNORECASE)
UNIT_ORDERS = (Hold, Move, SupportHold, SupportMove, SupportAssault, Assault, Transport)


T = TypeVar("T")


def read_block(
    req: Request, cmd: Command, sides: Sequence[str], read: Callable[[str, str], tuple[T | None, str]]
) -> tuple[list[tuple[str, T, int]], list[str]]:
    """The lines of a ``predict`` block, each read as the order of the side a
    ``gang:``/``power:`` line names, else of the sender's side, else of the first
    other side (in ``sides``' order) whose unit it names. ``read(side, line)`` gives
    the order taken, or None and the reason it was not. Returns (side, order, line
    number) for every line taken, and a problem for each line no side can take and
    each side line naming no side."""
    assert req.gang is not None
    lang = req.language
    taken: list[tuple[str, T, int]] = []
    problems: list[str] = []
    named: str | None = None
    for offset, line in enumerate(cmd.body, 1):
        number = cmd.line + offset
        if not line.strip():
            continue
        m = GANG_LINE.match(line)
        if m:
            named = req.game.side_by_name(m.group(1))
            if named is None:
                problems.append(mailwords.text(lang, "predict.no_gang", n=number, name=m.group(1)[:40]))
            continue
        tried = [named] if named else [req.gang, *(s for s in sides if s != req.gang)]
        first_reason = ""
        for side in tried:
            order, reason = read(side, line)
            if order is not None:
                taken.append((side, order, number))
                break
            first_reason = first_reason or reason
        else:
            shown = line.strip()[:60]
            problems.append(mailwords.text(lang, "predict.bad_line", n=number, text=shown, reason=first_reason or "?"))
    return taken, problems


def predict(req: Request, cmd: Command) -> Result:
    """A Moonshine game's prediction: the block's orders adjudicated on the turn's
    position, the result mailed (the block is closed: ``moonshine.judge.dispatch``)."""
    game = req.game
    from moonshine.variants.moonshine.checker import ACCEPTED, read_orders
    from moonshine.variants.moonshine.movement import adjudicate

    gmap = game.map
    st = req.st
    lang = req.language
    orders: dict[UnitRef, UnitOrder] = {}
    retreats: dict[UnitRef, Retreat] = {}
    whose: dict[UnitRef, str] = {}
    skipped: list[int] = []

    def read(gang: str, line: str) -> tuple[Order | None, str]:
        lines = read_orders(line + "\n", gmap, st, gang).lines
        accepted = [x.order for x in lines if x.status == ACCEPTED and x.order is not None]
        if accepted:
            return accepted[0], ""
        rejected = [x for x in lines if x.reason is not None]
        return None, rejected[0].reason.text(lang) if rejected and rejected[0].reason else ""

    taken: list[tuple[str, Order, int]]
    taken, problems = read_block(req, cmd, list(gmap.gangs), read)
    for gang, order, number in taken:
        if isinstance(order, Retreat):
            retreats[order.unit] = order
            whose[order.unit] = gang
        elif isinstance(order, UNIT_ORDERS):
            orders[order.unit] = order
            whose[order.unit] = gang
        else:
            skipped.append(number)
    if problems:
        return Result(cmd, False, phrase("predict.refused", n=len(problems)), "\n".join(problems))
    if not orders and not retreats:
        return Result(cmd, False, phrase("predict.empty"))
    outcome = adjudicate(gmap, st, orders, retreats)
    text = _account(req, outcome, whose, skipped)
    png = _picture(req, outcome)
    mail_prediction(req, cmd, text, png)
    return Result(cmd, True, phrase("predict.done", n=len(orders) + len(retreats)))


def _account(req: Request, outcome: object, whose: dict[UnitRef, str], skipped: list[int]) -> str:
    """Each unit's order and what became of it, with the reason, gang by gang."""
    from moonshine.engine.outcome import explain
    from moonshine.render.phrasebook import colon
    from moonshine.variants.moonshine.movement import Outcome

    assert isinstance(outcome, Outcome)
    lang = req.language
    sep = colon(lang)
    gangs = req.game.sides()
    lines = [mailwords.text(lang, "predict.head", turn=mailwords.subject_turn(lang, req.turn))]
    for gang in gangs:
        rows = [(ref, res) for ref, res in outcome.results.items() if res.gang == gang]
        if not rows:
            continue
        lines.append(f"{gangs[gang]}{sep.rstrip()}")
        for ref, res in rows:
            if res.given is not None:
                given = notation(res.given, lang)  # in the notation of the reader's language
            else:
                given = mailwords.text(lang, "predict.no_order", unit=ref.text())
            mark = mailwords.text(lang, "predict.ok" if res.succeeded else "predict.failed")
            reason = explain(res.outcome, lang)
            lines.append(f"  {given}{sep}{mark} ({reason})")
    for ref, d in outcome.dislodged.items():
        where = d.retreated_to or mailwords.text(lang, "predict.disbanded")
        lines.append(mailwords.text(lang, "predict.dislodged", unit=ref.text(), by=d.by, where=where))
    for a in outcome.assaults:
        mark = mailwords.text(lang, "predict.ok" if a.succeeded else "predict.failed")
        lines.append(f"{a.station}{sep}{mark} ({explain(a.outcome, lang)})")
    if skipped:
        lines.append(mailwords.text(lang, "predict.skipped", lines=", ".join(str(n) for n in skipped)))
    lines.append(mailwords.text(lang, "predict.note"))
    return "\n".join(lines)


def _picture(req: Request, outcome: object) -> bytes | None:
    """The map with the predicted orders as arrows, or None when the map cannot be drawn."""
    from moonshine.variants.moonshine.movement import Outcome
    from moonshine.variants.moonshine.scene import Arrow, render_png

    assert isinstance(outcome, Outcome)
    arrows: list[Arrow] = []
    for res in outcome.results.values():
        o = res.order if res.given is None else res.given
        ok = res.succeeded
        if isinstance(o, Move):
            arrows.append(Arrow("move", res.gang, o.unit.district, o.dest, ok, path=o.path or o.via))
        elif isinstance(o, SupportHold):
            arrows.append(Arrow("support", res.gang, o.unit.district, o.target.district, ok))
        elif isinstance(o, SupportMove):
            arrows.append(Arrow("support", res.gang, o.unit.district, o.target.district, ok, target_end=o.dest))
        elif isinstance(o, SupportAssault):
            arrows.append(Arrow("support", res.gang, o.unit.district, o.target.district, ok, target_end=o.station))
        elif isinstance(o, Assault):
            arrows.append(Arrow("assault", res.gang, o.unit.district, o.station, ok))
    title = mailwords.text(req.language, "predict.title", turn=mailwords.subject_turn(req.language, req.turn))
    try:
        return render_png(req.game.map, req.st, arrows=arrows, title=title, language=req.language)
    except Exception:  # a map without geometry: the text alone
        return None


def mail_prediction(req: Request, cmd: Command, text: str, png: bytes | None) -> None:
    cfg = req.game.config
    lang = req.language
    key = hashlib.sha256(f"{req.message_id}|{cmd.line}".encode()).hexdigest()[:12]
    referee = outbox.from_address(cfg)
    msg_id = outbox.message_id(cfg, req.turn, "predict", req.message_id, str(cmd.line))
    msg = outbox.text_message(
        sender=referee,
        to=[req.sender],
        subject=mailwords.text(lang, "subject.predict", prefix=outbox.subject_prefix(cfg), turn=req.turn),
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
