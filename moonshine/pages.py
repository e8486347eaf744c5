"""The pages of a Moonshine game as text: each gang's private report and the public
bulletin, in plain text and in HTML, and the web site's turn and index pages.

Plain Python, one function per page, from the contexts ``moonshine.reports`` builds
(``report_context``, ``bulletin_context``: every word already in the page's language,
``ctx["_"]`` the catalogue's words). The text pages wrap their paragraphs at 74
columns; in the HTML pages every value is escaped (``&``, ``<``, ``>``, ``"`` and
``'``) and the look is one stylesheet, which ``reports.inline_css`` writes into each
element afterwards. The output is deterministic: the same context, the same bytes.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Protocol

Context = Mapping[str, Any]
Words = Callable[..., str]

RULE = "=" * 74


# -- text helpers -------------------------------------------------------------------------------


def wordwrap(text: str, width: int) -> str:
    """``text`` wrapped at ``width`` columns, each of its own lines a paragraph; words
    never broken, not even at hyphens."""
    return "\n".join(
        "\n".join(
            textwrap.wrap(
                line,
                width=width,
                expand_tabs=False,
                replace_whitespace=False,
                break_long_words=False,
                break_on_hyphens=False,
            )
        )
        for line in text.splitlines()
    )


def indent(text: str, width: int) -> str:
    """Every line of ``text`` but the first indented by ``width`` spaces (empty lines
    left empty)."""
    lines = (text + "\n").splitlines()
    out = lines.pop(0)
    if lines:
        out += "\n" + "\n".join(" " * width + line if line else line for line in lines)
    return out


def pad(value: object, width: int) -> str:
    return str(value).ljust(width)


def rpad(value: object, width: int) -> str:
    return str(value).rjust(width)


def widest(rows: Iterable[object], attr: str) -> int:
    """The width of the widest ``attr`` of ``rows`` (0 for none)."""
    return max((len(str(getattr(r, attr))) for r in rows), default=0)


def heading(text: str) -> str:
    """``TEXT`` over a dashed line as long as the text."""
    return text.upper() + "\n" + "-" * len(text)


def para(text: str, margin: int = 2) -> str:
    """A paragraph wrapped to the 74-column page, indented by ``margin``."""
    return " " * margin + indent(wordwrap(text, 74 - margin), margin)


def bullet(text: str, margin: int = 2) -> str:
    """A dashed item, its later lines under its first word."""
    return " " * margin + "- " + indent(wordwrap(text, 72 - margin), margin + 2)


class _LedgerRow(Protocol):
    label: str
    value: str
    op: str


class _VPRow(Protocol):
    label: str
    count: int
    vp: int


def ledger(rows: Sequence[_LedgerRow], width: int = 50) -> str:
    return "\n".join(f"  {pad(r.label, width)} {pad(r.op, 1)} {rpad(r.value, 8)}" for r in rows)


def vp_table(rows: Sequence[_VPRow], width: int = 50) -> str:
    return "\n".join(f"  {pad(r.label, width)} {rpad(r.count, 3)} {rpad(r.vp, 6)}" for r in rows)


# -- HTML helpers -------------------------------------------------------------------------------


def esc(value: object) -> str:
    """``value`` as HTML text, also safe inside a quoted attribute."""
    return (
        str(value)
        .replace("&", "&amp;")
        .replace(">", "&gt;")
        .replace("<", "&lt;")
        .replace("'", "&#39;")
        .replace('"', "&#34;")
    )


def h2(text: str) -> str:
    return f"<h2>{esc(text)}</h2>"


def th(text: str, align: str = "left", extra: str = "") -> str:
    cls = ("num" if align == "right" else "txt") + (" " + extra if extra else "")
    return f'<th class="{esc(cls)}">{esc(text)}</th>'


def swatch(colour: str) -> str:
    return f'<span class="swatch" style="background-color:{esc(colour)};"></span>'


def badge(ok: bool, word: str) -> str:
    return f'<span class="{"ok" if ok else "bad"}">{esc(word)}</span>'


def html_ledger(rows: Sequence[_LedgerRow]) -> str:
    out = ['<table role="presentation" class="data ledger">\n']
    for r in rows:
        total = ' class="total"' if r.op == "=" else ""
        out.append(
            f'<tr{total}><td>{esc(r.label)}</td><td class="num op">{esc(r.op)}</td>'
            f'<td class="num amount">{esc(r.value)}</td></tr>\n'
        )
    out.append("</table>")
    return "".join(out)


def map_figure(src: str, alt: str, caption: str) -> str:
    return (
        f'<p class="figure"><a href="{esc(src)}"><img src="{esc(src)}" alt="{esc(alt)}" width="672" class="map">'
        f'</a></p>\n<p class="muted caption">{esc(caption)}</p>'
    )


def chart_figure(src: str, href: str, alt: str) -> str:
    img = f'<img src="{esc(src)}" alt="{esc(alt)}" width="640" class="chart">'
    return f'<p class="figure"><a href="{esc(href)}">{img}</a></p>\n'


def items(values: Iterable[object]) -> str:
    """A bulleted list, one escaped item a line."""
    return "<ul>\n" + "".join(f"<li>{esc(v)}</li>\n" for v in values) + "</ul>\n"


# The look of every HTML page: written into each element's style attribute when the
# page is rendered (``reports.inline_css``), so that mail programs that drop <style>
# show it too; only the phone and dark-mode rules stay in the <style> block.
STYLESHEET = "".join(
    line + "\n"
    for line in (
        "body { margin: 0; padding: 0; background-color: #f3efe6; color: #222222; }",
        "table.outer { width: 100%; background-color: #f3efe6; }",
        "td.outer { padding: 12px 6px; }",
        "table.card { width: 100%; max-width: 720px; background-color: #ffffff; border: 1px solid #d8cfbd; }",
        (
            "td.card { padding: 16px 16px; font-family: Georgia, 'Times New Roman', serif; color: #222222; "
            "font-size: 15px; line-height: 1.45; overflow-wrap: break-word; word-wrap: break-word; }"
        ),
        "h1 { font-size: 22px; line-height: 1.25; margin: 4px 0 6px 0; color: #3b2a14; }",
        (
            "h2 { font-size: 17px; font-weight: bold; margin: 26px 0 8px 0; padding-bottom: 4px; "
            "border-bottom: 2px solid #8b6d3f; color: #3b2a14; }"
        ),
        "p { margin: 4px 0; }",
        "a { color: #7a4b12; }",
        "ul { margin: 4px 0; padding-left: 20px; }",
        "li { margin: 2px 0; }",
        "ol.timeline { margin: 4px 0; padding-left: 24px; line-height: 1.9; }",
        ".muted { color: #6b6256; font-size: 13px; }",
        ".game { margin: 0; }",
        ".intro { margin: 0 0 12px 0; }",
        ".headline { font-size: 19px; font-weight: bold; line-height: 1.3; color: #3b2a14; margin: 10px 0 6px 0; }",
        ".story { margin: 6px 0; }",
        "table.data { border-collapse: collapse; width: 100%; margin: 4px 0 8px 0; font-size: 14px; }",
        "table.data td { padding: 4px 6px; border-bottom: 1px solid #ebe5d8; vertical-align: top; text-align: left; }",
        (
            "table.data th { text-align: left; padding: 4px 6px; border-bottom: 1px solid #b9ad95; font-size: 12px; "
            "font-weight: bold; color: #5a4a32; vertical-align: bottom; }"
        ),
        "table.data th.num { text-align: right; }",
        "table.data td.num { text-align: right; white-space: nowrap; font-variant-numeric: tabular-nums; }",
        "table.data td.op { width: 1.5em; }",
        "table.data td.amount { width: 5.5em; }",
        "table.data tr.total td { font-weight: bold; }",
        "table.data tr.winner td { font-weight: bold; background-color: #fbf3d5; }",
        "table.data td.group { padding: 10px 6px 4px 6px; border-bottom: 1px solid #b9ad95; font-weight: bold; }",
        "table.data td.vp { font-weight: bold; }",
        ".code { font-family: Menlo, Consolas, 'Courier New', monospace; font-size: 13px; }",
        (
            "pre.code { white-space: pre-wrap; word-break: break-all; background-color: #f6f3ec; color: #222222; "
            "padding: 8px; margin: 4px 0; }"
        ),
        ".hash { word-break: break-all; }",
        (
            ".swatch { display: inline-block; width: 11px; height: 11px; border: 1px solid #444444; "
            "vertical-align: middle; margin-right: 6px; }"
        ),
        ".ok { color: #1e7b34; font-weight: bold; }",
        ".bad { color: #b3261e; font-weight: bold; }",
        ".gain { color: #1e7b34; font-weight: bold; }",
        ".loss { color: #b3261e; font-weight: bold; }",
        ".figure { margin: 8px 0 4px 0; }",
        "img.map { display: block; width: 100%; max-width: 672px; height: auto; border: 1px solid #d8cfbd; }",
        "img.chart { display: block; width: 100%; max-width: 640px; height: auto; border: 0; }",
        ".caption { margin: 0 0 8px 0; }",
        ".credits { margin: 28px 0 0 0; padding-top: 8px; border-top: 1px solid #d8cfbd; }",
        ".nav { margin: 0 0 10px 0; font-size: 14px; line-height: 1.8; }",
        "@media (max-width: 480px) {",
        "  td.outer { padding: 0 !important; }",
        "  table.card { border: 0 !important; }",
        "  td.card { padding: 12px 10px !important; }",
        (
            "  table.stack, table.stack tbody, table.stack tr, table.stack td { display: block !important; "
            "width: auto !important; }"
        ),
        "  table.stack tr.head { display: none !important; }",
        "  table.stack tr { border-bottom: 1px solid #ebe5d8 !important; padding: 4px 0 !important; }",
        (
            "  table.stack td { border: 0 !important; padding: 1px 4px !important; text-align: left !important; "
            "white-space: normal !important; }"
        ),
        (
            '  table.stack td[data-label]:not([data-label=""])::before { content: attr(data-label) ": "; '
            "color: #6b6256; font-size: 12px; }"
        ),
        "  table.stack td.group { padding-top: 10px !important; }",
        "  table.stack td.inl { display: inline-block !important; padding-right: 8px !important; }",
        "  table.data .detail { display: none !important; }",
        "  table.data td, table.data th { padding-left: 3px !important; padding-right: 3px !important; }",
        "}",
        "@media (prefers-color-scheme: dark) {",
        "  body, table.outer { background-color: #1b1916 !important; }",
        "  table.card { background-color: #24211d !important; border-color: #4a443b !important; }",
        "  td.card, pre.code { color: #ece6da !important; }",
        "  pre.code { background-color: #2e2a25 !important; }",
        "  h1, h2, .headline { color: #f0d9b5 !important; }",
        "  h2 { border-bottom-color: #b08a4f !important; }",
        "  a { color: #f2b766 !important; }",
        "  .muted, table.data th { color: #b9b0a1 !important; }",
        "  table.data td, table.data th { border-color: #4a443b !important; }",
        "  table.data tr.winner td { background-color: #3d3420 !important; }",
        "  .ok, .gain { color: #7fd68b !important; }",
        "  .bad, .loss { color: #ff9a8f !important; }",
        "  .swatch { border-color: #d8d0c2 !important; }",
        "}",
    )
)


def page(lang: str, title: str, game_title: str, content: str) -> str:
    """An HTML page: the card with the game's title and ``content`` (escaped already)."""
    return (
        "<!DOCTYPE html>\n"
        f'<html lang="{esc(lang)}">\n'
        "<head>\n"
        '<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        '<meta name="color-scheme" content="light dark">\n'
        '<meta name="supported-color-schemes" content="light dark">\n'
        f"<title>{esc(title)}</title>\n"
        f"<style>\n{STYLESHEET}</style>\n"
        "</head>\n"
        "<body>\n"
        '<table role="presentation" class="outer" width="100%" cellpadding="0" cellspacing="0">\n'
        '<tr><td align="center" class="outer">\n'
        '<table role="presentation" class="card" cellpadding="0" cellspacing="0">\n'
        '<tr><td class="card">\n'
        f'<p class="muted game">{esc(game_title)}</p>\n'
        f"{content}"
        "</td></tr>\n"
        "</table>\n"
        "</td></tr>\n"
        "</table>\n"
        "</body>\n"
        "</html>\n"
    )


