"""The game's web site (moonshine site): every page and picture reachable by
relative links from the index, nothing private in it, in both languages."""

from __future__ import annotations

import html
import re
from pathlib import Path
from urllib.parse import unquote

import pytest
from click.testing import CliRunner

from moonshine.cli import main
from moonshine.game.directory import Game
from moonshine.game.reports import load_turn
from moonshine.game.site import adjudicated_turns, build_site
from moonshine.render import receipts
from moonshine.render.report import render_all


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> Game:
    root = tmp_path_factory.mktemp("site") / "game"
    result = CliRunner().invoke(main, ["simulate", "--turns", "4", "--seed", "j", "--out", str(root)])
    assert result.exit_code == 0, result.output
    return Game(root)


def _links(page: Path) -> list[str]:
    text = page.read_text(encoding="utf-8")
    return [unquote(html.unescape(m)) for m in re.findall(r'(?:href|src)="([^"]+)"', text)]


def test_every_link_resolves_on_the_disk(game: Game, tmp_path: Path) -> None:
    out = tmp_path / "site"
    written = build_site(game, out)
    pages = sorted(out.rglob("*.html"))
    assert out / "index.html" in pages and len(pages) == len(adjudicated_turns(game)) + 2  # turns, index, rules
    reached = {out / "index.html"}
    todo = [out / "index.html"]
    while todo:
        page = todo.pop()
        for link in _links(page):
            assert "://" not in link and not link.startswith("/"), (page, link)  # works from file:// and any host
            path, _, fragment = link.partition("#")
            target = (page.parent / path).resolve() if path else page
            assert target.is_file(), (page, link)
            if fragment:  # an anchor of the page: a heading's id (the rules book's contents)
                assert f' id="{fragment}"' in target.read_text(encoding="utf-8"), (page, link)
            if target.suffix == ".html" and target not in reached:
                reached.add(target)
                todo.append(target)
            reached.add(target)
    assert {p.resolve() for p in written} <= reached | {p.resolve() for p in out.rglob("*.svg")}
    assert {p.resolve() for p in pages} <= reached


def test_turn_pages_step_through_the_game(game: Game, tmp_path: Path) -> None:
    out = tmp_path / "site"
    build_site(game, out)
    turns = adjudicated_turns(game)
    first = (out / "turns" / turns[0] / "index.html").read_text(encoding="utf-8")
    middle = (out / "turns" / turns[1] / "index.html").read_text(encoding="utf-8")
    last = (out / "turns" / turns[-1] / "index.html").read_text(encoding="utf-8")
    assert "Previous" not in first and f'href="../{turns[1]}/index.html"' in first
    assert f'href="../{turns[0]}/index.html"' in middle and f'href="../{turns[2]}/index.html"' in middle
    assert f'href="../{turns[-2]}/index.html"' in last
    assert 'src="map.png"' in first  # the bulletin's own map, beside the page
    index = (out / "index.html").read_text(encoding="utf-8")
    assert 'src="vp.png"' in index and 'src="price.png"' in index and 'href="rules.html"' in index
    assert "Victory points" in (out / "vp.svg").read_text(encoding="utf-8")


def _private_lines(game: Game) -> set[str]:
    """Lines of the gangs' private reports that the bulletin of the same turn lacks."""
    private: set[str] = set()
    for turn in adjudicated_turns(game):
        res, nxt = load_turn(game, turn)
        texts = render_all(game.map, game.config, res, nxt, seed=game.receipt_seed(turn))
        bulletin = [ln.strip() for ln in texts["bulletin.txt"].splitlines()]
        public = set(bulletin) | {ln.split(": ", 1)[0] for ln in bulletin}  # "ORDER: result": orders are public
        for name, text in texts.items():
            if name.endswith(".txt") and name != "bulletin.txt":
                private |= {ln.strip() for ln in text.splitlines() if len(ln.strip()) >= 12} - public
        private |= {receipts.salt(game.secret(), turn, g) for g in game.map.gangs}
    return private


def test_nothing_private_reaches_the_site(game: Game, tmp_path: Path) -> None:
    out = tmp_path / "site"
    build_site(game, out)
    private = _private_lines(game)
    assert len(private) > 100  # the reports do hold private lines: ledgers, bids, receipts
    site_text = "\n".join(
        html.unescape(re.sub(r"<[^>]+>", "\n", p.read_text(encoding="utf-8")))
        for p in out.rglob("*.html")
        if p.name != "rules.html"  # the rules book, whose examples may read like anyone's orders
    )
    rules = (out / "rules.html").read_text(encoding="utf-8")
    # the rules page holds nothing of the game but its title (the window's and the heading's)
    assert rules.count(game.config.title) == 2
    site_lines = {ln.strip() for ln in site_text.splitlines()}
    leaked = sorted(private & site_lines)
    assert leaked == []
    for salt in (receipts.salt(game.secret(), t, g) for t in adjudicated_turns(game) for g in game.map.gangs):
        assert salt not in site_text


