"""The missed-turn policy (``nmr:`` in game.yaml, ``moonshine.mail.policy``): a side
whose player sends no orders for ``disorder`` turns (two movement turns by default)
goes into civil disorder; after ``remove`` turns (three) its player is removed. A side
in civil disorder does not merely hold: at each deadline the civil-disorder player
(R26, ``moonshine.game.civil_disorder``) writes its orders into ``orders/TURN/SIDE.txt``
from the game's secret seed, marked as such. It blocks nothing (no grace waits for
it, nor an early turn), it is told, the bulletin says so, a judge for many games
lists it for ``takeover``, and its player's next accepted orders, or a new player,
end it.

What the policy counts is read from the game directory, so that a rollback, a
killed pass or a judge for many games finds the same answer: a side's missed turns
are the turns adjudicated since its player began (``disorder.yaml``: each side's
player as the judge last saw them, the turn they count from, the turn a player was
removed), newest first, that it had something to order in and no orders of its own
(a file the civil-disorder player wrote is not its own), back to its last own orders.
A turn whose deadline fell in an absence its player declared (``absent``) is excused:
it neither counts nor ends the count; only the game's counted turns count (movement
turns, or all with ``nmr: {turns: all}``), though its own orders in any turn end
the count.

The unattended judge (``moonshine.mail.run``) observes the players at each pass
(``observe``) and, at the deadline, before the adjudication, has this module write
the civil-disorder orders, remove the players the policy removes, and tell the
players and the bulletin (``at_deadline``)."""

from __future__ import annotations

from datetime import datetime

import msgspec

from moonshine import yamlio
from moonshine.errors import GameError, StateError
from moonshine.game import news
from moonshine.game.directory import Game, atomic_write_text, deadline, player_language, save_config
from moonshine.mail import outbox
from moonshine.mail.outbox import compose
from moonshine.mail.policy import ALL, Policy, policy_of
from moonshine.mail.settings import from_address, player_addresses
from moonshine.render import mailwords
from moonshine.text.english import count

FILE = "disorder.yaml"


class SideRecord(msgspec.Struct):
    """A side as the policy last saw it: its player's addresses (none: vacant), the
    first turn counted for them, and the turn after which the policy removed its
    player (the side stays in civil disorder until a new player comes)."""

    player: list[str] = msgspec.field(default_factory=list)
    since: str = ""
    removed: str | None = None


class Record(msgspec.Struct):
    """``disorder.yaml``: every side's record."""

    sides: dict[str, SideRecord] = msgspec.field(default_factory=dict)


def load(game: Game) -> Record:
    path = game.root / FILE
    if not path.is_file():
        return Record()
    raw = yamlio.load(path, what="the missed-turn policy's record") or {}
    try:
        return msgspec.convert(raw, Record)
    except msgspec.ValidationError as exc:
        raise StateError(str(path), "", f"expected sides: {{SIDE: {{player, since, removed}}}} ({exc})") from None


def save(game: Game, record: Record) -> None:
    head = (
        "# The missed-turn policy's record (moonshine run): each side's player as the judge last saw them,\n"
        "# the turn they count from, and the turn after which the policy removed them.\n"
    )
    data = {
        "sides": {
            side: {"player": r.player, "since": r.since, "removed": r.removed}
            for side, r in sorted(record.sides.items())
        }
    }
    atomic_write_text(game.root / FILE, head + yamlio.dump(data))


def expected(game: Game, turn: str, *, players_only: bool = True) -> list[str]:
    """The sides that have something to order this turn (every gang in Moonshine;
    in a classic game the powers with units, retreats or adjustments) and (with
    ``players_only``) a player with an address: the ones the judge waits for."""
    cfg = game.config
    sides = [s for s in game.sides() if player_addresses(cfg, s) or not players_only]
    return game.layout.expected(game, turn, sides)


def _addresses(game: Game, side: str) -> list[str]:
    return sorted({a.lower() for a in player_addresses(game.config, side)})


def observe(game: Game, record: Record, turn: str) -> list[str]:
    """Bring ``record`` in step with game.yaml's players at ``turn`` (in place): a side
    first seen, or with a new player, counts from ``turn``; a side whose player left
    is vacant. Returns the sides that have a new player (a takeover)."""
    taken: list[str] = []
    for side in game.sides():
        now = _addresses(game, side)
        known = record.sides.get(side)
        if known is None:
            record.sides[side] = SideRecord(now, turn)
        elif now and now != known.player:
            taken.append(side)
            record.sides[side] = SideRecord(now, turn)
        elif not now and known.player:
            record.sides[side] = SideRecord([], turn, known.removed)
    return taken


