"""The words of the ``absent`` command (``moonshine.absence``) in English and
French; ``moonshine.mailtext.MESSAGES`` takes them in."""

from __future__ import annotations

MESSAGES: dict[str, dict[str, str]] = {
    "absence.noted": {
        "en": "Absence noted: {span}. While you are away the judge does not wait for your orders: the orders "
        "on file stand, and without any your units hold.",
        "fr": "Absence notée : {span}. Pendant votre absence l'arbitre n'attend pas vos ordres : les ordres "
        "reçus tiennent, et sans ordres vos unités tiennent.",
    },
    "absence.moved": {
        "en": "Absence noted: {span}. A deadline that falls in it moves to the day after it, by at most {limit} "
        "(the game master's limit); past that, the orders on file stand and without any your units hold.",
        "fr": "Absence notée : {span}. Une date limite qui y tombe est repoussée au lendemain, de {limit} au plus "
        "(la limite du meneur de jeu) ; au-delà, les ordres reçus tiennent et sans ordres vos unités tiennent.",
    },
    "help.cmd.absent": {
        "en": "{keyword} 2026-12-01 to 2026-12-05: you will be away; the judge does not wait for your orders then",
        "fr": "{keyword} du 2026-12-01 au 2026-12-05 : vous serez absent ; l'arbitre n'attend alors pas vos ordres",
    },
    "absence.bad": {
        "en": "not read as an absence: {why}.",
        "fr": "pas lue comme une absence : {why}.",
    },
}
