"""Deadlines people read at a glance (issue 38): the weekday, the date, the time in the
reader's zone and in UTC, and the time left ("Thursday 3 December 2026, 11:00 CST =
17:00 UTC (in 1 day 18 hours)", "jeudi 3 décembre 2026 à 18 h 00 CET = 17 h 00 UTC
(dans 1 jour et 18 heures)"), never broken inside a date or a time (no-break spaces,
French "18 h 00" with U+202F), in a report's HTML and text, the bulletin and the
site's index."""

from __future__ import annotations

import re
import shutil
from datetime import UTC, datetime
from html import unescape
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from click.testing import CliRunner
from handplayed import classic_game, moonshine_game

from moonshine.cli import main
from moonshine.render import mailwords

NB, NNB = "\u00a0", "\u202f"
DUE = datetime(2026, 12, 3, 17, 0, tzinfo=UTC)
NOW = datetime(2026, 12, 1, 23, 0, tzinfo=UTC)


def test_a_deadline_is_its_weekday_date_time_in_two_zones_and_the_time_left() -> None:
    words = mailwords.deadline_line
    chicago, paris = ZoneInfo("America/Chicago"), ZoneInfo("Europe/Paris")
    assert words("en", "Autumn 1924", DUE, chicago, now=NOW, sentence=False) == (
        f"Thursday{NB}3{NB}December{NB}2026, 11:00{NB}CST = 17:00{NB}UTC (in 1{NB}day 18{NB}hours)"
    )
    assert words("fr", "l'automne 1924", DUE, paris, now=NOW, sentence=False) == (
        f"jeudi{NB}3{NB}décembre{NB}2026 à 18{NNB}h{NNB}00{NB}CET = 17{NNB}h{NNB}00{NB}UTC"
        f" (dans 1{NB}jour et 18{NB}heures)"
    )
    # a zone where it is another day: the UTC day is given too; no zone: UTC alone
    assert words("en", "Autumn 1924", DUE, ZoneInfo("Asia/Tokyo"), now=NOW, sentence=False).startswith(
        f"Friday{NB}4{NB}December{NB}2026, 02:00{NB}JST = Thursday{NB}3{NB}December{NB}2026, 17:00{NB}UTC"
    )
    assert words("en", "Autumn 1924", DUE, None, now=DUE.replace(hour=20), sentence=False) == (
        f"Thursday{NB}3{NB}December{NB}2026, 17:00{NB}UTC (passed 3{NB}hours ago)"
    )
    # a sentence of its own (a bulletin, the site, the mail's first line)
    assert words("fr", "l'automne 1924", DUE, None, now=NOW).startswith(
        f"Les ordres pour l'automne 1924 sont attendus au plus tard le jeudi{NB}3{NB}décembre{NB}2026 à 17{NNB}h"
    )


@pytest.fixture(scope="module")
def moon(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = moonshine_game(tmp_path_factory.mktemp("due") / "moon", autumn=False)
    french = root.parent / "moon-fr"
    shutil.copytree(root, french)
    done = CliRunner().invoke(main, ["report", "spring-1924", "--game", str(french), "--language", "fr"])
    assert done.exit_code == 0, done.output
    site = CliRunner().invoke(main, ["site", "--game", str(root), "--out", str(root / "site")])
    assert site.exit_code == 0, site.output
    return root


@pytest.fixture(scope="module")
def classic(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = classic_game(tmp_path_factory.mktemp("due") / "classic", until="spring-1901")
    site = CliRunner().invoke(main, ["site", "--game", str(root), "--out", str(root / "site")])
    assert site.exit_code == 0, site.output
    return root


LEFT_EN = re.compile(rf"\(in \d+{NB}(?:days?|hours?|minutes?)")
LEFT_FR = re.compile(rf"\(dans \d+{NB}(?:jours?|heures?|minutes?)")


def _reports(root: Path, turn: str = "spring-1924") -> Path:
    return root / "turns" / turn / "reports"


def test_a_report_gives_the_deadline_at_a_glance_in_html_and_text(moon: Path) -> None:
    html = unescape((_reports(moon) / "outfit.html").read_text(encoding="utf-8"))
    text = (_reports(moon) / "outfit.txt").read_text(encoding="utf-8")
    for page in (html, text):
        assert f"Thursday{NB}3{NB}December{NB}2026, 11:00{NB}CST = 17:00{NB}UTC " in page
        assert LEFT_EN.search(page)
        assert "2026-12-" not in page  # no date a phone breaks at its hyphens
    # the text is wrapped at spaces only: the date and the time stay whole on their line
    line = next(ln for ln in text.splitlines() if "Next deadline" in ln)
    assert f"Thursday{NB}3{NB}December{NB}2026, 11:00{NB}CST" in line


def test_a_french_report_writes_the_deadline_as_french_does(moon: Path) -> None:
    french = moon.parent / "moon-fr"
    html = unescape((_reports(french) / "outfit.html").read_text(encoding="utf-8"))
    text = (_reports(french) / "outfit.txt").read_text(encoding="utf-8")
    for page in (html, text):
        page = page.replace("\n  ", " ")  # the text's lines joined (each breaks at an ordinary space)
        assert f"jeudi{NB}3{NB}décembre{NB}2026 à 11{NNB}h{NNB}00{NB}CST = 17{NNB}h{NNB}00{NB}UTC " in page
        assert LEFT_FR.search(page)
        assert "Prochaine date limite : Les" not in page.replace(NB, " ")  # no capital after the colon


def test_the_bulletin_and_the_site_index_give_the_deadline_sentence(moon: Path) -> None:
    due = f"Orders for Autumn 1924 are due Thursday{NB}3{NB}December{NB}2026, 11:00{NB}CST = 17:00{NB}UTC ("
    assert due in (_reports(moon) / "bulletin.txt").read_text(encoding="utf-8").replace("\n  ", " ")
    assert due in unescape((_reports(moon) / "bulletin.html").read_text(encoding="utf-8"))
    index = unescape((moon / "site" / "index.html").read_text(encoding="utf-8"))
    assert due in index and LEFT_EN.search(index)


def test_a_classic_report_and_its_site_give_the_deadline_too(classic: Path) -> None:
    text = (_reports(classic, "spring-1901") / "ENG.txt").read_text(encoding="utf-8")
    assert f"Next deadline: Thursday{NB}3{NB}December{NB}2026, 18:00{NB}CET = 17:00{NB}UTC" in text
    french = (_reports(classic, "spring-1901") / "FRA.txt").read_text(encoding="utf-8")
    assert f"jeudi{NB}3{NB}décembre{NB}2026 à 18{NNB}h{NNB}00{NB}CET" in french and LEFT_FR.search(french)
    index = unescape((classic / "site" / "index.html").read_text(encoding="utf-8"))
    assert f"Orders for Autumn 1901 are due Thursday{NB}3{NB}December{NB}2026, 18:00{NB}CET" in index
