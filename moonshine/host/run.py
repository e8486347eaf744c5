"""One pass of a judge for many games (``moonshine run DIR`` on a judge's directory,
``moonshine.host.settings``), holding the judge's lock:

1. the lobby's mail decided by a killed pass goes to its outbox;
2. the games' directories are brought in step with the registry
   (``moonshine.host.games``): games to start, rollbacks, players and settings to
   write, deadlines a master set, raid seeds to replace, welcome mails;
3. the judge's one mailbox is read (at most ``limits.messages`` messages) and each
   message goes to its reader: the lobby (``moonshine.host.lobby``) when it holds a
   command of the lobby or names no game being played, else the game it names (a
   ``game:`` line, ``[GAME]`` in the subject, the game of a mail it replies to, or its
   orders as JSON's ``game``) or the one game its sender plays; a mail with a command of
   the lobby and orders for a game it names goes to both; a player who left a game
   hears from the lobby;
4. the lobby answers its messages, each in one transaction of the registry;
5. step 2 again (a join may have filled a game);
6. each game being played that has something to do (``to_open``: mail for it, its
   due time come, a change since its last pass) has its pass
   (``moonshine.mail.run.run_game``), with the messages found for it: intake,
   reminders, adjudication, reports, delivery, as a game of its own has (a paused
   one: its mail read and answered, no deadline, no reminder, no adjudication); then
   its adjudicated turns count in its players' dedication, and the registry keeps
   when it next has something to do. The others are not opened: an idle pass costs
   a row and two ``stat`` a game;
7. new players' passwords are mailed, the judge's own errors in this pass are mailed
   to its masters (each once: ``report_error``), and the lobby's outbox is sent.

A message is moved out of the IMAP folder once its reader has saved what became
of it; the lobby knows a message it answered by its bytes' hash, and a game's
inbox knows its own (``moonshine.mail.inbox``): a pass killed anywhere answers
nothing twice."""

from __future__ import annotations

import functools
import hashlib
import traceback
from collections.abc import Callable
from datetime import datetime, timedelta
from email.utils import parseaddr
from pathlib import Path

from moonshine.errors import GameBusy, GameError, MoonshineError
from moonshine.game.directory import GAME_FILE, atomic_write_text
from moonshine.game.journal import kill_point
from moonshine.game.ledger import OUTBOX
from moonshine.game.lock import game_lock, sealed
from moonshine.host import games, lobby
from moonshine.host.incoming import Mail, looks_like_orders, read_mail, replies_to_lobby
from moonshine.host.lobby.request import LobbyPass, ReplyBudget, by_name_or_title, folded
from moonshine.host.outbox import day_folder, deliver, write_queued
from moonshine.host.passwords import mail_passwords
from moonshine.host.registry import (
    ACTIVE,
    FILE,
    FORMING,
    NEVER,
    PAUSED,
    RUNNING,
    STARTING,
    GameRow,
    RegisteredPlayer,
    Registry,
    RegistryError,
)
from moonshine.host.settings import HELD, HostSettings, check_judge_dir, games_on_disk, load
from moonshine.mail import outbox
from moonshine.mail.imap import is_imap_url
from moonshine.mail.outbox import compose
from moonshine.mail.settings import authserv_id, from_address, imap_box, mail_source, max_message_bytes
from moonshine.mail.sources import Entry, imap_entries, source_entries
from moonshine.text.english import count

Log = Callable[[str], None]
# The run log's words. No literal stands inside a say(f"...") here: the catalogue's
# extractor reads say(...) calls, and from Python 3.12 it sees into f-strings.
NO_SENDER = "(no sender)"