def _map_figure(ctx: Context) -> str:
    _: Words = ctx["_"]
    return map_figure(
        ctx["map_src"],
        _("map.alt", title=ctx["map_title"]),
        _("map.caption", turn=ctx["next_label"], turn_of=ctx["next_of"]),
    )


# -- a gang's private report --------------------------------------------------------------------


def report_title(ctx: Context) -> str:
    _: Words = ctx["_"]
    return _("report.heading", gang=ctx["gang"]["name"], turn=ctx["turn_label"])


def _for_whom(ctx: Context) -> str:
    _: Words = ctx["_"]
    return _("report.for_player", player=ctx["player"]) if ctx["player"] else _("report.for_gang")


def report_txt(ctx: Context) -> str:
    """A gang's private report as plain text."""
    _: Words = ctx["_"]
    colon: str = ctx["colon"]
    out = [f"{ctx['game_title']}\n{report_title(ctx)}\n{_for_whom(ctx)}\n{RULE}\n"]
    if ctx["winners"]:
        out.append(f"\n{heading(_('section.winner'))}\n{para(ctx['winners'])}\n")
    out.append(f"\n{heading(_('section.orders'))}\n")
    if ctx["orders_file"] is None:
        out.append(para(_("orders.none")) + "\n")
    else:
        out.append(f"  {_('orders.file', file=ctx['orders_file'])}\n")
        for ln in ctx["lines"]:
            out.append(f"  {rpad(ln.number, 4)}  {ln.text}\n")
            if ln.note:
                out.append(f"        -> {ln.note}\n")
        if not ctx["lines"]:
            out.append(para(_("orders.empty")) + "\n")
    out.append(f"\n{heading(_('section.results'))}\n")
    units = ctx["units"]
    w, rw = widest(units, "order"), widest(units, "result")
    for u in units:
        out.append(f"  {pad(u.order, w)}  {pad(u.result, rw)}  {u.reason}\n")
    if not units:
        out.append(para(_("orders.no_units")) + "\n")
    if ctx["dislodged"]:
        out.append(f"\n{heading(_('section.dislodged'))}\n")
        out += [bullet(d.label + colon + d.text) + "\n" for d in ctx["dislodged"]]
    out.append(f"\n{heading(_('section.adjustments'))}\n")
    out += [bullet(a.label + colon + a.text) + "\n" for a in ctx["adjustments"]]
    if not ctx["adjustments"]:
        out.append(para(_("nothing")) + "\n")
    out.append(f"\n{heading(_('section.bids'))}\n")
    for b in ctx["bids"]:
        out.append(bullet(f"{b['station']}, {b['paid']}{colon}{b['outcome']} ({b['reason']})") + "\n")
    if not ctx["bids"]:
        out.append(para(_("nothing")) + "\n")
    out.append(f"\n{heading(_('section.crates'))}\n{ledger(ctx['crates'])}\n")
    if ctx["stored"]:
        out.append(f"    ({ctx['stored']})\n")
    out.append(f"\n{heading(_('section.dollars'))}\n{ledger(ctx['dollars'])}\n")
    out.append(f"  {_('ledger.balanced') if ctx['balanced'] else _('ledger.unbalanced')}\n")
    if ctx["notes"]:
        out.append(f"\n{heading(_('section.notes'))}\n")
        out += [bullet(n) + "\n" for n in ctx["notes"]]
    out.append(f"\n{heading(_('section.vp'))}\n{vp_table(ctx['vp_rows'])}\n")
    out.append(f"  {pad(_('vp.total'), 50)}     {rpad(ctx['vp'], 6)}\n")
    out.append(f"  {_('vp.goal', vp=ctx['vp_goal'])}\n")
    out.append(f"\n{heading(_('section.position', turn=ctx['next_label'], turn_of=ctx['next_of']))}\n")
    out.append(f"  {_('position.cash')}{colon}{ctx['cash']}\n{para(ctx['upkeep'])}\n")
    units_now: list[str] = ctx["position_units"]
    out.append(
        f"  {_('position.units', n=len(units_now))}{colon}"
        f"{', '.join(units_now) if units_now else _('position.no_units')}\n"
    )
    districts = ctx["districts"]
    out.append(f"  {_('position.districts', n=len(districts))}{colon.rstrip()}\n")
    for d in districts:
        out.append(f"    {(d.code + '  ' + pad(d.name, 28) + '  ' + d.detail).strip()}\n")
    stations: list[str] = ctx["stations"]
    out.append(f"  {_('position.stations')}{colon}{', '.join(stations) if stations else _('none')}\n")
    if ctx["arrested"]:
        out.append(f"  {_('position.arrested')}{colon.rstrip()}\n")
        out += [bullet(a, 4) + "\n" for a in ctx["arrested"]]
    if ctx["returned"]:
        out.append(f"  {_('position.returned', turn=ctx['next_label'], turn_of=ctx['next_of'])}{colon.rstrip()}\n")
        out += [bullet(r, 4) + "\n" for r in ctx["returned"]]
    if not ctx["game_over"]:
        out.append(f"\n{heading(_('section.next', turn=ctx['next_title']))}\n")
        out.append(f"{para(ctx['price_next'])}\n{para(ctx['raid_next'])}\n")
        out.append(f"  {_('raid.you.effect')}{colon.rstrip()}\n")
        out += [bullet(e, 4) + "\n" for e in ctx["raid_effects"]]
    receipt = ctx["receipt"]
    if receipt:
        out.append(f"\n{heading(_('section.receipt'))}\n")
        out.append(f"{para(_('receipt.code', code=receipt['code']))}\n{para(_('receipt.how'))}\n")
        out.append(f"    {_('receipt.salt')}{colon}{receipt['salt']}\n")
        out += [f"    {o}\n" for o in receipt["orders"]]
    out.append(f"\n{_('map.attached')}\n")
    return "".join(out)


