"""Strict shapes of the game's files: every required key present and of its type,
no unknown key (a typo is named, with the key it was probably meant to be).
Errors name the file, the line and the key (``moonshine.yamlio`` keeps the lines).

A schema says what a file may hold; the readers
(``moonshine.variants.moonshine.state.from_data``, ``moonshine.game.directory.load_config``,
...) then check what the values mean (districts, gangs).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date, datetime
from typing import Any

from moonshine.errors import StateError
from moonshine.yamlio import line_of, where


def _show(v: Any) -> str:
    if isinstance(v, Mapping):
        return "dict"
    if isinstance(v, list):
        return "list"
    text = repr(v)
    return text if len(text) <= 60 else text[:57] + "..."


# A classic game's rule options under rules: (moonshine.variants.classic.rulebooks.OPTIONS;
# a test keeps the two lists equal).
CLASSIC_RULE_OPTIONS = (
    "civil_disorder",
    "convoy_intent",
    "convoy_fallback",
    "convoyed_attacker_origin",
    "convoy_paradox",
)


class Spec:
    """What a value of a game file must be: ``check`` raises a StateError naming the
    file, line and key of a value that is not. (Validators, not records: plain classes.)"""

    what = "a value"

    def check(self, v: Any, source: str, key: str, line: int) -> None:
        if not self.ok(v):
            raise StateError(where(source, line), key, f"expected {self.what}, found {_show(v)}")

    def ok(self, v: Any) -> bool:
        return True


class Str(Spec):
    def __init__(self, nonempty: bool = False, what: str = "text") -> None:
        self.nonempty, self.what = nonempty, what

    def ok(self, v: Any) -> bool:
        return isinstance(v, str) and (bool(v.strip()) or not self.nonempty)


class Int(Spec):
    def __init__(self, minimum: int | None = None, what: str = "a whole number") -> None:
        self.minimum, self.what = minimum, what

    def ok(self, v: Any) -> bool:
        return isinstance(v, int) and not isinstance(v, bool) and (self.minimum is None or v >= self.minimum)


class Num(Spec):
    what = "a number"

    def ok(self, v: Any) -> bool:
        return isinstance(v, int | float) and not isinstance(v, bool)


class Bool(Spec):
    what = "true or false"

    def ok(self, v: Any) -> bool:
        return isinstance(v, bool)


class Money(Spec):
    what = "an amount of dollars (e.g. 12 or 12.50)"

    def ok(self, v: Any) -> bool:
        return (isinstance(v, int | float) and not isinstance(v, bool)) or isinstance(v, str)


class When(Spec):
    what = "a date and time like 2024-03-01T18:00:00+00:00"

    def ok(self, v: Any) -> bool:
        return isinstance(v, datetime | date | str)


class Enum(Spec):
    def __init__(self, values: tuple[Any, ...] = ()) -> None:
        self.values = values
        self.what = "one of " + ", ".join(str(x) for x in values)

    def ok(self, v: Any) -> bool:
        return any(v == x and type(v) is type(x) for x in self.values)


class Null(Spec):
    """``inner``, or nothing (``null`` in the file)."""

    def __init__(self, inner: Spec) -> None:
        self.inner = inner

    def check(self, v: Any, source: str, key: str, line: int) -> None:
        if v is not None:
            self.inner.check(v, source, key, line)


class Either(Spec):
    def __init__(self, options: tuple[Spec, ...], what: str = "a value") -> None:
        self.options, self.what = options, what

    def check(self, v: Any, source: str, key: str, line: int) -> None:
        errors = []
        for spec in self.options:
            try:
                spec.check(v, source, key, line)
                return
            except StateError as exc:
                errors.append(exc)
        raise StateError(where(source, line), key, f"expected {self.what}, found {_show(v)}")


class ListOf(Spec):
    def __init__(self, item: Spec, what: str = "a list") -> None:
        self.item, self.what = item, what

    def check(self, v: Any, source: str, key: str, line: int) -> None:
        if not isinstance(v, list):
            raise StateError(where(source, line), key, f"expected {self.what}, found {_show(v)}")
        for i, x in enumerate(v):
            self.item.check(x, source, f"{key}[{i}]", line_of(x) or line)


class MapOf(Spec):
    def __init__(self, value: Spec, key_spec: Spec | None = None, what: str = "a mapping") -> None:
        self.value, self.key_spec, self.what = value, key_spec or Str(nonempty=True), what

    def check(self, v: Any, source: str, key: str, line: int) -> None:
        if not isinstance(v, Mapping):
            raise StateError(where(source, line), key, f"expected {self.what}, found {_show(v)}")
        for k, x in v.items():
            sub = f"{key}.{k}" if key else str(k)
            kline = line_of(v, k) or line
            self.key_spec.check(k, source, sub, kline)
            self.value.check(x, source, sub, kline)


class Rec(Spec):
    """A mapping with known keys: ``required`` ones must be there, ``optional``
    ones may; any other key is an error."""

    def __init__(
        self,
        required: Mapping[str, Spec] | None = None,
        optional: Mapping[str, Spec] | None = None,
        what: str = "a mapping",
    ) -> None:
        self.required, self.optional, self.what = required or {}, optional or {}, what

    def check(self, v: Any, source: str, key: str, line: int) -> None:
        if not isinstance(v, Mapping):
            raise StateError(where(source, line), key, f"expected {self.what}, found {_show(v)}")
        known = {**self.required, **self.optional}
        for k in v:
            if k not in known:
                sub = f"{key}.{k}" if key else str(k)
                import difflib

                near = difflib.get_close_matches(str(k), [str(x) for x in known], n=1)
                hint = f" (did you mean '{near[0]}'?)" if near else f" (expected: {', '.join(known)})"
                raise StateError(where(source, line_of(v, k) or line), sub, f"unknown key{hint}")
        for k, x in v.items():
            sub = f"{key}.{k}" if key else str(k)
            known[k].check(x, source, sub, line_of(v, k) or line)
        for k in self.required:
            sub = f"{key}.{k}" if key else k
            if k not in v:
                raise StateError(where(source, line_of(v) or line), sub, "missing")


class MessageSpec(Spec):
    """A message as ``moonshine.text.catalogue.message_data`` writes it."""

    what = "a message"

    def check(self, v: Any, source: str, key: str, line: int) -> None:
        from moonshine.text import catalogue

        try:
            catalogue.message_from_data(v)
        except ValueError as exc:
            raise StateError(where(source, line), key, str(exc)) from None


_MESSAGE = MessageSpec()


def check(raw: Any, spec: Spec, source: str) -> None:
    """Raise StateError (file:line: key: problem) when ``raw`` does not fit."""
    if raw is None:
        raise StateError(source, "", "the file is empty")
    spec.check(raw, source, "", line_of(raw) or 1)


def sub_keys(spec: Rec) -> Sequence[str]:
    return [*spec.required, *spec.optional]


# -- the game's files -------------------------------------------------------------------

# the keys of moonshine.game.schedule.KEYS (a test checks they agree)
SCHEDULE_KEYS = ("timezone", "deadlines", "every", "min_gap", "grace", "reminders", "overrides", "absence")


class Address(Spec):
    """An email address, bare (``ann@example.org``): one ``@`` with something on each
    side and a dot in the domain, no space, no angle brackets or commas (a display name
    belongs in ``name``)."""

    what = "an email address such as ann@example.org"

    def ok(self, v: Any) -> bool:
        import re

        return isinstance(v, str) and re.fullmatch(r"[^@\s<>,;\"]+@[^@\s<>,;\"]+\.[^@\s<>,;\"]+", v.strip()) is not None


_ADDRESSES = Either((Address(), ListOf(Address())), what="an address or a list of addresses")

GAME = Rec(
    required={"map": Str(nonempty=True)},
    optional={
        "title": Str(),
        "language": Str(),
        "seed_sha256": Null(Str()),
        "variant": Str(),
        "players": Null(
            MapOf(
                Null(
                    Rec(
                        optional={
                            "name": Null(Str()),
                            "email": Null(_ADDRESSES),
                            "password": Null(Str()),
                            "timezone": Null(Str()),
                            "language": Null(Str()),
                        },
                        what="a mapping with name, email, password, timezone, language",
                    )
                ),
                what="a mapping from gang key to player",
            )
        ),
        "smtp": Null(
            Rec(
                optional=dict.fromkeys(
                    (
                        "host",
                        "port",
                        "security",
                        "from",
                        "user",
                        "password_env",
                        "password",
                        "auth",
                        "token_command",
                        "ca_file",
                        "timeout",
                        "attempts",
                        "retry_delay",
                    ),
                    Spec(),
                )  # their values are checked by moonshine.mail.settings, which names the key
            )
        ),
        "rules": Null(
            Rec(
                optional={
                    "victory_vp": Int(),
                    "minimum_bribe": Money(),
                    # a classic game's rule options: their values are checked by
                    # moonshine.variants.classic.rulebooks, which names the key and the values
                    "preset": Either((Str(nonempty=True), Int()), what="a preset's name"),
                    **dict.fromkeys(CLASSIC_RULE_OPTIONS, Str(nonempty=True)),
                },
                what=(
                    "a mapping: victory_vp, minimum_bribe (a Moonshine game's house rules) or preset and "
                    "rule options (a classic game's)"
                ),
            )
        ),
        "deadlines": Null(MapOf(When())),
        # their values are checked by moonshine.game.schedule, which names the key
        "schedule": Null(Rec(optional=dict.fromkeys(SCHEDULE_KEYS, Spec()))),
        "inbox": Null(
            Rec(
                optional={
                    "max_message_bytes": Int(),
                    "source": Str(nonempty=True),
                    "authserv_id": Str(nonempty=True),  # moonshine.mail.envelope.forged_verdict
                    "imap": Null(
                        Rec(
                            optional=dict.fromkeys(
                                (
                                    "password_env",
                                    "password_file",
                                    "auth",
                                    "token_command",
                                    "done_folder",
                                    "ca_file",
                                    "timeout",
                                ),
                                Spec(),
                            )  # their values are checked by moonshine.mail.settings, which names the key
                        )
                    ),
                }
            )
        ),
        "referee": Null(Rec(optional={"name": Null(Str()), "email": Null(_ADDRESSES)})),
        "observers": Null(_ADDRESSES),  # moonshine.mail.observers
        # the game's name at the judge for many games that plays it (moonshine.mail.outbox.compose.game_name)
        "judge": Null(Rec(required={"name": Str(nonempty=True)}, what="a mapping with name (the game's name)")),
        # seeds replaced during the game, with the last turn each drew (moonshine.game.seeds)
        "earlier_seeds": Null(
            ListOf(
                Rec(
                    required=dict.fromkeys(("seed", "sha256", "last_turn", "replaced", "reason"), Str(nonempty=True)),
                    what="a mapping with seed, sha256, last_turn, replaced, reason",
                )
            )
        ),
        # keeping the game moving: their values are checked by moonshine.mail.policy, which names the key
        "early": Null(Spec()),
        "nmr": Null(Spec()),
        "max_pause": Null(Spec()),
        "master_pause_max": Null(Spec()),
        # who plays which side, hidden from the other players (moonshine.game.identities)
        "anonymous": Null(Bool()),
        "reveal_identities": Null(Enum(("at-end", "never"))),
        "identities_revealed": Null(When()),
        "press": Null(  # moonshine.mail.commands.press
            Rec(
                optional={
                    "kind": Enum(("none", "public", "white", "grey")),
                    "retreats": Bool(),
                    "after_deadline": Bool(),
                },
                what="a mapping with kind (none, public, white, grey), retreats, after_deadline",
            )
        ),
    },
)

_RAID = Rec(
    required={
        "district": Str(),
        "by": Str(),
        "station": Str(),
        "controller": Null(Str()),
        "spared": Bool(),
        "crates": Int(minimum=0),
        "arrested": ListOf(Str()),
        "spared_units": ListOf(Str()),
        "speakeasy_closed": Bool(),
        "draw": Str(),
    }
)

STATE = Rec(
    required={
        "version": Int(minimum=1),
        "turn": Str(nonempty=True),
        "price": Money(),
        "cash": MapOf(Money()),
        "units": MapOf(ListOf(Str())),
        "control": MapOf(Str()),
        "stocks": MapOf(Int(minimum=0, what="a number of crates")),
        "corruption": MapOf(Str()),
        "confiscated": MapOf(Int(minimum=0, what="a number of crates")),
        "assaulted": MapOf(ListOf(Str())),
        "arrested": ListOf(
            Rec(
                required={"gang": Str(), "unit": Str(), "station": Str(), "taken_in": Str()},
                optional={"recruited": Str()},
            )
        ),
        "raid": Null(_RAID),
        "sold": MapOf(Int(minimum=0, what="a number of crates")),
        "winners": ListOf(Str()),
    }
)

# what the referee made of an orders line (moonshine.variants.moonshine.checker.STATUSES), and of a unit's order
LINE_STATUSES = ("accepted", "rejected", "replaced", "comment", "header", "blank")
UNIT_RESULTS = ("succeeded", "failed")
_LINE = Rec(
    required={
        "line": Int(),
        "text": Str(),
        "status": Enum(LINE_STATUSES),
        "understood": Str(),
        "message": Str(),
    },
    # reason: the message as a value, in any language; message_fr: written by earlier versions
    optional={"message_fr": Str(), "reason": _MESSAGE},
)
_LEDGER = Rec(
    required={
        "crates": Rec(
            required={
                k: Int()
                for k in (
                    "before_raid",
                    "seized",
                    "at_start",
                    "captured",
                    "produced",
                    "looted",
                    "held",
                    "capacity",
                    "sold",
                    "lost",
                )
            }
            | {"captured_from": Spec(), "stored": MapOf(Int())}
        ),
        "dollars": Rec(required={k: Money() for k in ("start", "upkeep", "recruits", "bribes", "revenue", "end")}),
        "notes": ListOf(Either((Str(), _MESSAGE), "text or a message")),
        "balanced": Bool(),
    }
)


class OutcomeSpec(Spec):
    """An order's outcome as ``moonshine.engine.outcome.to_data`` writes it."""

    what = "an outcome"

    def check(self, v: Any, source: str, key: str, line: int) -> None:
        from moonshine.engine import outcome

        try:
            outcome.from_data(v)
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            raise StateError(where(source, line), key, f"expected an outcome: {exc}") from None