def copy(record: Record) -> Record:
    return msgspec.convert(msgspec.to_builtins(record), Record)


class Standing(msgspec.Struct, frozen=True):
    """A side at the start of a turn: its player (none: vacant), the turns it missed
    in a row as the policy counts them, whether the policy removed its player, and
    whether it is in civil disorder now (its own orders for the turn end that)."""

    side: str
    has_player: bool
    missed: int
    removed: bool
    disorder: bool


def own_orders(game: Game, turn: str, side: str) -> bool:
    """Whether ``side`` has orders of its own for ``turn`` (a file the
    civil-disorder player wrote is not its own)."""
    from moonshine.game.orderfile import read
    from moonshine.variants.civil_disorder import read_mark

    path = game.orders_dir(turn) / f"{side}.txt"
    if not path.is_file():
        return False
    try:
        return read_mark(read(path)) is None
    except GameError:
        return True  # a file that is no text is the player's, refused at the adjudication


class _Turns:
    """What the count asks of each past turn, each asked once: who had something to
    order, who was away at its deadline."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.expected: dict[str, set[str]] = {}
        self.away: dict[str, set[str]] = {}

    def had_to_order(self, turn: str, side: str) -> bool:
        if turn not in self.expected:
            sides = list(self.game.sides())
            self.expected[turn] = set(self.game.layout.expected(self.game, turn, sides))
        return side in self.expected[turn]

    def excused(self, turn: str, side: str) -> bool:
        if turn not in self.away:
            from moonshine.mail.commands.absence import absent_sides

            self.away[turn] = absent_sides(self.game, deadline(self.game.config, turn))
        return side in self.away[turn]


def counted(game: Game, policy: Policy, turn: str) -> bool:
    """Whether a turn without orders counts in ``turn`` (a movement turn, or any)."""
    return policy.turns == ALL or game.layout.is_movement(turn)


def _missed(game: Game, policy: Policy, known: SideRecord, side: str, turn: str, turns: _Turns) -> int:
    """The counted turns ``side`` missed in a row before ``turn``, back to its own last
    orders or to the first turn of its player (at most what the policy needs)."""
    every = game.turns()
    before = every[: every.index(turn)] if turn in every else every
    start = game.turn_key(known.since) if known.since else None
    enough = max(policy.disorder, policy.remove)
    n = 0
    for t in reversed(before):
        if n >= enough or (start is not None and game.turn_key(t) < start):
            break
        if own_orders(game, t, side):
            break
        if counted(game, policy, t) and turns.had_to_order(t, side) and not turns.excused(t, side):
            n += 1
    return n


def standings(game: Game, turn: str, policy: Policy | None = None, record: Record | None = None) -> dict[str, Standing]:
    """Every side's standing at the start of ``turn`` (its own orders for ``turn``
    already in end its civil disorder). A side the record does not know (a game
    whose judge never ran the policy) has missed nothing."""
    policy = policy if policy is not None else policy_of(game)
    record = record if record is not None else load(game)
    turns = _Turns(game)
    out: dict[str, Standing] = {}
    for side in game.sides():
        known = record.sides.get(side)
        has_player = bool(_addresses(game, side))
        if known is None:
            out[side] = Standing(side, has_player, 0, False, False)
            continue
        removed = known.removed is not None and not has_player
        missed = _missed(game, policy, known, side, turn, turns) if has_player else 0
        disorder = bool(policy.disorder) and (removed or (has_player and missed >= policy.disorder))
        out[side] = Standing(side, has_player, missed, removed, disorder and not own_orders(game, turn, side))
    return out


def in_disorder(game: Game, turn: str) -> set[str]:
    """The sides in civil disorder at ``turn``, as things stand."""
    return {s for s, st in standings(game, turn).items() if st.disorder}


# -- at the deadline ---------------------------------------------------------------------------------


class Deadline(msgspec.Struct):
    """What the policy did at a turn's deadline: the sides whose orders the
    civil-disorder player wrote, those that went into civil disorder and those whose
    player it removed (each with the turns missed)."""

    written: list[str] = msgspec.field(default_factory=list)
    into: list[tuple[str, int]] = msgspec.field(default_factory=list)
    removed: list[tuple[str, int]] = msgspec.field(default_factory=list)

    def lines(self) -> list[str]:
        """For the judge's log."""
        out = []
        if self.written:
            out.append(f"civil-disorder orders written for {', '.join(self.written)}")
        out += [f"{side} in civil disorder ({count(n, 'turn')} without orders)" for side, n in self.into]
        out += [f"{side}'s player removed ({count(n, 'turn')} without orders)" for side, n in self.removed]
        return out