def report_html(ctx: Context) -> str:
    """A gang's private report as an HTML page (its stylesheet not inlined yet)."""
    _: Words = ctx["_"]
    colon = esc(ctx["colon"])
    out = [
        f"<h1>{swatch(ctx['gang']['colour'])}{esc(report_title(ctx))}</h1>\n",
        f'<p class="muted intro">{esc(_for_whom(ctx))}</p>\n',
    ]
    if ctx["winners"]:
        out.append(f'{h2(_("section.winner"))}\n<p class="headline">{esc(ctx["winners"])}</p>\n')
    out.append(f"\n{h2(_('section.orders'))}\n")
    if ctx["orders_file"] is None:
        out.append(f"<p>{esc(_('orders.none'))}</p>\n")
    else:
        out.append(f'<p class="muted">{esc(_("orders.file", file=ctx["orders_file"]))}</p>\n')
        if ctx["lines"]:
            out.append('<table role="presentation" class="data stack">\n')
            out.append(
                f'<tr class="head">{th(_("orders.line"), "right")}{th(_("orders.as_given"))}'
                f"{th(_('orders.understood'))}{th(_('orders.verdict'))}</tr>\n"
            )
            understood_label = f' data-label="{esc(_("orders.understood"))}"'
            verdict_label = esc(_("orders.verdict"))
            for ln in ctx["lines"]:
                message = colon + esc(ln.message) if ln.message else ""
                out.append(
                    f'<tr><td class="num inl">{esc(ln.number)}</td>'
                    f'<td class="inl"><span class="code">{esc(ln.text)}</span></td>'
                    f"<td{understood_label if ln.understood else ''}>"
                    f'<span class="code">{esc(ln.understood)}</span></td>'
                    f'<td data-label="{verdict_label}">{badge(ln.accepted, ln.status)}{message}</td></tr>\n'
                )
            out.append("</table>\n")
        else:
            out.append(f"<p>{esc(_('orders.empty'))}</p>\n")
    out.append(f"\n{h2(_('section.results'))}\n")
    if ctx["units"]:
        out.append('<table role="presentation" class="data stack">\n')
        out.append(f'<tr class="head">{th(_("orders.order"))}{th(_("orders.result"))}{th(_("orders.reason"))}</tr>\n')
        for u in ctx["units"]:
            out.append(
                f'<tr><td class="inl"><span class="code">{esc(u.order)}</span></td>'
                f'<td class="inl">{badge(u.succeeded, u.result)}</td><td>{esc(u.reason)}</td></tr>\n'
            )
        out.append("</table>\n")
    else:
        out.append(f"<p>{esc(_('orders.no_units'))}</p>\n")
    if ctx["dislodged"]:
        out.append(f"\n{h2(_('section.dislodged'))}\n<ul>\n")
        for d in ctx["dislodged"]:
            out.append(f'<li><span class="code">{esc(d.label)}</span>{colon}{esc(d.text)}</li>\n')
        out.append("</ul>\n")
    out.append(f"\n{h2(_('section.map'))}\n{_map_figure(ctx)}\n")
    out.append(f"\n{h2(_('section.adjustments'))}\n")
    if ctx["adjustments"]:
        out.append("<ul>\n")
        out += [f"<li><b>{esc(a.label)}</b>{colon}{esc(a.text)}</li>\n" for a in ctx["adjustments"]]
        out.append("</ul>\n")
    else:
        out.append(f"<p>{esc(_('nothing'))}</p>\n")
    out.append(f"\n{h2(_('section.bids'))}\n")
    if ctx["bids"]:
        out.append('<table role="presentation" class="data stack">\n')
        out.append(
            f'<tr class="head">{th(_("bids.station"))}{th(_("bids.paid"), "right")}{th(_("bids.outcome"))}'
            f"{th(_('orders.reason'))}</tr>\n"
        )
        paid_label = esc(_("bids.paid"))
        for b in ctx["bids"]:
            out.append(
                f'<tr><td>{esc(b["station"])}</td><td class="num" data-label="{paid_label}">{esc(b["paid"])}</td>'
                f"<td>{badge(b['won'], b['outcome'])}</td><td>{esc(b['reason'])}</td></tr>\n"
            )
        out.append("</table>\n")
    else:
        out.append(f"<p>{esc(_('nothing'))}</p>\n")
    out.append(f"\n{h2(_('section.crates'))}\n{html_ledger(ctx['crates'])}\n")
    if ctx["stored"]:
        out.append(f'<p class="muted caption">{esc(ctx["stored"])}</p>\n')
    out.append(f"\n{h2(_('section.dollars'))}\n{html_ledger(ctx['dollars'])}\n")
    if ctx["balanced"]:
        out.append(f'<p class="ok">{esc(_("ledger.balanced"))}</p>\n')
    else:
        out.append(f'<p class="bad">{esc(_("ledger.unbalanced"))}</p>\n')
    if ctx["notes"]:
        out.append(f"\n{h2(_('section.notes'))}\n{items(ctx['notes'])}")
    out.append(f"\n{h2(_('section.vp'))}\n")
    out.append('<table role="presentation" class="data">\n')
    out.append(f"<tr>{th('')}{th(_('vp.count'), 'right')}{th(_('vp.unit'), 'right')}</tr>\n")
    for r in ctx["vp_rows"]:
        out.append(
            f'<tr><td>{esc(r.label)}</td><td class="num">{esc(r.count)}</td><td class="num">{esc(r.vp)}</td></tr>\n'
        )
    out.append(
        f'<tr class="total"><td>{esc(_("vp.total"))}</td><td class="num"></td>'
        f'<td class="num">{esc(ctx["vp"])}</td></tr>\n'
    )
    out.append("</table>\n")
    out.append(f'<p class="muted">{esc(_("vp.goal", vp=ctx["vp_goal"]))}</p>\n')
    out.append(f"\n{h2(_('section.position', turn=ctx['next_label'], turn_of=ctx['next_of']))}\n")
    out.append(f"<p><b>{esc(_('position.cash'))}</b>{colon}{esc(ctx['cash'])}<br>{esc(ctx['upkeep'])}</p>\n")
    units_now: list[str] = ctx["position_units"]
    listed = ", ".join(units_now) if units_now else _("position.no_units")
    out.append(
        f'<p><b>{esc(_("position.units", n=len(units_now)))}</b>{colon}<span class="code">{esc(listed)}</span></p>\n'
    )
    out.append('<table role="presentation" class="data">\n')
    out.append(f"<tr>{th(_('position.code'))}{th(_('position.name'))}{th(_('position.feature'))}</tr>\n")
    for d in ctx["districts"]:
        out.append(
            f'<tr><td><span class="code">{esc(d.code)}</span></td><td>{esc(d.name)}</td><td>{esc(d.detail)}</td></tr>\n'
        )
    out.append("</table>\n")
    stations: list[str] = ctx["stations"]
    out.append(
        f"<p><b>{esc(_('position.stations'))}</b>{colon}{esc(', '.join(stations) if stations else _('none'))}</p>\n"
    )
    if ctx["arrested"]:
        out.append(f"<p><b>{esc(_('position.arrested'))}</b></p>\n{items(ctx['arrested'])}")
    if ctx["returned"]:
        returned = _("position.returned", turn=ctx["next_label"], turn_of=ctx["next_of"])
        out.append(f"<p><b>{esc(returned)}</b></p>\n{items(ctx['returned'])}")
    if not ctx["game_over"]:
        out.append(f"\n{h2(_('section.next', turn=ctx['next_title']))}\n")
        out.append(f"<p>{esc(ctx['price_next'])}</p>\n<p>{esc(ctx['raid_next'])}</p>\n")
        out.append(f"<p><b>{esc(_('raid.you.effect'))}</b></p>\n{items(ctx['raid_effects'])}")
    receipt = ctx["receipt"]
    if receipt:
        out.append(f"\n{h2(_('section.receipt'))}\n")
        out.append(f"<p>{esc(_('receipt.code', code=receipt['code']))}</p>\n<p>{esc(_('receipt.how'))}</p>\n")
        out.append(f'<pre class="code">{esc(_("receipt.salt"))}{colon}{esc(receipt["salt"])}\n')
        out += [f"{esc(o)}\n" for o in receipt["orders"]]
        out.append("</pre>\n")
    return page(ctx["lang"], report_title(ctx), ctx["game_title"], "".join(out))


