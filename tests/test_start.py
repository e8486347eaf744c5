"""The console script's fast path for a plain ``moonshine check`` and a plain
``moonshine adjudicate`` (moonshine/start.py) gives exactly what the click command
line gives: the same acknowledgement or summary, the same files, the same error, the
same exit status; and it loads no click. Anything it does not parse goes to the
click command line."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from moonshine.journal import JOURNAL_DIR
from moonshine.start import plain_check, plain_command

ROOT = Path(__file__).resolve().parent.parent
FAST = "import sys; from moonshine.start import main; main()"
# FAST, printing a value when the command is done: a plain command ends its process at
# once, after the functions registered with atexit
AT_EXIT = "import atexit, sys; atexit.register(lambda: print({})); from moonshine.start import main; main()"
CLICK = "import sys; from moonshine.cli import main; main(prog_name='moonshine')"

# (what the case shows, the arguments after "check"; GAME is the game directory)
CASES = [
    ("all accepted", ["orders/spring-1924/valley.txt"]),
    ("a rejected line", ["bad.txt"]),
    ("French", ["orders/spring-1924/valley.txt", "--language", "fr"]),
    ("the gang named", ["--gang=genna", "orders/spring-1924/genna.txt"]),
    ("an unknown gang", ["orders/spring-1924/valley.txt", "--gang", "nobody"]),
    ("a turn given", ["orders/spring-1924/valley.txt", "--turn", "spring-1924"]),
    ("a turn name that is none", ["orders/spring-1924/valley.txt", "--turn", "summer"]),
    ("a turn not in the game", ["orders/spring-1924/valley.txt", "--turn", "autumn-1930"]),
    ("no such file", ["orders/spring-1924/nobody.txt"]),
    ("binary data", ["binary.txt"]),
    ("the game elsewhere", ["GAME/orders/spring-1924/valley.txt", "--game", "GAME"]),
    ("not a game directory", ["orders/spring-1924/valley.txt", "--game", "empty"]),
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


@pytest.mark.parametrize("args", [c[1] for c in CASES], ids=[c[0] for c in CASES])
def test_the_fast_check_answers_as_the_command_line_does(where: Path, args: list[str]) -> None:
    args = ["check", *(a.replace("GAME", str(where)) for a in args)]
    assert plain_check(args) is not None  # the case takes the fast path
    fast = _run(FAST, args, where)
    assert fast == _run(CLICK, args, where)
    assert fast[0] in (0, 1) and "Traceback" not in fast[2]
    assert fast[1] or fast[2].startswith("Error: ")


def test_the_fast_check_loads_no_click(where: Path) -> None:
    code = AT_EXIT.format("'click' in sys.modules")
    done = _run(code, ["check", "orders/spring-1924/valley.txt"], where)
    assert done[0] == 0 and "All your orders are accepted." in done[1]
    assert done[1].rstrip().endswith("False")


@pytest.mark.parametrize(
    "args",
    [
        [],
        ["--help"],
        ["adjudicate"],
        ["adjudicate", "spring-1924", "autumn-1924"],
        ["adjudicate", "spring-1924", "--force=yes"],
        ["adjudicate", "spring-1924", "--force", "--force"],
        ["adjudicate", "spring-1924", "--turn", "x"],
        ["adjudicate", "--help"],
        ["adjudicate", "spring-1924", "--game"],
        ["rollback", "spring-1924"],
        ["check"],
        ["check", "-h"],
        ["check", "--help", "x.txt"],
        ["check", "a.txt", "b.txt"],
        ["check", "a.txt", "--turn"],
        ["check", "a.txt", "--turn", "--gang", "x"],
        ["check", "a.txt", "--language", "de"],
        ["check", "a.txt", "--bogus", "x"],
        ["check", "a.txt", "--gang", "x", "--gang", "y"],
        ["check", "a.txt", "--game", "game.yaml"],  # click says a file is no game directory
    ],
)
def test_anything_else_goes_to_the_command_line(where: Path, args: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(where)
    assert plain_check(args) is None
    assert plain_command(args) is None


def test_a_game_with_an_interrupted_job_goes_to_the_command_line(tmp_path: Path) -> None:
    (tmp_path / JOURNAL_DIR).mkdir()  # the command line recovers it first
    assert plain_check(["check", "a.txt", "--game", str(tmp_path)]) is None
    assert plain_check(["check", "a.txt", "--game", str(tmp_path / "other")]) is not None


# (what the case shows, the runs in one copy of the game, each as the arguments after "adjudicate")
ADJUDICATIONS = [
    ("a turn", [["spring-1924", "--no-commit"]]),
    ("again, refused then forced", [["spring-1924", "--no-commit"], ["spring-1924"], ["--force", "spring-1924"]]),
    ("the game named", [["spring-1924", "--game=GAME", "--no-commit", "--force"]]),
    ("no such turn", [["summer-1924"]]),
    ("not the latest turn", [["spring-1924", "--no-commit"], ["spring-1924", "--game", "GAME", "--no-commit"]]),
    ("not a game directory", [["spring-1924", "--game", "empty"]]),
    ("a classic game", [["spring-1901", "--game", "classic", "--no-commit"]]),
]


def _copy(where: Path, dest: Path) -> Path:
    shutil.copytree(where, dest, ignore=shutil.ignore_patterns("classic"))
    made = subprocess.run(
        [sys.executable, "-c", CLICK, "new", "classic", "--variant", "classic", "--no-git"],
        cwd=dest,
        capture_output=True,
        text=True,
        check=False,
    )
    assert made.returncode == 0, made.stderr
    return dest


def _files(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("runs", [c[1] for c in ADJUDICATIONS], ids=[c[0] for c in ADJUDICATIONS])
def test_the_fast_adjudication_does_what_the_command_line_does(
    where: Path, tmp_path: Path, runs: list[list[str]]
) -> None:
    fast_game, click_game = _copy(where, tmp_path / "fast"), _copy(where, tmp_path / "click")
    for run in runs:
        answers = []
        for code, game in ((FAST, fast_game), (CLICK, click_game)):
            args = ["adjudicate", *(a.replace("GAME", str(game)) for a in run)]
            if code == FAST:
                assert plain_command(args) is not None  # the fast path takes it
            rc, out, err = _run(code, args, game)
            answers.append((rc, out.replace(str(game), "GAME"), err.replace(str(game), "GAME")))
        assert answers[0] == answers[1]
        assert "Traceback" not in answers[0][2]
        assert answers[0][0] == 0 or answers[0][2].startswith("Error: ")
    assert _files(fast_game) == _files(click_game)


def test_the_fast_adjudication_loads_no_click(where: Path, tmp_path: Path) -> None:
    game = _copy(where, tmp_path / "game")
    code = AT_EXIT.format("'click' in sys.modules")
    done = _run(code, ["adjudicate", "spring-1924", "--no-commit"], game)
    assert done[0] == 0 and "Next turn: turns/autumn-1924/state.yaml" in done[1]
    assert done[1].rstrip().endswith("False")


# What a player's acknowledgement never needs: the command line's library, the report
# and picture libraries, the map graph, the catalogues' tools, and the standard
# library's modules the check path was made to do without.
HEAVY = (
    "click",
    "jinja2",
    "PIL",
    "networkx",
    "babel",
    "css_inline",
    "markupsafe",
    "dataclasses",
    "inspect",
    "fractions",
    "decimal",
    "difflib",
    "json",
    "subprocess",
    "socket",
    "email",
    "tempfile",
    "hashlib",
    "copy",
)


def test_the_fast_check_imports_nothing_heavy(where: Path) -> None:
    """(Once the cache holds the parsed map and the compiled classes: filling it
    writes temporary files.)"""
    code = AT_EXIT.format("sorted(sys.modules)")
    _run(FAST, ["check", "orders/spring-1924/valley.txt"], where)
    done = _run(code, ["check", "orders/spring-1924/valley.txt"], where)
    assert done[0] == 0 and "All your orders are accepted." in done[1]
    modules = {m.split(".")[0] for m in eval(done[1].rstrip().splitlines()[-1])}
    assert not modules & set(HEAVY)


def test_the_adjudication_imports_no_logging_and_no_exact_fractions(where: Path, tmp_path: Path) -> None:
    """The whole turn (orders with bribes read, reports and pictures written) loads
    neither Pillow's file-format machinery nor the logging it brings (the map's pixels
    are read by the raw encoder alone) nor fractions and decimal (plain amounts like
    ``bribe LOG 6`` are read as whole cents), nor the mail machinery (asyncio, ssl) for
    the turn's deadline in game.yaml), nor networkx (and the logging it brings) once the
    cache holds the map's distances from the station of an arrested unit sent elsewhere."""
    game = _copy(where, tmp_path / "game")
    assert "bribe" in (game / "orders" / "spring-1924" / "northside.txt").read_text(encoding="utf-8")
    code = AT_EXIT.format("sorted(sys.modules)")
    first = _copy(where, tmp_path / "first")
    assert _run(code, ["adjudicate", "spring-1924", "--no-commit"], first)[0] == 0  # fills the cache
    done = _run(code, ["adjudicate", "spring-1924", "--no-commit"], game)
    assert done[0] == 0 and "Next turn: turns/autumn-1924/state.yaml" in done[1]
    assert (game / "turns" / "spring-1924" / "reports" / "map.png").is_file()
    modules = set(eval(done[1].rstrip().splitlines()[-1]))
    unwanted = {
        "logging",
        "PIL.ImageFile",
        "fractions",
        "decimal",
        "moonshine.mail",
        "asyncio",
        "ssl",
        "xml",
        "networkx",
    }
    assert modules & unwanted == set()