def run_judge(
    root: Path, *, now: datetime, say: Log, say_for: Callable[[Path], Log], failed: set[str] | None = None
) -> bool:
    """One pass of the judge in ``root``; False when it was busy (another pass).

    A judge's directory with a file leading outside it is refused (logged, nothing
    read or written). A registry the judge cannot trust (``RegistryError``: missing,
    empty, damaged) stops the pass before anything else is touched: the masters get
    one mail saying so (``alarm``), and every later pass logs it again until
    ``moonshine judge check DIR`` says the registry is sound."""
    root = Path(root).resolve()
    settings = load(root)
    failed = failed if failed is not None else set()
    try:
        check_judge_dir(root)
    except GameError as exc:
        failed.add("directory")
        say(f"ERROR directory: {exc}")
        return True
    try:
        with game_lock(root, job="judge", wait=0):
            try:
                reg = Registry(root / FILE, create=False)
                reg.check()
            except RegistryError as exc:
                failed.add("registry")
                text = registry_trouble(settings, str(exc))
                say(f"ERROR registry: {text}")
                alarm(settings, now, say, "registry", text)
                return True
            try:
                _pass(settings, reg, now, say, say_for, failed)
            finally:
                reg.close()
    except GameBusy as exc:
        say(f"busy: {exc}; this pass leaves it alone")
        return False
    return True


def registry_trouble(settings: HostSettings, error: str) -> str:
    """What the masters are told of a registry the judge will not use."""
    found = games_on_disk(settings.root)
    where = (
        f"games/ holds {count(len(found), 'game')} ({', '.join(found[:20])}{', ...' if len(found) > 20 else ''}): "
        "the judge never makes a new registry over them"
        if found
        else "games/ holds no game"
    )
    return (
        f"{error}. {where}. Nothing was read, sent or changed in this pass, nor will be until the registry is "
        f"sound: 'moonshine judge check {settings.root}' says what is wrong, and 'moonshine judge check "
        f"{settings.root} --repair' puts the damaged file aside and rebuilds the registry from the games."
    )


def alarm(settings: HostSettings, now: datetime, log: Log, step: str, text: str) -> None:
    """An error mailed to the judge's masters once without the registry (which is what
    failed): the error's mail is a file of the judge's outbox named by its text, so
    that a later pass finds it written and writes no other; the outbox is sent."""
    key = hashlib.sha256(f"{step}|{text}".encode()).hexdigest()[:16]
    name = f"error-{step}-{key}.eml"
    base = settings.root / OUTBOX
    if not settings.masters:
        log("no master address (judge.yaml masters): the error is in this log only")
        return
    if not any(base.glob(f"*/{name}")):
        cfg = settings.config
        body = (
            f"The judge '{cfg.title}' ({settings.root}) stopped at {now.isoformat()}: {text}\n\n"
            "This error is mailed once; every pass logs it again in run.log until it is mended.\n"
        )
        to, bcc = compose.unseen(from_address(cfg), settings.masters)
        msg = compose.text_message(
            sender=from_address(cfg),
            to=to,
            bcc=bcc,
            subject=f"{compose.subject_prefix(cfg)} judge error: {step}",
            body=body,
            msg_id=compose.message_id(cfg, "judge", "alarm", key),
            date=now,
        )
        atomic_write_text(day_folder(settings, now.date().isoformat()) / name, outbox.serialise(msg))
        log(f"error of the step '{step}' written to the outbox for the judge's masters ({', '.join(settings.masters)})")
    try:
        deliver(settings, now, log)
    except (MoonshineError, OSError) as exc:
        log(f"ERROR lobby mail: {exc}")


def _step(name: str, failed: set[str], say: Log, fn: Callable[[], None]) -> None:
    try:
        fn()
    except (MoonshineError, OSError) as exc:
        failed.add(name)
        say(f"ERROR {name}: {exc}")
    except Exception as exc:  # a defect must not stop the judge's other steps, nor its games
        failed.add(name)
        say(f"ERROR {name}: {type(exc).__name__}: {exc}")


