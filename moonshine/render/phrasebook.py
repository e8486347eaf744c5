"""The words of the reports and bulletins, in English (every other language is the
gettext catalogue's, ``moonshine.text.catalogue``): a keyed catalogue (``MESSAGES``), the fixed
words of results, and how a turn, a sum and punctuation are written. The reasons of results are values
explained through the gettext catalogue (``moonshine.engine.outcome``, ``moonshine.text.catalogue``)."""

from __future__ import annotations

from moonshine.text import money
from moonshine.text.catalogue import Catalogue, dollars, fill, fmt, keyed
from moonshine.text.catalogue import check_language as check_language
from moonshine.text.money import Money
from moonshine.variants.moonshine.calendar import Turn
from moonshine.variants.moonshine.map import Feature, UnitKind

# key -> the English (or its singular and plural); ``{name}`` fields are filled by
# ``message``. Every other language is its gettext catalogue's (``moonshine.text.catalogue``).
MESSAGES: Catalogue = {
    # -- headings -------------------------------------------------------------------
    "report.title": "Private report",
    "report.heading": "{gang}: private report, {turn}",
    "report.for_player": "For {player}. This report is for your gang only: do not forward it.",
    "report.for_gang": "This report is for your gang only: do not forward it.",
    "bulletin.title": "Bulletin",
    "bulletin.heading": "Public bulletin, {turn}",
    "bulletin.intro": "Sent to every player. Sales, bids, stocks and cash stay private (R19).",
    "section.orders": "Your orders",
    "section.results": "Your units' orders and results",
    "section.dislodged": "Dislodged units and retreats",
    "section.adjustments": "Adjustments: recruits, disbands, cuts (R17, R18)",
    "section.bids": "Corruption bids (secret, R19)",
    "section.crates": "Crates",
    "section.dollars": "Dollars",
    "section.notes": "Notes",
    "section.vp": "Victory points (R24)",
    "section.position": "Your position at the start of {turn}",
    "section.next": "{turn}: price and raid",
    "section.all_orders": "Orders and results",
    "section.assaults": "Assaults on police stations",
    "section.standings": "Control and victory points",
    "section.corruption": "Corrupted police stations",
    "section.winner": "The game is over",
    "section.seed": "The raid draws (R21)",
    "section.house_rules": "This game's rules",
    "section.map": "The map",
    "section.this_turn": "{turn}: price and raid",
    "section.news": "The game",
    # -- orders ---------------------------------------------------------------------
    "orders.file": "Orders file: {file}",
    "orders.none": "No orders received: your units held, you sold the most you could and bid nothing (R12).",
    "orders.empty": "The file holds no order.",
    "orders.line": "line",
    "orders.as_given": "as given",
    "orders.understood": "understood as",
    "orders.verdict": "verdict",
    "orders.order": "order",
    "orders.result": "result",
    "orders.reason": "reason",
    "orders.no_units": "You had no unit on the board.",
    "orders.no_order": "no order",
    "orders.unordered": "you gave it no order (R12)",
    "orders.refused_held": "your order {order} was refused: {reason}",
    "orders.refused_later": "your later order {order} (line {n}) was refused: {reason}",
    "orders.not_done": "Not carried out",
    "orders.not_done_line": "line {n}, {order}, {status}: {reason}",
    "orders.gang_none": "no orders received, R12",
    "orders.civil_disorder": "in civil disorder: orders written by the civil-disorder player, {player} (R26)",
    "report.civil_disorder": (
        "Your gang was in civil disorder: these orders were written by the civil-disorder player ({player}, "
        "R26), from the seed {seed}. Your own orders end the civil disorder."
    ),
    "orders.recruited": ("recruited: {units}", "recruited: {units}"),
    "orders.disbanded": ("disbanded: {units}", "disbanded: {units}"),
    "none": "none",
    "nothing": "Nothing this turn.",
    # -- dislodgements ----------------------------------------------------------------
    "dislodged.by": "dislodged by {by}",
    "dislodged.plain": "dislodged",
    "dislodged.retreated": "retreated to {district}",
    "dislodged.disbanded": "disbanded",
    # -- bids ---------------------------------------------------------------------------
    "bids.station": "station",
    "bids.paid": "paid",
    "bids.outcome": "outcome",
    "bids.won": "won",
    "bids.lost": "not won",
    # -- ledger ---------------------------------------------------------------------------
    "crates.before_raid": "In your warehouses at the end of last turn",
    "crates.seized": "Taken by this turn's raid (R22)",
    "crates.at_start": "In your warehouses when orders were written",
    "crates.captured": "In warehouses you took (R13)",
    "crates.captured_from": "In your warehouses that others took (R13)",
    "crates.produced": "Produced by your supply zones (R14)",
    "crates.looted": "Seized from police stations (R11)",
    "crates.held": "Held, for sale",
    "crates.sold": "Sold (you could sell {capacity}, R15)",
    "crates.lost": "Lost: no room left (R16)",
    "crates.stored": "Stored in your warehouses (R16)",
    "crates.crates": "crates",
    "dollars.start": "Cash at the start of the turn",
    "dollars.upkeep": "Upkeep (R17)",
    "dollars.recruits": "Recruits (R17)",
    "dollars.bribes": "Bribes paid (R19)",
    "dollars.revenue": ("Sales: {n} crate at {price} (R15)", "Sales: {n} crates at {price} (R15)"),
    "dollars.end": "Cash at the end of the turn",
    "ledger.balanced": "The accounts balance.",
    "ledger.unbalanced": "WARNING: these accounts do not balance; please tell the referee.",
    # -- victory points --------------------------------------------------------------------
    "vp.districts": "Ordinary districts and warehouses (1 VP each)",
    "vp.speakeasies": "Speakeasies (2 VP each)",
    "vp.supply": "Supply zones (3 VP each)",
    "vp.stations": "Police stations you corrupt (3 VP each)",
    "vp.assaults": "Police stations taken by assault (5 VP each)",
    "vp.count": "number",
    "vp.total": "Total",
    "vp.goal": "{vp} VP for victory.",
    "vp.unit": "VP",
    # -- position ------------------------------------------------------------------------------
    "position.cash": "Cash",
    "position.upkeep": (
        "Upkeep due next turn: {amount} for {n} unit (R17)",
        "Upkeep due next turn: {amount} for {n} units (arrested ones included, R17)",
    ),
    "position.units": "Units ({n})",
    "position.districts": "Districts ({n})",
    "position.stocks": "Warehouse stocks",
    "position.stations": "Police stations you corrupt",
    "position.arrested": "Arrested units",
    "position.arrested_row": (
        "{unit}, arrested in {taken_in}, held by the police ({station}, {code}): back at the start of {turn} "
        "in {code}, or in the nearest district you control that can take it (R22)"
    ),
    "position.returned": "Released at the opening of {turn}",
    "position.code": "district",
    "position.name": "name",
    "position.feature": "feature",
    "position.crates": ("{n} crate", "{n} crates"),
    "position.no_units": "no unit on the board",
    # -- price and raid --------------------------------------------------------------------------
    "price.now": "Price this turn: {price} a crate.",
    "price.next": "Price: {price} a crate ({reason}).",
    "raid.label": "Raid",
    "raid.this_turn": "This turn, {text}.",
    "raid.next": "At the start of the turn, {text}.",
    "raid.none": "no raid",
    "raid.no_raid": "No raid.",
    "raid.police": "the police ({station}, {code})",
    "raid.untouchables": "the Untouchables",
    "raid.raided": "{who} raided {district}",
    "raid.raided_plural": "{who} raided {district}",
    "raid.nobody": "which nobody controls: no effect",
    "raid.spared": "the district is spared, since {gang} corrupts the station",
    "raid.controller": "controlled by {gang}",
    "raid.seized": ("{n} crate seized", "{n} crates seized"),
    "raid.destroyed": ("{n} crate destroyed", "{n} crates destroyed"),
    "raid.closed": "the speakeasy returns to neutral",
    "raid.dry": "the supply zone produces nothing this turn",
    "raid.empty": "nothing to seize",
    "raid.arrested": ("{units} arrested", "{units} arrested"),
    "raid.units_spared": (
        "{units} spared, since its gang corrupts the station",
        "{units} spared, since their gang corrupts the station",
    ),
    "raid.draw": "Draw (HMAC-SHA256, R21): {draw}",
    "seed.replaced.derived-from-start-mail": (
        "The raid seed was replaced on {date}; its new hash is {hash}; the earlier one could be derived "
        "from the start mail."
    ),
    "seed.replaced.revealed-at-end": (
        "The raid seed was replaced on {date}; its new hash is {hash}; the earlier one was revealed when "
        "the game was terminated, before a master resumed it."
    ),
    "raid.you.none": "It does not concern you.",
    "raid.you.spared": "Your district {district} is spared: you corrupt the station.",
    "raid.you.seized": (
        "{n} of your crates in {district} was seized.",
        "{n} of your crates in {district} were seized.",
    ),
    "raid.you.destroyed": (
        "{n} of your crates in {district} was destroyed.",
        "{n} of your crates in {district} were destroyed.",
    ),
    "raid.you.closed": "You lose the speakeasy in {district}: it returns to neutral.",
    "raid.you.dry": "Your supply zone in {district} produces nothing this turn.",
    "raid.you.hit": "Your district {district} is raided.",
    "raid.you.arrested": (
        "Your {unit} is arrested: off the board this turn, still paying upkeep; back at the start of {turn} in {code}."
    ),
    "raid.you.unit_spared": "Your {unit} is spared: you corrupt the station.",
    "raid.you.effect": "What it does to you",
    "raid.done.spared": "{who} raided your district {district}, and spared it: you corrupt the station.",
    "raid.done.seized": (
        "{n} crate of yours was seized by the raid on {district} (R22).",
        "{n} crates of yours were seized by the raid on {district} (R22).",
    ),
    "raid.done.destroyed": (
        "{n} crate of yours was destroyed by the raid on {district} (R23).",
        "{n} crates of yours were destroyed by the raid on {district} (R23).",
    ),
    "raid.done.closed": "Your speakeasy in {district} returned to neutral: {who} raided it (R22).",
    "raid.done.dry": "Your supply zone in {district} produced nothing: {who} raided it (R22).",
    "raid.done.arrested": (
        "{unit} was arrested by the raid on {district} (R22): off the board this turn, still paying upkeep; "
        "back at the start of {turn} in {code}."
    ),
    "raid.done.unit_spared": "{unit} was spared by the raid on {district}: you corrupt the station.",
    "happened.lost": "You lost {district} to {gang}.",
    "happened.lost_neutral": "You lost {district}: nobody controls it now.",
    "happened.station_lost": "{gang} now corrupts the {station} ({code}): you no longer do.",
    "happened.station_freed": "Nobody corrupts the {station} ({code}) now: you no longer do.",
    "happened.captured_from": (
        "{n} crate of yours was lost with the warehouses others took (R13).",
        "{n} crates of yours were lost with the warehouses others took (R13).",
    ),
    "section.happened": "What happened to your gang",
    # -- bulletin --------------------------------------------------------------------------------
    "standings.gang": "Gang",
    "standings.districts": "Districts",
    "standings.supply": "Supply",
    "standings.speakeasies": "Speakeasies",
    "standings.stations": "Stations",
    "standings.assaults": "Assaults",
    "standings.vp": "VP",
    "standings.note": (
        "Stations: police stations the gang corrupts (3 VP each); assaults: stations it has taken (5 VP each)."
    ),
    "assault.took": "{gang}: {unit} took the police station in {station} ({strength} against {needed})",
    "assault.none": "No successful assault this turn.",
    "corruption.none": "No station is corrupted.",
    "corruption.row": "{station}: {gang}",
    "winner.one": "{gangs} wins with {vp} VP.",
    "winner.many": "{gangs} win together with {vp} VP.",
    "winner.seed": (
        "The referee now makes the game's secret seed public: with it, anyone can check every raid draw "
        "against the hash published in the first bulletin."
    ),
    "seed.hash": "SHA-256 of the game's secret seed",
    "seed.how": (
        "Each turn's raid is drawn before orders: HMAC-SHA256 with the seed as key and the turn's name (e.g. "
        "spring-1924) as message, read as a big-endian integer, modulo the raid table's total weight "
        "({total}), picks the entry, walking the table in its order. The seed is revealed when the game "
        "ends: then anyone can check it against this hash and recompute every draw."
    ),
    "seed.command": (
        "In Python, with the revealed seed for SEED and the turn's name (this gives the index into the table):"
    ),
    "seed.table": "The raid table (district: weight):",
    # -- the bulletin's story and what changed (moonshine/variants/moonshine/story.py) ------------------------------
    "story.headline.win": "{gang} wins the gang war",
    "story.headline.wins": "{gangs} share the spoils of the gang war",
    "story.headline.assault": "{station} ({code}) stormed by {gang}",
    "story.headline.station": "Police on the take: {gang} buys {station} ({code})",
    "story.headline.raid_leader": "Raid on the leader: {gang} hit in {district}",
    "story.headline.wiped_out": "{gang} wiped off the map",
    "story.headline.last_speakeasy": "{gang} loses its last speakeasy",
    "story.headline.price_up": "Crate price soars to {price}",
    "story.headline.price_down": "Crate price slumps to {price}",
    "story.headline.leader": "{gang} takes the lead",
    "story.headline.gain": ("{gang} gains a district", "{gang} gains {n} districts"),
    "story.headline.quiet": "A quiet turn: no district changes hands",
    "story.win.one": (
        "{gang} ends the game with {vp} VP, one ahead of {other}.",
        "{gang} ends the game with {vp} VP, {n} ahead of {other}.",
    ),
    "story.win.alone": "{gang} ends the game with {vp} VP.",
    "story.win.many": "{gangs} end the game level with {vp} VP.",
    "story.station.bought": "{gang} now has the police of the {station} ({code}) on its payroll.",
    "story.station.switched": (
        "{gang} now has the police of the {station} ({code}) on its payroll, until now paid by {other}."
    ),
    "story.bought.many": ("One police station bought: {items}.", "{n} police stations bought: {items}."),
    "story.bought.item": "{code} ({station}) by {gang}",
    "story.raid_leader": "{text}: the leader is hit.",
    "story.wiped_out": "{gang} has no unit and no district left.",
    "story.last_speakeasy": "{gang} lost its last speakeasy, {district}.",
    "story.price": "The price of a crate goes from {before} to {after} ({reason}).",
    "story.leader": "{gang} takes the lead with {vp} VP.",
    "story.lead.one": "{gang} leads with {vp} VP.",
    "story.lead.many": "{gangs} share the lead with {vp} VP.",
    "story.changed": ("One district changed hands.", "{n} districts changed hands."),
    "story.net.gains": "Net gains: {items}.",
    "story.net.losses": "Net losses: {items}.",
    "story.net.item": ("{gang}, one district", "{gang}, {n} districts"),
    "story.net.even": "No gang gained or lost districts on balance.",
    "story.unchanged": "No district changed hands.",
    "story.dislodged": ("One unit was dislodged: {units}.", "{n} units were dislodged: {units}."),
    "story.retreated": "{unit} ({gang}), which retreated to {district}",
    "story.disbanded": "{unit} ({gang}), which was disbanded",
    "story.taken": "{gang} took the {station} ({code}) with {unit}.",
    "story.raid": "{text}.",
    "story.stations_freed": (
        "A police station is no longer paid by anyone: {stations}.",
        "Police stations no longer paid by anyone: {stations}.",
    ),
    "story.station_freed": "{code} ({station}), until now paid by {gang}",
    "section.changed": "What changed",
    "changed.place": "District",
    "changed.before": "Before",
    "changed.after": "After",
    "changed.nobody": "neutral",
    "changed.station": "{station} ({code})",
    "changed.uncorrupted": "nobody",
    "changed.none": "No district or station changed hands.",
    "changed.vp": "Victory points gained or lost",
    "changed.vp_change": "Change",
    "changed.vp_none": "No gang gained or lost VP.",
    "orders.held": ("held: {units}", "held: {units}"),
    "seed.no_raids": "This map has no raid table: no raid is ever drawn (R21).",
    "credits": "Credits",
    "map.alt": "Map of {title}",
    "map.alt_news": "Map of {title}. {news}",
    "section.charts": "How the game is going",
    "charts.attached": "The charts are attached ({names}).",
    "map.title_shows": "the orders, and the position after them",
    "map.caption": "The position at the start of {turn}, with this turn's orders as arrows (failed ones crossed).",
    "map.attached": "The map is attached (map.png).",
    "section.receipt": "Your receipt",
    "summary.deadline": "Next deadline",
    "summary.no_deadline": "Not set yet for {turn}; the game master will announce it.",
    "summary.send": "What to send",
    "summary.send_to": (
        "Your orders for {turn}, one order a line, by email to {address} (a reply to this mail will do)."
    ),
    "summary.send_gm": "Your orders for {turn}, one order a line, to the game master.",
    "summary.vp": "Victory points",
    "summary.vp_rank": (
        "{vp} VP, rank {rank} of {n} gang ({goal} VP for victory)",
        "{vp} VP, rank {rank} of {n} gangs ({goal} VP for victory)",
    ),
    "map.closeup_alt": "Close-up of {title}: your districts and their neighbours",
    "map.closeup_caption": "Your districts and their neighbours, larger; the whole map follows.",
    "map.svg": "SVG (zoom without limit)",
    "map.legend": "Legend",
    "map.legend_alt": "Legend of the map: what its colours, symbols and arrows mean",
    "map.attached_closeup": "The map is attached, with a close-up of your area.",
    "receipt.code": "The orders recorded for you give the receipt {code}: it must be the one in your acknowledgement.",
    "receipt.how": "To check it yourself (the README shows the few lines of Python), use this salt and these orders:",
    "receipt.salt": "salt",
    "game_over": "The game is over.",
}

