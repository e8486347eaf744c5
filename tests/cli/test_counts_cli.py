"""The command line counts as English does (issue 38, item 7): ``1 order``, ``2
orders``, ``1 gang``, ``2 powers``, never ``order(s)``: ``status`` and ``remind`` run
with one and with two of each thing they count, in a Moonshine and a classic game."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner, Result
from gamekit import make_game

from moonshine.cli import main
from moonshine.game.directory import Game

FIRST = {"moonshine": "spring-1924", "classic": "spring-1901"}
WORD = {"moonshine": ("gang", "gangs"), "classic": ("power", "powers")}


def run(game: Game, *args: str) -> Result:
    result = CliRunner().invoke(main, [*args, "--game", str(game.root)])
    assert result.exit_code == 0, result.output
    assert "(s)" not in result.output, result.output
    return result


def game_missing(tmp_path: Path, variant: str, missing: int) -> tuple[Game, list[str]]:
    """A game of ``variant`` whose sides all have an address, and orders on file from
    all but the last ``missing`` sides, the first of them received by mail with as many
    orders read as ``missing``; the sides without orders."""
    game = make_game(tmp_path / "g", variant=variant, emails=lambda side: [f"{side.lower()}@example.org"], deadlines={})
    turn = FIRST[variant]
    sides = list(game.sides())
    folder = game.orders_dir(turn)
    folder.mkdir(parents=True, exist_ok=True)
    for side in sides[:-missing]:
        (folder / f"{side}.txt").write_text(f"{game.side_word}: {side}\n", encoding="utf-8")
    received = {"received": "2024-02-28T10:00:00+00:00", "accepted": missing, "rejected": 0}
    log = {"current": {sides[0]: received}, "submissions": []}
    (folder / "inbox.yaml").write_text(yaml.safe_dump(log), encoding="utf-8")
    return game, sides[-missing:]


@pytest.mark.parametrize("variant", sorted(FIRST))
@pytest.mark.parametrize(
    ("missing", "order", "reminder"), [(1, "1 order)", "1 reminder"), (2, "2 orders)", "2 reminders")]
)
def test_status_and_remind_count_with_the_noun_that_agrees(
    tmp_path: Path, variant: str, missing: int, order: str, reminder: str
) -> None:
    game, late = game_missing(tmp_path, variant, missing)
    side = WORD[variant][missing != 1]
    status = run(game, "status")
    assert f"\n{missing} {side} without orders: {', '.join(late)}\n" in status.output
    assert order in status.output
    remind = run(game, "remind")
    assert f"\n{reminder} written to " in remind.output
