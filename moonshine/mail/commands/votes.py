"""Draws and concessions, voted by mail.

A surviving gang proposes ``draw [all | GANG, GANG...] [by DATE]`` (a draw shared
by the gangs named, or by every survivor) or ``concede to GANG`` (the game goes
to that gang). Every gang surviving when the proposal opens votes, secretly,
``vote yes N`` or ``vote no N`` (the proposer's yes is counted at once); a vote
may be changed until the deadline. The proposal passes the moment every voter
still surviving has voted yes; otherwise it ends, not passed, at its deadline
(``by DATE``, UTC; the turn's deadline when none is given). No one is ever told
another gang's vote, nor who proposed: only whether it passed.

A proposal never ends silently: ``due(game, now)`` lists the mail owed at
``now`` — to every voter when it opens, a reminder to every voter a day before
its deadline (or halfway, for a shorter one) while it is open, and when it ends
the bulletin's announcement of how it ended, to every player (voters among
them), observer and the game master: each a mail of its own to one address, in
its reader's language, its times in the reader's zone and in UTC (``Reader``).
It writes nothing: the caller puts
the messages in the outbox and ``send_files`` sends each at most once (a
message already written is not listed again). The inbox calls it after each
run, the unattended judge (``moonshine run``) at each pass, and
``moonshine votes --send`` when the game master runs the game by hand.

A passed draw or concession ends the game: ``ended(game)`` says so, the seed
may then be revealed, and no turn is adjudicated any more.

The players' votes on the game's time are proposals too, of their own kinds
(``moonshine.mail.commands.timevotes``): a pause, voted by every player, and an
extension of the turn's deadline, by a majority; they end at the turn's deadline,
are as secret, and are announced when they pass (one that fails is not).

Proposals and ballots are kept in ``votes.yaml``, the game master's file."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import msgspec

from moonshine import schema, yamlio
from moonshine.game.deadlines import zone_of
from moonshine.game.directory import Game, GameConfig, atomic_write_text, parse_deadline, player_language
from moonshine.mail import observers, outbox
from moonshine.mail.commands.grammar import Answer, Command, CommandLine
from moonshine.mail.commands.request import ALL, NO, YES, GameRequest, sides_named, split_deadline, words
from moonshine.mail.outbox import compose
from moonshine.mail.settings import from_address, game_master_addresses, player_addresses
from moonshine.render import mailwords
from moonshine.render.mailwords import phrase
from moonshine.text.folding import fold

FILE = "votes.yaml"
DRAW, CONCESSION = "draw", "concession"
PAUSE, EXTENSION = "pause", "extension"  # the players' votes on time (moonshine.mail.commands.timevotes)
ENDINGS = (DRAW, CONCESSION)  # the kinds that end the game when they pass
KINDS = (*ENDINGS, PAUSE, EXTENSION)
DEFAULT_SPAN = timedelta(days=3)  # a proposal without a date, when the turn has no deadline ahead
LONGEST = timedelta(days=60)
REMIND_BEFORE = timedelta(days=1)

_PROPOSAL = schema.Rec(
    required={
        "number": schema.Int(),
        "kind": schema.Enum(KINDS),
        "gangs": schema.ListOf(schema.Str()),
        "proposer": schema.Str(),
        "turn": schema.Str(),
        "opened": schema.When(),
        "deadline": schema.When(),
        "voters": schema.ListOf(schema.Str()),
        "ballots": schema.MapOf(schema.Enum(("yes", "no"))),
    },
    optional={
        "passed": schema.Null(schema.When()),
        "source": schema.Str(),
        # the votes on time: the hours of an extension, the longest pause (seconds), the
        # time left to the deadline at the pause (seconds), when the judge applied it, when
        # the pause ended, when the deadline was set again
        "hours": schema.Int(),
        "span": schema.Int(),
        "left": schema.Null(schema.Int()),
        "applied": schema.Null(schema.When()),
        "resumed": schema.Null(schema.When()),
        "restored": schema.Null(schema.When()),
    },
)
SPEC = schema.Rec(optional={"proposals": schema.Null(schema.ListOf(_PROPOSAL))})


class Proposal(msgspec.Struct):
    number: int
    kind: str  # DRAW or CONCESSION
    gangs: list[str]  # who shares the draw, or the one the game is conceded to
    proposer: str
    turn: str  # the turn it was opened in
    opened: datetime
    deadline: datetime
    voters: list[str]
    ballots: dict[str, str] = msgspec.field(default_factory=dict)  # gang -> "yes" / "no": secret
    passed: datetime | None = None
    source: str = ""  # the message and line that opened it: read again (a killed run), it opens nothing new
    hours: int = 0  # an extension's hours
    span: int = 0  # a pause's longest length (seconds): the game's max_pause when it opened
    left: int | None = None  # a pause: the seconds left to the deadline when it passed
    applied: datetime | None = None  # when the judge took the deadline out (a pause) or moved it (an extension)
    resumed: datetime | None = None  # when a pause ended: a player's resume, or its longest length reached
    restored: datetime | None = None  # when the judge set the deadline again after a pause

    def state(self, now: datetime) -> str:
        """``passed``, ``failed`` (its deadline came without every yes) or ``open``."""
        if self.passed is not None:
            return "passed"
        return "failed" if now >= self.deadline else "open"

    def ended_at(self) -> datetime:
        return self.passed if self.passed is not None else self.deadline

    def until(self) -> datetime:
        """The latest end of a pause that passed (its longest length after it passed)."""
        return (self.passed or self.opened) + timedelta(seconds=self.span)

    def ends_game(self) -> bool:
        return self.kind in ENDINGS

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "number": self.number,
            "kind": self.kind,
            "gangs": self.gangs,
            "proposer": self.proposer,
            "turn": self.turn,
            "opened": self.opened.isoformat(),
            "deadline": self.deadline.isoformat(),
            "voters": self.voters,
            "ballots": dict(sorted(self.ballots.items())),
        }
        if self.passed is not None:
            out["passed"] = self.passed.isoformat()
        if self.source:
            out["source"] = self.source
        for key in ("hours", "span", "left"):
            if getattr(self, key):
                out[key] = getattr(self, key)
        for key in ("applied", "resumed", "restored"):
            when = getattr(self, key)
            if when is not None:
                out[key] = when.isoformat()
        return out


def _time(value: Any) -> datetime:
    return parse_deadline(value, FILE)


def load(root: Path) -> list[Proposal]:
    path = root / FILE
    if not path.is_file():
        return []
    raw = yamlio.load(path, what="votes file") or {}
    schema.check(raw, SPEC, str(path))
    out = []
    for p in raw.get("proposals") or []:
        out.append(
            Proposal(
                number=int(p["number"]),
                kind=str(p["kind"]),
                gangs=[str(g) for g in p["gangs"]],
                proposer=str(p["proposer"]),
                turn=str(p["turn"]),
                opened=_time(p["opened"]),
                deadline=_time(p["deadline"]),
                voters=[str(g) for g in p["voters"]],
                ballots={str(k): str(v) for k, v in (p.get("ballots") or {}).items()},
                passed=_time(p["passed"]) if p.get("passed") else None,
                source=str(p.get("source") or ""),
                hours=int(p.get("hours") or 0),
                span=int(p.get("span") or 0),
                left=int(p["left"]) if p.get("left") is not None else None,
                applied=_time(p["applied"]) if p.get("applied") else None,
                resumed=_time(p["resumed"]) if p.get("resumed") else None,
                restored=_time(p["restored"]) if p.get("restored") else None,
            )
        )
    return out


def save(root: Path, proposals: list[Proposal]) -> None:

    head = "# Draw and concession proposals and their secret ballots (moonshine votes): the game master's only.\n"
    atomic_write_text(root / FILE, head + yamlio.dump({"proposals": [p.as_dict() for p in proposals]}))


def survivors(game: Game, st: Any) -> list[str]:
    """The gangs (or powers) still in the game: with a unit, or a district or
    supply centre of their own (a Moonshine gang also with units under arrest)."""
    alive = game.layout.survivors(st)
    return [g for g in game.sides() if g in alive]


def ended(game: Game) -> Proposal | None:
    """The proposal that ended the game, if a draw or concession passed."""
    return next((p for p in load(game.root) if p.passed is not None and p.ends_game()), None)


def describe(game: Game, p: Proposal, language: str) -> str:
    sides = game.sides()
    names = ", ".join(sides.get(g, g) for g in p.gangs)
    if p.kind == PAUSE:
        return mailwords.text(language, "vote.pause", n=p.number, span=_span(p.span, language))
    if p.kind == EXTENSION:
        return mailwords.text(language, "vote.extension", number=p.number, n=p.hours)
    if p.kind == CONCESSION:
        return mailwords.text(language, "vote.concession", n=p.number, gang=names)
    return mailwords.text(language, "vote.draw", n=p.number, gangs=names)


def _span(seconds: int, language: str) -> str:
    """A length of time in days, hours and minutes (``7 days``, ``1 day 12 hours``)."""
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    parts = [mailwords.text(language, key, n=n) for key, n in (("time.days", days), ("time.hours", hours)) if n]
    if rest // 60 or not parts:
        parts.append(mailwords.text(language, "time.minutes", n=rest // 60))
    return " ".join(parts)


# -- the commands ---------------------------------------------------------------------


def propose(req: GameRequest, cmd: CommandLine) -> Answer:
    """``draw ...`` or ``concede to GANG``: open a proposal."""
    game = req.game
    assert req.gang is not None
    if ended(game) is not None:
        return Answer(cmd, False, phrase("vote.game_over"))
    alive = survivors(game, req.st)
    if req.gang not in alive:
        return Answer(cmd, False, phrase("vote.eliminated_proposer"))
    head, when, bad_date = split_deadline(cmd.args)
    if bad_date:
        return Answer(cmd, False, phrase("vote.bad_date"))
    names = words(head)
    kind = CONCESSION if cmd.name == PROPOSE_CONCESSION.name else DRAW
    if kind == DRAW and (not names or any(fold(w) in ALL for w in names)):
        gangs = list(alive)
    else:
        gangs, unknown = sides_named(req, names)
        if unknown:
            return Answer(
                cmd, False, phrase("press.unknown_recipient", names=" ".join(unknown)[:60], known=", ".join(alive))
            )
        out = [g for g in gangs if g not in alive]
        if out:
            return Answer(cmd, False, phrase("vote.not_survivor", gangs=", ".join(out)))
    if kind == CONCESSION and (len(gangs) != 1 or gangs[0] == req.gang):
        return Answer(cmd, False, phrase("vote.concede_one"))
    if kind == DRAW and not gangs:
        return Answer(cmd, False, phrase("vote.concede_one"))
    if when is None:
        turn_due = req.due is not None and req.now < req.due <= req.now + LONGEST
        when = req.due if turn_due and req.due is not None else req.now + DEFAULT_SPAN
    if when <= req.now or when > req.now + LONGEST:
        return Answer(cmd, False, phrase("vote.deadline_range", deadline=when))
    proposals = load(game.root)
    source = f"{req.message_id} line {cmd.line}"
    for p in proposals:
        if p.source == source:  # the same message read again: the proposal it opened
            what = describe(game, p, req.language)
            return Answer(cmd, True, phrase("vote.opened", what=what, deadline=p.deadline, n=p.number))
        if p.state(req.now) == "open" and p.kind == kind and sorted(p.gangs) == sorted(gangs):
            return Answer(cmd, False, phrase("vote.same_open", n=p.number))
    p = Proposal(
        number=max((q.number for q in proposals), default=0) + 1,
        kind=kind,
        gangs=gangs,
        proposer=req.gang,
        turn=req.turn,
        opened=req.now,
        deadline=when,
        voters=alive,
        ballots={req.gang: "yes"},
        source=source,
    )
    _settle(p, alive, req.now)
    proposals.append(p)
    save(game.root, proposals)
    what = describe(game, p, req.language)
    return Answer(cmd, True, phrase("vote.opened", what=what, deadline=p.deadline, n=p.number))


def vote(req: GameRequest, cmd: CommandLine) -> Answer:
    """``vote yes|no [N]``: a secret ballot on proposal N (the one open, when only one is)."""
    game = req.game
    assert req.gang is not None
    said = [fold(w) for w in words(cmd.args)]
    choice = next(("yes" if w in YES else "no" for w in said if w in YES or w in NO), None)
    numbers = [int(w.lstrip("#")) for w in said if w.lstrip("#").isdigit()]
    if choice is None or len(numbers) > 1:
        return Answer(cmd, False, phrase("vote.how"))
    proposals = load(game.root)
    alive = survivors(game, req.st)
    if req.gang not in alive:
        return Answer(cmd, False, phrase("vote.eliminated"))
    open_ = [p for p in proposals if p.state(req.now) == "open" and req.gang in p.voters]
    if numbers:
        found = [p for p in proposals if p.number == numbers[0]]
        if not found:
            return Answer(cmd, False, phrase("vote.no_such", n=numbers[0]))
        p = found[0]
    elif len(open_) == 1:
        p = open_[0]
    else:
        return Answer(cmd, False, phrase("vote.which" if open_ else "vote.none_open"))
    if req.gang not in p.voters:
        return Answer(cmd, False, phrase("vote.not_voter", n=p.number))
    if p.state(req.now) != "open":
        return Answer(cmd, False, phrase("vote.closed", n=p.number, when=p.ended_at()))
    return cast_ballot(req, cmd, p, choice, proposals, alive)


def cast_ballot(
    req: GameRequest, cmd: CommandLine, p: Proposal, choice: str, proposals: list[Proposal], alive: list[str]
) -> Answer:
    """``req``'s side votes ``choice`` on ``p`` (open, and the side one of its voters),
    kept with the other ``proposals``; the answer says whether it decided it."""
    assert req.gang is not None
    p.ballots[req.gang] = choice
    _settle(p, alive, req.now)
    save(req.game.root, proposals)
    if p.passed is not None:  # the last yes needed: nothing can be changed any more
        return Answer(cmd, True, phrase("vote.deciding" if p.ends_game() else "vote.time_deciding", n=p.number))
    return Answer(cmd, True, phrase("vote.recorded_" + choice, n=p.number, deadline=p.deadline))


def _settle(p: Proposal, alive: list[str], now: datetime) -> None:
    """Passed when every voter still surviving has voted yes; an extension, when more
    than half of them have."""
    voters = [g for g in p.voters if g in alive]
    yes = sum(1 for g in voters if p.ballots.get(g) == "yes")
    if voters and (yes == len(voters) or (p.kind == EXTENSION and 2 * yes > len(voters))):
        p.passed = now


def open_lines(game: Game, gang: str | None, now: datetime, language: str) -> list[str]:
    """One line per proposal open at ``now`` (for ``status``): what it is, its
    deadline, and ``gang``'s own vote if it asks (no one else's)."""
    out = []
    for p in load(game.root):
        if p.state(now) != "open":
            continue
        line = mailwords.text(language, "vote.status_line", what=describe(game, p, language), deadline=p.deadline)
        if gang is not None and gang in p.voters:
            mine = p.ballots.get(gang)
            line += " " + mailwords.text(language, "vote.yours_" + (mine or "none"))
        out.append(line)
    return out


# -- the mail owed ---------------------------------------------------------------------


class Due(msgspec.Struct, frozen=True):
    """A message owed, with the turn whose outbox is to hold it."""

    turn: str
    outgoing: outbox.Outgoing


class Reader(msgspec.Struct, frozen=True):
    """One address a notice goes to, alone in its To:, in its reader's language, its
    times in the reader's time zone (an IANA name; None: UTC alone) and in UTC."""

    address: str
    language: str
    zone: str | None
    side: str | None = None  # the side whose player reads it; None for an observer or the game master

    def tz(self) -> ZoneInfo | None:
        return ZoneInfo(self.zone) if self.zone else None

    def time(self, when: datetime) -> str:
        """A deadline or a time for this reader: ``Friday 1 March 2024, 19:00 CET = 18:00 UTC``
        (``moonshine.render.mailwords.due_text``)."""
        return mailwords.due_text(self.language, when, self.tz())


