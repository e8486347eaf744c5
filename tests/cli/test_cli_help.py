"""Every command answers --help, and library errors never reach the user as a traceback."""

from __future__ import annotations

import click
from click.testing import CliRunner

from moonshine.cli import COMMANDS, main


def _all_commands() -> list[tuple[str, ...]]:
    out: list[tuple[str, ...]] = []
    ctx = click.Context(main)
    for name in main.list_commands(ctx):
        cmd = main.get_command(ctx, name)
        assert cmd is not None, name
        out.append((name,))
        if isinstance(cmd, click.Group):
            sub = click.Context(cmd)
            out.extend((name, s) for s in cmd.list_commands(sub))
    return out


def test_every_command_has_help() -> None:
    runner = CliRunner()
    commands = _all_commands()
    assert len(commands) >= len(COMMANDS)
    for path in commands:
        result = runner.invoke(main, [*path, "--help"])
        assert result.exit_code == 0, (path, result.output)
        assert "Usage:" in result.output
        cmd_help = result.output.split("Options:")[0]
        assert len(cmd_help.split()) > 4, f"{' '.join(path)} has no real help text"


def test_top_level_help_lists_commands() -> None:
    result = CliRunner().invoke(main, ["--help"])
    assert result.exit_code == 0
    for name in COMMANDS:
        assert name in result.output


def test_unknown_command_is_a_usage_error() -> None:
    result = CliRunner().invoke(main, ["frobnicate"])
    assert result.exit_code == 2
    assert "No such command" in result.output
