"""The words of the reports and bulletins in English and French: a message catalogue
(``MESSAGES``) and the fixed words of results. The reasons of results are values
explained through the gettext catalogue (``moonshine.outcome``, ``moonshine.text``)."""

from __future__ import annotations

from collections.abc import Mapping

from moonshine import money
from moonshine.geo import Feature, UnitKind
from moonshine.money import Money
from moonshine.turns import Turn

LANGUAGES = ("en", "fr")

# key -> {language: text}; ``{name}`` fields are filled by ``message``.
MESSAGES: dict[str, dict[str, str]] = {
    # -- headings -------------------------------------------------------------------
    "report.title": {"en": "Private report", "fr": "Rapport privé"},
    "report.heading": {"en": "{gang}: private report, {turn}", "fr": "{gang} : rapport privé, {turn}"},
    "report.for_player": {
        "en": "For {player}. This report is for your gang only: do not forward it.",
        "fr": "Pour {player}. Ce rapport ne concerne que votre gang : ne le transmettez pas.",
    },
    "report.for_gang": {
        "en": "This report is for your gang only: do not forward it.",
        "fr": "Ce rapport ne concerne que votre gang : ne le transmettez pas.",
    },
    "bulletin.title": {"en": "Bulletin", "fr": "Bulletin"},
    "bulletin.heading": {"en": "Public bulletin, {turn}", "fr": "Bulletin public, {turn}"},
    "bulletin.intro": {
        "en": "Sent to every player. Sales, bids, stocks and cash stay private (R19).",
        "fr": "Envoyé à tous les joueurs. Ventes, offres, stocks et caisses restent privés (R19).",
    },
    "section.orders": {"en": "Your orders", "fr": "Vos ordres"},
    "section.results": {"en": "Your units' orders and results", "fr": "Ordres et résultats de vos unités"},
    "section.dislodged": {"en": "Dislodged units and retreats", "fr": "Unités délogées et retraites"},
    "section.adjustments": {
        "en": "Adjustments: recruits, disbands, cuts (R17, R18)",
        "fr": "Ajustements : recrues, renvois, réductions (R17, R18)",
    },
    "section.bids": {"en": "Corruption bids (secret, R19)", "fr": "Offres de corruption (secrètes, R19)"},
    "section.crates": {"en": "Crates", "fr": "Caisses"},
    "section.dollars": {"en": "Dollars", "fr": "Dollars"},
    "section.notes": {"en": "Notes", "fr": "Remarques"},
    "section.vp": {"en": "Victory points (R24)", "fr": "Points de victoire (R24)"},
    "section.position": {"en": "Your position at the start of {turn}", "fr": "Votre position au début {turn_of}"},
    "section.next": {"en": "{turn}: price and raid", "fr": "{turn} : prix et descente"},
    "section.all_orders": {"en": "Orders and results", "fr": "Ordres et résultats"},
    "section.assaults": {"en": "Assaults on police stations", "fr": "Assauts contre les postes de police"},
    "section.standings": {"en": "Control and victory points", "fr": "Contrôle et points de victoire"},
    "section.corruption": {"en": "Corrupted police stations", "fr": "Postes de police corrompus"},
    "section.winner": {"en": "The game is over", "fr": "La partie est terminée"},
    "section.seed": {"en": "The raid draws (R21)", "fr": "Le tirage des descentes (R21)"},
    "section.house_rules": {"en": "This game's rules", "fr": "Les règles de cette partie"},
    "section.map": {"en": "The map", "fr": "La carte"},
    "section.this_turn": {"en": "{turn}: price and raid", "fr": "{turn} : prix et descente"},
    # -- orders ---------------------------------------------------------------------
    "orders.file": {"en": "Orders file: {file}", "fr": "Fichier d'ordres : {file}"},
    "orders.none": {
        "en": "No orders received: your units held, you sold the most you could and bid nothing (R12).",
        "fr": "Aucun ordre reçu : vos unités ont tenu, vous avez vendu le maximum et n'avez rien offert (R12).",
    },
    "orders.empty": {"en": "The file holds no order.", "fr": "Le fichier ne contient aucun ordre."},
    "orders.line": {"en": "line", "fr": "ligne"},
    "orders.as_given": {"en": "as given", "fr": "tel qu'écrit"},
    "orders.understood": {"en": "understood as", "fr": "compris comme"},
    "orders.verdict": {"en": "verdict", "fr": "verdict"},
    "orders.order": {"en": "order", "fr": "ordre"},
    "orders.result": {"en": "result", "fr": "résultat"},
    "orders.reason": {"en": "reason", "fr": "raison"},
    "orders.no_units": {"en": "You had no unit on the board.", "fr": "Vous n'aviez aucune unité sur la carte."},
    "orders.gang_none": {"en": "no orders received (R12)", "fr": "aucun ordre reçu (R12)"},
    "orders.recruited": {"en": "recruited: {units}", "fr": "recrutés : {units}"},
    "orders.disbanded": {"en": "disbanded: {units}", "fr": "renvoyés : {units}"},
    "none": {"en": "none", "fr": "aucun"},
    "nothing": {"en": "Nothing this turn.", "fr": "Rien ce tour-ci."},
    # -- dislodgements ----------------------------------------------------------------
    "dislodged.by": {"en": "dislodged by {by}", "fr": "délogé par {by}"},
    "dislodged.plain": {"en": "dislodged", "fr": "délogé"},
    "dislodged.retreated": {"en": "retreated to {district}", "fr": "retraite vers {district}"},
    "dislodged.disbanded": {"en": "disbanded", "fr": "renvoyé"},
    # -- bids ---------------------------------------------------------------------------
    "bids.station": {"en": "station", "fr": "poste"},
    "bids.paid": {"en": "paid", "fr": "payé"},
    "bids.outcome": {"en": "outcome", "fr": "issue"},
    "bids.won": {"en": "won", "fr": "remportée"},
    "bids.lost": {"en": "not won", "fr": "perdue"},
    # -- ledger ---------------------------------------------------------------------------
    "crates.before_raid": {
        "en": "In your warehouses at the end of last turn",
        "fr": "Dans vos entrepôts à la fin du tour précédent",
    },
    "crates.seized": {"en": "Taken by this turn's raid (R22)", "fr": "Prises par la descente de ce tour (R22)"},
    "crates.at_start": {
        "en": "In your warehouses when orders were written",
        "fr": "Dans vos entrepôts à l'écriture des ordres",
    },
    "crates.captured": {"en": "In warehouses you took (R13)", "fr": "Dans les entrepôts que vous avez pris (R13)"},
    "crates.captured_from": {
        "en": "In your warehouses that others took (R13)",
        "fr": "Dans vos entrepôts pris par d'autres (R13)",
    },
    "crates.produced": {
        "en": "Produced by your supply zones (R14)",
        "fr": "Produites par vos zones d'approvisionnement (R14)",
    },
    "crates.looted": {"en": "Seized from police stations (R11)", "fr": "Saisies dans les postes de police (R11)"},
    "crates.held": {"en": "Held, for sale", "fr": "Détenues, à vendre"},
    "crates.sold": {"en": "Sold (you could sell {capacity}, R15)", "fr": "Vendues (capacité : {capacity}, R15)"},
    "crates.lost": {"en": "Lost: no room left (R16)", "fr": "Perdues : plus de place (R16)"},
    "crates.stored": {"en": "Stored in your warehouses (R16)", "fr": "Stockées dans vos entrepôts (R16)"},
    "crates.crates": {"en": "crates", "fr": "caisses"},
    "dollars.start": {"en": "Cash at the start of the turn", "fr": "Trésorerie au début du tour"},
    "dollars.upkeep": {"en": "Upkeep (R17)", "fr": "Entretien (R17)"},
    "dollars.recruits": {"en": "Recruits (R17)", "fr": "Recrues (R17)"},
    "dollars.bribes": {"en": "Bribes paid (R19)", "fr": "Pots-de-vin payés (R19)"},
    "dollars.revenue": {"en": "Sales: {n} crates at {price} (R15)", "fr": "Ventes : {n} caisses à {price} (R15)"},
    "dollars.revenue#one": {"en": "Sales: {n} crate at {price} (R15)", "fr": "Ventes : {n} caisse à {price} (R15)"},
    "dollars.end": {"en": "Cash at the end of the turn", "fr": "Trésorerie à la fin du tour"},
    "ledger.balanced": {"en": "The accounts balance.", "fr": "Les comptes sont équilibrés."},
    "ledger.unbalanced": {
        "en": "WARNING: these accounts do not balance; please tell the referee.",
        "fr": "ATTENTION : ces comptes ne sont pas équilibrés ; prévenez l'arbitre.",
    },
    # -- victory points --------------------------------------------------------------------
    "vp.districts": {
        "en": "Ordinary districts and warehouses (1 VP each)",
        "fr": "Quartiers simples et entrepôts (1 PV chacun)",
    },
    "vp.speakeasies": {"en": "Speakeasies (2 VP each)", "fr": "Speakeasies (2 PV chacun)"},
    "vp.supply": {"en": "Supply zones (3 VP each)", "fr": "Zones d'approvisionnement (3 PV chacune)"},
    "vp.stations": {
        "en": "Police stations you corrupt (3 VP each)",
        "fr": "Postes de police que vous corrompez (3 PV chacun)",
    },
    "vp.assaults": {
        "en": "Police stations taken by assault (5 VP each)",
        "fr": "Postes de police pris d'assaut (5 PV chacun)",
    },
    "vp.count": {"en": "number", "fr": "nombre"},
    "vp.total": {"en": "Total", "fr": "Total"},
    "vp.goal": {"en": "{vp} VP for victory.", "fr": "{vp} PV pour la victoire."},
    "vp.unit": {"en": "VP", "fr": "PV"},
    # -- position ------------------------------------------------------------------------------
    "position.cash": {"en": "Cash", "fr": "Trésorerie"},
    "position.upkeep": {
        "en": "Upkeep due next turn: {amount} for {n} units (arrested ones included, R17)",
        "fr": "Entretien dû au prochain tour : {amount} pour {n} unités (unités arrêtées comprises, R17)",
    },
    "position.upkeep#one": {
        "en": "Upkeep due next turn: {amount} for {n} unit (R17)",
        "fr": "Entretien dû au prochain tour : {amount} pour {n} unité (R17)",
    },
    "position.units": {"en": "Units ({n})", "fr": "Unités ({n})"},
    "position.districts": {"en": "Districts ({n})", "fr": "Quartiers ({n})"},
    "position.stocks": {"en": "Warehouse stocks", "fr": "Stocks des entrepôts"},
    "position.stations": {"en": "Police stations you corrupt", "fr": "Postes de police que vous corrompez"},
    "position.arrested": {"en": "Arrested units", "fr": "Unités arrêtées"},
    "position.arrested_row": {
        "en": "{unit}, arrested in {taken_in}, held by the police ({station}, {code}): back at the start of "
        "{turn} in {code}, or in the nearest district you control that can take it (R22)",
        "fr": "{unit}, arrêté à {taken_in}, détenu par la police ({station}, {code}) : de retour au début "
        "{turn_of} à {code}, ou dans le plus proche quartier que vous contrôlez qui peut l'accueillir (R22)",
    },
    "position.returned": {"en": "Released at the opening of {turn}", "fr": "Libérées à l'ouverture {turn_of}"},
    "position.code": {"en": "district", "fr": "quartier"},
    "position.name": {"en": "name", "fr": "nom"},
    "position.feature": {"en": "feature", "fr": "particularité"},
    "position.crates": {"en": "{n} crates", "fr": "{n} caisses"},
    "position.crates#one": {"en": "{n} crate", "fr": "{n} caisse"},
    "position.no_units": {"en": "no unit on the board", "fr": "aucune unité sur la carte"},
    # -- price and raid --------------------------------------------------------------------------
    "price.now": {"en": "Price this turn: {price} a crate.", "fr": "Prix de ce tour : {price} la caisse."},
    "price.next": {"en": "Price: {price} a crate ({reason}).", "fr": "Prix : {price} la caisse ({reason})."},
    "raid.label": {"en": "Raid", "fr": "Descente"},
    "raid.this_turn": {"en": "This turn's raid: {text}.", "fr": "Descente de ce tour : {text}."},
    "raid.next": {"en": "Raid: {text}.", "fr": "Descente : {text}."},
    "raid.none": {"en": "no raid", "fr": "aucune descente"},
    "raid.police": {"en": "the police ({station}, {code})", "fr": "la police ({station}, {code})"},
    "raid.untouchables": {"en": "the Untouchables", "fr": "les Incorruptibles"},
    "raid.raided": {"en": "{who} raided {district}", "fr": "{who} a fait une descente à {district}"},
    "raid.raided_plural": {"en": "{who} raided {district}", "fr": "{who} ont fait une descente à {district}"},
    "raid.nobody": {"en": "nobody controls it: no effect", "fr": "personne ne le contrôle : aucun effet"},
    "raid.spared": {
        "en": "{gang} corrupts the station: the district is spared",
        "fr": "{gang} corrompt le poste : le quartier est épargné",
    },
    "raid.controller": {"en": "controlled by {gang}", "fr": "contrôlé par {gang}"},
    "raid.seized": {"en": "{n} crates seized", "fr": "{n} caisses saisies"},
    "raid.seized#one": {"en": "{n} crate seized", "fr": "{n} caisse saisie"},
    "raid.destroyed": {"en": "{n} crates destroyed", "fr": "{n} caisses détruites"},
    "raid.destroyed#one": {"en": "{n} crate destroyed", "fr": "{n} caisse détruite"},
    "raid.closed": {"en": "the speakeasy returns to neutral", "fr": "le speakeasy redevient neutre"},
    "raid.dry": {
        "en": "the supply zone produces nothing this turn",
        "fr": "la zone d'approvisionnement ne produit rien ce tour-ci",
    },
    "raid.empty": {"en": "nothing to seize", "fr": "rien à saisir"},
    "raid.arrested": {"en": "arrested: {units}", "fr": "arrêtés : {units}"},
    "raid.units_spared": {
        "en": "spared (their gang corrupts the station): {units}",
        "fr": "épargnés (leur gang corrompt le poste) : {units}",
    },
    "raid.draw": {"en": "Draw (HMAC-SHA256, R21): {draw}", "fr": "Tirage (HMAC-SHA256, R21) : {draw}"},
    "raid.you.none": {"en": "It does not concern you.", "fr": "Elle ne vous concerne pas."},
    "raid.you.spared": {
        "en": "Your district {district} is spared: you corrupt the station.",
        "fr": "Votre quartier {district} est épargné : vous corrompez le poste.",
    },
    "raid.you.seized": {
        "en": "{n} of your crates in {district} were seized.",
        "fr": "{n} de vos caisses à {district} ont été saisies.",
    },
    "raid.you.seized#one": {
        "en": "{n} of your crates in {district} was seized.",
        "fr": "{n} de vos caisses à {district} a été saisie.",
    },
    "raid.you.destroyed": {
        "en": "{n} of your crates in {district} were destroyed.",
        "fr": "{n} de vos caisses à {district} ont été détruites.",
    },
    "raid.you.destroyed#one": {
        "en": "{n} of your crates in {district} was destroyed.",
        "fr": "{n} de vos caisses à {district} a été détruite.",
    },
    "raid.you.closed": {
        "en": "You lose the speakeasy in {district}: it returns to neutral.",
        "fr": "Vous perdez le speakeasy de {district} : il redevient neutre.",
    },
    "raid.you.dry": {
        "en": "Your supply zone in {district} produces nothing this turn.",
        "fr": "Votre zone d'approvisionnement à {district} ne produit rien ce tour-ci.",
    },
    "raid.you.hit": {
        "en": "Your district {district} is raided.",
        "fr": "Votre quartier {district} subit la descente.",
    },
    "raid.you.arrested": {
        "en": "Your {unit} is arrested: off the board this turn, still paying upkeep; "
        "back at the start of {turn} in {code}.",
        "fr": "Votre {unit} est arrêté : hors de la carte ce tour-ci, toujours à votre charge ; "
        "de retour au début {turn_of} à {code}.",
    },
    "raid.you.unit_spared": {
        "en": "Your {unit} is spared: you corrupt the station.",
        "fr": "Votre {unit} est épargné : vous corrompez le poste.",
    },
    "raid.you.effect": {"en": "What it does to you", "fr": "Ce qu'elle vous fait"},
    # -- bulletin --------------------------------------------------------------------------------
    "standings.gang": {"en": "Gang", "fr": "Gang"},
    "standings.districts": {"en": "Districts", "fr": "Quartiers"},
    "standings.supply": {"en": "Supply", "fr": "Appro."},
    "standings.speakeasies": {"en": "Speakeasies", "fr": "Speakeasies"},
    "standings.stations": {"en": "Stations", "fr": "Postes"},
    "standings.assaults": {"en": "Assaults", "fr": "Assauts"},
    "standings.vp": {"en": "VP", "fr": "PV"},
    "standings.note": {
        "en": "Stations: police stations the gang corrupts (3 VP each); assaults: stations it has taken (5 VP each).",
        "fr": "Postes : postes de police que le gang corrompt (3 PV chacun) ; "
        "assauts : postes qu'il a pris (5 PV chacun).",
    },
    "assault.took": {
        "en": "{gang}: {unit} took the police station in {station} ({strength} against {needed})",
        "fr": "{gang} : {unit} a pris le poste de police de {station} ({strength} contre {needed})",
    },
    "assault.none": {"en": "No successful assault this turn.", "fr": "Aucun assaut réussi ce tour-ci."},
    "corruption.none": {"en": "No station is corrupted.", "fr": "Aucun poste n'est corrompu."},
    "corruption.row": {"en": "{station}: {gang}", "fr": "{station} : {gang}"},
    "winner.one": {"en": "{gangs} wins with {vp} VP.", "fr": "{gangs} l'emporte avec {vp} PV."},
    "winner.many": {"en": "{gangs} win together with {vp} VP.", "fr": "{gangs} l'emportent ensemble avec {vp} PV."},
    "winner.seed": {
        "en": "The referee now reveals the seed ('moonshine reveal'): check every raid draw against it.",
        "fr": "L'arbitre révèle maintenant la graine (« moonshine reveal ») : vérifiez chaque tirage de descente.",
    },
    "seed.hash": {"en": "SHA-256 of the game's secret seed", "fr": "SHA-256 de la graine secrète de la partie"},
    "seed.how": {
        "en": "Each turn's raid is drawn before orders: HMAC-SHA256 with the seed as key and the turn's "
        "name (e.g. spring-1924) as message, read as a big-endian integer, modulo the raid table's "
        "total weight ({total}), picks the entry, walking the table in its order. The seed is revealed "
        "when the game ends: then anyone can check it against this hash and recompute every draw.",
        "fr": "La descente de chaque tour est tirée avant les ordres : HMAC-SHA256 avec la graine comme clé et le "
        "nom du tour (par ex. spring-1924) comme message, lu comme un entier big-endian, modulo le poids "
        "total de la table des descentes ({total}), désigne l'entrée, en parcourant la table dans son ordre. "
        "La graine est révélée à la fin de la partie : chacun pourra alors la vérifier avec cette empreinte "
        "et refaire chaque tirage.",
    },
    "seed.command": {
        "en": "In Python, with the revealed seed for SEED and the turn's name (this gives the index into the table):",
        "fr": "En Python, avec la graine révélée à la place de SEED et le nom du tour "
        "(cela donne l'indice dans la table) :",
    },
    "seed.table": {"en": "The raid table (district: weight):", "fr": "La table des descentes (quartier : poids) :"},
    # -- the bulletin's story and what changed (moonshine/story.py) ------------------------------
    "story.headline.station": {
        "en": "{station}: the police station falls to {gang}",
        "fr": "{station} : le poste de police tombe aux mains de {gang}",
    },
    "story.headline.gain": {"en": "{gang}: {n} districts taken", "fr": "{gang} : {n} quartiers pris"},
    "story.headline.gain#one": {"en": "{gang}: a district taken", "fr": "{gang} : un quartier pris"},
    "story.headline.quiet": {
        "en": "A quiet turn: no district changes hands",
        "fr": "Tour calme : aucun quartier ne change de mains",
    },
    "story.lead.one": {"en": "{gang} leads with {vp} VP.", "fr": "{gang} mène avec {vp} PV."},
    "story.lead.many": {
        "en": "{gangs} share the lead with {vp} VP.",
        "fr": "{gangs} se partagent la tête avec {vp} PV.",
    },
    "story.changed": {
        "en": "{n} districts changed hands: {gangs}.",
        "fr": "{n} quartiers ont changé de mains : {gangs}.",
    },
    "story.changed#one": {
        "en": "One district changed hands: {gangs}.",
        "fr": "Un quartier a changé de mains : {gangs}.",
    },
    "story.unchanged": {"en": "No district changed hands.", "fr": "Aucun quartier n'a changé de mains."},
    "story.dislodged": {"en": "{n} units were dislodged: {units}.", "fr": "{n} unités ont été délogées : {units}."},
    "story.dislodged#one": {"en": "One unit was dislodged: {units}.", "fr": "Une unité a été délogée : {units}."},
    "story.retreated": {
        "en": "{unit} ({gang}), which retreated to {district}",
        "fr": "{unit} ({gang}), repliée en {district}",
    },
    "story.disbanded": {"en": "{unit} ({gang}), which was disbanded", "fr": "{unit} ({gang}), dissoute"},
    "story.taken": {
        "en": "{gang} took the police station in {station} with {unit}.",
        "fr": "{gang} a pris le poste de police de {station} avec {unit}.",
    },
    "story.raid": {"en": "{text}.", "fr": "{text}."},
    "story.stations": {
        "en": "Police stations changing hands: {stations}.",
        "fr": "Postes de police passés à un autre gang : {stations}.",
    },
    "story.station_to": {"en": "{station} to {gang}", "fr": "{station} à {gang}"},
    "story.station_freed": {"en": "{station} freed from {gang}", "fr": "{station} libéré de {gang}"},
    "section.changed": {"en": "What changed", "fr": "Ce qui a changé"},
    "changed.place": {"en": "District", "fr": "Quartier"},
    "changed.before": {"en": "Before", "fr": "Avant"},
    "changed.after": {"en": "After", "fr": "Après"},
    "changed.nobody": {"en": "neutral", "fr": "neutre"},
    "changed.station": {"en": "{station} ({code})", "fr": "{station} ({code})"},
    "changed.uncorrupted": {"en": "nobody", "fr": "personne"},
    "changed.none": {
        "en": "No district or station changed hands.",
        "fr": "Aucun quartier ni poste n'a changé de mains.",
    },
    "changed.vp": {"en": "Victory points gained or lost", "fr": "Points de victoire gagnés ou perdus"},
    "changed.vp_change": {"en": "Change", "fr": "Écart"},
    "changed.vp_none": {"en": "No gang gained or lost VP.", "fr": "Aucun gang n'a gagné ni perdu de PV."},
    "orders.held": {"en": "held: {units}", "fr": "ont tenu : {units}"},
    "orders.held#one": {"en": "held: {units}", "fr": "a tenu : {units}"},
    "seed.no_raids": {
        "en": "This map has no raid table: no raid is ever drawn (R21).",
        "fr": "Cette carte n'a pas de table des descentes : aucune descente n'est jamais tirée (R21).",
    },
    "credits": {"en": "Credits", "fr": "Crédits"},
    "map.alt": {"en": "Map of {title}", "fr": "Carte : {title}"},
    "section.charts": {"en": "How the game is going", "fr": "Le cours de la partie"},
    "charts.attached": {"en": "The charts are attached ({names}).", "fr": "Les graphiques sont joints ({names})."},
    "map.title_shows": {
        "en": "the orders, and the position after them",
        "fr": "les ordres, et la position qui en résulte",
    },
    "map.caption": {
        "en": "The position at the start of {turn}, with this turn's orders as arrows (failed ones crossed).",
        "fr": "La position au début {turn_of}, avec les ordres de ce tour en flèches (barrées en cas d'échec).",
    },
    "map.attached": {"en": "The map is attached (map.png).", "fr": "La carte est jointe (map.png)."},
    "section.receipt": {"en": "Your receipt", "fr": "Votre reçu"},
    "receipt.code": {
        "en": "The orders recorded for you give the receipt {code}: it must be the one in your acknowledgement.",
        "fr": "Les ordres enregistrés pour vous donnent le reçu {code} : "
        "ce doit être celui de votre accusé de réception.",
    },
    "receipt.how": {
        "en": "To check it yourself (the README shows the few lines of Python), use this salt and these orders:",
        "fr": "Pour le vérifier vous-même (le README donne les quelques lignes de Python), "
        "prenez ce sel et ces ordres :",
    },
    "receipt.salt": {"en": "salt", "fr": "sel"},
    "game_over": {"en": "The game is over.", "fr": "La partie est terminée."},
}

