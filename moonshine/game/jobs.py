"""The game master's jobs on a game directory: adjudicate a turn (read the state and
the gangs' latest orders, run the turn, write the results and the next turn's state
atomically, commit), roll a game back, reveal the seed."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import msgspec

from moonshine import yamlio
from moonshine.errors import GameError
from moonshine.game.directory import Game, atomic_write_text, is_git_repo
from moonshine.game.journal import transaction
from moonshine.variants.moonshine import results as results_mod
from moonshine.variants.moonshine import state as state_mod
from moonshine.variants.moonshine.calendar import Turn
from moonshine.variants.moonshine.houserules import DEFAULT as DEFAULT_HOUSE_RULES
from moonshine.variants.moonshine.houserules import HouseRules
from moonshine.variants.moonshine.map import GameMap
from moonshine.variants.moonshine.results import OrderLineRecord, Submission
from moonshine.variants.moonshine.state import GameState
from moonshine.variants.moonshine.turn import GangPlan, TurnResult, plan_of, run_turn

RESULTS_FILE = "results.yaml"


def orders_file(game: Game, turn: str, gang: str) -> Path:
    return game.orders_dir(turn) / f"{gang}.txt"


def read_plan(
    gmap: GameMap,
    st: GameState,
    gang: str,
    path: Path,
    *,
    relative_to: Path,
    house: HouseRules = DEFAULT_HOUSE_RULES,
) -> tuple[GangPlan, Submission]:
    """A gang's latest orders file, checked (R12): accepted orders make its plan;
    rejected ones are recorded with their reason and the unit holds."""
    from moonshine.game.masking import mask_password_lines
    from moonshine.game.orderfile import decode_lenient
    from moonshine.variants.moonshine.checker import read_orders

    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise GameError(f"{path}: cannot read the orders ({exc.strerror or exc})") from None
    text = decode_lenient(raw)  # as `moonshine check` and the inbox read it
    masked = mask_password_lines(text)
    if masked != text:  # a password placed by hand never reaches results, reports or a commit
        atomic_write_text(path, masked)
        text = masked
    go = read_orders(text, gmap, st, gang, source=str(path), house=house)
    plan = plan_of(gang, go)
    lines = [
        OrderLineRecord(
            number=ln.number,
            text=ln.text,
            status=str(ln.status),
            understood=ln.order.text() if ln.order is not None else "",
            message=ln.reason.text() if ln.reason is not None else "",
            reason=ln.reason,
        )
        for ln in go.lines
        if str(ln.status) not in ("blank", "comment")
    ]
    if go.issues:  # the file as a whole (a file longer than is read): said where the report shows the lines
        after = max((ln.number for ln in go.lines), default=0) + 1
        lines.extend(
            OrderLineRecord(number=after, text="", status="rejected", message=issue.text(), reason=issue)
            for issue in go.issues
        )
    try:
        rel = str(path.relative_to(relative_to))
    except ValueError:
        rel = str(path)
    return plan, Submission(gang, rel, lines)


def read_plans(game: Game, turn: str, st: GameState) -> tuple[dict[str, GangPlan], dict[str, Submission]]:
    plans: dict[str, GangPlan] = {}
    subs: dict[str, Submission] = {}
    for gang in game.map.gangs:
        path = orders_file(game, turn, gang)
        if path.is_file():
            plans[gang], subs[gang] = read_plan(
                game.map, st, gang, path, relative_to=game.root, house=game.config.house
            )
        else:
            plans[gang], subs[gang] = GangPlan(gang), Submission(gang)
    return plans, subs


class Adjudicated(msgspec.Struct, frozen=True):
    result: TurnResult
    results_path: Path
    next_state_path: Path
    committed: bool
    reports: list[Path]


def is_adjudicated(game: Game, turn: str) -> bool:
    """Both halves of an adjudication are on disk (an interrupted run leaves at most
    one, which the next run replaces)."""
    nxt = Turn.parse(turn).next().name
    return (game.turn_dir(turn) / RESULTS_FILE).is_file() and game.state_path(nxt).is_file()


def gangs_without_orders(game: Game, turn: str) -> list[str]:
    return [g for g in game.map.gangs if not orders_file(game, turn, g).is_file()]


def check_deadline(game: Game, turn: str, now: datetime | None = None) -> None:
    """Before the turn's deadline (``deadlines:`` in game.yaml) a turn is not
    adjudicated: players may still send or change orders."""
    from moonshine.game.directory import deadline

    due = deadline(game.config, turn)
    now = now or datetime.now(UTC)
    if due is None or now >= due:
        return
    missing = gangs_without_orders(game, turn)
    who = f"gangs with no orders yet: {', '.join(missing)}" if missing else "every gang has sent orders"
    raise GameError(
        f"{turn}'s deadline ({due.isoformat()}) has not passed; {who}. "
        "Players may still change their orders: wait, or use --force to adjudicate now"
    )


def adjudicate_game(
    game: Game,
    turn: str,
    *,
    force: bool = False,
    commit: bool = True,
    reports: bool = True,
    now: datetime | None = None,
    notify: Callable[[str], None] | None = None,
) -> Adjudicated:
    """Adjudicate ``turn`` as one transaction: results, next state, reports and the
    git commit all happen, or none does (``moonshine.game.journal``)."""
    try:
        t = Turn.parse(turn)
    except ValueError as exc:
        raise GameError(str(exc)) from None
    turn = t.name  # printemps-1924 is spring-1924
    with transaction(game.root, f"adjudicate {turn}", notify=notify) as txn:
        st = game.load_state(turn)
        nxt = t.next().name
        later = [x for x in game.turns() if Turn.parse(x) > t.next()]
        if later:
            raise GameError(
                f"{turn} is not the game's latest turn (turns after it: {', '.join(later)}); "
                f"use 'moonshine rollback {turn}' first"
            )
        if is_adjudicated(game, turn) and not force:
            raise GameError(f"{turn} is already adjudicated; use --force to adjudicate it again")
        if not force:
            check_deadline(game, turn, now)
        seed = game.secret_for(nxt)  # it draws the next turn's raid (R21)
        plans, subs = read_plans(game, turn, st)
        result = run_turn(game.map, st, plans, seed, game.config.house)
        data = results_mod.to_data(game.map, result, subs)
        results_text = f"# Moonshine results of {turn}\n" + yamlio.dump(data)
        result.next_state.normalise(game.map)
        next_text = state_mod.dumps(result.next_state)

        results_path = game.turn_dir(turn) / RESULTS_FILE
        next_dir = game.turn_dir(nxt)
        txn.protect(results_path)
        txn.protect_tree(next_dir)
        txn.protect_tree(game.turn_dir(turn) / "reports")  # moonshine.game.reports.REPORTS_DIR
        if next_dir.exists():
            txn.remove_tree(next_dir)
        atomic_write_text(game.state_path(nxt), next_text)
        atomic_write_text(results_path, results_text)
        written: list[Path] = []
        if reports:
            from moonshine.game.reports import write_reports

            written = write_reports(game, turn, written_turn=(data, result.next_state), opening=st, now=now)
        use_git = commit and is_git_repo(game.root)
        txn.commit(f"Adjudicate {turn}", git=use_git)
    return Adjudicated(result, results_path, game.state_path(nxt), txn.committed, written)


class RevealedSeed(msgspec.Struct, frozen=True):
    """A seed of the game, revealed at its end, and the turns whose raids it drew:
    from ``first_turn`` (None: the first) to ``last_turn`` (None: the last)."""

    seed: str
    sha256: str
    first_turn: str | None
    last_turn: str | None


def revealed_seeds(game: Game) -> list[RevealedSeed]:
    """Every seed the game used, oldest first: those replaced during the game
    (``earlier_seeds``), then its secret, each with the turns whose raids it drew (a
    replaced seed drew up to its ``last_turn``; the next seed from the turn after)."""
    from moonshine.game.seeds import seed_hash

    out: list[RevealedSeed] = []
    first: str | None = None
    for earlier in game.earlier_seeds():
        out.append(RevealedSeed(earlier.seed, earlier.sha256, first, earlier.last_turn))
        first = game.layout.turn_after(earlier.last_turn)
    seed = game.secret()
    out.append(RevealedSeed(seed, seed_hash(seed), first, None))
    return out


def replace_seed(game: Game, reason: str, *, now: datetime, notify: Callable[[str], None] | None = None) -> str:
    """Replace the game's secret seed with a new one (``moonshine.game.seeds``), as one
    transaction: the new seed in the secret file, its hash in game.yaml, and the old
    seed, no longer a secret, kept in game.yaml's ``earlier_seeds`` with the current
    turn as the last it draws (the current turn's raid is drawn already; its receipts
    keep their salt). From the next turn on, the raids are the new seed's. The
    bulletin of the current turn says so. Returns the new seed's hash."""
    from moonshine.game.directory import SECRET_FILE, config_to_yaml, write_secret
    from moonshine.game.seeds import EARLIER, REASONS, EarlierSeed, new_secret, seed_hash

    if reason not in REASONS:
        raise GameError(f"no such reason to replace a seed: {reason!r} (expected one of {', '.join(REASONS)})")
    with transaction(game.root, "replace the secret seed", notify=notify) as txn:
        old = game.secret()
        cfg = game.config
        earlier = EarlierSeed(old, seed_hash(old), game.current_turn(), now.astimezone(UTC).isoformat(), reason)
        seed = new_secret()
        extra = {**cfg.extra, EARLIER: [e.as_dict() for e in game.earlier_seeds()] + [earlier.as_dict()]}
        secret = game.root / SECRET_FILE
        txn.protect(secret)
        txn.protect(game.config_path)
        write_secret(secret, seed)
        atomic_write_text(
            game.config_path, config_to_yaml(msgspec.structs.replace(cfg, seed_sha256=seed_hash(seed), extra=extra))
        )
        txn.commit(f"New secret seed from {earlier.last_turn} on ({reason})", ["game.yaml"], git=is_git_repo(game.root))
    return seed_hash(seed)


