"""Delivery by SMTP (aiosmtplib, through its public API only), at most once: the
messages of an outbox folder are sent as they are, each to the recipients it has
not reached yet, on one connection for the whole batch, and every outcome is
recorded in the folder's ledger (``moonshine.game.ledger``) after each message. A
recipient the server refused (5xx) is recorded as ``failed``; one it could not take
for a while (unreachable, a 4xx reply) as ``deferred``, with its next try; one whose
outcome cannot be known (the connection ended after the data may have gone out) as
``unknown``, never sent again by itself.

The login is the account's password, or (``smtp.auth: xoauth2``) an OAuth2 access
token printed by the operator's command (``moonshine.mail.oauth``), sent with
aiosmtplib's ``auth_xoauth2``: a token the server refuses is asked for once more and
tried once again on the same connection, before any message is sent."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from email.message import EmailMessage
from pathlib import Path
from typing import TYPE_CHECKING

import msgspec

from moonshine.errors import GameError
from moonshine.game.directory import Game
from moonshine.game.ledger import GIVE_UP, Deferral, deferrals, iso, load_sent, load_sent_raw, outbox_dir, save_entry
from moonshine.game.masking import mask_tokens
from moonshine.mail import oauth
from moonshine.mail.outbox import load_message, recipients
from moonshine.mail.outbox.compose import POLICY
from moonshine.mail.settings import SmtpSettings, smtp_settings

if TYPE_CHECKING:
    import aiosmtplib


def smtp_bytes(msg: EmailMessage) -> bytes:
    """The message as the SMTP ``DATA`` carries it: CRLF line ends, no ``Bcc`` or
    ``Resent-Bcc`` header, and the headers unfolded up to 998 characters (``POLICY``)."""
    import copy
    import io
    from email.generator import BytesGenerator

    out = copy.copy(msg)
    del out["Bcc"]
    del out["Resent-Bcc"]
    with io.BytesIO() as buf:
        BytesGenerator(buf, policy=POLICY.clone(linesep="\r\n")).flatten(out)
        return buf.getvalue()


class SendResult(msgspec.Struct):
    name: str  # the outbox file
    message_id: str
    delivered: list[str] = msgspec.field(default_factory=list)  # this time
    already: list[str] = msgspec.field(default_factory=list)  # before
    failed: dict[str, str] = msgspec.field(default_factory=dict)  # address -> reason
    unknown: dict[str, str] = msgspec.field(default_factory=dict)  # this time: the server may have it
    unknown_before: list[str] = msgspec.field(default_factory=list)  # of unknown outcome before, not sent again
    deferred: dict[str, str] = msgspec.field(default_factory=dict)  # a transient failure: address -> next try (ISO)

    def line(self) -> str:
        parts = []
        if self.delivered:
            parts.append(f"{self.name}: sent to {', '.join(self.delivered)}")
        parts += [
            f"{self.name}: FAILED for {addr}: {why}"
            + (f"; a transient failure, tried again from {self.deferred[addr]}" if addr in self.deferred else "")
            for addr, why in sorted(self.failed.items())
        ]
        parts += [
            f"{self.name}: OUTCOME UNKNOWN for {addr}: {why}; not sent again"
            for addr, why in sorted(self.unknown.items())
        ]
        if self.unknown_before:
            parts.append(
                f"{self.name}: outcome unknown for {', '.join(self.unknown_before)} (an earlier run); not sent again "
                "(--resend-unknown sends it again, with the same Message-ID)"
            )
        if not parts:
            return f"{self.name}: already sent ({self.message_id}), not sent again"
        return "\n".join(parts)

    def transient(self) -> dict[str, str]:
        """The failures that later passes try again (address -> reason)."""
        return {a: why for a, why in self.failed.items() if a in self.deferred}

    def permanent(self) -> dict[str, str]:
        """The failures that are final: a refusal (5xx), or transient for too long."""
        return {a: why for a, why in self.failed.items() if a not in self.deferred}


class _Fatal(Exception):
    """A failure that no retry and no other message can get past (bad login, no TLS)."""


class _Attempt(msgspec.Struct):
    """What one delivery attempt left to do."""

    retry: list[str] = msgspec.field(default_factory=list)
    last: dict[str, str] = msgspec.field(default_factory=dict)  # transient reasons, for the final report
    failed: dict[str, str] = msgspec.field(default_factory=dict)  # permanent failures

    def refused(self, addr: str, code: int, text: str) -> None:
        why = f"{code} {text.strip()}"
        if 400 <= code < 500:  # try again later (RFC 5321: 4yz is transient)
            self.retry.append(addr)
            self.last[addr] = why
        else:
            self.failed[addr] = why


class Delivery(msgspec.Struct):
    delivered: list[str] = msgspec.field(default_factory=list)
    failed: dict[str, str] = msgspec.field(default_factory=dict)
    unknown: dict[str, str] = msgspec.field(default_factory=dict)  # the server may have the message: never sent again
    transient: list[str] = msgspec.field(default_factory=list)  # of the failed: worth trying again later


class _Link:
    """One SMTP connection for a whole batch of messages: opened when the first message
    needs it, kept for the next, opened again after a failure broke it."""

    def __init__(self, settings: SmtpSettings, password: str | None) -> None:
        self.settings = settings
        self.password = password
        self.client: aiosmtplib.SMTP | None = None
        # why the server could not be reached for a whole message: the batch's later
        # messages are not tried (each would spend its attempts on the same outage)
        self.down: str | None = None

    async def ready(self) -> tuple[aiosmtplib.SMTP, bool]:
        """The connection, and whether it was open already (used for an earlier message)."""
        if self.client is not None and self.client.is_connected:
            return self.client, True
        import aiosmtplib

        s = self.settings
        token = s.token_command if s.auth == "xoauth2" else None
        client = aiosmtplib.SMTP(
            hostname=s.host,
            port=s.port,
            username=s.user if token is None else None,  # XOAUTH2: logged in below
            password=self.password,
            use_tls=s.security == "tls",
            start_tls=s.security == "starttls",
            timeout=s.timeout,
            cert_bundle=s.ca_file,
        )
        self.client = client
        await client.connect()
        if token is not None:
            await self.xoauth2(client, token)
        return client, False

    async def xoauth2(self, client: aiosmtplib.SMTP, command: oauth.TokenCommand) -> None:
        """Log in with an access token (``AUTH XOAUTH2``); one the server refuses
        (expired early, revoked) is asked for again and tried once more. A refusal
        of both, or a server without XOAUTH2, is ``_Fatal``: no message can go."""
        import aiosmtplib

        s = self.settings
        user = s.user or ""
        if client.is_ehlo_or_helo_needed:
            await client.ehlo()
        offered = [m.lower() for m in client.server_auth_methods]
        if "xoauth2" not in offered:
            raise _Fatal(
                f"{s.host}:{s.port} does not offer XOAUTH2 (its logins: {', '.join(offered) or 'none'}); "
                "set smtp.auth: password"
            )
        tried: list[str] = []
        why = ""
        for again in (False, True):
            token = oauth.token(command, again=again)
            if token in tried:
                break  # the command gave the token just refused: no use trying it again
            tried.append(token)
            try:
                await client.auth_xoauth2(user, token)
                return
            except aiosmtplib.SMTPAuthenticationError as exc:
                why = mask_tokens(f"{exc.code} {exc.message}", tried)
        raise _Fatal(
            f"the server refused the XOAUTH2 login as {user} with the access token of {command.where}, "
            + ("and again with a new one" if len(tried) > 1 else "and the command gave the same token when run again")
            + f": {why[:300]}"
        )

    def drop(self) -> None:
        """Forget a connection a failure broke (the next message opens another)."""
        if self.client is not None and self.client.is_connected:
            self.client.close()
        self.client = None

    async def reset(self) -> None:
        """End a transaction the server refused, so that the next message starts afresh."""
        import aiosmtplib

        if self.client is None or not self.client.is_connected:
            return
        try:
            await self.client.rset()
        except (aiosmtplib.SMTPException, OSError, TimeoutError):
            self.drop()

    async def close(self) -> None:
        import aiosmtplib

        if self.client is not None and self.client.is_connected:
            try:
                await self.client.quit()
            except (aiosmtplib.SMTPException, OSError, TimeoutError):
                self.client.close()
        self.client = None


async def _deliver(
    msg: EmailMessage,
    rcpts: list[str],
    link: _Link,
    before_data: Callable[[list[str]], None],
) -> Delivery:
    """Deliver ``msg`` to ``rcpts`` over ``link``, at most once each: a failure before
    the message's data may have gone out is retried (``smtp.attempts``); once it may
    have, only the server's reply tells whether it has the message, and without one
    the outcome is unknown: recorded as such, never retried here.

    ``before_data`` is called with the accepted recipients just before the ``DATA``
    command, and that is what "sending" means in ``sent.yaml``: aiosmtplib's
    ``SMTP.data`` sends the command and, after the server's 354, the message, and
    nothing public tells the caller when the second part starts. So from the moment
    the recipients are accepted until the server's last reply, a run killed or a
    connection lost leaves them of unknown outcome, even when the server never got
    the data (a drop between ``DATA`` and its 354): a message is never delivered
    twice without that being recorded, at the price of sometimes naming as unknown
    one the server never had (``--resend-unknown`` sends it). A reply refusing the
    command or the data is an answer: the server does not have the message."""
    import aiosmtplib

    settings = link.settings
    out = Delivery()
    if link.down is not None:
        out.failed = dict.fromkeys(rcpts, f"{link.down} (not tried again in this run)")
        out.transient = list(rcpts)
        return out
    payload = smtp_bytes(msg)
    pending = list(rcpts)
    state = _Attempt()
    attempt = 1
    fresh_tried = False
    unreachable: str | None = None  # the last attempt could not reach the server
    while True:
        state.retry = []
        unreachable = None
        accepted: list[str] = []
        data_may_be_out = False
        reused = False
        try:
            client, reused = await link.ready()
            await client.mail(settings.sender_address)
            for r in pending:
                try:
                    await client.rcpt(r)
                    accepted.append(r)
                except aiosmtplib.SMTPRecipientRefused as exc:
                    state.refused(r, exc.code, exc.message)
            if accepted:
                before_data(accepted)
                data_may_be_out = True
                await client.data(payload)
                out.delivered += accepted
            else:
                await link.reset()
        except aiosmtplib.SMTPAuthenticationError as exc:
            raise _Fatal(f"the server refused the login as {settings.user}: {exc.code} {exc.message}") from None
        except aiosmtplib.SMTPNotSupported as exc:
            raise _Fatal(f"{settings.host}:{settings.port} ({settings.security}): {exc}") from None
        except aiosmtplib.SMTPResponseException as exc:  # the server answered: it does not have the message
            for r in accepted or pending:
                state.refused(r, exc.code, exc.message)
            for r in pending:
                if r not in accepted and r not in state.retry and r not in state.failed:
                    state.retry.append(r)
            await link.reset()
        except (aiosmtplib.SMTPException, OSError, TimeoutError) as exc:
            link.drop()
            if reused and not data_may_be_out and not fresh_tried:
                # a connection kept from the previous message that the server has
                # meanwhile closed: a new one at once, without spending an attempt
                fresh_tried = True
                continue
            why = f"{exc or type(exc).__name__}"
            if data_may_be_out:
                for r in accepted:
                    out.unknown[r] = (
                        f"the connection to {settings.host}:{settings.port} ended after the message was sent ({why})"
                    )
                state.retry = [r for r in pending if r not in accepted and r not in state.failed]
            else:
                state.retry = [r for r in pending if r not in state.failed]
                unreachable = f"cannot reach {settings.host}:{settings.port}: {why}"
            state.last.update(dict.fromkeys(state.retry, f"cannot reach {settings.host}:{settings.port}: {why}"))
        pending = state.retry
        if not pending or attempt >= settings.attempts:
            break
        await asyncio.sleep(settings.retry_delay * 2 ** (attempt - 1))
        attempt += 1
    out.failed = dict(state.failed)
    for r in pending:
        out.failed[r] = f"{state.last.get(r, 'not delivered')} (gave up after {settings.attempts} attempts)"
        out.transient.append(r)
    if pending and unreachable is not None:
        link.down = unreachable
    return out


def deliver_now(msg: EmailMessage, rcpts: list[str], settings: SmtpSettings, password: str | None) -> Delivery:
    """Deliver one message that is kept in no outbox (a password mailed to a new
    player) on a connection of its own."""

    async def once() -> Delivery:
        link = _Link(settings, password)
        try:
            return await _deliver(msg, rcpts, link, lambda _: None)
        finally:
            await link.close()

    try:
        return asyncio.run(once())
    except _Fatal as exc:
        raise GameError(f"not sent: {exc}") from None


class _Intent(msgspec.Struct, frozen=True):
    """Records, before a message's data goes out, that it is being sent to these
    recipients: a run killed then leaves them recorded as of unknown outcome."""

    folder: Path
    msg_id: str
    name: str

    def __call__(self, rcpts: list[str]) -> None:
        entry = dict(load_sent_raw(self.folder).get(self.msg_id, {}))
        entry["file"] = self.name
        entry["sending"] = sorted(set(entry.get("sending") or []) | set(rcpts))
        save_entry(self.folder, self.msg_id, entry)


def send_files(
    game: Game,
    turn: str,
    names: Sequence[str],
    *,
    settings: SmtpSettings | None = None,
    environ: dict[str, str] | None = None,
    progress: Callable[[SendResult], None] | None = None,
    resend_unknown: bool = False,
    now: datetime | None = None,
) -> list[SendResult]:
    """Deliver outbox files of a game's ``turn`` (``send_folder``), with the game's
    SMTP settings unless ``settings`` are given."""
    settings = settings or smtp_settings(game.config)
    return send_folder(
        outbox_dir(game, turn),
        names,
        settings,
        environ=environ,
        progress=progress,
        resend_unknown=resend_unknown,
        now=now,
    )


def send_folder(
    folder: Path,
    names: Sequence[str],
    settings: SmtpSettings,
    *,
    environ: dict[str, str] | None = None,
    progress: Callable[[SendResult], None] | None = None,
    resend_unknown: bool = False,
    now: datetime | None = None,
) -> list[SendResult]:
    """Deliver files of an outbox folder by SMTP, each to the recipients it has
    not reached yet; record deliveries in its ``sent.yaml`` after each message.
    A delivery of unknown outcome (the connection ended after the message was
    sent) is recorded and not sent again unless ``resend_unknown`` (the same
    message, with the same Message-ID, so that mail programs merge the copies).
    A transient failure (the server unreachable, a 4xx reply) is recorded as
    ``deferred`` with the time of the next try; a refusal (5xx) as ``failed``.

    ``now``: the judge's pass, at that time: a deferred recipient is tried only
    once its next try is due, and one still failing ``GIVE_UP`` after its first
    failure has failed for good. Without it (the game master's own command) every
    recipient not reached is tried.
    Raises GameError at once for a failure no retry can mend (bad login)."""
    password = settings.password(environ)
    return asyncio.run(_send_all(folder, names, settings, password, progress, resend_unknown, now))


async def _send_all(
    folder: Path,
    names: Sequence[str],
    settings: SmtpSettings,
    password: str | None,
    progress: Callable[[SendResult], None] | None,
    resend_unknown: bool = False,
    now: datetime | None = None,
) -> list[SendResult]:
    link = _Link(settings, password)  # one connection for the whole batch
    try:
        return await _send_each(folder, names, link, progress, resend_unknown, now)
    finally:
        await link.close()


async def _send_each(
    folder: Path,
    names: Sequence[str],
    link: _Link,
    progress: Callable[[SendResult], None] | None,
    resend_unknown: bool,
    now: datetime | None = None,
) -> list[SendResult]:
    results = []
    clock = now or datetime.now(UTC).replace(microsecond=0)
    for name in names:
        path = folder / name
        msg = load_message(path)
        msg_id = str(msg.get("Message-ID", "")).strip()
        if not msg_id:
            raise GameError(f"{path}: no Message-ID; write the message again")
        sent = load_sent(folder)
        entry = sent.get(msg_id, {})
        already = [str(a) for a in entry.get("delivered") or []]
        unknown = {str(k): str(v) for k, v in (entry.get("unknown") or {}).items()}
        skip = set(already) | (set() if resend_unknown else set(unknown))
        deferred = deferrals(entry)
        if now is not None:  # the judge's pass: the refused are done, the deferred wait for their time
            skip |= {str(a) for a in entry.get("failed") or {}}
            skip |= {a for a, d in deferred.items() if d.next > now}
        todo = [r for r in recipients(msg) if r not in skip]
        result = SendResult(name, msg_id, already=already)
        result.unknown_before = sorted(set(unknown) - set(todo))
        if todo:
            del msg["Bcc"]

            try:
                done = await _deliver(msg, todo, link, _Intent(folder, msg_id, name))
            except _Fatal as exc:
                raise GameError(f"{name}: not sent: {exc}") from None
            result.delivered, result.failed, result.unknown = done.delivered, done.failed, done.unknown
            entry = dict(load_sent_raw(folder).get(msg_id, {}))
            entry.pop("sending", None)
            entry["file"] = name
            entry["delivered"] = sorted(set(already) | set(done.delivered))
            still = {k: v for k, v in unknown.items() if k not in done.delivered and k not in done.failed}
            still.update(done.unknown)
            entry["unknown"] = dict(sorted(still.items()))
            tried = set(done.delivered) | set(done.failed) | set(done.unknown)
            failed = {str(k): str(v) for k, v in (entry.get("failed") or {}).items() if k not in tried}
            later = {a: d for a, d in deferred.items() if a not in tried}
            for addr in done.transient:
                d = deferred.get(addr, Deferral(done.failed[addr], 0, clock, clock)).again(done.failed[addr], clock)
                if now is not None and clock - d.first >= GIVE_UP:
                    why = f"not delivered since {iso(d.first)}, given up: {d.reason}"
                    result.failed[addr] = failed[addr] = why
                else:
                    later[addr] = d
                    result.deferred[addr] = iso(d.next)
            failed.update({a: why for a, why in done.failed.items() if a not in done.transient})
            entry["failed"] = dict(sorted(failed.items()))
            entry["deferred"] = {a: later[a].data() for a in sorted(later)}
            for key in ("unknown", "failed", "deferred"):
                if not entry[key]:
                    del entry[key]
            save_entry(folder, msg_id, entry)
        results.append(result)
        if progress:
            progress(result)
    return results
