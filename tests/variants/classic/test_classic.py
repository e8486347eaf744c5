"""The classic variant around the DATC run (tests/variants/classic/test_datc.py): the board, the
order notation, the state file, the sequence of phases, the game directory and
the CLI, and the two chapter 6 cases the DATC data lacks (6.D.16, 6.J.5)."""

from __future__ import annotations

import importlib
import re
import subprocess
import sys
from pathlib import Path

import frtypo
import pytest
import yaml
from click.testing import CliRunner, Result
from hypothesis import given, settings
from hypothesis import strategies as st
from repokit import ROOT

from moonshine.cli import main
from moonshine.errors import StateError
from moonshine.game.directory import load_config
from moonshine.variants.classic import orders as orders_mod
from moonshine.variants.classic import state as state_mod
from moonshine.variants.classic.adjustments import adjudicate_adjustments
from moonshine.variants.classic.board import Kind, standard_map
from moonshine.variants.classic.movement import adjudicate_movement
from moonshine.variants.classic.orders import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    OrderError,
    Retreat,
    SupportHold,
    SupportMove,
    Target,
    UnitRef,
    Waive,
    parse_order,
)
from moonshine.variants.classic.phases import adjudicate_phase
from moonshine.variants.classic.state import ClassicState, Phase, Season, Step, Unit, initial_state

GMAP = standard_map()
POWERS = GMAP.powers


def _orders(**by_power: list[str]) -> dict[str, list[Order]]:
    return {p: [parse_order(t) for t in ts] for p, ts in by_power.items()}


def _units(**by_power: list[str]) -> list[Unit]:
    return [Unit(p, Kind(t[0]), t[2:]) for p, ts in by_power.items() for t in ts]


# -- the board ------------------------------------------------------------------------


def test_board_has_the_standard_provinces_centres_and_homes() -> None:
    assert len(GMAP.provinces) == 76  # with Switzerland, which no border reaches
    assert not GMAP.near["SWI"]
    assert len(GMAP.supply_centres) == 34
    assert sum(len(GMAP.home_centres(p)) for p in POWERS) == 22
    assert GMAP.home_centres("RUS") == ("MOS", "SEV", "STP", "WAR")
    assert GMAP.fleet_regions("STP") == ("STP/NC", "STP/SC")
    assert GMAP.fleet_regions("MOS") == ()


def test_board_has_the_borders_missing_from_the_published_csv() -> None:
    assert GMAP.army_adjacent("NWY", "STP")
    assert GMAP.fleet_targets("NWY", "STP") == ("STP/NC",)
    assert GMAP.fleet_targets("BOT", "STP") == ("STP/SC",)
    assert {"FIN", "LVN", "SWE", "BAL", "STP/SC"} == set(GMAP.fleet_nb["BOT"])
    assert GMAP.fleet_targets("CON", "SMY") == ("SMY",)
    assert GMAP.fleet_targets("MAO", "SPA") == ("SPA/NC", "SPA/SC")
    assert GMAP.army_adjacent("GAL", "UKR") and GMAP.army_adjacent("LVN", "WAR")
    assert GMAP.fleet_targets("TYS", "TUS") == ("TUS",)
    # and the ones a board must not have
    assert not GMAP.fleet_targets("ROM", "VEN")
    assert GMAP.army_adjacent("ANK", "SMY")
    assert not GMAP.fleet_targets("ANK", "SMY")  # armies only


