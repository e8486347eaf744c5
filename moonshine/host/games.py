"""The games of a judge for many games, on disk: each a game directory under
``games/NAME/`` made as ``moonshine new`` makes one, then kept in step with the
registry (``moonshine.host.registry``).

The lobby's commands change the registry only, in one transaction each; what
they mean for a game's directory is done here, by steps that look at the
registry and do what is still to be done, each safe to do again: a pass killed
anywhere is finished by the next.

- ``build``: a new game's directory, made in ``.building/`` inside the judge's
  directory and renamed into ``games/`` when complete (never half a game);
- ``draw``: the sides, by preference then at random, from the game's draw seed
  (``moonshine.host.settings.draw_seed``), the same for anyone who redoes it;
- ``start``: a full game (or one its master starts) gets its sides, its players
  in game.yaml, its first deadline and a start mail to each player;
- ``sync_players``: game.yaml's players (address, password hash, time zone,
  language) as the registry has them, a vacant side with no player (its units
  hold, and no turn waits for it), and the settings a master may change (schedule,
  press, observers) with the game's name at the judge (its mail's tag);
- ``welcome``: a player's first mail in a game, in the game's outbox: the start
  mail, or a side's history for a player who takes it over (in a paused game too);
- ``apply_rollback``: a master's rollback, the turn played again;
- ``apply_deadline``: a deadline a master's command set (extend, deadline, resume,
  rollback), told in the turn's bulletin; ``end_long_pauses``: a master's pause past
  the game's ``master_pause_max`` ends by itself;
- ``replace_revealed_seed``: a game resumed after its end revealed its raid seed;
- ``sync_disorder``: the missed-turn policy's view of the game (``moonshine.mail.disorder``)
  in the registry: a side in civil disorder offered for a takeover, its player's
  dedication told once, a player the policy removed out of the game (after each of
  the game's passes, which alone change it);
- ``record``: each turn adjudicated counts in its players' dedication; a game
  over counts as finished for them."""

from __future__ import annotations

import hashlib
import hmac
import os
import random
import shutil
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from pathlib import Path
from typing import Any, TypeVar

import msgspec

from moonshine.errors import GameError, MoonshineError
from moonshine.game import identities
from moonshine.game.directory import Game, Player, deadline, is_git_repo, save_config
from moonshine.game.lock import game_lock
from moonshine.host.registry import (
    DISORDER,
    DRAW,
    FINISHED,
    NEVER,
    PAUSED,
    RUNNING,
    TAKEOVER,
    GameRow,
    Member,
    RegisteredPlayer,
    Registry,
)
from moonshine.host.settings import BUILDING, HostSettings, draw_seed, player_token
from moonshine.mail import outbox
from moonshine.mail.outbox import compose
from moonshine.mail.settings import from_address
from moonshine.render import mailwords
from moonshine.render.mailwords import text_or_english as words
from moonshine.text.catalogue import languages
from moonshine.text.english import count

Log = Callable[[str], None]
Key = TypeVar("Key", int, str)  # a player in the draw: the registry's number, or a token


def game_of(settings: HostSettings, name: str) -> Game:
    return Game(settings.game_dir(name))


# -- a new game ------------------------------------------------------------------------------


