"""Every command on a sample game of every variant (Moonshine, classic, pure): it
works where it applies, or says clearly why not; never a traceback, never
"cannot read the map file"."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from moonshine.cli import main

VARIANTS = ("moonshine", "classic", "pure")
FIRST = {"moonshine": "spring-1924", "classic": "spring-1901", "pure": "spring-1901"}
SIDE = {"moonshine": "outfit", "classic": "FRA", "pure": "FRA"}
# One good order and one misspelt place for each variant's sample side.
ORDERS = {
    "moonshine": "gang: outfit\nL NOT H\n",
    "classic": "A PAR - BUR\nA MAR S A PAR - BUR\nF BRE - MAO\nA PAX - BUR\n",
    "pure": "A PAR - LON\nA PAX - BER\n",
}


def run(game: Path, *args: str) -> Result:
    result = CliRunner().invoke(main, [*args, "--game", str(game)] if args[0] != "map" else list(args))
    text = result.output
    assert "cannot read the map file" not in text
    assert "Traceback" not in text
    if result.exception is not None:
        assert isinstance(result.exception, SystemExit), repr(result.exception)
    return result


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    made = {}
    for variant in VARIANTS:
        root = tmp_path_factory.mktemp(variant) / "game"
        extra = ["--seed", "matrix"] if variant == "moonshine" else []
        done = CliRunner().invoke(main, ["new", str(root), "--variant", variant, "--no-git", *extra])
        assert done.exit_code == 0, done.output
        orders = root / "orders" / FIRST[variant]
        (orders / f"{SIDE[variant]}.txt").write_text(ORDERS[variant], encoding="utf-8")
        made[variant] = root
    return made


@pytest.mark.parametrize("variant", VARIANTS)
def test_check_acknowledges_every_line(games: dict[str, Path], variant: str) -> None:
    game = games[variant]
    path = game / "orders" / FIRST[variant] / f"{SIDE[variant]}.txt"
    result = run(game, "check", str(path))
    if variant == "moonshine":
        assert result.exit_code == 0, result.output
        assert "ORDERS AS UNDERSTOOD" in result.output
        return
    assert result.exit_code == 1  # one line is rejected
    assert "REJECTED" in result.output and "did you mean PAR (Paris)?" in result.output
    assert "accepted" in result.output
    french = run(game, "check", str(path), "--language", "fr")
    assert "vouliez-vous dire PAR (Paris) ?" in french.output and "accepté" in french.output


@pytest.mark.parametrize("variant", VARIANTS)
def test_status_passwd_remind(games: dict[str, Path], variant: str) -> None:
    game = games[variant]
    word = "gang" if variant == "moonshine" else "power"
    status = run(game, "status")
    assert status.exit_code == 0, status.output
    assert f"{word}(s) without orders" in status.output
    assert "orders on file" in status.output
    done = run(game, "passwd", SIDE[variant], "--password", "correct-horse-staple")
    assert done.exit_code == 0 and f"Password set for {SIDE[variant]}" in done.output
    unknown = run(game, "passwd", "Nobody", "--password", "correct-horse-staple")
    assert unknown.exit_code == 1 and f"Error: no {word} 'Nobody'" in unknown.output
    remind = run(game, "remind")
    assert remind.exit_code == 0, remind.output
    assert "No reminder to write." in remind.output  # nobody has an address yet


@pytest.mark.parametrize("variant", VARIANTS)
def test_reveal(games: dict[str, Path], variant: str) -> None:
    result = run(games[variant], "reveal")
    assert result.exit_code == 1
    expected = "the game is not over" if variant == "moonshine" else "has no secret seed to reveal"
    assert expected in result.output


@pytest.mark.parametrize("variant", VARIANTS)
def test_map_check(games: dict[str, Path], variant: str) -> None:
    result = run(games[variant], "map", "check", "chicago-1920s" if variant == "moonshine" else variant)
    if variant == "moonshine":
        assert result.exit_code == 0 and "OK: the map is consistent" in result.output
    else:
        assert result.exit_code == 1 and "is a board of the classic family" in result.output


@pytest.mark.parametrize("variant", VARIANTS)
def test_inbox_empty_mailbox(games: dict[str, Path], variant: str, tmp_path: Path) -> None:
    box = tmp_path / "mail"
    box.mkdir()
    result = run(games[variant], "inbox", str(box))
    if variant == "moonshine":
        assert result.exit_code == 0 and "no new message" in result.output
    else:
        assert result.exit_code == 1 and "Error:" in result.output


@pytest.mark.parametrize("variant", VARIANTS)
def test_adjudicate_report_mail_rollback(games: dict[str, Path], variant: str) -> None:
    game, turn = games[variant], FIRST[variant]
    done = run(game, "adjudicate", turn, "--force")
    assert done.exit_code == 0, done.output
    assert "Results:" in done.output
    report = run(game, "report", turn)
    mail = run(game, "mail", turn)
    if variant == "moonshine":
        assert report.exit_code == 0 and "bulletin.txt" in report.output
        assert mail.exit_code == 0 and "nothing sent" in mail.output
    else:
        assert report.exit_code == 1 and "Error:" in report.output
        assert mail.exit_code == 1 and "Error:" in mail.output
    back = run(game, "rollback", turn)
    assert back.exit_code == 0, back.output
    assert f"The game is back at the start of {turn}" in back.output
    again = run(game, "rollback", turn)
    assert "Nothing to undo" in again.output
