"""The players' votes on the game's time (``docs/commands.md``): ``pause`` (every player
must vote yes; the game then has no deadline for at most the game's ``max_pause``, 7
days by default, until any player's ``resume``), and ``extend HOURS`` (a majority; the
turn's deadline moves HOURS later, 24 at most, once a turn). Each is a proposal of
the draw votes' kind (``moonshine.mail.commands.votes``: secret ballots, ``vote yes
N``, the notices, the announcement when it passes), open until the turn's deadline;
sending the same command again is a yes. The voters are the sides with a player, not
in civil disorder, still in the game.

What a passed vote does to the game's directory is the unattended judge's
(``moonshine.mail.run``), at its next pass (``apply``): the deadline taken out and the
time left kept (a pause), set again as far off as it was (an hour at least) when the
pause ends, moved (an extension); each once, said in the turn's bulletin
(``moonshine.game.news``), and a pause's end mailed to each player's address, a mail
each in their language and time zone, and to the game master."""

from __future__ import annotations

from datetime import datetime, timedelta

from moonshine.game import news
from moonshine.game.directory import Game, deadline
from moonshine.mail import outbox
from moonshine.mail.commands.grammar import Answer, Command, CommandLine
from moonshine.mail.commands.request import GameRequest, words
from moonshine.mail.commands.votes import (
    EXTENSION,
    PAUSE,
    Proposal,
    cast_ballot,
    describe,
    ended,
    load,
    one_mail,
    readers,
    save,
    survivors,
)
from moonshine.mail.outbox import compose
from moonshine.mail.policy import policy_of
from moonshine.mail.settings import player_addresses
from moonshine.render import mailwords
from moonshine.render.mailwords import phrase

MOST_HOURS = 24  # an extension's most, a turn
SHORTEST = timedelta(hours=1)  # the least time left when a pause ends


def voters(game: Game, turn: str, st: object) -> list[str]:
    """The sides that vote on the game's time: a player, still in the game, not in
    civil disorder."""
    from moonshine.mail.disorder import in_disorder

    alive = set(survivors(game, st))
    away = in_disorder(game, turn)
    return [s for s in game.sides() if s in alive and s not in away and player_addresses(game.config, s)]


def current_pause(game: Game, now: datetime) -> Proposal | None:
    """The pause the players voted that holds the game at ``now`` (passed, neither
    resumed nor past its longest length)."""
    for p in load(game.root):
        if p.kind == PAUSE and p.passed is not None and p.resumed is None and now < p.until():
            return p
    return None


def _open_or_vote(req: GameRequest, cmd: CommandLine, kind: str, hours: int = 0) -> Answer:
    """Open a proposal of ``kind`` (or, one of that kind being open, vote yes on it)."""
    game = req.game
    assert req.gang is not None
    if ended(game) is not None:
        return Answer(cmd, False, phrase("vote.game_over"))
    who = voters(game, req.turn, req.st)
    if req.gang not in who:
        return Answer(cmd, False, phrase("vote.not_time_voter"))
    if req.due is None or req.due <= req.now:
        return Answer(cmd, False, phrase("vote.no_deadline"))
    proposals = load(game.root)
    alive = list(survivors(game, req.st))
    source = f"{req.message_id} line {cmd.line}"
    for p in proposals:
        if p.source == source:  # the same message read again (a killed pass): what it did then
            return Answer(
                cmd, True, phrase("vote.time_opened", what=_what(game, p, req), deadline=p.deadline, n=p.number)
            )
    this_turn = [p for p in proposals if p.kind == kind and p.turn == req.turn]
    if kind == EXTENSION and any(p.passed is not None for p in this_turn):
        return Answer(cmd, False, phrase("vote.extend_once"))
    for p in this_turn:
        if p.state(req.now) == "open":
            if (kind == EXTENSION and p.hours != hours) or req.gang not in p.voters:
                return Answer(cmd, False, phrase("vote.other_open", n=p.number))
            return cast_ballot(req, cmd, p, "yes", proposals, alive)
    p = Proposal(
        number=max((q.number for q in proposals), default=0) + 1,
        kind=kind,
        gangs=[],
        proposer=req.gang,
        turn=req.turn,
        opened=req.now,
        deadline=req.due,
        voters=who,
        ballots={},
        source=source,
        hours=hours,
        span=int(policy_of(game).max_pause.total_seconds()) if kind == PAUSE else 0,
    )
    proposals.append(p)
    answered = cast_ballot(req, cmd, p, "yes", proposals, alive)
    if p.passed is not None:
        return answered
    return Answer(cmd, True, phrase("vote.time_opened", what=_what(game, p, req), deadline=p.deadline, n=p.number))


def _what(game: Game, p: Proposal, req: GameRequest) -> str:
    return describe(game, p, req.language)


def pause(req: GameRequest, cmd: CommandLine) -> Answer:
    """``pause``: propose a pause of the game, or vote yes on the one open."""
    if current_pause(req.game, req.now) is not None:
        return Answer(cmd, False, phrase("vote.pause_already"))
    return _open_or_vote(req, cmd, PAUSE)


