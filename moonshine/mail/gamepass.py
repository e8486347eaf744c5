"""One pass over one game as its steps share it: the game, the clock read once, the
log, the record (``moonshine.mail.record``) and the steps that failed; a step's error
logged and mailed to the game master once (at most one error mail waiting in the
outbox, an undelivered one taken into the next), and forgotten once mended. Each job
of the pass (``moonshine.mail.run``) is a step taking a ``Pass``."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

import msgspec

from moonshine.errors import MoonshineError
from moonshine.game import ledger
from moonshine.game.directory import GAME_FILE, Game, is_git_repo
from moonshine.game.journal import Transaction, transaction
from moonshine.mail import outbox
from moonshine.mail.outbox import compose
from moonshine.mail.record import RECORD_FILES, Log, Record, iso, save_record
from moonshine.mail.settings import from_address, game_master_addresses
from moonshine.mail.turns import previous_turn
from moonshine.text.english import count

if TYPE_CHECKING:
    from moonshine.mail.inbox.context import Budget


def game_master(game: Game) -> list[str]:
    """Where errors go (``moonshine.mail.settings.game_master_addresses``)."""
    return game_master_addresses(game.config)


class Pass(msgspec.Struct):
    """One pass over one game."""

    game: Game
    now: datetime
    say: Log
    record: Record = msgspec.field(default_factory=Record)
    failed_steps: set[str] = msgspec.field(default_factory=set)
    reported: set[str] = msgspec.field(default_factory=set)  # error keys seen in this pass
    errors_mailed: int = 0
    authserv: str | None = None  # a judge for many games' trusted mail server (over the game's own)
    budget: Budget | None = None  # a judge for many games' daily budget of mail to unproven addresses
    held: list[datetime] = msgspec.field(default_factory=list)  # when each message held unread was received
    held_out: list[str] | None = None  # receives the origins of the messages held unread (run_game's held)

    @property
    def root(self) -> Path:
        return self.game.root

    def log(self, line: str) -> None:
        self.say(line)

    # -- steps ----------------------------------------------------------------------------
    def step(self, name: str, fn: Callable[[], None]) -> bool:
        """Run a step; an error is logged and reported to the game master once."""
        try:
            fn()
            return True
        except MoonshineError as exc:
            self.error(name, str(exc))
        except OSError as exc:
            self.error(name, f"{type(exc).__name__}: {exc}")
        return False

    def error(self, step: str, text: str, *, fails: bool = True) -> None:
        """Log the error and mail it to the game master once. ``fails=False``: a
        notice of something the pass could not help (a delivery of unknown outcome
        that a killed pass left): the step has not failed."""
        if fails:
            self.failed_steps.add(step)
        key = f"{step}-{hashlib.sha256(f'{step}|{text}'.encode()).hexdigest()[:12]}"
        self.reported.add(key)
        self.log(f"ERROR {step}: {text}")
        if key in self.record.errors:
            return
        self.record.errors[key] = {"step": step, "since": iso(self.now), "text": text}
        try:
            self._mail_error(key, step, text)
        except MoonshineError as exc:  # the game master is told in the log at least
            self.log(f"ERROR report: the error could not be written for the game master: {exc}")

    def _mail_error(self, key: str, step: str, text: str) -> None:
        """The error, in a mail to the game master in the outbox (delivered by the
        pass's next ``deliver``). An earlier error mail that has reached nobody yet
        (the server down) is folded into this one and leaves the outbox: the game
        master has at most one error mail waiting, with every error in it."""
        game = self.game
        to = game_master(game)
        turn = game.current_turn()
        with transaction(self.root, "run: error report", notify=self.log) as txn:
            written = ""
            if to:
                cfg = game.config
                body = (
                    f"The judge of '{cfg.title}' ({self.root}) met an error at {iso(self.now)} "
                    f"while it was {STEP_WORDS.get(step, step)}:\n\n{text}\n\n"
                    "It goes on with the rest of its work and tries again at every run; this error is "
                    "mailed once, until it is mended and comes back.\n"
                )
                earlier = self._waiting_error_mails(txn)
                for when, old in earlier:
                    body += f"\n-- An earlier error mail ({when}), not delivered to you until now:\n\n{old}"
                masters, hidden = compose.unseen(from_address(cfg), to)
                msg = compose.text_message(
                    sender=from_address(cfg),
                    to=masters,
                    bcc=hidden,
                    subject=f"{compose.subject_prefix(cfg)} judge error: {STEP_WORDS.get(step, step)}",
                    body=body,
                    msg_id=compose.message_id(cfg, turn, "error", key, iso(self.now)),
                    date=self.now,
                )
                stamp = self.now.astimezone(UTC).strftime("%Y%m%dt%H%M%S")
                written = f"error-{key}-{stamp}.eml"
                outbox.write_outbox(game, turn, [outbox.Outgoing(written, msg)])
                if earlier:
                    written += f" (with {count(len(earlier), 'earlier error mail')} not delivered yet)"
            save_record(game, self.record)
            self.errors_mailed += 1
            paths = [*RECORD_FILES, *(f"outbox/{t}" for t in self._mail_turns())]
            txn.commit(f"Error reported: {step}", paths, git=is_git_repo(self.root))
        if to:
            self.log(f"error written to the outbox for the game master ({', '.join(to)}): {written}")
        else:
            self.log("no game master address (referee): the error is in this log only")

    def _mail_turns(self) -> list[str]:
        cur = self.game.current_turn()
        return [t for t in (previous_turn(self.game, cur), cur) if t is not None]

    def _waiting_error_mails(self, txn: Transaction) -> list[tuple[str, str]]:
        """The error mails in the outbox that have reached nobody (neither delivered
        nor perhaps delivered) and are still to be tried: removed, and returned (their
        date and text) to be folded into the next one."""
        out = []
        for turn in self._mail_turns():
            sent = ledger.load_sent(ledger.outbox_dir(self.game, turn))
            for path in sorted(ledger.outbox_dir(self.game, turn).glob("error-*.eml")):
                msg = outbox.load_message(path)
                entry = sent.get(str(msg.get("Message-ID", "")).strip(), {})
                if entry.get("delivered") or entry.get("unknown"):
                    continue
                if set(outbox.recipients(msg)) <= set(entry.get("failed") or {}):
                    continue  # failed for good: the log said so
                body = msg.get_body(("plain",))
                out.append((str(msg.get("Date", "")), body.get_content() if body is not None else ""))
                txn.remove(path)
        return out

    def forget_mended(self) -> None:
        """Errors of steps that went well this pass are over: if one comes back, it
        is reported again."""
        gone = [
            k
            for k, v in self.record.errors.items()
            if v.get("step") not in self.failed_steps and k not in self.reported
        ]
        if not gone:
            return
        for k in gone:
            del self.record.errors[k]
        with transaction(self.root, "run: errors mended", notify=self.log) as txn:
            save_record(self.game, self.record)
            txn.commit("Errors mended", RECORD_FILES, git=is_git_repo(self.root))


STEP_WORDS = {
    "disorder": "counting the turns missed (the missed-turn policy, nmr:)",
    "time": "doing what the players' votes on time ask (pause, resume, extend)",
    "intake": "reading the mailbox",
    "deliver": "sending mail",
    "adjudicate": "adjudicating",
    "reports": "putting the reports in the outbox",
    "deadline": "setting the deadline",
    "remind": "writing the reminders",
    "votes": "writing the notices of draw and concession votes",
    "settings": "reading the game (game.yaml, the current turn's state)",
}


def commit_game_masters_edits(p: Pass) -> None:
    """Edits the game master left uncommitted in game.yaml go in a commit of their own
    before the judge writes a deadline there, so that its commit holds its change alone."""
    from moonshine.game.git import git_commit

    if is_git_repo(p.root) and git_commit(p.root, f"{GAME_FILE}: the game master's edits", [GAME_FILE]):
        p.log(f"committed the game master's edits to {GAME_FILE} before writing a deadline there")