def build(settings: HostSettings, name: str, variant: str, options: dict[str, Any], master: str) -> dict[str, str]:
    """The directory of a new game ``games/NAME`` with the master's ``options``
    (title, language, schedule, press, rules), made whole elsewhere and renamed into
    place; returns its sides. A wrong option is a GameError, and leaves nothing.

    Nothing on the disk is ever deleted or written over: a ``games/NAME`` there
    already (a game the registry lost, a killed pass's) is refused, for the judge's
    operator to look at (``moonshine judge check``); each build has a folder of its
    own under ``.building/``, and only that folder, made by this call, is removed
    when the build fails."""
    from moonshine.game.families import new_game
    from moonshine.game.git import git_commit

    final = settings.game_dir(name)
    if final.exists() or final.is_symlink():
        raise GameError(f"games/{name} is on the disk already, and not in the registry: it is left as it is")
    work = settings.root / BUILDING / f"{name}-{time.time_ns()}-{os.getpid()}"
    work.parent.mkdir(parents=True, exist_ok=True)
    try:
        game = new_game(  # its raid seed a new secret, derived from nothing (moonshine.game.seeds)
            work,
            seed=None,
            title=str(options.get("title") or f"{name}"),
            language=str(options.get("language") or settings.config.language),
            variant=variant,
        )
        cfg = game.config
        extra: dict[str, Any] = {
            **cfg.extra,
            "schedule": options["schedule"],
            "press": options.get("press") or {"kind": "white"},
            "smtp": settings.config.extra.get("smtp") or {},
            "referee": {"email": [master]},
            "judge": {"name": name},  # its mail's subject tag and Message-IDs name it (replies find it)
        }
        if options.get("rules"):
            extra["rules"] = options["rules"]
        if options.get("anonymous"):  # moonshine.game.identities
            extra["anonymous"] = True
            extra["reveal_identities"] = options.get("reveal_identities") or "at-end"
        for key in ("early", "nmr", "max_pause", "master_pause_max"):  # moonshine.mail.policy
            if key in options:
                extra[key] = options[key]
        save_config(game, msgspec.structs.replace(cfg, extra=extra))
        checked = Game(work)
        checked.config  # noqa: B018 (read back: a wrong option is refused here)
        from moonshine.mail.turns import schedule_of

        schedule_of(checked)
        sides = checked.sides()
        if is_git_repo(work):
            git_commit(work, f"The judge's settings for {name}")
    except MoonshineError:
        shutil.rmtree(work, ignore_errors=True)
        raise
    final.parent.mkdir(parents=True, exist_ok=True)
    work.rename(final)
    return sides


# -- the draw -------------------------------------------------------------------------------


def draw(seed: str, game: str, joined: list[tuple[Key, tuple[str, ...]]], sides: list[str]) -> dict[Key, str]:
    """Each player's side (player -> side; a player is any key: the registry's number,
    or the token an anonymous game's start mail gives, since only the order counts): the
    players in an order drawn from ``seed`` (the players as they joined, shuffled by
    Python's ``random.Random`` seeded with the SHA-256 of ``SEED|GAME`` as a number);
    each in turn gets the first of their preferences still free; then those with none
    free get the sides left (``sides``, sorted by key) shuffled by the same generator,
    in that order. The same seed and players give the same draw."""
    rng = random.Random(int(hashlib.sha256(f"{seed}|{game}".encode()).hexdigest(), 16))
    order = list(joined)
    rng.shuffle(order)
    free = list(sides)
    out: dict[Key, str] = {}
    for pid, preferences in order:
        for side in preferences:
            if side in free:
                out[pid] = side
                free.remove(side)
                break
    rest = [pid for pid, _ in order if pid not in out]
    rng.shuffle(free)
    for pid, side in zip(rest, free, strict=False):
        out[pid] = side
    return out


# -- starting ---------------------------------------------------------------------------------


def start(settings: HostSettings, reg: Registry, row: GameRow, now: datetime, log: Log) -> None:
    """A game to start (status starting): its sides drawn (once), its players written,
    its first deadline set; then it runs, and each player is mailed (``welcome``)."""
    from moonshine.game.deadlines import write_deadline
    from moonshine.game.journal import transaction
    from moonshine.mail.turns import schedule_of

    game = game_of(settings, row.name)
    sides = list(game.sides())
    members = reg.members(row.name)
    if any(m.side is None for m in members):
        seed = draw_seed(settings.root, row.name)
        taken = {m.side for m in members if m.side is not None}
        waiting = [(m.player.id, m.preferences) for m in members if m.side is None]
        reg.assign(row.name, draw(seed, row.name, waiting, sorted(s for s in sides if s not in taken)))
        members = reg.members(row.name)
    seated = {m.side for m in members}
    reg.add_vacancies(row.name, [s for s in sides if s not in seated], now)
    joined = sorted((m for m in members if m.came == DRAW), key=lambda x: (x.joined, x.player.id))
    hidden = identities.of(game.config).hidden  # an anonymous game's start mail names each player by a token
    reg.set_drawn(  # as the start mail names them
        row.name,
        [
            (player_token(settings.root, row.name, m.player.id) if hidden else m.player.name, m.preferences)
            for m in joined
        ],
    )
    sync_players(settings, reg, row, log)
    game = game_of(settings, row.name)
    turn = game.current_turn()
    schedule = schedule_of(game)
    if schedule is not None and deadline(game.config, turn) is None:
        with transaction(game.root, f"judge: start {row.name}", notify=log) as txn:
            write_deadline(game, turn, schedule.deadline(now, turn))
            txn.commit(f"The game starts: first deadline for {turn}", ["game.yaml"], git=is_git_repo(game.root))
    reg.set_status(row.name, RUNNING)
    log(f"{row.name}: started with {count(len(members), 'player')}; {count(len(sides) - len(members), 'side')} vacant")


