"""The pass's delivery: every message of the outbox not yet delivered sent by SMTP
(``moonshine.mail.outbox.smtp``), for the current and previous turn and an older one
with a deferred delivery; what was not delivered for good, or perhaps delivered,
told to the game master in one error."""

from __future__ import annotations

from contextlib import suppress

from moonshine.game import ledger
from moonshine.game.directory import Game, config_section, is_git_repo
from moonshine.game.journal import transaction
from moonshine.mail import outbox
from moonshine.mail.gamepass import Pass
from moonshine.mail.settings import player_addresses
from moonshine.mail.turns import previous_turn


def is_error_mail(name: str) -> bool:
    """An outbox file of the judge's own errors, to the game master."""
    return name.startswith("error-")


def describe(game: Game, turn: str, name: str, addr: str) -> str:
    """A delivery, as the game master knows it: the turn, the message's subject and
    file, the address and the side whose player it is."""
    subject = ""
    with suppress(OSError):
        subject = " ".join(str(outbox.load_message(ledger.outbox_dir(game, turn) / name).get("Subject", "")).split())
    sides = [s for s in game.config.players if addr in player_addresses(game.config, s)]
    who = f"{addr} (player of {', '.join(sides)})" if sides else addr
    what = f'"{subject}" ({turn}/{name})' if subject else f"{turn}/{name}"
    return f"{what} to {who}"


def mail_turns(game: Game) -> list[str]:
    """The turns whose outbox a pass delivers: the current and the previous one, and
    an older one with a delivery deferred after a transient failure."""
    cur = game.current_turn()
    turns = [t for t in (previous_turn(game, cur), cur) if t is not None]
    base = game.root / "outbox"
    every = game.turns()
    older = []
    if base.is_dir():
        for path in base.glob(f"*/{ledger.SENT_FILE}"):
            turn = path.parent.name
            if turn not in turns and turn in every and ledger.has_deferrals(path.parent):
                older.append(turn)
    return sorted(older, key=every.index) + turns


def deliver(p: Pass) -> None:
    """Send what the outbox holds for the current and the previous turn. The game
    master hears, in one error, of every report not delivered for good (refused, or
    failing for ``ledger.GIVE_UP``) and of every delivery of unknown outcome (a pass
    killed while sending); a transient failure is tried again by a later pass. A
    failure of the game master's own error mail is written to the log only."""
    from moonshine.mail.outbox.smtp import send_files

    game = p.game
    if not config_section(game.config, "smtp"):
        return
    lost: list[str] = []  # not delivered, for good
    unsure: list[str] = []  # the server may have it
    own: list[str] = []  # the game master's own error mail
    for turn in mail_turns(game):
        folder = ledger.outbox_dir(game, turn)
        names = outbox.pending(folder, p.now)
        left = ledger.interrupted(ledger.outbox_dir(game, turn))
        if not names and not left:
            continue
        forward = (f"Mail sent for {turn}", [f"outbox/{turn}"], is_git_repo(p.root))
        with transaction(p.root, f"run: send {turn}", wait=60, notify=p.log, forward=forward):
            settled = ledger.settle_interrupted(ledger.outbox_dir(game, turn))
            results = send_files(game, turn, outbox.pending(folder, p.now), now=p.now) if names else []
        for name, addr, why in settled:
            line = f"{describe(game, turn, name, addr)}: outcome unknown ({why}); not sent again"
            p.log(f"interrupted {turn}/{name} to {addr}: outcome unknown; not sent again")
            (own if is_error_mail(name) else unsure).append(line)
        for r in results:
            if r.delivered:
                whom = "error mail delivered to the game master" if is_error_mail(r.name) else "sent"
                p.log(f"{whom} {turn}/{r.name} to {', '.join(r.delivered)}")
            for addr, why in sorted(r.transient().items()):
                p.log(f"deferred {turn}/{r.name} to {addr}: {why}; tried again from {r.deferred[addr]}")
            for addr, why in sorted(r.permanent().items()):
                line = f"{describe(game, turn, r.name, addr)} was not delivered: {why}"
                (own if is_error_mail(r.name) else lost).append(line)
            for addr, why in sorted(r.unknown.items()):
                line = f"{describe(game, turn, r.name, addr)}: outcome unknown ({why}); not sent again"
                (own if is_error_mail(r.name) else unsure).append(line)
    for line in own:  # an error about an error mail would be mailed to the same address
        p.failed_steps.add("deliver")
        p.log(f"ERROR deliver: the error mail for the game master: {line}")
    parts = []
    if lost:
        parts.append("Not delivered, and not tried again:\n" + "\n".join(f"- {x}" for x in lost))
    if unsure:
        parts.append(
            "Perhaps delivered: the server may have these messages; ask the players whether they got them "
            "('moonshine mail TURN --send --resend-unknown' sends them again):\n" + "\n".join(f"- {x}" for x in unsure)
        )
    if parts:
        p.error("deliver", "\n\n".join(parts), fails=bool(lost))