def test_french_site_and_the_command(game: Game, tmp_path: Path) -> None:
    result = CliRunner().invoke(
        main, ["site", "--game", str(game.root), "--out", str(tmp_path / "fr"), "--language", "fr"]
    )
    assert result.exit_code == 0, result.output
    assert "Wrote the site in" in result.output
    index = (tmp_path / "fr" / "index.html").read_text(encoding="utf-8")
    assert '<html lang="fr">' in index and "Les tours" in index and "Printemps 1924" in index
    # the rules book is in English: marked so, and introduced in French
    rules = (tmp_path / "fr" / "rules.html").read_text(encoding="utf-8")
    assert "<title>Les règles\u00a0: " in html.unescape(rules) and '<div class="rules" lang="en"' in rules
    assert "Il est en anglais" in html.unescape(rules)
    # rendered from its Markdown: headings with the anchors its contents link to, tables
    assert '<h2 id="4-orders"' in rules and 'href="#4-orders"' in rules and "<table" in rules
    assert "## " not in rules
    again = CliRunner().invoke(main, ["site", "--game", str(game.root), "--out", str(tmp_path / "fr")])
    assert again.exit_code == 0, again.output  # a site is rewritten in place
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "notes.txt").write_text("mine", encoding="utf-8")
    refused = CliRunner().invoke(main, ["site", "--game", str(game.root), "--out", str(tmp_path / "other")])
    assert refused.exit_code == 1 and "not a site written by 'moonshine site'" in refused.output
    assert (tmp_path / "other" / "notes.txt").read_text(encoding="utf-8") == "mine"


def test_a_game_with_no_turn_adjudicated(tmp_path: Path) -> None:
    made = CliRunner().invoke(main, ["new", str(tmp_path / "g"), "--seed", "s", "--no-git"])
    assert made.exit_code == 0, made.output
    result = CliRunner().invoke(main, ["site", "--game", str(tmp_path / "g")])
    assert result.exit_code == 1 and "no turn adjudicated yet" in result.output


def test_a_classic_game_has_its_site(tmp_path: Path) -> None:
    """A classic game's site: a page per adjudicated phase with its bulletin and map,
    the timeline, the chart of the supply centres; every link resolves on the disk;
    no power's report is copied."""
    root = tmp_path / "classic"
    runner = CliRunner()
    assert runner.invoke(main, ["new", str(root), "--variant", "classic", "--no-git"]).exit_code == 0
    orders = {
        "spring-1901": {"FRA": "A PAR - BUR\nF BRE - MAO\n", "GER": "A MUN - BUR\n"},
        "fall-1901": {"FRA": "F MAO - POR\nA MAR - SPA\n"},
    }
    for phase, files in orders.items():
        (root / "orders" / phase).mkdir(parents=True, exist_ok=True)
        for power, text in files.items():
            (root / "orders" / phase / f"{power}.txt").write_text(text, encoding="utf-8")
        result = runner.invoke(main, ["adjudicate", phase, "--game", str(root), "--no-commit"])
        assert result.exit_code == 0, result.output
    out = tmp_path / "site"
    result = runner.invoke(main, ["site", "--game", str(root), "--out", str(out)])
    assert result.exit_code == 0, result.output
    pages = sorted(out.rglob("*.html"))
    assert [p.relative_to(out).as_posix() for p in pages] == [
        "index.html",
        "turns/fall-1901/index.html",
        "turns/spring-1901/index.html",
    ]
    for page in pages:
        for link in _links(page):
            assert "://" not in link and not link.startswith("/"), (page, link)
            assert (page.parent / link).resolve().is_file(), (page, link)
    index = (out / "index.html").read_text(encoding="utf-8")
    assert "Spring 1901" in index and "Autumn 1901" in index and "Fall" not in index and 'src="centres.png"' in index
    assert "Supply centres" in (out / "centres.svg").read_text(encoding="utf-8")
    spring = (out / "turns" / "spring-1901" / "index.html").read_text(encoding="utf-8")
    assert "A PAR - BUR" in spring and "bounced" in spring  # the bulletin, with its reasons
    assert 'src="map.png"' in spring and 'href="../fall-1901/index.html"' in spring
    assert not list(out.rglob("FRA*")) and "report of" not in spring
    french = tmp_path / "site-fr"
    result = runner.invoke(main, ["site", "--game", str(root), "--out", str(french), "--language", "fr"])
    assert result.exit_code == 0, result.output
    assert "Printemps 1901" in (french / "index.html").read_text(encoding="utf-8")
    assert "Centres de ravitaillement" in (french / "centres.svg").read_text(encoding="utf-8")


def test_the_home_page_tells_the_game_in_lines_and_figures(game: Game, tmp_path: Path) -> None:
    """The home page says whether the game goes on, gives each turn its line (the
    bulletin's headline), says what the latest map shows, and carries each chart's
    figures as a table for readers who cannot see the picture."""
    out = tmp_path / "site"
    build_site(game, out)
    index = html.unescape((out / "index.html").read_text(encoding="utf-8"))
    turns = adjudicated_turns(game)
    from moonshine.game.reports import load_turn

    nxt = load_turn(game, turns[-1])[1]
    label = nxt.turn.replace("-", " ").capitalize()
    assert f"The game goes on: {label} is being played." in index
    for turn in turns:
        page = html.unescape((out / "turns" / turn / "index.html").read_text(encoding="utf-8"))
        headline = re.search(r'class="headline"[^>]*>([^<]+)<', page)
        assert headline is not None and headline.group(1).strip() in index, turn
        story = re.search(r'class="story"[^>]*>([^<]+)<', page)  # the map's alt text tells the news too
        assert story is not None and re.search(rf'alt="Map of [^"]+\. {re.escape(story.group(1).strip())}"', page)
    assert re.search(r'alt="Map of [A-Z][a-z]+ \d{4}: [^"]+"', index)
    # the VP table: a row per turn, a column per gang, the figures of the results
    last, _ = load_turn(game, turns[-1])
    table = index[index.index("The figures of this chart") :]
    assert all(game.map.gangs[g].name in table for g in game.map.gangs)
    row = re.search(rf"<th[^>]*>{re.escape(turns[-1].replace('-', ' ').capitalize())}</th>(.*?)</tr>", table, re.S)
    assert row is not None
    cells = re.findall(r"<td[^>]*>([^<]*)</td>", row.group(1))
    assert cells == [str(last.vp.get(g, 0)) for g in game.map.gangs]
