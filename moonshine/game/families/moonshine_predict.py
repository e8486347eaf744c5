"""``predict`` in a Moonshine game (``moonshine.game.families.prediction``): the
block's orders read by the order checker and adjudicated by the same adjudicator on
the turn's position, each unit's result with its reason, and the map picture of the
orders. Sales, bids, recruits and disbands are not adjudicated: the raids and the
market need the turn's secret draw, which stays secret."""

from __future__ import annotations

from moonshine.game.families.prediction import Block, Prediction, read_block
from moonshine.render import mailwords
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

UNIT_ORDERS = (Hold, Move, SupportHold, SupportMove, SupportAssault, Assault, Transport)


def predict(block: Block) -> Prediction:
    """The block's orders adjudicated on the turn's position (the block is closed)."""
    from moonshine.variants.moonshine.checker import ACCEPTED, read_orders
    from moonshine.variants.moonshine.movement import adjudicate

    gmap = block.game.map
    st = block.st
    lang = block.language
    orders: dict[UnitRef, UnitOrder] = {}
    retreats: dict[UnitRef, Retreat] = {}
    skipped: list[int] = []

    def read(gang: str, line: str) -> tuple[Order | None, str]:
        lines = read_orders(line + "\n", gmap, st, gang).lines
        accepted = [x.order for x in lines if x.status == ACCEPTED and x.order is not None]
        if accepted:
            return accepted[0], ""
        rejected = [x for x in lines if x.reason is not None]
        return None, rejected[0].reason.text(lang) if rejected and rejected[0].reason else ""

    taken: list[tuple[str, Order, int]]
    taken, problems = read_block(block, list(gmap.gangs), read)
    for _gang, order, number in taken:
        if isinstance(order, Retreat):
            retreats[order.unit] = order
        elif isinstance(order, UNIT_ORDERS):
            orders[order.unit] = order
        else:
            skipped.append(number)
    if problems:
        return Prediction(problems=tuple(problems))
    if not orders and not retreats:
        return Prediction()
    outcome = adjudicate(gmap, st, orders, retreats)
    return Prediction(len(orders) + len(retreats), _account(block, outcome, skipped), _picture(block, outcome))


def _account(block: Block, outcome: object, skipped: list[int]) -> str:
    """Each unit's order and what became of it, with the reason, gang by gang."""
    from moonshine.engine.outcome import explain
    from moonshine.render.phrasebook import colon
    from moonshine.variants.moonshine.movement import Outcome

    assert isinstance(outcome, Outcome)
    lang = block.language
    sep = colon(lang)
    gangs = block.game.sides()
    lines = [mailwords.text(lang, "predict.head", turn=mailwords.subject_turn(lang, block.turn))]
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


def _picture(block: Block, outcome: object) -> bytes | None:
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
    title = mailwords.text(block.language, "predict.title", turn=mailwords.subject_turn(block.language, block.turn))
    try:
        return render_png(block.game.map, block.st, arrows=arrows, title=title, language=block.language)
    except Exception:  # a map without geometry: the text alone
        return None
