"""The registry of a judge for many games and its lobby, as a library: the schema's
migrations, the draw of sides, dedication, and what the lobby answers (and what it
refuses to do for a stranger) without any server."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime
from email import message_from_string, policy
from email.message import EmailMessage
from pathlib import Path

import msgspec
import pytest

from moonshine.host import lobby
from moonshine.host.games import draw
from moonshine.host.incoming import Mail, read_mail
from moonshine.host.lobby.request import LobbyPass
from moonshine.host.registry import NEVER, Dedication, Registry, latest_version
from moonshine.host.settings import init, is_judge_dir, load

NOW = datetime(2026, 11, 30, 8, 0, tzinfo=UTC)


def test_the_schema_is_migrated_once_in_order(tmp_path: Path) -> None:
    reg = Registry(tmp_path / "r.sqlite")
    assert reg.version == latest_version() >= 1
    assert reg.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    reg.close()
    again = Registry(tmp_path / "r.sqlite")
    assert again.migrate() == []  # nothing left to apply
    indexes = {r[0] for r in again.conn.execute("SELECT name FROM sqlite_master WHERE type = 'index'")}
    assert "members_by_player" in indexes
    again.close()
    newer = sqlite3.connect(tmp_path / "r.sqlite")
    newer.execute(f"PRAGMA user_version = {latest_version() + 1}")
    newer.close()
    with pytest.raises(Exception, match="newer than this program knows"):
        Registry(tmp_path / "r.sqlite")


def test_a_registry_that_skipped_a_migration_numbered_lower_gets_it_and_keeps_its_rows(tmp_path: Path) -> None:
    """Branches number their migrations ahead: a registry made with 0001 and 0003
    (issue 39's) gets 0002 (issue 37's) at its next opening, once, its players kept
    and as proven as they were."""
    from importlib import resources

    folder = resources.files("moonshine.host.registry").joinpath("migrations")
    sql = {int(f.name[:4]): f.read_text(encoding="utf-8") for f in folder.iterdir() if f.name.endswith(".sql")}
    db = sqlite3.connect(tmp_path / "r.sqlite")
    db.execute("CREATE TABLE migrations (number INTEGER PRIMARY KEY, name TEXT NOT NULL, applied TEXT)")
    for number in (1, 3):
        db.executescript(sql[number])
        db.execute("INSERT INTO migrations (number, name) VALUES (?, ?)", (number, f"{number:04d}"))
    db.execute(
        "INSERT INTO players (address, name, language, registered, confirmed) VALUES (?, ?, 'en', ?, ?)",
        ("ann@example.org", "Ann", NOW.isoformat(), NOW.isoformat()),
    )
    db.execute("PRAGMA user_version = 3")
    db.commit()
    db.close()
    reg = Registry(tmp_path / "r.sqlite")
    try:
        assert reg.version == latest_version()
        assert {n for (n,) in reg.conn.execute("SELECT number FROM migrations")} == {1, 2, 3, 4}
        ann = reg.player("ann@example.org")
        assert ann is not None and reg.confirmed(ann.id) and reg.former_addresses(ann.id) == []
        assert reg.migrate() == []
    finally:
        reg.close()


def test_a_game_paused_before_the_registry_kept_the_end_of_its_pause_gets_it_from_game_yaml_once(
    tmp_path: Path,
) -> None:
    """0004 adds the end of a master's pause (``pause_ends``): a game paused under 0003
    keeps its pause, with no end yet; the judge's next pass works the end out once from
    the game's master_pause_max, and the pauses made later have theirs from the start."""
    from importlib import resources

    from moonshine.game.families import new_game
    from moonshine.host.games import end_long_pauses

    folder = resources.files("moonshine.host.registry").joinpath("migrations")
    sql = {int(f.name[:4]): f.read_text(encoding="utf-8") for f in folder.iterdir() if f.name.endswith(".sql")}
    db = sqlite3.connect(tmp_path / "registry.sqlite")
    db.execute("CREATE TABLE migrations (number INTEGER PRIMARY KEY, name TEXT NOT NULL, applied TEXT)")
    for number in (1, 2, 3):
        db.executescript(sql[number])
        db.execute("INSERT INTO migrations (number, name) VALUES (?, ?)", (number, f"{number:04d}"))
    paused = NOW.isoformat()
    for name in ("alpha", "beta"):
        db.execute(
            "INSERT INTO games (name, variant, status, created, settings, paused_at, paused_left)"
            " VALUES (?, 'classic', 'paused', ?, '{}', ?, 3600)",
            (name, paused, paused),
        )
    db.execute("PRAGMA user_version = 3")
    db.commit()
    db.close()
    for name, extra in (("alpha", "master_pause_max: 2d\n"), ("beta", "")):
        game = new_game(tmp_path / "games" / name, seed=None, title=name, language="en", variant="classic")
        with (game.root / "game.yaml").open("a", encoding="utf-8") as fh:
            fh.write(extra)
    reg = Registry(tmp_path / "registry.sqlite")
    try:
        assert [(g.name, g.status, g.pause_ends) for g in reg.games()] == [
            ("alpha", "paused", None),
            ("beta", "paused", None),
        ]
        init(tmp_path / "judge", address="judge@example.org")
        settings = msgspec.structs.replace(load(tmp_path / "judge"), root=tmp_path)  # its games: tmp_path/games
        said: list[str] = []
        for row in reg.games():
            end_long_pauses(settings, reg, row, NOW, said.append)
        ends = {g.name: g.pause_ends for g in reg.games()}
        assert ends == {"alpha": "2026-12-02T08:00:00+00:00", "beta": NEVER}
        (tmp_path / "games" / "alpha" / "game.yaml").write_text("{[", encoding="utf-8")  # not read again
        for row in reg.games():
            end_long_pauses(settings, reg, row, NOW, said.append)
        assert [g.status for g in reg.games()] == ["paused", "paused"] and said == []
    finally:
        reg.close()


