"""The game layer's view of a rule family: what the commands, the inbox and the
unattended judge ask of a game whatever its variant plays (check a player's
orders, adjudicate, write the reports, build the site...). One implementation
per family (``moonshine.game.families.moonshine``, ``moonshine.game.families.classic``),
found from the game's variant by the registry (``moonshine.game.families.of``).

The family's pure knowledge (turn names, sides, states, winners) is its layout,
one floor down (``moonshine.variants.layout``)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import msgspec

if TYPE_CHECKING:
    from moonshine.engine.outcome import Result, Wording
    from moonshine.game.directory import Game
    from moonshine.game.families.prediction import Block, Prediction
    from moonshine.text.chatter import ChatterTest

Notify = Callable[[str], None]


class OrderCheck(msgspec.Struct, frozen=True):
    """What the order reader made of a submission."""

    header_gang: str | None  # the gang key its ``gang:`` line names
    header_turn: str | None  # the turn its ``turn:`` line names
    password: str | None  # what its password line says
    password_lines: tuple[int, ...]  # those lines' numbers (from 1), never saved
    accepted: int  # valid orders
    rejected: int  # lines rejected, each with its reason in the acknowledgement
    problems: tuple[str, ...]  # problems with the whole text
    acknowledgement: str  # the orders as understood, for the player


class OrderOutcome(msgspec.Struct, frozen=True):
    """One order of a turn (or phase) and what became of it."""

    side: str  # the gang's or power's key
    unit: str
    order: str  # canonical text
    succeeded: bool
    outcome: Result | None  # None: a results file of an earlier version
    reason: str  # the English sentence the file gives
    wording: Wording  # the words the rule family gives its explanations

    def explain(self, language: str = "en") -> str:
        """The outcome as a sentence in ``language``."""
        from moonshine.engine import outcome

        return self.reason if self.outcome is None else outcome.explain(self.outcome, language, self.wording)


class Family(Protocol):
    """A rule family, as the game layer plays it."""

    name: str  # the family's name (moonshine.variants.MOONSHINE, CLASSIC)
    messages: str  # the suffix of the catalogue's texts written for the family ("", ".classic")
    reveals_seed: bool  # whether its games keep a secret seed that 'moonshine reveal' shows at the end
    raids: bool  # whether that seed draws raids (R21) as well as the civil-disorder player's choices (R26)

    def create(
        self,
        root: Path,
        *,
        variant: str,
        map_name: str,
        seed: str | None,
        title: str | None,
        language: str,
        use_git: bool,
    ) -> Game:
        """Create a game directory with its first turn (or phase)."""
        ...

    def created(self, game: Game) -> list[str]:
        """What 'moonshine new' tells the game master about the game it created."""
        ...

    def check_orders(
        self, text: str, game: Game, st: Any, side: str | None, *, source: str, language: str
    ) -> OrderCheck:
        """Read a player's text (as ``side``'s, or as its header says) and write the
        acknowledgement in ``language``."""
        ...

    def acknowledge(
        self, game: Game, file: Path, text: str, turn: str | None, side: str | None, language: str | None
    ) -> tuple[str, bool]:
        """The acknowledgement of an orders file (``moonshine check``) and whether
        every line is accepted."""
        ...

    def chatter_test(self, game: Game) -> ChatterTest:
        """The mail intake's test for lines that are plainly not orders."""
        ...

    def adjudicate(
        self,
        game: Game,
        turn: str,
        *,
        force: bool = False,
        commit: bool = True,
        now: datetime | None = None,
        notify: Notify | None = None,
    ) -> list[str]:
        """Adjudicate ``turn`` as one transaction (results, next state, pictures and
        reports); returns what to tell the game master, line by line."""
        ...

    def write_reports(self, game: Game, turn: str, *, side: str | None, language: str | None) -> list[Path]:
        """Write ``turn``'s reports: ``side``'s only, or every side's and the
        bulletin; ``language`` (else each reader's own) for all."""
        ...

    def report_text(self, game: Game, turn: str, *, side: str | None, language: str | None) -> str:
        """The text of ``side``'s report on ``turn``, or of the bulletin."""
        ...

    def outcomes(self, game: Game, turn: str) -> Iterator[OrderOutcome]:
        """Every order of an adjudicated ``turn`` with its outcome as a value."""
        ...

    def build_site(self, game: Game, out: Path, *, language: str | None) -> list[Path]:
        """Write the game's public site into ``out``; returns the files written."""
        ...

    def predict(self, block: Block) -> Prediction:
        """A player's ``predict`` block (closed) adjudicated on the turn's position
        (``moonshine.game.families.prediction``)."""
        ...
