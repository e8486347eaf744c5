"""The map's legend as a picture of its own, under the whole map in every page that
shows it (a private report, the bulletin, the site's turn page and its index), in
the reader's language (``legend.png``, ``legend.fr.png`` for a player who reads
French in an English game), and inline in the report mail, once, as the map and the
close-up are; for Moonshine and for a classic game alike. The text reports say
nothing of it."""

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
from moonshine.game.reports import load_turn, map_scene
from moonshine.mail.outbox.reports import report_messages
from moonshine.picture.png import legend_picture
from moonshine.picture.shapes import Group, Item, Label
from moonshine.variants.moonshine.scene.legend import legend as chicago_scene_legend

TURN = "spring-1924"
PHASE = "spring-1901"
SMTP = {"smtp": {"host": "smtp.example.org", "from": "Referee <referee@example.org>"}}


def _texts(items: tuple[Item, ...]) -> set[str]:
    out: set[str] = set()
    for item in items:
        if isinstance(item, Group):
            out |= _texts(item.items)
        elif isinstance(item, Label):
            out.add(item.text)
    return out


def _legend_img(page: str) -> str:
    """The legend's ``<img>`` tag in a page (exactly one)."""
    tags = re.findall(r'<img\b[^>]*\bclass="legend"[^>]*>', page)
    assert len(tags) == 1, tags
    return str(tags[0])


def _src(page: str) -> str:
    found = re.search(r'\bsrc="([^"]+)"', _legend_img(page))
    assert found
    return found.group(1)


def _after_the_map(page: str, heading: str) -> None:
    """The legend's heading and picture come after the whole map and its SVG link."""
    tag = _legend_img(page)
    assert re.search(r'\bwidth="\d+"', tag) and re.search(r'\bheight="\d+"', tag), tag
    assert "max-width: 100%" in tag, tag
    at = page.index(tag)
    title = page.index(f">{heading}</h3>")
    assert page.rindex('class="map"', 0, at) < title < at


def _mail_pictures(msg: EmailMessage) -> dict[str, EmailMessage]:
    """The message's inline pictures by Content-ID (each one once)."""
    found: dict[str, EmailMessage] = {}
    for part in msg.walk():
        if isinstance(part, EmailMessage) and part.get_content_type() == "image/png":
            cid = str(part["Content-ID"]).strip("<>")
            assert cid not in found, cid
            found[cid] = part
    return found


def _check_mail(msg: EmailMessage, legend: str, data: bytes) -> None:
    """The legend goes inline in the HTML's multipart/related, once, and the HTML shows it."""
    pictures = _mail_pictures(msg)
    assert legend in pictures
    part = pictures[legend]
    assert part.get_content() == data
    assert part.get_content_disposition() == "inline"
    related = next(p for p in msg.walk() if p.get_content_type() == "multipart/related")
    assert part in list(related.iter_parts())
    html = next(p for p in msg.walk() if p.get_content_type() == "text/html")
    assert isinstance(html, EmailMessage)
    assert html.get_content().count(f'src="cid:{legend}"') == 1
    plain = next(p for p in msg.walk() if p.get_content_type() == "text/plain")
    assert isinstance(plain, EmailMessage)
    assert "legend" not in plain.get_content().lower()


# -- Moonshine -----------------------------------------------------------------------


@pytest.fixture(scope="module")
def chicago(tmp_path_factory: pytest.TempPathFactory) -> Game:
    """The sample game adjudicated, its Outfit read in French, the judge's address known."""
    game = Game(copy_sample(tmp_path_factory.mktemp("legend") / "game"))
    players = dict(game.config.players)
    players["outfit"] = replace(players["outfit"], language="fr")
    save_config(game, replace(game.config, players=players, extra={**game.config.extra, **SMTP}))
    game = Game(game.root)
    adjudicate_game(game, TURN, force=True, commit=False)
    return game


def test_the_reports_and_bulletin_show_the_legend_under_the_map(chicago: Game) -> None:
    base = chicago.turn_dir(TURN) / "reports"
    for name, src, heading in (
        ("genna.html", "legend.png", "Legend"),
        ("bulletin.html", "legend.png", "Legend"),
        ("outfit.html", "legend.fr.png", "Légende"),
    ):
        page = (base / name).read_text(encoding="utf-8")
        assert _src(page) == src, name
        assert (base / src).is_file(), name
        _after_the_map(page, heading)
    french = unescape(_legend_img((base / "outfit.html").read_text(encoding="utf-8")))
    assert frtypo.fr('alt="Légende de la carte : ') in french
    assert 'alt="Legend of the map: ' in _legend_img((base / "genna.html").read_text(encoding="utf-8"))
    for name in ("genna.txt", "outfit.txt", "bulletin.txt"):
        text = (base / name).read_text(encoding="utf-8").lower()
        assert "legend" not in text and "légende" not in text, name


def test_a_french_reader_gets_the_legend_in_french(chicago: Game) -> None:
    """``legend.fr.png`` is the French map's own legend (its words in French), drawn
    apart from the game's English one; the map keeps its legend inside too."""
    base = chicago.turn_dir(TURN) / "reports"
    res, nxt = load_turn(chicago, TURN)
    legends = {lang: chicago_scene_legend(map_scene(chicago.map, res, nxt, lang)) for lang in ("en", "fr")}
    french, english = _texts(legends["fr"].items), _texts(legends["en"].items)
    assert {"Unités", "Quartiers", "Ordres", "entrepôt"} <= french
    assert {"Units", "Districts", "Orders", "warehouse"} <= english
    assert (base / "legend.fr.png").read_bytes() == legend_picture(legends["fr"]).png
    assert (base / "legend.png").read_bytes() == legend_picture(legends["en"]).png
    assert (base / "legend.fr.png").read_bytes() != (base / "legend.png").read_bytes()
    assert 'id="legend"' in (base / "map.fr.svg").read_text(encoding="utf-8")


