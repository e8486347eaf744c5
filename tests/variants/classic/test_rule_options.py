"""The classic family's rule options and presets (moonshine.variants.classic.rulebooks):
each option changes the case it decides, game.yaml's ``rules:`` chooses them, and a
wrong value is an error naming the file, line, key and the values allowed."""

from __future__ import annotations

import pytest

from moonshine import schema
from moonshine.errors import StateError
from moonshine.game.directory import load_config_text
from moonshine.variants.classic import rulebooks
from moonshine.variants.classic.adjustments import adjudicate_adjustments, civil_disorder_removals
from moonshine.variants.classic.board import Kind, standard_map
from moonshine.variants.classic.movement import adjudicate_movement
from moonshine.variants.classic.orders import parse_order
from moonshine.variants.classic.rules import CLASSIC
from moonshine.variants.classic.state import Unit

GMAP = standard_map()


def _units(**by_power: list[str]) -> list[Unit]:
    return [Unit(p, Kind(t.split()[0]), t.split()[1]) for p, labels in by_power.items() for t in labels]


def _book(**options: str) -> rulebooks.Rulebook:
    return rulebooks.rulebook("2023", options)


def _moved(units: list[Unit], orders: dict[str, list[str]], book: rulebooks.Rulebook) -> list[str]:
    out = adjudicate_movement(GMAP, units, {p: [parse_order(o) for o in os] for p, os in orders.items()}, rules=book)
    return sorted(u.label() for u in out.units)


def test_the_default_preset_is_the_classic_book() -> None:
    assert rulebooks.rulebook() is CLASSIC
    assert rulebooks.preset_of(CLASSIC) == "2023"
    assert rulebooks.choices(rulebooks.rulebook("webdiplomacy"))["civil_disorder"] == "home-distance"


def test_the_schema_knows_every_option() -> None:
    assert tuple(rulebooks.OPTIONS) == schema.CLASSIC_RULE_OPTIONS


@pytest.mark.parametrize(
    ("rule", "removed"),
    [
        ("owned-distance", "A UKR"),  # 2023: Sweden is the one centre it owns
        ("home-distance", "A SWE"),  # from its home centres: Sweden is two from St Petersburg, Ukraine one
        ("home-distance-any-border", "A SWE"),
    ],
)
def test_civil_disorder_counts_from_owned_or_home_centres(rule: str, removed: str) -> None:
    units = _units(RUS=["A SWE", "A UKR"])
    owners = {"SWE": "RUS"}
    got = civil_disorder_removals(GMAP, "RUS", units, owners, 1, _book(civil_disorder=rule))
    assert [u.label() for u in got] == [removed]
    out = adjudicate_adjustments(GMAP, units, owners, {}, _book(civil_disorder=rule))
    assert [u.label() for u in out.civil_disorder] == [removed]


@pytest.mark.parametrize(
    ("rule", "removed"),
    [
        ("owned-distance", "F MAO"),
        ("home-distance", "F MAR"),  # a fleet counts its own moves: three each, Marseilles first by name
        ("home-distance-any-border", "F MAO"),  # Marseilles is two from Venice over land
    ],
)
def test_a_fleet_counts_as_it_moves_or_over_any_border(rule: str, removed: str) -> None:
    # Droidippy game 3561, winter 1908: Italy must remove one and orders no removal.
    units = _units(ITA=["A GAS", "A PIE", "A VEN", "F MAO", "F MAR", "F WES"])
    owners = dict.fromkeys(("MAR", "NAP", "ROM", "TUN", "VEN"), "ITA")
    got = civil_disorder_removals(GMAP, "ITA", units, owners, 1, _book(civil_disorder=rule))
    assert [u.label() for u in got] == [removed]


SWAP = _units(TUR=["A CON", "F AEG", "F BUL/EC"])
SWAP_ORDERS = {"TUR": ["A CON - BUL", "F AEG C A CON - BUL", "F BUL/EC - CON"]}


