"""Damaged game files: every game file truncated at every line, with a byte that
is not UTF-8, with each key deleted and each value of the wrong type. Never a
traceback; never a silent load of a damaged state or results file; errors name
the file (and the line and key where there is one)."""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner
from crashkit import sample_game

from moonshine import yamlio
from moonshine.cli import main
from moonshine.errors import MoonshineError
from moonshine.game import ledger
from moonshine.game.directory import Game
from moonshine.mail.inbox.turnlog import load_log
from moonshine.variants.moonshine.results import load_results

TURN = "spring-1924"
NEXT = "autumn-1924"

INBOX = """\
# Orders received by mail for this turn (moonshine inbox). 'current' is what stands.
current:
  outfit:
    received: '2024-02-28T10:00:00+00:00'
    message_id: <a@x>
    from: outfit@players.example.org
    history: orders/spring-1924/history/outfit-1.txt
    accepted: 5
    rejected: 0
submissions:
- message_id: <a@x>
  from: outfit@players.example.org
  gang: outfit
  received: '2024-02-28T10:00:00+00:00'
  processed: '2024-02-28T10:05:00+00:00'
  outcome: accepted
  reason: 5 accepted
  reply: reply-1.eml
"""
SENT = """\
# Mail delivered for this turn, by Message-ID. Sending again skips these recipients.
<r1@x>:
  file: report-outfit.eml
  delivered:
  - outfit@players.example.org
  unknown:
    al@outfit.example: the connection ended after the message was sent
"""


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = sample_game(tmp_path_factory.mktemp("corrupt") / "game")
    result = CliRunner().invoke(main, ["adjudicate", TURN, "--game", str(root), "--no-commit"])
    assert result.exit_code == 0, result.output
    (root / "orders" / TURN / "inbox.yaml").write_text(INBOX, encoding="utf-8")
    (root / "outbox" / TURN).mkdir(parents=True)
    (root / "outbox" / TURN / "sent.yaml").write_text(SENT, encoding="utf-8")
    return root


def _state(root: Path) -> Any:
    return Game(root).load_state(NEXT)


def _results(root: Path) -> Any:
    return load_results(root / "turns" / TURN / "results.yaml")


def _config(root: Path) -> Any:
    game = Game(root)
    return game.config, game.map


def _inbox(root: Path) -> Any:
    return load_log(Game(root), TURN)


def _sent(root: Path) -> Any:
    return ledger.load_sent(ledger.outbox_dir(Game(root), TURN))


def _secret(root: Path) -> Any:
    return Game(root).secret()


# file, reader, whether every damage must be refused (a state or results file never loads damaged)
FILES: list[tuple[str, Callable[[Path], Any], bool]] = [
    (f"turns/{NEXT}/state.yaml", _state, True),
    (f"turns/{TURN}/results.yaml", _results, True),
    ("game.yaml", _config, False),
    (f"orders/{TURN}/inbox.yaml", _inbox, False),
    (f"outbox/{TURN}/sent.yaml", _sent, False),
    (".moonshine-secret", _secret, True),
]


def _damages(text: str) -> Iterator[tuple[str, bytes]]:
    lines = text.splitlines(keepends=True)
    for k in range(len(lines)):
        if "".join(lines[:k]).strip() or k == 0:
            yield f"truncated after line {k}", "".join(lines[:k]).encode("utf-8")
    data = text.encode("utf-8")
    for at in sorted({0, len(data) // 3, len(data) // 2, max(len(data) - 2, 0)}):
        yield f"byte 0xff at {at}", data[:at] + b"\xff" + data[at:]
    try:
        raw = yaml.safe_load(text)
    except yaml.YAMLError:
        return
    if not isinstance(raw, dict):
        return
    for key in raw:
        cut = {k: v for k, v in raw.items() if k != key}
        yield f"key {key} deleted", yamlio.dump(cut).encode("utf-8")
        value = raw[key]
        wrong: Any = [1, 2] if not isinstance(value, list) else "text"
        yield f"{key} of the wrong type", yamlio.dump({**raw, key: wrong}).encode("utf-8")
        if isinstance(value, dict):
            for sub in list(value)[:3]:
                inner = value[sub]
                if isinstance(inner, dict):
                    for leaf in inner:
                        cut_leaf = {**raw, key: {**value, sub: {k: v for k, v in inner.items() if k != leaf}}}
                        yield f"{key}.{sub}.{leaf} deleted", yamlio.dump(cut_leaf).encode("utf-8")
                wrong_inner = {**raw, key: {**value, sub: [1] if not isinstance(inner, list) else {"x": 1}}}
                yield f"{key}.{sub} of the wrong type", yamlio.dump(wrong_inner).encode("utf-8")
    yield "a key given twice", (text + text.splitlines(keepends=True)[-1]).encode("utf-8")


@pytest.mark.parametrize("rel", [f[0] for f in FILES])
def test_damaged_game_files_are_refused_clearly(game: Path, tmp_path: Path, rel: str) -> None:
    reader, strict = next((r, s) for name, r, s in FILES if name == rel)
    original = (game / rel).read_text(encoding="utf-8")
    good = reader(game)
    work = tmp_path / "g"
    shutil.copytree(game, work, symlinks=True)
    refused = loaded_same = 0
    silent: list[str] = []
    for what, data in _damages(original):
        (work / rel).write_bytes(data)
        try:
            got = reader(work)
        except MoonshineError as exc:
            refused += 1
            assert str(exc).startswith(str(work / rel)) or (rel == "game.yaml" and str(work) in str(exc)), (what, exc)
            continue
        # anything else than a clear error is a traceback: the test fails with it
        if repr(got) == repr(good):
            loaded_same += 1
        else:
            silent.append(what)
    print(f"\n{rel}: {refused} damaged versions refused, {loaded_same} loaded unchanged, {len(silent)} loaded changed")
    assert refused > 0
    if strict:
        assert silent == [], f"{rel}: damaged and loaded silently: {silent}"
