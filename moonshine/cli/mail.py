"""``moonshine mail``, ``inbox``, ``status``, ``remind`` and ``passwd``: the game
played by email."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import click

from moonshine.cli.common import clock, game_option, now_option, turn_name
from moonshine.game.directory import Game, git_commit
from moonshine.text.english import count


def _commit(game: Game, message: str, paths: list[str]) -> None:
    """Commit what a command wrote, when the game is a git repository."""
    existing = [p for p in paths if (game.root / p).exists()]
    if existing:
        git_commit(game.root, message, existing)


def _send(game: Game, turn: str, names: list[str], *, resend_unknown: bool = False) -> None:
    """Deliver outbox files, holding the game's lock; the record of what was sent
    is committed at the end, or by the next command if this one is killed."""
    from moonshine.game.directory import is_git_repo
    from moonshine.game.journal import transaction
    from moonshine.mail.outbox.smtp import SendResult, send_files

    if not names:
        click.echo("Nothing to send.")
        return

    def show(result: SendResult) -> None:
        click.echo(result.line())

    forward = (f"Mail sent for {turn}", [f"outbox/{turn}"], is_git_repo(game.root))
    with transaction(game.root, f"mail --send {turn}", wait=60, notify=click.echo, forward=forward):
        results = send_files(game, turn, names, progress=show, resend_unknown=resend_unknown)
    failed = sum(len(r.failed) for r in results)
    unknown = sorted({f"{r.name} to {a}" for r in results for a in [*r.unknown, *r.unknown_before]})
    if unknown:
        click.echo(
            f"warning: {count(len(unknown), 'delivery', 'deliveries')} of unknown outcome (the server "
            "may have the message; it is not sent again): " + "; ".join(unknown) + ". Ask the players; "
            "'--resend-unknown' sends them again with the same Message-ID, so mail programs merge the copies.",
            err=True,
        )
    if failed:
        raise click.ClickException(
            f"{count(failed, 'recipient')} not reached; fix the problem and run the same command again "
            "(addresses already reached are skipped)"
        )


@click.command("mail")
@click.argument("turn", callback=turn_name)
@click.option("--send", is_flag=True, help="Deliver the messages by SMTP (settings: smtp in game.yaml).")
@click.option(
    "--resend-unknown",
    is_flag=True,
    help="With --send: send again the deliveries of unknown outcome (same Message-ID).",
)
@game_option
def mail_cmd(turn: str, send: bool, resend_unknown: bool, game_dir: Path) -> None:
    """Mail TURN's reports: to each gang its private report (text and HTML) with
    the map attached, and the bulletin to every player (by Bcc). The messages are
    written to outbox/TURN/ as .eml files, which any mail program opens; with
    --send they are also delivered, and outbox/TURN/sent.yaml records who got
    them, so that sending again never mails anyone twice. A report that changed
    since it was sent is a new message, sent again. Needs the files of
    'moonshine report TURN' in turns/TURN/reports/."""
    from moonshine.game.directory import is_git_repo
    from moonshine.game.journal import transaction
    from moonshine.game.ledger import delivered_to, outbox_dir, sent_versions
    from moonshine.mail.outbox import write_outbox
    from moonshine.mail.outbox.reports import report_messages

    game = Game(game_dir)
    with transaction(game.root, f"mail {turn}", notify=click.echo) as txn:
        built = report_messages(game, turn)
        write_outbox(game, turn, built.messages)
        txn.commit(f"Mail for {turn}", [f"outbox/{turn}"], git=is_git_repo(game.root))
    for warning in built.warnings:
        click.echo(f"warning: {warning}", err=True)
    for item in built.messages:
        msg_id = str(item.message["Message-ID"])
        done = delivered_to(outbox_dir(game, turn), msg_id)
        note = f" (already sent to {len(done)})" if done else ""
        if not done and sent_versions(outbox_dir(game, turn), item.name):
            note = " (changed since an earlier version was sent: --send sends this one)"
        click.echo(f"{item.name}: {item.message['Subject']}{note}")
    where = outbox_dir(game, turn)
    if not send:
        click.echo(
            f"{count(len(built.messages), 'message')} written to {where}/; nothing sent (use --send to deliver)."
        )
        return
    _send(game, turn, [m.name for m in built.messages], resend_unknown=resend_unknown)


@click.command("inbox")
@click.argument("source")
@click.option(
    "--turn", callback=turn_name, default=None, help="The turn the orders are for (default: the game's current turn)."
)
@click.option("--late-ok", is_flag=True, help="Accept orders received after the turn's deadline.")
@click.option(
    "--accept",
    "accept",
    metavar="MESSAGE-ID",
    default=None,
    help="Take this one message of SOURCE (by its Message-ID), late or refused before, with the same checks of "
    "sender and password.",
)
@click.option("--send", is_flag=True, help="Also deliver the turn's replies not yet sent.")
@game_option
def inbox_cmd(source: str, turn: str | None, late_ok: bool, accept: str | None, send: bool, game_dir: Path) -> None:
    """Read orders from SOURCE: a Maildir, an mbox file, a folder of .eml
    files, or an IMAP mailbox (imaps://USER@HOST[:PORT]/FOLDER, or imap://...
    with STARTTLS; the password from MOONSHINE_IMAP_PASSWORD or inbox.imap in
    game.yaml; judged messages are moved to the folder Judged). Each message
    must name its gang ('gang:' line), come from one of the gang's addresses
    in game.yaml and carry its password ('password:' line); only the player's
    own new text is read (not quoted or forwarded text). Accepted
    orders are saved as orders/TURN/GANG.txt (the latest received before the
    deadline stands, earlier ones go to orders/TURN/history/); every message is
    answered in outbox/TURN/reply-*.eml. Messages already processed are skipped,
    so running it again is safe. With --accept MESSAGE-ID, the game master takes
    one message, late or refused before. Prints one line per message."""
    from moonshine.game.directory import is_git_repo
    from moonshine.game.journal import transaction
    from moonshine.mail.imap import is_imap_url
    from moonshine.mail.inbox import LOCK_WAIT, process, reply_files

    if not is_imap_url(source) and not Path(source).exists():
        raise click.BadParameter(f"{source} does not exist (expected a Maildir, an mbox, .eml files, or imaps://...)")
    game = Game(game_dir)
    turn = game.turn_name(turn) if turn else game.current_turn()  # checked before anything is written
    # the game's lock, and a commit of what the run wrote even if it is killed before its own
    paths = [f"orders/{turn}", "outbox", "press", "votes.yaml"]  # the commands' press logs and votes too
    forward = (f"Orders by mail for {turn}", paths, is_git_repo(game.root))
    with transaction(game.root, f"inbox {turn}", wait=LOCK_WAIT, notify=click.echo, forward=forward):
        outcomes = process(game, source, turn=turn, late_ok=late_ok, accept=accept)
        counts = Counter(o.status for o in outcomes)
        for o in outcomes:
            if o.status != "duplicate":
                click.echo(o.line())
        if counts["duplicate"]:
            click.echo(f"{count(counts['duplicate'], 'message')} already processed, skipped.")
        summary = ", ".join(f"{n} {s}" for s, n in sorted(counts.items()) if s != "duplicate") or "no new message"
        click.echo(f"{turn}: {summary}.")
        if len(outcomes) > counts["duplicate"]:
            _commit(game, f"Orders by mail for {turn}: {summary}", paths)
    if send:
        from moonshine.game.ledger import delivered_to, outbox_dir
        from moonshine.mail.outbox import load_message, recipients

        base = outbox_dir(game, turn)
        pending = []
        for name in reply_files(game, turn):
            msg = load_message(base / name)
            if set(recipients(msg)) - set(delivered_to(base, str(msg["Message-ID"]))):
                pending.append(name)
        _send(game, turn, pending)


@click.command("status")
@click.argument("turn", callback=turn_name, required=False)
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help="Print the status as JSON (every side's orders, refusals, addresses, password; the deadline).",
)
@now_option
@game_option
def status_cmd(turn: str | None, as_json: bool, now_text: str | None, game_dir: Path) -> None:
    """Show which gangs have sent orders for TURN (default: the current turn),
    which have not, and the time left before the deadline."""
    from moonshine.mail.status import turn_status
    from moonshine.render.mailwords import fmt_time

    game = Game(game_dir)
    st = turn_status(game, turn, now=clock(now_text))
    if as_json:
        import json

        click.echo(json.dumps(st.as_json(), indent=2, ensure_ascii=False))
        return
    due = f"deadline {fmt_time(st.deadline)}, {st.time_left()}" if st.deadline else st.time_left()
    click.echo(f"{st.turn}: {due}")
    for g in st.gangs:
        click.echo(f"  {g.line()}")
    missing = st.missing
    if missing:
        click.echo(f"{count(len(missing), game.side_word)} without orders: {', '.join(missing)}")
    else:
        click.echo(f"Every {game.side_word} has orders on file.")


@click.command("remind")
@click.argument("turn", callback=turn_name, required=False)
@click.option("--send", is_flag=True, help="Deliver the reminders by SMTP.")
@game_option
def remind_cmd(turn: str | None, send: bool, game_dir: Path) -> None:
    """Write a reminder (outbox/TURN/remind-GANG.eml) to each gang with no
    orders for TURN (default: the current turn), giving the deadline and the
    time left. With --send, deliver them (at most one per gang per day)."""
    from moonshine.game.ledger import outbox_dir
    from moonshine.mail.outbox import write_outbox
    from moonshine.mail.status import reminders

    game = Game(game_dir)
    turn = turn or game.current_turn()
    messages, warnings = reminders(game, turn)
    for w in warnings:
        click.echo(f"warning: {w}", err=True)
    write_outbox(game, turn, messages)
    for m in messages:
        click.echo(f"{m.name}: {m.message['To']}")
    if not messages:
        click.echo("No reminder to write.")
        return
    if not send:
        click.echo(
            f"{count(len(messages), 'reminder')} written to {outbox_dir(game, turn)}/; nothing sent (use --send)."
        )
        return
    _send(game, turn, [m.name for m in messages])


@click.command("passwd")
@click.argument("gang")
@click.option(
    "--password",
    default=None,
    help="The new password (for scripts; it then shows in the shell's history). Default: a new passphrase.",
)
@click.option("--prompt", is_flag=True, help="Type the new password (asked twice) instead of a new passphrase.")
@game_option
def passwd_cmd(gang: str, password: str | None, prompt: bool, game_dir: Path) -> None:
    """Set GANG's password (a gang key or name): by default a new passphrase (four
    words and a number), printed once. game.yaml keeps only a salted hash; tell the
    password to the gang's players yourself."""
    from moonshine.mail.passwords import new_passphrase, set_password

    game = Game(game_dir)
    made = password is None and not prompt
    if prompt and password is None:
        password = click.prompt(f"New password for {gang}", hide_input=True, confirmation_prompt=True)
    elif password is None:
        password = new_passphrase()
    key = set_password(game, gang, password)
    click.echo(f"Password set for {key} ({game.sides()[key]}); game.yaml keeps only its hash.")
    if made:
        click.echo(f"The new password: {password}")
        click.echo("Tell it to the gang's players; it is shown only this once.")