def test_a_transaction_is_all_or_nothing(tmp_path: Path) -> None:
    reg = Registry(tmp_path / "r.sqlite")
    with pytest.raises(RuntimeError), reg.transaction():
        reg.register("a@example.org", "Ann", timezone=None, language="en", now=NOW, password_hash=None)
        raise RuntimeError("killed")
    assert reg.player("a@example.org") is None
    reg.register("A@Example.org", "Ann", timezone=None, language="en", now=NOW, password_hash=None)
    assert reg.player("a@example.org") is not None  # addresses are kept in lower case
    assert "password" not in repr(reg.player("a@example.org"))


def test_the_draw_gives_preferences_in_a_drawn_order_and_is_the_same_every_time() -> None:
    joined = [(1, ("ENG", "FRA")), (2, ("ENG",)), (3, ()), (4, ("GER",))]
    sides = ["AUS", "ENG", "FRA", "GER", "ITA"]
    first = draw("seed", "alpha", joined, sides)
    assert first == draw("seed", "alpha", joined, sides)
    assert first[4] == "GER" and "ENG" in (first[1], first[2])
    assert first[1] in ("ENG", "FRA") and len(set(first.values())) == 4
    others = {tuple(sorted(draw(f"seed{i}", "alpha", joined, sides).items())) for i in range(20)}
    assert len(others) > 1  # another seed, another draw


def test_dedication_counts_resignations_as_turns_missed() -> None:
    assert Dedication().percent == 100
    assert Dedication(on_time=8, due=10).percent == 80
    assert Dedication(on_time=8, due=8, resigned=2).percent == 80


def mail(sender: str, body: str, subject: str = "judge") -> Mail:
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = "judge@example.org"
    msg["Subject"] = subject
    msg["Message-ID"] = f"<{abs(hash(body))}@example.org>"
    msg.set_content(body)
    return read_mail(msg.as_bytes(), 100_000)


def queued(reg: Registry, to: str) -> list[str]:
    out = []
    for _, _, text in reg.queued_mail():
        msg = message_from_string(text, policy=policy.default)
        if to in str(msg["To"]):
            body = msg.get_body(("plain",))
            assert body is not None
            out.append(str(body.get_content()))
    return out


