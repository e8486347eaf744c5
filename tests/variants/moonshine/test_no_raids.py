"""R21: a map may have no raids (a house rule, a test map). `moonshine adjudicate` on
a game whose map says `raid_table: {}` (or `[]`) runs the turn with no raid, exits 0,
and the bulletin says there was no raid."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from repokit import ROOT
from samplegame import copy_sample

from moonshine.cli import main
from moonshine.variants.moonshine import state as state_mod
from moonshine.variants.moonshine.map import load_map
from moonshine.variants.moonshine.police import draw_raid, open_turn
from moonshine.variants.moonshine.state import initial_state

MAPS = ROOT / "maps"


def _no_raid_map(where: Path, written: str) -> Path:
    text = (MAPS / "chicago-1920s.yaml").read_text(encoding="utf-8")
    head, _, _ = text.partition("\nraid_table:\n")
    path = where / "no-raids.yaml"
    path.write_text(f"{head}\nraid_table: {written}\n", encoding="utf-8")
    shutil.copy(MAPS / "chicago-1920s.geojson", where / "chicago-1920s.geojson")
    return path


@pytest.mark.parametrize("written", ["{}", "[]", "null"])
def test_an_empty_raid_table_draws_no_raid(tmp_path: Path, written: str) -> None:
    gmap = load_map(_no_raid_map(tmp_path, written))
    assert gmap.raid_table == {}
    st = initial_state(gmap)
    assert draw_raid(gmap, "seed", st.turn) is None
    open_turn(gmap, st, "seed")
    assert st.raid is None and st.arrested == []


def test_a_map_without_the_key_is_told_how_to_say_no_raids(tmp_path: Path) -> None:
    path = _no_raid_map(tmp_path, "{}")
    path.write_text(path.read_text(encoding="utf-8").replace("\nraid_table: {}\n", "\n"), encoding="utf-8")
    with pytest.raises(Exception, match=re.escape("raid_table: missing (write 'raid_table: {}'")):
        load_map(path)


def test_adjudicate_on_a_map_without_raids(tmp_path: Path) -> None:
    game = tmp_path / "game"
    copy_sample(game)
    _no_raid_map(game, "[]")
    config = (game / "game.yaml").read_text(encoding="utf-8")
    (game / "game.yaml").write_text(config.replace("map: chicago-1920s", "map: no-raids.yaml"), encoding="utf-8")
    result = CliRunner().invoke(main, ["adjudicate", "spring-1924", "--game", str(game), "--no-commit"])
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output
    assert "Raid for autumn-1924: no raid" in result.output
    nxt = yaml.safe_load((game / "turns" / "autumn-1924" / "state.yaml").read_text(encoding="utf-8"))
    assert nxt["raid"] is None
    gmap = load_map(game / "no-raids.yaml")
    assert state_mod.load(game / "turns" / "autumn-1924" / "state.yaml", gmap).raid is None
    bulletin = (game / "turns" / "spring-1924" / "reports" / "bulletin.txt").read_text(encoding="utf-8")
    assert "AUTUMN 1924: PRICE AND RAID" in bulletin and "  No raid." in bulletin
