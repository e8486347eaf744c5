"""``moonshine export`` and ``moonshine replay`` of a Moonshine game (issue 41): the
export carries every turn's opening state, recorded orders and public results, and
the seeds once the game is over; the replay adjudicates every turn again and finds
no difference in a game played here; a tampered file is caught, with the turn, the
orders and both positions; its raids are drawn again from the seeds when the file
carries them, else read from their published HMAC."""

from __future__ import annotations

import copy
import json
import random
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from repokit import ROOT

from moonshine.cli import main
from moonshine.game.directory import Game
from moonshine.game.families import new_game
from moonshine.game.jobs import adjudicate_game, orders_file, replace_seed
from moonshine.game.seeds import DERIVED_FROM_START_MAIL
from moonshine.game.simulate import play_into
from moonshine.variants.moonshine.bots import random_plans

DOCS = ROOT / "docs"


def replay(path: Path, *args: str) -> Result:
    return CliRunner().invoke(main, ["replay", str(path), *args])


def export(root: Path, out: Path, *args: str) -> dict[str, Any]:
    result = CliRunner().invoke(main, ["export", "--game", str(root), "--out", str(out), *args])
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    return data


def write(data: dict[str, Any], path: Path) -> Path:
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def play(game: Game, turns: int, *, seed: int = 1, between: Any = None) -> list[str]:
    """Play ``turns`` turns of ``game`` with the computer players' orders written as
    orders files (a sell and a store too), adjudicated as the game master does; stop
    at a victory. Returns the winners."""
    rng = random.Random(seed)
    for n in range(turns):
        game = Game(game.root)  # game.yaml read again: a seed replaced between turns
        turn = game.current_turn()
        st = game.load_state(turn)
        for gang, plan in random_plans(game.map, st, rng).items():
            lines = [f"gang: {gang}", *(o.text() for o in plan.unit_orders.values())]
            lines += [r.text() for r in plan.retreats.values()]
            lines += [r.text() for r in plan.recruits] + [b.text() for b in plan.bribes]
            if gang == "outfit":
                lines += ["sell 3", "store NOC"]
            if gang != "westside" or n % 2:  # the Westside sends nothing every other turn (R12)
                orders_file(game, turn, gang).parent.mkdir(parents=True, exist_ok=True)
                orders_file(game, turn, gang).write_text("\n".join(lines) + "\n", encoding="utf-8")
        done = adjudicate_game(game, turn, commit=False, reports=False)
        if done.result.winners:
            return done.result.winners
        if between is not None:
            between(game, turn)
    return []


@pytest.fixture(scope="module")
def simulated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A game of three turns played by ``moonshine simulate``'s players, exported."""
    root = tmp_path_factory.mktemp("sim") / "game"
    for _ in play_into(root, "chicago-1920s", "exchange", 3):
        pass
    out = root.parent / "game.json"
    export(root, out)
    return out


