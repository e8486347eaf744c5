"""The reports: every page in both languages, golden files for the sample game,
privacy between gangs (R19), the French reasons, the map's arrows and the
``moonshine report`` command."""

from __future__ import annotations

import copy
import html
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import frtypo
import goldenkit
import pytest
import yaml
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from repokit import DATA, ROOT
from samplegame import copy_sample as copy_sample_files

from moonshine import data_folder
from moonshine.cli import main
from moonshine.errors import StateError
from moonshine.game.directory import Game, GameConfig
from moonshine.game.reports import load_turn, map_scene, orders_address, render_legend, render_map, write_reports
from moonshine.render import pages, phrasebook
from moonshine.render.bulletin import render_bulletin
from moonshine.render.figures import MAP_CID, Legend, closeup_file, legend_file
from moonshine.render.report import Extras, render_all, render_report
from moonshine.render.turnmap import arrows_from_results
from moonshine.render.turnpage import standings
from moonshine.text.catalogue import languages
from moonshine.variants.moonshine.map import GameMap, UnitKind
from moonshine.variants.moonshine.results import read_results
from moonshine.variants.moonshine.scene import Arrow
from moonshine.variants.moonshine.state import Arrested, GameState
from moonshine.variants.moonshine.state import loads as load_state_text

GOLDEN = DATA / "golden"
FIXTURE = GOLDEN / "fixture"
LANGS = ("en", "fr")
TEMPLATES_DIR = data_folder("templates")


# -- fixtures ---------------------------------------------------------------------------------


def copy_sample(dest: Path) -> Game:
    """The sample game at the repository root, copied (as the brief of a real game)."""
    copy_sample_files(dest)
    return Game(dest)


@pytest.fixture
def game(tmp_path: Path) -> Game:
    """The sample game with the fixture's results of spring-1924 and the autumn-1924 opening."""
    g = copy_sample(tmp_path / "game")
    shutil.copy(FIXTURE / "results.yaml", g.turn_dir("spring-1924") / "results.yaml")
    g.turn_dir("autumn-1924").mkdir(parents=True, exist_ok=True)
    shutil.copy(FIXTURE / "next-state.yaml", g.state_path("autumn-1924"))
    return g


@pytest.fixture(scope="module")
def sample_config() -> GameConfig:
    return Game(ROOT).config


@pytest.fixture(scope="module")
def data() -> dict[str, Any]:
    raw = yaml.safe_load((FIXTURE / "results.yaml").read_text(encoding="utf-8"))
    assert isinstance(raw, dict)
    return raw


@pytest.fixture
def nxt(chicago: GameMap) -> GameState:
    return load_state_text((FIXTURE / "next-state.yaml").read_text(encoding="utf-8"), chicago)


def fresh(data: dict[str, Any]) -> dict[str, Any]:
    return copy.deepcopy(data)


def flat(text: str) -> str:
    """The text with its line wrapping undone (every run of spaces and newlines as one space)."""
    return " ".join(text.split())


class _Balance(HTMLParser):
    """Checks that every non-void element is closed, in order."""

    VOID = frozenset({"meta", "br", "img", "hr", "link", "input"})

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[str] = []
        self.errors: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in self.VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"</{tag}> closes {self.stack[-1] if self.stack else 'nothing'}")
        else:
            self.stack.pop()


def assert_html(text: str, *, given: str = "") -> None:
    """Balanced tags, a doctype, and no template syntax left over (outside the
    ``given`` text, which a player or the data wrote)."""
    p = _Balance()
    p.feed(text)
    p.close()
    assert p.errors == [] and p.stack == [], (p.errors, p.stack)
    assert text.startswith("<!DOCTYPE html>")
    rest = text.replace(given, "") if given else text
    assert "{{" not in rest and "{%" not in rest


# -- every template, every gang, both languages -----------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_every_report_renders_for_every_gang(
    chicago: GameMap, sample_config: GameConfig, data: dict[str, Any], nxt: GameState, lang: str
) -> None:
    out = render_all(chicago, sample_config, data, nxt, language=lang)
    assert sorted(out) == sorted(
        [f"{g}.{e}" for g in chicago.gangs for e in ("txt", "html")] + ["bulletin.txt", "bulletin.html"]
    )
    for name, text in out.items():
        if name.endswith(".html"):
            assert_html(text)
            assert f'lang="{lang}"' in text
        else:
            assert "{{" not in text and "<span" not in text and "<td" not in text
        stem = name.split(".")[0]
        if stem != "bulletin":
            assert chicago.gangs[stem].name in html.unescape(text)
    heading = phrasebook.message(
        lang, "report.heading", gang="Valley Gang", turn=phrasebook.turn_label(lang, "spring-1924")
    )
    assert heading in out["valley.txt"]


def test_templates_use_only_known_messages() -> None:
    used: set[str] = set()
    for path in TEMPLATES_DIR.glob("*.j2"):
        used |= set(re.findall(r"""\b_\(\s*["']([a-z_.]+)["']""", path.read_text(encoding="utf-8")))
    assert {"report.heading", "bulletin.heading", "section.receipt", "seed.command"} <= used
    assert used <= set(phrasebook.MESSAGES), sorted(used - set(phrasebook.MESSAGES))