def sync_players(settings: HostSettings, reg: Registry, row: GameRow, log: Log) -> None:
    """game.yaml's players, and the settings a master may change while it is played
    (schedule, press, observers), as the registry has them (when it says they changed)."""
    from moonshine.game.journal import transaction

    game = game_of(settings, row.name)
    cfg = game.config
    extra = _settings_of(reg, row, cfg.extra)
    if extra != cfg.extra:
        with transaction(game.root, f"judge: settings of {row.name}", notify=log) as txn:
            save_config(game, msgspec.structs.replace(cfg, extra=extra))
            txn.commit("Settings from the judge's registry", ["game.yaml"], git=is_git_repo(game.root))
        log(f"{row.name}: settings written from the registry")
        game = game_of(settings, row.name)
        cfg = game.config
    by_side = {m.side: m for m in reg.members(row.name) if m.side is not None}
    players: dict[str, Player] = {}
    for side in game.sides():
        m = by_side.get(side)
        if m is None:
            players[side] = Player(name="", email=[])
            continue
        p = m.player
        players[side] = Player(
            name=p.name,
            email=[p.address],
            password=reg.password_hash(p.id),
            timezone=p.timezone,
            language=p.language if p.language != cfg.language else None,
        )
    if players != cfg.players:
        with transaction(game.root, f"judge: players of {row.name}", notify=log) as txn:
            save_config(game, msgspec.structs.replace(cfg, players=players))
            txn.commit("Players from the judge's registry", ["game.yaml"], git=is_git_repo(game.root))
        log(f"{row.name}: players written from the registry")
    reg.set_sync(row.name, False)


def _settings_of(reg: Registry, row: GameRow, extra: dict[str, Any]) -> dict[str, Any]:
    """game.yaml's other sections with the settings the registry has for the game:
    its name at the judge, the schedule and the press rules a master may change, and
    the observers (those game.yaml lists, and those who asked by mail)."""
    out = {**extra, "judge": {"name": row.name}}
    if row.settings.get("schedule"):
        out["schedule"] = row.settings["schedule"]
    if row.settings.get("press"):
        out["press"] = {**(extra.get("press") or {}), **row.settings["press"]}
    listed = extra.get("observers") or []
    listed = [listed] if isinstance(listed, str) else list(listed)
    watching = sorted({*listed, *(p.address for p in reg.observers(row.name))})
    if watching:
        out["observers"] = watching
    return out


def welcome(settings: HostSettings, reg: Registry, row: GameRow, now: datetime, log: Log) -> None:
    """Each player of a game being played not yet welcomed gets a mail of the game's:
    a player of the draw, the start mail; a player who took a side over, the side's
    history (every report so far, none before the first), the turn's deadline, and
    how to send orders, with the password they have."""
    from moonshine.game.journal import transaction
    from moonshine.mail.takeover import history_mail

    game = game_of(settings, row.name)
    todo = [m for m in reg.members(row.name) if m.side is not None and not _welcomed(reg, row.name, m.player.id)]
    if not todo:
        return
    turn = game.current_turn()
    out: list[outbox.Outgoing] = []
    for m in todo:
        assert m.side is not None
        if m.came == TAKEOVER:
            lang = m.player.language if m.player.language in languages() else game.config.language
            note = words(lang, "seating.takeover.note", game=row.name, side_word=game.side_word, key=m.side)
            if row.status == PAUSED:
                note = words(lang, "seating.takeover.paused", game=row.name) + "\n\n" + note
            name, msg = history_mail(
                game, m.side, m.player.address, m.player.name, now, own_password=True, note=note, language=lang
            )
        else:
            name, msg = _start_mail(settings, reg, game, row, m, now)
        out.append(outbox.Outgoing(name, msg))
    with transaction(game.root, f"judge: welcome {row.name}", notify=log) as txn:
        outbox.write_outbox(game, turn, out)
        txn.commit("Mail to new players", [f"outbox/{turn}"], git=is_git_repo(game.root))
    with reg.transaction():
        for m in todo:
            reg.conn.execute("UPDATE members SET welcomed = 1 WHERE game = ? AND player = ?", (row.name, m.player.id))
    log(f"{row.name}: welcome mail for {', '.join(str(m.side) for m in todo)}")


