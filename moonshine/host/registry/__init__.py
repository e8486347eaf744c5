"""The registry of a judge for many games: its players (one address, one password
for all their games), its games, who plays which side, the vacant sides and each
player's dedication, in one sqlite database (``registry.sqlite`` in the judge's
directory) through the standard library's ``sqlite3``.

The schema is the numbered ``.sql`` files of ``migrations/``, shipped in the
wheel and applied in order, each in a transaction with ``PRAGMA user_version``
set to its number: a database is always at one version, and a newer judge
brings an older one up to date on opening it. The database is in WAL mode, so
that a reader (``moonshine judge`` commands) never waits for a pass. Every
change a command makes is one transaction (``Registry.transaction``): a pass
killed anywhere leaves the database as it was before the change or after it.

A pass of the judge opens the registry it has (``Registry(path, create=False)``) and
checks it (``Registry.check``): a registry missing, empty, damaged or with a row it
cannot read is a ``RegistryError``, and the pass stops there (``moonshine.host.run``);
only ``moonshine judge init`` and ``moonshine judge check --repair`` make one.

A password is kept only as its salted hash (``moonshine.mail.passwords``) and
never leaves this module but to be checked: ``RegisteredPlayer`` has no such field, so
that printing or logging a player shows none."""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from importlib import resources
from pathlib import Path
from typing import Any

import msgspec

from moonshine.errors import GameError
from moonshine.text.english import count

FILE = "registry.sqlite"


class RegistryError(GameError):
    """The registry cannot be trusted: missing, empty, not a database, damaged, or
    holding a row the judge cannot read. The judge stops rather than guess."""


# A game's name: what a player types after "join" and what names its directory.
GAME_NAME = re.compile(r"[a-z][a-z0-9-]{1,23}")
FORMING, STARTING, RUNNING, PAUSED, FINISHED, TERMINATED = (
    "forming",
    "starting",
    "running",
    "paused",
    "finished",
    "terminated",
)
ACTIVE = (RUNNING, PAUSED)  # games being played
STATUSES = (FORMING, STARTING, RUNNING, PAUSED, FINISHED, TERMINATED)
DRAW, TAKEOVER = "draw", "takeover"  # how a member came to their side
# The events that count as a turn missed in a player's dedication: leaving a game being
# played, being ejected (LEFT), a side gone into civil disorder (DISORDER:
# moonshine.mail.disorder; once a game: its removal, or its takeover, adds nothing).
LEFT = ("resigned", "ejected")
DISORDER = "disorder"


class RegisteredPlayer(msgspec.Struct, frozen=True):
    """A registered player, without their password."""

    id: int
    address: str
    name: str
    timezone: str | None
    language: str
    registered: str


class GameRow(msgspec.Struct, frozen=True):
    name: str
    variant: str
    status: str
    created: str
    settings: dict[str, Any]
    paused_at: str | None = None
    paused_left: int | None = None
    deadline: str | None = None
    sync: bool = False
    recorded: str | None = None
    ended: str | None = None  # when a master terminated it (ISO, UTC): it may be resumed within a week
    process: str | None = None  # a turn a master asked to process now
    rollback: str | None = None  # a turn a master asked to roll the game back to
    drawn: tuple[tuple[str, tuple[str, ...]], ...] = ()  # the draw's players (name, preferences), as they joined
    reseed: bool = False  # its raid seed, revealed at its termination, is to be replaced (resumed)
    due_at: str | None = None  # when its pass next has something to do (ISO, UTC); None: at the next pass
    stamp: str | None = None  # game.yaml's stamp when its pass ended (moonshine.host.run.stamp)
    pause_ends: str | None = None  # when a master's pause ends by itself (ISO, UTC; NEVER: no limit)

    @property
    def private(self) -> bool:
        """A private game: ``list`` does not show it, and only the invited join it."""
        return bool(self.settings.get("private"))


class Member(msgspec.Struct, frozen=True):
    game: str
    player: RegisteredPlayer
    side: str | None
    preferences: tuple[str, ...]
    joined: str
    came: str = DRAW  # DRAW: joined before the start; TAKEOVER: took a vacant side


class Dedication(msgspec.Struct, frozen=True):
    """A player's record: turns with orders in time of the turns owed, resignations
    (and ejections), games finished, sides left in civil disorder."""

    on_time: int = 0
    due: int = 0
    resigned: int = 0
    finished: int = 0
    disorder: int = 0  # games where a side of theirs went into civil disorder

    @property
    def percent(self) -> int:
        """Turns in time of the turns owed, each resignation and each side left in
        civil disorder counting as a turn missed more; 100 for a player who owed
        nothing yet."""
        owed = self.due + self.resigned + self.disorder
        return 100 if owed == 0 else round(100 * self.on_time / owed)


