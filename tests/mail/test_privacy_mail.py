"""Privacy over a whole game by mail: two turns with orders, bids, private
press, broadcast, a draw voted and reminded, the turn adjudicated and its
reports mailed. Through a Maildir and a real SMTP server, every message any
address received is read back: no gang ever gets another gang's private press,
bids, orders before they are published, or vote; observers get no private press
and no report; no player's address is shown to another player."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from click.testing import CliRunner
from playerkit import ADDRESSES, GM, NOW, OBSERVER, TURN, make_table, message
from smtpkit import Recorder, Server

from moonshine.cli import main
from moonshine.game import ledger
from moonshine.variants.moonshine.calendar import Turn

GANGS = ("valley", "outfit", "genna")
ORDERS = {"valley": "H LOO - LIT", "outfit": "H LIN hold", "genna": "H CHA hold"}
BIDS = {"valley": "bribe LAK 1.50", "outfit": "bribe LAK 2.50", "genna": "bribe LAK 3.50"}
# (sender, recipients, marker) of private press; broadcasts are public
PRESS = [
    ("valley", ("outfit",), "MARK-valley-to-outfit"),
    ("outfit", ("genna",), "MARK-outfit-to-genna"),
    ("genna", ("valley", "outfit"), "MARK-genna-to-valley-outfit"),
]
BALLOTS = {"valley": "Your vote: yes.", "outfit": "Your vote: no.", "genna": "You have not voted yet."}


def received_by(recorder: Recorder, address: str, since: int = 0) -> list[str]:
    """Every message ``address`` got (from the ``since``-th delivery on), whole: headers, text, attachments."""
    from email import message_from_bytes, policy

    out = []
    for _, rcpts, content in recorder.received[since:]:
        if address in rcpts:
            msg = message_from_bytes(content, policy=policy.default)
            texts = [str(msg)]
            for part in msg.walk():
                if part.get_content_maintype() == "text" or part.get_content_type() == "application/json":
                    payload = part.get_payload(decode=True)
                    if isinstance(payload, bytes):
                        texts.append(payload.decode("utf-8", "replace"))
            out.append("\n".join(texts))
    return out


def test_no_gang_ever_receives_another_gangs_secrets(tmp_path: Path, smtp: Server) -> None:
    recorder = smtp.recorder
    t = make_table(tmp_path, smtp)
    st = t.game.load_state(TURN)  # three gangs left in the game
    st.units = [u for u in st.units if u.gang in GANGS]
    st.arrested = [a for a in st.arrested if a.gang in GANGS]
    st.control = {d: g for d, g in st.control.items() if g in GANGS}
    t.game.save_state(st)

    # turn one: orders and bids, press, a draw proposed and voted
    for gang in GANGS:
        t.send(ADDRESSES[gang][0], message(gang, ORDERS[gang], BIDS[gang]))
    for sender, to, marker in PRESS:
        t.send(ADDRESSES[sender][0], message(sender, f"press to {', '.join(to)}", marker, "end press"))
    t.send(ADDRESSES["genna"][0], message("genna", "broadcast", "PUBLIC-broadcast", "end"))
    t.send(ADDRESSES["valley"][0], message("valley", "draw all by 2024-03-01 12:00"))
    t.judge()
    t.send(ADDRESSES["outfit"][0], message("outfit", "vote no 1", "status"), when=NOW + timedelta(hours=1))
    t.judge(now=NOW + timedelta(hours=1))
    t.deliver(now=NOW + timedelta(hours=40))  # the reminder, each with its own vote
    t.deliver(now=NOW + timedelta(hours=49))  # the result: not passed
    before_publication = len(recorder.received)

    # the turn is adjudicated and its reports mailed: orders are public from here on
    root = str(t.game.root)
    result = CliRunner().invoke(main, ["adjudicate", TURN, "--force", "--no-commit", "--game", root])
    assert result.exit_code == 0, result.output
    result = CliRunner().invoke(main, ["mail", TURN, "--send", "--game", root])
    assert result.exit_code == 0, result.output
    # turn two: more press
    nxt = Turn.parse(TURN).next().name
    t.send(ADDRESSES["outfit"][0], message("outfit", "press to valley", "MARK-later-outfit-to-valley", "end press"))
    t.judge(now=NOW + timedelta(days=3), turn=nxt)

    everyone = {g: received_by(recorder, ADDRESSES[g][0]) for g in GANGS}
    early = {g: received_by(Recorder(recorder.received[:before_publication]), ADDRESSES[g][0]) for g in GANGS}
    observer = received_by(recorder, OBSERVER)
    private = [*PRESS, ("outfit", ("valley",), "MARK-later-outfit-to-valley")]
    assert all(everyone[g] for g in GANGS) and observer
    for g in GANGS:
        mails = "\n".join(everyone[g])
        for sender, to, marker in private:
            if g in to:
                assert marker in mails, (g, marker)
            elif g != sender:
                assert marker not in mails, (g, marker)
        assert ("PUBLIC-broadcast" in mails) or g == "genna"  # all but its sender
        for other in GANGS:
            if other == g:
                continue
            assert BIDS[other] not in mails, (g, other)
            assert ADDRESSES[other][0] not in mails, (g, other)
            assert BALLOTS[other] not in mails or BALLOTS[other] == BALLOTS[g], (g, other)
            assert ORDERS[other] not in "\n".join(early[g]), (g, other)
        assert f"{g} voted" not in mails
    watched = "\n".join(observer)
    assert "PUBLIC-broadcast" in watched
    assert not any(marker in watched for _, _, marker in private)
    assert not any(b in watched for b in BIDS.values())
    assert "private report" not in watched
    # the game master saw every press
    gm = "\n".join(received_by(recorder, GM))
    assert all(marker in gm for _, _, marker in private)
    assert ledger.load_sent(ledger.outbox_dir(t.game, TURN))  # the deliveries were recorded