_OUTCOME = OutcomeSpec()
_GANG_RESULTS = Rec(
    required={
        "orders_file": Null(Str()),
        "lines": ListOf(_LINE),
        # reason: the outcome in English, for a person reading the file; the reports read
        # the outcome (moonshine.engine.outcome.to_data), which files of earlier versions lack
        "units": ListOf(
            Rec(
                required={"unit": Str(), "order": Str(), "result": Enum(UNIT_RESULTS), "reason": Str()},
                optional={"outcome": _OUTCOME},
            )
        ),
        "dislodged": ListOf(
            Rec(
                required={
                    "unit": Str(),
                    "by": Spec(),
                    "retreated_to": Null(Str()),
                    "disbanded": Bool(),
                    "reason": Str(),
                },
                optional={"outcome": _OUTCOME},
            )
        ),
        # message: the reason as a value (reports write it in the reader's language); reason: its English
        "adjustments": ListOf(
            Rec(required={"kind": Str(), "order": Str(), "reason": Str()}, optional={"message": _MESSAGE})
        ),
        "bids": ListOf(
            Rec(
                required={"station": Str(), "paid": Money(), "won": Bool(), "reason": Str()},
                optional={"message": _MESSAGE},
            )
        ),
        "ledger": _LEDGER,
        "vp": Int(),
    }
)
RESULTS = Rec(
    required={
        "version": Int(minimum=1),
        "turn": Str(nonempty=True),
        "price": Money(),
        "raid": Null(_RAID),
        "gangs": MapOf(_GANG_RESULTS),
        "assaults": ListOf(
            Rec(
                required={
                    "gang": Str(),
                    "unit": Str(),
                    "station": Str(),
                    "strength": Int(),
                    "needed": Int(),
                    "succeeded": Bool(),
                    "reason": Str(),
                },
                optional={"outcome": _OUTCOME},
            )
        ),
        "corruption": MapOf(Str()),
        "vp": MapOf(Int()),
        "winners": ListOf(Str()),
        "sold": Int(minimum=0),
        "next": Rec(
            required={
                "turn": Str(nonempty=True),
                "price": Money(),
                "price_reason": Str(),
                "returns": ListOf(
                    Either((Str(), Rec(required={"gang": Str(), "message": _MESSAGE})), "text or a gang and a message")
                ),
                "raid": Null(_RAID),
            },
            optional={"price_message": _MESSAGE},
        ),
    }
)