def test_a_players_hostile_order_line_is_escaped_in_the_html_report(
    chicago: GameMap, sample_config: GameConfig, data: dict[str, Any], nxt: GameState
) -> None:
    """What a player wrote is shown as text, never run as HTML: in the report's page
    the tags and the ampersand are escaped; the text report shows the line as written."""
    d = fresh(data)
    hostile = "<script>alert('x') & \"y\"</script>"
    d["gangs"]["valley"]["lines"][1]["text"] += " # " + hostile
    page = render_report(chicago, sample_config, d, nxt, "valley", html=True)
    assert "<script" not in page and "&lt;script&gt;alert(" in page and "&amp; " in page
    assert_html(page)
    assert html.unescape(hostile) in html.unescape(page)
    text = render_report(chicago, sample_config, d, nxt, "valley")
    assert hostile in text


def test_adjudicate_renders_the_reports_with_jinja2(tmp_path: Path) -> None:
    """The whole turn's reports and bulletin, text and HTML, rendered by jinja2 from
    the templates folder."""
    g = copy_sample(tmp_path / "game")
    # the console script ends a plain command's process at once, after what atexit runs
    code = (
        "import atexit, sys; atexit.register(lambda: print(sorted(sys.modules)));"
        " from moonshine.cli import main; main(prog_name='moonshine')"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, "adjudicate", "spring-1924", "--no-commit"],
        cwd=g.root,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert (g.turn_dir("spring-1924") / "reports" / "valley.html").is_file()
    assert (g.turn_dir("spring-1924") / "reports" / "bulletin.txt").is_file()
    modules = {m.split(".")[0] for m in eval(done.stdout.rstrip().splitlines()[-1])}
    assert {"moonshine", "jinja2"} <= modules