def test_the_mail_carries_the_legend_inline_once(chicago: Game) -> None:
    base = chicago.turn_dir(TURN) / "reports"
    mails = {m.name: m.message for m in report_messages(chicago, TURN).messages}
    _check_mail(mails["report-genna.eml"], "legend.png", (base / "legend.png").read_bytes())
    _check_mail(mails["report-outfit.eml"], "legend.fr.png", (base / "legend.fr.png").read_bytes())
    assert "legend.png" not in _mail_pictures(mails["report-outfit.eml"])
    _check_mail(mails["bulletin.eml"], "legend.png", (base / "legend.png").read_bytes())


def test_the_site_shows_the_legend_on_each_turn_and_the_index(chicago: Game, tmp_path: Path) -> None:
    from moonshine.game.site import build_site

    out = tmp_path / "site"
    build_site(chicago, out)
    page = (out / "turns" / TURN / "index.html").read_text(encoding="utf-8")
    assert _src(page) == "legend.png" and (out / "turns" / TURN / "legend.png").is_file()
    _after_the_map(page, "Legend")
    index = (out / "index.html").read_text(encoding="utf-8")
    assert _src(index) == f"turns/{TURN}/legend.png"
    _after_the_map(index, "Legend")


# -- classic -------------------------------------------------------------------------


@pytest.fixture(scope="module")
def classic(tmp_path_factory: pytest.TempPathFactory) -> Game:
    """A classic game's first phase adjudicated, France read in French, its site written."""
    root = tmp_path_factory.mktemp("legend-classic") / "game"
    runner = CliRunner()
    made = runner.invoke(main, ["new", str(root), "--variant", "classic", "--no-git", "--seed", "legend"])
    assert made.exit_code == 0, made.output
    game = Game(root)
    players = dict(game.config.players)
    for power in players:
        players[power] = replace(players[power], email=[f"{power.lower()}@players.example.org"])
    players["FRA"] = replace(players["FRA"], language="fr")
    save_config(game, replace(game.config, players=players, extra={**game.config.extra, **SMTP}))
    (root / "orders" / PHASE / "FRA.txt").write_text("A PAR - BUR\nA MAR S A PAR - BUR\n", encoding="utf-8")
    (root / "orders" / PHASE / "GER.txt").write_text("A MUN - BUR\n", encoding="utf-8")
    done = runner.invoke(main, ["adjudicate", PHASE, "--game", str(root), "--no-commit"])
    assert done.exit_code == 0, done.output
    site = runner.invoke(main, ["site", "--game", str(root), "--out", str(root / "site")])
    assert site.exit_code == 0, site.output
    return Game(root)


def test_a_classic_games_pages_show_the_legend_in_the_readers_language(classic: Game) -> None:
    base = classic.turn_dir(PHASE) / "reports"
    for name, src, heading in (
        ("ENG.html", "legend.png", "Legend"),
        ("bulletin.html", "legend.png", "Legend"),
        ("FRA.html", "legend.fr.png", "Légende"),
    ):
        page = (base / name).read_text(encoding="utf-8")
        assert _src(page) == src, name
        assert (base / src).is_file(), name
        _after_the_map(page, heading)
    assert (base / "legend.fr.png").read_bytes() != (base / "legend.png").read_bytes()
    for name in ("ENG.txt", "FRA.txt", "bulletin.txt"):
        text = (base / name).read_text(encoding="utf-8").lower()
        assert "legend" not in text and "légende" not in text, name
    site = classic.root / "site"
    page = (site / "turns" / PHASE / "index.html").read_text(encoding="utf-8")
    assert _src(page) == "legend.png" and (site / "turns" / PHASE / "legend.png").is_file()
    _after_the_map(page, "Legend")
    index = (site / "index.html").read_text(encoding="utf-8")
    assert _src(index) == f"turns/{PHASE}/legend.png"


def test_a_classic_legend_is_the_phases_own_in_french(classic: Game) -> None:
    """The French reader's legend: the phase's legend drawn in French, its columns one
    under the other (the picture is narrow enough for a phone)."""
    from moonshine.game.families.classic import orders_dir, read_orders
    from moonshine.variants.classic import scene as classic_scene
    from moonshine.variants.classic.layout import load_state
    from moonshine.variants.classic.phases import adjudicate_phase
    from moonshine.variants.classic.scene.legend import legend as classic_scene_legend

    gmap = classic.board()
    st = load_state(classic.root, PHASE, gmap)
    orders, _ = read_orders(orders_dir(classic.root, PHASE), gmap, st)
    outcome = adjudicate_phase(gmap, st, orders)
    french = classic_scene_legend(classic_scene.build_scene(gmap, st, outcome, language="fr"))
    whole = classic_scene.build_scene(gmap, st, outcome, language="fr")
    assert {"Puissances", "Carte", "Unités et ordres"} <= _texts(french.items)
    assert french.width < whole.width / 2 and french.height > french.width
    base = classic.turn_dir(PHASE) / "reports"
    assert (base / "legend.fr.png").read_bytes() == legend_picture(french).png


def test_a_classic_mail_carries_the_legend_inline_once(classic: Game) -> None:
    base = classic.turn_dir(PHASE) / "reports"
    mails = {m.name: m.message for m in report_messages(classic, PHASE).messages}
    _check_mail(mails["report-eng.eml"], "legend.png", (base / "legend.png").read_bytes())
    _check_mail(mails["report-fra.eml"], "legend.fr.png", (base / "legend.fr.png").read_bytes())
    _check_mail(mails["bulletin.eml"], "legend.png", (base / "legend.png").read_bytes())