# -- orders ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "order"),
    [
        ("A PAR H", Hold(UnitRef(Kind.ARMY, "PAR"))),
        ("A PAR - BUR", Move(UnitRef(Kind.ARMY, "PAR"), "BUR")),
        ("A LON - NWY via convoy", Move(UnitRef(Kind.ARMY, "LON"), "NWY", True)),
        ("F STP/SC - BOT", Move(UnitRef(Kind.FLEET, "STP/SC"), "BOT")),
        ("F NTH C A LON - NWY", Convoy(UnitRef(Kind.FLEET, "NTH"), Target(Kind.ARMY, "LON"), "NWY")),
        ("A MUN S A PAR - BUR", SupportMove(UnitRef(Kind.ARMY, "MUN"), Target(Kind.ARMY, "PAR"), "BUR")),
        ("A MUN S A PAR", SupportHold(UnitRef(Kind.ARMY, "MUN"), Target(Kind.ARMY, "PAR"))),
        ("A PAR R BUR", Retreat(UnitRef(Kind.ARMY, "PAR"), "BUR")),
        ("A PAR D", Disband(UnitRef(Kind.ARMY, "PAR"))),
        ("F LON B", Build(UnitRef(Kind.FLEET, "LON"))),
        ("A PAR B", Build(UnitRef(Kind.ARMY, "PAR"))),
        ("WAIVE", Waive()),
    ],
)
def test_canonical_orders_read_back(text: str, order: Order) -> None:
    assert parse_order(text) == order
    assert order.text() == text


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("f nth -> pic", "F NTH - PIC"),
        ("F spa(nc) supports F mar -> lyo", "F SPA/NC S F MAR - LYO"),
        ("F nth convoys yor -> yor", "F NTH C YOR - YOR"),
        ("A gre -> sev via Convoy", "A GRE - SEV via convoy"),
        ("A tri holds", "A TRI H"),
        ("army par - bur", "A PAR - BUR"),
        ("F stp build", "F STP B"),
        ("build A war", "A WAR B"),
        ("remove A pic", "A PIC D"),
        ("A PAR-BUR", "A PAR - BUR"),
        ("A PAR R - BUR", "A PAR R BUR"),
    ],
)
def test_usual_variants_read_to_the_canonical_form(text: str, canonical: str) -> None:
    assert parse_order(text).text() == canonical


@pytest.mark.parametrize(
    ("text", "complaint"),
    [
        ("", "empty order"),
        ("PAR - BUR", "expected a unit (A or F) at 'PAR'"),
        ("A PARIS - BUR", "'PARIS' is not a province code"),
        ("A PAR X BUR", "'X' is not an order"),
        ("A PAR - BUR BUR", "unexpected 'BUR' at the end"),
        ("F NTH C A LON", "a convoy needs a destination"),
    ],
)
def test_unreadable_orders_say_what_is_wrong_and_quote_the_input(text: str, complaint: str) -> None:
    with pytest.raises(OrderError) as err:
        parse_order(text)
    assert complaint in str(err.value)
    assert repr(text) in str(err.value)


_REGIONS = sorted(GMAP.regions)
_region = st.sampled_from(_REGIONS)
_unit = st.builds(UnitRef, st.sampled_from(list(Kind)), _region)
_target = st.builds(Target, st.one_of(st.none(), st.sampled_from(list(Kind))), _region)
_order = st.one_of(
    st.builds(Hold, _unit),
    st.builds(Move, _unit, _region, st.booleans()),
    st.builds(SupportHold, _unit, _target),
    st.builds(SupportMove, _unit, _target, _region),
    st.builds(Convoy, _unit, _target, _region),
    st.builds(Retreat, _unit, _region),
    st.builds(Disband, _unit),
    st.builds(Build, _unit),
    st.just(Waive()),
)


@settings(max_examples=300, deadline=None)
@given(_order)
def test_every_order_has_one_canonical_text_that_reads_back(order: Order) -> None:
    text = order.text()
    assert parse_order(text) == order
    assert parse_order(text.lower()) == order


_written = st.lists(
    st.sampled_from(["A", "F", "a", "H", "S", "C", "-", "->", "via", "convoy", "PAR", "STP/SC", "stp/nc", "XYZ", ""])
    | _region,
    max_size=8,
).map(" ".join)


@settings(max_examples=400, deadline=None)
@given(st.one_of(_order.map(lambda o: o.text()), _written))
def test_the_one_match_reader_agrees_with_the_tokenising_reader(text: str) -> None:
    fast = orders_mod._canonical(text)
    try:
        slow: Order | str = orders_mod._read(text)
    except OrderError as err:
        slow = str(err)
    if fast is not None:
        assert fast == slow
    if isinstance(slow, Hold | Move | SupportHold | SupportMove | Convoy) and text == slow.text():
        assert fast == slow  # a canonical movement order is read in one match


# -- the state file --------------------------------------------------------------------


def test_state_round_trips_through_yaml() -> None:
    s = initial_state(GMAP)
    s.phase = Phase.parse("fall-1902-retreats")
    s.dislodged = [state_mod.Dislodged("TUR", Kind.FLEET, "BUL/SC", "GRE", True)]
    s.contested = ["BOH"]
    back = state_mod.from_data(yaml.safe_load(state_mod.dumps(s)), GMAP)
    assert back == s
    assert state_mod.dumps(back) == state_mod.dumps(s)