def _welcomed(reg: Registry, game: str, pid: int) -> bool:
    row = reg.conn.execute("SELECT welcomed FROM members WHERE game = ? AND player = ?", (game, pid)).fetchone()
    return bool(row and row[0])


def _start_mail(
    settings: HostSettings, reg: Registry, game: Game, row: GameRow, m: Member, now: datetime
) -> tuple[str, EmailMessage]:
    from moonshine.game.deadlines import deadline_text

    cfg = game.config
    assert m.side is not None
    lang = m.player.language if m.player.language in languages() else cfg.language
    names = game.sides(lang)
    turn = game.current_turn()
    due = deadline(cfg, turn)
    hidden = identities.of(cfg).hidden  # an anonymous game: each player by a token only they know

    def shown(x: Member) -> str:
        return words(lang, "seating.start.token", token=token(x)) if hidden else x.player.name

    def token(x: Member) -> str:
        return player_token(settings.root, row.name, x.player.id)

    by_side = {x.side: x for x in reg.members(row.name)}
    lines = "\n".join(
        words(lang, "seating.start.line", side=f"{names[s]} ({s})", player=shown(by_side[s]))
        if s in by_side
        else words(lang, "seating.start.line", side=f"{names[s]} ({s})", player=words(lang, "seating.start.vacant"))
        for s in names
    )
    drawn = row.drawn or tuple(
        (token(x) if hidden else x.player.name, x.preferences)
        for x in sorted(reg.members(row.name), key=lambda x: (x.joined, x.player.id))
    )  # the players of the draw (an anonymous game's by their tokens), as the start recorded them
    joined = "; ".join(
        f"{name} ({' '.join(prefs) or words(lang, 'seating.start.no_preference')})" for name, prefs in drawn
    )
    seed = draw_seed(settings.root, row.name)
    secrecy = identities.of(cfg).reveal
    body = words(
        lang,
        "seating.start.body_anonymous" if hidden else "seating.start.body",
        secrecy=words(lang, f"seating.start.secrecy_{secrecy.replace('-', '_')}") if hidden else "",
        token=token(m),
        name=m.player.name,
        game=row.name,
        variant=game.variant.title,
        side=names[m.side],
        due=deadline_text(cfg, m.side, due, lang) if due is not None else "-",
        sides=lines,
        side_word=game.side_word,
        key=m.side,
        seed=seed,
        seed_hash=hashlib.sha256(seed.encode()).hexdigest(),
        joined=joined,
    )
    body += "\n\n-- \n" + mailwords.text(lang, "signature", title=cfg.title) + "\n"
    msg = compose.text_message(
        sender=from_address(cfg),
        to=[m.player.address],
        subject=words(lang, "seating.start.subject", prefix=compose.subject_prefix(cfg), side=names[m.side]),
        body=body,
        msg_id=compose.message_id(cfg, turn, "start", m.side, m.player.address),
        date=now,
        reply_to=from_address(cfg),
    )
    return f"start-{m.side.lower()}.eml", msg


# -- deadlines a master set -------------------------------------------------------------------


NO_DEADLINE = "-"  # the registry's pending deadline of a paused game: none in game.yaml
# why a master's deadline is pending (its third word), which the turn's bulletin tells
MASTER_PAUSE, MASTER_RESUME, MASTER_EXTEND, PAUSE_ENDED = "pause", "resume", "extend", "ended"


def pending(turn: str, due: datetime | None, why: str = "") -> str:
    """The registry's pending deadline: ``TURN TIME [WHY]`` (``-`` for none: a pause)."""
    return " ".join(x for x in (turn, due.isoformat() if due is not None else NO_DEADLINE, why) if x)


def read_pending(value: str) -> tuple[str, datetime | None, str]:
    """``pending``'s turn, deadline (None: taken out) and why ("" for one of an earlier version)."""
    turn, when, why = ([*value.split(" ", 2), "", ""])[:3]
    return turn, None if when == NO_DEADLINE else datetime.fromisoformat(when), why


def master_pause_max(settings: HostSettings, row: GameRow) -> timedelta | None:
    """The longest pause, and extension, a master of the game may make (game.yaml's
    ``master_pause_max``; None: no limit)."""
    from moonshine.mail.policy import policy_of

    return policy_of(game_of(settings, row.name)).master_pause_max


