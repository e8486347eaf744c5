"""Every command on a sample game of every variant (Moonshine, classic, pure): it
works where it applies, or says clearly why not; never a traceback, never
"cannot read the map file"."""

from __future__ import annotations

import re
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from pathlib import Path

import frtypo
import pytest
from click.testing import CliRunner, Result

from moonshine.cli import main

VARIANTS = ("moonshine", "classic", "pure")
FIRST = {"moonshine": "spring-1924", "classic": "spring-1901", "pure": "spring-1901"}
SIDE = {"moonshine": "outfit", "classic": "FRA", "pure": "FRA"}
# One good order and one misspelt place for each variant's sample side.
ORDERS = {
    "moonshine": "gang: outfit\nL NOT H\n",
    "classic": "A PAR - BUR\nA MAR S A PAR - BUR\nF BRE - MAO\nF PAX - BUR\n",  # no fleet in PAR: refused
    "pure": "A PAR - LON\nF PAX - BER\n",
}


def run(game: Path, *args: str) -> Result:
    result = CliRunner().invoke(main, [*args, "--game", str(game)] if args[0] != "map" else list(args))
    text = result.output
    assert "cannot read the map file" not in text
    assert "Traceback" not in text
    if result.exception is not None:
        assert isinstance(result.exception, SystemExit), repr(result.exception)
    return result


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    made = {}
    for variant in VARIANTS:
        root = tmp_path_factory.mktemp(variant) / "game"
        extra = ["--seed", "matrix"]
        done = CliRunner().invoke(main, ["new", str(root), "--variant", variant, "--no-git", *extra])
        assert done.exit_code == 0, done.output
        orders = root / "orders" / FIRST[variant]
        (orders / f"{SIDE[variant]}.txt").write_text(ORDERS[variant], encoding="utf-8")
        made[variant] = root
    return made


@pytest.mark.parametrize("variant", VARIANTS)
def test_check_acknowledges_every_line(games: dict[str, Path], variant: str) -> None:
    game = games[variant]
    path = game / "orders" / FIRST[variant] / f"{SIDE[variant]}.txt"
    result = run(game, "check", str(path))
    if variant == "moonshine":
        assert result.exit_code == 0, result.output
        assert "ORDERS AS UNDERSTOOD" in result.output
        return
    assert result.exit_code == 1  # one line is rejected
    assert "REJECTED" in result.output and "did you mean PAR (Paris)?" in result.output
    assert "accepted" in result.output
    french = run(game, "check", str(path), "--language", "fr", "--turn", "printemps-1901")
    said = frtypo.checked(french.output)
    assert "vouliez-vous dire PAR (Paris) ?" in said and "accepté" in said
    assert "France (FRA) : ordres, printemps 1901 (mouvement)" in said


@pytest.mark.parametrize("variant", VARIANTS)
def test_status_passwd_remind(games: dict[str, Path], variant: str) -> None:
    game = games[variant]
    word = "gang" if variant == "moonshine" else "power"
    status = run(game, "status")
    assert status.exit_code == 0, status.output
    assert f"{word}s without orders" in status.output
    assert "orders on file" in status.output
    done = run(game, "passwd", SIDE[variant], "--password", "correct-horse-staple")
    assert done.exit_code == 0 and f"Password set for {SIDE[variant]}" in done.output
    unknown = run(game, "passwd", "Nobody", "--password", "correct-horse-staple")
    assert unknown.exit_code == 1 and f"Error: no {word} 'Nobody'" in unknown.output
    remind = run(game, "remind")
    assert remind.exit_code == 0, remind.output
    assert "No reminder to write." in remind.output  # nobody has an address yet


@pytest.mark.parametrize("variant", VARIANTS)
def test_reveal(games: dict[str, Path], variant: str) -> None:
    """Every variant keeps a secret seed (a classic game's draws the civil-disorder
    player's choices, R26), shown once the game is over."""
    result = run(games[variant], "reveal")
    assert result.exit_code == 1
    assert "the game is not over" in result.output
    forced = run(games[variant], "reveal", "--force")
    assert forced.exit_code == 0 and "Seed: matrix" in forced.output
    assert "civil-disorder|TURN|SIDE" in forced.output
    assert ("Each turn's raid" in forced.output) == (variant == "moonshine")


@pytest.mark.parametrize("variant", VARIANTS)
def test_verify_cd(games: dict[str, Path], variant: str) -> None:
    """A player's own orders are not the civil-disorder player's (R26), in every
    variant: each keeps its secret seed."""
    game, side = games[variant], SIDE[variant]
    result = run(game, "verify-cd", FIRST[variant], side)
    if variant != "moonshine":
        result = run(game, "verify-cd", FIRST[variant], side, "--seed", "matrix", "--player", "smart")
    assert result.exit_code == 1, result.output
    assert "the file differs" in result.output
    assert f"# civil disorder: {'keep' if variant == 'moonshine' else 'smart'} (R26), seed" in result.output


