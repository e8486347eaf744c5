"""The unattended judge's settings in game.yaml: the schedule and the players'
time zones are checked when the game is read (errors name the key); the
deadline the judge sets is written into ``deadlines:`` with every other line
of the file left as the game master wrote it; deadlines are shown to each
player in their own time zone and in UTC."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from frtypo import plain

from moonshine import schema
from moonshine.errors import StateError
from moonshine.game import schedule
from moonshine.game.deadlines import deadline_text, write_deadline
from moonshine.game.directory import Game, deadline, load_config_text
from moonshine.game.families import new_game

BASE = "map: chicago-1920s\nplayers:\n  valley:\n    email: [v@x.example]\n"


def test_the_schema_knows_every_key_of_the_schedule() -> None:
    assert schema.SCHEDULE_KEYS == schedule.KEYS


@pytest.mark.parametrize(
    ("extra", "key", "words"),
    [
        ("schedule:\n  deadlines: mon 18:00\n  timezone: Mars/Olympus\n", "schedule.timezone", "no time zone"),
        ("schedule:\n  deadlines: someday 18:00\n", "schedule.deadlines", "not a day of the week"),
        ("schedule:\n  every: 48h\n  grace: soon\n", "schedule.grace", "expected a duration"),
        ("schedule:\n  every: 48h\n  deadlines: mon 18:00\n", "schedule", "not both"),
        ("schedule:\n  every: 48h\n  holidays: 2d\n", "schedule.holidays", "unknown key"),
        ("schedule:\n  every: 48h\n  absence: forever\n", "schedule.absence", "expected a duration"),
    ],
)
def test_a_bad_schedule_is_named(extra: str, key: str, words: str) -> None:
    with pytest.raises(StateError) as err:
        load_config_text(BASE + extra, "game.yaml")
    assert key in str(err.value) and words in str(err.value)


def test_a_players_time_zone_is_checked() -> None:
    with pytest.raises(StateError) as err:
        load_config_text(BASE + "    timezone: Europe/Lutece\n", "game.yaml")
    assert "players.valley.timezone" in str(err.value) and "no time zone" in str(err.value)
    cfg = load_config_text(BASE + "    timezone: America/Chicago\n", "game.yaml")
    assert cfg.players["valley"].timezone == "America/Chicago"


def test_a_classic_games_deadlines_name_its_phases() -> None:
    text = "map: classic\nvariant: classic\ndeadlines:\n  spring-1901-retreats: 2026-12-01T18:00:00+00:00\n"
    cfg = load_config_text(text, "game.yaml")
    assert deadline(cfg, "spring-1901-retreats") == datetime(2026, 12, 1, 18, tzinfo=UTC)
    with pytest.raises(StateError, match="not a phase name"):
        load_config_text(text.replace("spring-1901-retreats", "spring-1901-builds"), "game.yaml")


def _game(tmp_path: Path, tail: str) -> Game:
    game = new_game(tmp_path / "g", seed="s", use_git=False)
    path = game.root / "game.yaml"
    path.write_text("# the game master's own comment\n" + path.read_text(encoding="utf-8") + tail, encoding="utf-8")
    return Game(game.root)


@pytest.mark.parametrize(
    "tail",
    [
        "",
        "deadlines:\n",
        "deadlines: {}\n",
        "deadlines:\n  spring-1924: '2026-11-01T18:00:00+00:00'  # set by hand\n",
        "deadlines:\n  autumn-1923: 2026-10-01T18:00:00+00:00\nsmtp:\n  host: mail.example.org\n",
    ],
)
def test_the_deadline_is_written_where_every_command_reads_it(tmp_path: Path, tail: str) -> None:
    game = _game(tmp_path, tail)
    before = game.config_path.read_text(encoding="utf-8")
    when = datetime(2026, 12, 3, 17, 0, tzinfo=UTC)
    write_deadline(game, "spring-1924", when)
    after = game.config_path.read_text(encoding="utf-8")
    assert deadline(Game(game.root).config, "spring-1924") == when
    assert after.startswith("# the game master's own comment\n")
    changed = [line for line in after.splitlines() if line not in before.splitlines()]
    assert changed in (
        ['  spring-1924: "2026-12-03T17:00:00+00:00"'],
        ["deadlines:", '  spring-1924: "2026-12-03T17:00:00+00:00"'],
        ['  spring-1924: "2026-12-03T17:00:00+00:00"  # set by hand'],
    )
    if "autumn-1923" in tail:
        assert "smtp:\n  host: mail.example.org\n" in after


def test_each_player_reads_the_deadline_in_their_zone_and_in_utc() -> None:
    text = BASE + "    timezone: America/Chicago\n  genna:\n    email: g@x.example\n"
    when = datetime(2026, 7, 2, 16, 0, tzinfo=UTC)
    cfg = load_config_text(text, "game.yaml")
    assert plain(deadline_text(cfg, "valley", when)) == "Thursday 2 July 2026, 11:00 CDT = 16:00 UTC"
    assert plain(deadline_text(cfg, "genna", when)) == "Thursday 2 July 2026, 16:00 UTC"  # no zone: UTC alone
    cfg = load_config_text(text + "schedule:\n  every: 48h\n  timezone: Europe/Paris\n", "game.yaml")
    assert plain(deadline_text(cfg, "genna", when)) == "Thursday 2 July 2026, 18:00 CEST = 16:00 UTC"
    assert plain(deadline_text(cfg, "genna", when, "fr")) == "jeudi 2 juillet 2026 à 18 h 00 CEST = 16 h 00 UTC"
    # a date and a time never break across lines
    assert (
        deadline_text(cfg, "genna", when, "fr")
        == "jeudi\u00a02\u00a0juillet\u00a02026 à 18\u202fh\u202f00\u00a0CEST = 16\u202fh\u202f00\u00a0UTC"
    )
