"""The civil-disorder player (R26): its seed, its mark, its orders in both rule
families. The cases of tests/data/cases/civil_disorder.yaml (the orders written, and what
becomes of them against the other sides' orders); on many positions (the simulated
games' for Moonshine, random ones for the classic board), the same inputs give the
same bytes and the family's checker reads every line back to the orders written;
the classic ``hold`` player is the rulebook's civil disorder; the game directory's
``write_civil_disorder``, ``verify_civil_disorder`` and ``moonshine verify-cd``."""

from __future__ import annotations

import contextlib
import io
import random
import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner
from repokit import DATA, ROOT

from moonshine.cli import main
from moonshine.game.civil_disorder import verify_civil_disorder, write_civil_disorder
from moonshine.game.directory import SECRET_FILE, Game, seed_hash
from moonshine.game.jobs import adjudicate_game
from moonshine.game.simulate import play
from moonshine.render.classic.ack import check_orders
from moonshine.variants.civil_disorder import HOLD, SMART, Mark, Written, civil_disorder_seed, draws, read_mark
from moonshine.variants.classic import civil_disorder as classic_cd
from moonshine.variants.classic import state as classic_state
from moonshine.variants.classic.board import ClassicMap, Kind, standard_map
from moonshine.variants.classic.orders import Build, parse_order
from moonshine.variants.classic.orders import Move as ClassicMove
from moonshine.variants.classic.orders import Order as ClassicOrder
from moonshine.variants.classic.orders import Retreat as ClassicRetreat
from moonshine.variants.classic.orders import SupportMove as ClassicSupportMove
from moonshine.variants.classic.phases import adjudicate_phase
from moonshine.variants.classic.state import ClassicState, Dislodged, Phase, Season, Step, Unit
from moonshine.variants.moonshine import civil_disorder as moonshine_cd
from moonshine.variants.moonshine.bots import random_plans
from moonshine.variants.moonshine.checker import GangOrders, read_orders
from moonshine.variants.moonshine.map import GameMap, UnitKind, load_map
from moonshine.variants.moonshine.movement import ResultCode, adjudicate
from moonshine.variants.moonshine.orders import (
    UNIT_ORDER_TYPES,
    Order,
    Sell,
    SupportHold,
    UnitOrder,
    UnitRef,
    parse_canonical,
)
from moonshine.variants.moonshine.state import Arrested, GameState
from moonshine.variants.moonshine.state import Unit as GangUnit

CASES = yaml.safe_load((DATA / "cases" / "civil_disorder.yaml").read_text(encoding="utf-8"))["cases"]
CHICAGO = load_map("chicago-1920s")
BOARD = standard_map()


# -- the seed and the mark ---------------------------------------------------------------------


def test_the_seed_is_the_hmac_of_the_turn_and_side() -> None:
    seed = civil_disorder_seed("example-seed", "spring-1924", "valley")
    assert re.fullmatch(r"[0-9a-f]{64}", seed)
    assert seed == civil_disorder_seed("example-seed", "spring-1924", "valley")
    others = {
        civil_disorder_seed("example-seed", "autumn-1924", "valley"),
        civil_disorder_seed("example-seed", "spring-1924", "genna"),
        civil_disorder_seed("other-seed", "spring-1924", "valley"),
    }
    assert seed not in others and len(others) == 3


def test_a_seed_is_64_hexadecimal_digits() -> None:
    draws("0" * 64)
    for bad in ("example-seed", "0" * 63, "G" * 64, ""):
        with pytest.raises(ValueError, match="civil-disorder seed"):
            draws(bad)


def test_the_mark_reads_back_and_a_players_file_has_none() -> None:
    mark = Mark("smart", "ab" * 32)
    assert mark.line() == f"# civil disorder: smart (R26), seed {'ab' * 32}"
    assert read_mark("\n  \n" + mark.line() + "\npower: FRA\n") == mark
    assert read_mark("power: FRA\n" + mark.line() + "\n") is None  # only the first line counts
    assert read_mark("# civil disorder: smart (R26), seed 1234\n") is None
    assert read_mark("") is None