def _zone_name(cfg: GameConfig, side: str | None) -> str | None:
    zone = zone_of(cfg, side)
    return zone.key if zone is not None else None


def side_readers(cfg: GameConfig, side: str) -> list[Reader]:
    """Each address of ``side``'s player, in their language and time zone."""
    language, zone = player_language(cfg, side), _zone_name(cfg, side)
    return [Reader(a, language, zone, side) for a in player_addresses(cfg, side)]


def readers(game: Game, *, watchers: bool = False, master: bool = False) -> list[Reader]:
    """Every address of the game's players (each in their language and zone), then, with
    ``watchers``, the observers' and, with ``master``, the game master's (``referee.email``,
    else the judge's own address), both in the game's language and zone; each address
    once."""
    cfg = game.config
    out = [r for side in game.sides() for r in side_readers(cfg, side)]
    others = (observers.addresses(cfg) if watchers else []) + (game_master_addresses(cfg) if master else [])
    zone = _zone_name(cfg, None)
    for address in others:
        if all(address.lower() != r.address.lower() for r in out):
            out.append(Reader(address, cfg.language, zone))
    return out


def due(game: Game, now: datetime, turn: str | None = None) -> list[Due]:
    """The mail owed at ``now`` for every proposal and not yet put in any turn's
    outbox: the opening notice and the reminder to each voter's every address, the
    announcement of how it ended to every player's address, every observer and the
    game master; each a mail of its own to one address, in its reader's language, its
    times in the reader's zone and UTC, for the outbox of ``turn`` (the current turn by
    default). Pure: reads the game, writes nothing."""
    out: list[outbox.Outgoing] = []
    cfg = game.config
    written = _written(game)
    for p in load(game.root):
        kinds = ["open"]
        state = p.state(now)
        if not p.ends_game() and p.passed is not None and p.passed <= p.opened:
            kinds = []  # passed as it opened (a game with one player): nothing to vote
        span = p.deadline - p.opened
        remind_at = p.deadline - min(REMIND_BEFORE, span / 2)
        if state == "open" and now >= remind_at:
            kinds.append("remind")
        for kind in kinds:
            for gang in p.voters:
                if f"vote-{p.number}-{kind}-{gang.lower()}.eml" in written:
                    continue  # the one mail to the side's addresses of an earlier judge: sent already
                for reader in side_readers(cfg, gang):
                    out.append(_notice(game, p, kind, gang, reader, now))
        ending = state == "passed" or (state != "open" and p.ends_game())  # a vote on time: told when it passes
        if ending and f"vote-{p.number}-bulletin.eml" not in written:  # (an earlier judge's one mail to all)
            out.extend(_announcement(game, p, now, reader) for reader in readers(game, watchers=True, master=True))
    where = turn or game.current_turn()
    return [Due(where, o) for o in out if o.name not in written]


