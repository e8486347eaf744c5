"""Commands by mail and press through the judge, through the real mailbox and
SMTP path (a Maildir read by the inbox, aiosmtpd on 127.0.0.1), in English and
French: each command's answer in the acknowledgement, private press and
broadcast relayed without the sender's address, the press rules of game.yaml,
refusals (a non-player, white press asked to be anonymous, no end line)."""

from __future__ import annotations

from pathlib import Path

import frtypo
import pytest
from playerkit import ADDRESSES, GM, OBSERVER, STRANGER, body, make_table, message
from smtpkit import Server

from moonshine.errors import StateError
from moonshine.game.directory import load_config_text
from moonshine.mail import commands
from moonshine.mail.commands import press

TERRY, AL, ANGELO = ADDRESSES["valley"][0], ADDRESSES["outfit"][0], ADDRESSES["genna"][0]

# the same message in each language: (keywords, what the acknowledgement says)
WORDS = {
    "en": {"press": "press to outfit", "end": "end press", "broadcast": "broadcast", "done": "done", "no": "REFUSED"},
    "fr": {"press": "presse à outfit", "end": "fin presse", "broadcast": "diffusion", "done": "fait", "no": "REFUSÉ"},
}


@pytest.mark.parametrize("language", ["en", "fr"])
def test_private_press_reaches_only_its_recipient_without_the_senders_address(
    tmp_path: Path, smtp: Server, language: str
) -> None:
    w = WORDS[language]
    t = make_table(tmp_path, smtp, language=language)
    t.send(TERRY, message("valley", w["press"], "Al, let us split the Loop.", w["end"], "H LOO - NSS"))
    [outcome] = t.judge()
    assert outcome.status == "accepted"
    relayed = [m for m in t.inbox_of(AL)]
    assert len(relayed) == 1
    text = body(relayed[0])
    assert "Al, let us split the Loop." in text
    assert TERRY not in relayed[0].as_string()  # not in From, Reply-To, or the text
    assert "ref@moonshine.example" in str(relayed[0]["Reply-To"])
    assert "Valley" in text or "valley" in text  # white press is signed
    # nobody else gets it; the game master gets a copy naming the sender
    assert not any("split the Loop" in x for x in t.texts_of(ANGELO) + t.texts_of(OBSERVER))
    [gm] = t.texts_of(GM)
    assert "split the Loop" in gm and "Valley Gang (valley, valley)" in gm  # the sender: side and player
    assert TERRY not in gm  # a master of a judge for many games is a player: no one's address
    # the sender's acknowledgement lists the command and what was done; the orders were read too
    ack = t.last_reply(TERRY)
    assert f"{w['press']} -> {w['done']}" in ack
    assert "H LOO - NSS" in ack
    # the orders file never holds the press
    saved = (t.game.orders_dir("spring-1924") / "valley.txt").read_text()
    assert "split the Loop" not in saved and "H LOO - NSS" in saved
    # the private logs of sender and recipient hold it; the others' do not
    assert any("split the Loop" in x for x in press.private_log(t.game.root, "valley"))
    assert any("split the Loop" in x for x in press.private_log(t.game.root, "outfit"))
    assert press.private_log(t.game.root, "genna") == []


@pytest.mark.parametrize("language", ["en", "fr"])
def test_broadcast_reaches_every_player_and_observer(tmp_path: Path, smtp: Server, language: str) -> None:
    w = WORDS[language]
    t = make_table(tmp_path, smtp, language=language)
    t.send(AL, message("outfit", w["broadcast"], "The Outfit wants peace.", "end"))
    [outcome] = t.judge()
    assert outcome.status == "accepted"
    for address in (TERRY, ANGELO, OBSERVER):
        assert any("The Outfit wants peace." in x for x in t.texts_of(address)), address
    for address in (TERRY, ANGELO, OBSERVER):
        for m in t.inbox_of(address):
            assert AL not in m.as_string()
    # a press-only message leaves the orders on file alone
    assert not (t.game.orders_dir("spring-1924") / "outfit.txt").exists()
    assert f"{w['broadcast']} -> {w['done']}" in t.last_reply(AL)


