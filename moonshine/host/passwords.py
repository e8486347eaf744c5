"""The password of a new player (``register``): made by the judge, mailed at once in a
message of its own (``moonshine.mail.outbox.smtp.deliver_now``) and kept nowhere but as
its hash in the registry. When the mail server is down, the next pass makes another and
tries again."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from moonshine.errors import MoonshineError
from moonshine.host.registry import Registry
from moonshine.host.settings import HostSettings
from moonshine.mail.outbox import compose
from moonshine.mail.outbox.smtp import deliver_now
from moonshine.mail.settings import from_address, smtp_settings
from moonshine.render.mailwords import text_or_english as words
from moonshine.text.catalogue import languages

Log = Callable[[str], None]


def mail_passwords(settings: HostSettings, reg: Registry, now: datetime, log: Log) -> None:
    """Each player whose password has not reached them gets a new one, mailed at once
    in a message kept nowhere (``deliver_now``): the registry keeps its hash
    only. When the mail server is down, the next pass makes another and tries again."""
    from moonshine.mail.passwords import hash_password, new_passphrase

    todo = reg.passwords_to_mail(settings.limits.passwords)
    if not todo:
        return
    cfg = settings.config
    try:
        smtp = smtp_settings(cfg)
        secret = smtp.password()
    except MoonshineError as exc:
        log(f"ERROR passwords: {exc}")
        return
    for player in todo:
        password = new_passphrase()
        reg.set_password(player.id, hash_password(password), mailed=False)
        lang = player.language if player.language in languages() else cfg.language
        msg = compose.text_message(
            sender=from_address(cfg),
            to=[player.address],
            subject=words(lang, "lobby.password.subject", prefix=compose.subject_prefix(cfg)),
            body=words(
                lang,
                "lobby.password.body",
                name=player.name,
                title=cfg.title,
                address=player.address,
                password=password,
            )
            + "\n",
            msg_id=compose.message_id(cfg, "lobby", "password", player.address, now.isoformat()),
            date=now,
        )
        done = deliver_now(msg, [player.address], smtp, secret)
        if player.address in done.delivered:
            reg.password_mailed(player.id)
            log(f"lobby: password mailed to {player.address}")
        else:
            why = done.failed.get(player.address) or done.unknown.get(player.address) or "not delivered"
            log(f"lobby: password for {player.address} not delivered ({why}); a new one at the next pass")
            if player.address not in done.unknown:
                break  # the server is down: the others wait for the next pass too