def test_a_plain_command_ends_at_once_yet_keeps_what_runs_at_exit(where: Path, tmp_path: Path) -> None:
    """A plain command ends its process without tearing it down, but what is due at
    exit still happens: the compiled record constructors are kept in the cache
    directory (for the next command), and the whole acknowledgement reaches the reader
    even through a pipe."""
    from moonshine import cache

    env = dict(os.environ, **{cache.ENV_VAR: str(tmp_path / "cache")})
    args = ["check", "orders/spring-1924/valley.txt"]
    done = subprocess.run([sys.executable, "-c", FAST, *args], cwd=where, env=env, capture_output=True, check=False)
    assert done.returncode == 0 and b"All your orders are accepted." in done.stdout
    assert done.stdout.endswith(b"how to check it)\n")  # to its last line
    kept = [p.name for p in (tmp_path / "cache").rglob("*") if p.is_file()]
    assert any(name.startswith("records") for name in kept), kept
    # a reader that stops early (``| head -1``): no traceback, no hang
    shell = f"{sys.executable} -c '{FAST}' {' '.join(args)} | head -1"
    piped = subprocess.run(shell, shell=True, cwd=where, env=env, capture_output=True, text=True, check=False)
    assert piped.stdout.count("\n") == 1 and "Traceback" not in piped.stderr
