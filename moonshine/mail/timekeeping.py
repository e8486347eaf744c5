"""A game's deadlines as its pass keeps them: a turn's deadline set from the schedule
when game.yaml has none, moved past the absences of the sides it waits for, what the
players' passed votes on time ask of it, and whether a pause they voted holds the game."""

from __future__ import annotations

from moonshine.game.directory import GAME_FILE, deadline, is_git_repo
from moonshine.game.journal import transaction
from moonshine.game.schedule import Schedule
from moonshine.mail.disorder import expected
from moonshine.mail.gamepass import Pass, commit_game_masters_edits
from moonshine.mail.record import RECORD_FILES, iso, parse_iso, save_record


def ensure_deadline(p: Pass, schedule: Schedule, turn: str) -> None:
    """The turn's deadline from the schedule, when game.yaml has none for it."""
    from moonshine.game.deadlines import write_deadline

    game = p.game
    if deadline(game.config, turn) is not None:
        return
    opened = parse_iso(p.record.opened[turn]) if turn in p.record.opened else p.now
    due = schedule.deadline(opened, turn)
    commit_game_masters_edits(p)
    with transaction(p.root, f"run: deadline {turn}", notify=p.log) as txn:
        write_deadline(game, turn, due)
        p.record.opened.setdefault(turn, iso(opened))
        save_record(game, p.record)
        txn.commit(f"Deadline of {turn}: {iso(due)}", [GAME_FILE, *RECORD_FILES], git=is_git_repo(p.root))
    p.log(f"deadline {turn}: {iso(due)} (opened {iso(opened)})")


def move_for_absence(p: Pass, schedule: Schedule, turn: str) -> None:
    """The deadline moved past the absences of the gangs it waits for (by at most
    ``schedule.absence``), once, from the deadline the schedule gave."""
    from moonshine.game.deadlines import write_deadline, zone_of
    from moonshine.mail.commands.absence import load, moved

    game = p.game
    due = deadline(game.config, turn)
    if due is None:
        return
    scheduled = parse_iso(p.record.scheduled[turn]) if turn in p.record.scheduled else due
    waiting = set(expected(game, turn))
    away = [a for side, items in load(game).items() if side in waiting for a in items]
    new = moved(scheduled, away, schedule.absence, zone_of(game.config, None))
    if new <= due:
        return
    commit_game_masters_edits(p)
    with transaction(p.root, f"run: deadline {turn}", notify=p.log) as txn:
        write_deadline(game, turn, new)
        p.record.scheduled.setdefault(turn, iso(scheduled))
        save_record(game, p.record)
        txn.commit(
            f"Deadline of {turn} moved for an absence: {iso(new)}", [GAME_FILE, *RECORD_FILES], git=is_git_repo(p.root)
        )
    p.log(f"deadline {turn} moved for an absence: {iso(new)} (was {iso(due)})")


def players_paused(p: Pass) -> bool:
    """Whether a pause the players voted holds the game now."""
    from moonshine.mail.commands.timevotes import current_pause

    return current_pause(p.game, p.now) is not None


def apply_time_votes(p: Pass, turn: str) -> None:
    """What the players' passed votes on time ask of the turn's deadline
    (``moonshine.mail.commands.timevotes.apply``), in one transaction."""
    from moonshine.mail.commands import timevotes

    if not timevotes.due_to_apply(p.game, turn, p.now):
        return
    commit_game_masters_edits(p)
    with transaction(p.root, "run: the players' votes on time", notify=p.log) as txn:
        lines = timevotes.apply(p.game, turn, p.now)
        paths = [GAME_FILE, "votes.yaml", f"orders/{turn}", f"outbox/{turn}"]
        txn.commit(f"{turn}: the players' votes on time", paths, git=is_git_repo(p.root))
    for line in lines:
        p.log(line)