def apply_deadline(settings: HostSettings, reg: Registry, row: GameRow, log: Log, now: datetime) -> None:
    """``TURN TIME WHY`` from the registry into game.yaml's deadlines, for the current
    turn (``TURN - pause``: the turn's deadline taken out, as a game is paused), and
    into the turn's bulletin (``moonshine.game.news``): a master's pause, resumption or
    extension, or a pause that reached the game's ``master_pause_max``."""
    from moonshine.game import news
    from moonshine.game.deadlines import clear_deadline, write_deadline
    from moonshine.game.journal import transaction

    assert row.deadline is not None
    turn, due, why = read_pending(row.deadline)
    game = game_of(settings, row.name)
    paths = ["game.yaml", f"orders/{turn}"]
    if game.current_turn() == turn and due is None:
        if deadline(game.config, turn) is not None:
            with transaction(game.root, f"judge: pause {row.name}", notify=log) as txn:
                clear_deadline(game, turn)
                since = datetime.fromisoformat(row.paused_at) if row.paused_at else now
                news.put(game, turn, f"master-pause-{since.isoformat()}", "news.master_pause", when=since)
                txn.commit(f"{turn} paused: no deadline until it resumes", paths, git=is_git_repo(game.root))
            log(f"{row.name}: paused; the deadline of {turn} is taken out until it resumes")
    elif game.current_turn() == turn and due is not None and deadline(game.config, turn) != due:
        with transaction(game.root, f"judge: deadline {row.name}", notify=log) as txn:
            write_deadline(game, turn, due)
            _master_news(game, turn, due, why, now)
            txn.commit(f"Deadline of {turn} set by the master: {due.isoformat()}", paths, git=is_git_repo(game.root))
        log(f"{row.name}: deadline {turn}: {due.isoformat()} (set by a master)")
    reg.set_deadline(row.name, None)


def apply_rollback(settings: HostSettings, reg: Registry, row: GameRow, now: datetime, log: Log) -> None:
    """A master's ``rollback GAME TURN``: the game back at the start of TURN (its
    results and every later turn removed, the orders kept: ``moonshine.game.jobs.rollback``),
    the game's record of its mail and deadlines reopened (``moonshine.mail.run.reopen``),
    and its dedication counted again from the turn before. The deadline the master's
    command set follows (``apply_deadline``). Safe to do again."""
    from moonshine.game.jobs import rollback
    from moonshine.mail.run import reopen
    from moonshine.mail.turns import previous_turn

    assert row.rollback is not None
    game = game_of(settings, row.name)
    removed = rollback(game, row.rollback, notify=log)
    reopen(game_of(settings, row.name), row.rollback, now, notify=log)
    before = previous_turn(game_of(settings, row.name), row.rollback)
    with reg.transaction():
        reg.set_recorded(row.name, before)
        reg.set_rollback(row.name, None)
    gone = count(len(removed), "file or folder", "files and folders")
    log(f"{row.name}: rolled back to the start of {row.rollback} ({gone} removed)")


def replace_revealed_seed(settings: HostSettings, reg: Registry, row: GameRow, now: datetime, log: Log) -> None:
    """A game resumed after its termination revealed its raid seed gets a new secret
    one, for the raids from its next turn on (``moonshine.game.jobs.replace_seed``)."""
    from moonshine.game.jobs import replace_seed
    from moonshine.game.seeds import REVEALED_AT_END

    game = game_of(settings, row.name)
    new = replace_seed(game, REVEALED_AT_END, now=now, notify=log)
    reg.set_reseed(row.name, False)
    log(f"{row.name}: resumed after its end; its revealed raid seed is replaced (SHA-256 {new})")


def reveals_seed(settings: HostSettings, row: GameRow) -> bool:
    """Whether the game's rule family draws with a secret seed it reveals at the end."""
    from moonshine.game import families

    return bool(families.of(game_of(settings, row.name)).reveals_seed)


def _master_news(game: Game, turn: str, due: datetime, why: str, now: datetime) -> None:
    """What a master's deadline tells the turn's bulletin (a deadline of an earlier
    version, with no why: nothing)."""
    from moonshine.game import news

    kind, _, hours = why.partition(":")
    stamp = due.isoformat()
    if kind == MASTER_EXTEND and hours.isdigit():
        news.put(game, turn, f"master-extend-{stamp}", "news.master_extend", n=int(hours), due=due)
    elif kind == MASTER_RESUME:
        news.put(game, turn, f"master-resume-{stamp}", "news.master_resume", when=now)
    elif kind == PAUSE_ENDED:
        news.put(game, turn, f"master-ended-{stamp}", "news.master_pause_ended", when=now)