def _python_block(section: str) -> tuple[str, str]:
    """The Python code block of a RULES.md section and the lines the book says it prints."""
    text = (ROOT / "RULES.md").read_text(encoding="utf-8")
    body = re.split(r"\n##+ ", text.split(f"### {section}\n", 1)[1], maxsplit=1)[0]
    code = body.split("```python\n", 1)[1].split("```", 1)[0]
    after = body.split("```python\n", 1)[1].split("```", 1)[1]
    printed = re.search(r"it prints:\n\n((?: {4}.*\n)+)", after)
    assert printed is not None, f"{section}: no 'it prints:' block after the code"
    return code, "".join(line[4:] + "\n" for line in printed.group(1).splitlines())


def _run(code: str) -> tuple[str, dict[str, Any]]:
    out = io.StringIO()
    names: dict[str, Any] = {}
    with contextlib.redirect_stdout(out):
        exec(compile(code, "RULES.md", "exec"), names)  # the book's own code, as a reader runs it
    return out.getvalue(), names


def test_the_rules_book_derives_the_seed_as_the_judge_does() -> None:
    code, printed = _python_block("Auditing the civil-disorder player")
    said, names = _run(code)
    assert said == printed
    for secret, turn, side in (("example-seed", "spring-1924", "valley"), ("s3cret", "fall-1901-retreats", "FRA")):
        assert names["civil_disorder_seed"](secret, turn, side) == civil_disorder_seed(secret, turn, side)
    assert civil_disorder_seed("example-seed", "spring-1925", "valley") in said  # the seed of the cases' files
    case = _case("R26 the supports keep a district")
    assert (case["secret"], case["turn"], case["side"]) == ("example-seed", "spring-1925", "valley")


def test_the_rules_book_draws_the_raids_as_it_says() -> None:
    code, printed = _python_block("Auditing the raid draw")
    said, _ = _run(code)
    assert said == printed


# -- the cases -----------------------------------------------------------------------------------


def _gang_state(case: dict[str, Any]) -> GameState:
    st = GameState(turn=case["turn"], price=CHICAGO.scenario.price)
    for gang, units in case["units"].items():
        for text in units:
            st.units.append(GangUnit(text[2:], UnitKind(text[0]), gang))
    st.control = {d: gang for gang, ds in (case.get("control") or {}).items() for d in ds}
    st.normalise(CHICAGO)
    return st


def _phase_state(case: dict[str, Any]) -> ClassicState:
    data = {k: case[k] for k in ("units", "owners", "dislodged") if k in case}
    return classic_state.from_data({"phase": case["turn"], **data}, BOARD)


def _final(units: list[tuple[str, str]]) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for side, label in units:
        found.setdefault(side, []).append(label)
    return {side: sorted(labels) for side, labels in found.items()}


def _moonshine_case(case: dict[str, Any], seed: str) -> tuple[str, dict[str, list[str]]]:
    st = _gang_state(case)
    written = moonshine_cd.civil_disorder(CHICAGO, st, case["side"], seed)
    checked = read_orders(written.text, CHICAGO, st, case["side"])
    assert checked.ok, [line.message for line in checked.lines]
    orders: dict[UnitRef, UnitOrder] = {**_unit_orders(case["orders"]), **checked.unit_orders}
    out = adjudicate(CHICAGO, st, orders, checked.retreats)
    return written.text, _final([(u.gang, f"{u.kind.value} {u.district}") for u in out.units])


def _unit_orders(texts: list[str]) -> dict[UnitRef, UnitOrder]:
    orders = [parse_canonical(text) for text in texts]
    return {o.unit: o for o in orders if isinstance(o, UNIT_ORDER_TYPES)}


def _classic_case(case: dict[str, Any], seed: str) -> tuple[str, dict[str, list[str]]]:
    st = _phase_state(case)
    written = classic_cd.civil_disorder(BOARD, st, case["side"], case["player"], seed)
    ack = check_orders(BOARD, st, case["side"], written.text)
    assert ack.ok, ack.lines
    orders: dict[str, list[ClassicOrder]] = {case["side"]: [ln.order for ln in ack.lines if ln.order is not None]}
    for text in case["orders"]:
        order = parse_order(text)
        assert isinstance(order, ClassicMove | ClassicSupportMove)
        unit = st.unit_in(order.unit.province)
        assert unit is not None
        orders.setdefault(unit.power, []).append(order)
    nxt = adjudicate_phase(BOARD, st, orders).next_state
    return written.text, _final([(u.power, u.label()) for u in nxt.units])


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_case(case: dict[str, Any]) -> None:
    seed = civil_disorder_seed(case["secret"], case["turn"], case["side"])
    play_case = _moonshine_case if case["family"] == "moonshine" else _classic_case
    text, final = play_case(case, seed)
    assert text == Mark(case["player"], seed).line() + "\n" + case["writes"], case["description"]
    assert final == {side: sorted(units) for side, units in case["final"].items()}, case["description"]