# The fixed words of results, statuses and adjustments.
WORDS: Catalogue = {
    "word.succeeded": "succeeded",
    "word.failed": "failed",
    "word.accepted": "accepted",
    "word.rejected": "rejected",
    "word.replaced": "replaced",
    "word.ignored": "ignored",
    "word.header": "header",
    "word.recruit": "recruit",
    "word.disband": "disband",
    "word.recruit cancelled": "recruit cancelled",
    "word.bid cut": "bid cut",
    "word.bid refused": "bid refused",
    "word.disbanded for upkeep": "disbanded for upkeep",
    "word.spring": "Spring",
    "word.autumn": "Autumn",
}

FEATURES: Catalogue = {
    "feature.supply": "supply zone",
    "feature.speakeasy": "speakeasy",
    "feature.warehouse": "warehouse",
}

UNIT_KINDS: Catalogue = {
    "unit_kind.H": "henchman",
    "unit_kind.L": "delivery man",
}

# How a turn is written: its label (``Spring 1924``, a name in English; ``printemps 1924``
# in French), inside a sentence (French: ``le printemps 1924``, ``l'automne 1924``) and
# after "the start of" (French: ``du printemps 1924``, ``de l'automne 1924``).
TURNS: Catalogue = {
    "turn.label": "{season} {year}",
    "turn.the.spring": "Spring {year}",
    "turn.the.autumn": "Autumn {year}",
    "turn.of.spring": "Spring {year}",
    "turn.of.autumn": "Autumn {year}",
}