def test_state_errors_name_the_key_and_quote_the_input() -> None:
    data = state_mod.to_data(initial_state(GMAP))
    data["units"]["FRA"].append("F PAR")
    with pytest.raises(StateError) as err:
        state_mod.from_data(data, GMAP, "state.yaml")
    assert "state.yaml: units.FRA" in str(err.value) and "'F PAR'" in str(err.value)
    data = state_mod.to_data(initial_state(GMAP))
    data["units"]["GER"].append("A PAR")
    with pytest.raises(StateError, match="two units in PAR"):
        state_mod.from_data(data, GMAP)


@pytest.mark.parametrize(
    "name", ["spring-1901", "spring-1901-retreats", "fall-1907", "fall-1907-retreats", "winter-1910"]
)
def test_phase_names_read_back(name: str) -> None:
    assert Phase.parse(name).name == name


def test_bad_phase_names_are_refused() -> None:
    for bad in ("winter-1901-retreats", "summer-1901", "spring-01"):
        with pytest.raises(ValueError, match="is not a phase name"):
            Phase.parse(bad)


# -- the two chapter 6 cases missing from the data ----------------------------------------


def test_datc_6d16_convoying_a_unit_dislodging_a_unit_of_same_power_is_allowed() -> None:
    units = _units(ENG=["A LON", "F NTH"], FRA=["F ENG", "A BEL"])
    out = adjudicate_movement(
        GMAP, units, _orders(ENG=["A LON H", "F NTH C A BEL - LON"], FRA=["F ENG S A BEL - LON", "A BEL - LON"])
    )
    assert [(d.power, d.label(), d.attacker_from) for d in out.dislodged] == [("ENG", "A LON", "BEL")]
    assert Unit("FRA", Kind.ARMY, "LON") in out.units


def test_datc_6j5_civil_disorder_two_fleets_with_different_distance() -> None:
    owners = {c: p for p in POWERS for c in GMAP.home_centres(p)}
    for c in ("MOS", "WAR", "SEV"):
        owners[c] = "GER"
    out = adjudicate_adjustments(GMAP, _units(RUS=["F SKA", "F BER"]), owners, {})
    assert [u.label() for u in out.civil_disorder] == ["F BER"]  # three steps from St Petersburg, Skagerrak two


# -- results read like a referee's -------------------------------------------------------


def test_results_give_reasons() -> None:
    s = initial_state(GMAP)
    out = adjudicate_movement(
        GMAP,
        s.units,
        _orders(
            FRA=["A PAR - BUR", "A MAR S A PAR - BUR", "F BRE - SPA"],
            GER=["A MUN - BUR", "A BER - MUN"],
            ENG=["F LON - NTH", "F EDI - NTH"],
            ITA=["A VEN - TRI"],
        ),
    )
    reason = {r.unit: r.reason for r in out.results}
    assert reason["A PAR"] == "moved to BUR with A MAR's support"
    assert reason["A MAR"] == "support given"
    assert reason["A MUN"] == "bounced: A MUN (1) against A PAR with A MAR's support (2)"
    assert reason["A BER"] == "blocked by own A MUN"
    assert reason["F BRE"] == "illegal: a fleet in BRE cannot reach SPA; it held"
    assert reason["F LON"] == "bounced: F LON (1) against F EDI (1)"
    assert reason["A VEN"] == "held off: A VEN (1) against F TRI (1)"
    assert out.contested == ["NTH"]


