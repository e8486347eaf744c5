"""A language's elisions where a field meets the word before it (``format.elision``
in its catalogue): French writes ``d'Angleterre``, ``poste d'ENG``, ``qu'A PAR``,
never ``de Angleterre``; English and any word inside another are left alone."""

from __future__ import annotations

import pytest

from moonshine.render import mailwords
from moonshine.text.catalogue import fill


@pytest.mark.parametrize(
    ("template", "fields", "expected"),
    [
        ("Commandes de {gang}", {"gang": "Angleterre"}, "Commandes d'Angleterre"),
        ("Commandes de {gang}", {"gang": "France"}, "Commandes de France"),
        ("poste de {d}", {"d": "ENG"}, "poste d'ENG"),
        ("le soutien de {a} et de {b}", {"a": "A MAR", "b": "F BRE"}, "le soutien d'A MAR et de F BRE"),
        ("De {who} : rien", {"who": "Italie"}, "D'Italie : rien"),
        ("plus que {unit}", {"unit": "A PAR"}, "plus qu'A PAR"),
        ("un ordre de {sender}", {"sender": "alice@example.org"}, "un ordre d'alice@example.org"),
        ("la gare de {d}", {"d": "Hyde Park"}, "la gare de Hyde Park"),  # h: never elided
        ("l'Inde {d}", {"d": "ENG"}, "l'Inde ENG"),  # "de" inside a word
        ("de {n} caisses", {"n": 8}, "de 8 caisses"),
        ("de {x}", {}, "de {x}"),  # no fields: the template as it is
    ],
)
def test_french_elides_de_and_que_before_a_vowel(template: str, fields: dict[str, object], expected: str) -> None:
    assert fill("fr", template, **fields) == expected


def test_english_has_no_elision() -> None:
    assert fill("en", "Orders of {gang}: de {gang}", gang="England") == "Orders of England: de England"


def test_a_french_reply_names_a_power_with_its_elision() -> None:
    reply = mailwords.text(
        "fr", "reply.commands", gang="Angleterre", turn="spring-1901", received="2024-02-27 08:00", sender="x@y.org"
    )
    assert reply.startswith("Commandes d'Angleterre pour "), reply
