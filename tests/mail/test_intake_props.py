"""Properties of the mail-reading layer: for any new text and any text quoted or
forwarded below it, in the forms of Gmail, Outlook, Apple Mail and Thunderbird in
English and French, only the new text is read: by ``moonshine.mail.intake`` alone, and
by the inbox with the real order reader (the orders taken are those of the new
text; a password only in the quoted copy is never taken)."""

from __future__ import annotations

from datetime import UTC, datetime
from email.message import EmailMessage
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from msgspec.structs import replace
from samplegame import copy_sample

from moonshine.game.directory import Game, save_config
from moonshine.mail import inbox, intake
from moonshine.mail.passwords import _b64, _scrypt
from moonshine.variants.moonshine.checker import ACCEPTED, read_orders

TURN = "spring-1924"
PASSWORD = "valley-secret-1924"
VALLEY = "valley@players.example.org"
NOW = datetime(2024, 2, 29, 12, 0, tzinfo=UTC)

ORDER_LINES = [
    "H LOO - LIT",
    "H NSS / H LOO - LIT",
    "L KEN hold",
    "L BRO - FIV",
    "sell all",
    "H LOO hold",
    "H NSS hold",
]
CHATTER = ["Hi all,", "Bonjour,", "Thanks", "Cordialement,", "Terry", "Sent from my iPhone", "Envoyé de mon iPhone"]

# Text a quoted copy may hold: anything, and in particular orders and password lines.
ANY_TEXT = st.lists(
    st.one_of(
        st.sampled_from([*ORDER_LINES, f"password: {PASSWORD}", "gang: outfit", "password: x-guess", "-- ", ""]),
        st.text(st.characters(blacklist_categories=("Cs",)), max_size=60),
    ),
    max_size=12,
).map("\n".join)


def _quoted(text: str) -> str:
    return "".join(f"> {line}\n" if line else ">\n" for line in text.splitlines())


QUOTE_FORMS = {
    "gmail-en": lambda t: f"\nOn Tue, Feb 27, 2024 at 9:00 AM Terry <{VALLEY}> wrote:\n\n" + _quoted(t),
    "gmail-fr": lambda t: f"\nLe mar. 27 févr. 2024 à 09:00, Terry <{VALLEY}> a écrit :\n\n" + _quoted(t),
    "apple-en": lambda t: f"\n> On 27 Feb 2024, at 09:00, Terry <{VALLEY}> wrote:\n>\n" + _quoted(t),
    "apple-fr": lambda t: f"\nLe 27 févr. 2024 à 09:00, Terry <{VALLEY}> a\u202fécrit\u202f:\n\n" + _quoted(t),
    "thunderbird": lambda t: "\nOn 27/02/2024 09:00, Terry wrote:\n" + _quoted(t),
    "outlook-en": lambda t: (
        f"\n-----Original Message-----\nFrom: Terry <{VALLEY}>\nSent: Tuesday\nTo: ref\nSubject: x\n\n{t}\n"
    ),
    "outlook-fr": lambda t: (
        f"\n________________________________\nDe : Terry\nEnvoyé : mardi\nÀ : ref\nObjet : x\n\n{t}\n"
    ),
    "forward-en": lambda t: f"\n---------- Forwarded message ---------\nFrom: Terry <{VALLEY}>\n\n{t}\n",
    "forward-fr": lambda t: f"\nDébut du message réexpédié :\n\nDe: Terry\n\n{t}\n",
    "quoted-only": lambda t: "\n" + _quoted(t),
}

NEW_TEXT = st.tuples(
    st.lists(st.sampled_from(CHATTER), max_size=2),
    st.lists(st.sampled_from(ORDER_LINES), min_size=1, max_size=5),
    st.lists(st.sampled_from(CHATTER), max_size=3),
    st.booleans(),
).map(lambda p: "\n".join([*p[0], "gang: valley", *([f"password: {PASSWORD}"] if p[3] else []), *p[1], *p[2]]) + "\n")


def _own_lines(text: str) -> list[str]:
    return [line for line in intake.own_text(text).text.splitlines() if line.strip()]


@given(NEW_TEXT, ANY_TEXT, st.sampled_from(sorted(QUOTE_FORMS)))
@settings(max_examples=300, deadline=None)
def test_only_the_new_text_is_read(new: str, old: str, form: str) -> None:
    message = new + QUOTE_FORMS[form](old)
    assert _own_lines(message) == _own_lines(new) == [line for line in new.splitlines() if line.strip()]
    assert intake.own_text(message).quoted or not old.strip()


@pytest.fixture(scope="module")
def game_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("props") / "game"
    copy_sample(root)
    for p in (root / "orders" / TURN).glob("*.txt"):
        p.unlink()
    game = Game(root)
    salt = b"props-salt-16byt"
    cheap = f"scrypt$16$1$1${_b64(salt)}${_b64(_scrypt(PASSWORD, salt, 16, 1, 1))}"
    players = {g: replace(p, password=cheap) for g, p in game.config.players.items()}
    save_config(
        game,
        replace(
            game.config, players=players, extra={**game.config.extra, "deadlines": {TURN: "2024-03-01T18:00:00+00:00"}}
        ),
    )
    return root


COUNTER = iter(range(10**9))


@given(NEW_TEXT, ANY_TEXT, st.sampled_from(sorted(QUOTE_FORMS)))
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_the_inbox_takes_the_orders_of_the_new_text_only(game_dir: Path, new: str, old: str, form: str) -> None:
    game = Game(game_dir)
    n = next(COUNTER)
    msg = EmailMessage()
    msg["Received"] = "from mx by mail.moonshine.example; Wed, 28 Feb 2024 10:00:00 +0000"
    msg["From"] = f"Terry <{VALLEY}>"
    msg["Subject"] = "Re: orders"
    msg["Message-ID"] = f"<prop-{n}@players.example.org>"
    msg.set_content(new + QUOTE_FORMS[form](old))
    path = game_dir.parent / f"m{n}.eml"
    path.write_bytes(msg.as_bytes())
    saved = game.orders_dir(TURN) / "valley.txt"
    saved.unlink(missing_ok=True)
    [o] = inbox.process(game, path, now=NOW)
    st_ = game.load_state(TURN)
    if "password:" not in new:  # a password only in the quoted copy is never taken
        assert o.status == "rejected" and "password" in o.reason, o.line()
        assert not saved.exists()
        return
    assert o.status == "accepted", o.line()
    expected = read_orders(new, game.map, st_, "valley")
    got = read_orders(saved.read_text(encoding="utf-8"), game.map, st_, "valley")
    taken = [ln.order.text() for ln in got.lines if ln.order is not None and ln.status == ACCEPTED]
    assert taken == [ln.order.text() for ln in expected.lines if ln.order is not None and ln.status == ACCEPTED]
