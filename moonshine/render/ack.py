"""The acknowledgement a player gets for an orders file: every line as the referee
understood it, in the notation of the reader's language (``orders.notation``: a
French reader sees ``H LOO tient``, ``recruter H KEN``), what is accepted, rejected
(and why, and how to fix it) or replaced, the units left without orders, and the
money the orders need. Plain text, English or French; pure (the email work sends
it, ``moonshine check`` prints it). What the player wrote is repeated under a line
when it differs from the echo, unless it was the canonical notation."""

from __future__ import annotations

import re

from moonshine.render import receipts
from moonshine.render.mailwords import sentence_turn
from moonshine.render.phrasebook import money_text, semicolon
from moonshine.text.catalogue import Catalogue, fill, keyed, languages
from moonshine.text.printable import printable
from moonshine.text.wrap import wrap
from moonshine.variants.moonshine.checker import (
    ACCEPTED,
    HEADER,
    REJECTED,
    REPLACED,
    GangOrders,
    MoneySummary,
    OrderLine,
)
from moonshine.variants.moonshine.map import GameMap
from moonshine.variants.moonshine.orders import notation
from moonshine.variants.moonshine.parser import join
from moonshine.variants.moonshine.parser.headers import PasswordHeader
from moonshine.variants.moonshine.parser.lexer import unquote
from moonshine.variants.moonshine.state import GameState

WIDTH = 78
_INDENT = " " * 11

_LABELS: Catalogue = {
    "ack.title": "Moonshine: orders for {turn}",
    "ack.gang": "Gang: {name} ({key})",
    "ack.no_gang": "Gang: unknown",
    "ack.file": "File: {source}",
    "ack.password": "Password: given",
    "ack.password_line": "password: ****",
    "ack.receipt": "Receipt: {receipt} (your report after the turn lists the orders it covers and how to check it)",
    "ack.signature": "line {n}: {text}",
    "ack.problems": "PROBLEMS",
    "ack.orders": "ORDERS AS UNDERSTOOD",
    "ack.no_orders": "No orders in this file: your units hold, the most you can is sold, no bribe (R12).",
    "ack.line": "line",
    "ack.accepted": "accepted",
    "ack.rejected": "REJECTED",
    "ack.replaced": "replaced",
    "ack.header": "noted",
    "ack.wrote": "you wrote: {text}",
    "ack.hint": "hint: {text}",
    "ack.note": "note: {text}",
    "ack.units": "UNITS",
    "ack.unordered": "Without a valid order, these units hold: {units}",
    "ack.all_ordered": "Every unit of yours has an order.",
    "ack.arrested": "Arrested this turn (no orders; back next turn, R22): {units}",
    "ack.economy": "SALES AND STORAGE",
    "ack.sell": (
        "Sell: {n} crate (at most what you hold and your territory absorbs, R15)",
        "Sell: {n} crates (at most what you hold and your territory absorbs, R15)",
    ),
    "ack.sell_max": "Sell: no sell order, the most you can is sold (R15)",
    "ack.store": "Store: {w}, then your other warehouses in map order (R16)",
    "ack.store_default": "Store: your warehouses in map order (R16)",
    "ack.money": "MONEY (R17)",
    "ack.cash": "cash at the start of the turn",
    "ack.upkeep": ("upkeep: {n} unit × $2", "upkeep: {n} units × $2"),
    "ack.recruits": "recruits: {n} × $2",
    "ack.bribes": "bribes",
    "ack.bribe": "  bribe {s}",
    "ack.total": "total to pay",
    "ack.left": "left (sales are paid at the end of the turn)",
    "ack.short": "WARNING: these orders need {x} more than your cash. R17 will:",
    "ack.cancel": "cancel {o} (line {n})",
    "ack.cut": "cut {o} (line {n}) to {a}",
    "ack.unpaid": (
        "disband {n} unit for unpaid upkeep: {u}",
        "disband {n} units for unpaid upkeep, the most recently recruited first: {u}",
    ),
    "ack.unpaid_arrested": "arrested",
    "ack.summary": "SUMMARY",
    "ack.counts": "{lines}: {a}, {r}, {p}.",
    "ack.lines_n": ("{n} order line", "{n} order lines"),
    "ack.accepted_n": ("{n} accepted", "{n} accepted"),
    "ack.rejected_n": ("{n} rejected", "{n} rejected"),
    "ack.replaced_n": ("{n} replaced", "{n} replaced"),
    "ack.all_good": "All your orders are accepted.",
    "ack.fix": (
        "Rejected orders are not carried out (a unit whose order is rejected holds). To change your orders, "
        "send a complete new file before the deadline: the latest one replaces the earlier ones (R12)."
    ),
    "ack.resend": (
        "You may send a complete new file before the deadline: the latest one replaces the earlier ones (R12)."
    ),
}