@pytest.mark.parametrize("variant", VARIANTS)
def test_map_check(games: dict[str, Path], variant: str) -> None:
    result = run(games[variant], "map", "check", "chicago-1920s" if variant == "moonshine" else variant)
    if variant == "moonshine":
        assert result.exit_code == 0 and "OK: the map is consistent" in result.output
    else:
        assert result.exit_code == 1 and "is a board of the classic family" in result.output


@pytest.mark.parametrize("variant", VARIANTS)
def test_inbox_empty_mailbox(games: dict[str, Path], variant: str, tmp_path: Path) -> None:
    box = tmp_path / "mail"
    box.mkdir()
    result = run(games[variant], "inbox", str(box))
    assert result.exit_code == 0 and "no new message" in result.output


def _mail(sender: str, body: str, msgid: str) -> bytes:
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = "referee@example.org"
    msg["Subject"] = "orders"
    msg["Date"] = "Wed, 25 Nov 2026 10:00:00 +0000"
    msg["Message-ID"] = msgid
    msg.set_content(body)
    return msg.as_bytes()


@pytest.mark.parametrize("variant", ["classic", "pure"])
def test_inbox_reads_a_powers_orders_by_mail(tmp_path: Path, variant: str) -> None:
    game = tmp_path / "game"
    made = CliRunner().invoke(main, ["new", str(game), "--variant", variant, "--no-git"])
    assert made.exit_code == 0, made.output
    config = game / "game.yaml"
    config.write_text(
        config.read_text(encoding="utf-8").replace("email: []", "email: [anne@example.org]", 3), encoding="utf-8"
    )
    secret = "walnut-orchard-42"
    assert run(game, "passwd", "FRA", "--password", secret).exit_code == 0
    box = tmp_path / "box"
    box.mkdir()
    good = "Hello referee,\n\npower: France\npassword: " + secret + "\n" + ORDERS[variant] + "\nCheers, Anne\n"
    (box / "1.eml").write_bytes(_mail("anne@example.org", good, "<one@example.org>"))
    wrong = "power: FRA\npassword: not-the-password\nA PAR H\n"
    (box / "2.eml").write_bytes(_mail("anne@example.org", wrong, "<two@example.org>"))
    result = run(game, "inbox", str(box))
    assert result.exit_code == 0, result.output
    assert re.search(r"^accepted\s+FRA\s+anne@example\.org: \d orders? read, 1 rejected", result.output, re.M)
    assert "1 accepted, 1 rejected" in result.output
    saved = (game / "orders" / "spring-1901" / "FRA.txt").read_text(encoding="utf-8")
    assert secret not in saved and "power: France" in saved
    everything = "".join(p.read_text(encoding="utf-8", errors="replace") for p in game.rglob("*") if p.is_file())
    assert secret not in everything  # no file of the game holds the password
    replies = sorted((game / "outbox" / "spring-1901").glob("reply-*.eml"))
    texts = [BytesParser(policy=policy.default).parsebytes(p.read_bytes()) for p in replies]
    bodies = [m.get_body(preferencelist=("plain",)).get_content() for m in texts]  # type: ignore[union-attr]
    assert any("did you mean PAR (Paris)?" in b and "the army in Paris moves to" in b for b in bodies)
    assert any("password" in b.lower() and "did you mean" not in b for b in bodies)  # the refusal
    status = run(game, "status")
    assert re.search(r"FRA\s+France\s+orders received", status.output)
    done = run(game, "adjudicate", "spring-1901")
    assert done.exit_code == 0 and "Unreadable" not in done.output
    moved = "moved to BUR" if variant == "classic" else "A PAR - LON"  # in pure, it bounces off A LON
    assert moved in done.output


@pytest.mark.parametrize("variant", VARIANTS)
def test_adjudicate_report_mail_rollback(games: dict[str, Path], variant: str) -> None:
    game, turn = games[variant], FIRST[variant]
    done = run(game, "adjudicate", turn, "--force")
    assert done.exit_code == 0, done.output
    assert "Results:" in done.output
    report = run(game, "report", turn)
    assert report.exit_code == 0, report.output
    assert "bulletin.txt" in report.output and "map.png" in report.output
    assert f"{SIDE[variant]}.html" in report.output
    config = game / "game.yaml"
    text = config.read_text(encoding="utf-8")
    config.write_text(text.replace("email: []", "email: [someone@example.org]", 1), encoding="utf-8")
    mail = run(game, "mail", turn)
    assert mail.exit_code == 0, mail.output
    assert "bulletin.eml" in mail.output and "nothing sent" in mail.output
    config.write_text(text, encoding="utf-8")
    back = run(game, "rollback", turn)
    assert back.exit_code == 0, back.output
    assert f"The game is back at the start of {turn}" in back.output
    again = run(game, "rollback", turn)
    assert "Nothing to undo" in again.output


def _phase(game: Path, phase: str, orders: dict[str, str]) -> Result:
    for power, text in orders.items():
        (game / "orders" / phase / f"{power}.txt").write_text(text, encoding="utf-8")
    done = run(game, "adjudicate", phase)
    assert done.exit_code == 0, done.output
    return done


