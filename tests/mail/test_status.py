"""``status``, ``remind`` and ``passwd``: who has sent orders, reminders to the
others, and passwords kept only as salted hashes."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from email import message_from_bytes, policy
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import frtypo
import pytest
import yaml
from click.testing import CliRunner
from gamekit import make_game
from msgspec.structs import replace
from smtpkit import Server

from moonshine.cli import main
from moonshine.errors import GameError
from moonshine.game.directory import Game, load_config, save_config
from moonshine.mail.passwords import WORDS as PASSPHRASE_WORDS
from moonshine.mail.passwords import hash_password, set_password, verify_password
from moonshine.mail.status import reminders, turn_status
from moonshine.render.mailwords import describe_time_left

TURN = "spring-1924"
DEADLINE = datetime(2024, 3, 1, 18, 0, tzinfo=UTC)
EMAILS = {"valley": ["terry@valley.example"], "outfit": ["al@outfit.example"], "genna": ["angelo@genna.example"]}


def status_game(tmp_path: Path, *, deadline: str = DEADLINE.isoformat(), **extra: Any) -> Game:
    """A game in ``tmp_path / "g"``: every gang a player named by its key, with the
    addresses of ``EMAILS``; the turn's ``deadline``; ``extra``: more sections of game.yaml."""
    return make_game(tmp_path / "g", emails=EMAILS, deadlines={TURN: deadline}, **extra)


def run(game: Game, *args: str, **kwargs: Any) -> Any:
    result = CliRunner().invoke(main, [*args, "--game", str(game.root)], **kwargs)
    assert "Traceback" not in result.output
    return result


def give_orders(game: Game, gang: str, received: str | None = None) -> None:
    """Orders on file; with ``received``, logged as the inbox logs them."""
    game.orders_dir(TURN).mkdir(parents=True, exist_ok=True)
    (game.orders_dir(TURN) / f"{gang}.txt").write_text(f"gang: {gang}\n")
    if received:
        log = {"current": {gang: {"received": received, "accepted": 4, "rejected": 1}}, "submissions": []}
        (game.orders_dir(TURN) / "inbox.yaml").write_text(yaml.safe_dump(log))


# -- time left ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("delta", "text"),
    [
        (timedelta(days=3, hours=2, minutes=30), "3 days 2 hours left"),
        (timedelta(days=1), "1 day left"),
        (timedelta(hours=1, minutes=5), "1 hour 5 minutes left"),
        (timedelta(minutes=45, seconds=59), "45 minutes left"),
        (timedelta(seconds=0), "0 minutes left"),
        (-timedelta(hours=2), "passed 2 hours ago"),
        (-timedelta(days=2, hours=1), "passed 2 days 1 hour ago"),
    ],
)
def test_time_left_reads_naturally(delta: timedelta, text: str) -> None:
    assert frtypo.plain(describe_time_left(DEADLINE, DEADLINE - delta)) == text  # each count held to its noun


def test_no_deadline() -> None:
    assert describe_time_left(None, DEADLINE) == "no deadline set"


# -- status -----------------------------------------------------------------------------


def test_status_tells_who_has_orders_and_the_time_left(tmp_path: Path) -> None:
    game = status_game(tmp_path)
    give_orders(game, "valley", received="2024-02-28T10:00:00+00:00")
    give_orders(game, "outfit")  # put there by hand
    st = turn_status(game, TURN, now=DEADLINE - timedelta(days=2, hours=3))
    assert frtypo.plain(st.time_left()) == "2 days 3 hours left"
    assert st.missing == ["genna", "northside", "unione", "southside", "westside", "ragen"]
    rows = {g.gang: g for g in st.gangs}
    assert rows["valley"].received == datetime(2024, 2, 28, 10, 0, tzinfo=UTC)
    assert "orders received 2024-02-28 10:00 UTC (4 orders, 1 rejected)" in rows["valley"].line()
    assert "orders on file (not received by mail)" in rows["outfit"].line()
    assert "MISSING" in rows["genna"].line() and "no password (moonshine passwd)" in rows["genna"].line()
    assert "no address in game.yaml" in rows["ragen"].line()


def test_status_command(tmp_path: Path) -> None:
    game = status_game(tmp_path, deadline="2099-01-01T00:00:00+00:00")
    give_orders(game, "valley", received="2024-02-28T10:00:00+00:00")
    result = run(game, "status")
    assert result.exit_code == 0, result.output
    first = result.output.splitlines()[0]
    assert first.startswith(f"{TURN}: deadline 2099-01-01 00:00 UTC, ") and first.endswith(" left")
    assert "7 gangs without orders: outfit, genna, northside, unione, southside, westside, ragen" in result.output
    for gang in ("outfit", "valley", "ragen"):
        assert any(line.strip().startswith(gang) for line in result.output.splitlines())