def _pass(
    settings: HostSettings, reg: Registry, now: datetime, log: Log, say_for: Callable[[Path], Log], failed: set[str]
) -> None:
    errors: list[tuple[str, str]] = []
    said: set[str] = set()

    def say(line: str) -> None:  # the judge's own log; its errors are mailed to its masters
        if line.endswith(LEFT_BUSY):  # a game busy with another job: said once a pass
            if line in said:
                return
            said.add(line)
        log(line)
        if line.startswith("ERROR "):
            step, _, text = line.removeprefix("ERROR ").partition(": ")
            errors.append((step, text))

    _step("lobby mail", failed, say, lambda: write_queued(settings, reg))
    _step("registrations", failed, say, lambda: expire_registrations(settings, reg, now, say))
    _step("games", failed, say, lambda: reconcile(settings, reg, now, say))
    try:
        source = mail_source(settings.config, settings.root)
    except MoonshineError as exc:
        failed.add("intake")
        say(f"ERROR intake: {exc}")
        source = None
    if source is None:
        _games(settings, reg, now, say, say_for, failed, {})
    elif is_imap_url(source):
        try:
            with imap_box(settings.config, settings.root, source) as imap:
                entries = imap_entries(imap)
                _with_mail(settings, reg, entries, now, say, say_for, failed)
        except MoonshineError as exc:
            failed.add("intake")
            say(f"ERROR intake: {exc}")
            _games(settings, reg, now, say, say_for, failed, {})
    else:
        try:
            entries = source_entries(Path(source))
        except MoonshineError as exc:
            failed.add("intake")
            say(f"ERROR intake: {exc}")
            entries = []
        _with_mail(settings, reg, entries, now, say, say_for, failed)
    _step("passwords", failed, say, lambda: mail_passwords(settings, reg, now, say))
    for step, text in errors:
        _step("error report", failed, log, functools.partial(report_error, settings, reg, now, log, step, text))
    # the mail queued in the registry since (the errors' mail, the end of a pause) to the outbox before it is sent
    _step("lobby mail", failed, say, lambda: write_queued(settings, reg))
    _step("lobby mail", failed, say, lambda: deliver(settings, now, say))


def expire_registrations(settings: HostSettings, reg: Registry, now: datetime, say: Log) -> None:
    """Registrations never confirmed (their password never came back) within
    ``limits.unconfirmed_days``: forgotten, their address and name free again."""
    for player in reg.expire_unconfirmed(now - timedelta(days=settings.limits.unconfirmed_days)):
        say(f"lobby: the registration of {player.address} was never confirmed: forgotten")


def own_addresses(settings: HostSettings) -> set[str]:
    """The judge's own addresses (its ``smtp.from``): mail from them is never answered."""
    return {parseaddr(from_address(settings.config))[1].lower()} - {""}


def report_error(settings: HostSettings, reg: Registry, now: datetime, log: Log, step: str, text: str) -> None:
    """An error of the judge's own work (its mailbox, the lobby, its games' directories,
    the passwords' mail) mailed to its masters once: the registry remembers it, with
    the mail queued in the same transaction. It is tried again at every pass, and
    logged each time."""
    key = "error:" + hashlib.sha256(f"{step}|{text}".encode()).hexdigest()[:16]
    if reg.answered(key):
        return
    if not settings.masters:
        log("no master address (judge.yaml masters): the error is in this log only")
        return
    cfg = settings.config
    body = (
        f"The judge '{cfg.title}' ({settings.root}) met an error at {now.isoformat()} "
        f"while it was doing its step '{step}':\n\n{text}\n\n"
        "It goes on with the rest of its work and tries again at every pass; this error is "
        "mailed once. The judge's run.log has every pass's lines.\n"
    )
    to, bcc = compose.unseen(from_address(cfg), settings.masters)
    msg = compose.text_message(
        sender=from_address(cfg),
        to=to,
        bcc=bcc,
        subject=f"{compose.subject_prefix(cfg)} judge error: {step}",
        body=body,
        msg_id=compose.message_id(cfg, "judge", "error", key),
        date=now,
    )
    with reg.transaction():
        reg.queue_mail(now.date().isoformat(), f"{key.replace(':', '-')}.eml", outbox.serialise(msg))
        reg.mark_answered(key, sender="", outcome=f"error mailed to the masters: {step}", now=now)
    masters = ", ".join(settings.masters)
    log(f"error of the step '{step}' written to the outbox for the judge's masters ({masters})")