def next_time(game: Game, now: datetime) -> datetime | None:
    """When a proposal next owes mail (its reminder, then its end), for a judge that
    opens a game only when something is due; None when no proposal is open. The mail
    owed at ``now`` is ``due``'s."""
    found: datetime | None = None
    for p in load(game.root):
        if p.state(now) != "open":
            continue
        remind_at = p.deadline - min(REMIND_BEFORE, (p.deadline - p.opened) / 2)
        when = remind_at if now < remind_at else p.deadline
        found = when if found is None or when < found else found
    return found


def _written(game: Game) -> set[str]:
    """The vote notices already in an outbox (of any turn): each is written once,
    and ``send_files`` delivers it at most once."""
    base = game.root / "outbox"
    return {p.name for p in base.glob("*/vote-*.eml")} if base.is_dir() else set()


def one_mail(
    game: Game, reader: Reader, *, name: str, subject: str, body: str, ident: tuple[str, ...], date: datetime
) -> outbox.Outgoing:
    """A vote's mail to ``reader`` alone: its file ``vote-NAME-MARK.eml`` and its
    Message-ID fixed by ``ident`` and the address (``compose.address_mark``), so that a
    pass run again writes the same mail, which the outbox's ledger sends once."""
    cfg = game.config
    referee = from_address(cfg)
    mark = compose.address_mark(reader.address)
    signed = f"{body}\n\n-- \n{mailwords.text(reader.language, 'signature', title=cfg.title)}\n"
    msg = compose.text_message(
        sender=referee,
        to=[reader.address],
        subject=subject,
        body=signed,
        msg_id=compose.message_id(cfg, "vote", *ident, mark),
        date=date,
        reply_to=referee,
    )
    return outbox.Outgoing(f"vote-{name}-{mark}.eml", msg)