# The fixed words of results, statuses and adjustments.
WORDS: dict[str, dict[str, str]] = {
    "succeeded": {"en": "succeeded", "fr": "réussi"},
    "failed": {"en": "failed", "fr": "échoué"},
    "accepted": {"en": "accepted", "fr": "accepté"},
    "rejected": {"en": "rejected", "fr": "rejeté"},
    "replaced": {"en": "replaced", "fr": "remplacé"},
    "ignored": {"en": "ignored", "fr": "ignoré"},
    "header": {"en": "header", "fr": "en-tête"},
    "recruit": {"en": "recruit", "fr": "recrue"},
    "disband": {"en": "disband", "fr": "renvoi"},
    "recruit cancelled": {"en": "recruit cancelled", "fr": "recrue annulée"},
    "bid cut": {"en": "bid cut", "fr": "offre réduite"},
    "bid refused": {"en": "bid refused", "fr": "offre refusée"},
    "disbanded for upkeep": {"en": "disbanded for upkeep", "fr": "renvoyé faute d'entretien"},
    "spring": {"en": "spring", "fr": "printemps"},
    "autumn": {"en": "autumn", "fr": "automne"},
}

FEATURES: dict[Feature, dict[str, str]] = {
    Feature.NONE: {"en": "", "fr": ""},
    Feature.SUPPLY: {"en": "supply zone", "fr": "zone d'approvisionnement"},
    Feature.SPEAKEASY: {"en": "speakeasy", "fr": "speakeasy"},
    Feature.WAREHOUSE: {"en": "warehouse", "fr": "entrepôt"},
}

