"""Anonymous and gunboat games (issue 41): a judge for many games plays an anonymous
gunboat season on real servers (pymap and aiosmtpd on 127.0.0.1), and every mail
delivered before the end (headers, every text part, the JSON attachments) is read for
any player's name or address other than its recipient's own. The master's own mail
(the masters know who plays which side, and so play in no anonymous game) is checked
apart: it names players, never an address. An observer gets the bulletin and asks for
the status and a bulletin. The draw of sides is redone from the start mail's tokens
alone; at the end each player is told who played which side, in their language, the
game's list names them, and the site names them.

Then a game of its own: its end writes one mail a side and records the reveal once;
played on real servers, its press and broadcasts are signed by side, and no mail before
the end names another player or address; a classic game's site names its players once
the end reveals them, never with ``reveal_identities: never``; and game.yaml's
settings, checked."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from pathlib import Path

import pytest
from click.testing import CliRunner
from frtypo import checked
from gamekit import make_game
from imapkit import Server
from judgekit import JUDGE, START, Judge, Mail, addr, is_password_mail, one, text_of
from msgspec.structs import replace
from runkit import plain
from smtpkit import Server as SmtpServer

from moonshine.cli import main
from moonshine.game import identities
from moonshine.game.directory import Game, Player, save_config
from moonshine.game.families import new_game
from moonshine.host.games import draw

NAMES = {
    0: "Mona Masterson",
    1: "Zelda Quorn",
    2: "Yannick Brisk",
    3: "Xavier Plume",
    4: "Wanda Thistle",
    5: "Violette Garnier",  # reads French
    6: "Ulrich Fennel",  # takes a side over
    7: "Tobias Kestrel",  # never plays: lists and observes the game
}
FRENCH = 5


class Season:
    def __init__(self, j: Judge) -> None:
        self.j = j
        self.passes: list[tuple[str, Mail]] = []
        self.sides: dict[int, str] = {}  # player -> side, as their start mail says

    def run(self, at: datetime, label: str) -> Mail:
        self.j.run(at)
        mail = self.j.new_mail()
        self.passes.append((label, mail))
        return mail

    def pw(self, n: int) -> str:
        return f"password: {self.j.passwords[addr(n)]}\n"


def play(j: Judge) -> Season:
    s = Season(j)
    t = START
    for n, name in NAMES.items():
        words = f"inscription {name}, Europe/Paris, fr" if n == FRENCH else f"register {name}, America/Chicago"
        j.send(addr(n), words + "\n", t)
    mail = s.run(t + timedelta(minutes=1), "registration")
    for n in NAMES:
        [secret] = [plain(m) for r, m in mail if r == [addr(n)] and is_password_mail(m)]
        found = re.search(r"(?:for all your games:|pour toutes vos parties\s?:)\s(\S+)", secret)
        assert found is not None, secret
        j.passwords[addr(n)] = found.group(1)

    # -- the master creates a gunboat game, and may not play in it
    t += timedelta(hours=1)
    j.send(addr(0), s.pw(0) + "create ghost moonshine\ngunboat: yes\nevery: 72h\nend\njoin ghost outfit\n", t)
    reply = one(s.run(t + timedelta(minutes=1), "create"), addr(0))
    assert "ghost is created" in reply and "press none" in reply and "It is anonymous" in reply
    assert "its masters know who plays which side, so they do not play in it" in reply

    # -- five players join with their preferences; anyone may list the game, its master sees who
    t += timedelta(hours=1)
    joins = {1: "outfit valley", 2: "outfit", 3: "genna", 4: "", 5: "northside"}
    for n, prefs in joins.items():
        j.send(addr(n), s.pw(n) + ("rejoindre" if n == FRENCH else "join") + f" ghost {prefs}\n", t)
    s.run(t + timedelta(minutes=1), "joins")
    j.send(addr(7), "list ghost\nlist\n", t + timedelta(minutes=2))
    j.send(addr(0), s.pw(0) + "list ghost\n", t + timedelta(minutes=2))
    mail = s.run(t + timedelta(minutes=3), "lists")
    listed = one(mail, addr(7))
    assert "Players: 5 (an anonymous game: its players are not named)" in listed, listed
    assert "anonymous: no player is told who plays which side" in listed
    assert all(NAMES[n] in one(mail, addr(0)) for n in joins)  # the master's own list

    # -- the master starts it: three sides vacant; each player's start mail names nobody
    t += timedelta(hours=1)
    j.send(addr(0), s.pw(0) + "start ghost\n", t)
    mail = s.run(t + timedelta(minutes=1), "start")
    for n in joins:
        start = plain(next(m for r, m in mail if r == [addr(n)] and re.search("starts|commence", str(m["Subject"]))))
        start = checked(start) if n == FRENCH else start
        side = re.search(r"^    (?:gang|bande) ?: (\w+)$", start, re.M)
        assert side is not None, start
        s.sides[n] = side.group(1)
        redo_the_draw(start, n)

    on_record(j, t)
    # the judge's operator lets Tobias observe the game (observers: in its game.yaml)
    ghost = Game(j.root / "games" / "ghost")
    save_config(ghost, replace(ghost.config, extra={**ghost.config.extra, "observers": [addr(7)]}))

    # -- orders; press of any kind is refused in a gunboat game; a draw is proposed
    t += timedelta(hours=1)
    for n, side in s.sides.items():
        more = ""
        if n == 2:
            more = "broadcast\nPeace to all. LEAKTOKEN-1\nend\n"
        if n == 3:
            more = f"press to {s.sides[1]}\nIt is me, {NAMES[3]}. LEAKTOKEN-2\nend press\n"
        if n == 4:
            more = "draw\n"
        j.send(addr(n), f"game: ghost\ngang: {side}\n{s.pw(n)}sell all\n{more}", t)
    mail = s.run(t + timedelta(minutes=1), "orders")
    assert not [m for _, m in mail if "LEAKTOKEN" in text_of(m) and "Re:" not in str(m["Subject"])]
    assert "this game has no press" in one(mail, addr(2), "Re:")
    assert "this game has no press" in one(mail, addr(3), "Re:")

    # -- the deadline: adjudicated, each gang's report and the bulletin
    due = datetime.fromisoformat(Game(j.root / "games" / "ghost").config.extra["deadlines"]["spring-1924"])
    t = due + timedelta(minutes=5)
    mail = s.run(t, "adjudication")
    assert [m for r, m in mail if addr(1) in r and "private report" in str(m["Subject"])]
    assert [m for r, m in mail if addr(7) in r and "bulletin" in str(m["Subject"])]  # the observer's
    page = site(j.root / "games" / "ghost", j.root.parent / "site-before")
    assert "Who played which side" not in page and not [n for n in NAMES.values() if n in page]
    # the observer asks for the game's status and a bulletin
    j.send(addr(7), "game: ghost\nstatus\nhistory spring-1924\n", t + timedelta(minutes=10))
    reply = one(s.run(t + timedelta(minutes=11), "observer"), addr(7))
    assert "Orders awaited from" in reply and "Press: none." in reply

    # -- a resignation, and a takeover: the new player gets the side's history; the
    # master may take no side, nor make a player a master
    t += timedelta(hours=1)
    vacant = sorted(set(Game(j.root / "games" / "ghost").sides()) - set(s.sides.values()))
    j.send(addr(0), s.pw(0) + f"takeover ghost {vacant[0]}\npromote ghost {addr(1)}\n", t)  # (its reply quotes it)
    j.send(addr(3), s.pw(3) + "resign ghost\n", t)
    reply = one(s.run(t + timedelta(minutes=1), "resign"), addr(0), "Your mail")
    assert "master of ghost, an anonymous game" in reply and f"{NAMES[1]} plays in ghost, an anonymous" in reply
    j.send(addr(6), s.pw(6) + f"takeover ghost {s.sides[3]}\n", t + timedelta(minutes=5))
    mail = s.run(t + timedelta(minutes=6), "takeover")
    history = [m for r, m in mail if r == [addr(6)] and "history" in str(m["Subject"])]
    assert len(history) == 1 and "==== spring-1924 ====" in plain(history[0])  # the side's report
    s.sides[6] = s.sides.pop(3)

    # -- the end: the master terminates it; everyone is told who played which side
    t += timedelta(hours=1)
    j.send(addr(0), s.pw(0) + "terminate ghost\n", t)
    s.run(t + timedelta(minutes=1), "end")
    # ... and once it is over, anyone's list of the game names its players
    j.send(addr(7), "list ghost\n", t + timedelta(minutes=10))
    listed = one(s.run(t + timedelta(minutes=11), "after"), addr(7))
    assert all(NAMES[n] in listed for n in s.sides), listed
    return s


def on_record(j: Judge, now: datetime) -> None:
    """A player's record tells their anonymous game to them alone (``whois``)."""
    from moonshine.host.incoming import Mail as Incoming
    from moonshine.host.lobby.request import LobbyPass, LobbyRequest, games_on_record
    from moonshine.host.settings import load

    reg = j.registry()
    try:
        zelda, tobias = reg.player(addr(1)), reg.player(addr(7))
        assert zelda is not None and tobias is not None
        asked = LobbyRequest(LobbyPass(load(j.root), reg, now, lambda _: None), Incoming(b"", ""), "en", tobias)
        assert games_on_record(asked, zelda) == []
        asked.player = zelda
        assert [(row.name, side is not None) for row, side in games_on_record(asked, zelda)] == [("ghost", True)]
    finally:
        reg.close()


