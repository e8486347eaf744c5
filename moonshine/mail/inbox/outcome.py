"""What became of a message the inbox read (``Outcome``: one line for the game master
and the log), why a message is refused (``REFUSALS``, as ``status`` counts them per
side), and the exceptions that stop reading one: ``Reject`` (refused, with the
reason a player reads and what to do), ``Forged`` and ``Unsolicited`` (never answered)."""

from __future__ import annotations

from datetime import datetime

import msgspec

from moonshine.game import masking
from moonshine.render.mailwords import Phrase


class Outcome(msgspec.Struct, frozen=True):
    """What became of one message: one line for the game master."""

    status: str  # accepted, superseded, rejected, ignored, duplicate
    origin: str
    message_id: str
    sender: str
    gang: str | None
    reason: str
    reply: str | None = None  # the answer's file in the outbox
    about: str | None = None  # the gang a refused message named, even when its sender is not that gang's
    refusal: str | None = None  # one of REFUSALS, for a refused message
    received: datetime | None = None  # for a message held unread: when it was received

    def line(self) -> str:
        """One line for the game master's terminal: text a player controls is
        shown with its escape and bidirectional-control characters escaped."""
        who = self.sender or "(no sender)"
        return masking.terminal_safe(f"{self.status:<10} {self.gang or '-':<10} {who}: {self.reason} [{self.origin}]")


# A message not read in this pass (too many wrong passwords in its side's name, or from its
# address): never logged, left in its mailbox, read at the next pass before later mail.
HELD = "held"
HELD_REASON = "more than {n} wrong passwords for {gang} in this pass: held unread for the next pass"


# Why messages are refused, as ``status`` counts them per gang.
WRONG_PASSWORD, WRONG_SENDER, LATE, AFTER_ADJUDICATION, OTHER = (
    "wrong password",
    "wrong sender",
    "late",
    "after adjudication",
    "other",
)


REFUSALS = (WRONG_PASSWORD, WRONG_SENDER, LATE, AFTER_ADJUDICATION, OTHER)


REFUSAL_OF = {
    "reject.wrong_password": WRONG_PASSWORD,
    "reject.too_many_guesses": WRONG_PASSWORD,
    "reject.not_player": WRONG_SENDER,
    "reject.other_gang": WRONG_SENDER,
    "reject.late": LATE,
    "reject.earlier_turn": LATE,
    "reject.adjudicated": AFTER_ADJUDICATION,
}


class Reject(Exception):
    """A refused message: why (``reason``, a catalogue phrase), the gang it is
    about if known, and what the player can do (a phrase, or a text already
    written in the game's language such as an acknowledgement)."""

    def __init__(
        self, reason: Phrase, gang: str | None = None, help_text: Phrase | str = "", *, about: str | None = None
    ) -> None:
        super().__init__(reason.text("en"))
        self.phrase = reason
        self.reason = reason.text("en")  # for the game master's lines and the log
        self.gang = gang
        self.help_text = help_text
        self.about = about or gang
        self.refusal = REFUSAL_OF.get(reason.key, OTHER)


class Forged(Exception):
    """Mail the trusted server found forged for its From domain: the sender named is not
    who sent it, so it is logged for the game master and never answered."""


class Unsolicited(Exception):
    """Mail from an address that plays no side, naming no side, with no order, password
    or command in it (spam, mostly): logged for the game master, never answered, so
    the judge sends nothing back to forged senders."""


UNSOLICITED = "not from a player, and no side, order, password or command in it: not answered"