def _t(label: str, language: str, /, **params: object) -> str:
    return fill(language, keyed(language, _LABELS, f"ack.{label}", params.get("n")), **params)


def _wrap(text: str, indent: str = _INDENT, hang: str = "  ") -> list[str]:
    return wrap(text, WIDTH, indent=indent, hang=hang, break_long_words=True)


def _sep(language: str) -> str:
    return semicolon(language)


def _squash(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip().casefold()


def _line_block(line: OrderLine, language: str) -> list[str]:
    status = _t(line.status, language)
    written = unquote(line.text)
    if line.status == HEADER:
        shown = (
            _t("password_line", language)
            if isinstance(line.header, PasswordHeader)
            else (line.reason.text(language) if line.reason else printable(written))
        )
    elif line.order is not None:
        shown = notation(line.order, language)
    else:
        shown = "'" + printable(written, 60) + "'"
    label = f"{_t('line', language)} {line.number:>3}"
    head = f"  {label}  {shown:<34} {status}" if len(shown) <= 34 else f"  {label}  {shown}  {status}"
    out = [head.rstrip()]
    if line.order is not None:
        # What the player wrote is shown when it differs from the echo, unless it is
        # the canonical notation, which every game reads.
        bare = written.split("#", 1)[0]
        if _squash(bare) not in (_squash(shown), _squash(line.order.text())):
            out += _wrap(_t("wrote", language, text=printable(bare.strip(), 70)))
    if line.status == HEADER:
        return out
    if line.reason is not None and line.status in (REJECTED, REPLACED):
        reason = line.reason.text(language)
        if line.hint is not None:
            reason += _sep(language) + line.hint.text(language)
        out += _wrap(reason)
    elif line.hint is not None:
        out += _wrap(_t("hint", language, text=line.hint.text(language)))
    for note in line.notes:
        out += _wrap(_t("note", language, text=note.text(language)))
    return out


def _money_block(m: MoneySummary, language: str) -> list[str]:
    def fmt(cents: int) -> str:
        return money_text(language, cents)

    rows: list[tuple[str, str]] = [
        (_t("cash", language), fmt(m.cash)),
        (_t("upkeep", language, n=m.units), fmt(m.upkeep)),
    ]
    if m.recruits:
        rows.append((_t("recruits", language, n=m.recruits), fmt(m.recruit_cost)))
    if m.bribes:
        rows.append((_t("bribes", language), fmt(m.bribes)))
    rows.append((_t("total", language), fmt(m.needed)))
    rows.append((_t("left", language), fmt(m.left)))
    out = [f"  {label:<52} {value:>10}" for label, value in rows]
    if m.short:
        out.append("")
        out += _wrap(_t("short", language, x=fmt(m.needed - m.cash)), "  ")
        for number, r in m.cancelled:
            out += _wrap("- " + _t("cancel", language, o=notation(r, language), n=number), "    ")
        for number, b, kept in m.cut:
            out += _wrap("- " + _t("cut", language, o=notation(b, language), n=number, a=fmt(kept)), "    ")
        if m.unpaid_units:
            who = ", ".join(
                ref.text() + (f" ({_t('unpaid_arrested', language)})" if arrested else "") for ref, arrested in m.unpaid
            )
            out += _wrap("- " + _t("unpaid", language, n=m.unpaid_units, u=who or "-"), "    ")
    return out


def acknowledgement(
    orders: GangOrders, gmap: GameMap, st: GameState, *, language: str = "en", seed: str | None = None
) -> str:
    """The plain-text reply to an orders file, in ``language`` (any of the catalogue's). With
    the game's secret ``seed``, it ends with the receipt of the recorded orders."""
    lang = language if language in languages() else "en"
    turn = sentence_turn(lang, orders.turn)
    out: list[str] = [_t("title", lang, turn=turn)]
    if orders.gang is not None and orders.gang in gmap.gangs:
        out.append(_t("gang", lang, name=gmap.gangs[orders.gang].name, key=orders.gang))
    else:
        out.append(_t("no_gang", lang))
    out.append(_t("file", lang, source=printable(orders.source, 200)))
    if orders.password is not None:
        out.append(_t("password", lang))

    if orders.issues:
        out += ["", _t("problems", lang)]
        for issue in orders.issues:
            out += _wrap("- " + issue.text(lang), "  ")

    shown = [ln for ln in orders.lines if ln.status in (ACCEPTED, REJECTED, REPLACED, HEADER)]
    out += ["", _t("orders", lang)]
    if not any(ln.order is not None or ln.status == REJECTED for ln in shown):
        out += _wrap(_t("no_orders", lang), "  ")
    for line in shown:
        out += _line_block(line, lang)
    signature = [ln for ln in orders.lines if ln.reason is not None and ln.status == "comment"]
    for line in signature:
        out += _wrap(_t("signature", lang, n=line.number, text=line.reason.text(lang) if line.reason else ""), "  ")

    if orders.gang is not None:
        out += ["", _t("units", lang)]
        if orders.unordered:
            out += _wrap(_t("unordered", lang, units=join(u.text() for u in orders.unordered)), "  ")
        else:
            out += _wrap(_t("all_ordered", lang), "  ")
        if orders.arrested:
            out += _wrap(_t("arrested", lang, units=join(u.text() for u in orders.arrested)), "  ")
        out += ["", _t("economy", lang)]
        if orders.sell is not None and orders.sell.crates is not None:
            out += _wrap(_t("sell", lang, n=orders.sell.crates), "  ")
        else:
            out += _wrap(_t("sell_max", lang), "  ")
        if orders.store is not None:
            out += _wrap(_t("store", lang, w=join(orders.store.warehouses)), "  ")
        else:
            out += _wrap(_t("store_default", lang), "  ")
        if orders.money is not None:
            out += ["", _t("money", lang)]
            out += _money_block(orders.money, lang)

    counted = [ln for ln in orders.lines if ln.order is not None or ln.status == REJECTED]
    out += ["", _t("summary", lang)]
    out += _wrap(
        _t(
            "counts",
            lang,
            lines=_t("lines_n", lang, n=len(counted)),
            a=_t("accepted_n", lang, n=sum(1 for ln in counted if ln.status == ACCEPTED)),
            r=_t("rejected_n", lang, n=sum(1 for ln in counted if ln.status == REJECTED)),
            p=_t("replaced_n", lang, n=sum(1 for ln in counted if ln.status == REPLACED)),
        ),
        "  ",
        "",
    )
    if orders.ok:
        out += _wrap(_t("all_good", lang), "  ", "")
        out += _wrap(_t("resend", lang), "  ", "")
    else:
        out += _wrap(_t("fix", lang), "  ", "")
    if seed is not None and orders.gang is not None:
        code = receipts.receipt(receipts.salt(seed, orders.turn, orders.gang), orders.recorded())
        out += ["", *_wrap(_t("receipt", lang, receipt=code), "", "  ")]
    return "\n".join(out) + "\n"