def rollback(game: Game, turn: str, *, commit: bool = True, notify: Callable[[str], None] | None = None) -> list[Path]:
    """Restore the game to the start of TURN: its results and every later turn go;
    the orders stay. Returns what was removed. One transaction."""
    t = game.turn_key(turn)  # a turn, or a classic game's phase
    with transaction(game.root, f"rollback {turn}", notify=notify) as txn:
        game.require_turn(turn)  # it must exist
        removed: list[Path] = []
        for x in game.turns():
            if game.turn_key(x) > t:
                txn.remove_tree(game.turn_dir(x))
                removed.append(game.turn_dir(x))
        tdir = game.turn_dir(turn)
        for p in sorted(tdir.iterdir()):
            if p.name == "state.yaml":
                continue
            if p.is_dir():
                txn.remove_tree(p)
            else:
                txn.remove(p)
            removed.append(p)
        txn.commit(f"Roll back to the start of {turn}", git=commit and bool(removed) and is_git_repo(game.root))
    return removed


def mailed_reports(game: Game, turn: str) -> list[str]:
    """Report files of ``turn`` that were mailed to someone (``outbox/TURN/sent.yaml``)."""
    from moonshine.game.ledger import load_sent, outbox_dir

    return sorted(
        {str(v.get("file")) for v in load_sent(outbox_dir(game, turn)).values() if v.get("delivered")} - {"None"}
    )
