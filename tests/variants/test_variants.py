"""The registry of variants, and a variant defined by data alone: Pure (seven
powers on seven provinces that all touch, maps/pure/), played end to
end through the CLI with no code of its own."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from moonshine import variants
from moonshine.cli import main
from moonshine.errors import GameError, MapError
from moonshine.game import families
from moonshine.game.directory import load_config
from moonshine.variants.classic.board import MAP_DIR, board, load_classic_map
from moonshine.variants.classic.orders import parse_order
from moonshine.variants.classic.phases import adjudicate_phase
from moonshine.variants.classic.state import from_data, initial_state


def test_registry_names_every_variant_once_moonshine_first() -> None:
    assert variants.names() == ["moonshine", "classic", "pure"]
    assert variants.get("moonshine").family == variants.MOONSHINE
    assert variants.get("classic").family == variants.CLASSIC
    assert variants.get("pure").family == variants.CLASSIC
    assert variants.get("pure").title == "Pure"


def test_every_variant_leads_to_its_familys_values() -> None:
    """One lookup from the variant to its family's layout (turns, sides, states)
    and to its family in the game layer; each family's own turn names."""
    for name in variants.names():
        spec = variants.get(name)
        assert families.get(name).name == spec.family
        assert spec.layout is variants.LAYOUTS[spec.family]
    pure, moonshine = variants.get("pure").layout, variants.get("moonshine").layout
    assert pure.turn_key("fall-1901-retreats") > pure.turn_key("fall-1901") > pure.turn_key("spring-1901")
    assert pure.turn_after("spring-1901") is None  # retreats or not: the outcome says
    assert (
        moonshine.turn_name("printemps-1924") == "spring-1924" and moonshine.turn_after("spring-1924") == "autumn-1924"
    )
    with pytest.raises(ValueError):
        moonshine.turn_key("winter-1901")
    assert (families.get("pure").messages, families.get("moonshine").messages) == (".classic", "")
    assert families.get("classic").reveals_seed and families.get("moonshine").reveals_seed
    assert not families.get("classic").raids and families.get("moonshine").raids


def test_unknown_variant_is_refused_with_a_suggestion() -> None:
    with pytest.raises(GameError, match=r"unknown variant 'clasic' \(did you mean classic\?\)"):
        variants.get("clasic")
    result = CliRunner().invoke(main, ["new", "/nonexistent-dir", "--variant", "chess"])
    assert result.exit_code == 2 and "'chess' is not one of" in result.output


def test_pure_board_is_seven_provinces_that_all_touch() -> None:
    gmap = board("pure")
    assert len(gmap.provinces) == 7 and len(gmap.supply_centres) == 7
    for p in gmap.provinces:
        assert gmap.army_nb[p] == frozenset(gmap.provinces) - {p}
        assert gmap.fleet_regions(p) == ()  # no coast: no fleet can stand anywhere
    assert gmap.victory_centres == 4
    st = initial_state(gmap)
    assert str(st.phase.name) == "spring-1901"
    assert sorted(u.label() for u in st.units) == ["A BER", "A CON", "A LON", "A MOS", "A PAR", "A ROM", "A VIE"]
    assert all(st.owners[u.province] == u.power for u in st.units)


def test_classic_board_keeps_its_opening_and_victory_count() -> None:
    gmap = board("classic")
    assert gmap.victory_centres == 18 and len(gmap.powers) == 7
    assert len(initial_state(gmap).units) == 22


def test_a_fourth_centre_wins_on_pure() -> None:
    gmap = board("pure")
    st = from_data(
        {
            "phase": "fall-1902",
            "units": {"FRA": ["A PAR", "A LON", "A BER"], "ITA": ["A ROM"]},
            "owners": {"FRA": ["PAR", "LON", "BER"], "ITA": ["ROM"]},
        },
        gmap,
    )
    out = adjudicate_phase(gmap, st, {"FRA": [parse_order("A LON - VIE"), parse_order("A BER S A LON - VIE")]})
    assert out.next_state.winner == "FRA"
    assert "France owns 4 supply centres and wins the game" in out.notes


def test_a_board_with_a_bad_opening_unit_is_refused(tmp_path: Path) -> None:
    bad = tmp_path / "bad"
    shutil.copytree(MAP_DIR.parent / "pure", bad)
    info = yaml.safe_load((bad / "variant.yaml").read_text(encoding="utf-8"))
    info["start"]["FRA"] = ["F PAR"]  # Paris has no coast on this board
    (bad / "variant.yaml").write_text(yaml.safe_dump(info), encoding="utf-8")
    with pytest.raises(MapError, match="'F PAR' is not a unit that can stand on this board"):
        load_classic_map(bad)


def test_pure_game_played_through_the_cli(tmp_path: Path) -> None:
    root = tmp_path / "pure"
    runner = CliRunner()
    made = runner.invoke(main, ["new", str(root), "--variant", "pure", "--no-git"])
    assert made.exit_code == 0, made.output
    assert "variant pure (Pure), first phase spring-1901" in made.output
    cfg = load_config(root / "game.yaml")
    assert cfg.variant == "pure" and cfg.map == "pure" and list(cfg.players) == list(board("pure").powers)

    orders = root / "orders" / "spring-1901"
    (orders / "FRA.txt").write_text("A PAR - LON\n", encoding="utf-8")
    (orders / "germany.txt").write_text("A BER S A PAR - LON\n", encoding="utf-8")
    done = runner.invoke(main, ["adjudicate", "spring-1901", "--game", str(root), "--no-commit"])
    assert done.exit_code == 0, done.output
    moved = "moved to LON with A BER's support, dislodging A LON (2 vs 1)"
    assert f"A PAR - LON                  ok    {moved}" in done.output
    assert "Next: spring-1901-retreats" in done.output

    (root / "orders" / "spring-1901-retreats" / "ENG.txt").write_text("A LON - PAR\n", encoding="utf-8")
    done = runner.invoke(main, ["adjudicate", "spring-1901-retreats", "--game", str(root), "--no-commit"])
    assert done.exit_code == 0, done.output
    assert "disbanded: cannot retreat to PAR: the attacker came from PAR" in done.output

    done = runner.invoke(main, ["adjudicate", "fall-1901", "--game", str(root), "--no-commit"])
    assert done.exit_code == 0, done.output
    assert "London (LON) taken by France from England" in done.output
    assert "Next: winter-1901" in done.output

    (root / "orders" / "winter-1901" / "france.txt").write_text("build A PAR\n", encoding="utf-8")
    done = runner.invoke(main, ["adjudicate", "winter-1901", "--game", str(root), "--no-commit"])
    assert done.exit_code == 0, done.output
    state = yaml.safe_load((root / "turns" / "spring-1902" / "state.yaml").read_text(encoding="utf-8"))
    assert state["units"]["FRA"] == ["A LON", "A PAR"] and "ENG" not in state["units"]
    assert state["owners"]["FRA"] == ["LON", "PAR"]