# outbox/TURN/sent.yaml: Message-ID -> what became of it
SENT = MapOf(
    Rec(
        required={"file": Str(nonempty=True)},
        optional={
            "delivered": Null(ListOf(Str())),
            "failed": Null(MapOf(Str())),
            "unknown": Null(MapOf(Str())),
            "sending": Null(ListOf(Str())),
            # a transient failure, tried again by later passes of the judge (moonshine.game.ledger.Deferral)
            "deferred": Null(MapOf(Rec(required={"reason": Str(), "tries": Int(), "first": When(), "next": When()}))),
            "at": Spec(),  # written by earlier versions
        },
    ),
    key_spec=Str(nonempty=True),
)

# orders/TURN/inbox.yaml (moonshine.mail.inbox)
_SUBMISSION = Rec(
    required={"message_id": Str(), "outcome": Str()},
    optional={
        "digest": Null(Str()),
        "source_key": Null(Str()),  # moonshine.mail.sources.Entry.key
        "checked": Null(Bool()),
        "from": Null(Str()),
        "gang": Null(Str()),
        "about": Null(Str()),
        "received": Null(When()),
        "processed": Null(When()),
        "refusal": Null(Str()),
        "reason": Null(Str()),
        "reply": Null(Str()),
        "taken_by": Null(Str()),
    },
)
INBOX = Rec(
    optional={
        "current": Null(
            MapOf(
                Rec(
                    required={"received": When()},
                    optional={
                        "message_id": Null(Str()),
                        "from": Null(Str()),
                        "history": Null(Str()),
                        "accepted": Null(Int()),
                        "rejected": Null(Int()),
                    },
                )
            )
        ),
        "submissions": Null(ListOf(_SUBMISSION)),
    }
)
