"""What a player opens the report for comes first: the next deadline in their own time
zone and what to send, their cash and VP, what happened to their units; then the map,
a close-up of their own area first, readable on a phone; the echo of their orders
file last. Each reader's maps are drawn in their language."""

from __future__ import annotations

import re
from email.message import EmailMessage
from html import unescape
from pathlib import Path

import frtypo
import pytest
from click.testing import CliRunner
from msgspec.structs import replace
from samplegame import copy_sample

from moonshine.cli import main
from moonshine.game.directory import Game, save_config
from moonshine.game.jobs import adjudicate_game
from moonshine.game.reports import load_turn, render_map
from moonshine.game.site import build_site
from moonshine.mail.outbox.reports import report_messages
from moonshine.picture.shapes import Group, Label
from moonshine.variants.moonshine import scene as chicago_scene
from moonshine.variants.moonshine.scene.closeup import PHONE_WIDTH, area_of, closeup

TURN = "spring-1924"
DUE = "2026-12-03T17:00:00+00:00"  # autumn 1924's deadline: 18:00 in Paris, 11:00 in Chicago


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> Game:
    """The sample game adjudicated, its Outfit read in French from Paris, the game's
    zone Chicago, the next deadline set and the judge's address known."""
    game = Game(copy_sample(tmp_path_factory.mktemp("first") / "game"))
    players = dict(game.config.players)
    players["outfit"] = replace(players["outfit"], language="fr", timezone="Europe/Paris")
    more = {
        "deadlines": {"autumn-1924": DUE},
        "schedule": {"timezone": "America/Chicago", "every": "7d"},
        "smtp": {"host": "smtp.example.org", "from": "Moonshine referee <referee@example.org>"},
    }
    save_config(game, replace(game.config, players=players, extra={**game.config.extra, **more}))
    game = Game(game.root)
    adjudicate_game(game, TURN, force=True, commit=False)
    return game


def _reports(game: Game) -> Path:
    return game.turn_dir(TURN) / "reports"


def _order(page: str, *marks: str) -> list[int]:
    """Where each mark first stands in the page (a mark missing fails the test)."""
    where = []
    for mark in marks:
        assert mark in page, mark
        where.append(page.index(mark))
    return where


def test_the_report_opens_with_the_deadline_cash_and_vp_then_results_map_and_orders_last(game: Game) -> None:
    page = unescape((_reports(game) / "genna.html").read_text(encoding="utf-8"))
    marks = _order(
        page,
        "Thursday\u00a03\u00a0December\u00a02026, 11:00\u00a0CST = 17:00\u00a0UTC (in ",
        "by email to referee@example.org",
        "Cash",
        "VP, rank ",
        "Your units' orders and results",
        'src="closeup-genna.png"',
        'src="map.png"',
        '<details class="orders"',
    )
    assert marks == sorted(marks)
    text = (_reports(game) / "genna.txt").read_text(encoding="utf-8")
    lines = _order(text, "Next deadline: Thursday", "Cash: $", "YOUR UNITS' ORDERS", "YOUR ORDERS")
    assert lines == sorted(lines)


def test_a_french_players_report_gives_the_deadline_in_their_zone_and_language(game: Game) -> None:
    page = frtypo.plain(unescape((_reports(game) / "outfit.html").read_text(encoding="utf-8")))
    due = "jeudi 3 décembre 2026 à 18 h 00 CET = 17 h 00 UTC (dans "
    marks = _order(
        page, "Prochaine date limite", due, "courriel à referee@example.org", "Trésorerie", 'src="map.fr.png"'
    )
    assert marks == sorted(marks)
    text = (_reports(game) / "outfit.txt").read_text(encoding="utf-8")
    assert not frtypo.plain_spaces(text)


def test_the_bulletin_and_the_site_give_the_deadline_in_the_games_zone(game: Game, tmp_path: Path) -> None:
    due = "Orders for Autumn 1924 are due Thursday 3 December 2026, 11:00 CST = 17:00 UTC (in "
    bulletin = frtypo.plain(unescape((_reports(game) / "bulletin.html").read_text(encoding="utf-8")))
    assert _order(bulletin, due, 'src="map.png"') == sorted(_order(bulletin, due, 'src="map.png"'))
    assert due in " ".join(frtypo.plain((_reports(game) / "bulletin.txt").read_text(encoding="utf-8")).split())
    assert "closeup" not in bulletin  # the bulletin has no close-up
    build_site(game, tmp_path / "site")
    page = (tmp_path / "site" / "turns" / TURN / "index.html").read_text(encoding="utf-8")
    assert due in frtypo.plain(unescape(page))
    figure = page[page.index('src="map.png"') :]
    assert figure.index('href="map.svg"') < figure.index("</p>", figure.index("caption"))  # the SVG, beside it
    index = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    latest = index[index.index(f'src="turns/{TURN}/map.png"') :]
    assert latest.index(f'href="turns/{TURN}/map.svg"') < latest.index("<h2")


