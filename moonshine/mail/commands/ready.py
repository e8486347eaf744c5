"""``ready`` and ``wait``: a player says their orders on file are their last for the
turn (``ready``, with the orders or alone), or takes it back (``wait``). When every
side with a player is ready, the turn is adjudicated at the judge's next pass, not at
its deadline (``early:`` in game.yaml, ``moonshine.mail.policy``: ``no`` turns this
off; ``always`` counts a side's orders on file as ready unless its player sent
``wait``, as njudge and DPjudge do). Sides in civil disorder and vacant sides do not
block it. Ready is an explicit act: new orders end it (the acknowledgement says so),
and only a ``ready`` sent with them, or after them, makes it again.

Each side's latest word is kept in ``orders/TURN/ready.yaml`` (``ready`` or ``wait``,
with when), with the turn's orders: a rollback to the turn keeps it, as it keeps the
orders. ``status`` and the acknowledgements say who is ready, never what they ordered."""

from __future__ import annotations

from datetime import datetime

from moonshine import yamlio
from moonshine.errors import StateError
from moonshine.game.directory import Game, atomic_write_text
from moonshine.mail.commands.grammar import Answer, Command, CommandLine
from moonshine.mail.commands.request import GameRequest
from moonshine.mail.policy import EARLY_ALWAYS, EARLY_NO, Policy, policy_of
from moonshine.render.mailwords import phrase

FILE = "ready.yaml"
READY, WAIT = "ready", "wait"


def load(game: Game, turn: str) -> dict[str, tuple[str, str]]:
    """Each side's latest word for ``turn``: (READY or WAIT, when, ISO 8601)."""
    path = game.orders_dir(turn) / FILE
    if not path.is_file():
        return {}
    raw = yamlio.load(path, what="who is ready") or {}
    try:
        out = {str(side): (str(v["said"]), str(v["at"])) for side, v in raw.items()}
    except (AttributeError, KeyError, TypeError):
        raise StateError(str(path), "", "expected, by side, {said: ready or wait, at: TIME}") from None
    if any(said not in (READY, WAIT) for said, _ in out.values()):
        raise StateError(str(path), "said", "expected ready or wait")
    return out


def _save(game: Game, turn: str, marks: dict[str, tuple[str, str]]) -> None:
    head = "# Who said ready or wait for this turn (moonshine run): the latest word of each side.\n"
    data = {side: {"said": said, "at": at} for side, (said, at) in sorted(marks.items())}
    atomic_write_text(game.orders_dir(turn) / FILE, head + yamlio.dump(data))


def say(game: Game, turn: str, side: str, word: str, when: datetime) -> None:
    """Record ``side``'s ``word`` (READY or WAIT) for ``turn``."""
    marks = load(game, turn)
    marks[side] = (word, when.isoformat())
    _save(game, turn, marks)


def unready(game: Game, turn: str, side: str) -> bool:
    """New orders from ``side``: its ``ready`` no longer stands (a ``wait`` does).
    Whether it was ready."""
    marks = load(game, turn)
    if marks.get(side, ("", ""))[0] != READY:
        return False
    del marks[side]
    _save(game, turn, marks)
    return True


def counting(game: Game, turn: str) -> list[str]:
    """The sides an early turn waits for: those with a player and something to order,
    not in civil disorder."""
    from moonshine.mail.disorder import expected, in_disorder

    away = in_disorder(game, turn)
    return [s for s in expected(game, turn) if s not in away]


def is_ready(game: Game, turn: str, side: str, policy: Policy, marks: dict[str, tuple[str, str]]) -> bool:
    """Whether ``side`` is ready: it said ``ready`` (with its orders on file), or, under
    ``early: always``, it has orders of its own on file and did not say ``wait``."""
    from moonshine.mail.disorder import own_orders

    said = marks.get(side, ("", ""))[0]
    if not own_orders(game, turn, side):
        return False
    return said == READY or (policy.early == EARLY_ALWAYS and said != WAIT)


def ready_sides(game: Game, turn: str, policy: Policy | None = None) -> tuple[list[str], list[str]]:
    """The sides an early turn waits for that are ready, and those that are not."""
    policy = policy if policy is not None else policy_of(game)
    marks = load(game, turn)
    sides = counting(game, turn)
    ready = [s for s in sides if is_ready(game, turn, s, policy, marks)]
    return ready, [s for s in sides if s not in ready]


def everyone_ready(game: Game, turn: str, policy: Policy | None = None) -> bool:
    """Whether ``turn`` may run now: early turns allowed, and every side it waits for
    ready (at least one: a game with no player left runs at its deadline)."""
    policy = policy if policy is not None else policy_of(game)
    if policy.early == EARLY_NO:
        return False
    ready, waiting = ready_sides(game, turn, policy)
    return bool(ready) and not waiting


# -- by email ------------------------------------------------------------------------------------------


def _names(req: GameRequest, sides: list[str]) -> str:
    from moonshine.render import mailwords

    names = req.game.sides(req.language)
    return ", ".join(names[s] for s in sides) or mailwords.text(req.language, "status.nobody")


def ready(req: GameRequest, cmd: CommandLine) -> Answer:
    """``ready``: the orders on file (this message's, when it has some) are the side's
    last for the turn."""
    from moonshine.mail.disorder import own_orders

    assert req.gang is not None
    if cmd.args.strip():
        return Answer(cmd, False, phrase("ready.alone", keyword=cmd.command.shown(req.language) if cmd.command else ""))
    policy = policy_of(req.game)
    if policy.early == EARLY_NO:
        return Answer(cmd, False, phrase("ready.early_no"))
    if req.orders_refused:
        return Answer(cmd, False, phrase("ready.orders_refused"))
    if not own_orders(req.game, req.turn, req.gang):
        return Answer(cmd, False, phrase("ready.no_orders"))
    say(req.game, req.turn, req.gang, READY, req.processed or req.now)
    done, waiting = ready_sides(req.game, req.turn, policy)
    if not waiting:
        return Answer(cmd, True, phrase("ready.done_all"))
    return Answer(cmd, True, phrase("ready.done", ready=_names(req, done), waiting=_names(req, waiting)))


def wait(req: GameRequest, cmd: CommandLine) -> Answer:
    """``wait``: the side is not ready; under ``early: always`` its orders on file no
    longer count as ready either."""
    assert req.gang is not None
    if cmd.args.strip():
        return Answer(cmd, False, phrase("ready.alone", keyword=cmd.command.shown(req.language) if cmd.command else ""))
    policy = policy_of(req.game)
    if policy.early == EARLY_NO:
        return Answer(cmd, False, phrase("ready.early_no"))
    say(req.game, req.turn, req.gang, WAIT, req.processed or req.now)
    return Answer(cmd, True, phrase("wait.done_always" if policy.early == EARLY_ALWAYS else "wait.done"))


# done once the message's orders are taken: a ready sent with orders is about them
READY_COMMAND = Command(
    "ready", {"en": ("ready",), "fr": ("prêt", "prête", "prêts")}, ready, help="help.cmd.ready", after_orders=True
)
WAIT_COMMAND = Command("wait", {"en": ("wait",), "fr": ("attendre", "attente")}, wait, help="help.cmd.wait")
