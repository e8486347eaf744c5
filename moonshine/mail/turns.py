"""Where a game's turn stands for its pass: the schedule game.yaml gives, the turn
before the current one, whether the game is over, who the turn waits for, and when it
closes (its deadline, and the grace while a side it waits for has sent nothing)."""

from __future__ import annotations

from datetime import datetime

from moonshine.game.directory import Game, deadline
from moonshine.game.schedule import Schedule, parse_schedule
from moonshine.mail.disorder import expected, in_disorder


def schedule_of(game: Game) -> Schedule | None:
    raw = game.config.extra.get("schedule")
    return None if raw is None else parse_schedule(raw)


def missing(game: Game, turn: str, expected_sides: list[str], absent: set[str]) -> list[str]:
    return [s for s in expected_sides if s not in absent and not (game.orders_dir(turn) / f"{s}.txt").is_file()]


def is_over(game: Game, turn: str) -> bool:
    """A winner, or a draw or concession every surviving side voted (``moonshine.mail.commands.votes``)."""
    from moonshine.mail.commands import votes

    st = game.load_any_state(turn)
    return bool(game.layout.winners(st)) or votes.ended(game) is not None


def previous_turn(game: Game, turn: str) -> str | None:
    turns = game.turns()
    i = turns.index(turn) if turn in turns else len(turns)
    return turns[i - 1] if i > 0 else None


def closes(game: Game, schedule: Schedule | None, turn: str, now: datetime) -> tuple[datetime | None, list[str]]:
    """When ``turn`` is adjudicated (None: no deadline), and who is missing (a side in
    civil disorder is waited for by nobody: the civil-disorder player writes its orders)."""
    from moonshine.mail.commands.absence import absent_sides

    due = deadline(game.config, turn)

    away = absent_sides(game, due) if due is not None else set()
    waiting = missing(game, turn, expected(game, turn), away | in_disorder(game, turn))
    if due is None:
        return None, waiting
    grace = schedule.grace if schedule is not None else None
    if grace and waiting:
        return due + grace, waiting
    return due, waiting
