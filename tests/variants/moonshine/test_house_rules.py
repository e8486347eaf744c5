"""House rules (game.yaml ``rules:``): each option is checked where game.yaml is read,
read by the order checker and by the adjudication alike, changes the outcome of a
turn, and is printed in the first bulletin in both languages."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import frtypo
import pytest
from repokit import ROOT

from moonshine.errors import StateError
from moonshine.game.directory import Game, load_config_text
from moonshine.variants.moonshine.checker import ACCEPTED, REJECTED, read_orders
from moonshine.variants.moonshine.houserules import DEFAULT, HouseRules
from moonshine.variants.moonshine.map import GameMap
from moonshine.variants.moonshine.orders import Bribe
from moonshine.variants.moonshine.scoring import victory_points
from moonshine.variants.moonshine.state import GameState
from moonshine.variants.moonshine.turn import GangPlan, run_turn

SEED = "house-rules"
BASE = "title: t\nmap: chicago-1920s\n"


def quiet(start: GameState) -> GameState:
    s = start.copy()
    s.raid = None
    return s


# -- game.yaml ------------------------------------------------------------------------------


def test_the_options_are_read_and_written_back() -> None:
    cfg = load_config_text(BASE + "rules:\n  victory_vp: 25\n  minimum_bribe: 2.50\n", "game.yaml")
    assert cfg.house == HouseRules(victory_vp=25, minimum_bribe=250)
    assert load_config_text(BASE, "game.yaml").house == DEFAULT == HouseRules(30, 50)
    from moonshine.game.directory import config_to_yaml

    again = load_config_text(config_to_yaml(cfg), "game.yaml")
    assert again.house == cfg.house


@pytest.mark.parametrize(
    ("rules", "message"),
    [
        ("  victory_vp: 0\n", r"game\.yaml:4: rules\.victory_vp: expected a whole number from 1 to 1000, found 0"),
        ("  victory_vp: many\n", r"rules\.victory_vp.*whole number"),
        ("  minimum_bribe: 0.25\n", r"rules\.minimum_bribe: money moves in steps of \$0\.50, not 0\.25"),
        ("  minimum_bribe: 0\n", r"rules\.minimum_bribe: expected at least \$0\.50, found \$0"),
        ("  victory: 25\n", r"rules\.victory: unknown key \(did you mean 'victory_vp'\?\)"),
    ],
)
def test_a_wrong_option_names_the_file_line_and_key(rules: str, message: str) -> None:
    with pytest.raises(StateError, match=message):
        load_config_text(BASE + "rules:\n" + rules, "game.yaml")


def test_a_classic_game_has_no_house_rules() -> None:
    text = "title: t\nmap: classic\nvariant: classic\nrules:\n  victory_vp: 10\n"
    with pytest.raises(StateError, match=r"rules.victory_vp: a house rule of Moonshine games"):
        load_config_text(text, "game.yaml")


# -- the victory target (R24) -------------------------------------------------------------


def test_the_victory_target_decides_who_wins(chicago: GameMap, start: GameState) -> None:
    usual = run_turn(chicago, quiet(start), {}, SEED)
    assert usual.winners == []
    best = max(usual.vp.values())
    leaders = sorted(g for g, v in usual.vp.items() if v == best)
    lowered = run_turn(chicago, quiet(start), {}, SEED, HouseRules(victory_vp=best))
    assert sorted(lowered.winners) == leaders
    assert lowered.next_state.winners == lowered.winners
    raised = run_turn(chicago, quiet(start), {}, SEED, HouseRules(victory_vp=best + 1))
    assert raised.winners == []
    assert all(victory_points(chicago, lowered.next_state, g) == v for g, v in lowered.vp.items())


# -- the smallest bribe (R19) ---------------------------------------------------------------


def test_a_bid_below_the_minimum_is_refused_by_the_checker(chicago: GameMap, start: GameState) -> None:
    text = "gang: valley\nbribe LOO 1\n"
    usual = read_orders(text, chicago, start)
    assert usual.lines[1].status == ACCEPTED
    strict = read_orders(text, chicago, start, house=HouseRules(minimum_bribe=200))
    assert strict.lines[1].status == REJECTED
    assert strict.lines[1].reason is not None
    assert strict.lines[1].reason.text("en") == ("a bribe of $1 is below this game's minimum of $2 (house rule, R19)")
    assert strict.lines[1].reason.text("fr") == (
        frtypo.fr("un pot-de-vin de 1 $ est en dessous du minimum de cette partie, 2 $ (règle maison, R19)")
    )
    assert read_orders("gang: valley\nbribe LOO 2\n", chicago, start, house=HouseRules(minimum_bribe=200)).ok


def test_a_bid_below_the_minimum_is_refused_by_the_adjudication(chicago: GameMap, start: GameState) -> None:
    plans = {"valley": GangPlan("valley", submitted=True, bribes=[Bribe("LOO", 100)])}
    usual = run_turn(chicago, quiet(start), plans, SEED)
    assert usual.next_state.corruption.get("LOO") == "valley"
    assert usual.ledgers["valley"].bribes == 100
    strict = run_turn(chicago, quiet(start), plans, SEED, HouseRules(minimum_bribe=150))
    assert strict.next_state.corruption.get("LOO") != "valley"
    assert strict.ledgers["valley"].bribes == 0  # a refused bid costs nothing
    (refused,) = [a for a in strict.adjustments if a.kind == "bid refused"]
    assert (refused.gang, refused.text) == ("valley", "bribe LOO 1")
    assert refused.reason == "a bribe of $1 is below this game's minimum of $1.50 (house rule, R19)"


# -- a whole game ---------------------------------------------------------------------------


def _game(tmp_path: Path, rules: str, language: str = "en") -> Path:
    game = tmp_path / "game"
    game.mkdir(parents=True)
    for name in (".moonshine-secret", "orders", "turns"):
        src = ROOT / name
        (shutil.copytree if src.is_dir() else shutil.copy2)(src, game / name)
    text = (ROOT / "game.yaml").read_text(encoding="utf-8").replace("language: en", f"language: {language}")
    (game / "game.yaml").write_text(text + rules, encoding="utf-8")
    return game


def _adjudicate(game: Path) -> subprocess.CompletedProcess[str]:
    code = "from moonshine.cli import main; main(prog_name='moonshine')"
    return subprocess.run(
        [sys.executable, "-c", code, "adjudicate", "spring-1924", "--no-commit"],
        cwd=game,
        capture_output=True,
        text=True,
        check=False,
    )


def test_a_game_played_under_house_rules(tmp_path: Path) -> None:
    """The sample game's first turn: nobody wins under the published rules; with the
    victory target at the leader's score, the leader wins. The first bulletin states
    the game's rules, in the game's language."""
    usual = _adjudicate(_game(tmp_path / "usual", ""))
    assert usual.returncode == 0, usual.stderr
    assert "WINNER" not in usual.stdout
    lines = usual.stdout.splitlines()
    table = lines[next(i for i, line in enumerate(lines) if line.startswith("gang ")) + 1 :]
    best = max(
        int(line.split()[-5]) for line in table if line.strip() and not line.startswith(("Results", "Reports", "Next"))
    )
    game = _game(tmp_path / "house", f"rules:\n  victory_vp: {best}\n  minimum_bribe: 3\n")
    done = _adjudicate(game)
    assert done.returncode == 0, done.stderr
    assert "WINNER: " in done.stdout and f"({best} VP). The game is over." in done.stdout
    assert Game(game).load_state("autumn-1924").winners
    bulletin = " ".join((game / "turns" / "spring-1924" / "reports" / "bulletin.txt").read_text("utf-8").split())
    assert f"Victory: {best} VP at the end of a turn (R24), instead of 30 (house rule)." in bulletin
    assert "at least $3 (R19), instead of $0.50 (house rule)." in bulletin
    french = _game(tmp_path / "fr", "rules:\n  minimum_bribe: 3\n", language="fr")
    assert _adjudicate(french).returncode == 0
    bulletin = frtypo.checked(
        (french / "turns" / "spring-1924" / "reports" / "bulletin.txt").read_text(encoding="utf-8")
    )
    assert "LES RÈGLES DE CETTE PARTIE" in bulletin
    assert "Victoire : 30 PV à la fin d'un tour (R24)." in bulletin
    assert "au moins 3 $ (R19), au lieu de 0,50 $ (règle maison)." in " ".join(bulletin.split())