UNIT_KINDS: dict[UnitKind, dict[str, str]] = {
    UnitKind.H: {"en": "henchman", "fr": "homme de main"},
    UnitKind.L: {"en": "delivery man", "fr": "livreur"},
}


def check_language(language: str) -> str:
    if language not in LANGUAGES:
        raise ValueError(f"unknown language {language!r} (expected {' or '.join(LANGUAGES)})")
    return language


def singular(language: str, n: int) -> bool:
    """Whether a count takes the singular: 1 in English; 0 and 1 in French."""
    return n == 1 if check_language(language) == "en" else n in (0, 1)


def template(catalogue: Mapping[str, Mapping[str, str]], language: str, key: str, n: object = None) -> str:
    """The text for ``key`` in ``language`` from a catalogue of key -> {language: text}.
    A whole number ``n`` that takes the singular picks ``key#one`` when the catalogue
    has it."""
    if isinstance(n, int) and singular(language, n) and f"{key}#one" in catalogue:
        key = f"{key}#one"
    try:
        return catalogue[key][check_language(language)]
    except KeyError:
        raise KeyError(f"no message {key!r} in the catalogue") from None


def message(language: str, key: str, /, **fields: object) -> str:
    """The reports' catalogue text for ``key`` in ``language``, its ``{fields}`` filled
    (``n`` picks the singular, see ``template``)."""
    text = template(MESSAGES, language, key, fields.get("n"))
    return text.format(**fields) if fields else text