def redo_the_draw(start: str, n: int) -> None:
    """The draw of the sides, redone from the start mail alone: its seed, the players'
    tokens in the order they joined with their preferences, and the sides' tokens."""
    seed = re.search(r"(?:its seed is|sa graine est) ([0-9a-f]{64})", start)
    mine = re.search(r"(?:yours is|le vôtre est) ([0-9a-f]{10})", start)
    joined = re.search(r"(?:with their preferences|avec leurs préférences) ?: (.*?)\. ", start, re.S)
    assert seed and mine and joined, start
    order = []
    for item in " ".join(joined.group(1).split()).split("; "):
        token, _, prefs = item.partition(" (")
        words = prefs.rstrip(")").split()
        order.append((token, tuple(w for w in words if w not in ("no", "preference", "aucune", "préférence"))))
    assert mine.group(1) in [tok for tok, _ in order]
    sides = dict(
        re.findall(r"^  .*? \((\w+)\) ?: (?:a player|un joueur) \((?:token|jeton) ([0-9a-f]{10})\)$", start, re.M)
    )
    vacant = re.findall(r"^  .*? \((\w+)\) ?: (?:no player|aucun joueur)", start, re.M)
    assert len(sides) == 5 and len(vacant) == 3
    redone = draw(seed.group(1), "ghost", order, sorted([*sides, *vacant]))
    assert {tok: side for side, tok in sides.items()} == redone