def _with_mail(
    settings: HostSettings,
    reg: Registry,
    entries: list[Entry],
    now: datetime,
    say: Log,
    say_for: Callable[[Path], Log],
    failed: set[str],
) -> None:
    by_game = route(settings, reg, entries[: settings.limits.messages], now, say)
    _step("games", failed, say, lambda: reconcile(settings, reg, now, say))
    _games(settings, reg, now, say, say_for, failed, by_game)


def route(
    settings: HostSettings, reg: Registry, entries: list[Entry], now: datetime, say: Log
) -> dict[str, list[Entry]]:
    """Each message to its reader: the lobby answers its own here; the others are
    returned by game, to be read by the game's pass. A message the lobby may not
    check in this pass (``lobby.waits``: too many wrong passwords from its address)
    stays where it is, for the next pass; one whose handling fails is set aside
    (``set_aside``) and the pass goes on."""
    limit = max_message_bytes(settings.config)
    ctx = LobbyPass(settings, reg, now, say)
    by_game: dict[str, list[tuple[Entry, Mail]]] = {}
    domain = compose.mail_domain(settings.config)

    @functools.cache
    def titles() -> dict[str, str]:  # the games by name and title: once, for the first document of orders
        return by_name_or_title(reg.games(RUNNING, PAUSED))

    for entry in entries:
        if entry.key is not None and reg.answered(f"source:{entry.key}"):
            continue
        try:
            raw = entry.load()
        except Exception as exc:  # gone since it was listed: the next pass sees
            say(f"lobby: {entry.origin}: cannot be read ({type(exc).__name__})")
            continue
        mail = read_mail(raw, limit, authserv_id(settings.config), ours=own_addresses(settings))
        try:
            resolve(reg, mail, domain)
            game, lobby_too = _reader(reg, mail, domain, titles)
        except Exception as exc:  # a poison message: set aside once, never tried again
            if not _set_aside_or_keep(ctx, entry, mail, exc):
                continue
            game, lobby_too = None, False
        both = game is not None and lobby_too  # a lobby's command, and orders for a game
        answered = reg.answered(mail.digest)
        if answered and not both:  # the lobby's already (a pass killed before it let go of it)
            game = None
        elif (
            (game is None or both) and not answered and not _answer(ctx, mail, entry, passed_on=game if both else None)
        ):
            continue  # left in the mailbox for the next pass
        if game is not None:  # the game's inbox knows the messages it read
            by_game.setdefault(game, []).append((Entry(entry.origin, _bytes(raw), entry.done, entry.key), mail))
            continue
        if entry.key is not None:
            reg.mark_answered(f"source:{entry.key}", sender=mail.sender, outcome="read", now=now)
        _done(entry)
    # mail found for a game a master ended in this pass (its message later in the mailbox):
    # the lobby says so now, not at the next pass
    over = [name for name in by_game if reg.status(name) not in ACTIVE]
    for name in over:
        for entry, mail in by_game.pop(name):
            if not reg.answered(mail.digest) and not _answer(ctx, mail, entry):
                continue  # left in the mailbox for the next pass
            if entry.key is not None:
                reg.mark_answered(f"source:{entry.key}", sender=mail.sender, outcome="read", now=now)
            _done(entry)
    return {name: [entry for entry, _ in found] for name, found in by_game.items()}


