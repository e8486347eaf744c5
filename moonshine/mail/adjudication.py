"""A turn's end as a game's pass sees to it: the missed-turn policy kept in step with
the players, the turn adjudicated when due (at the deadline and its grace, early when
every player is ready, or when a master asks), the policy's work at the deadline first;
then what the pass puts in the outbox: the reports of the turn adjudicated, the notices
of draw and concession votes, and an anonymous game's identities at its end."""

from __future__ import annotations

from datetime import timedelta

from moonshine.game import families
from moonshine.game.directory import GAME_FILE, deadline, is_git_repo
from moonshine.game.journal import transaction
from moonshine.game.schedule import Schedule
from moonshine.mail import outbox
from moonshine.mail.disorder import expected
from moonshine.mail.gamepass import Pass, commit_game_masters_edits
from moonshine.mail.outbox.reports import REPORTS, report_messages
from moonshine.mail.record import RECORD_FILES, save_record
from moonshine.mail.turns import closes, is_over, previous_turn
from moonshine.text.english import count

# How long past its time an adjudication waits for messages received before the deadline
# and held unread (too many wrong passwords in a pass: moonshine.mail.inbox.outcome.HELD):
# each later pass reads them first, so an owner's orders sent behind forged guesses count.
HOLD_LIMIT = timedelta(hours=1)


def adjudicate_if_due(p: Pass, schedule: Schedule | None, turn: str, *, asked: bool = False) -> None:
    """At the deadline (and the grace), or before it when every side with a player is
    ready, or when a master asked for it now (``asked``: ``process``) and every side the
    judge waits for has orders: the missed-turn policy's work first
    (``before_adjudication``), then the turn."""
    from moonshine.mail.commands.ready import everyone_ready

    game = p.game
    end, waiting = closes(game, schedule, turn, p.now)
    nothing_to_order = not expected(game, turn, players_only=False)  # a classic phase with no retreat, no build
    early = False
    if not nothing_to_order and (end is None or p.now < end):
        if asked and not waiting:
            p.log(f"{turn}: every side has orders; adjudicated now, as a master asked")
        elif not everyone_ready(game, turn):
            return  # before the deadline (and the grace), or no deadline at all
        early = True
    due = deadline(game.config, turn)
    held = [when for when in p.held if due is None or when <= due]
    if held and (early or (end is not None and p.now < end + HOLD_LIMIT)):
        are = "is" if len(held) == 1 else "are"
        p.log(
            f"adjudication of {turn} waits: {count(len(held), 'message')} received before the deadline {are} held "
            f"unread (too many wrong passwords in this pass) and {are} read first at the next pass"
        )
        return
    before_adjudication(p, turn, early=early)
    late = f"; no orders from {', '.join(waiting)} (they hold)" if waiting else ""
    how = (" early, as a master asked" if asked else " early: every player was ready") if early else ""
    families.of(game).adjudicate(game, turn, now=p.now, notify=p.log, force=early)
    p.log(f"adjudicated {turn}{how}{late}; next: {game.current_turn()}")
    game.forget_config()


def before_adjudication(p: Pass, turn: str, *, early: bool) -> None:
    """What the missed-turn policy does at the deadline (``moonshine.mail.disorder.at_deadline``:
    the civil-disorder player's orders, the sides put in civil disorder, the players
    removed, each told) and the turn's news of an early turn (whose deadline becomes
    now: what is received after it is for the next turn), in one transaction just
    before the adjudication; a game that needs a secret seed for its civil-disorder
    player and has none gets one first, committed before it is drawn from."""
    from moonshine.game import news
    from moonshine.game.civil_disorder import ensure_secret
    from moonshine.mail import disorder
    from moonshine.mail.policy import policy_of

    game = p.game
    policy = policy_of(game)
    if any(s.disorder for s in disorder.standings(game, turn, policy).values()):
        made = ensure_secret(game, notify=p.log)
        if made is not None:
            p.log(f"a secret seed for the civil-disorder player, its SHA-256 published in {GAME_FILE}: {made}")
    commit_game_masters_edits(p)
    with transaction(p.root, f"run: the deadline of {turn}", notify=p.log) as txn:
        done = disorder.at_deadline(game, turn, p.now, policy)
        if early:  # the turn closes now: mail received after this is the next turn's
            from moonshine.game.deadlines import write_deadline

            write_deadline(game, turn, p.now)
            news.put(game, turn, "early", "news.early", when=p.now)
        else:
            news.drop(game, turn, "early")  # a turn rolled back, then run at its deadline
        paths = [f"orders/{turn}", f"outbox/{turn}", GAME_FILE, disorder.FILE]
        txn.commit(
            f"{turn}: civil disorder and the turn's news, before the adjudication", paths, git=is_git_repo(p.root)
        )
    game.forget_config()
    for line in done.lines():
        p.log(line)