def _migrations() -> list[tuple[int, str, str]]:
    """(number, name, SQL) of every migration shipped, in order. Numbers may leave a
    gap (branches number theirs ahead): a migration shipped later with a lower number
    is applied all the same, the registry remembering each one it applied."""
    found = []
    for item in resources.files(__name__).joinpath("migrations").iterdir():
        m = re.fullmatch(r"(\d{4})_[a-z0-9_]+\.sql", item.name)
        if m:
            found.append((int(m.group(1)), item.name, item.read_text(encoding="utf-8")))
    found.sort()
    numbers = [n for n, _, _ in found]
    if len(set(numbers)) != len(numbers) or not numbers or numbers[0] != 1:
        raise GameError("the registry's migrations are not numbered 0001, 0002, ..., each number once")
    return found


def latest_version() -> int:
    return _migrations()[-1][0]


_PLAYER = "id, address, name, timezone, language, registered"


def _refuse_unusable(path: Path) -> None:
    """What a pass must not open as its registry: nothing there, a directory, an
    empty file (sqlite would make a new registry of it)."""
    p = Path(path)
    if p.is_symlink():
        raise RegistryError(f"{p}: the registry is a symbolic link; the judge uses its own file only")
    if not p.exists():
        raise RegistryError(f"{p}: the registry is missing")
    if not p.is_file():
        raise RegistryError(f"{p}: the registry is not a file")
    try:
        size = p.stat().st_size
        with p.open("rb") as fh:
            head = fh.read(16)
    except OSError as exc:
        raise RegistryError(f"{p}: the registry cannot be read ({exc.strerror or exc})") from None
    if size == 0:
        raise RegistryError(f"{p}: the registry is empty (no table, no player, no game)")
    if head != b"SQLite format 3\x00":
        raise RegistryError(f"{p}: the registry is not a database (its first bytes are not sqlite's)")


def _player(row: sqlite3.Row | tuple[Any, ...]) -> RegisteredPlayer:
    return RegisteredPlayer(int(row[0]), str(row[1]), str(row[2]), row[3], str(row[4]), str(row[5]))


def _game(row: sqlite3.Row | tuple[Any, ...]) -> GameRow:
    drawn = json.loads(row[13]) if row[13] else []
    return GameRow(
        name=row[0],
        variant=row[1],
        status=row[2],
        created=row[3],
        settings=json.loads(row[4]),
        paused_at=row[5],
        paused_left=row[6],
        deadline=row[7],
        sync=bool(row[8]),
        recorded=row[9],
        ended=row[10],
        process=row[11],
        rollback=row[12],
        drawn=tuple((str(name), tuple(str(p) for p in prefs)) for name, prefs in drawn),
        reseed=bool(row[14]),
        due_at=row[15],
        stamp=row[16],
        pause_ends=row[17],
    )


_GAME = (
    "name, variant, status, created, settings, paused_at, paused_left, deadline, sync, recorded,"
    " ended, process, rollback, drawn, reseed, due_at, stamp, pause_ends"
)
NEVER = "9999-12-31T23:59:59+00:00"  # a game's due_at when only mail or a change can give it something to do
_GAME_COLUMNS = len(_GAME.split(","))


