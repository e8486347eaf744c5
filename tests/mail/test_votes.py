"""Draws and concessions by mail, through the real mailbox and SMTP path:
every voter told when a proposal opens, reminded, and told how it ended; the
announcement to players and observers; secret ballots; unanimity; refusals (a
vote by an eliminated gang, a proposal naming an unknown gang); a passed draw
ends the game. Also ``status``, ``history``, ``help`` and ``observe``."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import frtypo
import pytest
from click.testing import CliRunner
from playerkit import ADDRESSES, GM, NOW, OBSERVER, STRANGER, TURN, Table, make_table, message
from smtpkit import Server

from moonshine.cli import main
from moonshine.game.directory import Game
from moonshine.mail.commands import votes
from moonshine.mail.outbox.compose import address_mark
from moonshine.mail.outbox.reports import report_messages
from moonshine.mail.outbox.smtp import send_files
from moonshine.variants.moonshine.calendar import Turn

TERRY, AL, ANGELO = ADDRESSES["valley"][0], ADDRESSES["outfit"][0], ADDRESSES["genna"][0]


def eliminate(game: Game, *gangs: str) -> None:
    """Take every unit (arrested ones too) and district of ``gangs`` off the board."""
    st = game.load_state(TURN)
    st.units = [u for u in st.units if u.gang not in gangs]
    st.arrested = [a for a in st.arrested if a.gang not in gangs]
    st.control = {d: g for d, g in st.control.items() if g not in gangs}
    game.save_state(st)


def only_three(game: Game) -> None:
    eliminate(game, *[g for g in game.sides() if g not in ("valley", "outfit", "genna")])


def subjects(t: Table, address: str) -> list[str]:
    return [str(m["Subject"]) for m in t.inbox_of(address)]


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_unanimous_draw_passes_ends_the_game_and_everyone_is_told(
    tmp_path: Path, smtp: Server, language: str
) -> None:
    t = make_table(tmp_path, smtp, language=language)
    only_three(t.game)
    draw, yes = (
        ("draw all by 2024-03-05", "vote yes 1") if language == "en" else ("nulle tous avant 2024-03-05", "vote oui 1")
    )
    t.send(TERRY, message("valley", draw))
    t.judge()
    opened = "vote 1 is open" if language == "en" else "le vote 1 est ouvert"
    for address in (TERRY, AL, ANGELO):
        assert any(opened in s for s in subjects(t, address)), address
    assert not any(opened in s for s in subjects(t, OBSERVER))  # observers do not vote
    t.send(AL, message("outfit", yes), when=NOW + timedelta(hours=1))
    t.judge(now=NOW + timedelta(hours=1))
    assert votes.ended(t.game) is None
    t.send(ANGELO, message("genna", yes), when=NOW + timedelta(hours=2))
    t.judge(now=NOW + timedelta(hours=2))
    assert votes.ended(t.game) is not None
    deciding = t.last_reply(ANGELO)  # the last yes: nothing may be changed any more
    assert ("the last one it needed" if language == "en" else "le dernier qu'il lui fallait") in deciding
    assert "you may change it" not in deciding and "modifiable" not in deciding
    # orders after the game ended are refused
    t.send(AL, message("outfit", "H LOO hold"), when=NOW + timedelta(hours=3))
    [late] = [o for o in t.judge(now=NOW + timedelta(hours=3)) if o.status != "duplicate"]
    assert late.status == "rejected" and "the game is over" in late.reason
    assert not (t.game.orders_dir(TURN) / "outfit.txt").exists()
    passed = "Passed" if language == "en" else "Adoptée"
    for address in (TERRY, AL, ANGELO, OBSERVER):
        assert any(passed in x for x in t.texts_of(address)), address
    # the game is over: the seed may be revealed, no turn is adjudicated any more
    result = CliRunner().invoke(main, ["reveal", "--game", str(t.game.root)])
    assert result.exit_code == 0 and "Seed:" in result.output
    result = CliRunner().invoke(main, ["adjudicate", TURN, "--game", str(t.game.root)])
    assert result.exit_code != 0 and "ended" in result.output


def test_a_proposal_never_ends_silently_reminder_then_failure(tmp_path: Path, smtp: Server) -> None:
    t = make_table(tmp_path, smtp)
    only_three(t.game)
    t.send(TERRY, message("valley", "concede to outfit by 2024-03-03 12:00"))
    t.judge()
    t.send(AL, message("outfit", "vote no"), when=NOW + timedelta(hours=1))
    t.judge(now=NOW + timedelta(hours=1))
    # a day before the deadline: each voter is reminded, with only its own vote
    t.deliver(now=NOW + timedelta(days=3, minutes=1))
    for address, mine in ((TERRY, "Your vote: yes."), (AL, "Your vote: no."), (ANGELO, "You have not voted yet.")):
        [reminder] = [m for m in t.texts_of(address) if m.startswith("Reminder")]
        assert mine in reminder
    # at the deadline: not passed, every voter and observer told; nobody learns who voted no
    t.deliver(now=NOW + timedelta(days=4, hours=1))
    for address in (TERRY, AL, ANGELO, OBSERVER):
        [ending] = [m for m in t.texts_of(address) if m.startswith("Not passed")]
        assert "outfit voted" not in ending and "no" not in ending.split("Not passed")[1].split(".")[0]
    assert votes.ended(t.game) is None
    # delivering again sends nothing twice
    before = len(t.recorder.received)
    t.deliver(now=NOW + timedelta(days=5))
    assert len(t.recorder.received) == before


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_vote_by_an_eliminated_gang_is_refused(tmp_path: Path, smtp: Server, language: str) -> None:
    t = make_table(tmp_path, smtp, language=language)
    only_three(t.game)
    t.send(TERRY, message("valley", "draw valley, outfit"))
    t.judge()
    eliminate(t.game, "genna")
    t.send(ANGELO, message("genna", "vote yes 1" if language == "en" else "vote oui 1"), when=NOW + timedelta(hours=1))
    t.judge(now=NOW + timedelta(hours=1))
    reply = t.last_reply(ANGELO)
    assert ("no longer in the game" if language == "en" else "n'est plus en jeu") in reply
    assert votes.load(t.game.root)[0].ballots == {"valley": "yes"}
    # the two survivors decide alone
    t.send(AL, message("outfit", "vote yes 1"), when=NOW + timedelta(hours=2))
    t.judge(now=NOW + timedelta(hours=2))
    assert votes.ended(t.game) is not None


@pytest.mark.parametrize(
    ("line", "why"),
    [
        ("draw valley, nobody", "no gang or power called 'nobody'"),
        ("concede to valley", "name the one gang you concede the game to"),
        ("draw all by 2020-01-01", "must be in the future"),
        ("draw all by tomorrow", "could not be read"),
        ("vote yes 7", "there is no proposal 7"),
        ("vote perhaps", "write 'vote yes N'"),
        ("vote yes", "no proposal is open"),
    ],
)
def test_proposal_and_vote_refusals(tmp_path: Path, smtp: Server, line: str, why: str) -> None:
    t = make_table(tmp_path, smtp)
    t.send(TERRY, message("valley", line))
    t.judge()
    reply = t.last_reply(TERRY)
    assert "REFUSED" in reply and why in reply
    assert votes.load(t.game.root) == []


def test_due_is_pure_and_lists_only_what_is_not_yet_written(tmp_path: Path, smtp: Server) -> None:
    from moonshine.mail import inbox

    t = make_table(tmp_path, smtp)
    only_three(t.game)
    t.send(TERRY, message("valley", "draw all by 2024-03-01 12:00"))
    inbox.process(t.game, t.box, turn=TURN, now=NOW)  # writes the opening notices
    assert votes.due(t.game, NOW) == []
    outbox = t.game.root / "outbox" / TURN
    before = {p.name: p.read_bytes() for p in outbox.iterdir()}
    later = NOW + timedelta(hours=37)
    owed = votes.due(t.game, later)
    assert sorted(d.outgoing.name for d in owed) == [  # one mail each address, named by a digest of it
        f"vote-1-remind-genna-{address_mark(ANGELO)}.eml",
        f"vote-1-remind-outfit-{address_mark(AL)}.eml",
        f"vote-1-remind-valley-{address_mark(TERRY)}.eml",
    ]
    assert sorted(str(d.outgoing.message["To"]) for d in owed) == sorted([ANGELO, AL, TERRY]) and not any(
        d.outgoing.message["Bcc"] for d in owed
    )
    again = votes.due(t.game, later)  # the same answer, to the byte
    assert [(d.turn, d.outgoing.name, d.outgoing.message.as_bytes()) for d in again] == [
        (d.turn, d.outgoing.name, d.outgoing.message.as_bytes()) for d in owed
    ]
    assert {p.name: p.read_bytes() for p in outbox.iterdir()} == before  # due wrote nothing
    votes.write_due(t.game, later)
    assert votes.due(t.game, later) == []


def test_a_game_upgraded_mid_vote_gets_no_second_copy_of_a_notice(tmp_path: Path, smtp: Server) -> None:
    """An earlier judge wrote each notice as one mail to a side's addresses
    (``vote-1-open-valley.eml``) and the result as one to everyone in Bcc
    (``vote-1-bulletin.eml``): a notice written so is not written again, one mail an
    address, by this one."""
    from moonshine.mail import inbox

    t = make_table(tmp_path, smtp)
    only_three(t.game)
    t.send(TERRY, message("valley", "draw all by 2024-03-01 12:00"))
    inbox.process(t.game, t.box, turn=TURN, now=NOW)
    outbox = t.game.root / "outbox" / TURN
    for path in outbox.glob("vote-1-open-*-*.eml"):  # as the earlier judge named them
        gang = path.name.split("-")[3]
        path.rename(outbox / f"vote-1-open-{gang}.eml")
    assert votes.due(t.game, NOW) == []
    ended = NOW + timedelta(days=3)
    assert len([d for d in votes.due(t.game, ended) if "bulletin" in d.outgoing.name]) == 5  # players, observer, GM
    (outbox / "vote-1-bulletin.eml").write_bytes((outbox / "vote-1-open-valley.eml").read_bytes())
    assert votes.due(t.game, ended) == []


@pytest.mark.parametrize("language", ["en", "fr"])
def test_status_history_help_and_observe(tmp_path: Path, smtp: Server, language: str) -> None:
    t = make_table(tmp_path, smtp, language=language)
    fr = language == "fr"
    t.send(
        TERRY,
        message("valley", "état" if fr else "status", "aide" if fr else "help", "historique" if fr else "history"),
    )
    t.send(OBSERVER, "état\n" if fr else "status\n")
    t.send(STRANGER, "observer\n" if fr else "observe\n")
    t.send(STRANGER, "status\n", subject="again")
    t.judge()
    ack = frtypo.plain(t.last_reply(TERRY))
    assert ("Tour : printemps 1924" if fr else "Turn: Spring 1924") in ack
    assert ("prédire" if fr else "predict") in ack  # the help lists every command
    assert ("aucun tour n'a encore été joué" if fr else "no turn has been played yet") in ack
    observer = t.last_reply(OBSERVER)
    assert ("Ordres attendus de" if fr else "Orders awaited from") in observer
    stranger = t.texts_of(STRANGER)
    assert any(("transmise au meneur" if fr else "passed to the game master") in x for x in stranger)
    assert any(("réservé aux joueurs" if fr else "is for the players") in x for x in stranger)
    assert any(STRANGER in x for x in t.texts_of(GM))


@pytest.mark.parametrize("language", ["en", "fr"])
def test_observers_get_the_bulletin_and_never_a_report(tmp_path: Path, smtp: Server, language: str) -> None:
    from moonshine.mail import outbox

    t = make_table(tmp_path, smtp, language=language)
    base = t.game.turn_dir(TURN) / "reports"
    base.mkdir(parents=True, exist_ok=True)
    for gang in t.game.sides():
        (base / f"{gang}.txt").write_text(f"Private report of {gang}.\n", encoding="utf-8")
        (base / f"{gang}.html").write_text(f"<p>Private report of {gang}</p>", encoding="utf-8")
    (base / "bulletin.txt").write_text("Bulletin: the police raided LOO.\n", encoding="utf-8")
    (base / "bulletin.html").write_text("<p>Bulletin</p>", encoding="utf-8")
    (base / "map.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    built = report_messages(t.game, TURN)
    outbox.write_outbox(t.game, TURN, built.messages)
    send_files(t.game, TURN, [m.name for m in built.messages])
    seen = t.texts_of(OBSERVER)
    assert any("Bulletin: the police raided LOO." in x for x in seen)
    assert not any("Private report" in x for x in seen)
    assert any("Private report of valley" in x for x in t.texts_of(TERRY))


def test_the_unattended_judge_sends_the_notices_a_vote_owes(tmp_path: Path, smtp: Server) -> None:
    """``moonshine run``'s pass calls votes.due: the opening notices go out with the
    acknowledgement, the reminder and the result later, each once, with no other command."""
    from moonshine.mail import run

    t = make_table(tmp_path, smtp, inbox={"source": "../box"})
    only_three(t.game)
    t.send(TERRY, message("valley", "draw all by 2024-03-01 12:00"))
    lines: list[str] = []
    assert run.run_game(t.game.root, now=NOW, say=lines.append)
    for address in (TERRY, AL, ANGELO):
        assert any("vote 1 is open" in s for s in subjects(t, address)), (address, lines)
    run.run_game(t.game.root, now=NOW + timedelta(hours=37), say=lines.append)
    assert all(any(m.startswith("Reminder") for m in t.texts_of(a)) for a in (TERRY, AL, ANGELO))
    run.run_game(t.game.root, now=NOW + timedelta(hours=49), say=lines.append)
    run.run_game(t.game.root, now=NOW + timedelta(hours=50), say=lines.append)
    for address in (TERRY, AL, ANGELO, OBSERVER):
        assert len([m for m in t.texts_of(address) if m.startswith("Not passed")]) == 1, address


def test_a_proposal_read_again_opens_nothing_new(tmp_path: Path, smtp: Server) -> None:
    """The same message read again (a run killed after the commands were done,
    before its log was written) gives the same answer and no second proposal."""
    from moonshine.mail import commands
    from moonshine.mail.commands.request import GameRequest

    t = make_table(tmp_path, smtp)
    only_three(t.game)
    script = commands.read("draw all\n")

    def request() -> GameRequest:
        st = t.game.load_state(TURN)
        return GameRequest(t.game, TURN, st, NOW, TERRY, "valley", "<one@player.example>")

    first = commands.execute(request(), script)
    again = commands.execute(request(), script)
    assert [r.done for r in first + again] == [True, True]
    assert first[0].say == again[0].say
    assert [q.number for q in votes.load(t.game.root)] == [1]
    other = commands.execute(
        GameRequest(t.game, TURN, t.game.load_state(TURN), NOW, TERRY, "valley", "<two@x>"), script
    )
    assert not other[0].done  # another message asking the same: the same proposal is open


@pytest.mark.parametrize("language", ["en", "fr"])
def test_history_of_a_turn_played_gives_its_bulletin(tmp_path: Path, smtp: Server, language: str) -> None:
    t = make_table(tmp_path, smtp, language=language)
    result = CliRunner().invoke(main, ["adjudicate", TURN, "--force", "--no-commit", "--game", str(t.game.root)])
    assert result.exit_code == 0, result.output
    nxt = Turn.parse(TURN).next().name
    fr = language == "fr"
    t.send(
        OBSERVER,
        "historique\nhistorique printemps 1924\nhistorique 1066\n"
        if fr
        else "history\nhistory spring-1924\nhistory 1066\n",
    )
    t.judge(now=NOW + timedelta(days=3), turn=nxt)
    reply = frtypo.plain(t.last_reply(OBSERVER))
    bulletin = frtypo.plain((t.game.turn_dir(TURN) / "reports" / "bulletin.txt").read_text("utf-8"))
    assert ("tours joués : printemps 1924" if fr else "turns played: Spring 1924") in reply
    assert bulletin.strip().splitlines()[0] in reply  # the bulletin itself
    assert ("aucun tour « 1066 »" if fr else "no turn '1066' has been played") in reply