def test_an_anonymous_gunboat_season_names_nobody_before_the_end(
    tmp_path: Path, imap: Server, smtp: SmtpServer
) -> None:
    j = Judge(tmp_path / "judge", imap, smtp, masters=(addr(0),))
    s = play(j)
    addresses = {addr(n) for n in NAMES}
    master_named = 0
    delivered = 0
    before = [(label, mail) for label, mail in s.passes if label not in ("end", "after")]
    assert len(before) == len(s.passes) - 2
    for label, mail in before:  # every pass before the end
        for rcpts, msg in mail:
            body = text_of(msg)
            for who in rcpts:
                if who == JUDGE:
                    continue
                delivered += 1
                others = addresses - {who} - ({addr(1)} if who == addr(0) and label == "resign" else set())
                assert not [a for a in others if a in body], (label, who, msg["Subject"])
                if who == addr(0):  # the master's own mail: who plays may be there, never an address
                    master_named += any(NAMES[n] in body for n in NAMES if n)
                    continue
                n = next(k for k in NAMES if addr(k) == who)
                named = [NAMES[k] for k in NAMES if k not in (n, 0) and NAMES[k] in body]
                assert not named, (label, who, msg["Subject"], named)
    assert delivered > 40 and master_named >= 2  # the master's list, the resignation and takeover notices

    # -- the end: each player of the game is told, in a mail of their own, in their language
    [mail] = [mail for label, mail in s.passes if label == "end"]
    for n in s.sides:
        [told] = [plain(m) for r, m in mail if r == [addr(n)] and re.search("who played|qui a joué", str(m["Subject"]))]
        told = checked(told) if n == FRENCH else told
        for k, theirs in s.sides.items():
            assert re.search(rf"\({theirs}\) ?: {NAMES[k]} \((?:token|jeton) [0-9a-f]{{10}}", told), (n, told)
        assert not [a for a in addresses - {addr(n)} if a in told]
    # ... and the site names them
    page = site(j.root / "games" / "ghost", tmp_path / "site")
    assert "Who played which side" in page and all(NAMES[n] in page for n in s.sides)


def site(game: Path, out: Path) -> str:
    """The index page of the game's public site."""
    done = CliRunner().invoke(main, ["site", "--game", str(game), "--out", str(out)])
    assert done.exit_code == 0, done.output
    return (out / "index.html").read_text(encoding="utf-8")