def _answer(ctx: LobbyPass, mail: Mail, entry: Entry, *, passed_on: str | None = None) -> bool:
    """The lobby answers a mail (one transaction), and its mail goes to the outbox.
    False: the mail stays in the mailbox for the next pass, unread (``lobby.waits``:
    too many wrong passwords from its address in this pass), or not answered because
    its handling failed and it could not be set aside either."""
    reg = ctx.reg
    if lobby.waits(ctx, mail):
        ctx.log(f"lobby: {mail.sender} [{entry.origin}]: {lobby.WAITS}")
        return False
    ctx.passed_on = passed_on
    try:
        if mail.problem:
            outcome = f"{mail.problem}: not answered"
            reg.mark_answered(mail.digest, sender=mail.sender, outcome=outcome, now=ctx.now)
        else:
            outcome = lobby.answer(ctx, mail)
    except Exception as exc:  # a poison message: set aside once, never tried again
        return _set_aside_or_keep(ctx, entry, mail, exc)
    finally:
        ctx.passed_on = None
    ctx.log(f"lobby: {mail.sender or NO_SENDER} [{entry.origin}]: {outcome}")
    write_queued(ctx.settings, reg)
    return True


def _set_aside_or_keep(ctx: LobbyPass, entry: Entry, mail: Mail, exc: Exception) -> bool:
    """A message whose handling raised: set aside (``set_aside``, True), or, when
    ``held/`` cannot take it, left in the mailbox for the next pass (False)."""
    try:
        outcome = set_aside(ctx.settings, ctx.reg, ctx.now, ctx.log, entry, mail, exc)
    except (MoonshineError, OSError) as why:  # left where it is: the next pass tries again
        who = mail.sender or NO_SENDER  # the line is an error: mailed to the masters once
        ctx.log(
            f"ERROR lobby: {who} [{entry.origin}]: {type(exc).__name__}: {exc}; not set aside in "
            f"{HELD}/ ({why}): it stays in the mailbox for the next pass"
        )
        return False
    ctx.log(f"lobby: {mail.sender or NO_SENDER} [{entry.origin}]: {outcome}")
    write_queued(ctx.settings, ctx.reg)
    return True


def resolve(reg: Registry, mail: Mail, domain: str) -> None:
    """The game a mail names without a ``game:`` line: its subject's tag (``[alpha]``),
    else the mail it replies to (``In-Reply-To``, ``References``: a Message-ID the
    judge wrote for a game names it), when the registry has that game."""
    found = None
    tag = mail.subject_game
    if tag is not None and reg.game(tag) is not None:
        found = tag
    else:
        for ref in mail.references:
            name = compose.game_named_by(ref, domain)
            if name is not None and reg.game(name) is not None:
                found = name
                break
    mail.known, mail.resolved = found, True


def set_aside(
    settings: HostSettings, reg: Registry, now: datetime, log: Log, entry: Entry, mail: Mail, exc: BaseException
) -> str:
    """A message whose handling raised: its bytes and what went wrong go to ``held/``
    in the judge's directory, the registry remembers it as read (it is never tried
    again, nor answered), and the masters are told (``report_error``)."""
    why = f"{type(exc).__name__}: {exc}"[:500]
    folder = settings.root / HELD
    name = f"{now.strftime('%Y%m%dT%H%M%S')}-{mail.digest[:16]}"
    atomic_write_text(folder / f"{name}.eml", mail.raw.decode("utf-8", "surrogateescape"))
    atomic_write_text(
        folder / f"{name}.txt",
        f"from: {mail.sender or NO_SENDER}\nmessage-id: {mail.message_id}\nfound: {entry.origin}\n"
        f"set aside: {now.isoformat()}\nerror: {why}\n"
        + "".join(traceback.format_exception(type(exc), exc, exc.__traceback__)[-6:]),
    )
    outcome = f"held: its handling failed ({why}); set aside in {HELD}/{name}.eml, not answered"
    reg.mark_answered(mail.digest, sender=mail.sender, outcome=outcome, now=now)
    text = (
        f"A message from {mail.sender or NO_SENDER} (Message-ID {mail.message_id or '-'}) could not be handled: "
        f"{why}. It is set aside in {HELD}/{name}.eml with what went wrong ({name}.txt); it will not be read "
        "again, and its sender got no answer."
    )
    report_error(settings, reg, now, log, "held message", text)
    return outcome


