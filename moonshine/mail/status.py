"""Who has sent orders for a turn and who has not, the time left, and the reminders to
the sides without orders (``moonshine status``, ``moonshine remind``)."""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime

import msgspec

from moonshine.game import families, masking
from moonshine.game.directory import GAME_FILE, Game, deadline, player_language
from moonshine.mail import outbox
from moonshine.mail.inbox.outcome import OTHER, REFUSALS
from moonshine.mail.inbox.replies import signature_line
from moonshine.mail.inbox.turnlog import REJECTED, load_log, parse_time
from moonshine.mail.outbox import compose
from moonshine.mail.settings import from_address, player_addresses
from moonshine.render import mailwords, pages
from moonshine.render.mailwords import describe_time_left, fmt_time, subject_turn
from moonshine.text.english import count


class GangStatus(msgspec.Struct, frozen=True):
    gang: str
    name: str
    has_orders: bool
    received: datetime | None  # when the standing orders were received by mail
    accepted: int | None
    rejected: int | None
    addresses: tuple[str, ...]
    has_password: bool
    refused: tuple[tuple[str, int], ...] = ()  # (one of REFUSALS, how many), messages naming this gang refused
    last_refused_from: str = ""  # the sender of the last of them, as the inbox judged it

    def refusals(self) -> str:
        """``refused: 2 wrong password, 1 late (last from x@y.example)``, or ""."""
        if not self.refused:
            return ""
        counts = ", ".join(f"{n} {kind}" for kind, n in self.refused)
        last = f" (last from {self.last_refused_from})" if self.last_refused_from else ""
        return f"refused: {counts}{last}"

    def as_json(self) -> dict[str, object]:
        """This side's row of ``moonshine status --json``."""
        return {
            "side": self.gang,
            "name": self.name,
            "orders": "missing" if not self.has_orders else "on file" if self.received is None else "received",
            "received": self.received.isoformat() if self.received is not None else None,
            "accepted": self.accepted,
            "rejected": self.rejected,
            "addresses": list(self.addresses),
            "password_set": self.has_password,
            "refused": dict(self.refused),
            "last_refused_from": self.last_refused_from or None,
        }

    def line(self) -> str:
        if self.has_orders and self.received is not None:
            counts = count(self.accepted or 0, "order") + (f", {self.rejected} rejected" if self.rejected else "")
            state = f"orders received {fmt_time(self.received)} ({counts})"
        elif self.has_orders:
            state = "orders on file (not received by mail)"
        else:
            state = "MISSING"
        notes = []
        if not self.addresses:
            notes.append(f"no address in {GAME_FILE}")
        if not self.has_password:
            notes.append("no password (moonshine passwd)")
        if self.refused:
            notes.append(self.refusals())
        extra = f"  [{'; '.join(notes)}]" if notes else ""
        return masking.terminal_safe(f"{self.gang:<10} {self.name:<22} {state}{extra}")


class TurnStatus(msgspec.Struct, frozen=True):
    turn: str
    deadline: datetime | None
    now: datetime
    gangs: list[GangStatus]

    @property
    def missing(self) -> list[str]:
        return [g.gang for g in self.gangs if not g.has_orders]

    def time_left(self, language: str = "en") -> str:
        return describe_time_left(self.deadline, self.now, language)

    def as_json(self) -> dict[str, object]:
        """The turn's status for a game master's scripts (``moonshine status --json``):
        the deadline and the seconds left (negative once passed), and every side's row."""
        left = int((self.deadline - self.now).total_seconds()) if self.deadline is not None else None
        return {
            "turn": self.turn,
            "deadline": self.deadline.isoformat() if self.deadline is not None else None,
            "now": self.now.isoformat(),
            "seconds_left": left,
            "missing": self.missing,
            "sides": [g.as_json() for g in self.gangs],
        }


def turn_status(game: Game, turn: str | None = None, *, now: datetime | None = None) -> TurnStatus:
    """Which gangs have orders on file for ``turn`` and how long is left."""
    turn = turn or game.current_turn()
    game.require_turn(turn)  # a turn (or phase) of this game
    cfg = game.config
    log = load_log(game, turn)
    refused: dict[str, Counter[str]] = {}
    last_from: dict[str, str] = {}
    for sub in log.submissions:
        named = sub.get("gang") or sub.get("about")
        if sub.get("outcome") != REJECTED or not isinstance(named, str):
            continue
        kind = sub.get("refusal") if sub.get("refusal") in REFUSALS else OTHER
        refused.setdefault(named, Counter())[str(kind)] += 1
        last_from[named] = str(sub.get("from") or "")
    rows = []
    for key, name in game.sides().items():
        current = log.current.get(key) or {}
        counted = refused.get(key, Counter())
        has = (game.orders_dir(turn) / f"{key}.txt").is_file()
        player = cfg.players.get(key)
        rows.append(
            GangStatus(
                gang=key,
                name=name,
                has_orders=has,
                received=parse_time(current.get("received")) if has else None,
                accepted=current.get("accepted"),
                rejected=current.get("rejected"),
                addresses=tuple(player_addresses(cfg, key)),
                has_password=bool(player and player.password),
                refused=tuple((kind, counted[kind]) for kind in REFUSALS if counted[kind]),
                last_refused_from=last_from.get(key, ""),
            )
        )
    return TurnStatus(turn, deadline(cfg, turn), now or datetime.now(UTC).replace(microsecond=0), rows)


def reminders(
    game: Game, turn: str | None = None, *, now: datetime | None = None
) -> tuple[list[outbox.Outgoing], list[str]]:
    """Reminders to the gangs with no orders on file (one per gang per day:
    the Message-ID carries the date), and warnings for gangs with no address."""
    status = turn_status(game, turn, now=now)
    cfg = game.config
    this_turn = game.layout.turn_in_text(status.turn)  # a classic phase: as named
    family = families.of(game).messages
    out: list[outbox.Outgoing] = []
    warnings: list[str] = []
    due = status.deadline
    for g in status.gangs:
        if g.has_orders:
            continue
        if not g.addresses:
            warnings.append(f"{g.gang}: no address in {GAME_FILE} (players.{g.gang}.email): no reminder")
            continue
        lang = player_language(cfg, g.gang)  # the player's own language, else the game's
        if due is not None:
            from moonshine.game.deadlines import deadline_text

            shown = deadline_text(cfg, g.gang, due, lang)
            when = mailwords.text(lang, "remind.deadline", due=shown, left=status.time_left(lang))
        else:
            when = mailwords.text(lang, "remind.no_deadline")
        body = pages.render(
            "reminder.txt.j2",
            dict(
                missing=mailwords.text(lang, "remind.missing", gang=g.name, turn=this_turn),
                when=when,
                default=mailwords.text(lang, "remind.default" + family),
                format=mailwords.text(lang, "help.format" + family, gang=g.gang),
                signature=signature_line(game, lang),
            ),
        )
        day = status.now.strftime("%Y%m%d")
        msg = compose.text_message(
            sender=from_address(cfg),
            to=list(g.addresses),
            subject=mailwords.text(
                lang,
                "subject.reminder",
                prefix=compose.subject_prefix(cfg),
                turn=subject_turn(lang, status.turn),
                gang=g.name,
            ),
            body=body,
            msg_id=compose.message_id(cfg, status.turn, "remind", g.gang, day),
            date=status.now,
            reply_to=from_address(cfg),
        )
        out.append(outbox.Outgoing(f"remind-{g.gang.lower()}.eml", msg))
    return out, warnings