def test_status_of_a_turn_not_in_the_game(tmp_path: Path) -> None:
    game = status_game(tmp_path)
    result = run(game, "status", "autumn-1930")
    assert result.exit_code == 1
    assert "no state for autumn-1930" in result.output


def test_status_with_a_deadline_without_time_zone_names_the_key(tmp_path: Path) -> None:
    game = status_game(tmp_path, deadline="2024-03-01T18:00:00")
    result = run(game, "status")
    assert result.exit_code == 1
    assert "deadlines.spring-1924" in result.output and "has no time zone" in result.output


# -- reminders ---------------------------------------------------------------------------


def _eml(path: Path) -> EmailMessage:
    msg = message_from_bytes(path.read_bytes(), policy=policy.default)
    assert isinstance(msg, EmailMessage)
    return msg


def test_reminders_go_to_the_gangs_without_orders(tmp_path: Path) -> None:
    game = status_game(tmp_path)
    give_orders(game, "valley")
    now = DEADLINE - timedelta(hours=5)
    messages, warnings = reminders(game, TURN, now=now)
    assert [m.name for m in messages] == ["remind-outfit.eml", "remind-genna.eml"]
    assert any(w.startswith("northside: no address") for w in warnings)
    msg = messages[0].message
    assert str(msg["To"]) == "al@outfit.example"
    assert str(msg["Subject"]).endswith("Spring 1924: orders wanted from Chicago Outfit")
    body = msg.get_content()
    assert "The deadline is Friday\u00a01\u00a0March\u00a02024, 18:00\u00a0UTC (5\u00a0hours left)." in body
    assert "    gang: outfit\n" in body  # the format reminder, with the gang's own key
    again, _ = reminders(game, TURN, now=now + timedelta(hours=1))
    assert again[0].message["Message-ID"] == msg["Message-ID"]  # one reminder per gang per day
    tomorrow, _ = reminders(game, TURN, now=now + timedelta(days=1))
    assert tomorrow[0].message["Message-ID"] != msg["Message-ID"]


def test_remind_command_writes_the_outbox(tmp_path: Path) -> None:
    game = status_game(tmp_path)
    give_orders(game, "valley")
    give_orders(game, "outfit")
    result = run(game, "remind")
    assert result.exit_code == 0, result.output
    assert "remind-genna.eml: angelo@genna.example" in result.output
    assert "1 reminder written" in result.output
    outbox = game.root / "outbox" / TURN
    assert sorted(p.name for p in outbox.glob("*.eml")) == ["remind-genna.eml"]
    assert "orders wanted from Genna Crime Family" in str(_eml(outbox / "remind-genna.eml")["Subject"])


def test_remind_send_delivers_once_a_day(tmp_path: Path, smtp: Server) -> None:
    game = status_game(tmp_path, smtp=smtp.smtp())
    give_orders(game, "valley")
    result = run(game, "remind", "--send")
    assert result.exit_code == 0, result.output
    got = sorted(tuple(r[1]) for r in smtp.recorder.received)
    assert got == [("al@outfit.example",), ("angelo@genna.example",)]
    again = run(game, "remind", "--send")
    assert again.exit_code == 0
    assert len(smtp.recorder.received) == 2
    assert again.output.count("already sent") == 2


# -- passwords --------------------------------------------------------------------------


def test_passwd_stores_only_a_salted_hash(tmp_path: Path) -> None:
    game = status_game(tmp_path)
    result = run(game, "passwd", "Valley Gang", "--password", "gin-and-tonic")
    assert result.exit_code == 0, result.output
    assert "Password set for valley (Valley Gang)" in result.output
    text = game.config_path.read_text()
    assert "gin-and-tonic" not in text
    stored = load_config(game.config_path).players["valley"].password
    assert stored is not None and stored.startswith("scrypt$")
    assert verify_password("gin-and-tonic", stored)
    assert not verify_password("gin-and-tonic ", stored)
    assert load_config(game.config_path).players["valley"].email == EMAILS["valley"]  # the rest is kept
    assert load_config(game.config_path).extra["deadlines"] == {TURN: DEADLINE.isoformat()}