# -- the public bulletin ------------------------------------------------------------------------


def bulletin_title(ctx: Context) -> str:
    _: Words = ctx["_"]
    return _("bulletin.heading", turn=ctx["turn_label"])


def bulletin_txt(ctx: Context) -> str:
    """The public bulletin as plain text."""
    _: Words = ctx["_"]
    colon: str = ctx["colon"]
    winners = ctx["winners"]
    out = [f"{ctx['game_title']}\n{bulletin_title(ctx)}\n{_('bulletin.intro')}\n{RULE}\n"]
    if winners:
        out.append(f"\n{heading(_('section.winner'))}\n{para(winners)}\n{para(_('winner.seed'))}\n")
    out.append("\n")
    if ctx["headline"]:
        if not winners:
            out.append(para(ctx["headline"].upper()) + "\n")
        out += [para(s) + "\n" for s in ctx["story"]]
    changed = ctx["changed"]
    if changed is not None:
        out.append(f"\n{heading(_('section.changed'))}\n")
        pw = max(widest(changed, "place"), len(_("changed.place")))
        bw = max(widest(changed, "before"), len(_("changed.before")))
        if changed:
            out.append(f"  {pad(_('changed.place'), pw)}  {pad(_('changed.before'), bw)}  {_('changed.after')}\n")
            out += [f"  {pad(c.place, pw)}  {pad(c.before, bw)}  {c.after}\n" for c in changed]
        else:
            out.append(para(_("changed.none")) + "\n")
        vp_changes = ctx["vp_changes"]
        if vp_changes:
            out.append(f"\n{para(_('changed.vp') + colon.rstrip())}\n")
            gw = max(widest(vp_changes, "name"), len(_("standings.gang")))
            out.append(
                f"  {pad(_('standings.gang'), gw)}  {rpad(_('changed.before'), 6)}  {rpad(_('changed.after'), 6)}"
                f"  {rpad(_('changed.vp_change'), 6)}\n"
            )
            out += [
                f"  {pad(v.name, gw)}  {rpad(v.before, 6)}  {rpad(v.after, 6)}  {rpad(v.change, 6)}\n"
                for v in vp_changes
            ]
        else:
            out.append(para(_("changed.vp_none")) + "\n")
    out.append(f"\n{heading(_('section.this_turn', turn=ctx['turn_title']))}\n")
    out.append(f"{para(ctx['price_now'])}\n{para(ctx['raid_now'])}\n")
    if ctx["raid_now_draw"]:
        out.append(para(ctx["raid_now_draw"]) + "\n")
    out.append(f"\n{heading(_('section.all_orders'))}\n")
    blocks = ctx["blocks"]
    for i, b in enumerate(blocks):
        out.append(b.name + ("" if b.submitted else f" ({_('orders.gang_none')})") + "\n")
        out += [f"  {o.line}\n" for o in b.orders]
        out += [f"  {c}\n" for c in b.changes]
        if i + 1 < len(blocks):
            out.append("\n")
    if ctx["dislodged"]:
        out.append(f"\n{heading(_('section.dislodged'))}\n")
        out += [bullet(d.label + colon + d.text) + "\n" for d in ctx["dislodged"]]
    out.append(f"\n{heading(_('section.assaults'))}\n")
    out += [bullet(a) + "\n" for a in ctx["assaults"]]
    if not ctx["assaults"]:
        out.append(para(_("assault.none")) + "\n")
    out.append(f"\n{heading(_('section.standings'))}\n")
    standings = ctx["standings"]
    gw = widest(standings, "name")
    out.append(
        f"  {pad(_('standings.gang'), gw)}  {rpad(_('standings.districts'), 9)}  {rpad(_('standings.stations'), 8)}"
        f"  {rpad(_('standings.assaults'), 8)}  {rpad(_('standings.vp'), 3)}\n"
    )
    for s in standings:
        out.append(
            f"  {pad(s.name, gw)}  {rpad(s.districts, 9)}  {rpad(s.stations, 8)}  {rpad(s.assaults, 8)}"
            f"  {rpad(s.vp, 3)}{'  *' if s.winner else ''}\n"
        )
    out.append(para(_("standings.note")) + "\n")
    out.append(f"\n{heading(_('section.corruption'))}\n")
    out += [f"  {_('corruption.row', station=c['station'], gang=c['gang'])}\n" for c in ctx["corruption"]]
    if not ctx["corruption"]:
        out.append(para(_("corruption.none")) + "\n")
    if not ctx["game_over"]:
        out.append(f"\n{heading(_('section.next', turn=ctx['next_title']))}\n")
        out.append(f"{para(ctx['price_next'])}\n{para(ctx['raid_next'])}\n")
        if ctx["raid_next_draw"]:
            out.append(para(ctx["raid_next_draw"]) + "\n")
    out.append(f"\n{_('map.attached')}\n")
    if ctx["charts"]:
        out.append(_("charts.attached", names=ctx["chart_names"]) + "\n")
    if ctx["first"]:
        out.append(f"\n{heading(_('section.house_rules'))}\n")
        out += [para(line) + "\n" for line in ctx["house_rules"]]
        out.append(f"\n{heading(_('section.seed'))}\n{para(_('seed.hash') + colon + ctx['seed_sha256'])}\n")
        out.append(f"\n{para(ctx['seed_how'])}\n")
        if ctx["seed_python"]:
            out.append(f"\n{para(_('seed.table'))}\n{para(ctx['seed_table'], 4)}\n")
            out.append(f'\n{para(_("seed.command"))}\n    python3 -c "{ctx["seed_python"]}"\n')
    out.append(f"\n{heading(_('credits'))}\n{para(ctx['credits'])}\n")
    return "".join(out)