def test_results_are_values_explained_in_the_readers_language() -> None:
    """The classic results are outcomes (who bounced whom, with which supports and
    strengths), and a French report explains them in French."""
    from moonshine.engine import outcome as oc
    from moonshine.game.families.classic import results_data
    from moonshine.render.classic.report import render_text
    from moonshine.variants.classic.phases import adjudicate_phase

    s = initial_state(GMAP)
    orders = _orders(FRA=["A PAR - BUR", "A MAR S A PAR - BUR", "F BRE - SPA"], GER=["A MUN - BUR"])
    out = adjudicate_movement(GMAP, s.units, orders)
    value = {r.unit: r.outcome for r in out.results}
    assert value["A MUN"] == oc.Bounced(oc.Force(("A MUN",), 1), (oc.Force(("A PAR",), 2, ("A MAR",)),))
    assert value["A MAR"] == oc.SupportGiven(1)
    assert isinstance(value["F BRE"], oc.Rejected)
    phase = adjudicate_phase(GMAP, s, orders)
    data = results_data(phase, [])
    french = re.sub(r" *\n +", " ", render_text(GMAP, data, phase.next_state, power=None, language="fr"))
    assert frtypo.fr("aucune n'avance (standoff) : A MUN (1) contre A PAR avec le soutien d'A MAR (2)") in french
    assert frtypo.fr("illégal : une flotte en BRE ne peut pas atteindre SPA ; l'unité a tenu") in french
    assert "soutien apporté" in french
    assert "A MAR soutient A PAR - BUR   réussi" in french  # the orders in French notation
    english = re.sub(r" *\n +", " ", render_text(GMAP, data, phase.next_state, power=None, language="en"))
    assert "bounced: A MUN (1) against A PAR with A MAR's support (2)" in english
    assert "A MAR S A PAR - BUR" in english


def test_orders_for_other_powers_units_are_ignored_with_the_reason() -> None:
    s = initial_state(GMAP)
    out = adjudicate_movement(GMAP, s.units, _orders(GER=["F LON - NTH", "A PAR - PIC"], FRA=["A PIC - PAR"]))
    reasons = sorted(r.reason for r in out.ignored)
    assert reasons == [
        "ignored: the unit in LON is England's",
        "ignored: the unit in PAR is France's",
        "ignored: there is no unit in PIC",
    ]
    # the reason is a value: a French report words it in French, from the results file too
    from moonshine.game.families.classic import results_data
    from moonshine.render.classic.report import render_text
    from moonshine.variants.classic.phases import adjudicate_phase

    phase = adjudicate_phase(GMAP, s, _orders(GER=["F LON - NTH"], FRA=["A PIC - PAR"]))
    french = render_text(GMAP, results_data(phase, []), phase.next_state, power=None, language="fr")
    assert frtypo.fr("ignoré : il n'y a pas d'unité en PIC") in french
    words = " ".join(frtypo.plain(french).split())
    assert "ignoré : l'unité en LON appartient à une autre puissance (Angleterre)" in words
    assert "ignored" not in french
    assert not frtypo.plain_spaces(french)
    assert "FRA\u00a0: A PIC - PAR" in french  # the colon spaced as French writes it


# -- the sequence of phases ------------------------------------------------------------------


def test_a_year_spring_fall_centres_change_hands_winter_builds() -> None:
    s = initial_state(GMAP)
    out = adjudicate_phase(GMAP, s, _orders(FRA=["A MAR - SPA", "A PAR - BUR"]))
    s = out.next_state
    assert s.phase.name == "fall-1901"
    assert s.owners.get("SPA") is None  # centres change hands after the fall only
    out = adjudicate_phase(GMAP, s, _orders(FRA=["A SPA - POR", "A BUR - BEL"], ENG=["F LON - NTH"]))
    s = out.next_state
    assert s.phase.name == "winter-1901"
    assert s.owners["POR"] == "FRA" and s.owners["BEL"] == "FRA"
    assert "Portugal (POR) taken by France" in out.notes
    out = adjudicate_phase(GMAP, s, _orders(FRA=["A MAR B", "F MAR B", "A PAR B", "F BRE B"], ENG=["F LON B"]))
    got = [(r.order, r.succeeded) for r in out.results if r.power == "FRA"]
    assert got == [("A MAR B", True), ("F MAR B", False), ("A PAR B", True), ("F BRE B", False)]
    eng = [r.reason for r in out.results if r.power == "ENG"]
    assert eng == ["no build: England has no more supply centres than units (3 for 3)"]
    s = out.next_state
    assert s.phase.name == "spring-1902"
    assert len(s.units_of("FRA")) == 5