def _bytes(raw: bytes) -> Callable[[], bytes]:
    """The message's bytes, read once: its game's inbox reads them from memory."""
    return lambda: raw


def _done(entry: Entry) -> None:
    if entry.done is not None:
        entry.done()


def _reader(reg: Registry, mail: Mail, domain: str, titles: Callable[[], dict[str, str]]) -> tuple[str | None, bool]:
    """The game that reads ``mail`` (None: the lobby alone), and whether the lobby reads
    it too. A mail with a command of the lobby is the lobby's, and its game's too when
    it names one being played (a paused game reads its mail too) and holds more than
    the lobby's commands (orders beside a ``join``); the players' votes on time
    (``pause``, ``resume``, ``extend HOURS``) share their words with the masters'
    commands: they are the game's alone when the sender plays a side of it and masters
    none. ``titles``: the games being played by their names and titles, folded, for the
    game a document of orders as JSON names (``docs/orders-json.md``), read when the
    mail names none otherwise. The games are looked up one by one: a message costs the
    same whatever the number of games."""
    if (mail.problem and not mail.sender) or mail.forged or mail.own:
        return None, True  # the lobby logs it and answers nothing
    player = reg.player(mail.sender) if mail.sender else None
    named = mail.game
    if named is None and mail.json_game is not None:  # orders as JSON: its game, by its name or its title
        named = titles().get(folded(mail.json_game))
    if lobby.has_commands(mail):
        voted = named if named is not None else _only_game(reg, player)
        if voted is not None and reg.status(voted) in ACTIVE and _players_vote(reg, mail, voted, player):
            return voted, False
        if named is not None and reg.status(named) in ACTIVE and lobby.read(mail).ignored:
            return named, True
        return None, True
    if named is not None:
        if reg.status(named) not in ACTIVE:
            return None, True
        if player is not None and reg.member(named, player.id) is None and reg.left(named, player.id):
            return None, True  # a player who left the game: the lobby tells them so, in their language
        return named, False
    if replies_to_lobby(mail, domain) and not looks_like_orders(mail):
        return None, True  # a reply to the lobby's mail ("Thanks!"): the lobby's, never orders
    only = _only_game(reg, player)
    return only, only is None


def _only_game(reg: Registry, player: RegisteredPlayer | None) -> str | None:
    """The one game being played where ``player`` plays a side (None: none, or several)."""
    if player is None:
        return None
    playing = [g.name for g, side in reg.games_of(player.id) if side is not None and g.status in ACTIVE]
    return playing[0] if len(playing) == 1 else None


TIME_VOTES = {"pause", "resume", "extend"}  # the players' votes on time, words of the lobby too


def _players_vote(reg: Registry, mail: Mail, game: str, player: RegisteredPlayer | None) -> bool:
    """Whether the lobby's commands of ``mail`` are a player's votes on ``game``'s time:
    a vote on time among them (``observe GAME`` alone is the lobby's, though a game
    has an ``observe`` of its own), each one the game's too
    (``moonshine.mail.commands.GAME``), and its sender playing a side of ``game`` and
    mastering none of it."""
    from moonshine.mail.commands import GAME

    if player is None or not any(m.player.id == player.id and m.side is not None for m in reg.members(game)):
        return False
    if any(m.id == player.id for m in reg.masters(game)):
        return False
    names = {c.name for c in lobby.read(mail).known()}
    return bool(names & TIME_VOTES) and all(GAME.named(name) is not None for name in names)


