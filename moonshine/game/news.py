"""What the judge tells a turn's bulletin about the game itself, beside the results:
the turn ran early, a side went into civil disorder or lost its player, the players
voted a pause or an extension, a master paused the game or moved its deadline.

Each piece of news is a catalogue message (``moonshine.render.mailwords``: the
``news.*`` keys of ``moonshine.text.moving``) with its fields, kept by name in
``orders/TURN/news.yaml`` (the orders stay when a turn is rolled back, and so does
what happened during it; the judge sets again what an adjudication decides), and
worded in the bulletin's language when the reports are written. A field called
``side`` is a side's key (worded as its name in the reader's language), one called
``when``, ``since``, ``until`` or ``due`` an ISO time (a date), ``n`` and ``hours``
numbers."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import msgspec

from moonshine import yamlio
from moonshine.errors import StateError
from moonshine.game.directory import Game, atomic_write_text

FILE = "news.yaml"
TIMES = ("when", "since", "until", "due")
NUMBERS = ("n", "hours")


class News(msgspec.Struct, frozen=True):
    """One piece of news: its catalogue key and fields (text, as the file keeps them)."""

    key: str
    fields: dict[str, str] = msgspec.field(default_factory=dict)


def path_of(game: Game, turn: str) -> Path:
    return game.orders_dir(turn) / FILE


def load(game: Game, turn: str) -> dict[str, News]:
    """The turn's news by name, in the order they were told."""
    path = path_of(game, turn)
    if not path.is_file():
        return {}
    raw = yamlio.load(path, what="news of the turn") or {}
    if not isinstance(raw, dict):
        raise StateError(str(path), "", "expected a mapping: name -> {key, fields}")
    try:
        return {
            str(name): News(str(item["key"]), {str(k): str(v) for k, v in (item.get("fields") or {}).items()})
            for name, item in raw.items()
        }
    except (AttributeError, KeyError, TypeError):
        raise StateError(str(path), "", "expected a mapping: name -> {key, fields}") from None


def _save(game: Game, turn: str, items: dict[str, News]) -> None:
    head = "# What the judge tells this turn's bulletin about the game (moonshine run).\n"
    data = {name: {"key": n.key, "fields": dict(n.fields)} for name, n in items.items()}
    atomic_write_text(path_of(game, turn), head + yamlio.dump(data))


def put(game: Game, turn: str, name: str, key: str, /, **fields: object) -> bool:
    """Tell ``turn``'s bulletin ``key`` with ``fields`` under ``name`` (the same name
    again replaces it); whether the file changed."""
    items = load(game, turn)
    news = News(key, {k: v.isoformat() if isinstance(v, datetime) else str(v) for k, v in fields.items()})
    if items.get(name) == news:
        return False
    items[name] = news
    _save(game, turn, items)
    return True


def drop(game: Game, turn: str, name: str) -> bool:
    """Take ``name`` out of ``turn``'s news; whether it was there."""
    items = load(game, turn)
    if name not in items:
        return False
    del items[name]
    _save(game, turn, items)
    return True


def sentences(game: Game, turn: str, language: str) -> list[str]:
    """The turn's news, each a sentence in ``language``."""
    from moonshine.render import mailwords

    items = load(game, turn)
    if not items:
        return []
    names = game.sides(language)
    out = []
    for n in items.values():
        fields: dict[str, object] = {}
        for k, v in n.fields.items():
            if k == "side":
                fields[k] = names.get(v, v)
            elif k in TIMES:
                fields[k] = datetime.fromisoformat(v)
            elif k in NUMBERS and v.lstrip("-").isdigit():
                fields[k] = int(v)
            else:
                fields[k] = v
        out.append(mailwords.text(language, n.key, **fields))
    return out
