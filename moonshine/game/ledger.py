"""The sent-mail ledger: what was delivered from an outbox folder (a game's
``outbox/TURN/``, a judge's ``outbox/DAY/``), by Message-ID, in the folder's
``sent.yaml``, so that sending again never delivers a message twice to the same
address.

An entry names the outbox file (``file``) and its recipients by outcome:
``delivered``; ``failed`` (the server refused, 5xx; or a transient failure went
on for ``GIVE_UP``), with the reason; ``deferred`` (the server could not take it
for a while: unreachable, a 4xx reply), with the reason, the tries, the first
failure and the next try; ``unknown`` (the connection ended after the message
may have gone out: never sent again by itself), with the reason; and, while a
delivery is under way, ``sending``: a pass killed then leaves them of unknown
outcome. The reading is strict (``moonshine.schema.SENT``).

Every function takes the folder; ``outbox_dir`` gives a game's for a turn. The
mail package writes the folder's messages and sends them
(``moonshine.mail.outbox``); the game layer reads which reports were mailed
(``moonshine.game.jobs.mailed_reports``)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import msgspec

from moonshine.game.directory import Game, atomic_write_text

SENT_FILE = "sent.yaml"
OUTBOX = "outbox"
# A delivery that failed for a while (the server unreachable, a 4xx reply) is tried
# again by later passes of the judge: first after RETRY_FIRST, each wait twice the one
# before, at most RETRY_MOST; after GIVE_UP since the first failure it has failed.
RETRY_FIRST = timedelta(minutes=2)
RETRY_MOST = timedelta(hours=1)
GIVE_UP = timedelta(days=2)
INTERRUPTED = "the run sending it was interrupted after the message was sent"


def outbox_dir(game: Game, turn: str) -> Path:
    """A game's outbox folder for ``turn`` (a turn, or a classic game's phase)."""
    return game.root / OUTBOX / game.turn_name(turn)


def iso(when: datetime) -> str:
    """A time as the ledger writes it: ISO 8601 in UTC, to the second."""
    return when.astimezone(UTC).replace(microsecond=0).isoformat()


def _when(value: Any) -> datetime:
    when = value if isinstance(value, datetime) else datetime.fromisoformat(str(value))
    return when if when.tzinfo else when.replace(tzinfo=UTC)


def load_sent_raw(folder: Path) -> dict[str, dict[str, Any]]:
    """``sent.yaml`` as written, checked strictly (``moonshine.schema.SENT``)."""
    from moonshine import schema, yamlio

    path = folder / SENT_FILE
    if not path.is_file():
        return {}
    raw = yamlio.load(path, what="record of sent mail")
    if raw is None:
        return {}
    schema.check(raw, schema.SENT, str(path))
    return {str(k): dict(v) for k, v in raw.items()}


def load_sent(folder: Path) -> dict[str, dict[str, Any]]:
    """``sent.yaml``, with the recipients a killed run was sending to read as of
    unknown outcome (the server may have the message)."""
    out = load_sent_raw(folder)
    for entry in out.values():
        sending = entry.pop("sending", None) or []
        if sending:
            unknown = dict(entry.get("unknown") or {})
            for r in sending:
                if r not in (entry.get("delivered") or []):
                    unknown.setdefault(str(r), INTERRUPTED)
            entry["unknown"] = dict(sorted(unknown.items()))
    return out


def save_sent(folder: Path, sent: dict[str, dict[str, Any]]) -> None:
    from moonshine import yamlio

    text = "# Mail delivered for this turn, by Message-ID. Sending again skips these recipients.\n"
    atomic_write_text(folder / SENT_FILE, text + yamlio.dump({k: sent[k] for k in sorted(sent)}))


def save_entry(folder: Path, msg_id: str, entry: dict[str, Any]) -> None:
    """One message's entry written (the others as they are)."""
    sent = load_sent_raw(folder)
    sent[msg_id] = entry
    save_sent(folder, sent)


def sent_versions(folder: Path, name: str) -> list[str]:
    """Message-IDs already sent (to someone) from the outbox file ``name``."""
    return sorted(k for k, v in load_sent(folder).items() if v.get("file") == name and v.get("delivered"))


def delivered_to(folder: Path, msg_id: str) -> list[str]:
    entry = load_sent(folder).get(msg_id, {})
    done = entry.get("delivered") or []
    return [str(a) for a in done] if isinstance(done, list) else []


def has_deferrals(folder: Path) -> bool:
    """Whether a delivery from the folder waits for a later try (a transient failure)."""
    path = folder / SENT_FILE
    return path.is_file() and "deferred:" in path.read_text(encoding="utf-8")


class Deferral(msgspec.Struct, frozen=True):
    """A recipient not reached for a transient reason (``deferred`` in ``sent.yaml``):
    the last reason, the tries so far, the first failure and the next try."""

    reason: str
    tries: int
    first: datetime
    next: datetime

    def again(self, reason: str, now: datetime) -> Deferral:
        """One more failed try at ``now``: the wait doubles."""
        tries = self.tries + 1
        wait = min(RETRY_FIRST * 2 ** min(tries - 1, 20), RETRY_MOST)
        return Deferral(reason, tries, self.first, now + wait)

    def data(self) -> dict[str, Any]:
        return {"reason": self.reason, "tries": self.tries, "first": iso(self.first), "next": iso(self.next)}


def deferrals(entry: dict[str, Any]) -> dict[str, Deferral]:
    """The deferred recipients of one ``sent.yaml`` entry."""
    return {
        str(addr): Deferral(str(d["reason"]), int(d["tries"]), _when(d["first"]), _when(d["next"]))
        for addr, d in (entry.get("deferred") or {}).items()
    }


def interrupted(folder: Path) -> dict[str, dict[str, Any]]:
    """The entries of ``sent.yaml`` a killed run left while sending (``sending``), by
    Message-ID: each with its file and the recipients whose outcome is unknown."""
    return {k: v for k, v in load_sent_raw(folder).items() if v.get("sending")}


def settle_interrupted(folder: Path) -> list[tuple[str, str, str]]:
    """Record the deliveries a killed run left at ``sending`` as of unknown outcome
    (never sent again by itself); returns (file, address, why) for each. The caller
    holds the lock of the folder's game (or judge)."""
    sent = load_sent_raw(folder)
    found = []
    for entry in sent.values():
        sending = entry.pop("sending", None) or []
        done = entry.get("delivered") or []
        unknown = dict(entry.get("unknown") or {})
        for r in sending:
            if r not in done:
                why = unknown.setdefault(str(r), INTERRUPTED)
                found.append((str(entry.get("file")), str(r), why))
        if unknown:
            entry["unknown"] = dict(sorted(unknown.items()))
    if found:
        save_sent(folder, sent)
    return found