def reconcile(settings: HostSettings, reg: Registry, now: datetime, say: Log) -> None:
    """The games' directories in step with the registry (``moonshine.host.games``).
    Each game with something to write has it done holding the game's lock, taken at
    once (``moonshine run`` in the game's folder takes the same lock): every step reads
    the game under the lock, so that nothing another job wrote is written over. A game
    whose lock another job holds is left as it is, said once in the log, and done at a
    later pass (the registry still says what is to be done)."""
    for row in reg.games(FORMING, STARTING, RUNNING, PAUSED):
        try:
            games.replace_derived_seed(settings, reg, row, now, say)
        except GameBusy as exc:
            busy(row.name, say, exc)
        except MoonshineError as exc:
            say(f"ERROR raid seed of {row.name}: {exc}")
    for row in reg.games(STARTING):
        unless_busy(settings, row.name, say, functools.partial(games.start, settings, reg, row, now, say))
    for row in reg.games(PAUSED):
        games.end_long_pauses(settings, reg, row, now, say)
    for row in reg.games(RUNNING, PAUSED):
        if row.rollback is not None or row.sync or row.deadline is not None or row.reseed:
            unless_busy(settings, row.name, say, functools.partial(_from_registry, settings, reg, row, now, say))
        if row.process is not None and games.game_of(settings, row.name).current_turn() != row.process:
            reg.set_process(row.name, None)  # adjudicated: the master's request is done
    for name in reg.unwelcomed():  # a side taken over in a paused game has its history at once
        found = reg.game(name)
        if found is not None:
            unless_busy(settings, name, say, functools.partial(games.welcome, settings, reg, found, now, say))


def _from_registry(settings: HostSettings, reg: Registry, row: GameRow, now: datetime, say: Log) -> None:
    """What the registry says is to be written in a game being played: a rollback, its
    players and settings, a master's deadline, a new raid seed."""
    if row.rollback is not None:
        games.apply_rollback(settings, reg, row, now, say)
    if row.sync:
        games.sync_players(settings, reg, row, say)
    if row.deadline is not None:
        games.apply_deadline(settings, reg, row, say, now)
    if row.reseed:
        games.replace_revealed_seed(settings, reg, row, now, say)


LEFT_BUSY = "; the judge's work on it waits for the next pass"


def busy(name: str, say: Log, exc: GameBusy) -> None:
    """The line of the log that says the judge left a busy game's directory alone (once
    a pass: ``_pass``)."""
    line = f"{name}: busy: {exc}{LEFT_BUSY}"
    say(line)


def unless_busy(settings: HostSettings, name: str, say: Log, steps: Callable[[], None]) -> None:
    """The judge's ``steps`` on a game's directory, holding the game's lock
    (``moonshine.game.lock``), taken at once; when another job holds it, the steps are
    not done (``busy``): the next pass does them."""
    try:
        with game_lock(settings.game_dir(name), job="judge", wait=0):
            steps()
    except GameBusy as exc:
        busy(name, say, exc)


def _games(
    settings: HostSettings,
    reg: Registry,
    now: datetime,
    say: Log,
    say_for: Callable[[Path], Log],
    failed: set[str],
    by_game: dict[str, list[Entry]],
) -> None:
    from moonshine.mail.run import run_game

    opened, idle = to_open(settings, reg, now, by_game)
    if opened:
        shown = ", ".join(f"{row.name} ({why})" for row, why in opened)
        say(f"games opened: {shown}; {idle} not opened (nothing due)")
    for row, _ in opened:
        root = settings.game_dir(row.name)
        log = say_for(root)
        steps: set[str] = set()
        due: list[datetime | None] = []
        done = False
        held: list[str] = []  # the messages the game held unread (too many wrong passwords): read again next pass
        reg.set_due(row.name, now, row.stamp)  # a pass killed in the game's opens it again at the next
        kill_point("game-due")  # (a test of crash safety may kill the pass here: MOONSHINE_KILL_AT)
        mail = by_game.get(row.name, [])
        try:
            done = run_game(
                root,
                now=now,
                say=log,
                failed=steps,
                mail=mail,
                paused=row.status == PAUSED,
                host_lines=lobby.is_command_line,
                process=row.process,
                seal=True,
                due=due,
                reveal=False,  # an anonymous game's identities are revealed from the judge's outbox (host.games.record)
                authserv=authserv_id(settings.config),
                budget=ReplyBudget(reg, settings, now),
                held=held,
            )
        except MoonshineError as exc:
            log(f"ERROR: {exc}")
            steps.add("settings")
        except Exception as exc:  # a defect in one game's pass must not stop the others
            log(f"ERROR: {type(exc).__name__}: {exc}")
            steps.add("pass")
        if not done and not steps:  # busy with another job (said in its log): read at the next pass
            continue
        _step("civil disorder", failed, say, functools.partial(games.sync_disorder, settings, reg, row, now, say))
        if steps:
            failed.add(f"game {row.name}")
            which = ", ".join(sorted(steps))
            say(f"{row.name}: the pass failed ({which}): see games/{row.name}/run.log")
        if done:  # a game busy with another job breaks its seal: the next pass opens it
            reg.set_due(row.name, due[0] if due else now, stamp(root))
            # the missed-turn policy's view of the game, which only its pass changes, in the registry;
            # a player it removed is out of game.yaml at once
            _step("games", failed, say, functools.partial(_after_pass, settings, reg, row.name, now, say))
        if done and "intake" not in steps:  # read by the game: a mailbox that keeps it (a Maildir) is not read again
            with reg.transaction():
                for entry in mail:
                    if entry.key is not None and entry.origin not in held:
                        reg.mark_answered(f"source:{entry.key}", sender="", outcome=f"read by {row.name}", now=now)
        _step("dedication", failed, say, functools.partial(_record, settings, reg, row, now, say))


