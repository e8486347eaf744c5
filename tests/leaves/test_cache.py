"""The referee's cache (parsed maps) and the lean player-facing
paths: a second run does not redo the work, a damaged or deleted cache changes no
answer, and ``check`` loads only what an acknowledgement needs."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from repokit import DATA, ROOT

from moonshine import cache
from moonshine.variants.moonshine.map import MAPS_DIR, load_map


@pytest.fixture
def own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    where = tmp_path / "cache"
    monkeypatch.setenv(cache.ENV_VAR, str(where))
    return where


def map_copy(tmp_path: Path) -> Path:
    for name in ("chicago-1920s.yaml", "chicago-1920s.geojson"):
        shutil.copy2(MAPS_DIR / name, tmp_path / name)
    return tmp_path / "chicago-1920s.yaml"


def test_a_map_is_parsed_once_and_the_cache_never_changes_the_map(tmp_path: Path, own_cache: Path) -> None:
    path = map_copy(tmp_path)
    first = load_map(path)
    entries = list(own_cache.glob("*/map-*.bin"))
    assert len(entries) == 1
    assert load_map(path) == first
    entries[0].write_bytes(entries[0].read_bytes()[:100])  # cut short
    assert load_map(path) == first
    entries[0].unlink()
    assert load_map(path) == first
    shutil.rmtree(own_cache)  # safe to delete at any time
    assert load_map(path) == first


def test_the_cache_follows_the_map_files_content(tmp_path: Path, own_cache: Path) -> None:
    path = map_copy(tmp_path)
    before = load_map(path)
    path.write_text(path.read_text(encoding="utf-8").replace("Rogers Park", "Rogers Parc"), encoding="utf-8")
    after = load_map(path)
    assert before.districts["ROG"].name == "Rogers Park"
    assert after.districts["ROG"].name == "Rogers Parc"
    assert len(list(own_cache.glob("*/map-*.bin"))) == 2


def test_the_pictures_layout_is_worked_out_once_and_follows_the_geometry(tmp_path: Path, own_cache: Path) -> None:
    """The districts' outlines on the canvas come from the cache the second time, the
    same to the last bit of every coordinate; a damaged entry or an edited geometry
    file is worked out again."""
    from moonshine.variants.moonshine.scene import canvas

    geometry = map_copy(tmp_path).with_suffix(".geojson")
    made = canvas._make_layout(geometry)
    canvas.layout.cache_clear()
    assert canvas.layout(geometry) == made
    entries = list(own_cache.glob("*/layout-*.bin"))
    assert len(entries) == 1
    canvas.layout.cache_clear()
    assert canvas.layout(geometry) == made  # from the cache
    entries[0].write_bytes(entries[0].read_bytes()[:100])  # cut short
    canvas.layout.cache_clear()
    assert canvas.layout(geometry) == made
    data = json.loads(geometry.read_text(encoding="utf-8"))
    for feature in data["features"]:
        if feature["properties"]["code"] == "ROG":
            feature["properties"]["label_point"] = [-87.67, 42.01]
    geometry.write_text(json.dumps(data), encoding="utf-8")
    canvas.layout.cache_clear()
    canvas._shapes.cache_clear()  # the shapes read in this process
    moved = canvas.layout(geometry)
    assert moved.labels["ROG"] != made.labels["ROG"]
    assert moved == canvas._make_layout(geometry)
    assert len(list(own_cache.glob("*/layout-*.bin"))) == 2
    canvas.layout.cache_clear()
    canvas._shapes.cache_clear()


def test_no_cache_when_turned_off_or_unwritable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = map_copy(tmp_path)
    monkeypatch.setenv(cache.ENV_VAR, "")
    assert cache.cache_dir() is None
    assert load_map(path).districts["ROG"].name == "Rogers Park"
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory", encoding="utf-8")
    monkeypatch.setenv(cache.ENV_VAR, str(blocker / "cache"))
    assert cache.cache_dir() is None
    assert load_map(path).districts["ROG"].name == "Rogers Park"


def test_templates_compiled_once_and_kept_for_the_next_process(
    own_cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from moonshine.game.directory import load_config
    from moonshine.render import pages
    from moonshine.render.bulletin import render_bulletin
    from moonshine.render.report import render_report
    from moonshine.variants.moonshine.state import initial_state

    monkeypatch.setattr(pages, "_ENV", [])
    gmap = load_map("chicago-1920s")
    config = load_config(ROOT / "game.yaml")
    data = yaml.safe_load((DATA / "golden" / "fixture" / "results.yaml").read_text(encoding="utf-8"))
    nxt = initial_state(gmap)
    nxt.turn = "autumn-1924"
    text = render_report(gmap, config, data, nxt, "valley")
    page = render_bulletin(gmap, config, data, nxt, language="fr", html=True)
    env = pages.environment()
    assert pages.environment() is env  # one environment, its templates compiled once
    compiled = list(own_cache.glob("*/templates/*"))
    assert len(compiled) >= 4  # kept for the next process: the report, the bulletin, the page, the macros
    for f in compiled:
        f.write_bytes(b"j2 damaged")
    monkeypatch.setattr(pages, "_ENV", [])  # as a new process
    assert render_report(gmap, config, data, nxt, "valley") == text
    assert render_bulletin(gmap, config, data, nxt, language="fr", html=True) == page


def _modules_after(argv: list[str], cwd: Path, cache_dir: Path) -> tuple[set[str], int, str]:
    """The modules a ``moonshine`` command imported, how many message catalogues it
    read, and its output."""
    script = (
        "import json, sys\n"
        "from moonshine.cli import main\n"
        "try:\n"
        "    main(sys.argv[1:], prog_name='moonshine')\n"
        "except SystemExit:\n"
        "    pass\n"
        "text = sys.modules.get('moonshine.text.catalogue')\n"
        "french = text.translations.cache_info().currsize if text else 0\n"
        "print(json.dumps({'modules': sorted(sys.modules), 'french': french}), file=sys.stderr)\n"
    )
    env = dict(os.environ, **{cache.ENV_VAR: str(cache_dir)})
    done = subprocess.run(
        [sys.executable, "-c", script, *argv], cwd=cwd, env=env, capture_output=True, text=True, check=False
    )
    report = json.loads(done.stderr.strip().splitlines()[-1])
    return set(report["modules"]), report["french"], done.stdout


def test_check_loads_only_what_an_acknowledgement_needs(tmp_path: Path) -> None:
    game = tmp_path / "game"
    game.mkdir()
    for name in ("game.yaml", ".moonshine-secret", "orders", "turns"):
        src = ROOT / name
        (shutil.copytree if src.is_dir() else shutil.copy2)(src, game / name)
    for run in range(2):  # the first run fills the cache, the second uses it
        modules, french, out = _modules_after(["check", "orders/spring-1924/valley.txt"], game, tmp_path / "cache")
        assert "All your orders are accepted." in out
        assert not {"PIL", "jinja2"} & {m.split(".")[0] for m in modules}
        # the first run asks the map's graph how far each unit reaches (networkx) and keeps
        # the answer; from then on a check reads it from the cache
        assert run == 0 or "networkx" not in {m.split(".")[0] for m in modules}
        # nor what only a command that writes needs: the journal and its lock, git, the
        # classic family's boards (a Moonshine game never parses them)
        assert (
            not {
                "moonshine.game.journal",
                "moonshine.game.lock",
                "moonshine.variants.classic.board",
                "moonshine.variants.moonshine.police",
            }
            & modules
        )
        if run:  # filling the cache writes a temporary file (and asks networkx); using it, nothing
            assert not {"tempfile", "shutil", "subprocess", "socket", "csv"} & modules
        assert french == 0  # an English acknowledgement reads no catalogue
        assert "babel" not in {m.split(".")[0] for m in modules}
    modules, _, out = _modules_after(["map", "check"], game, tmp_path / "cache")
    assert "networkx" in modules  # the map check uses the graph


def test_the_maps_distances_asked_of_networkx_once_then_read_from_the_cache(own_cache: Path) -> None:
    """The distances from a district are networkx's answer over the map's graph; kept
    in the cache, a new process reads them without importing networkx."""
    import networkx as nx

    gmap = load_map("chicago-1920s")
    steps = gmap.steps_from("LOG")
    assert dict(steps) == dict(nx.single_source_shortest_path_length(gmap.graph, "LOG"))
    assert steps["LOG"] == 0 and max(steps.values()) > 3 and len(steps) == len(gmap.districts)
    assert list(own_cache.glob("*/steps-*"))
    code = (
        "import sys; sys.modules['networkx'] = None\n"
        "from moonshine.variants.moonshine.map import load_map\n"
        "print(sorted(load_map('chicago-1920s').steps_from('LOG').items()))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == str(sorted(steps.items()))
