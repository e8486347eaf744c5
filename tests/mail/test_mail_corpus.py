"""The mail corpus (tests/data/mail/): real-looking messages from Gmail, Outlook, Apple
Mail and Thunderbird, in English and French, each read by the inbox on a copy of
the sample game. ``tests/data/mail/expected.yaml`` says, for each, what a player must
get: the outcome, the password's verdict, the orders taken (as the order reader
understood them) and what the reply says. No password ever reaches a file the
inbox writes, and nothing is taken from quoted or forwarded text."""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from datetime import UTC, datetime
from email import message_from_bytes, policy
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest
import yaml
from repokit import DATA
from samplegame import PASSWORDS, TURN, sample_to_order

from moonshine.game.directory import Game
from moonshine.mail import inbox
from moonshine.mail.inbox import turnlog
from moonshine.mail.inbox.outcome import Outcome
from moonshine.variants.moonshine.checker import ACCEPTED, read_orders

CORPUS = DATA / "mail"
EXPECTED: dict[str, dict[str, Any]] = yaml.safe_load((CORPUS / "expected.yaml").read_text(encoding="utf-8"))
NOW = datetime(2024, 2, 29, 12, 0, tzinfo=UTC)


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sample game with passwords and a deadline, copied for each message."""
    return sample_to_order(tmp_path_factory.mktemp("corpus") / "game").root


@dataclass
class Read:
    outcome: Outcome
    orders: list[str]  # the orders taken, as understood
    reply: str  # the reply's text, "" when none
    reply_subject: str
    written: dict[str, bytes]  # every file the inbox wrote
    checked: bool  # the inbox's log says sender and password checked out


def read_one(template: Path, tmp_path: Path, name: str) -> Read:
    root = tmp_path / "game"
    shutil.copytree(template, root)
    game = Game(root)
    before = {p: p.read_bytes() for p in root.rglob("*") if p.is_file()}
    [outcome] = inbox.process(game, CORPUS / name, now=NOW)
    written = {
        str(p.relative_to(root)): p.read_bytes()
        for p in root.rglob("*")
        if p.is_file() and before.get(p) != p.read_bytes()
    }
    orders: list[str] = []
    saved = game.orders_dir(TURN) / f"{outcome.gang}.txt"
    if outcome.gang and saved.is_file():
        got = read_orders(saved.read_text(encoding="utf-8"), game.map, game.load_state(TURN), outcome.gang)
        orders = [ln.order.text() for ln in got.lines if ln.order is not None and ln.status == ACCEPTED]
    reply, subject = "", ""
    if outcome.reply:
        msg = message_from_bytes((root / "outbox" / TURN / outcome.reply).read_bytes(), policy=policy.default)
        assert isinstance(msg, EmailMessage)
        body = msg.get_body(preferencelist=("plain",))
        assert body is not None
        reply, subject = str(body.get_content()), str(msg["Subject"])
    log = turnlog.load_log(game, TURN).submissions
    checked = bool(log and log[-1].get("checked"))
    return Read(outcome, orders, reply, subject, written, checked)


def test_the_corpus_is_large_and_every_message_has_its_expectations() -> None:
    names = sorted(p.name for p in CORPUS.glob("*.eml"))
    assert len(names) >= 40
    assert sorted(EXPECTED) == names
    programs = {e["program"] for e in EXPECTED.values()}
    assert {"Gmail", "Outlook", "Apple Mail", "Thunderbird"} <= programs
    assert {e["language"] for e in EXPECTED.values()} == {"en", "fr"}


def password_verdict(got: Read) -> str:
    """What the inbox made of the message's password: ``right`` (sender and password
    checked out, whatever came next), ``wrong``, ``missing``, or ``not checked``
    (refused before, or never a candidate)."""
    if got.checked:
        return "right"
    if got.outcome.refusal == "wrong password":
        return "wrong"
    if got.outcome.reason.startswith("no 'password:' line"):
        return "missing"
    return "not checked"


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_a_message_of_the_corpus(template: Path, tmp_path: Path, name: str) -> None:
    want = EXPECTED[name]
    got = read_one(template, tmp_path, name)
    o = got.outcome
    assert o.status == want["outcome"], (o.line(), got.reply)
    assert o.gang == want.get("gang"), o.line()
    assert password_verdict(got) == want["password"], o.line()
    if "reason" in want:
        assert want["reason"] in o.reason, o.line()
    assert got.orders == want.get("orders", []), got.reply
    if want.get("reply") == "none":
        assert o.reply is None
    else:
        for part in want.get("reply", []):
            assert part in got.reply, (part, got.reply)
        for part in want.get("not in reply", []):
            assert part not in got.reply, (part, got.reply)
    for path, content in got.written.items():
        for pw in [*PASSWORDS.values(), "hunter2-guess"]:
            assert pw.encode() not in content, (path, pw)
    assert all(pw not in got.reply_subject for pw in PASSWORDS.values())
