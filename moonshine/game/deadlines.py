"""A turn's deadline written into ``game.yaml`` (``deadlines: {TURN: TIME}``), where
the inbox, ``status``, ``remind`` and the adjudication read it. The unattended
judge (``moonshine run``) writes each turn's deadline there from the schedule;
the game master may still write or change one by hand.

The edit changes one line (or adds one) and leaves every other line of the
file (comments, order, quoting) as the game master wrote it; a layout the line
edit does not know (flow style) gets the whole file written again."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime

import msgspec

from moonshine import yamlio
from moonshine.errors import MoonshineError
from moonshine.game.directory import Game, GameConfig, atomic_write_text, load_config_text, same_settings, save_config


def stamp(when: datetime) -> str:
    """How a deadline is written: ISO 8601 in UTC, to the second."""
    return when.astimezone(UTC).replace(microsecond=0).isoformat()


def write_deadline(game: Game, turn: str, when: datetime) -> None:
    """Set ``deadlines.TURN`` in game.yaml (the caller holds the game's lock, in a
    transaction)."""
    text = game.config_path.read_text(encoding="utf-8")
    cfg = game.config
    deadlines = dict(cfg.extra.get("deadlines") or {})
    deadlines[turn] = stamp(when)
    want = msgspec.structs.replace(cfg, extra={**cfg.extra, "deadlines": deadlines})
    edited = _edit(text, turn, stamp(when), want, str(game.config_path))
    if edited is None:
        save_config(game, want)
    else:
        atomic_write_text(game.config_path, edited)
    game._config = None


def clear_deadline(game: Game, turn: str) -> None:
    """Take ``deadlines.TURN`` out of game.yaml (a paused game's turn has none; the
    caller holds the game's lock, in a transaction)."""
    cfg = game.config
    deadlines = dict(cfg.extra.get("deadlines") or {})
    if deadlines.pop(turn, None) is None:
        return
    extra = {k: v for k, v in cfg.extra.items() if k != "deadlines"}
    if deadlines:
        extra["deadlines"] = deadlines
    save_config(game, msgspec.structs.replace(cfg, extra=extra))
    game._config = None


def _edit(text: str, turn: str, value: str, want: GameConfig, src: str) -> str | None:
    raw = yamlio.loads(text, src)
    lines = text.splitlines(keepends=True)
    if lines and not lines[-1].endswith("\n"):
        lines[-1] += "\n"
    quoted = json.dumps(value)
    section = raw.get("deadlines") if isinstance(raw, dict) else None
    if isinstance(section, yamlio.LineDict) and section:
        if turn in section:
            i = section.line_of(turn) - 1
            # (no "\s*" before "[^:#]+", which holds blanks too: the two traded them, one pass per blank)
            m = re.match(r"^([^:#]+:[ \t]*)(?:'[^']*'|\"[^\"]*\"|[^#\s]+)([ \t]+#.*)?(\r?\n)?$", lines[i])
            if m is None:
                return None
            lines[i] = m.group(1) + quoted + (m.group(2) or "") + "\n"
        else:
            first = section.line_of(next(iter(section))) - 1
            indent = lines[first][: len(lines[first]) - len(lines[first].lstrip())]
            last = max(section.lines.values()) - 1
            lines.insert(last + 1, f"{indent}{turn}: {quoted}\n")
    elif isinstance(raw, yamlio.LineDict) and "deadlines" in raw and section in (None, {}):
        i = raw.line_of("deadlines") - 1
        if not re.match(r"^deadlines:[ \t]*+(?:\{\}|null|~)?[ \t]*+(#.*)?\r?\n?$", lines[i]):  # (possessive: one pass)
            return None
        lines[i : i + 1] = ["deadlines:\n", f"  {turn}: {quoted}\n"]
    elif isinstance(raw, dict) and "deadlines" not in raw:
        lines += ["deadlines:\n", f"  {turn}: {quoted}\n"]
    else:
        return None
    out = "".join(lines)
    try:
        if not same_settings(load_config_text(out, src), want):
            return None
    except MoonshineError:
        return None
    return out