def message(language: str, key: str, /, **fields: object) -> str:
    """The reports' catalogue text for ``key`` in ``language``, its ``{fields}`` filled
    (a whole number ``n`` picks the singular or the plural)."""
    return fill(language, keyed(check_language(language), MESSAGES, key, fields.get("n")), **fields)


def word(language: str, text: str) -> str:
    """A fixed word (result, status, adjustment kind, season) in ``language``; an
    unknown word is returned as it is."""
    key = f"word.{text}"
    return keyed(check_language(language), WORDS, key) if key in WORDS else text


def feature_label(language: str, feature: Feature) -> str:
    if feature is Feature.NONE:
        return ""
    return keyed(check_language(language), FEATURES, f"feature.{feature.name.lower()}")


def kind_label(language: str, kind: UnitKind) -> str:
    return keyed(check_language(language), UNIT_KINDS, f"unit_kind.{kind.name}")


def turn_label(language: str, turn: str, *, capital: bool = False) -> str:
    """``Spring 1924`` / ``printemps 1924``; a name that is not a turn is returned as it is."""
    try:
        t = Turn.parse(turn)
    except ValueError:
        return turn
    text = keyed(check_language(language), TURNS, "turn.label").format(season=word(language, t.season), year=t.year)
    return text[:1].upper() + text[1:] if capital else text