def test_classic_reports_give_centres_retreats_and_builds(tmp_path: Path) -> None:
    game = tmp_path / "game"
    made = CliRunner().invoke(main, ["new", str(game), "--variant", "classic", "--no-git", "--language", "fr"])
    assert made.exit_code == 0, made.output
    (game / "turns" / "spring-1901" / "state.yaml").write_text(
        "phase: fall-1901\n"
        "units:\n  FRA: [A PAR, A BUR]\n  GER: [A MUN, A RUH]\n"
        "owners:\n  FRA: [BRE, MAR, PAR]\n  GER: [BER, KIE, MUN]\n",
        encoding="utf-8",
    )
    (game / "turns" / "spring-1901").rename(game / "turns" / "fall-1901")
    (game / "orders" / "spring-1901").rename(game / "orders" / "fall-1901")
    _phase(game, "fall-1901", {"GER": "A MUN - BUR\nA RUH S A MUN - BUR\n", "FRA": "A BUR H\n"})
    bulletin = frtypo.checked((game / "turns" / "fall-1901" / "reports" / "bulletin.txt").read_text(encoding="utf-8"))
    assert "UNITÉS DÉLOGÉES" in bulletin and "bulletin, automne 1901" in bulletin
    assert "A BUR (FRA) peut se retirer en : BEL, GAS, MAR, PIC" in bulletin
    english = run(game, "report", "fall-1901", "--gang", "france", "--print", "--language", "en")
    assert "A BUR (FRA) may retreat to: BEL, GAS, MAR, PIC" in english.output
    assert "France (FRA): 3 centres, 1 unit\n" in english.output
    assert "GER" not in english.output.split("SUPPLY CENTRES")[0]  # a private report shows its own orders
    _phase(game, "fall-1901-retreats", {"FRA": "A BUR R BEL\n"})
    report = run(game, "report", "fall-1901-retreats", "--gang", "FRA", "--print", "--language", "en")
    assert "France (FRA): 4 centres, 2 units" in report.output
    assert "BUILDS AND DISBANDS OWED" in report.output and "France (FRA) may build 2" in report.output
    assert "Next phase: Winter 1901" in report.output
    html = (game / "turns" / "fall-1901-retreats" / "reports" / "FRA.html").read_text(encoding="utf-8")
    assert 'src="map.png"' in html and "peut construire 2" in html  # opened from the disk, the map shows
    assert (game / "turns" / "fall-1901-retreats" / "reports" / "map.png").read_bytes()[:4] == b"\x89PNG"
    # the bulletin shows the supply centres per power, year by year: a chart beside it
    reports = game / "turns" / "fall-1901-retreats" / "reports"
    assert (reports / "centres.png").read_bytes()[:4] == b"\x89PNG"
    assert 'src="centres.png"' in (reports / "bulletin.html").read_text(encoding="utf-8")
    assert 'src="centres.png"' not in html  # a power's own report has the map only
    from moonshine.game.families.classic import centres_chart, load_state
    from moonshine.variants.classic.board import standard_map

    board = standard_map()
    chart = centres_chart(game, board, load_state(game, "winter-1901", board), "en")
    assert chart.turns == ("1901",) and chart.target == 18
    assert {s.name: s.values for s in chart.series}["France"] == (4.0,)  # as the report says: 4 centres


def test_an_interrupted_classic_adjudication_leaves_the_game_as_it_was(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from moonshine.game.families import classic as classic

    game = tmp_path / "game"
    assert CliRunner().invoke(main, ["new", str(game), "--variant", "classic", "--no-git"]).exit_code == 0
    (game / "orders" / "spring-1901" / "FRA.txt").write_text("A PAR - BUR\n", encoding="utf-8")
    before = sorted(p.relative_to(game).as_posix() for p in game.rglob("*") if p.is_file())

    def broken(*args: object, **kwargs: object) -> list[Path]:
        raise KeyboardInterrupt  # the run is stopped once results and the next state are written

    monkeypatch.setattr(classic, "write_phase_reports", broken)
    CliRunner().invoke(main, ["adjudicate", "spring-1901", "--game", str(game)])
    after = sorted(p.relative_to(game).as_posix() for p in game.rglob("*") if p.is_file())
    left = (".moonshine-journal", ".moonshine.lock")  # the journal and the lock: not the game's files
    assert [p for p in after if not p.startswith(left)] == before
    monkeypatch.undo()
    done = run(game, "adjudicate", "spring-1901")
    assert done.exit_code == 0 and "moved to BUR" in done.output


def test_the_variant_value_says_who_plays_and_orders_its_turns() -> None:
    from moonshine import variants

    moonshine, classic = variants.get("moonshine"), variants.get("classic")
    assert (moonshine.side, classic.side, variants.get("pure").side) == ("gang", "power", "power")
    phases = ["winter-1901", "spring-1902", "fall-1901-retreats", "spring-1901", "fall-1901"]
    assert sorted(phases, key=classic.turn_key) == [
        "spring-1901",
        "fall-1901",
        "fall-1901-retreats",
        "winter-1901",
        "spring-1902",
    ]
    assert sorted(["spring-1925", "autumn-1924", "spring-1924"], key=moonshine.turn_key)[0] == "spring-1924"
    with pytest.raises(ValueError):
        moonshine.turn_key("winter-1901")
