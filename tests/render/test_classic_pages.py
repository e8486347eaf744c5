"""A classic game's HTML pages (a power's report, the bulletin, the site's pages) are
laid out as Moonshine's: the shared stylesheet (tables that stack on a phone, dark
mode), no page of preformatted text; the results of each power's units first, with
the orders not carried out, then the map and the supply centres; plain holds in
one line per power."""

from __future__ import annotations

import re
from html import unescape
from pathlib import Path

import pytest
from click.testing import CliRunner

from moonshine.cli import main

ORDERS = {
    "FRA": "A PAR - BUR\nF BRE - MAO\nA MAR S A PAR - BUR\n",
    "GER": "A MUN - BUR\nF KIE - DEN\nA BUR - PIC\n",  # no unit in BUR: the order is ignored
}


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("classic") / "game"
    runner = CliRunner()
    made = runner.invoke(main, ["new", str(root), "--variant", "classic", "--no-git", "--seed", "pages"])
    assert made.exit_code == 0, made.output
    for power, text in ORDERS.items():
        (root / "orders" / "spring-1901" / f"{power}.txt").write_text(text, encoding="utf-8")
    done = runner.invoke(main, ["adjudicate", "spring-1901", "--game", str(root), "--no-commit"])
    assert done.exit_code == 0, done.output
    site = runner.invoke(main, ["site", "--game", str(root), "--out", str(root / "site")])
    assert site.exit_code == 0, site.output
    return root


def _pages(game: Path) -> dict[str, str]:
    reports = game / "turns" / "spring-1901" / "reports"
    return {
        "report": (reports / "FRA.html").read_text(encoding="utf-8"),
        "bulletin": (reports / "bulletin.html").read_text(encoding="utf-8"),
        "site-phase": (game / "site" / "turns" / "spring-1901" / "index.html").read_text(encoding="utf-8"),
        "site-index": (game / "site" / "index.html").read_text(encoding="utf-8"),
    }


def test_every_page_has_the_shared_look_and_no_preformatted_text(game: Path) -> None:
    for name, page in _pages(game).items():
        assert "<pre" not in page, name
        assert '<meta name="color-scheme" content="light dark">' in page, name
        assert "@media (prefers-color-scheme: dark)" in page and "@media (max-width: 480px)" in page, name
        assert 'class="card"' in page, name


def test_results_first_with_the_orders_not_carried_out_then_the_map_then_the_centres(game: Path) -> None:
    pages = _pages(game)
    for name in ("report", "bulletin", "site-phase"):
        page = pages[name]
        results = page.index('class="data stack results"')
        picture = page.index('src="map.png"')
        centres = page.index('class="data centres"')
        assert results < picture < centres, name
    bulletin = pages["bulletin"]
    assert bulletin.index('class="data stack results"') < bulletin.index('class="data stack ignored"')
    assert bulletin.index('class="data stack ignored"') < bulletin.index('src="map.png"')
    ignored = re.search(r'<table[^>]*class="data stack ignored".*?</table>', bulletin, re.S)
    assert ignored is not None and "GER" in ignored.group(0) and "A BUR - PIC" in ignored.group(0)


def test_each_power_has_its_rows_and_plain_holds_one_line(game: Path) -> None:
    bulletin = unescape(_pages(game)["bulletin"])
    table = re.search(r'<table[^>]*class="data stack results".*?</table>', bulletin, re.S)
    assert table is not None
    text = re.sub(r"<[^>]+>", " ", table.group(0))
    flat = " ".join(text.split())
    assert "A PAR - BUR succeeded moved to BUR with A MAR's support" in flat
    assert "A MUN - BUR failed bounced" in flat
    assert "Austria (AUS) held: A BUD, F TRI, A VIE England (ENG)" in flat  # no orders: all held, one line
    # a unit whose power sent orders but none for it is said to have had none, not "held"
    assert "A VIE H" not in flat and "Germany (GER) A BER H no order held; no order given F KIE - DEN" in flat


