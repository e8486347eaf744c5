"""The JSON attachment of every report mail (moonshine/resultsjson.py): mailed
through a real SMTP server with each gang's report and the bulletin, it
validates against docs/results.schema.json; the bulletin's holds no private
part, and a gang's holds its own and no other gang's. Also for a classic game."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace
from email import message_from_bytes, policy
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from playerkit import ADDRESSES, OBSERVER, TURN, Recorder, make_table, message, smtp_server

from moonshine.cli import main
from moonshine.gamedir import Game, Player, new_game, save_config

jsonschema = pytest.importorskip("jsonschema")  # a dev dependency (pyproject.toml)
SCHEMA = json.loads((Path(__file__).resolve().parent.parent / "docs" / "results.schema.json").read_text("utf-8"))


@pytest.fixture(scope="module")
def smtp() -> Iterator[tuple[Recorder, int]]:
    with smtp_server() as server:
        yield server


def attachments(recorder: Recorder, address: str) -> list[tuple[str, dict[str, Any]]]:
    """(subject, JSON document) of every JSON attachment ``address`` received."""
    out = []
    for rcpts, content in recorder.received:
        if address not in rcpts:
            continue
        msg = message_from_bytes(content, policy=policy.default)
        assert isinstance(msg, EmailMessage)
        for part in msg.iter_attachments():
            if part.get_content_type() == "application/json":
                payload = part.get_payload(decode=True)
                assert isinstance(payload, bytes)
                out.append((str(msg["Subject"]), json.loads(payload.decode("utf-8"))))
    return out


def run(game: Game, *args: str) -> None:
    result = CliRunner().invoke(main, [*args, "--game", str(game.root)])
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize("language", ["en", "fr"])
def test_every_report_mail_carries_the_turns_results_as_valid_json(
    tmp_path: Path, smtp: tuple[Recorder, int], language: str
) -> None:
    recorder, port = smtp
    recorder.received.clear()
    t = make_table(tmp_path, port, recorder, language=language)
    t.send(ADDRESSES["valley"][0], message("valley", "H LOO - LIT", "bribe LAK 1.50"))
    t.send(ADDRESSES["outfit"][0], message("outfit", "H LIN hold", "bribe LAK 2.50"))
    t.judge()
    run(t.game, "adjudicate", TURN, "--force", "--no-commit")
    run(t.game, "mail", TURN, "--send")
    for gang in ("valley", "outfit", "genna"):
        found = attachments(recorder, ADDRESSES[gang][0])
        private = [doc for _, doc in found if "private" in doc]
        public = [doc for _, doc in found if "private" not in doc]
        assert len(private) == 1 and len(public) == 1, gang  # its report and the bulletin
        for doc in (private[0], public[0]):
            jsonschema.validate(doc, SCHEMA)
            assert doc["turn"] == TURN and doc["public"]["sides"]["valley"]["units"]
        mine = private[0]["private"]
        assert mine["side"] == gang
        dump = json.dumps(private[0])
        for other, bid in (("valley", "bribe LAK 1.50"), ("outfit", "bribe LAK 2.50")):
            assert (bid in dump) == (other == gang), (gang, bid)  # its own order lines, no one else's
        assert "bribe" not in json.dumps(public[0])  # no order line of any gang in the public part
    valley = next(doc for _, doc in attachments(recorder, ADDRESSES["valley"][0]) if "private" in doc)
    assert [b["paid"] for b in valley["private"]["bids"]] == [1.5]
    assert any(line["understood"] == "H LOO - LIT" for line in valley["private"]["orders"])
    # observers get the bulletin's, public only
    [(_, watched)] = attachments(recorder, OBSERVER)
    assert "private" not in watched
    jsonschema.validate(watched, SCHEMA)


def test_a_classic_games_reports_carry_valid_json(tmp_path: Path, smtp: tuple[Recorder, int]) -> None:
    recorder, port = smtp
    recorder.received.clear()
    game = new_game(tmp_path / "c", variant="classic", use_git=False)
    cfg = game.config
    players = {p: Player(name=p, email=[f"{p.lower()}@powers.example"]) for p in cfg.players}
    smtp_cfg = {"host": "127.0.0.1", "port": port, "security": "none", "from": "Ref <ref@x.example>", "timeout": 5}
    save_config(game, replace(cfg, players=players, extra={**cfg.extra, "smtp": smtp_cfg}))
    game = Game(game.root)
    orders = game.orders_dir("spring-1901")
    orders.mkdir(parents=True, exist_ok=True)
    (orders / "FRA.txt").write_text("A PAR - BUR\n", encoding="utf-8")
    run(game, "adjudicate", "spring-1901", "--force", "--no-commit")
    run(game, "mail", "spring-1901", "--send")
    found = attachments(recorder, "fra@powers.example")
    assert found
    for _, doc in found:
        jsonschema.validate(doc, SCHEMA)
        assert "private" not in doc  # a classic game's results are all public
    assert any(u["order"].startswith("A PAR") for _, doc in found for u in doc["public"]["sides"]["FRA"]["units"])
