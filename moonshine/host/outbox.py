"""The judge's own outbox (``outbox/DAY/`` in its directory): the lobby's replies and
notices, the error mails to its masters and the reveal mails. Each message is queued
in the registry with the change that owes it (one transaction), written here by
``write_queued``, and sent by every pass (``deliver``) through the mail package's
outbox (``moonshine.mail.outbox``) with the judge's SMTP settings, each to each
recipient once, the deliveries recorded in each day's ledger
(``moonshine.game.ledger``)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from pathlib import Path

from moonshine.errors import GameError
from moonshine.game.directory import atomic_write_text, config_section
from moonshine.game.ledger import OUTBOX, has_deferrals, settle_interrupted
from moonshine.host.registry import Registry
from moonshine.host.settings import DAY, HostSettings
from moonshine.mail import outbox
from moonshine.mail.outbox.smtp import send_folder
from moonshine.mail.settings import smtp_settings

Log = Callable[[str], None]
KEEP_DAYS = 3  # the outbox of the last days is looked at by every pass


def day_folder(settings: HostSettings, day: str) -> Path:
    """The folder of one day of the judge's outbox."""
    if not DAY.fullmatch(day):
        raise GameError(f"not a day of the lobby's outbox: {day!r}")
    return settings.root / OUTBOX / day


def write_queued(settings: HostSettings, reg: Registry) -> None:
    """The judge's mail the registry holds, written to its outbox."""
    for day, name, text in reg.queued_mail():
        atomic_write_text(day_folder(settings, day) / name, text)
        reg.mail_written(day, name)


def deliver(settings: HostSettings, now: datetime, say: Log) -> None:
    """Send what the judge's outbox holds of the last days (and of an older day with a
    delivery deferred), each message to each recipient once."""
    base = settings.root / OUTBOX
    if not base.is_dir() or not config_section(settings.config, "smtp"):
        return
    days = sorted(p.name for p in base.iterdir() if p.is_dir() and DAY.fullmatch(p.name))
    recent = days[-KEEP_DAYS:]
    for day in days:
        folder = base / day
        if day not in recent and not has_deferrals(folder):
            continue
        for name, addr, _ in settle_interrupted(folder):
            say(f"lobby: {day}/{name} to {addr}: outcome unknown (a pass was killed while sending); not sent again")
        names = outbox.pending(folder, now)
        if not names:
            continue
        for r in send_folder(folder, names, smtp_settings(settings.config), now=now):
            if r.delivered:
                whom = ", ".join(r.delivered)
                say(f"lobby: sent {day}/{r.name} to {whom}")
            for addr, why in sorted(r.failed.items()):
                say(f"lobby: {day}/{r.name} to {addr}: {why}")