def bulletin_content(ctx: Context) -> str:
    """The bulletin's HTML inside its page (the site's turn pages show it too)."""
    _: Words = ctx["_"]
    colon = esc(ctx["colon"])
    winners = ctx["winners"]
    out = [
        f"<h1>{esc(bulletin_title(ctx))}</h1>\n",
        f'<p class="muted intro">{esc(_("bulletin.intro"))}</p>\n',
    ]
    if winners:
        out.append(
            f'{h2(_("section.winner"))}\n<p class="headline">{esc(winners)}</p>\n<p>{esc(_("winner.seed"))}</p>\n'
        )
    out.append("\n")
    if ctx["headline"]:
        if not winners:
            out.append(f'<p class="headline">{esc(ctx["headline"])}</p>\n')
        out += [f'<p class="story">{esc(s)}</p>\n' for s in ctx["story"]]
    changed = ctx["changed"]
    if changed is not None:
        out.append(f"\n{h2(_('section.changed'))}\n")
        if changed:
            out.append('<table role="presentation" class="data changed">\n')
            out.append(f"<tr>{th(_('changed.place'))}{th(_('changed.before'))}{th(_('changed.after'))}</tr>\n")
            for c in changed:
                before = (swatch(c.before_colour) if c.before_colour else "") + esc(c.before)
                after = (swatch(c.after_colour) if c.after_colour else "") + esc(c.after)
                out.append(f"<tr><td>{esc(c.place)}</td><td>{before}</td><td>{after}</td></tr>\n")
            out.append("</table>\n")
        else:
            out.append(f"<p>{esc(_('changed.none'))}</p>\n")
        if ctx["vp_changes"]:
            out.append(f"<p><b>{esc(_('changed.vp'))}</b></p>\n")
            out.append('<table role="presentation" class="data vpchanges">\n')
            out.append(
                f"<tr>{th(_('standings.gang'))}{th(_('changed.before'), 'right')}{th(_('changed.after'), 'right')}"
                f"{th(_('changed.vp_change'), 'right')}</tr>\n"
            )
            for v in ctx["vp_changes"]:
                sign = "gain" if v.change.startswith("+") else "loss"
                out.append(
                    f'<tr><td>{swatch(v.colour)}{esc(v.name)}</td><td class="num">{esc(v.before)}</td>'
                    f'<td class="num">{esc(v.after)}</td><td class="num {sign}">{esc(v.change)}</td></tr>\n'
                )
            out.append("</table>\n")
        else:
            out.append(f"<p>{esc(_('changed.vp_none'))}</p>\n")
    out.append(f"\n{h2(_('section.this_turn', turn=ctx['turn_title']))}\n")
    out.append(f"<p>{esc(ctx['price_now'])}</p>\n<p>{esc(ctx['raid_now'])}</p>\n")
    if ctx["raid_now_draw"]:
        out.append(f'<p class="muted hash">{esc(ctx["raid_now_draw"])}</p>\n')
    out.append(f"\n{h2(_('section.all_orders'))}\n")
    out.append('<table role="presentation" class="data stack">\n')
    for b in ctx["blocks"]:
        none = "" if b.submitted else f' <span class="muted">({esc(_("orders.gang_none"))})</span>'
        out.append(f'<tr><td colspan="3" class="group">{swatch(b.colour)}{esc(b.name)}{none}</td></tr>\n')
        for o in b.orders:
            out.append(
                f'<tr><td class="inl"><span class="code">{esc(o.order)}</span></td>'
                f'<td class="inl">{badge(o.succeeded, o.result)}</td><td>{esc(o.reason)}</td></tr>\n'
            )
        out += [f'<tr><td colspan="3"><i>{esc(c)}</i></td></tr>\n' for c in b.changes]
    out.append("</table>\n")
    if ctx["dislodged"]:
        out.append(f"\n{h2(_('section.dislodged'))}\n<ul>\n")
        out += [f"<li>{esc(d.label)}{colon}{esc(d.text)}</li>\n" for d in ctx["dislodged"]]
        out.append("</ul>\n")
    out.append(f"\n{h2(_('section.assaults'))}\n")
    out.append(items(ctx["assaults"]) if ctx["assaults"] else f"<p>{esc(_('assault.none'))}</p>\n")
    out.append(f"\n{h2(_('section.map'))}\n{_map_figure(ctx)}\n\n")
    if ctx["charts"]:
        out.append(f"\n{h2(_('section.charts'))}\n")
        out += [chart_figure(c["src"], c["src"], c["title"]) for c in ctx["charts"]]
    out.append(f"\n{h2(_('section.standings'))}\n")
    out.append('<table role="presentation" class="data standings">\n')
    out.append(
        f"<tr>{th(_('standings.gang'))}{th(_('standings.districts'), 'right')}"
        f"{th(_('standings.supply'), 'right', 'detail')}{th(_('standings.speakeasies'), 'right', 'detail')}"
        f"{th(_('standings.stations'), 'right')}{th(_('standings.assaults'), 'right')}{th(_('standings.vp'), 'right')}"
        "</tr>\n"
    )
    winner = ' class="winner"'
    for s in ctx["standings"]:
        out.append(
            f"<tr{winner if s.winner else ''}><td>{swatch(s.colour)}{esc(s.name)}</td>"
            f'<td class="num">{esc(s.districts)}</td><td class="num detail">{esc(s.supply)}</td>'
            f'<td class="num detail">{esc(s.speakeasies)}</td><td class="num">{esc(s.stations)}</td>'
            f'<td class="num">{esc(s.assaults)}</td><td class="num vp">{esc(s.vp)}</td></tr>\n'
        )
    out.append("</table>\n")
    out.append(f'<p class="muted">{esc(_("standings.note"))}</p>\n')
    out.append(f"\n{h2(_('section.corruption'))}\n")
    if ctx["corruption"]:
        out.append("<ul>\n")
        for c in ctx["corruption"]:
            row = esc(_("corruption.row", station=c["station"], gang=""))
            out.append(f"<li>{row}{swatch(c['colour'])}{esc(c['gang'])}</li>\n")
        out.append("</ul>\n")
    else:
        out.append(f"<p>{esc(_('corruption.none'))}</p>\n")
    if not ctx["game_over"]:
        out.append(f"\n{h2(_('section.next', turn=ctx['next_title']))}\n")
        out.append(f"<p>{esc(ctx['price_next'])}</p>\n<p>{esc(ctx['raid_next'])}</p>\n")
        if ctx["raid_next_draw"]:
            out.append(f'<p class="muted hash">{esc(ctx["raid_next_draw"])}</p>\n')
    out.append("\n")
    if ctx["first"]:
        out.append(f"\n{h2(_('section.house_rules'))}\n")
        out += [f"<p>{esc(line)}</p>\n" for line in ctx["house_rules"]]
        out.append(f"\n{h2(_('section.seed'))}\n")
        out.append(
            f"<p>{esc(_('seed.hash'))}{esc(ctx['colon'].rstrip())}<br>"
            f'<span class="code hash">{esc(ctx["seed_sha256"])}</span></p>\n'
        )
        out.append(f"<p>{esc(ctx['seed_how'])}</p>\n")
        if ctx["seed_python"]:
            out.append(f'<p>{esc(_("seed.table"))}<br><span class="code">{esc(ctx["seed_table"])}</span></p>\n')
            out.append(f"<p>{esc(_('seed.command'))}</p>\n")
            out.append(f'<pre class="code">{esc(ctx["seed_python"])}</pre>\n')
    out.append("\n")
    out.append(f'<p class="muted credits"><b>{esc(_("credits"))}</b>{colon}{esc(ctx["credits"])}</p>\n')
    return "".join(out)


