"""`moonshine check FILE`: the acknowledgement on stdout; exit 0 when every line is
accepted, 1 otherwise; clean ``Error: ...`` messages for what cannot be read."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

from moonshine.cli import main
from moonshine.game.directory import Game
from moonshine.game.families import new_game
from moonshine.variants.moonshine.state import initial_state

GANGS = "outfit, valley, genna, northside, unione, southside, westside, ragen"


@pytest.fixture(scope="module")
def game_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("check") / "game"
    game = new_game(root, seed="check", use_git=False)
    game.save_state(initial_state(game.map))  # the scenario's position, no raid
    return root


def orders_file(game_dir: Path, name: str, content: str | bytes) -> Path:
    path = game_dir / "orders" / "spring-1924" / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    return path


def check(game_dir: Path, *args: str) -> Result:
    return CliRunner().invoke(main, ["check", *args, "--game", str(game_dir)])


def test_accepted_orders_exit_0(game_dir: Path) -> None:
    path = orders_file(game_dir, "valley.txt", "H LOO - NSS\nL KEN - FIV\nsell 3\n")
    result = check(game_dir, str(path))
    assert result.exit_code == 0, result.output
    assert result.output.startswith("Moonshine: orders for Spring 1924\nGang: Valley Gang (valley)\n")
    assert "  line   1  H LOO - NSS                        accepted" in result.output
    assert "All your orders are accepted." in result.output


def test_a_rejected_line_exits_1_without_a_traceback(game_dir: Path) -> None:
    path = orders_file(game_dir, "valley-bad.txt", "gang: valley\nH LOO - KEN\nH NSS - LIT\n")
    result = check(game_dir, str(path))
    assert result.exit_code == 1
    assert isinstance(result.exception, SystemExit)
    assert "  line   2  H LOO - KEN                        REJECTED" in result.output
    assert "  line   3  H NSS - LIT                        accepted" in result.output
    assert "Traceback" not in result.output


def test_gang_from_option_header_or_file_name(game_dir: Path) -> None:
    plain = orders_file(game_dir, "orders.txt", "H LIN - NOC\n")
    assert check(game_dir, str(plain), "--gang", "Chicago Outfit").exit_code == 0
    named = orders_file(game_dir, "outfit.txt", "H LIN - NOC\n")
    assert "Gang: Chicago Outfit (outfit)" in check(game_dir, str(named)).output
    header = orders_file(game_dir, "valley-header.txt", "gang: outfit\nH LIN - NOC\n")
    result = check(game_dir, str(header))
    assert result.exit_code == 0 and "Gang: Chicago Outfit (outfit)" in result.output
    clash = check(game_dir, str(header), "--gang", "valley")
    assert clash.exit_code == 1
    assert "the file says gang: outfit, but these orders are read for valley" in clash.output


def test_no_gang_anywhere(game_dir: Path) -> None:
    path = orders_file(game_dir, "mine.txt", "H LOO - NSS\n")
    result = check(game_dir, str(path))
    assert result.exit_code == 1
    assert "  - no gang: add a line 'gang: NAME' (gangs: outfit, valley, genna," in result.output


def test_in_french(game_dir: Path) -> None:
    path = orders_file(game_dir, "valley-fr.txt", "bande : Valley Gang\nhomme de main LOO va vers NSS\nL KEN hold\n")
    result = check(game_dir, str(path), "--language", "fr")
    assert result.exit_code == 0
    assert "  ligne   2  H LOO - NSS                        accepté" in result.output
    assert "  ligne   3  L KEN tient                        accepté" in result.output  # French notation


def test_older_turn(game_dir: Path) -> None:
    path = orders_file(game_dir, "valley-turn.txt", "H LOO - NSS\n")
    assert check(game_dir, str(path), "--turn", "Spring-1924").exit_code == 0


def test_windows_1252_file_is_read(game_dir: Path) -> None:
    path = orders_file(game_dir, "valley-1252.txt", "H LOO \u2013 NSS # café\n".encode("cp1252"))
    result = check(game_dir, str(path))
    assert result.exit_code == 0, result.output


# -- clean errors ------------------------------------------------------------------------------


def test_missing_file(game_dir: Path) -> None:
    path = game_dir / "nope.txt"
    result = check(game_dir, str(path))
    assert result.exit_code == 1
    assert result.output == f"Error: {path}: cannot read (No such file or directory)\n"


def test_directory(game_dir: Path) -> None:
    result = check(game_dir, str(game_dir))
    assert result.exit_code == 1
    assert result.output == f"Error: {game_dir}: is a directory, not an orders file\n"


def test_binary_file(game_dir: Path) -> None:
    path = orders_file(game_dir, "valley.png", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    result = check(game_dir, str(path))
    assert result.exit_code == 1
    assert result.output == f"Error: {path}: not a text file (binary data at byte 8)\n"


def test_undecodable_file(game_dir: Path) -> None:
    path = orders_file(game_dir, "valley.bin", b"H LOO\x81\x02")
    result = check(game_dir, str(path))
    assert result.exit_code == 1
    assert result.output == f"Error: {path}: not a text file (invalid UTF-8 at byte 5)\n"


def test_missing_game(game_dir: Path, tmp_path: Path) -> None:
    path = orders_file(game_dir, "valley-ok.txt", "H LOO - NSS\n")
    result = CliRunner().invoke(main, ["check", str(path), "--game", str(tmp_path)])
    assert result.exit_code == 1
    assert result.output == (
        f"Error: {tmp_path}/game.yaml: not a game directory (no game.yaml); create one with 'moonshine new DIR'\n"
    )


def test_unknown_gang(game_dir: Path) -> None:
    path = orders_file(game_dir, "valley-ok.txt", "H LOO - NSS\n")
    result = check(game_dir, str(path), "--gang", "zorro")
    assert result.exit_code == 1
    assert result.output == f"Error: no gang 'zorro' (gangs: {GANGS})\n"


def test_bad_turn_name(game_dir: Path) -> None:
    path = orders_file(game_dir, "valley-ok.txt", "H LOO - NSS\n")
    result = check(game_dir, str(path), "--turn", "summer")
    assert result.exit_code == 1
    assert result.output == "Error: not a turn name: 'summer' (expected e.g. spring-1924 or autumn-1925)\n"


def test_turn_not_in_game(game_dir: Path) -> None:
    path = orders_file(game_dir, "valley-ok.txt", "H LOO - NSS\n")
    result = check(game_dir, str(path), "--turn", "autumn-1930")
    assert result.exit_code == 1
    assert result.output == (
        f"Error: {game_dir}/turns/autumn-1930/state.yaml: no state for autumn-1930 (turns in this game: spring-1924)\n"
    )


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(hs.binary(max_size=400))
def test_any_bytes_give_an_acknowledgement_or_a_clean_error(game_dir: Path, data: bytes) -> None:
    path = orders_file(game_dir, "valley-fuzz.txt", data)
    result = check(game_dir, str(path))
    assert result.exit_code in (0, 1)
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert result.output.startswith(
        (
            "Moonshine: orders for Spring 1924\n",
            f"Error: {path}: not a text file",
            f"Error: {path}: not orders this game can read as JSON",  # bytes that open with {
        )
    )


def test_check_starts_without_loading_the_order_modules() -> None:
    """The CLI imports a command only when it runs (fast start for every command)."""
    code = "import sys, moonshine.cli; print(sorted(m for m in sys.modules if m.startswith('moonshine')))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert (
        "moonshine.variants.moonshine.parser" not in out
        and "moonshine.variants.moonshine.checker" not in out
        and "moonshine.render.ack" not in out
    )


def test_game_state_is_not_touched(game_dir: Path) -> None:
    before = (game_dir / "turns" / "spring-1924" / "state.yaml").read_bytes()
    path = orders_file(game_dir, "valley-ok.txt", "H LOO - NSS\nrecruit H KEN\n")
    check(game_dir, str(path))
    assert (game_dir / "turns" / "spring-1924" / "state.yaml").read_bytes() == before
    assert Game(game_dir).current_turn() == "spring-1924"