class Registry:
    """The registry in ``path`` (created, or brought to the latest schema, on opening)."""

    def __init__(self, path: Path, *, create: bool = True) -> None:
        """``create=False``: only a registry that exists, has a schema and can be read
        is opened (a judge's pass); anything else is a ``RegistryError``."""
        self.path = path
        if not create:
            _refuse_unusable(path)
        try:
            target = str(path) if create else f"{Path(path).resolve().as_uri()}?mode=rw"
            self.conn = sqlite3.connect(target, isolation_level=None, timeout=30, uri=not create)
            self.conn.execute("PRAGMA journal_mode = WAL")
            self.conn.execute("PRAGMA foreign_keys = ON")
            self.conn.execute("PRAGMA synchronous = NORMAL")
            self._depth = 0
            if not create and self.version == 0:
                raise RegistryError(f"{path}: the registry is empty (no table, no player, no game)")
            self.migrate()
        except sqlite3.Error as exc:
            raise RegistryError(f"{path}: the registry cannot be read ({exc})") from None

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> Registry:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def version(self) -> int:
        return int(self.conn.execute("PRAGMA user_version").fetchone()[0])

    def migrate(self) -> list[str]:
        """Apply the migrations the database lacks, each in a transaction of its own;
        returns their names. A database newer than this program is refused."""
        done = []
        current = self.version
        every = _migrations()
        if current > every[-1][0]:
            raise GameError(f"{self.path}: the registry is at version {current}, newer than this program knows")
        self.conn.execute(
            "CREATE TABLE IF NOT EXISTS migrations (number INTEGER PRIMARY KEY, name TEXT NOT NULL, applied TEXT)"
        )
        applied = {int(n) for (n,) in self.conn.execute("SELECT number FROM migrations")}
        if not applied:  # a registry from before this table: its version says which it has
            applied = {n for n, _, _ in every if n <= current}
            self.conn.executemany(
                "INSERT OR IGNORE INTO migrations (number, name) VALUES (?, ?)",
                [(n, name) for n, name, _ in every if n in applied],
            )
        for number, name, sql in every:
            if number in applied:
                continue
            version = max(self.version, number)
            self.conn.executescript(
                f"BEGIN IMMEDIATE;\n{sql}\n"
                f"INSERT INTO migrations (number, name, applied) VALUES ({number}, '{name}', datetime('now'));\n"
                f"PRAGMA user_version = {version};\nCOMMIT;"
            )
            done.append(name)
        return done

    def check(self) -> None:
        """The registry as a pass trusts it: sqlite's own check of the file, every
        reference between its tables, and every row of players and games readable;
        else a ``RegistryError`` naming what is wrong."""
        try:
            verdict = [str(r[0]) for r in self.conn.execute("PRAGMA quick_check").fetchall()]
            if verdict != ["ok"]:
                raise RegistryError(f"{self.path}: the registry is damaged ({'; '.join(verdict)[:300]})")
            broken = self.conn.execute("PRAGMA foreign_key_check").fetchall()
            if broken:
                table, rowid, parent = broken[0][0], broken[0][1], broken[0][2]
                raise RegistryError(
                    f"{self.path}: the registry is damaged: row {rowid} of {table} names a row of {parent} "
                    f"that is not there ({count(len(broken), 'such row')})"
                )
            for pid, address, name, language in self.conn.execute("SELECT id, address, name, language FROM players"):
                if not isinstance(address, str) or "@" not in address or not isinstance(name, str):
                    raise RegistryError(f"{self.path}: the registry is damaged: player {pid} has no usable address")
                if not isinstance(language, str):
                    raise RegistryError(f"{self.path}: the registry is damaged: player {pid} has no language")
            for name, status, settings in self.conn.execute("SELECT name, status, settings FROM games"):
                if not isinstance(name, str) or not GAME_NAME.fullmatch(name):
                    raise RegistryError(f"{self.path}: the registry is damaged: a game is called {name!r}")
                if status not in STATUSES:
                    raise RegistryError(f"{self.path}: the registry is damaged: game {name} is {status!r}")
                try:
                    ok = isinstance(json.loads(settings), dict)
                except (TypeError, ValueError):
                    ok = False
                if not ok:
                    raise RegistryError(f"{self.path}: the registry is damaged: the settings of game {name}")
        except sqlite3.Error as exc:
            raise RegistryError(f"{self.path}: the registry cannot be read ({exc})") from None

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """One transaction (nested calls join the outer one): all of it or nothing."""
        if self._depth:
            self._depth += 1
            try:
                yield
            finally:
                self._depth -= 1
            return
        self.conn.execute("BEGIN IMMEDIATE")
        self._depth = 1
        try:
            yield
        except BaseException:
            self.conn.execute("ROLLBACK")
            raise
        else:
            self.conn.execute("COMMIT")
        finally:
            self._depth = 0

    def _one(self, sql: str, *args: object) -> Any:
        row = self.conn.execute(sql, args).fetchone()
        return None if row is None else row[0]

    # -- players ----------------------------------------------------------------------
    def player(self, address: str) -> RegisteredPlayer | None:
        row = self.conn.execute(f"SELECT {_PLAYER} FROM players WHERE address = ?", (address.lower(),)).fetchone()
        return None if row is None else _player(row)

    def player_by_id(self, pid: int) -> RegisteredPlayer | None:
        row = self.conn.execute(f"SELECT {_PLAYER} FROM players WHERE id = ?", (pid,)).fetchone()
        return None if row is None else _player(row)

    def count_players(self) -> int:
        return int(self._one("SELECT count(*) FROM players"))

    def register(
        self, address: str, name: str, *, timezone: str | None, language: str, now: datetime, password_hash: str | None
    ) -> RegisteredPlayer:
        """A new player; their password is to be mailed (``password_mailed`` 0) unless
        one is given already hashed."""
        with self.transaction():
            cur = self.conn.execute(
                "INSERT INTO players (address, name, timezone, language, password_hash, password_mailed, registered)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                (
                    address.lower(),
                    name,
                    timezone,
                    language,
                    password_hash,
                    int(password_hash is not None),
                    now.isoformat(),
                ),
            )
            if password_hash is not None:  # a password given by hand: not one mailed that must come back
                self.conn.execute("UPDATE players SET confirmed = ? WHERE id = ?", (now.isoformat(), cur.lastrowid))
        found = self.player_by_id(int(cur.lastrowid or 0))
        assert found is not None
        return found

    def password_hash(self, pid: int) -> str | None:
        value = self._one("SELECT password_hash FROM players WHERE id = ?", pid)
        return None if value is None else str(value)

    def set_password(self, pid: int, password_hash: str, *, mailed: bool) -> None:
        with self.transaction():
            self.conn.execute(
                "UPDATE players SET password_hash = ?, password_mailed = ? WHERE id = ?",
                (password_hash, int(mailed), pid),
            )
            # every game the player plays has its game.yaml rewritten with the new hash
            self.conn.execute(
                "UPDATE games SET sync = 1 WHERE name IN (SELECT game FROM members WHERE player = ?)", (pid,)
            )

    def reset_password(self, pid: int) -> None:
        """A new password is to be mailed to the player (the next pass makes it)."""
        with self.transaction():
            self.conn.execute("UPDATE players SET password_mailed = 0 WHERE id = ?", (pid,))

    def password_mailed(self, pid: int) -> None:
        with self.transaction():
            self.conn.execute("UPDATE players SET password_mailed = 1 WHERE id = ?", (pid,))

    def passwords_to_mail(self, limit: int) -> list[RegisteredPlayer]:
        rows = self.conn.execute(
            f"SELECT {_PLAYER} FROM players WHERE password_mailed = 0 ORDER BY id LIMIT ?", (limit,)
        ).fetchall()
        return [_player(r) for r in rows]

    def update_profile(self, pid: int, *, timezone: str | None, language: str | None) -> None:
        with self.transaction():
            if timezone is not None:
                self.conn.execute("UPDATE players SET timezone = ? WHERE id = ?", (timezone, pid))
            if language is not None:
                self.conn.execute("UPDATE players SET language = ? WHERE id = ?", (language, pid))
            self.conn.execute(
                "UPDATE games SET sync = 1 WHERE name IN (SELECT game FROM members WHERE player = ?)", (pid,)
            )

    # -- a change of address, asked and confirmed ---------------------------------------
    def ask_address(self, pid: int, address: str, code_hash: str, now: datetime) -> None:
        """A change of the player's address to ``address``, waiting for the code mailed
        to it (a change asked before is replaced)."""
        with self.transaction():
            self.conn.execute(
                "INSERT OR REPLACE INTO address_changes (player, address, code_hash, asked) VALUES (?, ?, ?, ?)",
                (pid, address.lower(), code_hash, now.isoformat()),
            )

    def address_changes_to(self, address: str, since: datetime) -> list[tuple[int, str]]:
        """(player id, code hash) of the changes to ``address`` asked since ``since``,
        the newest first (at most three)."""
        rows = self.conn.execute(
            "SELECT player, code_hash FROM address_changes WHERE address = ? AND asked >= ?"
            " ORDER BY asked DESC, player LIMIT 3",
            (address.lower(), since.isoformat()),
        ).fetchall()
        return [(int(a), str(b)) for a, b in rows]

    def change_address(self, pid: int, address: str, now: datetime) -> RegisteredPlayer:
        """The player's address is ``address`` from now on: the former one is kept in
        their history, every change asked of them or to that address is dropped, and
        the game.yaml of every game they play or observe is written again."""
        with self.transaction():
            old = self._one("SELECT address FROM players WHERE id = ?", pid)
            self.conn.execute(
                "INSERT INTO former_addresses (player, address, until) VALUES (?, ?, ?)", (pid, old, now.isoformat())
            )
            self.conn.execute(
                "INSERT INTO player_history (player, at, kind, old, new) VALUES (?, ?, 'address', ?, ?)",
                (pid, now.isoformat(), str(old), address.lower()),
            )
            self.conn.execute("UPDATE players SET address = ? WHERE id = ?", (address.lower(), pid))
            self.conn.execute("DELETE FROM address_changes WHERE player = ? OR address = ?", (pid, address.lower()))
            self.conn.execute(
                "UPDATE games SET sync = 1 WHERE name IN (SELECT game FROM members WHERE player = ?"
                " UNION SELECT game FROM observers WHERE player = ?)",
                (pid, pid),
            )
        found = self.player_by_id(pid)
        assert found is not None
        return found

    def former_addresses(self, pid: int) -> list[tuple[str, str]]:
        """(address, until) of the player's former addresses, oldest first."""
        rows = self.conn.execute(
            "SELECT address, until FROM former_addresses WHERE player = ? ORDER BY until", (pid,)
        ).fetchall()
        return [(str(a), str(b)) for a, b in rows]

    def is_master(self, pid: int) -> bool:
        """Whether the player masters a game."""
        return self._one("SELECT 1 FROM masters WHERE player = ? LIMIT 1", pid) is not None

    # -- what strangers ask, by day ------------------------------------------------------
    def requests(self, address: str, day: str, kind: str) -> int:
        value = self._one(
            "SELECT n FROM requests WHERE address = ? AND day = ? AND kind = ?", address.lower(), day, kind
        )
        return int(value or 0)

    def count_request(self, address: str, day: str, kind: str) -> None:
        with self.transaction():
            self.conn.execute(
                "INSERT INTO requests (address, day, kind, n) VALUES (?, ?, ?, 1)"
                " ON CONFLICT (address, day, kind) DO UPDATE SET n = n + 1",
                (address.lower(), day, kind),
            )

    # -- messages the lobby answered -------------------------------------------------------
    def answered(self, key: str) -> bool:
        return self._one("SELECT 1 FROM messages WHERE key = ?", key) is not None

    def mark_answered(self, key: str, *, sender: str, outcome: str, now: datetime) -> None:
        with self.transaction():
            self.conn.execute(
                "INSERT OR REPLACE INTO messages (key, processed, sender, outcome) VALUES (?, ?, ?, ?)",
                (key, now.isoformat(), sender.lower(), outcome),
            )

    # -- the lobby's mail, decided and not yet in its outbox -----------------------------
    def queue_mail(self, folder: str, name: str, message: str) -> None:
        with self.transaction():
            self.conn.execute(
                "INSERT OR REPLACE INTO mail (folder, name, message) VALUES (?, ?, ?)", (folder, name, message)
            )

    def queued_mail(self) -> list[tuple[str, str, str]]:
        return [(str(a), str(b), str(c)) for a, b, c in self.conn.execute("SELECT folder, name, message FROM mail")]

    def mail_written(self, folder: str, name: str) -> None:
        with self.transaction():
            self.conn.execute("DELETE FROM mail WHERE folder = ? AND name = ?", (folder, name))

    # -- games ---------------------------------------------------------------------------
    def add_game(self, name: str, variant: str, settings: dict[str, Any], master: int, now: datetime) -> None:
        with self.transaction():
            self.conn.execute(
                "INSERT INTO games (name, variant, status, created, settings) VALUES (?, ?, ?, ?, ?)",
                (name, variant, FORMING, now.isoformat(), json.dumps(settings, sort_keys=True)),
            )
            self.conn.execute("INSERT INTO masters (game, player) VALUES (?, ?)", (name, master))
            self.conn.execute("UPDATE games SET creator = ? WHERE name = ?", (master, name))

    def game(self, name: str) -> GameRow | None:
        row = self.conn.execute(f"SELECT {_GAME} FROM games WHERE name = ?", (name.lower(),)).fetchone()
        return None if row is None else _game(row)

    def games(self, *statuses: str) -> list[GameRow]:
        if statuses:
            marks = ", ".join("?" * len(statuses))
            sql = f"SELECT {_GAME} FROM games WHERE status IN ({marks}) ORDER BY name"
            rows = self.conn.execute(sql, statuses).fetchall()
        else:
            rows = self.conn.execute(f"SELECT {_GAME} FROM games ORDER BY name").fetchall()
        return [_game(r) for r in rows]

    def set_status(self, name: str, status: str) -> None:
        with self.transaction():
            self.conn.execute("UPDATE games SET status = ? WHERE name = ?", (status, name))

    def set_paused(self, name: str, at: str | None, left: int | None) -> None:
        """When the game was paused and the time then left to its deadline (``at`` None:
        not paused, and the end of its pause forgotten)."""
        with self.transaction():
            self.conn.execute(
                "UPDATE games SET paused_at = ?, paused_left = ?,"
                " pause_ends = CASE WHEN ? IS NULL THEN NULL ELSE pause_ends END WHERE name = ?",
                (at, left, at, name),
            )

    def set_pause_ends(self, name: str, ends: datetime | None) -> None:
        """When the game's pause ends by itself (None: when a master resumes it)."""
        value = NEVER if ends is None else ends.astimezone(UTC).isoformat()
        with self.transaction():
            self.conn.execute("UPDATE games SET pause_ends = ? WHERE name = ?", (value, name))

    def set_deadline(self, name: str, value: str | None) -> None:
        """A deadline (``TURN ISO-TIME``) the game's directory is to be given, or None once done."""
        with self.transaction():
            self.conn.execute("UPDATE games SET deadline = ? WHERE name = ?", (value, name))

    def set_sync(self, name: str, value: bool) -> None:
        with self.transaction():
            self.conn.execute("UPDATE games SET sync = ? WHERE name = ?", (int(value), name))

    def set_settings(self, name: str, settings: dict[str, Any]) -> None:
        """A game's settings changed by a master (``set``): its game.yaml is written
        again from them at the next step (``sync``)."""
        with self.transaction():
            self.conn.execute(
                "UPDATE games SET settings = ?, sync = 1 WHERE name = ?", (json.dumps(settings, sort_keys=True), name)
            )

    def set_ended(self, name: str, at: str | None) -> None:
        with self.transaction():
            self.conn.execute("UPDATE games SET ended = ? WHERE name = ?", (at, name))

    def set_process(self, name: str, turn: str | None) -> None:
        """A turn to adjudicate at the game's next pass (None: done, or nothing asked)."""
        with self.transaction():
            self.conn.execute("UPDATE games SET process = ? WHERE name = ?", (turn, name))

    def set_rollback(self, name: str, turn: str | None) -> None:
        """A turn to roll the game back to at the next step (None: done)."""
        with self.transaction():
            self.conn.execute("UPDATE games SET rollback = ? WHERE name = ?", (turn, name))

    def set_drawn(self, name: str, drawn: list[tuple[str, tuple[str, ...]]]) -> None:
        """The draw's players, as the start mail names them (once, at the start)."""
        with self.transaction():
            self.conn.execute(
                "UPDATE games SET drawn = ? WHERE name = ? AND drawn IS NULL",
                (json.dumps([[n, list(p)] for n, p in drawn]), name),
            )

    def set_reseed(self, name: str, value: bool) -> None:
        with self.transaction():
            self.conn.execute("UPDATE games SET reseed = ? WHERE name = ?", (int(value), name))

    def set_due(self, name: str, due_at: datetime | None, stamp: str | None) -> None:
        """When the game's pass next has something to do (None: only mail or a change
        can give it something to do) and game.yaml's stamp as the pass left it."""
        value = NEVER if due_at is None else due_at.astimezone(UTC).isoformat()
        with self.transaction():
            self.conn.execute("UPDATE games SET due_at = ?, stamp = ? WHERE name = ?", (value, stamp, name))

    def status(self, name: str) -> str | None:
        """A game's status (None: no such game)."""
        value = self._one("SELECT status FROM games WHERE name = ?", name.lower())
        return None if value is None else str(value)

    def unwelcomed(self) -> list[str]:
        """The games being played with a player not yet mailed their first mail of it."""
        rows = self.conn.execute(
            "SELECT DISTINCT m.game FROM members m JOIN games g ON g.name = m.game"
            " WHERE m.side IS NOT NULL AND m.welcomed = 0 AND g.status IN (?, ?) ORDER BY m.game",
            ACTIVE,
        ).fetchall()
        return [str(r[0]) for r in rows]

    def set_recorded(self, name: str, turn: str | None) -> None:
        with self.transaction():
            self.conn.execute("UPDATE games SET recorded = ? WHERE name = ?", (turn, name))

    def masters(self, game: str) -> list[RegisteredPlayer]:
        rows = self.conn.execute(
            f"SELECT {', '.join('p.' + c.strip() for c in _PLAYER.split(','))} FROM masters m"
            " JOIN players p ON p.id = m.player WHERE m.game = ? ORDER BY p.id",
            (game,),
        ).fetchall()
        return [_player(r) for r in rows]

    def add_master(self, game: str, pid: int) -> None:
        with self.transaction():
            self.conn.execute("INSERT OR IGNORE INTO masters (game, player) VALUES (?, ?)", (game, pid))

    # -- members and sides ---------------------------------------------------------------
    def members(self, game: str) -> list[Member]:
        cols = ", ".join("p." + c.strip() for c in _PLAYER.split(","))
        rows = self.conn.execute(
            f"SELECT {cols}, m.side, m.preferences, m.joined, m.came FROM members m JOIN players p ON p.id = m.player"
            " WHERE m.game = ? ORDER BY m.joined, p.id",
            (game,),
        ).fetchall()
        return [Member(game, _player(r[:6]), r[6], tuple(str(r[7]).split()), str(r[8]), str(r[9])) for r in rows]

    def count_members(self, game: str) -> int:
        return int(self._one("SELECT count(*) FROM members WHERE game = ?", game))

    def member(self, game: str, pid: int) -> Member | None:
        return next((m for m in self.members(game) if m.player.id == pid), None)

    def games_of(self, pid: int) -> list[tuple[GameRow, str | None]]:
        """The games a player is in (any status but over), with their side."""
        rows = self.conn.execute(
            f"SELECT {', '.join('g.' + c.strip() for c in _GAME.split(','))}, m.side FROM members m"
            " JOIN games g ON g.name = m.game WHERE m.player = ? AND g.status IN (?, ?, ?, ?) ORDER BY g.name",
            (pid, FORMING, STARTING, RUNNING, PAUSED),
        ).fetchall()
        return [(_game(r[:_GAME_COLUMNS]), r[_GAME_COLUMNS]) for r in rows]

    def join(self, game: str, pid: int, preferences: list[str], now: datetime) -> None:
        with self.transaction():
            self.conn.execute(
                "INSERT INTO members (game, player, preferences, joined) VALUES (?, ?, ?, ?)",
                (game, pid, " ".join(preferences), now.isoformat()),
            )

    def leave(self, game: str, pid: int) -> None:
        with self.transaction():
            self.conn.execute("DELETE FROM members WHERE game = ? AND player = ?", (game, pid))

    def assign(self, game: str, sides: dict[int, str]) -> None:
        """Each player's side (player id -> side), at the start."""
        with self.transaction():
            for pid, side in sides.items():
                self.conn.execute("UPDATE members SET side = ? WHERE game = ? AND player = ?", (side, game, pid))

    def vacate(self, game: str, pid: int, kind: str, now: datetime) -> str | None:
        """The player leaves a started game (``kind``: resigned or ejected): their side
        is vacant. Returns the side."""
        with self.transaction():
            side = self._one("SELECT side FROM members WHERE game = ? AND player = ?", game, pid)
            self.conn.execute("DELETE FROM members WHERE game = ? AND player = ?", (game, pid))
            if side is not None:
                self.conn.execute(
                    "INSERT OR REPLACE INTO vacancies (game, side, since) VALUES (?, ?, ?)",
                    (game, side, now.isoformat()),
                )
            self.conn.execute(
                "INSERT OR IGNORE INTO events (player, game, kind, at) VALUES (?, ?, ?, ?)",
                (pid, game, kind, now.isoformat()),
            )
            self.conn.execute("UPDATE games SET sync = 1 WHERE name = ?", (game,))
        return None if side is None else str(side)

    def drop_vacancy(self, game: str, side: str) -> None:
        """``side`` is no longer offered for a takeover (its player in civil disorder came back)."""
        with self.transaction():
            self.conn.execute("DELETE FROM vacancies WHERE game = ? AND side = ?", (game, side))

    def add_vacancies(self, game: str, sides: list[str], now: datetime) -> None:
        with self.transaction():
            for side in sides:
                self.conn.execute(
                    "INSERT OR IGNORE INTO vacancies (game, side, since) VALUES (?, ?, ?)",
                    (game, side, now.isoformat()),
                )

    def vacancies(self, game: str | None = None) -> list[tuple[str, str, str]]:
        """(game, side, since) of the vacant sides of games being played."""
        sql = "SELECT v.game, v.side, v.since FROM vacancies v JOIN games g ON g.name = v.game WHERE g.status IN (?, ?)"
        args: tuple[Any, ...] = ACTIVE
        if game is not None:
            sql += " AND v.game = ?"
            args = (*args, game)
        return [(str(a), str(b), str(c)) for a, b, c in self.conn.execute(sql + " ORDER BY v.game, v.side", args)]

    def take_over(self, game: str, side: str, pid: int, now: datetime) -> None:
        """``pid`` takes ``side``, vacant: a side in civil disorder still held by its
        player (``moonshine.mail.disorder``) passes from them, as a removal."""
        with self.transaction():
            for (held,) in self.conn.execute(
                "SELECT player FROM members WHERE game = ? AND side = ?", (game, side)
            ).fetchall():
                self.conn.execute("DELETE FROM members WHERE game = ? AND player = ?", (game, held))
                self.conn.execute(
                    "INSERT OR IGNORE INTO events (player, game, kind, at) VALUES (?, ?, ?, ?)",
                    (held, game, "removed", now.isoformat()),
                )
            self.conn.execute("DELETE FROM vacancies WHERE game = ? AND side = ?", (game, side))
            self.conn.execute(
                "INSERT INTO members (game, player, side, joined, came) VALUES (?, ?, ?, ?, ?)",
                (game, pid, side, now.isoformat(), TAKEOVER),
            )
            self.conn.execute("UPDATE games SET sync = 1 WHERE name = ?", (game,))

    def left(self, game: str, pid: int) -> str | None:
        """How a player last left a started game (``resigned``, ``ejected``), or None."""
        value = self._one(
            "SELECT kind FROM events WHERE game = ? AND player = ? AND kind IN ('resigned', 'ejected')"
            " ORDER BY at DESC LIMIT 1",
            game,
            pid,
        )
        return None if value is None else str(value)

    # -- who may join a private game, who observes -----------------------------------------
    def invite(self, game: str, pid: int, now: datetime) -> bool:
        """Whether the player is newly invited (False: invited already)."""
        with self.transaction():
            cur = self.conn.execute(
                "INSERT OR IGNORE INTO invitations (game, player, invited) VALUES (?, ?, ?)",
                (game, pid, now.isoformat()),
            )
        return cur.rowcount > 0

    def invited(self, game: str, pid: int) -> bool:
        return self._one("SELECT 1 FROM invitations WHERE game = ? AND player = ?", game, pid) is not None

    def add_observer(self, game: str, pid: int, now: datetime) -> bool:
        """Whether the player newly observes the game (its game.yaml is written again)."""
        with self.transaction():
            cur = self.conn.execute(
                "INSERT OR IGNORE INTO observers (game, player, since) VALUES (?, ?, ?)", (game, pid, now.isoformat())
            )
            if cur.rowcount:
                self.conn.execute("UPDATE games SET sync = 1 WHERE name = ?", (game,))
        return cur.rowcount > 0

    def observers(self, game: str) -> list[RegisteredPlayer]:
        cols = ", ".join("p." + c.strip() for c in _PLAYER.split(","))
        rows = self.conn.execute(
            f"SELECT {cols} FROM observers o JOIN players p ON p.id = o.player WHERE o.game = ? ORDER BY p.id", (game,)
        ).fetchall()
        return [_player(r) for r in rows]

    def players_named(self, name: str) -> list[RegisteredPlayer]:
        """The players registered under ``name`` (any case, blanks as one)."""
        wanted = " ".join(name.split())
        rows = self.conn.execute(
            f"SELECT {_PLAYER} FROM players WHERE name = ? COLLATE NOCASE ORDER BY id", (wanted,)
        ).fetchall()
        return [_player(r) for r in rows]

    # -- dedication ----------------------------------------------------------------------
    def record_turn(self, pid: int, game: str, turn: str, side: str, on_time: bool) -> None:
        with self.transaction():
            self.conn.execute(
                "INSERT OR IGNORE INTO turns (player, game, turn, side, on_time) VALUES (?, ?, ?, ?, ?)",
                (pid, game, turn, side, int(on_time)),
            )

    def record_event(self, pid: int, game: str, kind: str, now: datetime) -> None:
        with self.transaction():
            self.conn.execute(
                "INSERT OR IGNORE INTO events (player, game, kind, at) VALUES (?, ?, ?, ?)",
                (pid, game, kind, now.isoformat()),
            )

    def dedication(self, pid: int) -> Dedication:
        on_time, due = self.conn.execute(
            "SELECT coalesce(sum(on_time), 0), count(*) FROM turns WHERE player = ?", (pid,)
        ).fetchone()
        counts = dict(
            self.conn.execute("SELECT kind, count(*) FROM events WHERE player = ? GROUP BY kind", (pid,)).fetchall()
        )
        return Dedication(
            int(on_time),
            int(due),
            sum(int(counts.get(kind, 0)) for kind in LEFT),
            int(counts.get("finished", 0)),
            int(counts.get(DISORDER, 0)),
        )

    # -- proven addresses, names, addresses and codes -------------------------------------
    def confirmed(self, pid: int) -> bool:
        """Whether the player's address is proven: a mail with the password the judge
        mailed to it came back."""
        return self._one("SELECT confirmed FROM players WHERE id = ?", pid) is not None

    def confirm(self, pid: int, now: datetime) -> None:
        with self.transaction():
            self.conn.execute(
                "UPDATE players SET confirmed = ? WHERE id = ? AND confirmed IS NULL", (now.isoformat(), pid)
            )

    def expire_unconfirmed(self, before: datetime) -> list[RegisteredPlayer]:
        """Registrations never confirmed and made before ``before``, in no game and
        master of none: forgotten (their address and name are free again)."""
        rows = self.conn.execute(
            f"SELECT {_PLAYER} FROM players WHERE confirmed IS NULL AND registered < ?"
            " AND id NOT IN (SELECT player FROM members) AND id NOT IN (SELECT player FROM masters)"
            " AND id NOT IN (SELECT player FROM turns) AND id NOT IN (SELECT player FROM events)",
            (before.isoformat(),),
        ).fetchall()
        gone = [_player(r) for r in rows]
        with self.transaction():
            for p in gone:
                for table in ("codes", "player_history", "address_changes", "invitations", "observers"):
                    self.conn.execute(f"DELETE FROM {table} WHERE player = ?", (p.id,))
                self.conn.execute("DELETE FROM players WHERE id = ?", (p.id,))
        return gone

    def players_named_alike(self, folded: str, fold: Any) -> list[RegisteredPlayer]:
        """The players whose name, folded by ``fold`` (case, accents, spaces), is
        ``folded``."""
        rows = self.conn.execute(f"SELECT {_PLAYER} FROM players").fetchall()
        return [_player(r) for r in rows if fold(str(r[2])) == folded]

    def rename(self, pid: int, name: str, now: datetime) -> None:
        with self.transaction():
            old = self._one("SELECT name FROM players WHERE id = ?", pid)
            self.conn.execute("UPDATE players SET name = ? WHERE id = ?", (name, pid))
            self.conn.execute(
                "INSERT INTO player_history (player, at, kind, old, new) VALUES (?, ?, 'name', ?, ?)",
                (pid, now.isoformat(), str(old), name),
            )
            self.conn.execute(
                "UPDATE games SET sync = 1 WHERE name IN (SELECT game FROM members WHERE player = ?)", (pid,)
            )

    def history(self, pid: int) -> list[tuple[str, str, str, str]]:
        """(when, kind, old, new) of every change of the player's name and address."""
        rows = self.conn.execute(
            "SELECT at, kind, old, new FROM player_history WHERE player = ? ORDER BY rowid", (pid,)
        ).fetchall()
        return [(str(a), str(b), str(c), str(d)) for a, b, c, d in rows]

    def add_code(self, digest: str, pid: int, kind: str, value: str, now: datetime, expires: datetime) -> None:
        """A code mailed to an address (its hash only): a player has one of each kind at
        a time, the newest."""
        with self.transaction():
            self.conn.execute("DELETE FROM codes WHERE player = ? AND kind = ?", (pid, kind))
            self.conn.execute(
                "INSERT OR REPLACE INTO codes (digest, player, kind, value, created, expires)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (digest, pid, kind, value, now.isoformat(), expires.isoformat()),
            )

    def take_code(self, digest: str, kind: str, now: datetime) -> tuple[int, str] | None:
        """The player and value of a code not yet used nor expired, used up now."""
        with self.transaction():
            row = self.conn.execute(
                "SELECT player, value, expires FROM codes WHERE digest = ? AND kind = ?", (digest, kind)
            ).fetchone()
            if row is None:
                return None
            self.conn.execute("DELETE FROM codes WHERE digest = ?", (digest,))
            if str(row[2]) < now.isoformat():
                return None
            return int(row[0]), str(row[1])

    def pending_code(self, pid: int, kind: str, now: datetime) -> str | None:
        """The value of the player's code of ``kind`` still waiting to be used."""
        value = self._one(
            "SELECT value FROM codes WHERE player = ? AND kind = ? AND expires >= ?", pid, kind, now.isoformat()
        )
        return None if value is None else str(value)

    def creator(self, game: str) -> int | None:
        value = self._one("SELECT creator FROM games WHERE name = ?", game)
        return None if value is None else int(value)

    def event_at(self, pid: int, game: str, kind: str) -> str | None:
        """When the player resigned from (or was ejected from, or finished) ``game``."""
        value = self._one("SELECT at FROM events WHERE player = ? AND game = ? AND kind = ?", pid, game, kind)
        return None if value is None else str(value)