def _case(name: str) -> dict[str, Any]:
    return next(c for c in CASES if c["name"] == name)


def test_without_the_players_supports_the_district_falls() -> None:
    """The first case's attack succeeds against units that merely hold (R12)."""
    case = _case("R26 the supports keep a district")
    st = _gang_state(case)
    orders = _unit_orders(case["orders"])
    out = adjudicate(CHICAGO, st, orders)
    assert UnitRef(UnitKind.H, "NSS") in out.dislodged
    kept = adjudicate(CHICAGO, st, {**orders, **read_orders(_written(case).text, CHICAGO, st, "valley").unit_orders})
    assert UnitRef(UnitKind.H, "NSS") not in kept.dislodged
    for supporter in (UnitRef(UnitKind.H, "LOO"), UnitRef(UnitKind.L, "BRO")):  # the supports of H NSS hold
        assert kept.results[supporter].code is ResultCode.SUPPORTED
    assert kept.results[UnitRef(UnitKind.H, "NSS")].code is ResultCode.CUT  # its own, of L BRO, is cut


def _written(case: dict[str, Any]) -> Written[Order]:
    seed = civil_disorder_seed(case["secret"], case["turn"], case["side"])
    return moonshine_cd.civil_disorder(CHICAGO, _gang_state(case), case["side"], seed)


def test_a_tie_is_drawn_from_the_seed() -> None:
    """Two districts as weak: the supported one depends on the seed, and each is drawn by some seed."""
    case = _case("R26 two districts as weak are drawn from the seed")
    st = _gang_state(case)
    chosen = set()
    for secret in ("example-seed", "other-seed", "third", "fourth", "fifth"):
        seed = civil_disorder_seed(secret, case["turn"], "valley")
        written = moonshine_cd.civil_disorder(CHICAGO, st, "valley", seed)
        support = next(o for o in written.orders if isinstance(o, SupportHold) and o.unit.district == "GRA")
        chosen.add(support.target.district)
    assert chosen == {"BRO", "KEN"}


def test_a_gang_with_every_unit_arrested_sells_all() -> None:
    st = GameState(turn="spring-1925", price=300, control={"LOO": "valley"})
    st.arrested.append(Arrested("LOO", UnitKind.H, "valley", "NSS"))
    seed = civil_disorder_seed("example-seed", st.turn, "valley")
    written = moonshine_cd.civil_disorder(CHICAGO, st, "valley", seed)
    assert written.orders == (Sell(None),)
    assert written.text.splitlines()[1:] == ["gang: valley", "sell all"]
    assert read_orders(written.text, CHICAGO, st, "valley").ok


# -- Moonshine: the simulated games' positions -------------------------------------------------------


@pytest.fixture(scope="module")
def positions() -> list[GameState]:
    return [p.state for p in play(CHICAGO, "civil disorder", 10)]


def _read_back(go: GangOrders) -> set[Order]:
    return {*go.unit_orders.values(), *go.retreats.values(), *([go.sell] if go.sell else [])}


def test_the_moonshine_player_is_deterministic_and_its_orders_read_back(positions: list[GameState]) -> None:
    files = 0
    for st in positions:
        for gang in CHICAGO.gangs:
            seed = civil_disorder_seed("simulation", st.turn, gang)
            written = moonshine_cd.civil_disorder(CHICAGO, st, gang, seed)
            again = moonshine_cd.civil_disorder(CHICAGO, st.copy(), gang, seed)
            assert again.text.encode() == written.text.encode()
            go = read_orders(written.text, CHICAGO, st, gang)
            assert go.ok and not go.unordered, (st.turn, gang, [ln.message for ln in go.lines if ln.message])
            assert _read_back(go) == set(written.orders)
            assert not go.recruits and not go.disbands and not go.bribes and go.store is None
            assert len(written.text.splitlines()) == len(written.orders) + 2  # the mark, the gang, one order a line
            files += 1
    assert files >= 60


