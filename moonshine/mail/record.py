"""The record of what a game's unattended pass has done, ``run.yaml``: when each
turn opened, the reminders sent, the turns whose reports went to the outbox, the errors
reported and a deadline's time before an absence moved it. A game of an earlier version
kept it in ``judge.yaml`` (the name of a judge's settings file since): read when there is
no ``run.yaml``, and removed by the next write. And the record's times, in ISO 8601 and
UTC."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import msgspec

from moonshine.errors import StateError
from moonshine.game.directory import Game, atomic_write_text

RECORD = "run.yaml"
OLD_RECORD = "judge.yaml"  # the record's name before 2026-12 (a judge's settings file since): read, then renamed
RECORD_FILES = [RECORD, OLD_RECORD]  # what a commit of the record holds (the old one's removal)

Log = Callable[[str], None]


class Record(msgspec.Struct):
    """``run.yaml``: what the unattended judge has done."""

    opened: dict[str, str] = msgspec.field(default_factory=dict)  # turn -> when it opened (ISO, UTC)
    reminded: dict[str, list[str]] = msgspec.field(default_factory=dict)  # turn -> reminder times done
    mailed: list[str] = msgspec.field(default_factory=list)  # turns whose reports went to the outbox
    errors: dict[str, dict[str, str]] = msgspec.field(default_factory=dict)  # key -> step, text, since
    scheduled: dict[str, str] = msgspec.field(default_factory=dict)  # turn -> its deadline before an absence moved it

    def data(self) -> dict[str, Any]:
        return {
            "opened": dict(sorted(self.opened.items())),
            "scheduled": dict(sorted(self.scheduled.items())),
            "reminded": {t: sorted(v) for t, v in sorted(self.reminded.items())},
            "mailed": list(self.mailed),
            "errors": {k: self.errors[k] for k in sorted(self.errors)},
        }


def load_record(game: Game) -> Record:
    from moonshine import yamlio

    path = game.root / RECORD
    if not path.is_file():
        path = game.root / OLD_RECORD  # a game's record written by an earlier version
    if not path.is_file():
        return Record()
    raw = yamlio.load(path, what="judge's record")
    if raw is None:
        return Record()
    if not isinstance(raw, dict):
        raise StateError(str(path), "", "expected a mapping (opened, reminded, mailed, errors)")
    try:
        return Record(
            opened={str(k): str(v) for k, v in (raw.get("opened") or {}).items()},
            reminded={str(k): [str(x) for x in v or []] for k, v in (raw.get("reminded") or {}).items()},
            mailed=[str(x) for x in raw.get("mailed") or []],
            errors={str(k): {str(a): str(b) for a, b in v.items()} for k, v in (raw.get("errors") or {}).items()},
            scheduled={str(k): str(v) for k, v in (raw.get("scheduled") or {}).items()},
        )
    except (AttributeError, TypeError):
        raise StateError(str(path), "", "not a record of the judge; move it away to start a new one") from None


def save_record(game: Game, record: Record) -> None:
    """Write the record (in the job's transaction: a record of an earlier version,
    ``judge.yaml``, goes in the same one)."""
    from moonshine import yamlio
    from moonshine.game.journal import active

    head = "# What the unattended judge (moonshine run) did: turns opened, reminders, reports, errors reported.\n"
    atomic_write_text(game.root / RECORD, head + yamlio.dump(record.data()))
    old = game.root / OLD_RECORD
    if old.is_file():
        txn = active(game.root)
        if txn is not None:
            txn.remove(old)
        else:
            old.unlink()


def iso(when: datetime) -> str:
    return when.astimezone(UTC).replace(microsecond=0).isoformat()


def parse_iso(text: str) -> datetime:
    when = datetime.fromisoformat(text)
    return when if when.tzinfo else when.replace(tzinfo=UTC)
