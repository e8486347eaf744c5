"""``moonshine takeover GANG --email ADDR``: the gang's addresses become the new
player's alone, a new password replaces the old one (which stops working at
once), the new player is mailed the password (kept nowhere: not in the outbox,
not in git) and the gang's history, every report so far."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from click.testing import CliRunner
from msgspec.structs import replace
from runkit import plain, to
from smtpkit import Server

from moonshine.cli import main
from moonshine.game.directory import Game, Player, save_config
from moonshine.game.families import new_game
from moonshine.mail.passwords import hash_password, verify_password

OLD = "old-valley-password"
NEW_PLAYER = "ann.other@example.org"


def cli(game: Game, *args: str) -> str:
    done = CliRunner().invoke(main, [*args, "--game", str(game.root)])
    assert done.exit_code == 0 and "Traceback" not in done.output, done.output
    return done.output


def test_a_gang_changes_hands(tmp_path: Path, smtp: Server) -> None:
    game = new_game(tmp_path / "g", seed="takeover", use_git=True)
    cfg = game.config
    people = {**cfg.players, "valley": Player(name="Terry", email=["terry@example.org"], password=hash_password(OLD))}
    save_config(game, replace(cfg, players=people, extra={**cfg.extra, "smtp": smtp.smtp()}))
    text = game.config_path.read_text(encoding="utf-8")
    game.config_path.write_text("# my game, my comments\n" + text, encoding="utf-8")
    subprocess.run(["git", "commit", "-qam", "Players"], cwd=game.root, check=True, capture_output=True)
    cli(game, "adjudicate", "spring-1924", "--force")  # a turn of history
    # press the gang received, in its private log (as the inbox writes it)
    from moonshine.mail.commands.press import log_path

    log_path(game.root, "valley", "spring-1924", "abc").parent.mkdir(parents=True)
    log_path(game.root, "valley", "spring-1924", "abc").write_text(
        "# spring-1924 2024-02-28T10:00:00+00:00 from outfit to valley\n\nThe Loop is yours if you keep out of NSS.\n"
    )

    out = cli(Game(game.root), "takeover", "Valley Gang", "--email", NEW_PLAYER, "--name", "Ann Other")
    assert f"valley now belongs to {NEW_PLAYER}" in out
    assert "mailed to" in out

    game = Game(game.root)
    player = game.config.players["valley"]
    assert player.email == [NEW_PLAYER] and player.name == "Ann Other"
    assert player.password is not None and not verify_password(OLD, player.password)
    assert game.config_path.read_text(encoding="utf-8").startswith("# my game, my comments\n")

    secret_mail = to(smtp.recorder, NEW_PLAYER, "your password")
    assert len(secret_mail) == 1
    found = re.search(r"^    (\S+)$", plain(secret_mail[0]), re.M)
    assert found is not None
    new = found.group(1)
    assert verify_password(new, player.password)
    history = to(smtp.recorder, NEW_PLAYER, "the history so far")
    assert len(history) == 1
    assert "==== spring-1924 ====" in plain(history[0])
    assert "==== Press sent and received ====" in plain(history[0])
    assert "The Loop is yours if you keep out of NSS." in plain(history[0])  # the gang's press too
    assert "terry@example.org" not in str(history[0]["To"])

    # the password is kept nowhere: not in the game's files, not in git
    for path in game.root.rglob("*"):
        if path.is_file() and ".git" not in path.parts:
            assert new.encode() not in path.read_bytes(), path
    log = subprocess.run(["git", "log", "-p", "--all"], cwd=game.root, capture_output=True, text=True).stdout
    assert new not in log


def test_without_mail_the_password_is_shown_once(tmp_path: Path) -> None:
    game = new_game(tmp_path / "g", seed="takeover", use_git=False)
    out = cli(game, "takeover", "genna", "--email", NEW_PLAYER, "--no-mail")
    shown = re.search(r"it is kept nowhere\): (\S+)$", out, re.M)
    assert shown is not None
    stored = Game(game.root).config.players["genna"].password
    assert stored is not None and verify_password(shown.group(1), stored)


def test_a_bad_address_or_gang_is_refused(tmp_path: Path) -> None:
    game = new_game(tmp_path / "g", seed="takeover", use_git=False)
    for args, words in (
        (["takeover", "genna", "--email", "not-an-address"], "is not an email address"),
        (["takeover", "Nobody", "--email", NEW_PLAYER], "no gang 'Nobody'"),
    ):
        done = CliRunner().invoke(main, [*args, "--game", str(game.root)])
        assert done.exit_code == 1 and words in done.output, done.output
