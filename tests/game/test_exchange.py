"""``moonshine export`` and ``moonshine replay``: a classic game written as the python
``diplomacy`` package's saved game, which that package loads and replays to the same
positions; a saved game the package played, replayed here with no difference; a
difference reported with the phase, the orders and both positions."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from moonshine.cli import main

diplomacy = pytest.importorskip("diplomacy")  # a dev dependency (requirements/dev.txt)

# Orders the diplomacy package plays in its own game: a bounce, a convoy, a dislodgement
# and its retreat, builds.
SCRIPT = [
    {
        "FRANCE": ["A PAR - BUR", "A MAR S A PAR - BUR", "F BRE - MAO"],
        "GERMANY": ["A MUN - BUR", "F KIE - DEN", "A BER - KIE"],
        "ENGLAND": ["F LON - NTH", "F EDI - NWG", "A LVP - YOR"],
        "RUSSIA": ["A WAR - GAL", "F SEV - BLA"],
        "AUSTRIA": ["A VIE - GAL", "A BUD - SER"],
        "TURKEY": ["F ANK - BLA", "A CON - BUL"],
        "ITALY": ["A VEN - PIE", "F NAP - ION"],
    },
    {
        "ENGLAND": ["A YOR - NWY VIA", "F NTH C A YOR - NWY", "F NWG S A YOR - NWY"],
        "FRANCE": ["A BUR - MUN", "F MAO - POR", "A MAR - SPA"],
        "GERMANY": ["A MUN S A KIE - BER", "A KIE - HOL", "F DEN H"],
        "ITALY": ["A PIE - MAR", "F ION - TUN"],
        "AUSTRIA": ["A SER - RUM", "A BUD S A SER - RUM"],
        "RUSSIA": ["A WAR - UKR", "F SEV H"],
        "TURKEY": ["A BUL - GRE", "F ANK - CON"],
    },
]


def _package_game() -> dict[str, object]:
    """A game the diplomacy package plays itself, to its first winter and past it."""
    game = diplomacy.Game()
    for orders in SCRIPT:
        for power, given in orders.items():
            game.set_orders(power, given)
        game.process()
    while game.get_current_phase() != "S1902M":
        game.process()  # retreats and builds left to the package's defaults
    from diplomacy.utils.export import to_saved_game_format

    return dict(to_saved_game_format(game))


def test_a_saved_game_of_the_package_replays_with_no_difference(tmp_path: Path) -> None:
    saved = tmp_path / "played.json"
    saved.write_text(json.dumps(_package_game()), encoding="utf-8")
    result = CliRunner().invoke(main, ["replay", str(saved)])
    assert result.exit_code == 0, result.output
    assert result.output.strip().endswith("0 differ from the file")


def test_a_difference_is_reported_with_the_orders_and_both_positions(tmp_path: Path) -> None:
    data = _package_game()
    phases = data["phases"]
    assert isinstance(phases, list)
    fall = next(p for p in phases if p["name"] == "F1901M")
    fall["state"]["units"]["FRANCE"] = ["A PAR" if u == "A BUR" else u for u in fall["state"]["units"]["FRANCE"]]
    saved = tmp_path / "altered.json"
    saved.write_text(json.dumps(data), encoding="utf-8")
    result = CliRunner().invoke(main, ["replay", str(saved)])
    assert result.exit_code == 1
    assert "S1901M: the outcome differs" in result.output
    assert "FRA: ours has A BUR; the file has A PAR" in result.output
    assert "FRA: A PAR - BUR; A MAR S A PAR - BUR; F BRE - MAO" in result.output
    assert "next position, the file's:" in result.output


def _played_classic_game(root: Path) -> None:
    runner = CliRunner()
    assert runner.invoke(main, ["new", str(root), "--variant", "classic"]).exit_code == 0
    turns = [
        ("spring-1901", {"FRA": "A PAR - BUR\nA MAR S A PAR - BUR\nF BRE - MAO\n", "GER": "A MUN - BUR\n"}),
        ("fall-1901", {"FRA": "A BUR - MUN\nF MAO - POR\n", "ENG": "F LON - NTH\n"}),
    ]
    for phase, files in turns:
        for power, text in files.items():
            (root / "orders" / phase / f"{power}.txt").write_text(text, encoding="utf-8")
        result = runner.invoke(main, ["adjudicate", phase, "--game", str(root), "--no-commit"])
        assert result.exit_code == 0, result.output
    result = runner.invoke(main, ["adjudicate", "winter-1901", "--game", str(root), "--no-commit"])
    assert result.exit_code == 0, result.output


def test_an_exported_game_is_read_back_and_replayed_by_the_package(tmp_path: Path) -> None:
    root = tmp_path / "game"
    _played_classic_game(root)
    out = tmp_path / "game.json"
    result = CliRunner().invoke(main, ["export", "--game", str(root), "--out", str(out)])
    assert result.exit_code == 0, result.output
    saved = json.loads(out.read_text(encoding="utf-8"))
    from diplomacy.utils.export import from_saved_game_format

    loaded = from_saved_game_format(saved)
    assert [p.name for p in loaded.get_phase_history()] == ["S1901M", "F1901M", "W1901A"]
    assert loaded.get_current_phase() == "S1902M"
    # the package replays every phase's orders and reaches each next position of the file
    game = diplomacy.Game()
    for phase, nxt in zip(saved["phases"], saved["phases"][1:], strict=False):
        assert game.get_current_phase() == phase["name"]
        for power, orders in phase["orders"].items():
            game.set_orders(power, orders)
        game.process()
        units = {p: sorted(u) for p, u in game.get_state()["units"].items()}
        assert units == {p: sorted(u) for p, u in nxt["state"]["units"].items()}, phase["name"]
        assert {p: sorted(c) for p, c in game.get_state()["centers"].items()} == {
            p: sorted(c) for p, c in nxt["state"]["centers"].items()
        }
    # and moonshine replays its own export with no difference
    again = CliRunner().invoke(main, ["replay", str(out)])
    assert again.exit_code == 0, again.output
    assert "3 phases replayed under the 2023 rules" in again.output


def test_replay_refuses_what_is_not_a_saved_game(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"phases": [\n  {"name": "S1901M",}\n]}', encoding="utf-8")
    result = CliRunner().invoke(main, ["replay", str(bad)])
    assert result.exit_code == 1
    assert result.output.startswith(f"Error: {bad}:2: not JSON")
    result = CliRunner().invoke(main, ["replay", str(bad), "--rules", "nope"])
    assert result.exit_code == 2
    assert "'nope' is not one of '2023', 'webdiplomacy', 'droidippy'" in result.output