def _notice(game: Game, p: Proposal, kind: str, gang: str, reader: Reader, now: datetime) -> outbox.Outgoing:
    lang = reader.language
    what = describe(game, p, lang)
    deadline = reader.time(p.deadline)
    if kind == "open":
        notice = "vote.notice_open" if p.ends_game() else "vote.notice_time"
        body = mailwords.text(lang, notice, what=what, deadline=deadline, n=p.number)
        date = p.opened
    else:
        mine = p.ballots.get(gang)
        body = mailwords.text(lang, "vote.notice_remind", what=what, deadline=deadline, n=p.number)
        body += "\n" + mailwords.text(lang, "vote.yours_" + (mine or "none"))
        date = max(p.opened, p.deadline - min(REMIND_BEFORE, (p.deadline - p.opened) / 2))
    subject = mailwords.text(lang, f"subject.vote_{kind}", prefix=compose.subject_prefix(game.config), n=p.number)
    return one_mail(
        game,
        reader,
        name=f"{p.number}-{kind}-{gang.lower()}",
        subject=subject,
        body=body,
        ident=(str(p.number), kind, gang),
        date=min(date, now),
    )


def _ending(p: Proposal, what: str, lang: str, reader: Reader | None = None) -> str:
    """How ``p`` ended, its times for ``reader`` (None: in UTC, as a bulletin gives them)."""

    def at(when: datetime) -> object:
        return reader.time(when) if reader is not None else when

    if p.passed is not None and p.kind == PAUSE:
        return mailwords.text(lang, "vote.passed_pause", what=what, when=at(p.passed), until=at(p.until()))
    if p.passed is not None and p.kind == EXTENSION:
        due = p.deadline + timedelta(hours=p.hours)  # the turn's deadline, moved
        return mailwords.text(lang, "vote.passed_extension", what=what, when=at(p.passed), due=at(due))
    if p.passed is not None:
        key = "vote.passed_concession" if p.kind == CONCESSION else "vote.passed_draw"
        return mailwords.text(lang, key, what=what, when=at(p.passed))
    return mailwords.text(lang, "vote.failed", what=what, when=at(p.deadline))


