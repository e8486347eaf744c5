"""French a native would sign (issue 38): the French pages of a game played by hand use
the published French rules' words (une avance, un standoff, un soutien, une
descente, corrompre) and one word per idea (a Moonshine unit is "licenciée", never
"renvoyée" or "dissoute"), give the gangs their article where a sentence holds them
("quartier du Chicago Outfit", "pour les Ragen's Colts"), the stations and districts
their French form ("poste Town Hall", "Uptown (avec Edgewater)"), and write no capital
after a colon and no second colon on a result's line."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import frtypo
import pytest
from click.testing import CliRunner
from handplayed import moonshine_game

from moonshine.cli import main

TURNS = ("spring-1924", "autumn-1924")
GANGS = ("outfit", "valley", "genna", "northside", "unione", "southside", "westside", "ragen")


@pytest.fixture(scope="module")
def french(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """Every text page of the two turns, written in French: name -> its words."""
    root = moonshine_game(tmp_path_factory.mktemp("words") / "moon")
    for turn in TURNS:
        done = CliRunner().invoke(main, ["report", turn, "--game", str(root), "--language", "fr"])
        assert done.exit_code == 0, done.output
    pages = {}
    for turn in TURNS:
        base: Path = root / "turns" / turn / "reports"
        for name in (*GANGS, "bulletin"):
            pages[f"{turn}/{name}"] = frtypo.checked((base / f"{name}.txt").read_text(encoding="utf-8"))
    shutil.rmtree(root)
    return pages


def test_no_calque_and_one_word_per_idea(french: dict[str, str]) -> None:
    everything = "\n".join(french.values())
    for wrong in ("rebondi", "renvoy", "dissou", "achète", "achetés", "tenu en échec", "avancé à", "\n  ont tenu :"):
        assert wrong not in everything, wrong
    assert "aucune n'avance (standoff)" in everything  # the rules' own words for a standoff
    assert "a avancé jusqu'à" in everything and "licenciée" in everything


def test_gangs_have_their_article_in_a_sentence(french: dict[str, str]) -> None:
    bulletin = " ".join(french["autumn-1924/bulletin"].split())
    assert "quartier des Westside O'Donnells" in bulletin
    assert "Dernier speakeasy perdu pour les Westside O'Donnells" in bulletin
    assert "En tête avec 18 PV : le North Side Gang." in bulletin
    report = " ".join(french["autumn-1924/northside"].split())
    assert "Vous avez perdu POR (Portage Park), pris par les Westside O'Donnells." in report


def test_stations_and_districts_are_named_in_french(french: dict[str, str]) -> None:
    everything = "\n".join(french.values())
    assert "station" not in everything and "(with Edgewater)" not in everything
    assert "la police (poste Shakespeare Avenue, LOG)" in " ".join(french["spring-1924/bulletin"].split())
    assert "Uptown (avec Edgewater)" in french["spring-1924/outfit"]


def test_no_capital_after_a_colon_and_one_colon_a_result_line(french: dict[str, str]) -> None:
    for name, text in french.items():
        flat = " ".join(text.split())
        capitals = re.findall(r"(?:deadline|limite|envoyer) : [A-ZÀ-Ý][a-zà-ÿ]+", flat)
        assert capitals == [], name
        for line in text.splitlines():
            if " — " in line:  # a result's line of the bulletin: the order, then what became of it
                assert line.split(" — ", 1)[0].count(" : ") == 0, line