def test_the_adjudicator_carries_out_every_order_the_player_writes(positions: list[GameState]) -> None:
    """Against the computer players' random orders: no order rejected, no support void."""
    rng = random.Random(26)
    for st in positions:
        gang = rng.choice(list(CHICAGO.gangs))
        plans = random_plans(CHICAGO, st, rng)
        orders = {ref: o for plan in plans.values() if plan.gang != gang for ref, o in plan.unit_orders.items()}
        go = read_orders(_text(CHICAGO, st, gang), CHICAGO, st, gang)
        out = adjudicate(CHICAGO, st, {**orders, **go.unit_orders}, go.retreats)
        for ref in go.unit_orders:
            assert out.results[ref].code not in (ResultCode.REJECTED, ResultCode.VOID), out.results[ref].reason


def _text(gmap: GameMap, st: GameState, gang: str) -> str:
    return moonshine_cd.civil_disorder(gmap, st, gang, civil_disorder_seed("adjudicated", st.turn, gang)).text


_DIGEST = """
import hashlib, sys
sys.path[:0] = sys.argv[1:]  # this module's folder, the kits'
from test_civil_disorder import BOARD, CHICAGO, CLASSIC_POSITIONS, civil_disorder_seed, play, sides_to_order
from test_civil_disorder import classic_cd, moonshine_cd
digest = hashlib.sha256()
for p in play(CHICAGO, "civil disorder", 10):
    for gang in CHICAGO.gangs:
        seed = civil_disorder_seed("x", p.state.turn, gang)
        digest.update(moonshine_cd.civil_disorder(CHICAGO, p.state, gang, seed).text.encode())
for st in CLASSIC_POSITIONS:
    for power in sides_to_order(st):
        for player in ("hold", "smart"):
            seed = civil_disorder_seed("x", st.phase.name, power)
            digest.update(classic_cd.civil_disorder(BOARD, st, power, player, seed).text.encode())
print(digest.hexdigest())
"""