def _record(settings: HostSettings, reg: Registry, row: GameRow, now: datetime, say: Log) -> None:
    """The game's turns in its players' dedication, and its end (``moonshine.host.games.record``),
    whose write in the game's directory holds the game's lock: a job that took it since
    the game's pass leaves the end to the next pass."""
    try:
        games.record(settings, reg, row, now, say)
    except GameBusy as exc:
        busy(row.name, say, exc)


def _after_pass(settings: HostSettings, reg: Registry, name: str, now: datetime, say: Log) -> None:
    """The registry in step with what a game's pass changed: its sides in civil
    disorder (``moonshine.host.games.sync_disorder``), then game.yaml's players when
    the policy removed one."""
    row = reg.game(name)
    if row is None:
        return
    games.sync_disorder(settings, reg, row, now, say)
    row = reg.game(name) or row
    if row.sync:
        unless_busy(settings, name, say, functools.partial(games.sync_players, settings, reg, row, say))


def stamp(root: Path) -> str:
    """game.yaml's modification time (nanoseconds) and size: what an edit by hand
    changes (a ``moonshine`` command breaks the lock's seal besides)."""
    try:
        st = (root / GAME_FILE).stat()
    except OSError:
        return ""
    return f"{st.st_mtime_ns}:{st.st_size}"


def to_open(
    settings: HostSettings, reg: Registry, now: datetime, by_game: dict[str, list[Entry]]
) -> tuple[list[tuple[GameRow, str]], int]:
    """The games being played that this pass opens, each with why, and how many it
    leaves alone. A game is opened when mail came for it, when its due time has come
    (``moonshine.mail.run.next_due``, kept in the registry by its last pass; none yet:
    a game never opened by this version), when a master asked to process its turn,
    when a job has held its lock since its last pass (a ``moonshine`` command, or this
    pass's own step on its directory: its lock's seal is broken) or when its game.yaml
    is not as that pass left it (an edit by hand). The others cost a row of the
    registry and two ``stat`` each."""
    out: list[tuple[GameRow, str]] = []
    idle = 0
    for row in reg.games(RUNNING, PAUSED):
        root = settings.game_dir(row.name)
        why = ""
        if row.name in by_game:
            why = "mail"
        elif row.due_at is None:
            why = "first pass"
        elif row.due_at != NEVER and datetime.fromisoformat(row.due_at) <= now:
            why = "due"
        elif row.process is not None:
            why = "process asked"
        elif not sealed(root):
            why = "changed"
        elif stamp(root) != row.stamp:
            why = "game.yaml edited"
        if why:
            out.append((row, why))
        else:
            idle += 1
    return out, idle