def observe_players(p: Pass, turn: str) -> None:
    """The missed-turn policy's record in step with game.yaml's players
    (``moonshine.mail.disorder.observe``): a side with a new player (a takeover) counts
    from this turn, and its civil disorder, if any, is over (the bulletin says so)."""
    from moonshine.game import news
    from moonshine.mail import disorder

    game = p.game
    record = disorder.load(game)
    before = disorder.copy(record)
    taken = disorder.observe(game, record, turn)
    if record == before:
        return
    was = disorder.standings(game, turn, record=before) if before.sides else {}
    with transaction(p.root, "run: the players the missed-turn policy counts", notify=p.log) as txn:
        disorder.save(game, record)
        for side in taken:
            if side in was and was[side].disorder:
                news.put(game, turn, f"taken-{side}", "news.taken", side=side)
        txn.commit(
            "The players as the missed-turn policy counts them",
            [disorder.FILE, f"orders/{turn}"],
            git=is_git_repo(p.root),
        )
    for side in taken:
        p.log(f"{side} has a new player: the missed-turn policy counts from {turn}")


def mail_reports_left(p: Pass) -> None:
    """The reports of the last adjudicated turn go to the outbox once (a run killed
    after adjudicating, before this, leaves it to the next run)."""
    game = p.game
    last = previous_turn(game, game.current_turn())
    if last is None or last in p.record.mailed:
        return
    if not (game.turn_dir(last) / REPORTS).is_dir():
        return
    with transaction(p.root, f"run: mail {last}", notify=p.log) as txn:
        built = report_messages(game, last)
        outbox.write_outbox(game, last, built.messages)
        p.record.mailed.append(last)
        save_record(game, p.record)
        txn.commit(f"Mail for {last}", [*RECORD_FILES, f"outbox/{last}"], git=is_git_repo(p.root))
    for w in built.warnings:
        p.log(f"warning: {w}")
    p.log(f"reports of {last} in the outbox: {count(len(built.messages), 'message')}")


def reveal_identities(p: Pass) -> list[str]:
    """An anonymous game over tells each player who played which side, once
    (``moonshine.mail.identities``); returns the mails written (none for a game that
    reveals nothing, or not yet over). A game of a judge for many games (``judge:`` in
    its game.yaml) leaves it to its judge, which tells its players from its own outbox
    with the tokens of the draw (``moonshine.host.games.queue_identities``): a ``moonshine
    run`` in its folder by its master, before or after the judge's pass, mails none."""
    from moonshine.game import identities
    from moonshine.mail.identities import write_reveal
    from moonshine.mail.outbox.compose import game_name

    game = p.game
    if not identities.of(game.config).to_reveal or not is_over(game, game.current_turn()):
        return []
    if game_name(game.config) is not None:
        p.log("the game is over: its judge tells the players who played which side")
        return []
    turn = game.current_turn()
    with transaction(p.root, "run: identities", notify=p.log) as txn:
        written = write_reveal(game, p.now)
        txn.commit("The game is over: who played which side", ["game.yaml", f"outbox/{turn}"], git=is_git_repo(p.root))
    p.log(f"identities revealed to the players: {', '.join(written) or 'no player with an address'}")
    return written


def vote_notices(p: Pass, turn: str) -> None:
    """The notices the draw and concession votes owe now (``moonshine.mail.commands.votes.due``):
    opening, reminder, and how each ended; each written once, delivered below."""
    from moonshine.mail.commands import votes

    if not votes.due(p.game, p.now, turn):
        return
    with transaction(p.root, "run: vote notices", notify=p.log) as txn:
        written = votes.write_due(p.game, p.now, turn)
        txn.commit("Vote notices", [f"outbox/{turn}"], git=is_git_repo(p.root))
    p.log(f"vote notices {turn}: {', '.join(name for _, name in written)}")