def at_deadline(game: Game, turn: str, now: datetime, policy: Policy | None = None) -> Deadline:
    """At ``turn``'s deadline, before it is adjudicated (in the caller's transaction):
    the civil-disorder player's orders for the sides in civil disorder with something
    to order; then this turn counted: the sides it puts in civil disorder, the players
    it removes (game.yaml and ``disorder.yaml``), each told by mail, and the bulletin
    told. Safe to do again (a killed pass): the same files, the same news, each mail once."""
    from moonshine.game.civil_disorder import write_civil_disorder

    policy = policy if policy is not None else policy_of(game)
    record = load(game)
    every = standings(game, turn, policy, record)
    sides = list(game.sides())
    to_order = set(game.layout.expected(game, turn, sides))
    player = policy.player_of(game.layout.civil_disorder_players)
    done = Deadline()
    for side in sides:
        if every[side].disorder and side in to_order:
            write_civil_disorder(game, turn, side, player)
            done.written.append(side)
    if not policy.disorder and not policy.remove:
        return done
    turns = _Turns(game)
    out: list[outbox.Outgoing] = []
    removals: list[str] = []
    for side in sides:
        s = every[side]
        if not s.has_player or side not in record.sides or own_orders(game, turn, side):
            continue
        if not counted(game, policy, turn) or side not in to_order or turns.excused(turn, side):
            continue
        after = s.missed + 1
        if policy.disorder and s.missed < policy.disorder <= after:
            done.into.append((side, after))
            news.put(game, turn, f"disorder-{side}", "news.disorder", side=side, n=after)
            out.append(_notice(game, turn, side, "disorder", after, now, player, policy))
        if policy.remove and s.missed < policy.remove <= after:
            done.removed.append((side, after))
            removals.append(side)
            news.put(game, turn, f"removed-{side}", "news.removed", side=side, n=after)
            out.append(_notice(game, turn, side, "removed", after, now, player, policy))
    if out:
        outbox.write_outbox(game, turn, out)
    if removals:
        _remove(game, record, turn, removals)
    return done


def _remove(game: Game, record: Record, turn: str, sides: list[str]) -> None:
    """The players of ``sides`` no longer lead them: no address in game.yaml (their
    password goes too), and the record remembers the turn."""
    from moonshine.game.directory import Player

    cfg = game.config
    players = dict(cfg.players)
    for side in sides:
        players[side] = Player(name="", email=[])
        record.sides[side] = SideRecord([], (record.sides.get(side) or SideRecord()).since or turn, turn)
    save_config(game, msgspec.structs.replace(cfg, players=players))
    save(game, record)


def subject_turn(game: Game, turn: str, language: str) -> str:
    """A turn as a subject line names it: ``Spring 1924`` (``Printemps 1924``), a
    classic phase by its label."""
    from moonshine.text.catalogue import Localized

    shown = mailwords.subject_turn(language, turn)
    if shown != turn:
        return shown
    named = game.layout.turn_in_text(turn)
    return named.text(language) if isinstance(named, Localized) else str(named)


def _notice(
    game: Game, turn: str, side: str, what: str, n: int, now: datetime, player: str, policy: Policy
) -> outbox.Outgoing:
    """The mail that tells a side's player it is in civil disorder, or that they no
    longer lead it, in their language; one a side, a turn and a kind (its file name)."""
    cfg = game.config
    lang = player_language(cfg, side)
    name = game.sides(lang)[side]
    subject = mailwords.text(
        lang, f"{what}.subject", prefix=compose.subject_prefix(cfg), turn=subject_turn(game, turn, lang), gang=name
    )
    body = mailwords.text(lang, f"{what}.body", gang=name, n=n, player=player)
    if what == "disorder" and policy.remove:
        body += " " + mailwords.text(lang, "disorder.removal", n=policy.remove)
    body += "\n\n-- \n" + mailwords.text(lang, "signature", title=cfg.title) + "\n"
    msg = compose.text_message(
        sender=from_address(cfg),
        to=player_addresses(cfg, side),
        subject=subject,
        body=body,
        msg_id=compose.message_id(cfg, turn, what, side),
        date=now,
        reply_to=from_address(cfg),
    )
    return outbox.Outgoing(f"{what}-{side.lower()}.eml", msg)
