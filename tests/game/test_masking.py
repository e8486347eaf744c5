"""moonshine.game.masking: no password survives in what the referee writes, and player
text reaches the terminal without escape or bidirectional-control characters."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from moonshine.game.masking import (
    MASK,
    blank_password_lines,
    mask,
    mask_password_lines,
    password_values,
    terminal_safe,
)

SECRET = st.text(st.characters(blacklist_categories=("Cs", "Cc", "Zl", "Zp")), min_size=4, max_size=30).filter(
    lambda s: s == s.strip()
)
KEYS = st.sampled_from(["password", "Password", "PASSWORD", "passwd", "pass", "mot de passe", "mdp", "Mot de passe"])


@given(SECRET, KEYS, st.sampled_from(["", "> ", ">> ", "  "]), st.sampled_from([":", " :", " : ", "\u00a0: "]))
def test_a_password_line_never_keeps_its_value(secret: str, key: str, quote: str, colon: str) -> None:
    text = f"gang: valley\n{quote}{key}{colon}{secret}\nH LOO - NSS\n"
    masked = mask_password_lines(text)
    assert masked.splitlines()[1] == f"{quote}{key}{colon}{MASK}"  # the value gone (even one that looks like the mask)
    assert masked.splitlines()[0] == "gang: valley" and masked.splitlines()[2] == "H LOO - NSS"
    assert password_values(text) == [secret.strip()]
    assert blank_password_lines(text).splitlines() == ["gang: valley", "", "H LOO - NSS"]


@given(SECRET, st.text(max_size=40), st.text(max_size=40))
def test_a_known_secret_is_masked_wherever_it_is(secret: str, before: str, after: str) -> None:
    assert secret not in mask(before + secret + after, [secret]).replace(MASK, "\0")


def test_a_password_in_a_subject_is_masked() -> None:
    assert mask("orders, password: tommy-gun") == f"orders, password: {MASK}"
    assert mask("Re: orders (mot de passe=gin)") == f"Re: orders (mot de passe={MASK}"


@given(st.text(max_size=200))
def test_terminal_text_has_no_control_or_bidi_character(text: str) -> None:
    shown = terminal_safe(text)
    # the no-break spaces of French typography are neither controls nor bidi characters
    assert all(ch.isprintable() or ch in "\n\t\u00a0\u202f" for ch in shown)
    if text.isprintable():
        assert shown == text


def test_a_french_report_reaches_the_terminal_as_written() -> None:
    french = "Valley Gang\u00a0: rapport privé\u202f; 3,50\u00a0$"
    assert terminal_safe(french) == french


def test_escape_and_bidi_characters_are_shown_escaped() -> None:
    assert terminal_safe("gang: \x1b[2Jvalley\u202e") == "gang: \\x1b[2Jvalley\\u202e"