def current_deadline(settings: HostSettings, reg: Registry, row: GameRow) -> tuple[str, datetime | None]:
    """The game's current turn and its deadline (one a master set and not yet written
    included)."""
    game = game_of(settings, row.name)
    turn = game.current_turn()
    if row.deadline is not None and read_pending(row.deadline)[0] == turn:
        return turn, read_pending(row.deadline)[1]
    return turn, deadline(game.config, turn)


def pause_ends(settings: HostSettings, row: GameRow, paused_at: datetime) -> datetime | None:
    """When a master's pause of the game made at ``paused_at`` ends by itself: then and
    the game's ``master_pause_max`` (None: no limit, the pause lasts until a master
    resumes the game). Worked out once, when the pause is made, and kept in the
    registry (``Registry.set_pause_ends``)."""
    most = master_pause_max(settings, row)
    return None if most is None else paused_at + most


def end_long_pauses(settings: HostSettings, reg: Registry, row: GameRow, now: datetime, log: Log) -> None:
    """A master's pause that reached the game's ``master_pause_max`` ends by itself, as a
    ``resume`` would: the deadline as far off as it was at the pause (an hour at least),
    and every player of the game told so in a mail of their own (``announce.pause_ended``,
    queued in the transaction that ends the pause: mailed once however often the pass
    runs). The end is the registry's (``GameRow.pause_ends``): a pause not yet over
    costs no reading of the game's game.yaml. A pause made before the registry kept its
    end has it worked out once, from game.yaml, and kept."""
    from moonshine.host.announcements import Due, announcements

    if row.paused_at is None:
        return
    paused_at = datetime.fromisoformat(row.paused_at)
    if row.pause_ends is None:
        found = pause_ends(settings, row, paused_at)
        reg.set_pause_ends(row.name, found)
        ends = found
    else:
        ends = None if row.pause_ends == NEVER else datetime.fromisoformat(row.pause_ends)
    if ends is None or now < ends:
        return
    turn, _ = current_deadline(settings, reg, row)
    due = now + timedelta(seconds=max(row.paused_left or 0, 3600))
    told = announcements(
        settings,
        reg,
        row,
        "pause_ended",
        ident=f"pause-ended|{row.paused_at}",
        now=now,
        turn=turn,
        deadline=Due(turn, due, now),
    )
    with reg.transaction():
        reg.set_deadline(row.name, pending(turn, due, PAUSE_ENDED))
        reg.set_paused(row.name, None, None)
        reg.set_status(row.name, RUNNING)
        for name, msg in told:
            reg.queue_mail(now.date().isoformat(), name, outbox.serialise(msg))
    log(
        f"{row.name}: the master's pause reached master_pause_max ({ends - paused_at}); it goes on, "
        f"deadline {due.isoformat()}; {count(len(told), 'player')} told"
    )


# -- the raid seed ------------------------------------------------------------------------------


def derived_from_draw_seed(settings: HostSettings, name: str, seed: str) -> bool:
    """Whether ``seed`` is the raid seed the judge made for a game before 2026-12-01:
    the first 32 hexadecimal digits of the SHA-256 of ``raids|`` and the game's draw
    seed, which the start mail gives every player, so no secret. Only recognises such
    a seed: every seed is made by ``moonshine.game.seeds.new_secret``."""
    published = draw_seed(settings.root, name)
    return hmac.compare_digest(seed, hashlib.sha256(f"raids|{published}".encode()).hexdigest()[:32])


def replace_derived_seed(settings: HostSettings, reg: Registry, row: GameRow, now: datetime, log: Log) -> None:
    """A game whose raid seed could be derived from its start mail gets a new secret
    seed now, for the raids from its next turn on; the bulletin of its current turn
    says so (``moonshine.game.jobs.replace_seed``). Each game is looked at once: the
    registry remembers it."""
    from moonshine.game import families
    from moonshine.game.jobs import replace_seed
    from moonshine.game.seeds import DERIVED_FROM_START_MAIL

    key = f"seed-checked:{row.name}"
    if reg.answered(key):
        return
    with game_lock(settings.game_dir(row.name), job="judge", wait=0):  # busy: GameBusy, looked at next pass
        game = game_of(settings, row.name)
        if families.of(game).raids and derived_from_draw_seed(settings, row.name, game.secret()):
            new = replace_seed(game, DERIVED_FROM_START_MAIL, now=now, notify=log)
            log(f"{row.name}: its raid seed could be derived from the start mail; replaced (SHA-256 {new})")
    reg.mark_answered(key, sender="", outcome="raid seed checked", now=now)


