"""The words of the reports and bulletins in English and French: a message catalogue
(``MESSAGES``), the fixed words of results, and a pattern table that translates the
common reasons the referee writes in English (``translate_reason``). A reason that
no pattern knows stays in English: it is never dropped."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Mapping

from moonshine import money
from moonshine.geo import Feature, UnitKind
from moonshine.money import Money
from moonshine.records import dataclass
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


# -- reasons ---------------------------------------------------------------------------

_DOLLARS = r"\$(\d+(?:\.\d\d)?)"  # compiled on first use (re's own cache)


def _fr_money(text: str) -> str:
    """``$12.50`` -> ``12,50 $`` inside a French sentence."""
    return re.sub(_DOLLARS, lambda m: m.group(1).replace(".", ",") + " $", text)


def _fr_kind(kind: str) -> str:
    return {"henchman": "homme de main", "delivery man": "livreur"}.get(kind, kind)


def _fr_limit(limit: str) -> str:
    return {
        "what you held": "ce que vous déteniez",
        "your territory's consumption": "la consommation de votre territoire",
    }.get(limit, limit)


def _fr_where(where: str) -> str:
    return {"no warehouse": "aucun entrepôt", "full warehouses": "entrepôts pleins"}.get(where, where)


@dataclass(frozen=True)
class ReasonPattern:
    """One common reason: a regular expression over the whole English text (the
    ``(Rnn)`` ruling reference excluded) and its French form, built from the match.
    The expression is compiled on its first use: an English acknowledgement or report
    compiles none of them."""

    regex: str
    french: Callable[[re.Match[str]], str]
    example: str  # an English text the pattern must translate (tested)

    @functools.cached_property
    def pattern(self) -> re.Pattern[str]:
        return re.compile(self.regex)


def _p(regex: str, french: Callable[[re.Match[str]], str], example: str) -> ReasonPattern:
    return ReasonPattern(rf"^{regex}$", french, example)


_C = r"[A-Z]{3}"
_U = r"[LH] [A-Z]{3}"
_US = rf"{_U}(?:, {_U})*"  # several units: "H LOO, L NSS"
_VS = r"\((?P<a>\d+) vs (?P<b>\d+)\)"


def _vs(m: re.Match[str]) -> str:
    return f"({m['a']} contre {m['b']})"


def _moved_tail(tail: str) -> str:
    """The end of ``moved to X``: carriers, circular movement, units dislodged, strengths."""
    out = tail.replace(", carried by ", ", transporté par ").replace(" (circular movement)", " (mouvement circulaire)")
    out = out.replace(", dislodging ", ", délogeant ")
    return re.sub(r"\((\d+) vs (\d+)\)", r"(\1 contre \2)", out)


def _refusal(text: str) -> str:
    """One refused retreat inside ``disbanded: no usable retreat (...)``: ``LOO: why``."""
    code, sep, why = text.partition(": ")
    return code + " : " + _translate(why) if sep else _translate(text)


def _fr_steps(text: str) -> str:
    return "un quartier" if text == "one district" else text.replace(" districts", " quartiers")


def _fr_can(verb: str) -> str:
    return {
        "assault a police station": "attaquer un poste de police",
        "transport": "transporter",
        "be transported": "être transporté",
    }[verb]


REASONS_FR: tuple[ReasonPattern, ...] = (
    # -- movement, supports, transports, assaults (the adjudicator) -----------------------
    _p(r"held", lambda m: "a tenu", "held"),
    _p(rf"held against (?P<u>{_US})", lambda m: f"a tenu face à {m['u']}", "held against H NSS, L BRO"),
    _p(r"it held", lambda m: "l'unité a tenu", "it held"),
    _p(r"recruited this turn, it holds", lambda m: "recruté ce tour-ci, il tient", "recruited this turn, it holds"),
    _p(r"rejected: (?P<x>.+)", lambda m: f"rejeté : {_translate(m['x'])}", "rejected: a unit cannot support itself"),
    _p(rf"moved to (?P<d>{_C})(?P<t>[^;]*)", lambda m: f"avancé à {m['d']}{_moved_tail(m['t'])}", "moved to ROG"),
    _p(
        rf"blocked by own (?P<u>{_U}) coming the other way",
        lambda m: f"bloqué par votre propre {m['u']} qui vient en sens inverse",
        "blocked by own H NSS coming the other way",
    ),
    _p(
        rf"blocked by own (?P<u>{_U}), which stays in (?P<d>{_C})",
        lambda m: f"bloqué par votre propre {m['u']}, qui reste à {m['d']}",
        "blocked by own H NSS, which stays in NSS",
    ),
    _p(
        rf"lost head to head with (?P<u>{_US}) {_VS}",
        lambda m: f"perdu le face-à-face contre {m['u']} {_vs(m)}",
        "lost head to head with H NSS (2 vs 3)",
    ),
    _p(rf"held off by (?P<u>{_US}) {_VS}", lambda m: f"repoussé par {m['u']} {_vs(m)}", "held off by H CHI (3 vs 4)"),
    _p(
        rf"bounced with (?P<u>{_US}) {_VS}",
        lambda m: f"rebondi contre {m['u']} {_vs(m)}",
        "bounced with H NSS (2 vs 2)",
    ),
    _p(
        r"paradox: the orders contradict each other, the move fails \(backup rule\)",
        lambda m: "paradoxe : les ordres se contredisent, l'avance échoue (règle de secours)",
        "paradox: the orders contradict each other, the move fails (backup rule)",
    ),
    _p(
        r"paradox: the orders contradict each other, support fails \(backup rule\)",
        lambda m: "paradoxe : les ordres se contredisent, le soutien échoue (règle de secours)",
        "paradox: the orders contradict each other, support fails (backup rule)",
    ),
    _p(
        r"paradox: the orders contradict each other, the carrier holds",
        lambda m: "paradoxe : les ordres se contredisent, le porteur tient",
        "paradox: the orders contradict each other, the carrier holds",
    ),
    _p(
        r"transport paradox: the carrier holds \(Szykman rule\)",
        lambda m: "paradoxe de transport : le porteur tient (règle de Szykman)",
        "transport paradox: the carrier holds (Szykman rule)",
    ),
    _p(
        rf"no route: no (?P<k>[LH]) in (?P<d>{_C}(?:, {_C})*) carries it",
        lambda m: f"aucun chemin : aucun {m['k']} à {m['d']} ne le transporte",
        "no route: no L in NSS carries it",
    ),
    _p(
        rf"no route: no (?P<k>[LH]) is ordered to carry it to (?P<d>{_C})",
        lambda m: f"aucun chemin : aucun {m['k']} n'a l'ordre de le transporter à {m['d']}",
        "no route: no L is ordered to carry it to CHI",
    ),
    _p(
        rf"route broken: transport paradox, (?P<u>{_US}) holds? \(Szykman rule\)",
        lambda m: f"chemin rompu : paradoxe de transport, {m['u']} tient (règle de Szykman)",
        "route broken: transport paradox, L NSS holds (Szykman rule)",
    ),
    _p(
        rf"route broken: (?P<u>{_US}) dislodged",
        lambda m: f"chemin rompu : {m['u']} délogé",
        "route broken: L NSS dislodged",
    ),
    _p(
        r"route broken: the carriers do not reach the destination",
        lambda m: "chemin rompu : les porteurs n'atteignent pas la destination",
        "route broken: the carriers do not reach the destination",
    ),
    _p(
        r"route broken: dislodged by (?P<o>[^;]+)",
        lambda m: f"chemin rompu : délogé par {m['o']}",
        "route broken: dislodged by H LOO - NSS",
    ),
    _p(r"support given \(\+(?P<n>\d+)\)", lambda m: f"soutien apporté (+{m['n']})", "support given (+2)"),
    _p(r"support given", lambda m: "soutien apporté", "support given"),
    _p(
        r"support cut: dislodged by (?P<o>[^;]+)",
        lambda m: f"soutien coupé : délogé par {m['o']}",
        "support cut: dislodged by H LOO - NSS",
    ),
    _p(rf"support cut by (?P<u>{_US})", lambda m: f"soutien coupé par {m['u']}", "support cut by L NSS"),
    _p(
        rf"void: (?P<u>{_U}) moves, and hold support only helps a unit that stays",
        lambda m: f"sans effet : {m['u']} avance, et un soutien sur place n'aide qu'une unité qui reste",
        "void: H LOO moves, and hold support only helps a unit that stays",
    ),
    _p(
        rf"void: (?P<u>{_U}) moves to (?P<a>{_C}), not (?P<b>{_C})",
        lambda m: f"sans effet : {m['u']} avance à {m['a']}, pas à {m['b']}",
        "void: H LOO moves to NSS, not GOL",
    ),
    _p(
        rf"void: (?P<u>{_U}) does not move to (?P<d>{_C})",
        lambda m: f"sans effet : {m['u']} n'avance pas à {m['d']}",
        "void: H LOO does not move to NSS",
    ),
    _p(
        rf"void: (?P<u>{_U}) does not assault the station in (?P<d>{_C})",
        lambda m: f"sans effet : {m['u']} n'attaque pas le poste de {m['d']}",
        "void: H LOO does not assault the station in LOO",
    ),
    _p(
        rf"void: (?P<u>{_U}) goes over the border to (?P<d>{_C}), not by transport",
        lambda m: f"sans effet : {m['u']} passe directement la frontière vers {m['d']}, sans transport",
        "void: H LOO goes over the border to NSS, not by transport",
    ),
    _p(
        rf"void: (?P<d>{_C}) is not on the route (?P<u>{_U}) names",
        lambda m: f"sans effet : {m['d']} n'est pas sur le chemin que {m['u']} indique",
        "void: BRO is not on the route H NSS names",
    ),
    _p(r"void", lambda m: "sans effet", "void"),
    _p(
        rf"not needed: not on a kept route from (?P<a>{_C}) to (?P<b>{_C})",
        lambda m: f"inutile : pas sur un chemin maintenu de {m['a']} à {m['b']}",
        "not needed: not on a kept route from NSS to GRA",
    ),
    _p(rf"carried (?P<u>{_U}) to (?P<d>{_C})", lambda m: f"a transporté {m['u']} à {m['d']}", "carried H NSS to GRA"),
    _p(
        rf"kept the route, but (?P<u>{_U}) did not reach (?P<d>{_C})",
        lambda m: f"a maintenu le chemin, mais {m['u']} n'a pas atteint {m['d']}",
        "kept the route, but H NSS did not reach GRA",
    ),
    _p(
        r"assault fails: dislodged by (?P<o>[^;]+)",
        lambda m: f"l'assaut échoue : délogé par {m['o']}",
        "assault fails: dislodged by H LOO - NSS",
    ),
    _p(
        rf"stood off by (?P<u>{_US}) {_VS}",
        lambda m: f"tenu en échec par {m['u']} {_vs(m)}",
        "stood off by H LOO (4 vs 4)",
    ),
    _p(
        rf"station taken {_VS}(?P<c>, corrupted by the attacker)?",
        lambda m: f"poste pris {_vs(m)}" + (", corrompu par l'attaquant" if m["c"] else ""),
        "station taken (8 vs 7)",
    ),
    _p(
        rf"station holds {_VS}(?P<c>, corrupted by the attacker)?",
        lambda m: f"le poste tient {_vs(m)}" + (", corrompu par l'attaquant" if m["c"] else ""),
        "station holds (2 vs 3), corrupted by the attacker",
    ),
    _p(r"dislodged by (?P<o>[^;]+)", lambda m: f"délogé par {m['o']}", "dislodged by H LOO - NSS"),
    # -- retreats (R7) ------------------------------------------------------------------------
    _p(rf"retreated to (?P<d>{_C})", lambda m: f"retraite vers {m['d']}", "retreated to LOO"),
    _p(r"disbanded: no retreat given", lambda m: "renvoyé : aucune retraite donnée", "disbanded: no retreat given"),
    _p(
        r"disbanded: no usable retreat \((?P<x>.+)\)",
        lambda m: "renvoyé : aucune retraite possible (" + " ; ".join(_refusal(r) for r in m["x"].split("; ")) + ")",
        "disbanded: no usable retreat (NSS: left empty by a standoff; BRO: own L stands there)",
    ),
    _p(
        rf"disbanded: its retreat to (?P<d>{_C}) clashes with that of (?P<u>{_US})",
        lambda m: f"renvoyé : sa retraite vers {m['d']} se heurte à celle de {m['u']}",
        "disbanded: its retreat to LOO clashes with that of H GOL",
    ),
    _p(r"no such district", lambda m: "quartier inconnu", "no such district"),
    _p(rf"out of reach of (?P<u>{_U})", lambda m: f"hors de portée de {m['u']}", "out of reach of H LOO"),
    _p(
        r"(?P<g>\w+)'s (?P<k>[LH]) stands there",
        lambda m: f"un {m['k']} de {m['g']} s'y trouve",
        "valley's H stands there",
    ),
    _p(r"own (?P<k>[LH]) stands there", lambda m: f"votre propre {m['k']} s'y trouve", "own L stands there"),
    _p(r"the attacker came from there", lambda m: "l'attaquant venait de là", "the attacker came from there"),
    _p(r"left empty by a standoff", lambda m: "laissé vide par un rebond", "left empty by a standoff"),
    # -- impossible orders (rejected: ...; it held) --------------------------------------------
    _p(
        r"a unit cannot support itself",
        lambda m: "une unité ne peut pas se soutenir elle-même",
        "a unit cannot support itself",
    ),
    _p(
        rf"(?P<a>{_C}) is not next to (?P<b>{_C})",
        lambda m: f"{m['a']} n'est pas voisin de {m['b']}",
        "HYD is not next to GRA",
    ),
    _p(
        rf"(?P<a>{_C}) is more than (?P<n>one district|\d+ districts) from (?P<b>{_C})",
        lambda m: f"{m['a']} est à plus de {_fr_steps(m['n'])} de {m['b']}",
        "KEN is more than 2 districts from LOO",
    ),
    _p(
        rf"there is no police station in (?P<d>{_C})",
        lambda m: f"il n'y a pas de poste de police à {m['d']}",
        "there is no police station in NSS",
    ),
    _p(
        rf"the station in (?P<a>{_C}) is neither in nor next to (?P<b>{_C})",
        lambda m: f"le poste de {m['a']} n'est ni à {m['b']} ni à côté",
        "the station in LOO is neither in nor next to KEN",
    ),
    _p(
        rf"a unit already counts in the hold of its own district (?P<d>{_C})",
        lambda m: f"une unité compte déjà dans la tenue de son propre quartier {m['d']}",
        "a unit already counts in the hold of its own district LOO",
    ),
    _p(
        rf"a unit cannot support a move into its own district (?P<d>{_C})",
        lambda m: f"une unité ne peut pas soutenir une avance dans son propre quartier {m['d']}",
        "a unit cannot support a move into its own district LOO",
    ),
    _p(
        rf"no (?P<u>{_U}) on the board to (?P<v>support|transport)",
        lambda m: f"pas de {m['u']} sur la carte à {'soutenir' if m['v'] == 'support' else 'transporter'}",
        "no H LOO on the board to support",
    ),
    _p(
        r"only an? (?P<k>[LH](?: or [LH])?) can (?P<v>assault a police station|transport|be transported)",
        lambda m: f"seul un {m['k'].replace(' or ', ' ou ')} peut {_fr_can(m['v'])}",
        "only an H can assault a police station",
    ),
    _p(
        rf"(?P<a>{_C}) is not next to (?P<b>{_C}), and no (?P<k>[LH]) stands on a way to carry (?P<u>{_U}) there",
        lambda m: (
            f"{m['a']} n'est pas voisin de {m['b']}, et aucun {m['k']} ne se trouve sur un chemin "
            f"pour y transporter {m['u']}"
        ),
        "CHI is not next to LOO, and no L stands on a way to carry H LOO there",
    ),
    # -- the orders file's lines (moonshine.validate) -----------------------------------------
    _p(r"gang: (?P<g>.+)", lambda m: f"gang : {m['g']}", "gang: Valley Gang (valley)"),
    _p(r"turn: (?P<t>\S+)", lambda m: f"tour : {m['t']}", "turn: spring-1924"),
    _p(r"password given", lambda m: "mot de passe fourni", "password given"),
    _p(
        r"signature: the rest is not read",
        lambda m: "signature : la suite n'est pas lue",
        "signature: the rest is not read",
    ),
    _p(r"replaced by line (?P<n>\d+)", lambda m: f"remplacé par la ligne {m['n']}", "replaced by line 9"),
    _p(
        r"not checked: the file names no gang",
        lambda m: "non vérifié : le fichier ne nomme aucun gang",
        "not checked: the file names no gang",
    ),
    # -- adjustments (R17, R18) -----------------------------------------------------------------
    _p(r"disbanded; no upkeep for it", lambda m: "renvoyé ; plus d'entretien à payer", "disbanded; no upkeep for it"),
    _p(
        r"not enough cash \((?P<c>\$[\d.]+)\)",
        lambda m: f"pas assez d'argent ({_fr_money(m['c'])})",
        "not enough cash ($3.50)",
    ),
    _p(
        r"cut to (?P<c>\$[\d.]+): not enough cash",
        lambda m: f"réduite à {_fr_money(m['c'])} : pas assez d'argent",
        "cut to $2: not enough cash",
    ),
    _p(
        r"the gang cannot pay its upkeep",
        lambda m: "le gang ne peut pas payer son entretien",
        "the gang cannot pay its upkeep",
    ),
    _p(r"recruited; it holds this turn", lambda m: "recruté ; il tient ce tour-ci", "recruited; it holds this turn"),
    _p(r"no district (?P<d>\S+?)(?: on the map)?", lambda m: f"pas de quartier {m['d']}", "no district XYZ on the map"),
    _p(
        rf"(?P<d>{_C}) is not under your control",
        lambda m: f"{m['d']} n'est pas sous votre contrôle",
        "LOO is not under your control",
    ),
    _p(
        rf"another gang's unit stands in (?P<d>{_C})",
        lambda m: f"une unité d'un autre gang se trouve à {m['d']}",
        "another gang's unit stands in LOO",
    ),
    _p(
        rf"(?P<d>{_C}) already has a (?P<k>henchman|delivery man)",
        lambda m: f"{m['d']} a déjà un {_fr_kind(m['k'])}",
        "LOO already has a henchman",
    ),
    # -- bids (R19) -------------------------------------------------------------------------------
    _p(
        r"highest bid: the station is yours",
        lambda m: "meilleure offre : le poste est à vous",
        "highest bid: the station is yours",
    ),
    _p(
        r"highest bid: the station stays yours",
        lambda m: "meilleure offre : le poste reste à vous",
        "highest bid: the station stays yours",
    ),
    _p(
        r"tied for the highest bid: nothing changes",
        lambda m: "ex aequo pour la meilleure offre : rien ne change",
        "tied for the highest bid: nothing changes",
    ),
    _p(r"outbid", lambda m: "surenchéri par un autre gang", "outbid"),
    # -- the ledger's notes (R13 to R16, R22) -------------------------------------------------------
    _p(
        rf"captured (?P<n>\d+) crates in the warehouse in (?P<d>{_C})",
        lambda m: f"{m['n']} caisses prises dans l'entrepôt de {m['d']}",
        "captured 3 crates in the warehouse in ALB",
    ),
    _p(
        rf"lost (?P<n>\d+) crates: the warehouse in (?P<d>{_C}) was taken",
        lambda m: f"{m['n']} caisses perdues : l'entrepôt de {m['d']} a été pris",
        "lost 4 crates: the warehouse in AVO was taken",
    ),
    _p(
        rf"the supply zone in (?P<d>{_C}) produced nothing: raided this turn",
        lambda m: f"la zone d'approvisionnement de {m['d']} n'a rien produit : descente ce tour-ci",
        "the supply zone in NOR produced nothing: raided this turn",
    ),
    _p(
        rf"assault on the station in (?P<d>{_C}): (?P<n>\d+) crates seized, \+5 VP",
        lambda m: f"assaut du poste de {m['d']} : {m['n']} caisses saisies, +5 PV",
        "assault on the station in LOG: 5 crates seized, +5 VP",
    ),
    _p(
        rf"assault on the station in (?P<d>{_C}): (?P<n>\d+) crates seized, no VP: this station was already taken once",
        lambda m: (
            f"assaut du poste de {m['d']} : {m['n']} caisses saisies, pas de PV : ce poste a déjà été pris une fois"
        ),
        "assault on the station in LOG: 0 crates seized, no VP: this station was already taken once",
    ),
    _p(
        r"sold (?P<n>\d+) of the (?P<m>\d+) crates ordered: "
        r"limited by (?P<l>what you held|your territory's consumption)",
        lambda m: f"{m['n']} caisses vendues sur les {m['m']} demandées : limité par {_fr_limit(m['l'])}",
        "sold 6 of the 10 crates ordered: limited by what you held",
    ),
    _p(
        rf"store (?P<d>{_C}): not one of your warehouses; ignored",
        lambda m: f"stocker {m['d']} : pas l'un de vos entrepôts ; ignoré",
        "store HYD: not one of your warehouses; ignored",
    ),
    _p(
        r"(?P<n>\d+) unsold crates lost: (?P<w>no warehouse|full warehouses)",
        lambda m: f"{m['n']} caisses invendues perdues : {_fr_where(m['w'])}",
        "6 unsold crates lost: full warehouses",
    ),
    # -- price (R20) -----------------------------------------------------------------------------------
    _p(r"unchanged: first turn", lambda m: "inchangé : premier tour", "unchanged: first turn"),
    _p(
        r"unchanged: no sales in one of the last two turns",
        lambda m: "inchangé : aucune vente lors de l'un des deux derniers tours",
        "unchanged: no sales in one of the last two turns",
    ),
    _p(
        r"(?P<a>\d+) / (?P<b>\d+) x (?P<p>\$[\d.]+) = \$(?P<x>[\d.]+), rounded to (?P<r>\$[\d.]+)",
        lambda m: (
            f"{m['a']} / {m['b']} x {_fr_money(m['p'])} = {m['x'].replace('.', ',')} $, arrondi à {_fr_money(m['r'])}"
        ),
        "86 / 90 x $3 = $2.867, rounded to $3",
    ),
    # -- arrested units come back (R22) --------------------------------------------------------------
    _p(
        rf"(?P<k>[LH]) released at the station in (?P<d>{_C})",
        lambda m: f"{m['k']} libéré au poste de {m['d']}",
        "H released at the station in LOG",
    ),
    _p(
        r"(?P<k>[LH]) released but nowhere to go: disbanded",
        lambda m: f"{m['k']} libéré mais sans point de chute : renvoyé",
        "H released but nowhere to go: disbanded",
    ),
    _p(
        rf"(?P<k>[LH]) released; (?P<s>{_C}) was occupied, so it went to (?P<d>{_C})",
        lambda m: f"{m['k']} libéré ; {m['s']} était occupé, il est donc allé à {m['d']}",
        "H released; LOG was occupied, so it went to NOC",
    ),
)

_RULING = r"^(?P<text>.*?)(?P<ruling>\s*\((?:R\d+)(?:,\s*R\d+)*\))?$"


def _one(text: str) -> str | None:
    """A known reason as a whole (its ruling reference kept), or None."""
    m = re.match(_RULING, text, re.DOTALL)
    assert m is not None  # the pattern matches any text
    core, ruling = m["text"], m["ruling"] or ""
    for p in REASONS_FR:
        hit = p.pattern.match(core)
        if hit:
            return p.french(hit) + ruling
    for rx, fr in _rules_reasons():
        hit = rx.match(core)
        if hit:
            return fr.format(**{k: _translate(v) for k, v in hit.groupdict().items()}) + ruling
    return None


@functools.cache
def _rules_reasons() -> tuple[tuple[re.Pattern[str], str], ...]:
    """The rules module's own sentences (``moonshine.rules.reason_templates``, each in
    English and French) as patterns: an order the rules reject reads the same in a
    French report as in the French acknowledgement."""
    import string

    from moonshine.rules import reason_templates

    out: list[tuple[int, re.Pattern[str], str]] = []
    for en, fr in reason_templates():
        en_core = re.match(_RULING, en, re.DOTALL)
        fr_core = re.match(_RULING, fr, re.DOTALL)
        assert en_core is not None and fr_core is not None
        seen: set[str] = set()
        parts = []
        for literal, name, _, _ in string.Formatter().parse(en_core["text"]):
            parts.append(re.escape(literal))
            if name:
                # a parameter (a code, a unit, a list) never holds "; ", which joins reasons
                parts.append(f"(?P={name})" if name in seen else f"(?P<{name}>(?:(?!; ).)+?)")
                seen.add(name)
        literal_length = sum(len(lit) for lit, *_ in string.Formatter().parse(en_core["text"]))
        out.append((literal_length, re.compile("^" + "".join(parts) + "$", re.DOTALL), fr_core["text"]))
    out.sort(key=lambda t: -t[0])  # the most specific sentence first
    return tuple((rx, fr) for _, rx, fr in out)


def _translate(text: str) -> str:
    whole = _one(text)
    if whole is not None:
        return whole
    if "; " in text:
        return " ; ".join(_translate(part) for part in text.split("; "))
    return text


def translate_reason(language: str, text: str) -> str:
    """A reason written by the referee, in ``language``. French: the whole reason if a
    pattern knows it, else each ``; ``-separated part that a pattern knows; the rest
    is kept as written."""
    if check_language(language) == "en" or not text:
        return text
    return _translate(text)