def test_a_french_players_mail_carries_their_french_map_and_close_up_inline(game: Game) -> None:
    base = _reports(game)
    assert "printemps 1924" in (base / "map.fr.svg").read_text(encoding="utf-8")
    assert "Spring 1924" in (base / "map.svg").read_text(encoding="utf-8")
    # the close-up is a picture; its zoomable version is the reader's whole map in SVG
    assert (base / "closeup-outfit.png").is_file() and not (base / "closeup-outfit.svg").exists()
    assert 'href="map.fr.svg"' in (base / "outfit.html").read_text(encoding="utf-8")
    built = report_messages(game, TURN)
    mails = {m.name: m.message for m in built.messages}
    for name, gang, shown, legend in (
        ("report-outfit.eml", "outfit", "map.fr.png", "legend.fr.png"),
        ("report-genna.eml", "genna", "map.png", "legend.png"),
    ):
        msg = mails[name]
        pictures = {
            str(part["Content-ID"]).strip("<>"): part.get_content()
            for part in msg.walk()
            if isinstance(part, EmailMessage) and part.get_content_type() == "image/png"
        }
        assert pictures == {
            shown: (base / shown).read_bytes(),
            f"closeup-{gang}.png": (base / f"closeup-{gang}.png").read_bytes(),
            legend: (base / legend).read_bytes(),  # the map's legend, under it
        }
        html = next(p for p in msg.walk() if p.get_content_type() == "text/html").get_content()
        marks = _order(html, f'src="cid:closeup-{gang}.png"', f'src="cid:{shown}"', f'src="cid:{legend}"')
        assert marks == sorted(marks)
        assert ".svg" not in html  # a link to a file the mail does not carry
    bulletin = mails["bulletin.eml"]
    cids = {str(p["Content-ID"]) for p in bulletin.walk() if p.get_content_type() == "image/png"}
    assert "<map.png>" in cids and not any("closeup" in c for c in cids)


def _labels(scene: chicago_scene.Scene) -> list[Label]:
    group = next(i for i in scene.items if isinstance(i, Group) and dict(i.attrs).get("id") == "labels")
    return [i for i in group.items if isinstance(i, Label)]


def test_a_close_up_shows_the_gangs_area_with_labels_of_11_px_on_a_390_px_phone(game: Game) -> None:
    res, nxt = load_turn(game, TURN)
    whole = chicago_scene.build_scene(game.map, nxt)
    # the whole map on the phone: its district codes are about 6 px, too small to read
    assert max(label.size for label in _labels(whole)) * PHONE_WIDTH / whole.width < 7
    for gang in game.map.gangs:
        area = area_of(game.map, nxt, gang)
        assert set(nxt.controlled_by(gang)) <= set(area)
        assert all(n in area for u in nxt.units_of(gang) for n in game.map.neighbours(u.district))
        near = closeup(game.map, whole, area)
        assert near.width < whole.width and near.height < whole.height
        shown = [label.size * PHONE_WIDTH / near.width for label in _labels(near)]
        assert min(shown) >= 11, gang
        assert {"legend", "title"}.isdisjoint(dict(i.attrs).get("id") for i in near.items if isinstance(i, Group))
    assert render_map(game.map, res, nxt, "en")  # the whole map is drawn as it was


def test_report_on_a_classic_game_draws_the_map_again_in_its_new_language(tmp_path: Path) -> None:
    root = tmp_path / "dip"
    runner = CliRunner()
    assert runner.invoke(main, ["new", str(root), "--variant", "classic", "--no-git"]).exit_code == 0
    (root / "orders" / "spring-1901" / "FRA.txt").write_text("A PAR - BUR\n", encoding="utf-8")
    done = runner.invoke(main, ["adjudicate", "spring-1901", "--game", str(root), "--no-commit"])
    assert done.exit_code == 0, done.output
    svg = root / "turns" / "spring-1901" / "reports" / "map.svg"
    assert "Spring 1901" in svg.read_text(encoding="utf-8")
    game = Game(root)
    save_config(game, replace(game.config, language="fr"))
    again = runner.invoke(main, ["report", "spring-1901", "--game", str(root)])
    assert again.exit_code == 0, again.output
    drawn = svg.read_text(encoding="utf-8")
    assert "printemps 1901" in drawn.lower() and "Spring 1901" not in drawn
    assert re.search(r"\bBUR\b", drawn)  # the phase's orders are drawn again too
