"""The turn's log of orders received by mail (``orders/TURN/inbox.yaml``): every message
processed, what became of it and the submission that stands for each side; the
journal a pass keeps until it writes the log, and its recovery after a kill."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path
from typing import Any

import msgspec

from moonshine import yamlio
from moonshine.errors import StateError
from moonshine.game.directory import Game, atomic_write_text
from moonshine.mail.envelope import as_utc

LOG_FILE = "inbox.yaml"
HISTORY = "history"  # orders/TURN/history/: every submission kept, for the game master


JOURNAL = ".inbox-journal"  # one line per message of a run, until the run's end writes the log


ACCEPTED = "accepted"


SUPERSEDED = "superseded"  # authentic and on time, but a later submission was received first


REJECTED = "rejected"


IGNORED = "ignored"  # bounces and automatic replies: logged, never answered


OUTCOMES = (ACCEPTED, SUPERSEDED, REJECTED, IGNORED)


class TurnLog(msgspec.Struct):
    """``orders/TURN/inbox.yaml``: every message processed for the turn, and the
    submission that stands for each gang."""

    submissions: list[dict[str, Any]] = msgspec.field(default_factory=list)
    current: dict[str, dict[str, Any]] = msgspec.field(default_factory=dict)  # gang -> its standing submission

    def ids(self) -> set[str]:
        """Message-IDs of messages whose sender and password checked out (and of
        entries written before digests were kept)."""
        return {str(s.get("message_id")) for s in self.submissions if s.get("checked") or "digest" not in s}

    def digests(self) -> set[str]:
        """Digests of every message processed: the same bytes are never processed twice."""
        return {str(s["digest"]) for s in self.submissions if s.get("digest")}

    def source_keys(self) -> set[str]:
        """What the mail sources call the messages processed (``Entry.key``)."""
        return {str(s["source_key"]) for s in self.submissions if s.get("source_key")}


def log_path(game: Game, turn: str) -> Path:
    return game.orders_dir(turn) / LOG_FILE


def load_log(game: Game, turn: str) -> TurnLog:
    path = log_path(game, turn)
    if not path.is_file():
        return TurnLog()
    from moonshine import schema, yamlio

    raw = yamlio.load(path, what="inbox log") or {}
    schema.check(raw, schema.INBOX, str(path))
    if not isinstance(raw, dict):
        raise StateError(str(path), "", "expected a mapping with submissions and current")
    subs = raw.get("submissions") or []
    current = raw.get("current") or {}
    if not isinstance(subs, list) or not isinstance(current, dict):
        raise StateError(str(path), "", "submissions must be a list and current a mapping")
    return TurnLog([s for s in subs if isinstance(s, dict)], {str(k): v for k, v in current.items()})


LOG_HEAD = "# Orders received by mail for this turn (moonshine inbox). 'current' is what stands.\n"


def log_text(log: TurnLog) -> str:
    """The turn's log as its file holds it: the YAML of ``{current, submissions}``,
    written a submission at a time (the same text as the whole mapping at once, but
    the memory it takes is one submission's, not the whole turn's: a run reading a
    thousand messages writes the log of all of them)."""
    current = {g: log.current[g] for g in sorted(log.current)}
    if not log.submissions:
        return LOG_HEAD + yamlio.dump({"current": current, "submissions": []})
    parts = [LOG_HEAD, yamlio.dump({"current": current}), "submissions:\n"]
    parts += [yamlio.dump([sub]) for sub in log.submissions]
    return "".join(parts)


def save_log(game: Game, turn: str, log: TurnLog) -> None:
    atomic_write_text(log_path(game, turn), log_text(log))


def processed_ids(game: Game) -> set[str]:
    """Message-IDs processed, with their sender and password checked, in any turn
    of the game."""
    return seen_before(game)[0]


def seen_before(game: Game) -> tuple[set[str], set[str], set[str]]:
    """Checked Message-IDs, digests and source keys of every message processed in any turn."""
    ids: set[str] = set()
    digests: set[str] = set()
    keys: set[str] = set()
    base = game.root / "orders"
    if base.is_dir():
        for d in sorted(base.iterdir()):
            if (d / LOG_FILE).is_file():
                log = load_log(game, d.name)
                ids |= log.ids()
                digests |= log.digests()
                keys |= log.source_keys()
            if (d / JOURNAL).is_file():
                for entry in _journal_entries(d / JOURNAL):
                    sub = entry.get("submission") or {}
                    if sub.get("digest"):
                        digests.add(str(sub["digest"]))
                    if sub.get("checked"):
                        ids.add(str(sub.get("message_id")))
                    if sub.get("source_key"):
                        keys.add(str(sub["source_key"]))
    return ids, digests, keys


def _journal_entries(path: Path) -> list[dict[str, Any]]:
    """The entries of an interrupted run's journal (a line cut short by a kill is skipped)."""
    out: list[dict[str, Any]] = []
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return out
    for line in text.splitlines():
        try:
            entry = json.loads(line)
        except ValueError:
            continue
        if isinstance(entry, dict) and isinstance(entry.get("submission"), dict):
            out.append(entry)
    return out


def recover_journal(game: Game, turn: str, log: TurnLog) -> None:
    """Finish the log of a run that was interrupted: what its journal says was
    done goes into ``inbox.yaml``, then the journal goes."""
    path = game.orders_dir(turn) / JOURNAL
    if not path.is_file():
        return
    known = {(s.get("digest"), s.get("processed")) for s in log.submissions}
    for entry in _journal_entries(path):
        sub = entry["submission"]
        if (sub.get("digest"), sub.get("processed")) in known:
            continue
        log.submissions.append(sub)
        current = entry.get("current")
        if isinstance(current, dict) and sub.get("gang"):
            log.current[str(sub["gang"])] = current
    save_log(game, turn, log)
    path.unlink()


def parse_time(value: Any) -> datetime | None:
    if isinstance(value, datetime):
        return as_utc(value)
    if isinstance(value, str):
        try:
            return as_utc(datetime.fromisoformat(value))
        except ValueError:
            return None
    return None