def test_a_phone_sees_stacking_tables_and_the_power_colours(game: Path) -> None:
    report = _pages(game)["report"]
    assert re.search(r'<table[^>]*class="data stack results"', report)
    assert "background-color:#0072b2" in report.replace(" ", "")  # France's colour on the map, as a swatch
    assert "GER" not in report.split('src="map.png"')[0]  # a power's own report shows its own orders


def test_the_site_page_links_the_zoomable_map_and_its_neighbours(game: Path) -> None:
    page = _pages(game)["site-phase"]
    assert 'href="map.svg"' in page and 'href="../../index.html"' in page
    index = _pages(game)["site-index"]
    assert 'class="timeline"' in index and 'href="turns/spring-1901/index.html"' in index


def test_the_site_in_another_language_draws_the_map_in_it(game: Path, tmp_path: Path) -> None:
    drawn = (game / "turns" / "spring-1901" / "map.svg").read_text(encoding="utf-8")
    assert "Spring 1901" in drawn  # adjudicated in English
    out = tmp_path / "site-fr"
    site = CliRunner().invoke(main, ["site", "--game", str(game), "--out", str(out), "--language", "fr"])
    assert site.exit_code == 0, site.output
    svg = (out / "turns" / "spring-1901" / "map.svg").read_text(encoding="utf-8")
    assert "Printemps 1901" in svg and "Spring 1901" not in svg
    assert (out / "turns" / "spring-1901" / "map.png").read_bytes() != (
        game / "turns" / "spring-1901" / "map.png"
    ).read_bytes()


def test_a_powers_report_opens_with_its_deadline_what_to_send_and_its_centres(tmp_path: Path) -> None:
    root = tmp_path / "game"
    runner = CliRunner()
    made = runner.invoke(main, ["new", str(root), "--variant", "classic", "--no-git", "--seed", "summary"])
    assert made.exit_code == 0, made.output
    with (root / "game.yaml").open("a", encoding="utf-8") as cfg:
        cfg.write(
            'smtp:\n  host: smtp.example.org\n  from: "Diplomacy referee <judge@example.org>"\n'
            'deadlines:\n  fall-1901: "2026-12-03T17:00:00+00:00"\n'
        )
    (root / "orders" / "spring-1901" / "FRA.txt").write_text(ORDERS["FRA"], encoding="utf-8")
    done = runner.invoke(main, ["adjudicate", "spring-1901", "--game", str(root), "--no-commit"])
    assert done.exit_code == 0, done.output
    reports = root / "turns" / "spring-1901" / "reports"

    def summary(page: str) -> str:
        table = re.search(r'<table[^>]*class="data summary".*?</table>', page, re.S)
        assert table is not None and page.index(table.group(0)) < page.index('class="data stack results"')
        return " ".join(unescape(re.sub(r"<[^>]+>", " ", table.group(0))).split())

    english = summary((reports / "FRA.html").read_text(encoding="utf-8"))
    assert "Next deadline Thursday 3 December 2026, 17:00 UTC (" in english
    assert "Your orders for Autumn 1901, one order a line, by email to judge@example.org" in english
    assert "Centres 3 centres, 3 units" in english  # centres change hands after the autumn
    assert 'class="data summary"' not in (reports / "bulletin.html").read_text(encoding="utf-8")
    french = runner.invoke(main, ["report", "spring-1901", "--game", str(root), "--language", "fr"])
    assert french.exit_code == 0, french.output
    page = (reports / "FRA.html").read_text(encoding="utf-8")
    words = summary(page).replace("\u00a0", " ").replace("\u202f", " ")
    assert "Prochaine date limite jeudi 3 décembre 2026 à 17 h 00 UTC (" in words
    assert "vos ordres pour l'automne 1901, un ordre par ligne, par courriel à judge@example.org" in words