def _turn_in(language: str, turn: str, how: str) -> str:
    try:
        t = Turn.parse(turn)
    except ValueError:
        return turn
    key = f"turn.{how}.{t.season}"
    if key not in TURNS:
        return turn_label(language, turn)
    return keyed(check_language(language), TURNS, key).format(year=t.year)


def turn_of(language: str, turn: str) -> str:
    """The turn after "the start of": ``Spring 1924`` / ``du printemps 1924``, ``de l'automne 1924``."""
    return _turn_in(language, turn, "of")


def colon(language: str) -> str:
    """``: `` in English, `` : `` in French."""
    return fmt(check_language(language), "format.colon")


def semicolon(language: str) -> str:
    return fmt(check_language(language), "format.semicolon")


def deadline_and_orders(language: str, turn: str, *, deadline: str, send_to: str) -> tuple[str, str]:
    """A report's first two lines for the next turn (``turn``: as a sentence words it,
    "Autumn 1924", "l'automne 1924"): its deadline (``deadline``, a sentence; "not set
    yet" when empty), and what to send where (``send_to``: the judge's address, else the
    game master)."""
    due = deadline or message(language, "summary.no_deadline", turn=turn)
    if send_to:
        return due, message(language, "summary.send_to", turn=turn, address=send_to)
    return due, message(language, "summary.send_gm", turn=turn)


def the_turn(language: str, turn: str) -> str:
    """A turn inside a sentence: ``Spring 1924`` in English; ``le printemps 1924``,
    ``l'automne 1924`` in French."""
    return _turn_in(language, turn, "the")


def money_text(language: str, cents: Money) -> str:
    """``$12.50`` in English, ``12,50 $`` in French."""
    return dollars(check_language(language), money.fmt(cents))
