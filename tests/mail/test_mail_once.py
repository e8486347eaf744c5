"""Mail at most once, as far as SMTP allows, against a real SMTP server on
127.0.0.1 that drops connections at random points: every recipient gets every
message; a message arrives twice only where its delivery was recorded as of
unknown outcome; a re-send keeps the Message-ID. A corrected report (the turn
adjudicated again after the reports went) says so."""

from __future__ import annotations

import os
import random
from collections import Counter
from dataclasses import dataclass, field
from email import message_from_bytes, policy
from pathlib import Path
from typing import Any

import yaml
from mailkit import TURN, outbox_game, read_eml, run, write_reports
from smtpkit import Recorder, Server, start_server

PLAYERS = {g: [f"{g}1@{g}.example", f"{g}2@{g}.example"] for g in ("outfit", "valley", "genna", "northside")}
ROUNDS = int(os.environ.get("MOONSHINE_SMTP_ROUNDS", "3"))


@dataclass
class Dropper(Recorder):
    """Drops a connection (one in four) at a random point: at MAIL, at a RCPT,
    before taking the data, or after taking the data but before saying so (the
    client cannot know then whether the message arrived)."""

    rng: random.Random = field(default_factory=lambda: random.Random(13))
    rate: float = 0.4
    drops: Counter[str] = field(default_factory=Counter)
    plan: dict[int, str] = field(default_factory=dict)  # connection -> where it is dropped

    def _drop(self, server: Any, where: str) -> bool:
        if self.plan.get(id(server)) == where:
            del self.plan[id(server)]
            self.drops[where] += 1
            server.transport.close()
            return True
        return False

    async def handle_MAIL(self, server: Any, session: Any, envelope: Any, address: str, options: Any) -> str:
        self.plan.pop(id(server), None)
        if self.rng.random() < self.rate:
            self.plan[id(server)] = self.rng.choice(["mail", "rcpt", "data, not kept", "data, kept"])
        if self._drop(server, "mail"):
            return "421 closing"
        envelope.mail_from = address
        return "250 OK"

    async def handle_RCPT(self, server: Any, session: Any, envelope: Any, address: str, rcpt_options: Any) -> str:
        if self._drop(server, "rcpt"):
            return "421 closing"
        return await super().handle_RCPT(server, session, envelope, address, rcpt_options)

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        if self._drop(server, "data, not kept"):
            return "421 closing"
        self.received.append((envelope.mail_from, list(envelope.rcpt_tos), envelope.content))
        if self._drop(server, "data, kept"):
            return "421 closing"
        return "250 Message accepted"


def _pairs(recorder: Recorder) -> Counter[tuple[str, str]]:
    got: Counter[tuple[str, str]] = Counter()
    for _, rcpts, content in recorder.received:
        msg = message_from_bytes(content, policy=policy.default)
        for r in rcpts:
            got[(str(msg["Message-ID"]).strip(), r)] += 1
    return got


