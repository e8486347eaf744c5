"""What a rule family's games are made of, as the game directory
(``moonshine.game.directory``) reads them: how turns (or phases) are named, ordered and
found in a directory, who the sides are, what a state is and how it is read.

One value per rule family, found from the variant (``Variant.layout``): the game
directory asks it and never tests which family it plays. The game layer's own
per-family work (checking, adjudicating, reporting) is ``moonshine.game.families``.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from moonshine.errors import GameError
from moonshine.yamlio import plain

if TYPE_CHECKING:
    from moonshine.engine.outcome import Wording
    from moonshine.engine.rulebook import Rulebook
    from moonshine.variants.classic.board import ClassicMap
    from moonshine.variants.moonshine.map import GameMap
    from moonshine.variants.moonshine.state import GameState
    from moonshine.variants.ordersjson import OrderForms


class GameFiles(Protocol):
    """What a layout reads of a game directory (``moonshine.game.directory.Game``)."""

    root: Path

    @property
    def map(self) -> GameMap: ...

    def board(self) -> ClassicMap: ...

    def load_state(self, turn: str) -> GameState: ...


class Layout(Protocol):
    """A rule family's turns, sides and states."""

    side: str  # what a player leads, as the game's messages say it: gang, power
    house_rules: bool  # whether a game.yaml may set house rules (rules:)
    map_check: bool  # whether 'moonshine map check' reads the family's maps (else they are checked when read)
    civil_disorder_players: tuple[str, ...]  # the family's civil-disorder players (R26), the default first
    # the common format 'moonshine export' writes: "diplomacy" (the diplomacy package's
    # saved game) or "moonshine-game" (each turn's public results, docs/results.schema.json)
    exchange: str

    @property
    def wording(self) -> Wording:
        """How the family's judges word outcomes (the explainer's words)."""
        ...

    @property
    def orders_json(self) -> OrderForms:
        """The family's orders as JSON objects (``docs/orders.schema.json``): their
        shapes and canonical lines (``moonshine.variants.ordersjson``)."""
        ...

    def civil_disorder(
        self, game: GameFiles, turn: str, side: str, player: str, seed: str, rules: Rulebook | None = None
    ) -> str:
        """The orders file the civil-disorder ``player`` (one of
        ``civil_disorder_players``) writes for ``side`` in ``turn``, drawing from
        ``seed`` (``moonshine.variants.civil_disorder.civil_disorder_seed``) under the
        game's ``rules`` (its rulebook; None: the family's own); R26."""
        ...

    def is_movement(self, turn: str) -> bool:
        """Whether ``turn`` is a movement turn (every Moonshine turn; a classic game's
        spring and fall phases, not its retreats and adjustments): the turns the
        missed-turn policy counts by default."""
        ...

    def rulebook(self, raw: Mapping[str, Any] | None, source: str, line: int) -> Rulebook | None:
        """The rule choices ``game.yaml``'s ``rules:`` (``raw``, at ``line`` of ``source``)
        makes for the family's adjudication, checked (None: the family's own book); a key
        of another family's is an error naming it."""
        ...

    def turn_key(self, name: str) -> tuple[int, ...]:
        """A key ordering the turns; ValueError for a name that is not one."""
        ...

    def turn_name(self, name: str) -> str:
        """A turn as its directories are named (``printemps-1924`` is ``spring-1924``);
        anything else as written."""
        ...

    def turns(self, root: Path) -> list[str]:
        """The turns with a state file in the game directory ``root``, in order."""
        ...

    def turn_in_text(self, name: str) -> object:
        """The turn as the message catalogue words it (a Moonshine ``Turn`` is
        translated; a phase's name is shown as named)."""
        ...

    def turn_after(self, turn: str) -> str | None:
        """The turn that follows ``turn`` whatever happens in it; None when the
        next one depends on its outcome (a classic phase: retreats or not)."""
        ...

    def turn_before(self, turn: str, known: list[str]) -> str | None:
        """The turn before ``turn`` (``known``: the game's turns, in order)."""
        ...

    def sides(self, game: GameFiles, language: str = "en") -> dict[str, str]:
        """Who plays, by key, with their names (in ``language`` where the board has them)."""
        ...

    def side_by_name(self, game: GameFiles, name: str) -> str | None:
        """The key of the side called ``name`` (its key or its name, any case)."""
        ...

    def load_board(self, game: GameFiles, name: str) -> ClassicMap:
        """The board a game of the classic family plays on; a GameError otherwise."""
        ...

    def map_refusal(self, game: GameFiles, variant: str, title: str) -> str | None:
        """Why a game of this family has no Moonshine map (None: it has one)."""
        ...

    def load_state(self, game: GameFiles, turn: str) -> Any:
        """The state at the start of ``turn``."""
        ...

    def expected(self, game: GameFiles, turn: str, sides: list[str]) -> list[str]:
        """Those of ``sides`` that have something to order in ``turn``."""
        ...

    def winners(self, st: Any) -> list[str]:
        """The sides that won in the state ``st`` (none while the game goes on)."""
        ...

    def survivors(self, st: Any) -> set[str]:
        """The sides still in the game in the state ``st``."""
        ...

    def check_results(self, raw: dict[str, Any], source: str) -> None:
        """Check a turn's results file as read (a StateError naming what is wrong)."""
        ...

    def public_results(self, raw: dict[str, Any], sides: dict[str, str]) -> dict[str, Any]:
        """The public part of a turn's results (what the bulletin shows, R19), as JSON values."""
        ...

    def private_results(self, raw: dict[str, Any], side: str) -> dict[str, Any] | None:
        """``side``'s own part of a turn's results, as JSON values (None: all is public)."""
        ...