def test_passwd_prompts_with_confirmation(tmp_path: Path) -> None:
    game = status_game(tmp_path)
    result = run(game, "passwd", "outfit", "--prompt", input="tommy-gun-1929\ntommy-gun-1929\n")
    assert result.exit_code == 0, result.output
    assert "tommy-gun-1929" not in result.output
    stored = load_config(game.config_path).players["outfit"].password
    assert stored is not None and verify_password("tommy-gun-1929", stored)
    mismatch = run(game, "passwd", "genna", "--prompt", input="one-thing-1929\nanother-1929\n")
    assert mismatch.exit_code != 0
    assert load_config(game.config_path).players["genna"].password is None


@pytest.mark.parametrize(
    ("gang", "password", "message"),
    [
        ("capone", "secret-1", "no gang 'capone' in this game (gangs: outfit, valley"),
        ("valley", "abc", "the password is too short"),
        ("valley", "1234", "the password is too short: at least 10 characters"),
        ("valley", "1234567890", "too easy to guess"),
        ("valley", "aaaaaaaaaaaa", "too easy to guess"),
        ("valley", " padded-password ", "cannot begin or end with a space"),
    ],
)
def test_passwd_refuses_with_a_reason(tmp_path: Path, gang: str, password: str, message: str) -> None:
    game = status_game(tmp_path)
    result = run(game, "passwd", gang, "--password", password)
    assert result.exit_code == 1
    assert message in result.output


def test_hashes_are_salted_and_damaged_ones_are_reported() -> None:
    a, b = hash_password("same"), hash_password("same")
    assert a != b and verify_password("same", a) and verify_password("same", b)
    with pytest.raises(ValueError, match="not a password hash"):
        verify_password("same", "plain-text")
    with pytest.raises(ValueError, match="damaged"):
        verify_password("same", "scrypt$16384$8$1$!!$!!")


def test_set_password_for_a_gang_without_player_entry(tmp_path: Path) -> None:
    game = status_game(tmp_path)
    cfg = game.config
    save_config(game, replace(cfg, players={k: v for k, v in cfg.players.items() if k != "ragen"}))
    assert set_password(Game(game.root), "ragen", "colts-4ever") == "ragen"
    with pytest.raises(GameError, match="no gang"):
        set_password(Game(game.root), "", "colts-4ever")


# -- a French game ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("delta", "text"),
    [
        (timedelta(days=3, hours=2, minutes=30), "il reste 3 jours et 2 heures"),
        (timedelta(days=1), "il reste 1 jour"),
        (timedelta(hours=1, minutes=5), "il reste 1 heure et 5 minutes"),
        (timedelta(minutes=1), "il reste 1 minute"),
        (timedelta(seconds=0), "il reste 0 minute"),
        (-timedelta(hours=2), "dépassée depuis 2 heures"),
        (-timedelta(days=2, hours=1), "dépassée depuis 2 jours et 1 heure"),
    ],
)
def test_time_left_in_french(delta: timedelta, text: str) -> None:
    assert frtypo.plain(describe_time_left(DEADLINE, DEADLINE - delta, "fr")) == text


def test_reminders_in_a_french_game(tmp_path: Path) -> None:
    game = status_game(tmp_path)
    save_config(game, replace(game.config, language="fr"))
    game = Game(game.root)
    give_orders(game, "valley")
    messages, _ = reminders(game, TURN, now=DEADLINE - timedelta(hours=5))
    msg = messages[0].message
    assert msg["Subject"] == frtypo.fr("[Moonshine: Chicago, 1924] printemps 1924 : ordres attendus de Chicago Outfit")
    body = frtypo.checked(msg.get_content())
    assert body.startswith(
        "L'arbitre n'a reçu aucun ordre de Chicago Outfit pour le printemps 1924.\n"
        "La date limite est le vendredi 1er mars 2024 à 18 h 00 UTC (il reste 5 heures).\n\n"
        "Sans ordres, vos unités tiennent leur position, votre gang vend autant de caisses qu'il le peut "
        "et n'offre aucun pot-de-vin.\n\n"
        "Envoyez vos ordres dans un courriel en texte brut"
    )
    assert "    gang: outfit\n    mot de passe: le mot de passe de votre gang\n" in body
    assert "    vendre 4\n\nLes derniers ordres reçus avant la date limite comptent." in body
    assert body.endswith("\n-- \nL'arbitre de Moonshine: Chicago, 1924\n")
    assert "deadline" not in body.lower() and "orders" not in body