def test_every_recipient_gets_every_message_and_duplicates_only_where_unknown(tmp_path: Path) -> None:
    total_pairs = total_dupes = total_unknown = total_drops = 0
    for round_ in range(ROUNDS):
        dropper = Dropper(rng=random.Random(round_))
        server = start_server(dropper)
        try:
            game = outbox_game(
                tmp_path / f"r{round_}",
                smtp=server.smtp(attempts=3, retry_delay=0, timeout=5),
                players=PLAYERS,
            )
            write_reports(game)
            unknown_seen: set[tuple[str, str]] = set()
            for _ in range(30):  # the game master runs the command again until all is sent
                result = run(game, "mail", TURN, "--send", "--resend-unknown")
                assert "Traceback" not in result.output
                sent = yaml.safe_load((game.root / "outbox" / TURN / "sent.yaml").read_text())
                for mid, entry in sent.items():
                    unknown_seen |= {(mid, r) for r in entry.get("unknown") or {}}
                if result.exit_code == 0 and not any(e.get("unknown") for e in sent.values()):
                    break
            else:
                raise AssertionError(f"not all sent after 30 runs: {result.output}")
        finally:
            server.controller.stop()
        outbox = game.root / "outbox" / TURN
        wanted = set()
        for eml in outbox.glob("*.eml"):
            msg = read_eml(eml)
            mid = str(msg["Message-ID"]).strip()
            for header in ("To", "Bcc"):
                wanted |= {(mid, a.addr_spec) for a in (msg[header].addresses if msg[header] else ())}
        got = _pairs(dropper)
        assert wanted <= set(got), f"lost: {sorted(wanted - set(got))}"
        dupes = {p for p, n in got.items() if n > 1}
        assert dupes <= unknown_seen, f"sent twice without an unknown outcome recorded: {sorted(dupes - unknown_seen)}"
        total_pairs += len(wanted)
        total_dupes += sum(got[p] - 1 for p in dupes)
        total_unknown += len(unknown_seen)
        total_drops += sum(dropper.drops.values())
    assert total_drops > 0
    print(
        f"\nSMTP server dropping connections ({total_drops} drops): {ROUNDS} games, "
        f"{total_pairs} (message, recipient) pairs all delivered; "
        f"{total_unknown} deliveries of unknown outcome recorded, {total_dupes} duplicate(s) received, all among them"
    )


def test_a_dropped_connection_after_the_data_is_not_retried_and_is_reported(tmp_path: Path) -> None:
    dropper = Dropper(rate=0.0)  # drops nothing: this test drops by itself
    server = start_server(dropper)
    try:
        game = outbox_game(
            tmp_path, smtp=server.smtp(attempts=3, retry_delay=0), players={"outfit": ["al@outfit.example"]}
        )
        write_reports(game)

        async def drop_after_keeping(server_: Any, session: Any, envelope: Any) -> str:
            dropper.received.append((envelope.mail_from, list(envelope.rcpt_tos), envelope.content))
            server_.transport.close()
            return "421 closing"

        dropper.handle_DATA = drop_after_keeping  # type: ignore[method-assign]
        result = run(game, "mail", TURN, "--send")
        assert "report-outfit.eml: OUTCOME UNKNOWN for al@outfit.example" in result.output
        assert "deliveries of unknown outcome" in result.output
        assert len(dropper.received) == 2  # report and bulletin, once each: no retry
        again = run(game, "mail", TURN, "--send")
        assert "outcome unknown for al@outfit.example (an earlier run); not sent again" in again.output
        assert len(dropper.received) == 2
        del dropper.handle_DATA
        resent = run(game, "mail", TURN, "--send", "--resend-unknown")
        assert resent.exit_code == 0, resent.output
        ids = [str(message_from_bytes(c, policy=policy.default)["Message-ID"]) for _, _, c in dropper.received]
        assert len(ids) == 4 and len(set(ids)) == 2  # the same Message-ID on the re-send
        sent = yaml.safe_load((game.root / "outbox" / TURN / "sent.yaml").read_text())
        assert all("unknown" not in e for e in sent.values())
    finally:
        server.controller.stop()


def test_a_report_mailed_again_after_a_new_adjudication_says_corrected(tmp_path: Path, smtp: Server) -> None:
    recorder = smtp.recorder
    game = outbox_game(tmp_path, smtp=smtp.smtp(), players={"outfit": ["al@outfit.example"]})
    reports = write_reports(game)
    assert run(game, "mail", TURN, "--send").exit_code == 0
    (reports / "outfit.txt").write_text("Private report of outfit, adjudicated again.\n", encoding="utf-8")
    assert run(game, "mail", TURN, "--send").exit_code == 0
    subjects = [str(m["Subject"]) for m in recorder.messages()]
    assert len(subjects) == 3  # report, bulletin, corrected report; the unchanged bulletin is not sent again
    assert subjects[2].startswith("[corrected] ") and "private report for Chicago Outfit" in subjects[2]
    body = recorder.messages()[2].get_body(preferencelist=("plain",))
    assert body is not None
    assert body.get_content().startswith("CORRECTED: this report replaces the one mailed earlier for this turn.")
    assert not subjects[0].startswith("[corrected]")