def extend(req: GameRequest, cmd: CommandLine) -> Answer:
    """``extend HOURS``: propose this turn's deadline HOURS later, or vote yes on it."""
    given = [w.lower().removesuffix("h") for w in words(cmd.args)]
    if len(given) != 1 or not given[0].isdigit() or not 1 <= int(given[0]) <= MOST_HOURS:
        return Answer(cmd, False, phrase("vote.extend_how", most=MOST_HOURS))
    if current_pause(req.game, req.now) is not None:
        return Answer(cmd, False, phrase("vote.pause_already"))
    return _open_or_vote(req, cmd, EXTENSION, int(given[0]))


def resume(req: GameRequest, cmd: CommandLine) -> Answer:
    """``resume``: any player ends the players' pause."""
    assert req.gang is not None
    proposals = load(req.game.root)
    held = current_pause(req.game, req.now)
    found = next((p for p in proposals if held is not None and p.number == held.number), None)
    if found is None:
        return Answer(cmd, False, phrase("resume.not_paused"))
    found.resumed = req.now
    save(req.game.root, proposals)
    return Answer(cmd, True, phrase("resume.done"))


# -- what the judge does of them -------------------------------------------------------------------------


def apply(game: Game, turn: str, now: datetime) -> list[str]:
    """What the players' passed votes ask of ``turn``'s deadline, each done once (in
    the caller's transaction): a pause takes it out and keeps the time left; its end
    (a ``resume``, or its longest length) sets it again, as far off as it was (an hour
    at least) and tells every player; an extension moves it. Returns the log's lines."""
    from moonshine.game.deadlines import clear_deadline, write_deadline

    proposals = load(game.root)
    done: list[str] = []
    for p in proposals:
        if p.passed is None or p.turn != turn:
            continue
        if p.kind == PAUSE and p.applied is None:
            due = deadline(game.config, turn)
            p.left = max(0, int((due - p.passed).total_seconds())) if due is not None else None
            p.applied = now
            clear_deadline(game, turn)
            news.put(game, turn, f"pause-{p.number}", "news.pause", since=p.passed)
            done.append(f"paused by the players' vote {p.number} until {p.until().isoformat()} at the latest")
        if p.kind == PAUSE and p.resumed is None and now >= p.until():
            p.resumed = p.until()
        if p.kind == PAUSE and p.applied is not None and p.resumed is not None and p.restored is None:
            left = timedelta(seconds=p.left) if p.left is not None else SHORTEST
            due = now + max(left, SHORTEST)
            write_deadline(game, turn, due)
            p.restored = now
            news.put(game, turn, f"pause-{p.number}", "news.pause_ended", since=p.passed, until=p.resumed)
            outbox.write_outbox(game, turn, _resumed(game, turn, p, due, now))
            done.append(f"the players' pause {p.number} is over; deadline {turn}: {due.isoformat()}")
        if p.kind == EXTENSION and p.applied is None:
            due = deadline(game.config, turn)
            p.applied = now
            if due is not None:
                write_deadline(game, turn, due + timedelta(hours=p.hours))
                news.put(game, turn, f"extension-{p.number}", "news.extension", n=p.hours)
                done.append(f"deadline {turn} moved {p.hours} h later by the players' vote {p.number}")
    if done:
        save(game.root, proposals)
        game.forget_config()
    return done


def due_to_apply(game: Game, turn: str, now: datetime) -> bool:
    """Whether ``apply`` has something to do (read only)."""
    for p in load(game.root):
        if p.passed is None or p.turn != turn:
            continue
        if p.applied is None or (
            p.kind == PAUSE and p.restored is None and (p.resumed is not None or now >= p.until())
        ):
            return True
    return False


def _resumed(game: Game, turn: str, p: Proposal, due: datetime, now: datetime) -> list[outbox.Outgoing]:
    """The end of the players' pause: a mail to each player's address, in their
    language, the new deadline in the house's sentence in their time zone and UTC; and
    the game master's copy, in the game's language."""
    out = []
    for reader in readers(game, master=True):
        lang = reader.language
        named = game.layout.turn_in_text(turn)  # worded in the reader's language
        body = mailwords.text(
            lang,
            "resumed.body",
            when=reader.time(p.resumed or now),
            due=mailwords.deadline_line(lang, named, due, reader.tz(), now=now),
        )
        subject = mailwords.text(lang, "resumed.subject", prefix=compose.subject_prefix(game.config))
        name, ident = f"{p.number}-resumed", (str(p.number), "resumed")
        out.append(one_mail(game, reader, name=name, subject=subject, body=body, ident=ident, date=now))
    return out


PAUSE_COMMAND = Command("pause", {"en": ("pause",), "fr": ("pause",)}, pause, help="help.cmd.pause")
RESUME_COMMAND = Command("resume", {"en": ("resume",), "fr": ("reprise",)}, resume, help="help.cmd.resume")
EXTEND_COMMAND = Command("extend", {"en": ("extend",), "fr": ("prolonger",)}, extend, help="help.cmd.extend")
