"""Public press (issue 41): a game whose press is ``public`` relays broadcasts only,
signed with the sender's side; private press and anonymous broadcasts are refused with
a reason, in English and in French, and relayed to no one. Through the real mailbox
and SMTP path, as tests/mail/test_press.py."""

from __future__ import annotations

from pathlib import Path

import frtypo
import pytest
from playerkit import ADDRESSES, GM, OBSERVER, Table, make_table, message
from smtpkit import Server

from moonshine.game.directory import load_config_text
from moonshine.mail.commands import press

TERRY, AL, ANGELO = ADDRESSES["valley"][0], ADDRESSES["outfit"][0], ADDRESSES["genna"][0]
WORDS = {
    "en": {
        "press": "press to outfit",
        "end": "end press",
        "broadcast": "broadcast",
        "anonymous": "broadcast anonymous",
        "refused": "REFUSED",
        "done": "done",
        "public_only": "this game has public press only",
        "signed": "public press: every broadcast is signed",
        "status": "Press: public (broadcasts only, signed).",
    },
    "fr": {
        "press": "presse à outfit",
        "end": "fin presse",
        "broadcast": "diffusion",
        "anonymous": "diffusion anonyme",
        "refused": "REFUSÉ",
        "done": "fait",
        "public_only": "cette partie n'a que de la presse publique",
        "signed": "presse publique : toute diffusion est signée",
        "status": "Presse : publique (diffusions seulement, signées).",
    },
}


def table(tmp_path: Path, smtp: Server, language: str) -> Table:
    return make_table(tmp_path, smtp, language=language, press={"kind": "public"})


@pytest.mark.parametrize("language", ["en", "fr"])
def test_public_press_relays_broadcasts_only(tmp_path: Path, smtp: Server, language: str) -> None:
    w = WORDS[language]
    t = table(tmp_path, smtp, language)
    t.send(TERRY, message("valley", w["press"], "Just between us, Al.", w["end"], "status"))
    t.send(ANGELO, message("genna", w["anonymous"], "Guess who.", "end"))
    t.send(AL, message("outfit", w["broadcast"], "The Outfit wants peace.", "end"))
    t.judge()
    said = t.last_reply(TERRY)
    said = frtypo.checked(said) if language == "fr" else said
    assert f"{w['press']} -> {w['refused']}" in said and w["public_only"] in said
    assert w["status"] in said
    said = t.last_reply(ANGELO)
    said = frtypo.checked(said) if language == "fr" else said
    assert f"{w['anonymous']} -> {w['refused']}" in said and w["signed"] in said
    assert f"{w['broadcast']} -> {w['done']}" in t.last_reply(AL)
    for address in (AL, ANGELO, OBSERVER, GM):
        assert not any("Just between us" in x or "Guess who" in x for x in t.texts_of(address)), address
    for address in (TERRY, ANGELO, OBSERVER):
        [relayed] = [x for x in t.texts_of(address) if "The Outfit wants peace." in x]
        assert "Chicago Outfit" in relayed  # signed by its side


def test_public_is_a_kind_of_press_of_game_yaml() -> None:
    cfg = load_config_text("map: chicago-1920s\npress:\n  kind: public\n", "game.yaml")
    assert press.rules(cfg).kind == press.PUBLIC