def word(language: str, text: str) -> str:
    """A fixed word (result, status, adjustment kind, season) in ``language``; an
    unknown word is returned as it is."""
    entry = WORDS.get(text)
    return entry[check_language(language)] if entry is not None else text


def feature_label(language: str, feature: Feature) -> str:
    return FEATURES[feature][check_language(language)]


def kind_label(language: str, kind: UnitKind) -> str:
    return UNIT_KINDS[kind][check_language(language)]


def turn_label(language: str, turn: str, *, capital: bool = False) -> str:
    """``spring 1924`` / ``printemps 1924``; a name that is not a turn is returned as it is."""
    try:
        t = Turn.parse(turn)
    except ValueError:
        return turn
    text = f"{word(language, t.season)} {t.year}"
    return text[:1].upper() + text[1:] if capital else text


def turn_of(language: str, turn: str) -> str:
    """The turn after "the start of": ``spring 1924`` / ``du printemps 1924``, ``de l'automne 1924``."""
    label = turn_label(language, turn)
    if check_language(language) == "en" or label == turn:
        return label
    return ("de l'" if label[:1] in "aeiou" else "du ") + label


def colon(language: str) -> str:
    """``: `` in English, `` : `` in French."""
    return ": " if check_language(language) == "en" else " : "


def semicolon(language: str) -> str:
    return "; " if check_language(language) == "en" else " ; "


def the_turn(language: str, turn: str) -> str:
    """A turn inside a French sentence: ``le printemps 1924``, ``l'automne 1924``;
    ``spring 1924`` in English."""
    label = turn_label(language, turn)
    if check_language(language) == "en" or label == turn:
        return label
    return ("l'" if label[:1] in "aeiou" else "le ") + label


def money_text(language: str, cents: Money) -> str:
    """``$12.50`` in English, ``12,50 $`` in French."""
    text = money.fmt(cents)
    if check_language(language) == "en":
        return text
    sign = "-" if text.startswith("-") else ""
    return f"{sign}{text.lstrip('-').lstrip('$').replace('.', ',')} $"