def test_a_dislodgement_opens_a_retreat_phase() -> None:
    units = _units(AUS=["A BUD", "A GAL"], RUS=["A RUM", "A UKR"])
    s = ClassicState(Phase(1905, Season.SPRING, Step.MOVEMENT), units, {})
    out = adjudicate_phase(GMAP, s, _orders(AUS=["A BUD - RUM", "A GAL S A BUD - RUM"], RUS=["A UKR - SEV"]))
    s = out.next_state
    assert s.phase.name == "spring-1905-retreats"
    assert [(d.label(), d.attacker_from) for d in s.dislodged] == [("A RUM", "BUD")]
    out = adjudicate_phase(GMAP, s, _orders(RUS=["A RUM R BUD"]))
    assert out.results[0].reason == "disbanded: cannot retreat to BUD: the attacker came from BUD"
    assert out.results[0].explain("fr").startswith(frtypo.fr("dissoute : ne peut pas retraiter en BUD : "))
    from moonshine.game.families.classic import results_data
    from moonshine.render.classic.report import render_text

    french = render_text(GMAP, results_data(out, []), out.next_state, power=None, language="fr")
    french = re.sub(r" *\n +", " ", french)
    assert frtypo.fr("dissoute : ne peut pas retraiter en BUD") in french  # the retreat's reason is a value too
    assert out.next_state.phase.name == "fall-1905"
    assert sorted(u.label() for u in out.next_state.units) == ["A GAL", "A RUM", "A SEV"]


def test_eighteen_centres_win() -> None:
    s = initial_state(GMAP)
    s.phase = Phase(1910, Season.FALL, Step.MOVEMENT)
    centres = [c for c in GMAP.supply_centres if c not in ("ANK", "CON", "SMY", "BUL", "GRE", "SER")][:17]
    s.owners = dict.fromkeys(centres, "ENG") | {c: "TUR" for c in ("ANK", "CON", "SMY")}
    s.units = _units(ENG=["A RUM"], TUR=["A ANK"])
    out = adjudicate_phase(GMAP, s, _orders(ENG=["A RUM - BUL"]))
    assert out.next_state.winner == "ENG"
    assert "England owns 18 supply centres and wins the game" in out.notes
    with pytest.raises(ValueError, match="the game is over"):
        adjudicate_phase(GMAP, out.next_state, {})


# -- the game directory and the CLI ----------------------------------------------------------


def test_new_classic_game_and_adjudicate_phases(tmp_path: Path) -> None:
    root = tmp_path / "dip"
    runner = CliRunner()
    result = runner.invoke(main, ["new", str(root), "--variant", "classic", "--title", "Club game"])
    assert result.exit_code == 0, result.output
    assert "first phase spring-1901" in result.output
    cfg = load_config(root / "game.yaml")
    assert cfg.variant == "classic" and set(cfg.players) == set(POWERS)
    orders = root / "orders" / "spring-1901"
    (orders / "GER.txt").write_text("# Germany\nA MUN - TYR\nA BER - MUN\nF KIE - DEN\n", encoding="utf-8")
    (orders / "austria.txt").write_text("A VIE - TYR\nF TRI - VEN\nA BUD S F TRI - VEN\nnonsense\n")
    (orders / "ITA.txt").write_text("A VEN H\n")
    result = runner.invoke(main, ["adjudicate", "spring-1901", "--game", str(root)])
    assert result.exit_code == 0, result.output
    assert "F TRI - VEN" in result.output and "A VEN H" in result.output
    assert "Unreadable: austria.txt:4: 'nonsense'" in result.output
    data = yaml.safe_load((root / "turns" / "spring-1901" / "results.yaml").read_text())
    assert data["next"] == "fall-1901"
    assert {
        "order": "A MUN - TYR",
        "result": "fails",
        "reason": "bounced: A MUN (1) against A VIE (1)",
        "outcome": {
            "kind": "bounced",
            "attack": {"units": ["A MUN"], "strength": 1},
            "against": [{"units": ["A VIE"], "strength": 1}],
        },
    } in data["results"]["GER"]
    nxt = state_mod.load(root / "turns" / "fall-1901" / "state.yaml", GMAP)
    assert Unit("GER", Kind.FLEET, "DEN") in nxt.units
    log = subprocess.run(["git", "log", "--format=%s"], cwd=root, capture_output=True, text=True, check=True).stdout
    assert log.splitlines()[:2] == ["Adjudicate spring-1901", "New game: Club game, spring-1901"]
    again = runner.invoke(main, ["adjudicate", "spring-1901", "--game", str(root)])
    assert again.exit_code == 1
    assert "not the current phase (fall-1901)" in again.output


