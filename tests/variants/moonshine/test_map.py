"""The bundled map and `moonshine map check` (R1 to R3)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from repokit import ROOT

from moonshine.cli import main
from moonshine.errors import MapError
from moonshine.variants.moonshine.map import Feature, GameMap, build_map, load_map
from moonshine.variants.moonshine.mapcheck import PUBLISHED_HOMES, check_map

MAP_FILE = ROOT / "maps" / "chicago-1920s.yaml"


def raw_map() -> dict[str, object]:
    data = yaml.safe_load(MAP_FILE.read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def write_map(tmp_path: Path, data: dict[str, object]) -> Path:
    path = tmp_path / "bad.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    (tmp_path / "chicago-1920s.geojson").write_bytes((MAP_FILE.parent / "chicago-1920s.geojson").read_bytes())
    return path


def district(data: dict[str, object], code: str) -> dict[str, object]:
    districts = data["districts"]
    assert isinstance(districts, list)
    for d in districts:
        if d["code"] == code:
            assert isinstance(d, dict)
            return d
    raise KeyError(code)


def test_shipped_map_has_75_districts_and_the_published_homes(chicago: GameMap) -> None:
    assert len(chicago.districts) == 75
    assert chicago.graph.number_of_nodes() == 75
    assert chicago.graph.number_of_edges() == 171
    homes = {g.name: sorted(g.homes) for g in chicago.gangs.values()}
    assert homes == {name: sorted(h) for name, h in PUBLISHED_HOMES.items()}
    assert sum(len(g.homes) for g in chicago.gangs.values()) == 51


def test_the_rules_book_names_the_map_files_that_exist() -> None:
    """RULES.md points its readers at the bundled map's files by their path in the
    repository: each exists, and the map the referee loads is the one named."""
    root = MAP_FILE.parent.parent
    named = set(re.findall(r"`(maps/[\w./-]+)`", (root / "RULES.md").read_text(encoding="utf-8")))
    assert {"maps/chicago-1920s.yaml", "maps/chicago-1920s.geojson"} <= named
    assert [p for p in sorted(named) if not (root / p).is_file()] == []
    assert Path(load_map("chicago-1920s").source).resolve() == (root / "maps" / "chicago-1920s.yaml").resolve()


def test_history_places_features_and_stations(chicago: GameMap) -> None:
    d = chicago.districts
    assert d["NSS"].feature is Feature.SPEAKEASY  # the Four Deuces
    assert d["GOL"].feature is Feature.SUPPLY  # the Sieben brewery
    assert d["UPT"].feature is Feature.SPEAKEASY  # the Green Mill
    assert d["LIT"].station == "Maxwell Street station"
    assert d["LAK"].station == "Town Hall station"
    assert d["BOY"].station == "Stockyards station"


def test_every_gang_starts_alike(chicago: GameMap) -> None:
    report = check_map(chicago)
    assert report.ok, report.problems
    rows = report.balance
    assert len(rows) == 8
    assert {r.production for r in rows} == {6}
    assert max(r.vp for r in rows) - min(r.vp for r in rows) <= 1
    assert all(r.henchmen == 3 for r in rows)


def test_map_check_cli_ok() -> None:
    result = CliRunner().invoke(main, ["map", "check"])
    assert result.exit_code == 0, result.output
    assert "75 districts" in result.output
    assert re.search(r"Valley Gang\s+7\s+3\s+4\s+10\s+6\s+12\s+\$20\s+\$14", result.output)
    assert "OK" in result.output


def test_map_check_names_an_asymmetric_pair(tmp_path: Path) -> None:
    data = raw_map()
    nss = district(data, "NSS")
    assert isinstance(nss["neighbours"], list)
    nss["neighbours"].remove("LOO")
    result = CliRunner().invoke(main, ["map", "check", str(write_map(tmp_path, data))])
    assert result.exit_code == 1
    assert "LOO lists NSS but NSS does not list LOO" in result.output


def test_map_check_names_a_corner_only_contact(tmp_path: Path) -> None:
    data = raw_map()
    for a, b in (("LIT", "CHI"), ("CHI", "LIT")):
        nb = district(data, a)["neighbours"]
        assert isinstance(nb, list)
        nb.append(b)
    result = CliRunner().invoke(main, ["map", "check", str(write_map(tmp_path, data))])
    assert result.exit_code == 1
    assert "corner-only contact listed as neighbours: CHI-LIT" in result.output


def test_map_check_catches_a_district_without_station(tmp_path: Path) -> None:
    data = raw_map()
    district(data, "NOR")["precinct"] = "NOT"
    gmap = load_map(write_map(tmp_path, data))
    problems = check_map(gmap).problems
    assert "NOR depends on precinct NOT, which has no police station" in problems


def test_map_check_catches_wrong_homes(tmp_path: Path) -> None:
    data = raw_map()
    gangs = data["gangs"]
    assert isinstance(gangs, list)
    gangs[0]["homes"] = ["NOR", "NOT", "LIN", "NOC", "UPT"]
    gangs[0]["units"] = ["L NOR", "L NOT", "H LIN", "H NOC", "L UPT"]
    problems = check_map(load_map(write_map(tmp_path, data))).problems
    assert any("outfit: homes differ from the published rules" in p for p in problems)
    assert any("50 home districts" in p for p in problems)


@pytest.mark.parametrize(
    ("mutate", "key", "problem"),
    [
        (lambda d: district(d, "LOO").update(feature="brewery"), "districts.LOO.feature", "unknown feature"),
        (
            lambda d: district(d, "LOO").update(neighbours=["GOL", "XXX"]),
            "districts.LOO.neighbours",
            "unknown district",
        ),
        (lambda d: district(d, "LOO").pop("name"), "districts.LOO.name", "missing"),
        (lambda d: d["scenario"].update(cash=12.25), "scenario.cash", "steps of $0.50"),
        (lambda d: d["raid_table"].update(LOO=0), "raid_table.LOO", "positive whole weight"),
    ],
)
def test_a_bad_map_names_file_key_and_problem(tmp_path: Path, mutate: object, key: str, problem: str) -> None:
    data = raw_map()
    assert callable(mutate)
    mutate(data)
    path = write_map(tmp_path, data)
    with pytest.raises(MapError) as info:
        load_map(path)
    assert info.value.key == key
    assert problem in info.value.problem
    assert str(path) in str(info.value)
    result = CliRunner().invoke(main, ["map", "check", str(path)])
    assert result.exit_code == 1
    assert result.output.startswith("Error: ")
    assert "Traceback" not in result.output


def test_missing_map_file_is_a_clean_error(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["map", "check", str(tmp_path / "nope.yaml")])
    assert result.exit_code == 1
    assert result.output.startswith("Error: ")
    assert "cannot read the map file" in result.output


def test_build_map_rejects_non_mapping() -> None:
    with pytest.raises(MapError, match="expected a mapping"):
        build_map(["not", "a", "map"])


def test_lookups(chicago: GameMap) -> None:
    assert chicago.gang_by_name("Valley Gang") is chicago.gangs["valley"]
    assert chicago.gang_by_name("ragens colts") is chicago.gangs["ragen"]
    assert chicago.gang_by_name("nobody") is None
    assert chicago.within("HYD", 2) == {"KEN", "WAS", "WOO", "FIV", "GRA", "ENG", "FUL", "GGC", "SSH"}
    assert chicago.home_of("LOO") == "valley"
    assert chicago.home_of("ROG") is None


def test_a_units_reach_is_the_graphs_answer_and_kept_per_map(chicago: GameMap, tmp_path: Path) -> None:
    """R8's reach comes from networkx's shortest paths (cut off at two moves), read
    back from the cache by a process that cannot import networkx."""
    import networkx as nx

    for code in chicago.districts:
        lengths = nx.single_source_shortest_path_length(chicago.graph, code, cutoff=2)
        assert chicago.within(code, 1) == {d for d, n in lengths.items() if n == 1}
        assert chicago.within(code, 2) == {d for d, n in lengths.items() if 1 <= n <= 2}
    script = (
        "import sys; sys.modules['networkx'] = None\n"
        "from moonshine.variants.moonshine.map import load_map\n"
        "print(sorted(load_map('chicago-1920s').within('HYD', 2)))"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == str(sorted(chicago.within("HYD", 2)))