@pytest.mark.parametrize("language", ["en", "fr"])
def test_press_from_a_non_player_is_refused_and_relayed_to_no_one(tmp_path: Path, smtp: Server, language: str) -> None:
    w = WORDS[language]
    t = make_table(tmp_path, smtp, language=language)
    t.send(STRANGER, f"{w['press']}\nSurrender now.\n{w['end']}\n")
    [outcome] = t.judge()
    assert outcome.status == "rejected"
    assert not any("Surrender" in x for a in (AL, TERRY, ANGELO, OBSERVER) for x in t.texts_of(a))
    reply = t.last_reply(STRANGER)
    assert w["no"] in reply


def test_press_from_a_player_with_a_wrong_password_is_not_relayed(tmp_path: Path, smtp: Server) -> None:
    t = make_table(tmp_path, smtp)
    t.send(TERRY, "gang: valley\npassword: wrong\npress to outfit\nTrust me.\nend press\n")
    t.judge()
    assert not any("Trust me" in x for x in t.texts_of(AL))


@pytest.mark.parametrize(
    ("rules", "lines", "why"),
    [
        ({"kind": "none"}, ["press to outfit", "hello", "end press"], "has no press"),
        ({"kind": "white"}, ["press to outfit anonymous", "hello", "end press"], "anonymous press is not allowed"),
        ({"kind": "white", "after_deadline": False}, ["broadcast", "hello", "end"], None),
        (None, ["press to outfit", "hello"], "no 'end press' line"),
        (None, ["press to nobody", "hello", "end press"], "no gang or power called 'nobody'"),
        (None, ["press to valley", "hello", "end press"], "name at least one other gang"),
        (None, ["press to outfit", "", "end press"], "no text"),
    ],
)
def test_press_rules_refuse_with_a_reason(
    tmp_path: Path, smtp: Server, rules: dict[str, object] | None, lines: list[str], why: str | None
) -> None:
    t = make_table(tmp_path, smtp, **({"press": rules} if rules else {}))
    t.send(TERRY, message("valley", *lines))
    t.judge()
    reply = t.last_reply(TERRY)
    if why is None:  # allowed: before the deadline
        assert "-> done" in reply
        return
    assert "REFUSED" in reply and why in reply
    assert not any("hello" in x for x in t.texts_of(AL))


def test_grey_press_may_be_anonymous(tmp_path: Path, smtp: Server) -> None:
    t = make_table(tmp_path, smtp, press={"kind": "grey"})
    t.send(TERRY, message("valley", "press to outfit, genna anonymous", "Watch your back.", "end press"))
    t.judge()
    for address in (AL, ANGELO):
        [relayed] = [x for x in t.texts_of(address) if "Watch your back." in x]
        assert "an anonymous gang" in relayed and "Valley" not in relayed and "valley" not in relayed
    [gm] = [x for x in t.texts_of(GM) if "Watch your back." in x]
    assert "valley" in gm  # the game master sees who sent it


def test_press_after_the_deadline_is_refused_when_the_rules_say_so(tmp_path: Path, smtp: Server) -> None:
    from playerkit import later

    t = make_table(tmp_path, smtp, press={"kind": "white", "after_deadline": False})
    t.send(TERRY, message("valley", "broadcast", "Too late?", "end"), when=later(60))
    t.judge(now=later(61))
    assert "only before the deadline" in t.last_reply(TERRY)
    assert not any("Too late?" in x for x in t.texts_of(AL))


def test_press_rules_are_checked_in_game_yaml() -> None:
    with pytest.raises(StateError, match=r"press.kind.*one of none, public, white, grey"):
        load_config_text("map: chicago-1920s\npress:\n  kind: black\n", "game.yaml")
    with pytest.raises(StateError, match=r"press\.retreats"):
        load_config_text("map: chicago-1920s\npress:\n  retreats: sometimes\n", "game.yaml")
    with pytest.raises(StateError, match=r"press\.colour"):
        load_config_text("map: chicago-1920s\npress:\n  colour: grey\n", "game.yaml")
    cfg = load_config_text("map: chicago-1920s\npress:\n  kind: grey\n  retreats: true\n", "game.yaml")
    assert press.rules(cfg) == press.Rules("grey", True, True)


