"""The words of orders, English and French side by side, by meaning: the unit
kinds, the verbs, the signs of a move, a hold, a support, a transport and an
assault, the words around a station or an amount, and the plain words a player
writes around an order that order nothing."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypeAlias

Phrases: TypeAlias = Mapping[tuple[str, ...], str]


def table(**groups: str) -> dict[tuple[str, ...], str]:
    """Phrases by meaning: ``table(move="- | to | moves to")``."""
    out: dict[tuple[str, ...], str] = {}
    for meaning, phrases in groups.items():
        for p in phrases.split("|"):
            out[tuple(p.split())] = meaning
    return out


KINDS = table(
    H="h | henchman | henchmen | hdm | homme de main | hommes de main | homme",
    L="l | delivery man | delivery men | deliveryman | livreur | livreurs",
)
VERBS = table(
    recruit="recruit | recruits | recruter | recrute | recrutement | build",
    disband="disband | disbands | licencier | licencie | licenciement | dismiss",
    sell="sell | sells | vendre | vend | vends | vente",
    store="store | stores | stocker | stocke | stockage | entreposer",
    bribe="bribe | bribes | corrompre | corrompt | corromps | corruption",
    retreat="retreat | retreats | retraite | retraiter | se retire",
    hold="hold | holds | tenir | tient",
)
# "attack" is a move, as the rules use the word (R6, R12): an assault is "x" or "assault".
MOVE = table(
    move="- | to | moves | move | moves to | move to | goes to | go to | to move to | to move | to go to "
    "| attack | attacks | attaque | attaquer | attaque en | attaque a | va | va a | va en | va vers | vers "
    "| avance | avance vers | avance a | avance en | avancer | se deplace vers | se deplace a | se deplace en "
    "| aille a | aille en | aille vers"
)
HOLD = table(
    hold="hold | holds | stand | stands | stay | stays | h | tenir | tient | tiens | reste | hold position "
    "| holds position | tenir position | tient position | tient sa position | stay put | stays put | stands still"
)
SUPPORT = table(support="/ | s | support | supports | soutient | soutien | soutiens | soutenir | supporte")
TRANSPORT = table(
    transport="-> | transport | transports | transporte | transporter | carries | carry | convoy | convoys | c "
    "| convoie"
)
ASSAULT = table(assault="x | assault | assaults | assaut | assaille | assaillir | assaillit")
VIA = table(via="via | par | through")
SEPARATOR = table(sep=", | and | et | or | ou | then | puis")
FILLER = table(fill="in | at | en | a | dans | au | du | the")
FILLERS = {p[0] for p in FILLER}
STATION_BEFORE = table(
    st="station | station in | the station in | the station of | the station at | poste | poste de | le poste de "
    "| poste du | le poste du | poste de police de | le poste de police de"
)
STATION_AFTER = table(st="station | police station | poste | poste de police")
AMOUNT_BEFORE = table(a="$ | with | for | of | de | pour | avec")
AMOUNT_AFTER = table(a="$ | dollar | dollars | usd")
CENTS = table(c="cents | cent | centimes")
CRATES = table(c="crate | crates | caisse | caisses | cases")
SELL_ALL = table(a="all | everything | max | maximum | tout | tous | toutes")
UNIT_OPS: dict[tuple[str, ...], str] = {**MOVE, **HOLD, **SUPPORT, **TRANSPORT, **ASSAULT}
ARROW = table(arrow="->")
TO = table(to="to | a | en | vers")
STATION_WORDS = frozenset({"station", "poste", "commissariat"})
ATTACK = frozenset({("attack",), ("attacks",), ("attaque",), ("attaquer",), ("attaque", "en"), ("attaque", "a")})

# Plain words a player writes around an order, which order nothing: read past (and
# named in the acknowledgement) where an order's words begin or end. A word that
# changes an order's meaning ("not", "if", "or", "unless", "ne", "pas", "si") is none
# of them, nor one that may speak of another gang's unit ("their", "his", "son"): a
# line with one is refused.
PLAIN = frozenset(
    p[0]
    for p in table(
        plain="please | pls | plz | kindly | the | i | i'd | we | want | wants | would | like | my | our | thanks "
        "| thank | you | thx | now | also | just | order | orders | should | shall | will | must "
        "| svp | stp | s'il | vous | plait | merci | je | j'aimerais | voudrais | voudrait | veux | veut | souhaite "
        "| que | qu'il | mon | ma | mes | notre | nos | le | la | les | doit | devrait"
    )
)
# A move verb written before the unit ("Move H LOO to NSS"): read only when the order is a move.
LEAD_MOVE = table(move="move | moving | deplacer | deplace | deplacez | bouger | bouge")

# Words that end a district's name: a run of unknown words stops at them.
STOP = {p[0] for t in (KINDS, UNIT_OPS, VIA, SEPARATOR, STATION_AFTER, AMOUNT_AFTER, CRATES) for p in t}

# The words an order may begin with, for a suggestion when none does.
ORDER_WORDS = sorted({p[0] for t in (VERBS, KINDS) for p in t if len(p[0]) > 2 and p[0].isalpha()})
