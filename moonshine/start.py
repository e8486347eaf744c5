"""The console script ``moonshine``. A plain ``moonshine check FILE`` (the command a
player's acknowledgement comes from, run far more often than any other) is run
here without loading click: its arguments are few and simple. Anything else (help,
another command, an option this parser does not know, a missing value, a game with
an interrupted job to recover) goes to the click command line, ``moonshine.cli``,
which gives the same output for a plain check."""

from __future__ import annotations

import os
import sys
from pathlib import Path

_CHECK_OPTIONS = ("--game", "--turn", "--gang", "--language")
_LANGUAGES = ("en", "fr")


def plain_check(args: list[str]) -> dict[str, str] | None:
    """The file and options of ``check FILE [--game DIR] [--turn T] [--gang G]
    [--language en|fr]`` (each option at most once, ``--opt value`` or
    ``--opt=value``, in any order); None for anything else."""
    if not args or args[0] != "check":
        return None
    found: dict[str, str] = {}
    rest = args[1:]
    i = 0
    while i < len(rest):
        arg = rest[i]
        if arg.startswith("-"):
            name, eq, value = arg.partition("=")
            if name not in _CHECK_OPTIONS or name in found:
                return None
            if not eq:
                if i + 1 >= len(rest) or rest[i + 1].startswith("-"):
                    return None
                i += 1
                value = rest[i]
            found[name] = value
        elif "FILE" in found:
            return None
        else:
            found["FILE"] = arg
        i += 1
    if "FILE" not in found or found.get("--language", "en") not in _LANGUAGES:
        return None
    game = found.get("--game", ".")
    if not game or os.path.isfile(game) or os.path.exists(os.path.join(game, ".moonshine-journal")):
        return None  # click's own message for a file given as the game; the CLI recovers a killed job
    return found


def _run_check(found: dict[str, str]) -> int:
    import gc

    from moonshine.checking import acknowledge
    from moonshine.errors import MoonshineError

    gc.set_threshold(50_000, 20, 10)  # as moonshine.cli does for every command
    try:
        ack, ok = acknowledge(
            Path(found["FILE"]),
            Path(found.get("--game", ".")),
            found.get("--turn"),
            found.get("--gang"),
            found.get("--language"),
        )
    except MoonshineError as exc:
        sys.stdout.flush()
        sys.stderr.write(f"Error: {exc}\n")
        return 1
    sys.stdout.write(ack)
    sys.stdout.flush()
    return 0 if ok else 1


def main() -> None:
    found = plain_check(sys.argv[1:])
    if found is not None:
        sys.exit(_run_check(found))
    from moonshine.cli import main as cli_main

    cli_main()