def test_the_lobby_bounds_what_a_stranger_costs(tmp_path: Path) -> None:
    root = tmp_path / "judge"
    init(root, address="judge@example.org", masters=["gm@example.org"])
    assert is_judge_dir(root)
    settings = load(root)
    reg = Registry(root / "registry.sqlite")
    lines: list[str] = []
    ctx = LobbyPass(settings, reg, NOW, lines.append)
    assert lobby.answer(ctx, mail("x@example.org", "Cheap watches\n")).startswith("not from a player")
    assert reg.queued_mail() == []  # spam gets nothing back
    lobby.answer(ctx, mail("x@example.org", "register\n"))
    assert "Give your name" in queued(reg, "x@example.org")[0]
    for i in range(3):
        lobby.answer(ctx, mail("y@example.org", f"register Bob, Mars/Olympus\n{i}"))
    lobby.answer(ctx, mail("y@example.org", "register Bob\nextra"))
    texts = queued(reg, "y@example.org")
    assert "Unknown time zone 'Mars/Olympus'" in texts[0]
    assert "Too many registrations from this address today" in texts[-1]
    assert reg.player("y@example.org") is None
    many = "register Cy\n" + "list\n" * 40
    lobby.answer(ctx, mail("z@example.org", many))
    reply = queued(reg, "z@example.org")[0]
    assert "Only the first 20 commands of a mail are done." in reply
    assert "lsit" not in reply
    lobby.answer(ctx, mail("z@example.org", "lsit\n"))
    assert "'lsit' is no command of the judge. Did you mean 'list'?" in queued(reg, "z@example.org")[1]


def test_a_new_password_is_never_shown_nor_logged(tmp_path: Path) -> None:
    from moonshine.mail.passwords import hash_password

    root = tmp_path / "judge"
    init(root, address="judge@example.org")
    reg = Registry(root / "registry.sqlite")
    reg.register(
        "a@example.org", "Ann", timezone=None, language="en", now=NOW, password_hash=hash_password("old-secret-1")
    )
    lines: list[str] = []
    ctx = LobbyPass(load(root), reg, NOW, lines.append)
    lobby.answer(ctx, mail("a@example.org", "password: old-secret-1\npassword brand-new-secret\n"))
    reply = queued(reg, "a@example.org")[0]
    assert "Your password is changed, for all your games." in reply
    assert "brand-new-secret" not in reply + "\n".join(lines)
    lobby.answer(ctx, mail("a@example.org", "password: brand-new-secret\nwhois\n"))
    assert "Ann <a@example.org>" in queued(reg, "a@example.org")[1]


def test_the_judges_own_error_is_mailed_to_its_masters_once(tmp_path: Path) -> None:
    from moonshine.host.run import run_judge

    root = tmp_path / "judge"
    init(root, address="judge@example.org", masters=["gm@example.org"], source="no-such-mailbox")
    lines: list[str] = []
    failed: set[str] = set()
    assert run_judge(root, now=NOW, say=lines.append, say_for=lambda _: lines.append, failed=failed)
    assert "intake" in failed and any(line.startswith("ERROR intake:") for line in lines)
    mails = sorted((root / "outbox").rglob("error-*.eml"))
    assert len(mails) == 1
    msg = message_from_string(mails[0].read_text(encoding="utf-8"), policy=policy.default)
    assert msg["To"] == "gm@example.org" and "judge error: intake" in str(msg["Subject"])
    assert "no-such-mailbox" in str(msg.get_body(("plain",)).get_content())  # type: ignore[union-attr]
    # the next pass meets the same error: logged again, not mailed again
    lines.clear()
    run_judge(root, now=NOW, say=lines.append, say_for=lambda _: lines.append, failed=set())
    assert any(line.startswith("ERROR intake:") for line in lines)
    assert len(sorted((root / "outbox").rglob("error-*.eml"))) == 1