def _announcement(game: Game, p: Proposal, now: datetime, reader: Reader) -> outbox.Outgoing:
    """The bulletin's announcement of how a proposal ended, to one player, observer or
    the game master."""
    lang = reader.language
    return one_mail(
        game,
        reader,
        name=f"{p.number}-bulletin",
        subject=mailwords.text(lang, "subject.vote_bulletin", prefix=compose.subject_prefix(game.config), n=p.number),
        body=_ending(p, describe(game, p, lang), lang, reader),
        ident=(str(p.number), "bulletin"),
        date=min(p.ended_at(), now),
    )


def bulletin_lines(game: Game, now: datetime, language: str) -> list[str]:
    """How every draw and concession ended so far, for a bulletin: public, no ballot shown."""
    return [
        _ending(p, describe(game, p, language), language)
        for p in load(game.root)
        if p.state(now) != "open" and p.ends_game()
    ]


def write_due(game: Game, now: datetime, turn: str | None = None) -> list[tuple[str, str]]:
    """Put the mail ``due`` lists in the outbox; returns (turn, file name) of each."""
    items = due(game, now, turn)
    for d in items:
        outbox.write_outbox(game, d.turn, [d.outgoing])
    return [(d.turn, d.outgoing.name) for d in items]


# the commands (DRAW and CONCESSION above are the kinds of proposal they open)
PROPOSE_DRAW = Command("draw", {"en": ("draw",), "fr": ("nulle",)}, propose, help="help.cmd.draw")
PROPOSE_CONCESSION = Command(
    "concede", {"en": ("concede", "concession"), "fr": ("concéder",)}, propose, help="help.cmd.concede"
)
VOTE = Command("vote", {"en": ("vote",), "fr": ("vote", "voter")}, vote, help="help.cmd.vote")