def test_the_same_bytes_in_another_process() -> None:
    """The judge writes the file and ``verify-cd`` recomputes it in other processes,
    where sets iterate in another order (PYTHONHASHSEED): the files are the same."""
    import os
    import subprocess
    import sys

    digests = set()
    for hash_seed in ("0", "1"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        done = subprocess.run(
            [sys.executable, "-c", _DIGEST, str(Path(__file__).parent), str(ROOT / "tests" / "kit")],
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
        digests.add(done.stdout.strip())
    assert len(digests) == 1 and len(digests.pop()) == 64


# -- classic: random positions of the standard board -------------------------------------------------

POWERS = sorted(BOARD.powers)
PLACES = sorted(p for p in BOARD.provinces if BOARD.near[p])  # Switzerland borders nothing


def _unit(rng: random.Random, power: str, prov: str) -> Unit:
    kinds = ([Kind.ARMY] if not BOARD.is_sea(prov) else []) + ([Kind.FLEET] if BOARD.fleet_regions(prov) else [])
    kind = rng.choice(kinds)
    region = rng.choice(BOARD.fleet_regions(prov)) if kind is Kind.FLEET else prov
    return Unit(power, kind, region)


def classic_position(rng: random.Random, step: Step) -> ClassicState:
    """Units of every power on a random third of the board, centres owned at random;
    in a retreat phase, some units dislodged from a neighbouring province and a
    province left empty by a standoff."""
    chosen = rng.sample(PLACES, rng.randint(8, 30))
    units = [_unit(rng, rng.choice(POWERS), p) for p in chosen]
    owners = {c: rng.choice(POWERS) for c in rng.sample(BOARD.supply_centres, rng.randint(10, 30))}
    season = Season.WINTER if step is Step.ADJUSTMENTS else rng.choice([Season.SPRING, Season.FALL])
    st = ClassicState(Phase(1902, season, step), units, owners)
    if step is Step.RETREATS:
        for u in rng.sample(units, len(units) // 4):
            st.units.remove(u)
            st.dislodged.append(Dislodged(u.power, u.kind, u.region, rng.choice(sorted(BOARD.near[u.province]))))
        taken = {u.province for u in st.units}
        st.contested = [p for p in rng.sample(PLACES, 3) if p not in taken]
    st.normalise()
    return st


def _classic_positions() -> list[ClassicState]:
    rng = random.Random(1901)
    return [classic_position(rng, step) for step in (Step.MOVEMENT, Step.RETREATS, Step.ADJUSTMENTS) for _ in range(40)]


CLASSIC_POSITIONS = _classic_positions()


def sides_to_order(st: ClassicState) -> list[str]:
    """The powers with orders to write in a classic position (its dislodged units' in a retreat)."""
    if st.phase.step is Step.RETREATS:
        return sorted({d.power for d in st.dislodged})
    return sorted({u.power for u in st.units} | set(st.owners.values()))


@pytest.mark.parametrize("player", [HOLD, SMART])
def test_the_classic_player_is_deterministic_and_its_orders_read_back(player: str) -> None:
    files = 0
    for st in CLASSIC_POSITIONS:
        for power in sides_to_order(st):
            seed = civil_disorder_seed("classic", st.phase.name, power)
            written = classic_cd.civil_disorder(BOARD, st, power, player, seed)
            assert classic_cd.civil_disorder(BOARD, st, power, player, seed).text.encode() == written.text.encode()
            ack = check_orders(BOARD, st, power, written.text)
            assert ack.ok, (st.phase.name, power, [(ln.text, ln.problem, ln.detail) for ln in ack.lines if not ln.ok])
            assert tuple(ln.order for ln in ack.lines if ln.order is not None) == written.orders
            if st.phase.step is not Step.ADJUSTMENTS:
                assert not ack.unordered, (st.phase.name, power, ack.unordered)
            files += 1
    assert files >= 300


@pytest.mark.parametrize("step", list(Step))
def test_the_hold_player_is_the_rulebooks_civil_disorder(step: Step) -> None:
    """The phase ends as it would with no orders from the power at all."""
    for st in (s for s in CLASSIC_POSITIONS if s.phase.step is step):
        for power in sides_to_order(st):
            written = classic_cd.civil_disorder(BOARD, st, power, HOLD, civil_disorder_seed("x", st.phase.name, power))
            with_orders = adjudicate_phase(BOARD, st, {power: list(written.orders)}).next_state
            without = adjudicate_phase(BOARD, st, {}).next_state
            assert with_orders == without, (st.phase.name, power, written.text)


@pytest.mark.parametrize("preset", ["2023", "webdiplomacy", "droidippy"])
def test_the_civil_disorder_removals_follow_the_games_rulebook(preset: str) -> None:
    """A power owing removals loses, under each preset, the units that preset's civil
    disorder removes (``rules: {preset: ...}``): the same phase as with no orders."""
    from moonshine.variants.classic.rulebooks import rulebook

    rules = rulebook(preset)
    # Germany owns Holland alone, with armies in Belgium and Silesia: one must go. From
    # the centres it owns (2023) Silesia is the farther; from its home centres
    # (webDiplomacy, Droidippy) Belgium is.
    st = ClassicState(
        Phase(1902, Season.WINTER, Step.ADJUSTMENTS),
        [Unit("GER", Kind.ARMY, "BEL"), Unit("GER", Kind.ARMY, "SIL"), Unit("FRA", Kind.ARMY, "PAR")],
        {"HOL": "GER", "PAR": "FRA"},
    )
    for player in (HOLD, SMART):
        written = classic_cd.civil_disorder(
            BOARD, st, "GER", player, civil_disorder_seed("x", "winter-1902", "GER"), rules
        )
        assert [o.text() for o in written.orders] == ["A SIL D" if preset == "2023" else "A BEL D"], player
        with_orders = adjudicate_phase(BOARD, st, {"GER": list(written.orders)}, rules).next_state
        assert with_orders == adjudicate_phase(BOARD, st, {}, rules).next_state
    checked = 0
    for st in (s for s in CLASSIC_POSITIONS if s.phase.step is Step.ADJUSTMENTS):
        for power in sides_to_order(st):
            written = classic_cd.civil_disorder(
                BOARD, st, power, HOLD, civil_disorder_seed("x", st.phase.name, power), rules
            )
            with_orders = adjudicate_phase(BOARD, st, {power: list(written.orders)}, rules).next_state
            assert with_orders == adjudicate_phase(BOARD, st, {}, rules).next_state, (st.phase.name, power)
            checked += 1
    assert checked >= 10


def test_the_smart_player_retreats_and_builds_where_it_may() -> None:
    """Its retreats and builds all succeed when no other power orders anything."""
    checked = 0
    for st in (s for s in CLASSIC_POSITIONS if s.phase.step is not Step.MOVEMENT):
        for power in sides_to_order(st):
            written = classic_cd.civil_disorder(BOARD, st, power, SMART, civil_disorder_seed("x", st.phase.name, power))
            done = adjudicate_phase(BOARD, st, {power: list(written.orders)})
            for order, result in zip(written.orders, (r for r in done.results if r.power == power), strict=False):
                if isinstance(order, ClassicRetreat | Build):
                    assert result.succeeded, (st.phase.name, power, order.text(), result.reason)
                    checked += 1
    assert checked >= 20


def test_the_smart_player_covers_every_home_centre_it_can() -> None:
    """Movement: every empty home centre the power owns that another power could
    enter gets a move of the power's when one of its units off the supply centres is
    next to it; no unit on a home centre moves."""
    covered = 0
    for st in (s for s in CLASSIC_POSITIONS if s.phase.step is Step.MOVEMENT):
        taken = {u.province for u in st.units}
        for power in sides_to_order(st):
            written = classic_cd.civil_disorder(BOARD, st, power, SMART, civil_disorder_seed("x", st.phase.name, power))
            moved = {o.unit.province: o.dest for o in written.orders if isinstance(o, ClassicMove)}
            assert not set(moved) & set(BOARD.home_centres(power))
            for centre in BOARD.home_centres(power):
                if st.owners.get(centre) != power or centre in taken:
                    continue
                threat = any(u.power != power and _could_enter(BOARD, u, centre) for u in st.units)
                able = any(
                    u.power == power and u.province not in BOARD.supply_centres and _could_enter(BOARD, u, centre)
                    for u in st.units
                )
                entered = any(dest.split("/")[0] == centre for dest in moved.values())
                assert entered == (threat and able), (st.phase.name, power, centre, written.text)
                covered += entered
    assert covered >= 1


def _could_enter(board: ClassicMap, u: Unit, prov: str) -> bool:
    if u.kind is Kind.ARMY:
        return prov in board.army_nb[u.province]
    return bool(board.fleet_targets(u.region, prov))


# -- the game directory and the command ---------------------------------------------------------------


@pytest.fixture
def game(tmp_path: Path) -> Game:
    done = CliRunner().invoke(main, ["new", str(tmp_path / "g"), "--seed", "example-seed", "--no-git"])
    assert done.exit_code == 0, done.output
    return Game(tmp_path / "g")


def test_write_then_verify(game: Game) -> None:
    path = write_civil_disorder(game, "spring-1924", "valley")
    assert path == game.root / "orders" / "spring-1924" / "valley.txt"
    found = verify_civil_disorder(game, "spring-1924", "valley", "example-seed")
    assert found.matches and found.player == "keep"
    assert found.seed == civil_disorder_seed("example-seed", "spring-1924", "valley")
    assert read_mark(path.read_text(encoding="utf-8")) == Mark("keep", found.seed)
    path.write_text(path.read_text(encoding="utf-8").replace("sell all", "sell 3"), encoding="utf-8")
    changed = verify_civil_disorder(game, "spring-1924", "valley")
    assert not changed.matches and changed.expected == found.expected


def test_the_adjudication_carries_out_the_written_file(game: Game) -> None:
    """``moonshine adjudicate`` reads the marked file as a player's: every line is
    accepted (the mark is a comment, the gang line a header)."""
    write_civil_disorder(game, "spring-1924", "valley")
    adjudicate_game(game, "spring-1924", commit=False, reports=False)
    results = yaml.safe_load((game.turn_dir("spring-1924") / "results.yaml").read_text(encoding="utf-8"))
    lines = results["gangs"]["valley"]["lines"]
    assert [ln["status"] for ln in lines] == ["header"] + ["accepted"] * (len(lines) - 1)
    assert lines[-1]["understood"] == "sell all"


def test_verify_cd(game: Game) -> None:
    runner = CliRunner()
    args = ["verify-cd", "spring-1924", "Valley Gang", "--game", str(game.root)]
    missing = runner.invoke(main, args)
    assert missing.exit_code == 1 and "there is no such file" in missing.output
    assert "# civil disorder: keep (R26), seed" in missing.output and "sell all" in missing.output
    write_civil_disorder(game, "spring-1924", "valley")
    done = runner.invoke(main, [*args, "--seed", "example-seed"])
    assert done.exit_code == 0 and "is exactly the civil-disorder player's orders (keep, R26" in done.output
    wrong = runner.invoke(main, [*args, "--seed", "not-the-seed"])
    assert wrong.exit_code == 1 and "Error: this seed's SHA-256 is not the one" in wrong.output
    player = runner.invoke(main, [*args, "--player", "smart"])
    assert player.exit_code == 1 and "Error: no civil-disorder player 'smart'" in player.output
    nobody = runner.invoke(main, ["verify-cd", "spring-1924", "nobody", "--game", str(game.root)])
    assert nobody.exit_code == 1 and "Error: no gang 'nobody'" in nobody.output


def test_verify_cd_on_a_classic_game(tmp_path: Path) -> None:
    """A classic game keeps a secret seed from its creation (its hash in game.yaml),
    which the civil-disorder player draws from; anyone checks its orders with it."""
    runner = CliRunner()
    root = tmp_path / "c"
    made = runner.invoke(main, ["new", str(root), "--variant", "classic", "--no-git", "--seed", "s3cret"])
    assert made.exit_code == 0 and f"Seed hash (publish it): {seed_hash('s3cret')}" in made.output
    assert Game(root).config.seed_sha256 == seed_hash("s3cret")
    args = ["verify-cd", "spring-1901", "France", "--game", str(root)]
    seed = civil_disorder_seed("s3cret", "spring-1901", "FRA")
    written = classic_cd.civil_disorder(BOARD, classic_state.initial_state(BOARD), "FRA", SMART, seed)
    (root / "orders" / "spring-1901" / "FRA.txt").write_text(written.text, encoding="utf-8")
    done = runner.invoke(main, [*args, "--seed", "s3cret"])
    assert done.exit_code == 0 and "(smart, R26" in done.output, done.output
    assert runner.invoke(main, args).exit_code == 0  # the game's own secret
    wrong = runner.invoke(main, [*args, "--seed", "not-the-seed"])
    assert wrong.exit_code == 1 and "SHA-256 is not the one" in wrong.output


def test_a_classic_game_without_a_seed_gets_one_when_it_needs_it(tmp_path: Path) -> None:
    """A classic game of an earlier version has no secret seed: the civil-disorder
    player cannot draw; ``ensure_secret`` makes one, publishes its hash in game.yaml and
    commits it (never the seed) before anything is drawn; a second call changes nothing."""
    import subprocess

    from moonshine.game.civil_disorder import ensure_secret

    root = tmp_path / "c"
    assert CliRunner().invoke(main, ["new", str(root), "--variant", "classic"]).exit_code == 0
    (root / SECRET_FILE).unlink()
    text = (root / "game.yaml").read_text(encoding="utf-8")
    (root / "game.yaml").write_text(re.sub(r"(?m)^seed_sha256: .*\n", "", text), encoding="utf-8")
    subprocess.run(["git", "commit", "-qam", "as an earlier version made it"], cwd=root, check=True)
    game = Game(root)
    assert game.config.seed_sha256 == ""
    unseeded = CliRunner().invoke(main, ["verify-cd", "spring-1901", "France", "--game", str(root)])
    assert unseeded.exit_code == 1 and "no secret seed" in unseeded.output
    made = ensure_secret(game)
    assert made is not None and Game(root).config.seed_sha256 == made
    assert seed_hash((root / SECRET_FILE).read_text(encoding="utf-8").strip()) == made
    shown = subprocess.run(["git", "show", "HEAD:game.yaml"], cwd=root, capture_output=True, text=True, check=True)
    assert f"seed_sha256: {made}" in shown.stdout
    tracked = subprocess.run(["git", "ls-files"], cwd=root, capture_output=True, text=True, check=True).stdout
    assert SECRET_FILE not in tracked
    assert ensure_secret(Game(root)) is None
    path = write_civil_disorder(Game(root), "spring-1901", "FRA")
    assert verify_civil_disorder(Game(root), "spring-1901", "FRA").matches and path.is_file()