@pytest.fixture(scope="module")
def won(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A game won (house rules: victory at 19 VP), its seed replaced after its first
    turn, exported with its seeds."""
    root = tmp_path_factory.mktemp("won") / "game"
    new_game(root, seed="the-first-seed", use_git=False)
    with (root / "game.yaml").open("a", encoding="utf-8") as f:
        f.write("rules:\n  victory_vp: 19\n")

    def replace_once(game: Game, turn: str) -> None:
        if turn == "spring-1924":
            replace_seed(game, DERIVED_FROM_START_MAIL, now=datetime.now(UTC))

    assert play(Game(root), 12, between=replace_once)
    out = root.parent / "game.json"
    export(root, out)
    return out


def test_a_simulated_game_is_replayed_with_no_difference(simulated: Path) -> None:
    data = json.loads(simulated.read_text(encoding="utf-8"))
    assert (data["format"], data["version"], data["public"]) == ("moonshine-game", 2, False)
    assert [t["turn"] for t in data["turns"]] == ["spring-1924", "autumn-1924", "spring-1925", "autumn-1925"]
    assert "orders" not in data["turns"][-1] and "results" not in data["turns"][-1]
    assert "seeds" not in data  # the game is not over: its seed stays secret
    result = replay(simulated)
    assert result.exit_code == 0, result.output
    assert "3 turns replayed under the game's house rules" in result.output
    assert "0 differ from the file" in result.output
    assert "4 raids taken from the file's published draws (HMAC)" in result.output


def test_a_tampered_order_shows_the_turn_the_orders_and_both_positions(simulated: Path, tmp_path: Path) -> None:
    data = json.loads(simulated.read_text(encoding="utf-8"))
    first = data["turns"][0]
    moved = next(o for o in first["orders"]["outfit"] if " - " in o and not o.startswith("retreat"))
    unit = moved.split(" - ")[0]
    first["orders"]["outfit"] = [f"{unit} hold" if o == moved else o for o in first["orders"]["outfit"]]
    result = replay(write(data, tmp_path / "tampered.json"))
    assert result.exit_code == 1, result.output
    out = result.output
    assert out.startswith("spring-1924: the outcome differs\n")
    assert f'results: sides.outfit.units[0].order: ours "{unit} hold", the file\'s "{moved}"' in out
    dest = moved.split(" - ")[-1].split()[0]
    assert f"next position: units.outfit: ours has {unit}; the file has {unit[0]} {dest}" in out
    assert "  orders:\n" in out and f"    outfit: {'; '.join(first['orders']['outfit'])}\n" in out
    assert "  next position, ours:\n" in out and "  next position, the file's:\n" in out
    assert "autumn-1924: the outcome differs" not in out  # the next turn starts from the file's own state
    assert out.rstrip().endswith("so the draws themselves are not")
    assert "1 differs from the file" in out


def test_a_tampered_state_or_result_is_caught(simulated: Path, tmp_path: Path) -> None:
    data = json.loads(simulated.read_text(encoding="utf-8"))
    later = copy.deepcopy(data)
    later["turns"][2]["state"]["cash"]["valley"] = 999  # the state autumn-1924's adjudication reached
    result = replay(write(later, tmp_path / "cash.json"))
    assert result.exit_code == 1
    assert "autumn-1924: the outcome differs" in result.output
    assert "next position: cash.valley: ours " in result.output and "the file's 999" in result.output
    worded = copy.deepcopy(data)
    worded["turns"][1]["results"]["public"]["vp"]["genna"] += 1
    result = replay(write(worded, tmp_path / "vp.json"))
    assert result.exit_code == 1
    assert "autumn-1924: the outcome differs\n  results: vp.genna: ours " in result.output


def test_without_the_seed_a_raid_is_read_from_its_hmac_and_its_effects_checked(simulated: Path, tmp_path: Path) -> None:
    data = json.loads(simulated.read_text(encoding="utf-8"))
    raid = data["turns"][1]["state"]["raid"]
    other = dict(data["turns"][1]["state"]["raid"], district="LOO" if raid["district"] != "LOO" else "NSS")
    data["turns"][1]["state"]["raid"] = other  # the district the file claims is not the one its HMAC picks
    result = replay(write(data, tmp_path / "raid.json"))
    assert result.exit_code == 1
    assert (
        f'next position: raid.district: ours "{raid["district"]}", the file\'s "{other["district"]}"' in result.output
    )
    data["turns"][1]["state"]["raid"] = None  # or a turn with no raid at all
    result = replay(write(data, tmp_path / "noraid.json"))
    assert result.exit_code == 1
    assert "raid: the file's autumn-1924 has none, but a raid is drawn every turn (R21)" in result.output


def test_a_game_over_carries_its_seeds_and_its_raids_are_drawn_again(won: Path, tmp_path: Path) -> None:
    data = json.loads(won.read_text(encoding="utf-8"))
    assert data["turns"][-1]["state"]["winners"]
    assert data["rules"] == {"victory_vp": 19, "minimum_bribe": 0.5}
    seeds = data["seeds"]  # the first seed drew the raids up to autumn-1924's; the new one every raid after
    assert [(s["first_turn"], s["last_turn"]) for s in seeds] == [(None, "autumn-1924"), ("spring-1925", None)]
    assert seeds[0]["seed"] == "the-first-seed" and seeds[1]["sha256"] == data["seed_sha256"]
    result = replay(won)
    assert result.exit_code == 0, result.output
    assert "0 differ from the file" in result.output
    turns = len(data["turns"]) - 1
    assert (
        f"{turns} raids drawn again from the revealed seeds" in result.output
    )  # the opening's and one a turn but the last
    assert "taken from the file" not in result.output
    # a raid whose HMAC the seed does not give is caught, whatever district it names
    forged = copy.deepcopy(data)
    forged["turns"][1]["state"]["raid"]["draw"] = "0" * 64
    result = replay(write(forged, tmp_path / "forged.json"))
    assert result.exit_code == 1
    assert 'spring-1924: the outcome differs\n  next position: raid.draw: ours "' in result.output
    # the seeds must be those whose hashes were published
    wrong = copy.deepcopy(data)
    wrong["seeds"][0]["seed"] = "another-seed"
    result = replay(write(wrong, tmp_path / "wrong.json"))
    assert result.exit_code == 1
    assert "seeds[0].sha256: is not the SHA-256 of the seed beside it" in result.output


def test_the_opening_is_checked_against_the_maps_scenario(won: Path, tmp_path: Path) -> None:
    data = json.loads(won.read_text(encoding="utf-8"))
    data["turns"][0]["state"]["cash"]["outfit"] = 100
    result = replay(write(data, tmp_path / "rich.json"))
    assert result.exit_code == 1
    assert result.output.startswith("spring-1924 (the opening): the outcome differs\n")
    assert "opening position: cash.outfit: ours 20, the file's 100" in result.output  # the scenario's $20


def test_the_export_validates_against_its_published_schema(simulated: Path, won: Path, tmp_path: Path) -> None:
    jsonschema = pytest.importorskip("jsonschema")  # a dev dependency (pyproject.toml)
    referencing = pytest.importorskip("referencing")
    schemas = {
        name: json.loads((DOCS / name).read_text("utf-8"))
        for name in ("moonshine-game.schema.json", "results.schema.json")
    }
    registry = referencing.Registry().with_resources(
        (s["$id"], referencing.Resource.from_contents(s)) for s in schemas.values()
    )
    validator = jsonschema.Draft202012Validator(schemas["moonshine-game.schema.json"], registry=registry)
    for path in (simulated, won):
        validator.validate(json.loads(path.read_text(encoding="utf-8")))
    data = json.loads(won.read_text(encoding="utf-8"))
    data["turns"][0]["orders"]["outfit"] = "L NOT - LAK"
    assert not validator.is_valid(data)


def test_a_public_export_holds_the_results_alone_and_is_not_replayed(simulated: Path, tmp_path: Path) -> None:
    root = simulated.parent / "game"
    data = export(root, tmp_path / "public.json", "--public")
    assert data["public"] is True and "seeds" not in data
    assert [sorted(t) for t in data["turns"]] == [["results", "turn"]] * 3
    assert data["turns"][0]["results"]["format"] == "moonshine-results"
    assert "private" not in data["turns"][0]["results"]
    result = replay(tmp_path / "public.json")
    assert result.exit_code == 1
    assert "a public export (moonshine export --public)" in result.output


def test_what_a_moonshine_export_cannot_be_replayed_with(simulated: Path, tmp_path: Path) -> None:
    result = replay(simulated, "--rules", "webdiplomacy")
    assert result.exit_code == 1
    assert (
        "Error: --rules webdiplomacy: a Moonshine game's export is replayed under its own house rules" in result.output
    )
    data = json.loads(simulated.read_text(encoding="utf-8"))
    older = {k: data[k] for k in ("format", "game", "variant")} | {"version": 1, "turns": []}
    result = replay(write(older, tmp_path / "v1.json"))
    assert result.exit_code == 1
    assert "version 1 carries the public results alone: export the game again" in result.output
    broken = copy.deepcopy(data)
    broken["turns"][1]["orders"]["nobody"] = []
    result = replay(write(broken, tmp_path / "broken.json"))
    assert result.output.startswith(f"Error: {tmp_path / 'broken.json'}: turns[1].orders.nobody: no such gang")
    broken = copy.deepcopy(data)
    del broken["turns"][2]
    result = replay(write(broken, tmp_path / "gap.json"))
    assert "turns[2].turn: autumn-1925 does not follow autumn-1924" in result.output


def test_the_sample_game_with_sales_stores_and_bribes_replays(tmp_path: Path) -> None:
    from samplegame import copy_sample

    root = copy_sample(tmp_path / "game")
    assert CliRunner().invoke(main, ["adjudicate", "spring-1924", "--game", str(root), "--no-commit"]).exit_code == 0
    data = export(root, tmp_path / "sample.json")
    given = [o for orders in data["turns"][0]["orders"].values() for o in orders or []]
    assert any(o.startswith("bribe ") for o in given) and any(o.startswith("sell ") for o in given)
    result = replay(tmp_path / "sample.json")
    assert result.exit_code == 0, result.output
    assert "1 turn replayed" in result.output and "0 differ from the file" in result.output


def test_the_results_document_is_the_one_the_report_mail_attaches(simulated: Path, tmp_path: Path) -> None:
    """``moonshine.variants.resultsdoc`` (pure) writes the same document as the mail's
    attachment (``moonshine.game.results_json``), public and private, in both families."""
    from moonshine.game import results_json
    from moonshine.variants import resultsdoc
    from moonshine.variants.moonshine.results import load_data

    game = Game(simulated.parent / "game")
    for turn in game.turns()[:-1]:
        raw = load_data(game.turn_dir(turn) / "results.yaml")
        for side in (None, "outfit"):
            doc = resultsdoc.document(
                game.layout, raw, title=game.config.title, variant="moonshine", turn=turn, sides=game.sides(), side=side
            )
            assert doc == results_json.document(game, turn, side)
            assert resultsdoc.encode(doc) == results_json.attachment(game, turn, side)


VOTES = """proposals:
- number: 1
  kind: draw
  gangs: [outfit, valley]
  proposer: outfit
  turn: autumn-1925
  opened: '2025-01-01T00:00:00+00:00'
  deadline: '2025-01-04T00:00:00+00:00'
  voters: [outfit, valley]
  ballots: {outfit: 'yes', valley: 'yes'}
  passed: '2025-01-02T00:00:00+00:00'
"""


def test_a_game_ended_by_a_vote_carries_its_seeds(simulated: Path, tmp_path: Path) -> None:
    import shutil

    root = tmp_path / "game"
    shutil.copytree(simulated.parent / "game", root)
    (root / "votes.yaml").write_text(VOTES.replace("'2025-01-02T00:00:00+00:00'", "null"), encoding="utf-8")
    assert "seeds" not in export(root, tmp_path / "open.json")  # a draw proposed, not passed
    (root / "votes.yaml").write_text(VOTES, encoding="utf-8")
    data = export(root, tmp_path / "drawn.json")
    assert [(s["seed"], s["sha256"]) for s in data["seeds"]] == [("exchange", data["seed_sha256"])]
    result = replay(tmp_path / "drawn.json")
    assert result.exit_code == 0, result.output
    assert "4 raids drawn again from the revealed seeds" in result.output
