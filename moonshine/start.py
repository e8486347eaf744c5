"""The console script ``moonshine``. A plain ``moonshine check FILE`` (the command a
player's acknowledgement comes from, run far more often than any other) and a plain
``moonshine adjudicate TURN`` are run here without loading click: their arguments
are few and simple. Anything else (help, another command, an option this parser
does not know, a missing value, a game with an interrupted job to recover) goes to
the click command line, ``moonshine.cli``, which gives the same output for them."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import NoReturn

# command -> (its one argument, the options taking a value, the flags)
_PLAIN: dict[str, tuple[str, tuple[str, ...], tuple[str, ...]]] = {
    "check": ("FILE", ("--game", "--turn", "--gang", "--language"), ()),
    "adjudicate": ("TURN", ("--game",), ("--force", "--no-commit")),
}


def plain_command(args: list[str]) -> tuple[str, dict[str, str]] | None:
    """The command and its argument and options when ``args`` are one of the plain
    commands: ``check FILE [--game DIR] [--turn T] [--gang G] [--language en|fr]`` or
    ``adjudicate TURN [--game DIR] [--force] [--no-commit]`` (each option at most
    once, ``--opt value`` or ``--opt=value``, in any order); None for anything else."""
    if not args or args[0] not in _PLAIN:
        return None
    command = args[0]
    argument, valued, flags = _PLAIN[command]
    found: dict[str, str] = {}
    rest = args[1:]
    i = 0
    while i < len(rest):
        arg = rest[i]
        if arg.startswith("-"):
            name, eq, value = arg.partition("=")
            if name in found or name not in valued + flags:
                return None
            if name in flags:
                if eq:
                    return None
                value = ""
            elif not eq:
                if i + 1 >= len(rest) or rest[i + 1].startswith("-"):
                    return None
                i += 1
                value = rest[i]
            found[name] = value
        elif argument in found:
            return None
        else:
            found[argument] = arg
        i += 1
    if argument not in found:
        return None
    if "--language" in found:
        from moonshine.text import languages

        if found["--language"] not in languages():
            return None
    game = found.get("--game", ".")
    if not game or os.path.isfile(game) or os.path.exists(os.path.join(game, ".moonshine-journal")):
        return None  # click's own message for a file given as the game; the CLI recovers a killed job
    return command, found


def plain_check(args: list[str]) -> dict[str, str] | None:
    """The file and options of a plain ``check`` (``plain_command``), else None."""
    plain = plain_command(args)
    return plain[1] if plain is not None and plain[0] == "check" else None


def _echo(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def _run(command: str, found: dict[str, str]) -> int:
    import gc

    from moonshine import GC_THRESHOLDS
    from moonshine.errors import MoonshineError

    gc.set_threshold(*GC_THRESHOLDS)  # as moonshine.cli does for every command
    game = Path(found.get("--game", "."))
    try:
        if command == "adjudicate":
            from moonshine.adjudicating import adjudicate

            adjudicate(found["TURN"], game, force="--force" in found, commit="--no-commit" not in found, echo=_echo)
            return 0
        from moonshine.checking import acknowledge

        ack, ok = acknowledge(
            Path(found["FILE"]), game, found.get("--turn"), found.get("--gang"), found.get("--language")
        )
        sys.stdout.write(ack)
        sys.stdout.flush()
        return 0 if ok else 1
    except MoonshineError as exc:
        sys.stdout.flush()
        sys.stderr.write(f"Error: {exc}\n")
        return 1
    except KeyboardInterrupt:  # as click says it
        sys.stderr.write("\nAborted!\n")
        return 1


def _end(code: int) -> NoReturn:
    """End the process now, as ``sys.exit(code)`` would but without tearing down its
    objects one by one (the modules, the map, the turn: some 30,000 objects, 50 ms
    of a 300 ms ``adjudicate``); the system frees the memory in one go. Everything
    the command wrote is already closed (files are written atomically, each closed
    before it is renamed); what remains is flushed here: standard output and error,
    after the functions registered to run at exit (``atexit``, which also runs
    ``weakref.finalize``'s) have run."""
    import atexit

    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a reader gone (``| head``), or a closed stream
            code = code or 1
    os._exit(code)


def main() -> None:
    """The console script. A plain command ends the process when it is done (``_end``):
    call ``main`` only as a process's entry point."""
    plain = plain_command(sys.argv[1:])
    if plain is not None:
        _end(_run(*plain))
    from moonshine.cli import main as cli_main

    cli_main()