def test_a_designer_changes_the_pages_by_editing_the_templates_alone(
    chicago: GameMap,
    sample_config: GameConfig,
    data: dict[str, Any],
    nxt: GameState,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A word changed in a template, and a colour in the stylesheet, show in every
    page written from them, and nowhere else."""
    templates = tmp_path / "templates"
    shutil.copytree(TEMPLATES_DIR, templates)
    for name, old in (("report.txt.j2", "{{ game_title }}"), ("bulletin.html.j2", "<h1>")):
        page = templates / name
        page.write_text(page.read_text(encoding="utf-8").replace(old, old + "(redesigned)"), encoding="utf-8")
    css = templates / "style.css"
    css.write_text(css.read_text(encoding="utf-8").replace("#3b2a14", "#123456"), encoding="utf-8")
    monkeypatch.setattr(pages, "data_folder", lambda name: templates)
    monkeypatch.setattr(pages, "_ENV", [])
    assert "(redesigned)" in render_report(chicago, sample_config, data, nxt, "valley")
    report_page = render_report(chicago, sample_config, data, nxt, "valley", html=True)
    assert "(redesigned)" not in report_page and "#123456" in report_page and "#3b2a14" not in report_page
    assert "(redesigned)" in render_bulletin(chicago, sample_config, data, nxt, html=True)
    assert "(redesigned)" not in render_bulletin(chicago, sample_config, data, nxt)


def _forms(entry: str | tuple[str, str]) -> tuple[str, ...]:
    return entry if isinstance(entry, tuple) else (entry,)


def test_catalogue_is_complete_in_every_language() -> None:
    fields: dict[str, object] = {
        name: "x" for entry in phrasebook.MESSAGES.values() for t in _forms(entry) for name in re.findall(r"{(\w+)}", t)
    }
    fields["turn_of"] = "x"
    for key in phrasebook.MESSAGES:
        for lang in languages():
            for n in (0, 1, 2):
                written = phrasebook.message(lang, key, **{**fields, "n": n})  # every field is known
                assert written.strip(), (key, lang)


def test_french_reports_carry_no_english_sentence(
    chicago: GameMap, sample_config: GameConfig, data: dict[str, Any], nxt: GameState
) -> None:
    out = render_all(chicago, sample_config, data, nxt, language="fr")
    english = [
        t
        for key, t in phrasebook.MESSAGES.items()
        if isinstance(t, str) and "{" not in t and t != phrasebook.message("fr", key) and len(t) > 8
    ]
    assert len(english) > 40
    for name, text in out.items():
        for sentence in english:
            assert sentence not in text, (name, sentence)
    assert "Price this turn" not in out["bulletin.txt"]
    assert frtypo.fr("Prix de ce tour : 3 $ par caisse.") in out["bulletin.txt"]


# -- golden files -----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def adjudicated(tmp_path_factory: pytest.TempPathFactory) -> Game:
    """A copy of the sample game with spring-1924 adjudicated for real."""
    from moonshine.game.jobs import adjudicate_game

    g = copy_sample(tmp_path_factory.mktemp("real") / "game")
    adjudicate_game(g, "spring-1924", commit=False)
    return g


def _legend(game: Game, lang: str) -> Legend:
    """The map's legend in ``lang`` as the game master's job shows it under the map."""
    res, nxt = load_turn(game, "spring-1924")
    picture = render_legend(map_scene(game.map, res, nxt, lang), lang)
    return Legend(legend_file(lang, lang), picture.width, picture.height)


def _charts(lang: str) -> list[tuple[str, str]]:
    """The bulletin's charts as the game master's job writes them beside it."""
    from moonshine.game.charts import words_of

    words = words_of(lang)
    return [("vp.png", words["vp"]), ("price.png", words["price"])]


@pytest.mark.parametrize("lang", LANGS)
def test_golden_sample_reports(adjudicated: Game, lang: str) -> None:
    """The sample game's spring-1924 reports, from a real adjudication, as stored."""
    res, nxt = load_turn(adjudicated, "spring-1924")
    seed = adjudicated.receipt_seed("spring-1924")
    assert seed is not None  # the receipts are in the golden files
    before = adjudicated.load_state("spring-1924")
    charts = _charts(lang)
    legend = _legend(adjudicated, lang)
    files = render_all(
        adjudicated.map,
        adjudicated.config,
        res,
        nxt,
        language=lang,
        seed=seed,
        before=before,
        charts=charts,
        extras={g: Extras(legend=legend) for g in adjudicated.map.gangs},
        legend=legend,
    )
    for name, text in files.items():
        if name.endswith(".html"):
            assert_html(text)
    goldenkit.check_directory(GOLDEN / "sample" / lang, files)


def test_adjudicate_writes_these_reports(adjudicated: Game) -> None:
    """The game master's main job leaves the same reports in turns/TURN/reports/: drawn
    from the results it has just written, without reading them back, they are the
    files' rendering as read from the game directory, byte for byte, pictures too."""
    base = adjudicated.turn_dir("spring-1924") / "reports"
    res, nxt = load_turn(adjudicated, "spring-1924")
    before = adjudicated.load_state("spring-1924")
    files = render_all(
        adjudicated.map,
        adjudicated.config,
        res,
        nxt,
        seed=adjudicated.receipt_seed("spring-1924"),
        before=before,
        charts=_charts(adjudicated.config.language),
        extras={
            g: Extras(
                send_to=orders_address(adjudicated.config),
                closeup=closeup_file(g),
                legend=_legend(adjudicated, adjudicated.config.language),
            )
            for g in adjudicated.map.gangs
        },
        legend=_legend(adjudicated, adjudicated.config.language),
    )
    for name, text in files.items():
        assert (base / name).read_text(encoding="utf-8") == text, name
    svg, png = render_map(adjudicated.map, res, nxt, adjudicated.config.language)
    assert (base / "map.svg").read_text(encoding="utf-8") == svg
    assert (base / "map.png").read_bytes() == png
    assert png[:8] == b"\x89PNG\r\n\x1a\n"


def test_golden_sample_arrows(adjudicated: Game) -> None:
    """The arrows the sample game's spring-1924 map draws, as stored."""
    res, _ = load_turn(adjudicated, "spring-1924")
    text = "".join(f"{a}\n" for a in arrows_from_results(res, adjudicated.map))
    goldenkit.check(GOLDEN / "sample" / "arrows.txt", text)


# -- privacy (R19) ----------------------------------------------------------------------------


def canaries(data: dict[str, Any], nxt: GameState, chicago: GameMap, gang: str) -> list[str]:
    """Put a unique marker in every private field of one gang; return the markers as
    they must print (in English)."""
    g = data["gangs"][gang]
    tag = gang.upper()
    g["orders_file"] = f"orders/spring-1924/FILE-{tag}.txt"
    g["lines"] = [
        {"line": 1, "text": f"sell 4 # LINE-{tag}", "status": "accepted", "understood": "sell 4", "message": ""},
        {"line": 2, "text": "bribe LOO 3", "status": "rejected", "understood": "", "message": f"MSG-{tag}"},
    ]
    g["bids"] = [{"station": "LOO", "paid": 987654.5, "won": False, "reason": f"BID-{tag}"}]
    g["adjustments"] = [
        {"kind": "bid cut", "order": "bribe LOO 987654.5", "reason": f"CUT-{tag}"},
        {"kind": "recruit cancelled", "order": "recruit L ABC", "reason": f"CANCEL-{tag}"},
    ]
    crates = g["ledger"]["crates"]
    for i, k in enumerate(["before_raid", "seized", "at_start", "captured", "captured_from", "produced", "looted"]):
        crates[k] = 7700001 + i
    crates.update({"held": 7700011, "capacity": 7700012, "sold": 7700013, "lost": 7700014})
    crates["stored"] = {"ALB": 7700015}
    g["ledger"]["dollars"] = {
        "start": 911111.5,
        "upkeep": 922222.5,
        "recruits": 933333.5,
        "bribes": 944444.5,
        "revenue": 955555.5,
        "end": 966666.5,
    }
    g["ledger"]["notes"] = [f"NOTE-{tag}"]
    nxt.cash[gang] = 97777750  # cents
    for d in nxt.controlled_by(gang):
        if d in nxt.stocks:
            nxt.stocks[d] = 7700016
    markers = [f"FILE-{tag}", f"LINE-{tag}", f"MSG-{tag}", f"BID-{tag}", f"CUT-{tag}", f"CANCEL-{tag}", f"NOTE-{tag}"]
    markers += [str(7700001 + i) for i in range(16) if i not in (7, 8, 9)]
    markers += ["$987654.50", "$911111.50", "$922222.50", "$933333.50", "$944444.50", "$955555.50", "$966666.50"]
    markers += ["$977777.50"]
    if not any(d in nxt.stocks for d in nxt.controlled_by(gang)):
        markers.remove("7700016")  # no warehouse: no stock to show
    return markers


@pytest.mark.parametrize("gang", ["outfit", "valley", "genna", "northside", "unione", "southside", "westside", "ragen"])
def test_a_gangs_private_figures_appear_in_its_report_only(
    chicago: GameMap, sample_config: GameConfig, data: dict[str, Any], nxt: GameState, gang: str
) -> None:
    d = fresh(data)
    markers = canaries(d, nxt, chicago, gang)
    out = render_all(chicago, sample_config, d, nxt, language="en")
    own = out[f"{gang}.txt"] + out[f"{gang}.html"]
    for m in markers:
        assert m in own, f"{m} missing from {gang}'s own report"
    for name, text in out.items():
        if name.startswith(f"{gang}."):
            continue
        leaked = [m for m in markers if m in text]
        assert leaked == [], f"{gang}'s private {leaked} in {name}"


def test_the_bulletin_shows_recruits_but_not_their_reasons(
    chicago: GameMap, sample_config: GameConfig, data: dict[str, Any], nxt: GameState
) -> None:
    text = render_bulletin(chicago, sample_config, data, nxt)
    assert "recruited: H ASH" in text
    assert "holds this turn" not in text  # the reason of an adjustment stays private
    assert "sell" not in text and "bribe" not in text and "store" not in text


# -- contents ---------------------------------------------------------------------------------


def test_bulletin_lists_orders_the_judges_way(
    chicago: GameMap, sample_config: GameConfig, data: dict[str, Any], nxt: GameState
) -> None:
    text = render_bulletin(chicago, sample_config, data, nxt)
    assert "Chicago Outfit\n  L NOT / L UPT - ROG: support given (+1)\n  L UPT - ROG: moved to ROG\n" in text
    assert "  H LIN - ALB: bounced with H IRV (3 vs 3)\n" in text
    assert "  L JEF - NWP - EDI: moved to EDI\n" in text
    # this turn's raid and the next, the price
    assert "Price this turn: $3 a crate." in text
    assert (
        "This turn, the police (Shakespeare Avenue station, LOG) raided NOC (North Center), "
        "controlled by Chicago Outfit: 5 crates seized; H NOC (Chicago Outfit) arrested."
    ) in flat(text)
    assert "At the start of the turn, the police (Archer Avenue station, GAR) raided SLA (South Lawndale), " in flat(
        text
    )
    assert "controlled by Westside O'Donnells: the speakeasy returns to neutral." in flat(text)
    # control and VP, best first; corruption is public
    table = text[text.index("CONTROL AND VICTORY POINTS") :]
    assert table.index("Genna Crime Family") < table.index("Valley Gang")
    assert re.search(r"Valley Gang\s+7\s+0\s+0\s+10\n", table)
    assert "LOG (Shakespeare Avenue station): North Side Gang" in text
    assert "City of Chicago" in text


def test_first_bulletin_publishes_the_seed_hash_and_how_to_redo_the_draws(
    chicago: GameMap, sample_config: GameConfig, data: dict[str, Any], nxt: GameState
) -> None:
    first = render_bulletin(chicago, sample_config, data, nxt)
    assert sample_config.seed_sha256 in first
    assert "HMAC-SHA256" in first and "% 93" in first and "ROG 3, UPT 3" in first
    later = fresh(data)
    later["turn"] = "autumn-1924"
    later["next"]["turn"] = "spring-1925"
    text = render_bulletin(chicago, sample_config, later, nxt)
    assert sample_config.seed_sha256 not in text
    assert "Draw (HMAC-SHA256, R21)" in text  # each raid's draw is still shown


def test_private_report_shows_orders_ledger_position_and_the_coming_raid(
    chicago: GameMap, sample_config: GameConfig, data: dict[str, Any], nxt: GameState
) -> None:
    text = render_report(chicago, sample_config, data, nxt, "outfit")
    assert "For Johnny Torrio." in text
    assert "     9  sell 6\n" in text and "    10  bribe LAK 4\n" in text
    assert "  H LIN - ALB          failed     bounced with H IRV (3 vs 3)\n" in text
    assert "LAK (Town Hall station), $4: won (highest bid: the station is yours)" in text
    assert re.search(r"Taken by this turn's raid \(R22\)\s+-\s+5\n", text)
    assert re.search(r"Cash at the end of the turn\s+=\s+\$22\n", text)
    assert "The accounts balance." in text
    assert re.search(r"Total\s+14\n", text)
    assert (
        "Released at the opening of Autumn 1924:\n    - H released; LOG was occupied, so it went to NOC (R22)" in text
    )
    assert "Upkeep due next turn: $12 for 6 units" in text
    assert "It does not concern you." in text
    westside = render_report(chicago, sample_config, data, nxt, "westside")
    assert "- You lose the speakeasy in SLA (South Lawndale): it returns to neutral." in flat(westside)


def test_vp_breakdown_adds_up_to_the_results(chicago: GameMap, data: dict[str, Any], nxt: GameState) -> None:
    rows = standings(chicago, read_results(data), nxt)
    assert [s.vp for s in rows] == sorted((s.vp for s in rows), reverse=True)
    for s in rows:
        assert s.computed_vp == s.vp == data["vp"][s.key]


def test_lines_written_differently_or_rejected_say_how_they_were_read(
    chicago: GameMap, sample_config: GameConfig, data: dict[str, Any], nxt: GameState
) -> None:
    d = fresh(data)
    d["gangs"]["valley"]["lines"].append(
        {
            "line": 12,
            "text": "H ZZZ - LOO",
            "status": "rejected",
            "understood": "",
            "message": "no district ZZZ on this map",
            "reason": {"text": "no district {d} on this map", "params": {"d": "ZZZ"}},
        }
    )
    en = render_report(chicago, sample_config, d, nxt, "valley")
    assert "    12  H ZZZ - LOO\n        -> rejected: no district ZZZ on this map\n" in en
    fr = render_report(chicago, sample_config, d, nxt, "valley", language="fr")
    assert frtypo.fr("        -> rejeté : aucun quartier ZZZ sur cette carte\n") in fr
    del d["gangs"]["valley"]["lines"][-1]["reason"]  # a file of an earlier version: its English
    assert frtypo.fr("        -> rejeté : no district ZZZ on this map\n") in render_report(
        chicago, sample_config, d, nxt, "valley", language="fr"
    )
    unione = render_report(chicago, sample_config, d, nxt, "unione", language="fr")
    # French reads the orders in French notation: a line written so needs no "understood as"
    assert "     3  H FUL soutient H CHI\n     4  H LIT - EGP\n" in unione
    assert re.search(r"\n  H FUL soutient H CHI +réussi", unione) and "H FUL / H CHI" not in unione, unione
    unione_en = render_report(chicago, sample_config, d, nxt, "unione")
    assert "     3  H FUL soutient H CHI\n        -> understood as H FUL / H CHI\n" in unione_en
    page = render_report(chicago, sample_config, d, nxt, "valley", html=True)
    assert "H ZZZ - LOO" in page and "rejected</span>: no district ZZZ on this map" in page
    d["gangs"]["valley"]["lines"][-1] = {
        "line": 12,
        "text": "homme de main LOO tenir",
        "status": "accepted",
        "understood": "H LOO hold",
    }
    fr = render_report(chicago, sample_config, d, nxt, "valley", language="fr")
    assert "    12  homme de main LOO tenir\n        -> compris comme H LOO tient\n" in fr


def test_no_orders_dislodgements_and_arrests(
    chicago: GameMap, sample_config: GameConfig, data: dict[str, Any], nxt: GameState
) -> None:
    d = fresh(data)
    valley = d["gangs"]["valley"]
    valley["orders_file"] = None
    valley["lines"] = []
    valley["dislodged"] = [
        {
            "unit": "H NSS",
            "by": "H CHI - NSS",
            "retreated_to": "LOO",
            "disbanded": False,
            "reason": "retreated to LOO",
            "outcome": {"kind": "retreated", "to": "LOO"},
        },
        {"unit": "L BRO", "by": "H CHI - NSS", "retreated_to": None, "disbanded": True, "reason": ""},
    ]
    nxt.arrested.append(Arrested("LOO", UnitKind.H, "valley", "NSS"))
    report = render_report(chicago, sample_config, d, nxt, "valley")
    assert "No orders received: your units held" in report
    assert "  - H NSS: dislodged by H CHI - NSS; retreated to LOO\n" in report
    assert "  - L BRO: dislodged by H CHI - NSS; disbanded\n" in report
    assert (
        "- H (henchman), arrested in NSS, held by the police (Harrison Street station, LOO): back at the start "
        "of Spring 1925 in LOO, or in the nearest district you control that can take it (R22)"
    ) in flat(report)
    assert "Upkeep due next turn: $16 for 8 units" in report
    bulletin = render_bulletin(chicago, sample_config, d, nxt)
    assert "Valley Gang (no orders received, R12)" in bulletin
    assert "  - Valley Gang: H NSS: dislodged by H CHI - NSS; retreated to LOO\n" in bulletin
    fr = render_report(chicago, sample_config, d, nxt, "valley", language="fr")
    assert frtypo.fr("délogée par H CHI - NSS ; a retraité vers LOO") in fr
    arrows = arrows_from_results(d)
    assert Arrow("retreat", "valley", "NSS", "LOO", True) in arrows


def test_the_winner_ends_the_bulletin(
    chicago: GameMap, sample_config: GameConfig, data: dict[str, Any], nxt: GameState
) -> None:
    d = fresh(data)
    d["winners"] = ["genna", "northside"]
    d["next"]["raid"] = None
    text = render_bulletin(chicago, sample_config, d, nxt)
    assert "Genna Crime Family and North Side Gang win together with 17 VP." in text
    assert "AUTUMN 1924: PRICE AND RAID" not in text
    fr = render_report(chicago, sample_config, d, nxt, "genna", language="fr")
    assert "Victoire partagée avec 17 PV : la Genna Crime Family et le North Side Gang." in " ".join(
        frtypo.plain(fr).split()
    )


def test_html_is_escaped_and_points_at_the_map(
    chicago: GameMap, sample_config: GameConfig, data: dict[str, Any], nxt: GameState
) -> None:
    cfg = copy.deepcopy(sample_config)
    cfg.players["outfit"].name = "<b>Al</b> & Co"
    page = render_report(chicago, cfg, data, nxt, "outfit", html=True, for_email=True)
    assert "&lt;b&gt;Al&lt;/b&gt; &amp; Co" in page and "<b>Al</b>" not in page
    assert f'src="{MAP_CID}"' in page
    plain = render_bulletin(chicago, cfg, data, nxt, html=True)
    assert 'src="map.png"' in plain
    assert "background-color:#d55e00" in plain.replace(": ", ":")  # the Outfit's swatch
    assert re.search(r'<a href="map.png"[^>]*><img [^>]*src="map.png"', plain)  # linked to the full-size picture


@pytest.mark.parametrize("html_page", ["report", "bulletin"])
def test_html_keeps_its_look_without_the_style_block(
    chicago: GameMap, sample_config: GameConfig, data: dict[str, Any], nxt: GameState, html_page: str
) -> None:
    """Mail programs that drop <style> still show the look: the stylesheet's rules are
    in each element's style attribute; only the phone's and dark mode's rules (which
    cannot be inlined) stay in the <style> block."""
    if html_page == "report":
        page = render_report(chicago, sample_config, data, nxt, "outfit", html=True)
    else:
        page = render_bulletin(chicago, sample_config, data, nxt, html=True)
    blocks = re.findall(r"<style>(.*?)</style>", page, re.S)
    assert len(blocks) == 1
    outside = re.sub(r"@media[^{]*\{(?:[^{}]*\{[^{}]*\})*[^{}]*\}", "", blocks[0])
    assert outside.strip() == "", outside  # nothing but at-rules left
    assert "prefers-color-scheme: dark" in blocks[0] and "max-width: 480px" in blocks[0]
    body = page.split("<body", 1)[1]
    for tag in ("h1", "h2", "td", "th", "table", "img"):
        for found in re.finditer(rf"<{tag}\b[^>]*>", body):
            assert "style=" in found.group(0), found.group(0)
    assert re.search(r'<td class="card"[^>]*style="[^"]*font-family: Georgia', body)
    assert re.search(r'<img [^>]*class="map"[^>]*style="[^"]*max-width: 672px', body)


# -- French -----------------------------------------------------------------------------------


def test_reasons_are_values_explained_in_french() -> None:
    """The turn's reasons (adjustments, bids, the ledger's notes, the price) are
    messages of the catalogue; money is written the French way."""
    from moonshine.text.catalogue import Amount, message_data, message_from_data, sentence

    cut = sentence("cut to {amount}: not enough cash (R17)", amount=Amount.of(250))
    assert cut.text("en") == "cut to $2.50: not enough cash (R17)"
    assert cut.text("fr") == frtypo.fr("réduite à 2,50 $ : pas assez d'argent (R17)")
    back = message_from_data(message_data(cut))
    assert back == cut and back.text("fr") == cut.text("fr")
    price = sentence(
        "{a} / {b} x {price} = {exact}, rounded to {new} (R20)",
        a=86,
        b=90,
        price=Amount.of(300),
        exact=Amount("$2.867"),
        new=Amount.of(300),
    )
    assert price.text("en") == "86 / 90 x $3 = $2.867, rounded to $3 (R20)"
    assert price.text("fr") == frtypo.fr("86 / 90 × 3 $ = 2,867 $, arrondi à 3 $ (R20)")
    assert sentence("a brand new reason (R6)").text("fr") == "a brand new reason (R6)"


def test_words_money_and_turns() -> None:
    assert phrasebook.money_text("en", 1250) == "$12.50"
    assert phrasebook.money_text("fr", 1250) == frtypo.fr("12,50 $")
    assert phrasebook.money_text("fr", -300) == frtypo.fr("-3 $")
    assert phrasebook.turn_label("fr", "autumn-1924", capital=True) == "Automne 1924"
    assert phrasebook.turn_of("fr", "autumn-1924") == "de l'automne 1924"
    assert phrasebook.turn_of("fr", "spring-1925") == "du printemps 1925"
    assert phrasebook.word("fr", "failed") == "échoué"
    assert phrasebook.word("fr", "something else") == "something else"
    with pytest.raises(ValueError, match="unknown language 'de'"):
        phrasebook.message("de", "credits")
    assert phrasebook.message("en", "position.crates", n=1) == "1 crate"
    assert phrasebook.message("en", "position.crates", n=0) == "0 crates"
    assert phrasebook.message("fr", "position.crates", n=0) == "0 caisse"
    assert phrasebook.message("fr", "raid.seized", n=2) == "2 caisses saisies"


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(reason=st.text(st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp")), min_size=1, max_size=40))
def test_any_reason_is_printed_as_written_and_escaped_in_html(
    chicago: GameMap, sample_config: GameConfig, data: dict[str, Any], nxt: GameState, reason: str
) -> None:
    d = fresh(data)
    d["gangs"]["genna"]["units"][0]["reason"] = reason
    order = d["gangs"]["genna"]["units"][0]["order"]
    text = render_bulletin(chicago, sample_config, d, nxt)
    assert f"  {order}: {reason}\n" in text
    page = render_report(chicago, sample_config, d, nxt, "genna", html=True)
    # Escaped as an HTML serialiser does in text: &, <, > and the no-break space.
    escaped = html.escape(reason, quote=False).replace("\xa0", "&nbsp;")
    assert escaped in page
    assert_html(page, given=escaped)  # a reason may itself read "{%"


# -- arrows -----------------------------------------------------------------------------------


def test_arrows_from_the_fixture(chicago: GameMap, data: dict[str, Any]) -> None:
    arrows = arrows_from_results(data, chicago)
    orders = [u for g in data["gangs"].values() for u in g["units"] if not u["order"].endswith(" hold")]
    assert len(arrows) == len(orders)
    assert Arrow("move", "outfit", "UPT", "ROG", True) in arrows
    assert Arrow("move", "outfit", "LIN", "ALB", False) in arrows
    assert Arrow("move", "northside", "JEF", "EDI", True, path=("NWP",)) in arrows
    assert Arrow("support", "outfit", "NOR", "LIN", True, target_end="ALB") in arrows
    assert Arrow("support", "valley", "KEN", "HYD", True, target_kind="H") in arrows  # rings the H in HYD


def test_arrows_for_assaults_transports_and_supports_of_assaults(chicago: GameMap, data: dict[str, Any]) -> None:
    d = fresh(data)
    d["gangs"]["valley"]["units"] = [
        {"unit": "H LOO", "order": "H LOO x LOO", "result": "succeeded", "reason": ""},
        {"unit": "H NSS", "order": "H NSS / H LOO x LOO", "result": "succeeded", "reason": ""},
        {"unit": "H FIV", "order": "H FIV - CHI", "result": "succeeded", "reason": ""},
        {"unit": "L BRO", "order": "L BRO -> H FIV - CHI", "result": "succeeded", "reason": ""},
        {"unit": "H GRA", "order": "H GRA - NSS via BRO, ABC", "result": "failed", "reason": ""},
    ]
    d["gangs"]["unione"]["units"] = [
        {"unit": "L GOL", "order": "L GOL -> H LIT - NLA", "result": "failed", "reason": ""},
    ]
    arrows = arrows_from_results(d, chicago)
    assert Arrow("assault", "valley", "LOO", "LOO", True) in arrows
    assert Arrow("support", "valley", "NSS", "LOO", True, target_end="LOO") in arrows
    assert Arrow("transport", "valley", "FIV", "CHI", True, path=("BRO",)) in arrows
    assert Arrow("move", "valley", "GRA", "NSS", False, path=("BRO", "ABC")) in arrows
    assert Arrow("transport", "unione", "LIT", "NLA", False, path=("GOL",)) in arrows


def test_a_chain_of_carriers_is_drawn_in_route_order(chicago: GameMap, data: dict[str, Any]) -> None:
    d = fresh(data)
    d["gangs"]["valley"]["units"] = [
        {"unit": "L FIV", "order": "L FIV -> H NSS - GRA", "result": "succeeded", "reason": ""},
        {"unit": "L BRO", "order": "L BRO -> H NSS - GRA", "result": "succeeded", "reason": ""},
        {"unit": "H NSS", "order": "H NSS - GRA", "result": "succeeded", "reason": ""},
    ]
    d["gangs"] = {"valley": d["gangs"]["valley"]}
    arrows = arrows_from_results(d, chicago)
    assert Arrow("transport", "valley", "NSS", "GRA", True, path=("BRO", "FIV")) in arrows


def test_malformed_results_name_the_key(data: dict[str, Any]) -> None:
    d = fresh(data)
    d["gangs"]["valley"]["units"][1]["result"] = "maybe"
    with pytest.raises(StateError, match=r"gangs\.valley\.units\[1\]\.result: expected succeeded or failed"):
        read_results(d, source="results.yaml")
    d = fresh(data)
    d["gangs"]["genna"]["ledger"]["dollars"]["end"] = 1.25
    with pytest.raises(StateError, match=r"gangs\.genna\.ledger\.dollars\.end: money moves in steps of \$0\.50"):
        read_results(d)
    d = fresh(data)
    d["gangs"]["valley"]["units"][1]["order"] = "H NSS goes to CHI"
    with pytest.raises(StateError, match="not an order in canonical form: 'H NSS goes to CHI'"):
        arrows_from_results(d)


# -- the command ------------------------------------------------------------------------------


@pytest.fixture
def written(game: Game) -> Iterator[tuple[Game, list[Path]]]:
    yield game, write_reports(game, "spring-1924")


def test_write_reports_writes_every_file(written: tuple[Game, list[Path]], sample_config: GameConfig) -> None:
    game, paths = written
    base = game.turn_dir("spring-1924") / "reports"
    names = sorted(p.name for p in base.iterdir())
    expected = sorted(
        [f"{g}.{e}" for g in game.map.gangs for e in ("txt", "html")]
        + [f"closeup-{g}.png" for g in game.map.gangs]  # every gang has units; its zoom is the map's SVG
        + ["bulletin.txt", "bulletin.html", "map.svg", "map.png", "legend.png", "vp.png", "price.png"]
    )
    assert names == expected == sorted(p.name for p in paths)
    assert (base / "map.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    svg = (base / "map.svg").read_text(encoding="utf-8")
    assert "Chicago, Spring 1924" in svg
    assert 'data-from="UPT"' in svg and 'data-to="ROG"' in svg  # this turn's orders are drawn
    bulletin = (base / "bulletin.html").read_text(encoding="utf-8")
    for chart in ("vp.png", "price.png"):  # the charts, beside the bulletin that shows them
        assert (base / chart).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and f'src="{chart}"' in bulletin
    saved = (base / "outfit.html").read_text(encoding="utf-8")
    assert 'src="map.png"' in saved and "cid:" not in saved  # opened from the disk, it shows the map beside it


def test_report_command_writes_and_prints(game: Game) -> None:
    runner = CliRunner()
    r = runner.invoke(main, ["report", "spring-1924", "--game", str(game.root), "--gang", "valley"])
    assert r.exit_code == 0, r.output
    base = game.turn_dir("spring-1924") / "reports"
    assert sorted(p.name for p in base.iterdir()) == [
        "closeup-valley.png",
        "legend.png",
        "map.png",
        "map.svg",
        "valley.html",
        "valley.txt",
    ]
    assert "Wrote 6 files" in r.output

    r = runner.invoke(main, ["report", "spring-1924", "--game", str(game.root), "--print"])
    assert r.exit_code == 0, r.output
    assert r.output.startswith("Sample game: Chicago, 1924\nPublic bulletin, Spring 1924\n")
    raw = yaml.safe_load((FIXTURE / "results.yaml").read_text(encoding="utf-8"))
    before = game.load_state("spring-1924")
    assert r.output == render_bulletin(game.map, game.config, raw, game.load_state("autumn-1924"), before=before)

    args = ["report", "spring-1924", "--game", str(game.root), "--print", "--gang", "valley", "--language", "fr"]
    r = runner.invoke(main, args)
    assert r.exit_code == 0, r.output
    assert frtypo.fr("Valley Gang : rapport privé, printemps 1924") in r.output
    raw = yaml.safe_load((FIXTURE / "results.yaml").read_text(encoding="utf-8"))
    seed = game.receipt_seed("spring-1924")
    fr = render_report(game.map, game.config, raw, game.load_state("autumn-1924"), "valley", language="fr", seed=seed)
    assert r.output == fr != (base / "valley.txt").read_text(encoding="utf-8")
    assert "VOTRE REÇU" in fr and seed is not None


def test_report_command_errors(game: Game, tmp_path: Path) -> None:
    runner = CliRunner()
    r = runner.invoke(main, ["report", "autumn-1924", "--game", str(game.root)])
    assert r.exit_code == 1
    assert "results.yaml: no results; adjudicate the turn first ('moonshine adjudicate autumn-1924')" in r.output
    r = runner.invoke(main, ["report", "spring-1924", "--game", str(game.root), "--gang", "capone"])
    assert r.exit_code == 1
    assert "Error: unknown gang 'capone' (gangs: outfit, valley" in r.output
    r = runner.invoke(main, ["report", "spring-1924", "--game", str(game.root), "--language", "de"])
    assert r.exit_code == 2
    r = runner.invoke(main, ["report", "summer-1924", "--game", str(game.root)])
    assert r.exit_code == 1 and "not a turn name: 'summer-1924'" in r.output
    (game.turn_dir("spring-1924") / "results.yaml").write_text("turn: spring-1924\nprice: 3\ngangs: []\n")
    r = runner.invoke(main, ["report", "spring-1924", "--game", str(game.root)])
    assert r.exit_code == 1 and "results.yaml:3: gangs: expected a mapping, found list" in r.output
    assert not (game.turn_dir("spring-1924") / "reports").exists()


def test_report_language_follows_the_game(game: Game) -> None:
    text = game.config_path.read_text(encoding="utf-8").replace("language: en", "language: fr")
    game.config_path.write_text(text, encoding="utf-8")
    r = CliRunner().invoke(main, ["report", "spring-1924", "--game", str(game.root), "--print"])
    assert r.exit_code == 0, r.output
    assert "Bulletin public, printemps 1924" in r.output


def test_reports_read_the_outcomes_not_the_sentences(adjudicated: Game, tmp_path: Path) -> None:
    """The results file stores each order's outcome as a value; the reports explain the
    value in the reader's language and never read the English sentence beside it."""
    path = adjudicated.turn_dir("spring-1924") / "results.yaml"
    raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    units = [u for g in raw["gangs"].values() for u in g["units"]]
    assert units and all("kind" in u["outcome"] for u in units)
    assert {"moved", "held"} <= {u["outcome"]["kind"] for u in units}
    res, nxt = load_turn(adjudicated, "spring-1924")
    for g in raw["gangs"].values():
        for u in g["units"]:
            u["reason"] = "no one reads this"
    garbled = read_results(raw, source=str(path))
    for lang in LANGS:
        gang = next(iter(res.gangs))
        kwargs = {"language": lang, "for_email": True}
        assert render_report(adjudicated.map, adjudicated.config, garbled, nxt, gang, **kwargs) == render_report(
            adjudicated.map, adjudicated.config, res, nxt, gang, **kwargs
        )


def test_the_first_screen_is_what_happened_and_the_orders_echo_comes_last(adjudicated: Game) -> None:
    """A player opens the report for what happened to their units: the results come
    first, the map after them, and the echo of their orders file last, collapsed in the
    HTML where the mail program allows."""
    base = adjudicated.turn_dir("spring-1924") / "reports"
    html = (base / "valley.html").read_text(encoding="utf-8")
    results = html.index("Your units' orders and results")
    assert results < html.index('alt="') < html.index("<details")  # results, the map, then the echo
    echo = html[html.index("<details") : html.index("</details>")]
    assert re.search(r"<summary[^>]*>Your orders</summary>", echo) and "Orders file:" in echo
    assert "Orders file:" not in html[: html.index("<details")]
    text = (base / "valley.txt").read_text(encoding="utf-8")
    assert text.index("YOUR UNITS' ORDERS AND RESULTS") < text.index("CRATES") < text.index("YOUR ORDERS\n")