def bulletin_html(ctx: Context) -> str:
    """The public bulletin as an HTML page (its stylesheet not inlined yet)."""
    return page(ctx["lang"], bulletin_title(ctx), ctx["game_title"], bulletin_content(ctx))


# -- the web site -------------------------------------------------------------------------------


class Link(Protocol):
    """A link to a turn's page: its label and where it is from the linking page."""

    @property
    def label(self) -> str: ...

    @property
    def href(self) -> str: ...


def _nav(home: str, home_word: str, prev: Link | None, nxt: Link | None) -> str:
    out = f'<p class="nav">\n<a href="{esc(home)}">{esc(home_word)}</a>\n'
    if prev:
        out += f' · <a href="{esc(prev.href)}">← {esc(prev.label)}</a>'
    if nxt:
        out += f' · <a href="{esc(nxt.href)}">{esc(nxt.label)} →</a>'
    return out + "</p>"


def site_turn_html(
    ctx: Context, *, home: str, prev: Link | None, nxt: Link | None, svg: str, words: Mapping[str, str]
) -> str:
    """A turn's page of the game's web site: the public bulletin between links to the
    turns before and after, and to the map as SVG. Nothing here that the bulletin
    does not publish."""
    nav = _nav(home, words["home"], prev, nxt)
    content = f'{nav}\n{bulletin_content(ctx)}\n<p><a href="{esc(svg)}">{esc(words["svg"])}</a></p>\n{nav}\n'
    return page(ctx["lang"], bulletin_title(ctx), ctx["game_title"], content)