def reveal_mail(
    settings: HostSettings, reg: Registry, row: GameRow, player: RegisteredPlayer, now: datetime
) -> tuple[str, EmailMessage] | None:
    """The mail that gives a player (or a master) of a game over its secret seeds (a
    Moonshine game's draw its raids, every game's its civil-disorder player's orders), in
    their language; None for a game whose family draws nothing at random."""
    from moonshine.game import families
    from moonshine.game.jobs import revealed_seeds

    game = game_of(settings, row.name)
    family = families.of(game)
    if not family.reveals_seed:
        return None
    cfg = settings.config
    lang = player.language if player.language in languages() else cfg.language
    lines = []
    cd = "" if family.raids else "_cd"  # a seed that draws no raid: the civil-disorder player's (R26)
    for r in revealed_seeds(game):
        kind = {(False, False): "seed", (False, True): "seed_until", (True, False): "seed_from"}.get(
            (r.first_turn is not None, r.last_turn is not None), "seed_between"
        )
        kind = kind if family.raids else "seed_cd"
        first, last = r.first_turn or "", r.last_turn or ""  # the turns' names: the draw's HMAC message
        lines.append(words(lang, f"seating.reveal.{kind}", seed=r.seed, sha256=r.sha256, first=first, last=last))
    body = words(lang, f"seating.reveal.body{cd}", name=player.name, game=row.name, seeds="\n".join(lines))
    body += "\n\n-- \n" + mailwords.text(lang, "signature", title=game.config.title) + "\n"
    msg = compose.text_message(
        sender=from_address(cfg),
        to=[player.address],
        subject=words(lang, f"seating.reveal.subject{cd}", prefix=compose.subject_prefix(cfg), game=row.name),
        body=body,
        msg_id=compose.message_id(cfg, "lobby", "reveal", row.name, player.address),
        date=now,
        reply_to=from_address(cfg),
    )
    digest = hashlib.sha256(f"{row.name}|{player.address}".encode()).hexdigest()[:16]
    return f"reveal-{row.name}-{digest}.eml", msg


def queue_reveal(settings: HostSettings, reg: Registry, row: GameRow, now: datetime) -> None:
    """Each player and master of a game over gets its raid seeds in a mail of their
    own (``reveal_mail``), queued in the registry's transaction that ends the game."""
    people = {p.address: p for p in [*(m.player for m in reg.members(row.name)), *reg.masters(row.name)]}
    for _, player in sorted(people.items()):
        mail = reveal_mail(settings, reg, row, player, now)
        if mail is None:
            return
        reg.queue_mail(now.date().isoformat(), mail[0], outbox.serialise(mail[1]))


def queue_identities(settings: HostSettings, reg: Registry, row: GameRow, now: datetime) -> None:
    """An anonymous game over, whose identities are revealed at its end: each of its
    players gets who played which side (``moonshine.mail.identities.reveal_mail``), with
    each player's token of the draw of sides, in a mail of their own in their language,
    queued in the registry's transaction that ends the game (its masters knew); and its
    game.yaml records the reveal, for its site.

    The game is read and game.yaml written holding the game's lock (``moonshine run``
    in the game's folder takes it too: one writer at a time), taken at once or not at
    all: a ``GameBusy`` error when another job holds it, which undoes the registry's
    transaction, so that the game's end is recorded at a later pass."""
    from moonshine.game.journal import transaction
    from moonshine.mail.identities import reveal_mail

    first = identities.of(game_of(settings, row.name).config)  # (a game that reveals nothing takes no lock)
    if not first.anonymous or first.reveal != identities.AT_END:
        return
    with transaction(settings.game_dir(row.name), f"judge: identities of {row.name}") as txn:
        game = game_of(settings, row.name)  # read under the lock: what another job wrote before is kept
        found = identities.of(game.config)
        if not found.anonymous or found.reveal != identities.AT_END:
            return
        members = [m for m in reg.members(row.name) if m.side is not None]
        players: dict[str, str | None] = {m.side: m.player.name for m in members if m.side is not None}
        tokens = {m.side: player_token(settings.root, row.name, m.player.id) for m in members if m.side is not None}
        for m in sorted(members, key=lambda x: x.player.address):
            lang = m.player.language if m.player.language in languages() else game.config.language
            msg = reveal_mail(game, [m.player.address], m.player.name, lang, now, tokens=tokens, players=players)
            digest = hashlib.sha256(f"{row.name}|{m.player.address}".encode()).hexdigest()[:16]
            reg.queue_mail(now.date().isoformat(), f"identities-{row.name}-{digest}.eml", outbox.serialise(msg))
        if found.revealed is None:  # (a pass killed after this and before the registry's commit queues them again)
            identities.mark_revealed(game, now)
            txn.commit("The game is over: who played which side is told", ["game.yaml"], git=is_git_repo(game.root))


