"""The report tells each player the truth first (issue 38): above its first picture,
what was not carried out and why, with the order each unit carried out instead; "no
orders received" where that is so; what the turn did to the gang (units arrested by
the raid, crates seized, districts lost), each named; in HTML and text, in both
variants and both languages. Two games played by hand (``handplayed``)."""

from __future__ import annotations

import re
import shutil
from html import unescape
from pathlib import Path

import frtypo
import pytest
from click.testing import CliRunner
from handplayed import classic_game, first_screen, moonshine_game

from moonshine.cli import main


@pytest.fixture(scope="module")
def moon(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return moonshine_game(tmp_path_factory.mktemp("truth") / "moon")


@pytest.fixture(scope="module")
def moon_fr(moon: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The same game, its reports written again in French."""
    root = tmp_path_factory.mktemp("truth-fr") / "moon"
    shutil.copytree(moon, root)
    for turn in ("spring-1924", "autumn-1924"):
        done = CliRunner().invoke(main, ["report", turn, "--game", str(root), "--language", "fr"])
        assert done.exit_code == 0, done.output
    return root


@pytest.fixture(scope="module")
def classic(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return classic_game(tmp_path_factory.mktemp("truth") / "classic")


def _page(root: Path, turn: str, name: str) -> str:
    return (root / "turns" / turn / "reports" / name).read_text(encoding="utf-8")


def _flat(html: str) -> str:
    """An HTML page's words, its tags gone and its spaces made plain."""
    return " ".join(frtypo.plain(unescape(re.sub(r"<[^>]+>", " ", html))).split())


def _text(root: Path, turn: str, name: str) -> str:
    """A text report's words before its map line, its spaces made plain."""
    text = _page(root, turn, name)
    return " ".join(frtypo.plain(text).split())


def test_a_rejected_order_is_said_with_the_results_and_what_the_unit_did_instead(moon: Path) -> None:
    top = _flat(first_screen(_page(moon, "spring-1924", "northside.html")))
    assert (
        "H IRV hold rejected held; your order H IRV - LIP was refused: LIP is not next to IRV, "
        "and no chain of delivery men can carry H IRV there (R8, R10)" in top
    )
    assert "H IRV hold succeeded" not in top
    assert "H HER hold no order held; you gave it no order (R12)" in top  # a unit its file did not order
    assert "line 8, bribe IRV 5, rejected:" in top  # a line that is no unit's order
    text = _text(moon, "spring-1924", "northside.txt").split("The map is attached")[0]
    assert "H IRV hold rejected held; your order H IRV - LIP was refused: LIP is not next to IRV" in text
    assert "H HER hold no order held; you gave it no order (R12)" in text
    assert "Not carried out: - line 8, bribe IRV 5, rejected:" in text


def test_a_support_out_of_reach_is_said_with_the_dislodgement_it_did_not_prevent(moon: Path) -> None:
    top = _flat(first_screen(_page(moon, "autumn-1924", "northside.html")))
    assert "L POR hold rejected dislodged by H DUN - POR; your order L POR / H IRV - ALB was refused" in top


def test_no_orders_received_is_said_on_the_first_screen(moon: Path, classic: Path) -> None:
    top = _flat(first_screen(_page(moon, "spring-1924", "valley.html")))
    assert "No orders received: your units held, you sold the most you could and bid nothing (R12)." in top
    assert "succeeded" not in top.split("Your units' orders and results")[1]
    assert "held: H LOO, H NSS, L BRO, L FIV, L GRA, L KEN, H HYD" in top  # every unit named, in one line
    text = _text(moon, "spring-1924", "valley.txt").split("The map is attached")[0]
    assert "No orders received: your units held" in text
    top = _flat(first_screen(_page(classic, "spring-1901", "RUS.html")))
    assert "No orders received: your units held." in top
    assert "A MOS H no order held; you gave it no order" in top
    assert "No orders received: your units held." in _text(classic, "spring-1901", "RUS.txt")


def test_a_classic_report_says_what_was_not_carried_out_before_its_map(classic: Path) -> None:
    top = _flat(first_screen(_page(classic, "spring-1901", "ITA.html")))
    assert "A VEN - TUN failed illegal: TUN is not next to VEN" in top
    bulletin = _flat(first_screen(_page(classic, "spring-1901", "bulletin.html")))
    assert "No orders received from Russia (RUS)." in bulletin


def test_what_the_raid_did_to_the_gang_is_said_to_the_gang_above_the_first_picture(moon: Path) -> None:
    top = _flat(first_screen(_page(moon, "spring-1924", "outfit.html")))
    assert "H NOC was arrested by the raid on NOC (R22)" in top
    assert "5 crates of yours were seized by the raid on NOC (R22)." in top
    text = _text(moon, "spring-1924", "outfit.txt").split("The map is attached")[0]
    assert "H NOC was arrested by the raid on NOC (R22)" in text
    # the release names the unit and why it went elsewhere
    assert "H NOC, arrested by the raid on NOC, was released; LOG was occupied, so it went to NOC (R22)" in _text(
        moon, "spring-1924", "outfit.txt"
    )


def test_districts_lost_are_named_to_the_gang_that_lost_them(moon: Path) -> None:
    top = _flat(first_screen(_page(moon, "autumn-1924", "outfit.html")))
    assert "You lost ALB (Albany Park) to North Side Gang." in top
    assert "You lost POR (Portage Park) to Westside O'Donnells." in _text(moon, "autumn-1924", "northside.txt")


def test_the_crates_sold_are_those_the_gang_ordered(moon: Path) -> None:
    """The Colts wrote no sell order: they sold the most their territory takes, not
    "16 of the 19 crates ordered"."""
    text = _text(moon, "spring-1924", "ragen.txt")
    assert "crates ordered" not in text
    assert "no sell order: sold 16 crates, all your territory's consumption takes (R12, R15)" in text


def test_the_same_in_french(moon_fr: Path) -> None:
    top = frtypo.checked(
        unescape(re.sub(r"<[^>]+>", " ", first_screen(_page(moon_fr, "spring-1924", "northside.html"))))
    )
    top = " ".join(top.split())
    assert "votre ordre H IRV - LIP a été rejeté, car LIP" in top
    valley = _flat(first_screen(_page(moon_fr, "spring-1924", "valley.html")))
    assert "Aucun ordre reçu" in valley
    outfit = _flat(first_screen(_page(moon_fr, "spring-1924", "outfit.html")))
    assert "H NOC a été arrêtée par la descente à NOC (R22)" in outfit
    assert "5 de vos caisses ont été saisies par la descente à NOC (R22)." in outfit