def test_press_during_retreats_follows_the_rule() -> None:
    assert press._is_retreat("autumn-1901-retreats") and not press._is_retreat("spring-1924")


@pytest.mark.parametrize("language", ["en", "fr"])
def test_unknown_command_gets_a_suggestion(tmp_path: Path, smtp: Server, language: str) -> None:
    t = make_table(tmp_path, smtp, language=language)
    t.send(TERRY, message("valley", "brodcast", "H LOO - NSS"))
    t.judge()
    reply = frtypo.plain(t.last_reply(TERRY))
    assert "brodcast" in reply
    assert ("Did you mean 'broadcast'" if language == "en" else "Vouliez-vous dire « diffusion »") in reply


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("press to outfit\nhi\nend press\n", ["press"]),
        ("PRESSE À outfit\nsalut\nFIN\n", ["press"]),
        ("broadcast\nhi\nend\nvote yes 1\nstatus\n", ["broadcast", "vote", "status"]),
        (
            "État\nhistorique\naide\nobserver\nnulle tous\nconcéder à outfit\n",
            ["status", "history", "help", "observe", "draw", "concede"],
        ),
        ("predict\nH LOO - NSS\nend predict\n", ["predict"]),
        ("H LOO - NSS\nL KEN hold\nsell 4\n", []),
        ("helo\n", ["unknown"]),
        ("Hello Al, how are you\n", []),
    ],
)
def test_the_command_reader(text: str, names: list[str]) -> None:
    script = commands.read(text, {"hold", "sell"})
    assert [c.name for c in script.commands] == names


def test_command_lines_keep_the_message_line_numbers() -> None:
    script = commands.read("gang: valley\npress to outfit\nhi\n\nend press\nH LOO - NSS\n")
    [cmd] = script.commands
    assert (cmd.line, cmd.last, cmd.body) == (2, 5, ("hi",))
    assert script.lines() == {2, 3, 4, 5}


def test_relayed_press_carries_nothing_derived_from_the_senders_message(tmp_path: Path, smtp: Server) -> None:
    from datetime import timedelta
    from email.utils import parsedate_to_datetime

    t = make_table(tmp_path, smtp)
    sent = t.now - timedelta(minutes=17, seconds=23)  # the sender's own Date, to the second
    t.send(TERRY, message("valley", "press to outfit", "Meet me at the Green Mill.", "end press"), when=sent)
    [outcome] = t.judge()
    assert outcome.status == "accepted"
    theirs = outcome.message_id.strip("<>").split("@")[0]
    relayed = list(t.inbox_of(AL))
    assert len(relayed) == 1
    ours = str(relayed[0]["Message-ID"])
    # not a run of six characters of the sender's Message-ID; dated when read, to the minute
    assert not any(theirs[i : i + 6] in ours for i in range(len(theirs) - 5)), (theirs, ours)
    dated = parsedate_to_datetime(str(relayed[0]["Date"]))
    assert dated != sent and dated.second == 0
    assert dated == t.now.replace(second=0, microsecond=0)


def test_a_forgotten_end_press_neither_relays_nor_swallows_the_orders_below(tmp_path: Path, smtp: Server) -> None:
    t = make_table(tmp_path, smtp)
    t.send(TERRY, message("valley", "press to outfit", "Al, the Loop is yours.", "H LOO - NSS", "L KEN hold"))
    [outcome] = t.judge()
    assert outcome.status == "accepted"
    assert list(t.inbox_of(AL)) == []  # nothing relayed
    ack = t.last_reply(TERRY)
    assert "no 'end press' line" in ack and "read as your orders" in ack
    saved = (t.game.orders_dir("spring-1924") / "valley.txt").read_text()
    assert "H LOO - NSS" in saved and "L KEN hold" in saved  # the orders below were read
