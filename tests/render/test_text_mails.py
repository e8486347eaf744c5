"""Text mails carry what the HTML carries (issue 38): a classic power's text report
opens, as its HTML does, with the next deadline, what to send and its centres; no
report has a heading without content ("DISLODGED UNITS" with nothing under it); and a
power with nothing to order in the next phase (no unit to retreat, no build or
disband) is told so, not asked for orders."""

from __future__ import annotations

import re
from html import unescape
from pathlib import Path

import frtypo
import pytest
from handplayed import classic_game, moonshine_game

PHASES = ("spring-1901", "fall-1901", "fall-1901-retreats", "winter-1901")


@pytest.fixture(scope="module")
def classic(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return classic_game(tmp_path_factory.mktemp("text") / "classic")


@pytest.fixture(scope="module")
def moon(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return moonshine_game(tmp_path_factory.mktemp("text") / "moon")


def _text(root: Path, phase: str, power: str) -> str:
    return frtypo.plain((root / "turns" / phase / "reports" / f"{power}.txt").read_text(encoding="utf-8"))


def _is_heading(line: str) -> bool:
    letters = re.sub(r"[^A-Za-zÀ-ÿ]", "", line)
    return len(letters) >= 4 and line == line.upper() and not line.startswith(" ")


def _empty_headings(text: str) -> list[str]:
    """The headings (a line of capitals, maybe underlined) with nothing under them
    before the next heading or the end."""
    lines = [ln for ln in text.splitlines() if ln.strip() and not set(ln.strip()) <= {"-", "="}]
    return [ln for i, ln in enumerate(lines) if _is_heading(ln) and (i + 1 == len(lines) or _is_heading(lines[i + 1]))]


def test_no_text_report_has_a_heading_without_content(classic: Path, moon: Path) -> None:
    empty = []
    for phase in PHASES:
        for power in ("AUS", "ENG", "FRA", "GER", "ITA", "RUS", "TUR", "bulletin"):
            empty += [f"{phase}/{power}: {h}" for h in _empty_headings(_text(classic, phase, power))]
    for turn in ("spring-1924", "autumn-1924"):
        for gang in ("outfit", "valley", "genna", "northside", "unione", "southside", "westside", "ragen"):
            empty += [f"{turn}/{gang}: {h}" for h in _empty_headings(_text(moon, turn, gang))]
    assert empty == []


def test_a_classic_text_report_opens_with_the_deadline_what_to_send_and_the_centres(classic: Path) -> None:
    for phase in PHASES:
        for power in ("ENG", "GER", "ITA"):
            head = " ".join(_text(classic, phase, power).split("YOUR ORDERS AND THEIR RESULTS")[0].split())
            assert "Next deadline: " in head, (phase, power)
            assert "What to send: " in head, (phase, power)
            assert "Centres: " in head, (phase, power)
    head = " ".join(_text(classic, "spring-1901", "FRA").split("VOS ORDRES")[0].split())
    assert "Prochaine date limite : jeudi 3 décembre 2026" in head
    assert "À envoyer : vos ordres pour l'automne 1901, un ordre par ligne, par courriel à judge@example.org" in head


def test_a_power_with_nothing_to_order_is_told_so_not_asked_for_orders(classic: Path) -> None:
    """After the autumn only Germany has a unit to retreat: the others are told there is
    nothing for them to send; in the retreat phase's report they read that they had
    nothing to order; before the winter, a power owed no build or disband likewise."""
    english = " ".join(_text(classic, "fall-1901", "ENG").split())
    assert "What to send: nothing; you have no dislodged unit to retreat in Autumn 1901 retreats." in english
    assert "Your orders for Autumn 1901 retreats" not in english
    german = " ".join(_text(classic, "fall-1901", "GER").split())
    assert "What to send: Your orders for Autumn 1901 retreats, one order a line" in german
    html = " ".join(
        frtypo.plain(
            unescape(re.sub(r"<[^>]+>", " ", (classic / "turns/fall-1901/reports/ENG.html").read_text()))
        ).split()
    )
    assert "nothing; you have no dislodged unit to retreat in Autumn 1901 retreats." in html
    french = " ".join(_text(classic, "fall-1901", "FRA").split())
    assert "À envoyer : rien ; vous n'avez aucune unité délogée" in french
    assert "You had nothing to order in Autumn 1901 retreats." in " ".join(
        _text(classic, "fall-1901-retreats", "ENG").split()
    )
    russia = " ".join(_text(classic, "fall-1901-retreats", "RUS").split())  # 4 centres, 4 units: nothing owed
    assert "What to send: nothing; you have no build or disband to make in Winter 1901." in russia


def test_the_dislodged_heading_is_only_in_the_reports_that_have_a_dislodged_unit(classic: Path) -> None:
    assert "DISLODGED UNITS" in _text(classic, "fall-1901", "GER")
    assert "DISLODGED UNITS" not in _text(classic, "fall-1901", "ENG")
    assert "UNITÉS DÉLOGÉES" not in _text(classic, "fall-1901", "FRA")
