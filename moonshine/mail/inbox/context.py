"""The inbox's pass over one turn's mail (``Context``): the game, its turn and state,
the clock, the deadlines, what was read before, the turn's log, the wrong
passwords read in the pass (``moonshine.mail.passwords.MAX_WRONG_PASSWORDS`` at
most, by side and by address), and the day's budget of mail to addresses that have
not proven they are a player's (``Budget``)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any, Protocol

import msgspec

from moonshine.game.directory import Game
from moonshine.mail.inbox.turnlog import TurnLog
from moonshine.mail.settings import player_addresses
from moonshine.render import mailwords
from moonshine.text.chatter import ChatterTest

# What a day's mail to addresses that have not proven they are a player's may hold: a
# game of its own counts its turn's log; a judge for many games its registry, with
# its judge.yaml's limits (moonshine.host.settings.Limits).
REPLIES_PER_ADDRESS = 10
REPLIES_PER_DAY = 500


class Budget(Protocol):
    """The day's mail to addresses not proven a player's (a refusal, the answer to a
    stranger's command): ``allow`` says whether one more may go to ``address``, and
    counts it when it may."""

    def allow(self, address: str) -> bool: ...


class LogBudget:
    """A game of its own's budget, counted in its turn's log: the replies of the day
    to messages whose sender and password did not check out, by address and in all."""

    def __init__(self, log: TurnLog, now: datetime, per_address: int, per_day: int) -> None:
        self.day = now.date().isoformat()
        self.per_address, self.per_day = per_address, per_day
        self.by_address: Counter[str] = Counter()
        for s in log.submissions:
            if s.get("reply") and not s.get("checked") and str(s.get("processed", ""))[:10] == self.day:
                self.by_address[str(s.get("from", "")).lower()] += 1

    def allow(self, address: str) -> bool:
        address = address.lower()
        if self.by_address[address] >= self.per_address or self.by_address.total() >= self.per_day:
            return False
        self.by_address[address] += 1
        return True


class Context(msgspec.Struct):
    """One pass of the inbox over one turn's mail."""

    game: Game
    turn: str
    st: Any  # a GameState, or a classic game's ClassicState
    now: datetime
    late_ok: bool
    due: datetime | None
    previous_due: datetime | None  # the previous turn's deadline: mail received before it is for that turn
    limit: int
    seen: set[str]
    log: TurnLog
    chatter: ChatterTest
    closed: bool = False  # the turn is adjudicated: orders are kept for the game master, not taken
    accepting: bool = False  # the game master takes this message (inbox --accept)
    history_numbers: dict[str, int] = msgspec.field(default_factory=dict)  # gang -> last history file's number
    orphans: dict[tuple[str, str], Path] | None = None  # (gang, Message-ID) -> history file of a killed run
    reader: str | None = None  # the language of the player whose message is being answered, if not the game's
    authserv: str | None = None  # the trusted server's authserv-id (inbox.authserv_id)
    grace_for: frozenset[str] = frozenset()  # sides still missing in the grace period: their late orders count
    # wrong passwords in this pass, by "gang:KEY" and by "from:ADDRESS" (MAX_WRONG_PASSWORDS)
    wrong: Counter[str] = msgspec.field(default_factory=Counter)
    held: Counter[str] = msgspec.field(default_factory=Counter)  # gang -> messages refused unread after too many
    judged: bool = False  # read by a judge for many games: a "game:" line names this game, and is no order
    budget: Budget | None = None  # the day's mail to unproven addresses (None: no cap)
    capped: int = 0  # replies not written in this pass: the day's cap was reached
    paused: bool = False  # the game's master paused it: no deadline runs (the replies say so)
    host_lines: Callable[[str], bool] | None = None  # lines the judge for many games read (its lobby's commands)

    @property
    def turn_text(self) -> object:
        """The turn as a sentence of the reply words it (``le printemps 1924``, ``l'automne 1901``)."""
        return self.game.layout.turn_in_text(self.turn)

    def game_over(self) -> bool:
        """A winner, or a draw or concession every surviving side voted (asked when
        orders are about to be taken: a vote in this very message may end the game)."""
        from moonshine.mail.commands import votes

        return bool(self.game.layout.winners(self.st)) or votes.ended(self.game) is not None

    @property
    def language(self) -> str:
        """The language of the reply being written: its player's own
        (``players.GANG.language``), else the game's."""
        return self.reader or self.game.config.language

    def say(self, key: str, /, **fields: object) -> str:
        return mailwords.text(self.language, key, **fields)


def gangs_of(ctx: Context, sender: str) -> list[str]:
    """The sides whose player writes from ``sender`` (none: a stranger)."""
    return [g for g in ctx.game.sides() if sender in {a.lower() for a in player_addresses(ctx.game.config, g)}]