# -- a game of its own -----------------------------------------------------------------------


def anonymous_game(tmp_path: Path, **more: object) -> Game:
    """An anonymous Moonshine game whose first three gangs have players."""
    sections = {"anonymous": True, "smtp": {"from": "Judge <judge@example.org>"}, **more}
    return make_game(
        tmp_path / "g",
        seed="anonymous",
        sides=("outfit", "valley", "genna"),
        name=lambda side: f"Name of {side}",
        emails=lambda side: [f"{side}@players.example.org"],
        **sections,
    )


def test_the_end_of_an_anonymous_game_of_its_own_tells_each_side_once(tmp_path: Path) -> None:
    from moonshine.mail.identities import write_reveal

    game = anonymous_game(tmp_path)
    now = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
    written = write_reveal(game, now)
    assert len(written) == 3
    game = Game(game.root)
    assert identities.of(game.config).revealed == "2026-12-01T12:00:00+00:00"
    from moonshine.mail import outbox

    for name in written:
        msg = outbox.load_message(game.root / "outbox" / game.current_turn() / name)
        assert isinstance(msg, EmailMessage)
        text = plain(msg)
        assert all(f"Name of {side}" in text for side in ("outfit", "valley", "genna"))
        assert len([a for a in ("outfit", "valley", "genna") if f"{a}@players" in text_of(msg)]) == 1
    assert write_reveal(game, now) == []  # once
    never = anonymous_game(tmp_path / "never", reveal_identities="never")
    assert write_reveal(never, now) == []


def test_an_anonymous_game_reads_in_game_yaml() -> None:
    from moonshine.errors import StateError
    from moonshine.game.directory import load_config_text

    cfg = load_config_text("map: chicago-1920s\nanonymous: yes\n", "game.yaml")
    assert identities.of(cfg) == identities.Identities(anonymous=True, reveal="at-end", revealed=None)
    with pytest.raises(StateError, match="reveal_identities"):
        load_config_text("map: chicago-1920s\nanonymous: yes\nreveal_identities: later\n", "game.yaml")
    with pytest.raises(StateError, match="anonymous"):
        load_config_text("map: chicago-1920s\nanonymous: maybe\n", "game.yaml")


def test_a_master_creates_anonymous_games_in_either_language(tmp_path: Path, imap: Server, smtp: SmtpServer) -> None:
    j = Judge(tmp_path / "judge", imap, smtp, masters=(addr(0),))
    j.send(addr(0), "inscription Mona Masterson, Europe/Paris, fr\n", START)
    j.run(START + timedelta(minutes=1))
    [secret] = [plain(m) for _, m in j.new_mail() if is_password_mail(m)]
    found = re.search(r"pour toutes vos parties\s?:\s(\S+)", secret)
    assert found is not None
    settings = {
        "spectre": "anonyme : oui\nrévélation : jamais\n",
        "fantome": "gunboat: yes\npress: white\n",
        "brume": "anonymous: perhaps\n",
        "voile": "anonymous: no\nreveal: never\n",
    }
    body = f"password: {found.group(1)}\n" + "".join(
        f"créer {name} moonshine\n{lines}fin\n" for name, lines in settings.items()
    )
    j.send(addr(0), body, START + timedelta(hours=1))
    j.run(START + timedelta(hours=1, minutes=1))
    reply = checked(one(j.new_mail(), addr(0)))
    assert "Elle est anonyme : aucun joueur ni observateur ne sait qui joue quel camp, même une fois" in reply
    assert "créer fantome moonshine : refusé. Réglage « gunboat » : press: none" in reply  # no press, or no gunboat
    assert "créer brume moonshine : refusé. Réglage « anonymous » : yes / no" in reply
    assert "voile est créée" in reply and reply.count("Elle est anonyme") == 1
    spectre = Game(j.root / "games" / "spectre").config
    assert identities.of(spectre) == identities.Identities(anonymous=True, reveal="never", revealed=None)
    assert not (j.root / "games" / "fantome").exists() and not (j.root / "games" / "brume").exists()
    assert not identities.of(Game(j.root / "games" / "voile").config).anonymous