_PUBLIC_TOP = ("price", "sold", "raid", "assaults", "corruption", "vp", "winners")  # a Moonshine turn's public results


class MoonshineLayout:
    """Moonshine: turns ``spring-1924``, ``autumn-1924``; gangs; ``GameState``."""

    side = "gang"
    house_rules = True
    exchange = "moonshine-game"
    map_check = True
    civil_disorder_players: tuple[str, ...] = ("keep",)

    @property
    def wording(self) -> Wording:
        from moonshine.engine.outcome import DEFAULT_WORDING

        return DEFAULT_WORDING  # the explainer's defaults are Moonshine's words

    @property
    def orders_json(self) -> OrderForms:
        from moonshine.variants.moonshine.ordersjson import FORMS

        return FORMS

    def civil_disorder(
        self, game: GameFiles, turn: str, side: str, player: str, seed: str, rules: Rulebook | None = None
    ) -> str:
        from moonshine.variants.moonshine.civil_disorder import civil_disorder

        if player not in self.civil_disorder_players:
            raise GameError(f"no civil-disorder player {player!r} in a Moonshine game (keep)")
        return civil_disorder(game.map, game.load_state(turn), side, seed).text

    def is_movement(self, turn: str) -> bool:
        return True  # every turn has its movement

    def rulebook(self, raw: Mapping[str, Any] | None, source: str, line: int) -> Rulebook | None:
        from moonshine import yamlio
        from moonshine.errors import StateError
        from moonshine.variants.moonshine.houserules import KEYS

        for key in raw or {}:
            if key not in KEYS:
                where = yamlio.where(source, yamlio.line_of(raw, key) or line)
                raise StateError(
                    where, f"rules.{key}", f"a rule option of classic games (a Moonshine game's: {', '.join(KEYS)})"
                )
        return None  # house rules are read by moonshine.variants.moonshine.houserules

    def turn_key(self, name: str) -> tuple[int, ...]:
        from moonshine.variants.moonshine.calendar import Turn

        t = Turn.parse(name)
        return (t.year, t.season_index)

    def turn_name(self, name: str) -> str:
        from moonshine.variants.moonshine.calendar import Turn

        try:
            return Turn.parse(name).name
        except ValueError:
            return name

    def turns(self, root: Path) -> list[str]:
        from moonshine.variants.moonshine.calendar import Turn

        base = root / "turns"
        found = []
        if base.is_dir():
            for p in base.iterdir():
                try:
                    Turn.parse(p.name)
                except ValueError:
                    continue
                if (p / "state.yaml").is_file():
                    found.append(p.name)
        return sorted(found, key=Turn.parse)

    def turn_in_text(self, name: str) -> object:
        from moonshine.variants.moonshine.calendar import Turn

        return Turn.parse(name)

    def turn_after(self, turn: str) -> str | None:
        from moonshine.variants.moonshine.calendar import Turn

        try:
            return Turn.parse(turn).next().name
        except ValueError:
            return None

    def turn_before(self, turn: str, known: list[str]) -> str | None:
        from moonshine.variants.moonshine.calendar import Turn

        return Turn.parse(turn).previous().name

    def sides(self, game: GameFiles, language: str = "en") -> dict[str, str]:
        return {k: g.name for k, g in game.map.gangs.items()}

    def side_by_name(self, game: GameFiles, name: str) -> str | None:
        found = game.map.gang_by_name(name)
        return None if found is None else found.key

    def load_board(self, game: GameFiles, name: str) -> ClassicMap:
        raise GameError(f"{game.root}: a Moonshine game has a map, not a classic board")

    def map_refusal(self, game: GameFiles, variant: str, title: str) -> str | None:
        return None

    def load_state(self, game: GameFiles, turn: str) -> GameState:
        return game.load_state(turn)

    def expected(self, game: GameFiles, turn: str, sides: list[str]) -> list[str]:
        return sides  # every gang, every turn

    def winners(self, st: Any) -> list[str]:
        return list(st.winners)

    def survivors(self, st: Any) -> set[str]:
        """With a unit, a district of their own, or units under arrest."""
        return {u.gang for u in st.units} | set(st.control.values()) | {a.gang for a in st.arrested}

    def check_results(self, raw: dict[str, Any], source: str) -> None:
        from moonshine import schema

        schema.check(raw, schema.RESULTS, source)

    def public_results(self, raw: dict[str, Any], sides: dict[str, str]) -> dict[str, Any]:
        gangs = raw.get("gangs") or {}
        out: dict[str, Any] = {k: plain(raw.get(k)) for k in _PUBLIC_TOP}
        out["sides"] = {
            key: {
                "name": sides.get(key, key),
                "submitted": gr.get("orders_file") is not None,
                "units": plain(gr.get("units") or []),
                "dislodged": plain(gr.get("dislodged") or []),
                "adjustments": plain(gr.get("adjustments") or []),
                "vp": gr.get("vp", 0),
            }
            for key, gr in gangs.items()
        }
        nxt = raw.get("next") or {}
        out["next"] = {k: plain(nxt.get(k)) for k in ("turn", "price", "price_reason", "returns", "raid")}
        return out

    def private_results(self, raw: dict[str, Any], side: str) -> dict[str, Any] | None:
        gr = (raw.get("gangs") or {}).get(side)
        if gr is None:
            return None
        return {
            "side": side,
            "orders": plain(gr.get("lines") or []),
            "bids": plain(gr.get("bids") or []),
            "ledger": plain(gr.get("ledger") or {}),
        }