# -- dedication ---------------------------------------------------------------------------------


def record(settings: HostSettings, reg: Registry, row: GameRow, now: datetime, log: Log) -> None:
    """The turns adjudicated since the last counted, in their players' dedication: a
    turn is owed by each side with a player that had something to order, and in time
    when its orders on file were received by the deadline. A game over is finished
    for its players."""
    from moonshine.mail.disorder import expected
    from moonshine.mail.inbox.turnlog import load_log
    from moonshine.mail.turns import is_over

    game = game_of(settings, row.name)
    turns = game.turns()
    done = turns[:-1]  # every turn but the current one is adjudicated
    start = done.index(row.recorded) + 1 if row.recorded in done else 0
    todo = done[start:]
    if todo:
        by_side = {m.side: m for m in reg.members(row.name) if m.side is not None}
        with reg.transaction():
            for turn in todo:
                due = deadline(game.config, turn)
                current = load_log(game, turn).current
                for side in expected(game, turn):
                    m = by_side.get(side)
                    if m is None or (due is not None and _when(m.joined) > due):
                        continue  # no player, or one who took the side over after the deadline
                    standing = current.get(side) or {}
                    received = standing.get("received")
                    # orders received before the player took the side over were a predecessor's
                    theirs = received is not None and (m.came == DRAW or _when(received) >= _when(m.joined))
                    on_time = theirs and (due is None or _when(received) <= due)
                    reg.record_turn(m.player.id, row.name, turn, side, on_time)
            reg.set_recorded(row.name, todo[-1])
        log(f"{row.name}: dedication counted for {', '.join(todo)}")
    if is_over(game, turns[-1]):
        with reg.transaction():
            for m in reg.members(row.name):
                reg.record_event(m.player.id, row.name, "finished", now)
            reg.set_status(row.name, FINISHED)
            queue_reveal(settings, reg, row, now)
            queue_identities(settings, reg, row, now)
        log(f"{row.name}: the game is over")


def _when(value: Any) -> datetime:
    when = value if isinstance(value, datetime) else datetime.fromisoformat(str(value))
    return when if when.tzinfo else when.replace(tzinfo=UTC)


def sync_disorder(settings: HostSettings, reg: Registry, row: GameRow, now: datetime, log: Log) -> None:
    """The registry as the game's missed-turn policy sees it (``moonshine.mail.disorder``):
    a side in civil disorder whose player still holds it is offered for a takeover
    (``list vacant``, ``takeover``), and counts once in its player's dedication; a side
    whose player came back is not offered any more; a player the policy removed leaves
    the game (the side vacant)."""
    from moonshine.mail.disorder import standings

    game = game_of(settings, row.name)
    every = standings(game, game.current_turn())
    held = {m.side: m for m in reg.members(row.name) if m.side is not None}
    offered = {side for _, side, _ in reg.vacancies(row.name)}
    for side, st in every.items():
        m = held.get(side)
        if m is None:
            continue
        if st.removed:
            reg.vacate(row.name, m.player.id, "removed", now)
            log(f"{row.name}: {side}'s player ({m.player.name}) removed by the missed-turn policy: the side is vacant")
        elif st.disorder and side not in offered:
            with reg.transaction():
                reg.add_vacancies(row.name, [side], now)
                reg.record_event(m.player.id, row.name, DISORDER, now)
            log(f"{row.name}: {side} is in civil disorder: offered for a takeover")
        elif not st.disorder and side in offered:
            reg.drop_vacancy(row.name, side)
            log(f"{row.name}: {side}'s player is back: no longer offered for a takeover")


def vacant_sides(settings: HostSettings, game: str) -> dict[str, str]:
    """A game's sides by key, with their names (to show the vacant ones)."""
    return game_of(settings, game).sides()


def error_text(exc: BaseException) -> str:
    return str(exc) if isinstance(exc, GameError | MoonshineError) else f"{type(exc).__name__}: {exc}"


def game_path(settings: HostSettings, name: str) -> Path:
    return settings.game_dir(name)