def test_reminder_without_deadline_in_both_languages(tmp_path: Path) -> None:
    game = status_game(tmp_path)
    save_config(game, replace(game.config, extra={k: v for k, v in game.config.extra.items() if k != "deadlines"}))
    [english, *_], _ = reminders(Game(game.root), TURN, now=DEADLINE)
    assert "for Spring 1924.\nNo deadline is set yet.\n" in english.message.get_content()
    save_config(game, replace(load_config(game.config_path), language="fr"))
    [french, *_], _ = reminders(Game(game.root), TURN, now=DEADLINE)
    assert "pour le printemps 1924.\nAucune date limite n'est encore fixée.\n" in french.message.get_content()


def test_status_as_json_for_scripts(tmp_path: Path) -> None:
    import json

    game = status_game(tmp_path, deadline="2099-01-01T00:00:00+00:00")
    give_orders(game, "valley", received="2024-02-28T10:00:00+00:00")
    give_orders(game, "outfit")  # put there by hand
    set_password(game, "valley", "a long enough secret")
    result = run(game, "status", "--json")
    assert result.exit_code == 0, result.output
    status = json.loads(result.output)
    assert status["turn"] == TURN
    assert status["deadline"] == "2099-01-01T00:00:00+00:00"
    assert status["seconds_left"] > 0
    assert status["missing"] == ["genna", "northside", "unione", "southside", "westside", "ragen"]
    sides = {s["side"]: s for s in status["sides"]}
    assert list(sides) == list(game.sides())
    assert sides["valley"] == {
        "side": "valley",
        "name": game.sides()["valley"],
        "orders": "received",
        "received": "2024-02-28T10:00:00+00:00",
        "accepted": 4,
        "rejected": 1,
        "addresses": ["terry@valley.example"],
        "password_set": True,
        "refused": {},
        "last_refused_from": None,
    }
    assert sides["outfit"]["orders"] == "on file" and sides["outfit"]["password_set"] is False
    assert sides["genna"]["orders"] == "missing"
    assert sides["ragen"]["addresses"] == []


def test_passwd_makes_a_passphrase_by_default_and_shows_it_once(tmp_path: Path) -> None:
    game = status_game(tmp_path)
    result = run(game, "passwd", "valley")
    assert result.exit_code == 0, result.output
    shown = re.search(r"^The new password: (\S+)$", result.output, re.M)
    assert shown is not None, result.output
    words = shown.group(1).split("-")
    assert len(words) == 5 and all(w in PASSPHRASE_WORDS for w in words[:4]) and words[4].isdigit()
    stored = load_config(game.config_path).players["valley"].password
    assert stored is not None and verify_password(shown.group(1), stored)
    again = run(game, "passwd", "valley")
    assert re.search(r"^The new password: (\S+)$", again.output, re.M).group(1) != shown.group(1)  # type: ignore[union-attr]


def test_a_password_is_the_same_however_its_letters_are_composed() -> None:
    import unicodedata

    composed = unicodedata.normalize("NFC", "fée-clochette-1924")
    decomposed = unicodedata.normalize("NFD", composed)
    assert composed != decomposed
    assert verify_password(decomposed, hash_password(composed))
    assert verify_password(composed, hash_password(decomposed))
    assert verify_password(
        "ｆｅｅ-1924-ｂｉｓ", hash_password("fee-1924-bis")
    )  # full-width letters, as some phones type


def test_a_hash_stored_before_normalisation_still_verifies() -> None:
    import base64
    import hashlib

    typed = "fe\u0301e-clochette-1924"  # as a mail program sent it, decomposed
    salt = b"0123456789abcdef"
    digest = hashlib.scrypt(typed.encode(), salt=salt, n=2**14, r=8, p=1, dklen=32, maxmem=2**25)
    stored = f"scrypt$16384$8$1${base64.b64encode(salt).decode()}${base64.b64encode(digest).decode()}"
    assert verify_password(typed, stored)


def test_status_reads_the_clock_it_is_given(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    game = status_game(tmp_path)
    result = run(game, "status", "--now", "2024-02-28T18:00:00+00:00")
    assert result.exit_code == 0, result.output
    assert frtypo.plain(result.output.splitlines()[0]).endswith("2 days left"), result.output
    monkeypatch.setenv("MOONSHINE_NOW", "2024-03-01T17:00:00+00:00")
    assert frtypo.plain(run(game, "status").output.splitlines()[0]).endswith("1 hour left")
    assert "is not a date and time" in run(game, "status", "--now", "soon").output