@click.command("votes")
@click.option("--send", is_flag=True, help="Deliver the notices by SMTP.")
@game_option
def votes_cmd(send: bool, game_dir: Path) -> None:
    """Write the mail the draw and concession votes owe now (to every voter when
    a proposal opens, a reminder before its deadline, how it ended, and the
    announcement to every player and observer) to the outbox; with --send,
    deliver it (each message at most once). Run it at least daily, or let the
    unattended run do it: a proposal never ends without notice."""
    from datetime import UTC, datetime

    from moonshine.game.directory import is_git_repo
    from moonshine.game.journal import transaction
    from moonshine.mail.commands.votes import write_due

    game = Game(game_dir)
    now = datetime.now(UTC).replace(microsecond=0)
    forward = ("Vote notices", ["outbox", "votes.yaml"], is_git_repo(game.root))
    with transaction(game.root, "votes", wait=60, notify=click.echo, forward=forward):
        written = write_due(game, now)
        if written:
            _commit(game, "Vote notices", ["outbox"])
    for turn, name in written:
        click.echo(f"outbox/{turn}/{name}")
    click.echo(f"{count(len(written), 'vote notice')} owed.")
    if send:
        by_turn: dict[str, list[str]] = {}
        for turn, name in written:
            by_turn.setdefault(turn, []).append(name)
        for turn, names in by_turn.items():
            _send(game, turn, names)
