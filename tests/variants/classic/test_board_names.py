"""A board's names in the reader's language: ``names.<language>.csv`` beside the
board (kind, code, name), checked by the loader, read wherever a name is written
in full; a language without a file reads the English names."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import frtypo
import goldenkit
import pytest
from click.testing import CliRunner
from repokit import DATA

from moonshine.cli import main
from moonshine.errors import MapError
from moonshine.game.families.classic import results_data
from moonshine.picture.svg import scene_svg
from moonshine.render.classic.report import event_text, render_text
from moonshine.variants.classic.board import MAPS_DIR, board, load_classic_map
from moonshine.variants.classic.orders import parse_order
from moonshine.variants.classic.phases import Event, adjudicate_phase
from moonshine.variants.classic.scene import build_scene
from moonshine.variants.classic.state import from_data, initial_state

# The usual names of the French edition of the game, for a few of them.
FRENCH = {
    ("power", "ENG"): "Angleterre",
    ("power", "GER"): "Allemagne",
    ("power", "AUS"): "Autriche",
    ("power", "ITA"): "Italie",
    ("power", "RUS"): "Russie",
    ("power", "TUR"): "Turquie",
    ("power", "FRA"): "France",
    ("province", "ENG"): "Manche",
    ("province", "NTH"): "Mer du Nord",
    ("province", "NAO"): "Atlantique Nord",
    ("province", "MAO"): "Atlantique moyen",
    ("province", "BUR"): "Bourgogne",
    ("province", "MAR"): "Marseille",
    ("province", "LON"): "Londres",
    ("province", "VEN"): "Venise",
    ("province", "MOS"): "Moscou",
    ("province", "STP"): "Saint-Pétersbourg",
    ("province", "CON"): "Constantinople",
    ("province", "BLA"): "Mer Noire",
    ("province", "BOT"): "Golfe de Botnie",
}


@pytest.mark.parametrize("name", ["classic", "pure"])
def test_every_province_and_power_has_a_french_name(name: str) -> None:
    gmap = board(name)
    french = gmap.translations["fr"]
    assert {c for k, c in french if k == "province"} == set(gmap.provinces)
    assert {c for k, c in french if k == "power"} == set(gmap.powers)
    # a translation, not a copy: most names differ from the English ones
    changed = [c for c in gmap.provinces if gmap.province_name(c, "fr") != gmap.provinces[c].name]
    assert len(changed) >= len(gmap.provinces) // 3


@pytest.mark.parametrize(("key", "name"), sorted(FRENCH.items()))
def test_the_usual_french_names(key: tuple[str, str], name: str) -> None:
    gmap = board("classic")
    kind, code = key
    assert (gmap.power_name(code, "fr") if kind == "power" else gmap.province_name(code, "fr")) == name


def test_a_language_without_names_reads_the_english_ones() -> None:
    gmap = board("classic")
    assert gmap.power_names("en") == dict(gmap.powers)
    assert gmap.power_name("ENG", "de") == "England"
    assert gmap.province_name("ENG", "de") == "English Channel"
    assert gmap.name("STP/SC", "en") == "St Petersburg (sc)"
    assert gmap.name("STP/SC", "fr") == "Saint-Pétersbourg (sc)"


def _copy(tmp_path: Path, names: str) -> Path:
    folder = tmp_path / "board"
    shutil.copytree(MAPS_DIR / "classic", folder)
    (folder / "names.fr.csv").write_text(names, encoding="utf-8")
    return folder


@pytest.mark.parametrize(
    ("names", "where", "problem"),
    [
        ("code,name\nENG,Manche\n", "line 1", "expected the header 'kind,code,name'"),
        ("kind,code,name\nprovince,XYZ,Nulle part\n", "line 2", "'XYZ' is no province of this board"),
        ("kind,code,name\npower,BUR,Bourgogne\n", "line 2", "'BUR' is no power of this board"),
        ("kind,code,name\nprovince,bur,Bourgogne\nprovince,par,\n", "line 3", "no name given for the province PAR"),
        ("kind,code,name\ncity,PAR,Paris\n", "line 2", "unknown kind 'city' (expected province or power)"),
        ("kind,code,name\nprovince,par,Paris\nprovince,PAR,Lutèce\n", "line 3", "the province PAR is named twice"),
        ("kind,code,name\nprovince,par\n", "line 2", "expected kind,code,name, found 'province,par'"),
    ],
)
def test_a_bad_names_file_is_a_clear_error(tmp_path: Path, names: str, where: str, problem: str) -> None:
    with pytest.raises(MapError) as caught:
        load_classic_map(_copy(tmp_path, names))
    assert (caught.value.source, caught.value.key, caught.value.problem) == ("names.fr.csv", where, problem)


def test_a_partial_names_file_falls_back_name_by_name(tmp_path: Path) -> None:
    gmap = load_classic_map(_copy(tmp_path, "kind,code,name\nprovince,bur,Bourgogne\n\npower,ENG,Angleterre\n"))
    assert (gmap.province_name("BUR", "fr"), gmap.province_name("PAR", "fr")) == ("Bourgogne", "Paris")
    assert (gmap.power_name("ENG", "fr"), gmap.power_name("GER", "fr")) == ("Angleterre", "Germany")


def test_the_french_report_and_picture_name_the_powers_in_french() -> None:
    gmap = board("classic")
    st = initial_state(gmap)
    data = {"phase": "spring-1901", "results": {}, "ignored": {}}
    fr = render_text(gmap, data, st, power="ENG", language="fr")
    en = render_text(gmap, data, st, power="ENG", language="en")
    assert "Angleterre (ENG)" in fr and "Allemagne (GER)" in fr and "England" not in fr
    assert "England (ENG)" in en and "Angleterre" not in en
    svg = scene_svg(build_scene(gmap, st, language="fr"))
    assert (
        frtypo.fr("Angleterre : 3 centres") in svg and frtypo.fr("Allemagne : 3 centres") in svg
    )  # French spacing before the colon
    assert "Angleterre: " not in svg
    assert "England" not in svg and "Manche (ENG)" in svg


def french_classic_game(tmp_path: Path) -> Path:
    """A new classic game whose reports are in French, at spring 1901."""
    game = tmp_path / "g"
    made = CliRunner().invoke(main, ["new", str(game), "--variant", "classic", "--no-git", "--language", "fr"])
    assert made.exit_code == 0, made.output
    return game


def test_the_french_acknowledgement_names_the_provinces_in_french(tmp_path: Path) -> None:
    game = french_classic_game(tmp_path)
    orders = game / "orders" / "spring-1901" / "FRA.txt"
    orders.write_text("A PAR - BUR\nF BRE - MAO\nA MAR - Bourgone\nF KIE - Bourgone\n", encoding="utf-8")
    out = CliRunner().invoke(main, ["check", "--game", str(game), str(orders)]).output
    assert "l'armée en PAR (Paris) va en BUR (Bourgogne)" in out
    assert "la flotte en BRE (Brest) va en MAO (Atlantique moyen)" in out
    # a misspelt French name is recognised: read where only one reading can be ordered
    assert (
        frtypo.fr("'Bourgone' compris comme BUR (Bourgogne) : la seule province d'orthographe proche qu'A MAR") in out
    )
    assert frtypo.fr("vouliez-vous dire BUR (Bourgogne) ?") in out  # no fleet of France's in KIE
    english = CliRunner().invoke(main, ["check", "--game", str(game), "--language", "en", str(orders)]).output
    assert "the army in Paris moves to Burgundy" in english
    assert "read 'Bourgone' as BUR (Burgundy): the only province of that spelling A MAR can use" in english
    assert "did you mean BUR (Burgundy)?" in english


def test_the_events_between_phases_are_values_worded_in_the_readers_language() -> None:
    gmap = board("classic")
    fall = from_data(
        {
            "phase": "fall-1901",
            "units": {"ENG": ["F NTH"], "GER": ["A BER"], "FRA": ["A BUR"]},
            "owners": {"ENG": ["LON"], "GER": ["BER", "MUN"], "FRA": ["PAR"]},
        },
        gmap,
    )
    orders = {"ENG": [parse_order("F NTH - BEL")], "FRA": [parse_order("A BUR - MUN")]}
    outcome = adjudicate_phase(gmap, fall, orders)
    taken = [Event("taken", "ENG", province="BEL"), Event("taken", "FRA", province="MUN", before="GER")]
    assert outcome.events == taken
    assert results_data(outcome, [])["events"] == [
        {"event": "taken", "power": "ENG", "province": "BEL"},
        {"event": "taken", "power": "FRA", "province": "MUN", "before": "GER"},
    ]
    assert [Event.from_data(e.to_data()) for e in taken] == taken
    # the results file's English notes are unchanged; the reports word the values
    assert outcome.notes == ["Belgium (BEL) taken by England", "Munich (MUN) taken by France from Germany"]
    assert [event_text(gmap, e, "en") for e in taken] == outcome.notes
    assert [event_text(gmap, e, "fr") for e in taken] == [
        frtypo.fr("Belgique (BEL) : centre pris ; propriétaire : Angleterre"),
        frtypo.fr("Munich (MUN) : centre pris ; propriétaire : France (avant : Allemagne)"),
    ]
    report = render_text(gmap, results_data(outcome, []), outcome.next_state, power=None, language="fr")
    assert frtypo.fr("Munich (MUN) : centre pris ; propriétaire : France (avant : Allemagne)") in report
    assert "taken by" not in report


GOLDEN = DATA / "golden" / "classic"
SPRING = {
    "ENG": "F LON - NTH\nF EDI - NWG\nA LVP - YOR\n",
    "FRA": "A PAR - BUR\nF BRE - MAO\nA MAR S A PAR - BUR\n",
    "GER": "A MUN - RUH\nF KIE - DEN\nA BER - KIE\n",
}
FALL = {
    "ENG": "F NTH C A YOR - NWY\nA YOR - NWY\nF NWG S F NTH\n",
    "FRA": "A BUR - BEL\nF MAO - SPA/NC\nA MAR - MUN\n",
    "GER": "A RUH - HOL\nF DEN H\nA KIE - BER\n",
}


@pytest.mark.parametrize("language", ["en", "fr"])
def test_golden_classic_reports(tmp_path: Path, language: str) -> None:
    """A classic game's fall reports (England's and the bulletin), with centres taken
    and builds owed: the names in full are the reader's language's."""

    game = tmp_path / "g"
    runner = CliRunner()
    made = runner.invoke(main, ["new", str(game), "--variant", "classic", "--no-git", "--language", language])
    assert made.exit_code == 0, made.output
    for phase, orders in (("spring-1901", SPRING), ("fall-1901", FALL)):
        for power, text in orders.items():
            (game / "orders" / phase / f"{power}.txt").write_text(text, encoding="utf-8")
        done = runner.invoke(main, ["adjudicate", phase, "--game", str(game)])
        assert done.exit_code == 0, done.output
    reports = game / "turns" / "fall-1901" / "reports"
    for name in ("ENG.txt", "bulletin.txt"):
        text = (reports / name).read_text(encoding="utf-8")
        goldenkit.check(GOLDEN / language / name, text)


def test_a_power_is_found_by_its_code_or_its_name_in_any_language(tmp_path: Path) -> None:
    gmap = board("classic")
    found = [gmap.power_by_name(t) for t in ("ENG", "england", " Angleterre ", "allemagne", "Prussia")]
    assert found == ["ENG", "ENG", "ENG", "GER", None]
    game = french_classic_game(tmp_path)
    orders = game / "orders" / "spring-1901" / "ENG.txt"
    orders.write_text("puissance : Angleterre\nF LON - NTH\n", encoding="utf-8")
    out = CliRunner().invoke(main, ["check", "--game", str(game), str(orders)]).output
    assert frtypo.fr("puissance : Angleterre (ENG)") in out, out


def test_a_reason_naming_a_province_names_it_in_the_readers_language(tmp_path: Path) -> None:
    """An army sent to sea, a fleet sent inland: the refusal names the province in the
    reader's language, in the acknowledgement and in the report written from the stored
    results (the name is kept in every language the board has)."""
    game = french_classic_game(tmp_path)
    orders = game / "orders" / "spring-1901" / "FRA.txt"
    orders.write_text("A PAR - ENG\nF BRE - PAR\nA MAR H\n", encoding="utf-8")
    out = CliRunner().invoke(main, ["check", "--game", str(game), str(orders)]).output
    assert "une armée ne peut pas entrer en mer (Manche)" in out, out
    assert "English Channel" not in out
    english = CliRunner().invoke(main, ["check", "--game", str(game), "--language", "en", str(orders)]).output
    assert "an army cannot enter the sea (English Channel)" in english, english
    done = CliRunner().invoke(main, ["adjudicate", "spring-1901", "--game", str(game), "--no-commit"])
    assert done.exit_code == 0, done.output
    report = (game / "turns" / "spring-1901" / "reports" / "FRA.txt").read_text(encoding="utf-8")
    assert "une armée ne peut pas entrer en mer (Manche)" in re.sub(r"\s*\n\s+", " ", report), report
    results = (game / "turns" / "spring-1901" / "results.yaml").read_text(encoding="utf-8")
    assert "fr: Manche" in results and "en: English Channel" in results