def test_convoy_intent_own_fleet_swaps_by_convoy() -> None:
    # webDiplomacy game 443777, fall 1907: the 2023 rulebook convoys the army (its own fleet convoys it)
    assert _moved(SWAP, SWAP_ORDERS, CLASSIC) == ["A BUL", "F AEG", "F CON"]


def test_convoy_intent_via_convoy_only_bounces_head_to_head() -> None:
    assert _moved(SWAP, SWAP_ORDERS, _book(convoy_intent="via-convoy")) == ["A CON", "F AEG", "F BUL/EC"]
    marked = {"TUR": ["A CON - BUL via convoy", "F AEG C A CON - BUL", "F BUL/EC - CON"]}
    assert _moved(SWAP, marked, _book(convoy_intent="via-convoy")) == ["A BUL", "F AEG", "F CON"]


def test_convoy_intent_any_fleet_follows_a_foreign_convoy() -> None:
    units = _units(TUR=["A CON", "F BUL/EC"], ITA=["F AEG"])
    orders = {"TUR": ["A CON - BUL", "F BUL/EC - CON"], "ITA": ["F AEG C A CON - BUL"]}
    assert _moved(units, orders, CLASSIC) == ["A CON", "F AEG", "F BUL/EC"]  # the land route: a head-to-head
    assert _moved(units, orders, _book(convoy_intent="any-fleet")) == ["A BUL", "F AEG", "F CON"]


def test_land_fallback_of_a_move_via_convoy_that_no_fleet_convoys() -> None:
    units = _units(ENG=["A YOR", "F NTH"])
    orders = {"ENG": ["A YOR - EDI via convoy", "F NTH H"]}
    assert _moved(units, orders, CLASSIC) == ["A YOR", "F NTH"]  # DATC v3: no convoy, no move
    assert _moved(units, orders, _book(convoy_fallback="land")) == ["A EDI", "F NTH"]  # DATC v2


def test_every_preset_is_made_of_known_options() -> None:
    for name, preset in rulebooks.PRESETS.items():
        book = rulebooks.rulebook(name)
        assert {k: v for k, v in rulebooks.choices(book).items() if k in preset.choices} == dict(preset.choices)


GAME = "title: t\nmap: classic\nvariant: classic\n"


def test_game_yaml_chooses_a_preset_and_overrides() -> None:
    cfg = load_config_text(GAME + "rules:\n  preset: webdiplomacy\n  civil_disorder: owned-distance\n", "game.yaml")
    assert cfg.rulebook is not None
    got = rulebooks.choices(cfg.rulebook)
    assert got["civil_disorder"] == "owned-distance"
    assert got["convoy_intent"] == "via-convoy"
    assert load_config_text(GAME + "rules: {preset: 2023}\n", "game.yaml").rulebook is CLASSIC
    assert load_config_text(GAME, "game.yaml").rulebook is None


@pytest.mark.parametrize(
    ("rules", "message"),
    [
        (
            "  preset: webdip\n",
            "game.yaml:5: rules.preset: expected one of 2023, webdiplomacy, droidippy, found 'webdip'",
        ),
        (
            "  preset: 2023\n  civil_disorder: nearest\n",
            "game.yaml:6: rules.civil_disorder: expected one of owned-distance, home-distance, "
            "home-distance-any-border, found 'nearest'",
        ),
        ("  victory_vp: 10\n", "game.yaml:5: rules.victory_vp: a house rule of Moonshine games"),
    ],
)
def test_a_wrong_rule_option_names_the_file_line_key_and_values(rules: str, message: str) -> None:
    with pytest.raises(StateError) as err:
        load_config_text(GAME + "rules:\n" + rules, "game.yaml")
    assert str(err.value).startswith(message)


def test_a_moonshine_game_refuses_a_classic_option() -> None:
    text = "title: t\nmap: chicago-1920s\nrules:\n  preset: webdiplomacy\n"
    with pytest.raises(StateError, match=r"game.yaml:4: rules.preset: a rule option of classic games"):
        load_config_text(text, "game.yaml")