def test_a_bad_orders_file_is_left_out_and_the_others_are_adjudicated(tmp_path: Path) -> None:
    """A file named after no power, or one that is not text, is left out with the
    reason in the results; the other powers' orders (one of them in Windows-1252,
    as an old mail program saves it) are adjudicated."""
    root = tmp_path / "dip"
    runner = CliRunner()
    assert runner.invoke(main, ["new", str(root), "--variant", "classic", "--no-git"]).exit_code == 0
    orders = root / "orders" / "spring-1901"
    (orders / "FRA.txt").write_bytes("# Fran\xe7ais\nA PAR - BUR\n".encode("cp1252"))
    (orders / "prussia.txt").write_text("A MUN - BUR\n", encoding="utf-8")
    (orders / "GER.txt").write_bytes(b"\x00\x01binary")
    result = runner.invoke(main, ["adjudicate", "spring-1901", "--game", str(root), "--no-commit"])
    assert result.exit_code == 0, result.output
    assert "no power is called 'prussia'" in result.output and "the file is left out" in result.output
    assert "GER.txt: not a text file" in result.output
    data = yaml.safe_load((root / "turns" / "spring-1901" / "results.yaml").read_text(encoding="utf-8"))
    assert [r["result"] for r in data["results"]["FRA"] if r["order"] == "A PAR - BUR"] == ["succeeds"]
    assert len(data["unreadable"]) == 2


def test_adjudicating_an_earlier_phase_again_leaves_no_stale_phase(tmp_path: Path) -> None:
    """--force on the phase before the current one replaces the phase it led to (here a
    winter that no longer happens); with a later phase already adjudicated, it is
    refused with the rollback to use."""
    root = tmp_path / "dip"
    runner = CliRunner()
    assert runner.invoke(main, ["new", str(root), "--variant", "classic", "--no-git"]).exit_code == 0

    def play(phase: str, text: str, *more: str) -> Result:
        (root / "orders" / phase).mkdir(parents=True, exist_ok=True)
        (root / "orders" / phase / "FRA.txt").write_text(text, encoding="utf-8")
        return runner.invoke(main, ["adjudicate", phase, "--game", str(root), "--no-commit", *more])

    assert play("spring-1901", "A PAR - BUR\n").exit_code == 0
    assert play("fall-1901", "A BUR - BEL\n").exit_code == 0
    assert (root / "turns" / "winter-1901" / "state.yaml").is_file()  # France builds
    again = play("fall-1901", "A BUR H\n", "--force")
    assert again.exit_code == 0, again.output
    assert not (root / "turns" / "winter-1901").exists()  # nobody builds now
    assert (root / "turns" / "spring-1902" / "state.yaml").is_file()
    assert play("spring-1902", "A BUR - BEL\n").exit_code == 0
    refused = play("spring-1901", "A PAR - BUR\n", "--force")
    assert refused.exit_code == 1
    assert "phases after it: fall-1901, spring-1902, fall-1902" in refused.output
    assert "moonshine rollback spring-1901" in refused.output


def test_moonshine_games_keep_no_variant_key(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["new", str(tmp_path / "m"), "--seed", "x", "--no-git"])
    assert result.exit_code == 0, result.output
    assert "variant" not in (tmp_path / "m" / "game.yaml").read_text()
    assert load_config(tmp_path / "m" / "game.yaml").variant == "moonshine"


# -- the benchmark without the diplomacy package -----------------------------------------------


def test_benchmark_exits_0_with_a_message_without_diplomacy(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.syspath_prepend(str(ROOT))
    monkeypatch.setitem(sys.modules, "diplomacy", None)  # import diplomacy raises ImportError
    bench = importlib.import_module("bench.classic")
    assert bench.main() == 0
    assert "the 'diplomacy' package is not installed" in capsys.readouterr().out


def test_civil_disorder_of_a_power_with_no_home_centre_left() -> None:
    """Its units are removed by name (no home centre to be near): found by the whole-phase
    benchmark, where networkx was asked for distances to no province at all."""
    from moonshine.variants.classic.adjustments import civil_disorder_order
    from moonshine.variants.classic.board import Kind, standard_map
    from moonshine.variants.classic.state import Unit

    gmap = standard_map()
    assert gmap.distances_to([]) == {}
    units = [Unit("RUS", Kind.ARMY, "UKR"), Unit("RUS", Kind.FLEET, "BLA"), Unit("RUS", Kind.ARMY, "ARM")]
    # every unit as far as can be: fleets first, then by the province's name
    assert [u.province for u in civil_disorder_order(gmap, units, [])] == ["BLA", "ARM", "UKR"]