def site_index_html(
    *,
    lang: str,
    game_title: str,
    title: str,
    words: Mapping[str, str],
    turns: Sequence[Link],
    latest_map: str,
    latest_map_title: str,
    charts: Sequence[tuple[str, str, str]],
) -> str:
    """The home page of the game's web site: the latest map, the timeline of the
    turns, the charts (``(png, svg, title)``) and the rules."""
    latest = turns[-1]
    out = [
        f"<h1>{esc(title)}</h1>\n",
        f'<p class="muted intro">{esc(words["public"])}</p>\n',
        f"\n{h2(words['latest'] + ': ' + latest.label)}\n",
        f'<p class="figure"><a href="{esc(latest.href)}"><img src="{esc(latest_map)}" alt="{esc(latest_map_title)}"'
        ' width="672" class="map"></a></p>\n',
        f'\n{h2(words["turns"])}\n<ol class="timeline">\n',
    ]
    out += [f'<li><a href="{esc(t.href)}">{esc(t.label)}</a></li>\n' for t in turns]
    out.append(f"</ol>\n\n{h2(words['charts'])}\n")
    out += [chart_figure(png, svg, alt) for png, svg, alt in charts]
    out.append(f'\n{h2(words["rules"])}\n<p><a href="rules.html">{esc(words["rules"])}</a></p>\n')
    return page(lang, title, game_title, "".join(out))