class ClassicLayout:
    """The classic family: phases ``spring-1901``, ``spring-1901-retreats``,
    ``winter-1901``; powers; ``ClassicState``."""

    side = "power"
    house_rules = False
    exchange = "diplomacy"
    map_check = False
    civil_disorder_players: tuple[str, ...] = ("hold", "smart")

    @property
    def wording(self) -> Wording:
        from moonshine.variants.classic.rules import WORDING

        return WORDING

    @property
    def orders_json(self) -> OrderForms:
        from moonshine.variants.classic.ordersjson import FORMS

        return FORMS

    def civil_disorder(
        self, game: GameFiles, turn: str, side: str, player: str, seed: str, rules: Rulebook | None = None
    ) -> str:
        from moonshine.variants.classic.civil_disorder import civil_disorder
        from moonshine.variants.classic.rules import CLASSIC

        if player not in self.civil_disorder_players:
            raise GameError(f"no civil-disorder player {player!r} in a classic game (hold, smart)")
        st = self.load_state(game, turn)
        return civil_disorder(game.board(), st, side, player, seed, rules or CLASSIC).text

    def is_movement(self, turn: str) -> bool:
        from moonshine.variants.classic.state import Phase, Step

        try:
            return Phase.parse(turn).step is Step.MOVEMENT
        except ValueError:
            return False

    def rulebook(self, raw: Mapping[str, Any] | None, source: str, line: int) -> Rulebook | None:
        from moonshine.variants.classic import rulebooks

        return rulebooks.from_config(raw, source, line) if raw else None

    def turn_key(self, name: str) -> tuple[int, ...]:
        from moonshine.variants.classic.state import Phase

        return Phase.parse(name).sort_key()

    def turn_name(self, name: str) -> str:
        return name

    def turns(self, root: Path) -> list[str]:
        from moonshine.variants.classic.layout import phases

        return phases(root)

    def turn_in_text(self, name: str) -> object:
        from moonshine.variants.classic.state import Phase

        try:
            return Phase.parse(name)  # worded in the reader's language
        except ValueError:
            return name

    def turn_after(self, turn: str) -> str | None:
        return None

    def turn_before(self, turn: str, known: list[str]) -> str | None:
        before = known[: known.index(turn)] if turn in known else []
        return before[-1] if before else None

    def sides(self, game: GameFiles, language: str = "en") -> dict[str, str]:
        return game.board().power_names(language)

    def side_by_name(self, game: GameFiles, name: str) -> str | None:
        """A power by its code or its name in any language of the board (England, Angleterre)."""
        return game.board().power_by_name(name)

    def load_board(self, game: GameFiles, name: str) -> ClassicMap:
        from moonshine.variants.classic.board import board

        return board(name)

    def map_refusal(self, game: GameFiles, variant: str, title: str) -> str | None:
        return (
            f"{game.root}: this is a game of the {variant} variant ({title}); this command plays Moonshine games only"
        )

    def load_state(self, game: GameFiles, turn: str) -> Any:
        from moonshine.variants.classic.layout import load_state

        return load_state(game.root, turn, game.board())

    def expected(self, game: GameFiles, turn: str, sides: list[str]) -> list[str]:
        """The powers with units (movement), with a dislodged unit (retreats), or
        with builds or disbands owed (adjustments); none once the game is won."""
        from moonshine.variants.classic.adjustments import adjustment_counts
        from moonshine.variants.classic.state import Step

        st = self.load_state(game, turn)
        if st.winner:
            return []
        if st.phase.step is Step.RETREATS:
            who = {d.power for d in st.dislodged}
        elif st.phase.step is Step.ADJUSTMENTS:
            who = {p for p, n in adjustment_counts(game.board(), st.units, st.owners).items() if n}
        else:
            who = {u.power for u in st.units}
        return [s for s in sides if s in who]

    def winners(self, st: Any) -> list[str]:
        return [st.winner] if st.winner else []

    def survivors(self, st: Any) -> set[str]:
        """With a unit or a supply centre of their own."""
        return {u.power for u in st.units} | set(st.owners.values())

    def check_results(self, raw: dict[str, Any], source: str) -> None:
        pass  # read as it is: the classic family's results file has no schema of its own yet

    def public_results(self, raw: dict[str, Any], sides: dict[str, str]) -> dict[str, Any]:
        rows = raw.get("results") or {}
        return {
            "sides": {
                key: {"name": name, "units": plain(rows.get(key) or [])} for key, name in sides.items() if key in rows
            },
            "next": {"turn": str(raw.get("next", ""))},
            "notes": plain(raw.get("notes") or []),
        }

    def private_results(self, raw: dict[str, Any], side: str) -> dict[str, Any] | None:
        return None  # a classic game's results are all public


MOONSHINE_LAYOUT: Layout = MoonshineLayout()
CLASSIC_LAYOUT: Layout = ClassicLayout()
