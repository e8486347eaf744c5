"""A game's settings on keeping it moving (``moonshine.mail.policy``), read from
game.yaml as a game master writes them: the defaults (njudge's and Diplicity's),
``nmr:`` as one line or a mapping, ``early:`` in English, French or YAML's yes and
no, the pauses' lengths; a wrong value names its key."""

from __future__ import annotations

from datetime import timedelta

import pytest

from moonshine.errors import StateError
from moonshine.mail.policy import EARLY_ALWAYS, EARLY_NO, EARLY_READY, Policy, read_policy

CLASSIC = ("hold", "smart")
MOONSHINE = ("keep",)


def test_the_defaults_are_njudges_and_diplicitys() -> None:
    policy = read_policy({}, CLASSIC)
    assert policy == Policy()
    assert (policy.early, policy.disorder, policy.remove, policy.turns) == (EARLY_READY, 2, 3, "movement")
    assert policy.max_pause == timedelta(days=7) and policy.master_pause_max is None
    assert policy.player_of(CLASSIC) == "hold" and policy.player_of(MOONSHINE) == "keep"


@pytest.mark.parametrize(
    ("raw", "player", "disorder", "remove", "turns"),
    [
        ("smart", "smart", 2, 3, "movement"),
        ("off", "", 0, 0, "movement"),
        ("1 2", "", 1, 2, "movement"),
        ("smart 1/4 all", "smart", 1, 4, "all"),
        (4, "", 4, 3, "movement"),
        ({"player": "Hold", "disorder": 3, "remove": 0, "turns": "all"}, "hold", 3, 0, "all"),
    ],
)
def test_nmr_as_a_line_or_a_mapping(raw: object, player: str, disorder: int, remove: int, turns: str) -> None:
    policy = read_policy({"nmr": raw}, CLASSIC)
    assert (policy.player, policy.disorder, policy.remove, policy.turns) == (player, disorder, remove, turns)


def test_smart_in_a_moonshine_game_is_its_own_player() -> None:
    assert read_policy({"nmr": "smart"}, MOONSHINE).player_of(MOONSHINE) == "keep"


@pytest.mark.parametrize(
    ("raw", "early"),
    [
        ("no", EARLY_NO),
        (False, EARLY_NO),
        ("jamais", EARLY_NO),
        ("when all ready", EARLY_READY),
        ("Quand tous prêts", EARLY_READY),
        ("always", EARLY_ALWAYS),
        (True, EARLY_ALWAYS),
        ("toujours", EARLY_ALWAYS),
    ],
)
def test_early_in_either_language(raw: object, early: str) -> None:
    assert read_policy({"early": raw}, CLASSIC).early == early


@pytest.mark.parametrize(
    ("extra", "key", "words"),
    [
        ({"nmr": "sometimes"}, "nmr.player", "no civil-disorder player 'sometimes'"),
        ({"nmr": "1 2 3"}, "nmr", "at most two numbers"),
        ({"nmr": {"disorder": 99}}, "nmr.disorder", "at most 50 turns"),
        ({"nmr": {"after": 2}}, "nmr.after", "unknown key"),
        ({"nmr": {"turns": "some"}}, "nmr.turns", "expected movement or all"),
        ({"early": "soon"}, "early", "expected no, when all ready or always"),
        ({"max_pause": "90d"}, "max_pause", "expected from 1h to 60d"),
        ({"master_pause_max": "10m"}, "master_pause_max", "expected from 1h to 60d"),
        ({"max_pause": "a week"}, "max_pause", "expected a duration"),
    ],
)
def test_a_wrong_value_names_its_key(extra: dict[str, object], key: str, words: str) -> None:
    with pytest.raises(StateError) as caught:
        read_policy(extra, CLASSIC)
    assert caught.value.key == key and words in caught.value.problem


def test_the_pauses_lengths() -> None:
    policy = read_policy({"max_pause": "2d", "master_pause_max": "36h"}, MOONSHINE)
    assert policy.max_pause == timedelta(days=2) and policy.master_pause_max == timedelta(hours=36)
