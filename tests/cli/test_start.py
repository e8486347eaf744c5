"""The console script, ``moonshine`` (moonshine/cli/__init__.py), as a player and the game
master meet it: ``check`` and ``adjudicate`` answer with their acknowledgement or
summary and exit 0, 1 for a rejected line or an error said in one ``Error:`` line,
never a traceback; the whole answer reaches a reader through a pipe, and a reader
that stops early costs no traceback; and a check loads none of the libraries a
player's acknowledgement never needs."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from repokit import ROOT

# The console script as installed: ``moonshine.cli.run`` with the script's name
SCRIPT = "import sys; sys.argv[0] = 'moonshine'; from moonshine.cli import run; run()"
# SCRIPT, printing a value when the process exits normally
AT_EXIT = "import atexit, sys; atexit.register(lambda: print({})); " + SCRIPT.removeprefix("import sys; ")

# (what the case shows, the arguments after "check", the exit status; GAME is the game directory)
CASES = [
    ("all accepted", ["orders/spring-1924/valley.txt"], 0),
    ("a rejected line", ["bad.txt"], 1),
    ("French", ["orders/spring-1924/valley.txt", "--language", "fr"], 0),
    ("the gang named", ["--gang=genna", "orders/spring-1924/genna.txt"], 0),
    ("an unknown gang", ["orders/spring-1924/valley.txt", "--gang", "nobody"], 1),
    ("a turn given", ["orders/spring-1924/valley.txt", "--turn", "spring-1924"], 0),
    ("a turn name that is none", ["orders/spring-1924/valley.txt", "--turn", "summer"], 1),
    ("a turn not in the game", ["orders/spring-1924/valley.txt", "--turn", "autumn-1930"], 1),
    ("no such file", ["orders/spring-1924/nobody.txt"], 1),
    ("binary data", ["binary.txt"], 1),
    ("the game elsewhere", ["GAME/orders/spring-1924/valley.txt", "--game", "GAME"], 0),
    ("not a game directory", ["orders/spring-1924/valley.txt", "--game", "empty"], 1),
    ("an unknown language", ["orders/spring-1924/valley.txt", "--language", "de"], 2),
    ("a file given as the game", ["orders/spring-1924/valley.txt", "--game", "game.yaml"], 2),
]


@pytest.fixture(scope="module")
def where(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("start")
    game = base / "game"
    game.mkdir()
    for name in ("game.yaml", ".moonshine-secret", "orders", "turns"):
        src = ROOT / name
        (shutil.copytree if src.is_dir() else shutil.copy2)(src, game / name)
    (game / "bad.txt").write_text("gang: valley\nH LOO - NOWHERE\nrecruit Q XYZ\n", encoding="utf-8")
    (game / "binary.txt").write_bytes(b"H LOO\x00\x01")
    (game / "empty").mkdir()
    return game


def _run(code: str, args: list[str], cwd: Path) -> tuple[int, str, str]:
    done = subprocess.run([sys.executable, "-c", code, *args], cwd=cwd, capture_output=True, text=True, check=False)
    return done.returncode, done.stdout, done.stderr


@pytest.mark.parametrize(("args", "status"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_check_answers_with_its_exit_status(where: Path, args: list[str], status: int) -> None:
    rc, out, err = _run(SCRIPT, ["check", *(a.replace("GAME", str(where)) for a in args)], where)
    assert rc == status, (out, err)
    assert "Traceback" not in err
    if status == 0:
        assert "All your orders are accepted." in out or "Tous vos ordres sont acceptés." in out, out
    elif status == 1:
        assert out or err.startswith("Error: ")
    else:
        assert err.startswith("Usage: moonshine check") and "Error: " in err


# (what the case shows, the runs in one copy of the game, each as the arguments after
# "adjudicate" and its exit status)
ADJUDICATIONS = [
    ("a turn", [(["spring-1924", "--no-commit"], 0)]),
    (
        "again, refused then forced",
        [(["spring-1924", "--no-commit"], 0), (["spring-1924"], 1), (["--force", "spring-1924"], 0)],
    ),
    ("the game named", [(["spring-1924", "--game=GAME", "--no-commit", "--force"], 0)]),
    ("no such turn", [(["summer-1924"], 1)]),
    (
        "not the latest turn",
        [(["spring-1924", "--no-commit"], 0), (["spring-1924", "--game", "GAME", "--no-commit"], 1)],
    ),
    ("not a game directory", [(["spring-1924", "--game", "empty"], 1)]),
    ("a classic game", [(["spring-1901", "--game", "classic", "--no-commit"], 0)]),
    ("a flag given twice", [(["spring-1924", "--force", "--force", "--no-commit"], 0)]),
    ("no turn", [([], 2)]),
    ("two turns", [(["spring-1924", "autumn-1924"], 2)]),
    ("a value for a flag", [(["spring-1924", "--force=yes"], 2)]),
]


def _copy(where: Path, dest: Path) -> Path:
    shutil.copytree(where, dest, ignore=shutil.ignore_patterns("classic"))
    made = _run(SCRIPT, ["new", "classic", "--variant", "classic", "--no-git"], dest)
    assert made[0] == 0, made[2]
    return dest


@pytest.mark.parametrize("runs", [c[1] for c in ADJUDICATIONS], ids=[c[0] for c in ADJUDICATIONS])
def test_adjudicate_answers_with_its_exit_status(
    where: Path, tmp_path: Path, runs: list[tuple[list[str], int]]
) -> None:
    game = _copy(where, tmp_path / "game")
    for args, status in runs:
        rc, out, err = _run(SCRIPT, ["adjudicate", *(a.replace("GAME", str(game)) for a in args)], game)
        assert rc == status, (args, out, err)
        assert "Traceback" not in err
        if status == 0:
            assert "Next turn: turns/" in out or "Next phase" in out or "next" in out.lower(), out
        elif status == 1:
            assert err.startswith("Error: ") and err.count("\n") == 1, err
        else:
            assert "Error: " in err, err  # click's usage error


# What a player's acknowledgement never needs: the report and picture libraries, the
# map graph, the catalogues' tools, the mail machinery and the standard library's
# modules no check uses (decimal is not among them: msgspec, which makes the value
# types, loads it).
HEAVY = (
    "jinja2",
    "PIL",
    "networkx",
    "babel",
    "css_inline",
    "markupsafe",
    "fractions",
    "difflib",
    "json",
    "subprocess",
    "socket",
    "email",
    "asyncio",
    "ssl",
    "logging",
)


def test_a_check_imports_nothing_heavy(where: Path) -> None:
    """(Once the cache holds the parsed map: filling it writes temporary files.)"""
    code = AT_EXIT.format("sorted(sys.modules)")
    _run(SCRIPT, ["check", "orders/spring-1924/valley.txt"], where)
    done = _run(code, ["check", "orders/spring-1924/valley.txt"], where)
    assert done[0] == 0 and "All your orders are accepted." in done[1]
    modules = {m.split(".")[0] for m in eval(done[1].rstrip().splitlines()[-1])}
    assert not modules & set(HEAVY)


def test_the_adjudication_imports_no_plugins_fractions_mail_or_graph_library(where: Path, tmp_path: Path) -> None:
    """The whole turn (orders with bribes read, reports and pictures written) loads
    neither Pillow's file-format plugins (the PNG is written from the picture's
    pixels) nor fractions (plain amounts like ``bribe LOG 6`` are read as whole
    cents), nor the mail machinery (asyncio, ssl) for the turn's deadline in
    game.yaml, nor networkx once the cache holds the map's distances from the station
    of an arrested unit sent elsewhere."""
    game = _copy(where, tmp_path / "game")
    assert "bribe" in (game / "orders" / "spring-1924" / "northside.txt").read_text(encoding="utf-8")
    code = AT_EXIT.format("sorted(sys.modules)")
    first = _copy(where, tmp_path / "first")
    assert _run(code, ["adjudicate", "spring-1924", "--no-commit"], first)[0] == 0  # fills the cache
    done = _run(code, ["adjudicate", "spring-1924", "--no-commit"], game)
    assert done[0] == 0 and "Next turn: turns/autumn-1924/state.yaml" in done[1]
    assert (game / "turns" / "spring-1924" / "reports" / "map.png").is_file()
    modules = set(eval(done[1].rstrip().splitlines()[-1]))
    unwanted = {"PIL.PngImagePlugin", "fractions", "moonshine.mail.outbox", "asyncio", "ssl", "xml", "networkx"}
    assert modules & unwanted == set()


def test_the_whole_answer_reaches_a_pipe_and_an_early_reader_costs_no_traceback(where: Path) -> None:
    args = ["check", "orders/spring-1924/valley.txt"]
    done = subprocess.run([sys.executable, "-c", SCRIPT, *args], cwd=where, capture_output=True, check=False)
    assert done.returncode == 0 and b"All your orders are accepted." in done.stdout
    assert done.stdout.endswith(b"how to check it)\n")  # to its last line
    # a reader that stops early (``| head -1``): no traceback, no hang
    shell = f'{sys.executable} -c "{SCRIPT}" {" ".join(args)} | head -1'
    piped = subprocess.run(shell, shell=True, cwd=where, capture_output=True, text=True, check=False)
    assert piped.stdout.count("\n") == 1 and "Traceback" not in piped.stderr