def test_an_anonymous_game_of_its_own_reveals_its_players_when_a_draw_ends_it(
    tmp_path: Path, imap: Server, smtp: SmtpServer
) -> None:
    import yaml
    from imapkit import post
    from runkit import address, letter, run_here, unattended_game

    sides = list(new_game(tmp_path / "probe", use_git=False).sides())
    players: dict[str, str | None] = dict.fromkeys(sides)
    game = unattended_game(tmp_path / "g", imap, smtp.smtp(), players=players, schedule={"every": "72h"}, folder="anon")
    raw = yaml.safe_load(game.config_path.read_text(encoding="utf-8"))
    raw["anonymous"] = True
    game.config_path.write_text(yaml.safe_dump(raw), encoding="utf-8")
    post(imap, "anon")
    t = START
    run_here(game, t)
    t += timedelta(hours=1)
    press = f"press to {sides[1]}\nA word, {sides[1]}.\nend press\nbroadcast\nA word to all.\nend\n"
    post(imap, "anon", letter(sides[0], "draw\n" + press, t, "<draw@players.example.org>"))
    run_here(game, t + timedelta(minutes=1))
    t += timedelta(hours=1)
    for i, side in enumerate(sides[1:]):
        post(imap, "anon", letter(side, "vote yes 1\n", t, f"<vote{i}@players.example.org>"))
    run_here(game, t + timedelta(minutes=1))
    assert identities.of(Game(game.root).config).revealed is not None
    got: dict[str, list[EmailMessage]] = {}
    for _, rcpts, content in smtp.recorder.received:
        from email import message_from_bytes, policy

        msg = message_from_bytes(content, policy=policy.default)
        assert isinstance(msg, EmailMessage)
        for who in rcpts:
            got.setdefault(who, []).append(msg)
    assert [m for m in got[address(sides[1])] if "press from" in str(m["Subject"])]  # the press headers: a side
    assert len([m for m in got[address(sides[2])] if "broadcast from" in str(m["Subject"])]) == 1
    for side in sides:
        mine = got[address(side)]
        [told] = [m for m in mine if "who played which side" in str(m["Subject"])]
        assert all(f"({s}): Player of {s}" in plain(told) for s in sides)
        for msg in mine:  # no other player's name nor address in any mail, but the reveal's names
            body = text_of(msg)
            assert not [s for s in sides if s != side and address(s) in body], msg["Subject"]
            if msg is not told:
                assert not [s for s in sides if s != side and f"Player of {s}" in body], msg["Subject"]
    before = len(smtp.recorder.received)
    run_here(game, t + timedelta(minutes=2))  # told once
    assert len(smtp.recorder.received) == before


@pytest.mark.parametrize("reveal", ["at-end", "never"])
def test_a_classic_anonymous_games_site_names_its_players_once_the_end_reveals_them(
    tmp_path: Path, reveal: str
) -> None:
    from moonshine.mail import outbox
    from moonshine.mail.identities import write_reveal

    root = tmp_path / "game"
    runner = CliRunner()
    made = runner.invoke(main, ["new", str(root), "--variant", "classic", "--no-git", "--seed", "anonymous"])
    assert made.exit_code == 0, made.output
    game = Game(root)
    cfg = game.config
    people = {
        side: Player(name=f"Name of {side}", email=[f"{side.lower()}@players.example.org"]) for side in ("FRA", "GER")
    }
    more = {"anonymous": True, "reveal_identities": reveal, "smtp": {"from": "Judge <judge@example.org>"}}
    save_config(game, replace(cfg, players={**cfg.players, **people}, extra={**cfg.extra, **more}))
    (root / "orders" / "spring-1901" / "FRA.txt").write_text("A PAR - BUR\n", encoding="utf-8")
    done = runner.invoke(main, ["adjudicate", "spring-1901", "--game", str(root), "--no-commit"])
    assert done.exit_code == 0, done.output
    page = site(root, tmp_path / "before")
    assert "Who played which side" not in page and "Name of" not in page
    # the end: the players are told (at-end), or not (never)
    written = write_reveal(Game(root), datetime(2026, 12, 1, 12, 0, tzinfo=UTC))
    page = site(root, tmp_path / "after")
    if reveal == "never":
        assert written == [] and "Who played which side" not in page and "Name of" not in page
        return
    assert "Who played which side" in page and "France (FRA): Name of FRA" in page
    assert "Germany (GER): Name of GER" in page and "Italy (ITA): no player" in page
    game = Game(root)
    for name in written:
        told = plain(outbox.load_message(game.root / "outbox" / game.current_turn() / name))
        assert "France (FRA): Name of FRA" in told and "Germany (GER): Name of GER" in told
