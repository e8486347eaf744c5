"""What a judge for many games tells each player, and no more: a whole season on
real servers (pymap and aiosmtpd on 127.0.0.1, as the end-to-end test of the judge)
with a Moonshine game and a classic one, a French player, registration, joins,
orders, press (anonymous grey press among it), a draw vote, a resignation and a
takeover, an eject, a promotion, adjudication and the end of both games. Every mail
delivered is read for what its recipient must not learn: another player's address,
a password or its hash, a game's raid seed or any value the project's own code
derives it from, another side's orders before they are adjudicated, the real
sender of anonymous press. A mail names one recipient. Once a game is over, its
raids are recomputed from the seed it reveals, and from nothing mailed before.

A game made before the raid seed was a secret of its own (its seed the SHA-256 of
its draw seed, which the start mail gives) gets a new seed at the next pass, for
the raids from its next turn on, and its next bulletin says so once."""

from __future__ import annotations

import hashlib
import hmac
import re
import sqlite3
import subprocess
from datetime import datetime, timedelta
from email.utils import getaddresses
from pathlib import Path

import yaml
from imapkit import Server
from judgekit import JUDGE, START, Judge, Mail, addr, is_password_mail, one, text_of
from repokit import ROOT
from runkit import plain
from smtpkit import Server as SmtpServer

from moonshine.game.directory import Game
from moonshine.host.settings import draw_seed
from moonshine.variants.moonshine.police import draw_raid

HEX = re.compile(r"[0-9a-fA-F]{16,}")
PLAYERS = range(9)  # p0 the master; p5 reads French; p8 takes a side over


def derivations(token: str, games: list[str]) -> set[str]:
    """Every value the project's code makes of a hexadecimal ``token`` on the way to a
    seed: the token, its SHA-256, a raid seed made from it as a draw seed (the judge's
    code before 2026-12-01), and a game's draw seed made from it as the judge's secret
    (and the raid seed from that)."""
    out = {token, hashlib.sha256(token.encode()).hexdigest()}
    out.add(hashlib.sha256(f"raids|{token}".encode()).hexdigest()[:32])
    for game in games:
        drawn = hmac.new(token.encode(), f"sides|{game}".encode(), hashlib.sha256).hexdigest()
        out |= {drawn, hashlib.sha256(f"raids|{drawn}".encode()).hexdigest()[:32]}
    return out


class Season:
    """The judge and what was sent to it: orders by side and turn, the passes' mail."""

    def __init__(self, j: Judge) -> None:
        self.j = j
        self.passes: list[tuple[str, Mail]] = []  # (label, the mail the pass delivered)
        self.orders: dict[tuple[str, str], list[str]] = {}  # (game, side) -> order lines of the first turn
        self.senders: dict[tuple[str, str], str] = {}  # (game, side) -> the address that sent them
        self.written: dict[str, set[str]] = {}  # player -> addresses they wrote in their own mail

    def run(self, at: datetime, label: str) -> Mail:
        self.j.run(at)
        mail = self.j.new_mail()
        self.passes.append((label, mail))
        return mail

    def pw(self, n: int) -> str:
        return f"password: {self.j.passwords[addr(n)]}\n"


def play_season(j: Judge) -> Season:
    s = Season(j)
    t = START
    # -- registration: every player gets a reply and a password mail of their own
    for n in PLAYERS:
        words = f"inscription Joueur {n}, Europe/Paris, fr" if n == 5 else f"register Player {n}, America/Chicago"
        j.send(addr(n), words + "\n", t)
    mail = s.run(t + timedelta(minutes=1), "registration")
    for n in PLAYERS:
        secret = plain(next(m for r, m in mail if r == [addr(n)] and is_password_mail(m)))
        found = re.search(r"(?:for all your games:|pour toutes vos parties\s?:)\s(\S+)", secret)
        assert found is not None, secret
        j.passwords[addr(n)] = found.group(1)

    # -- the master creates a Moonshine game and a classic one, both with grey press
    t += timedelta(hours=1)
    j.send(
        addr(0),
        s.pw(0)
        + "create gamma moonshine\nevery: 72h\npress: grey\nend\ncreate alpha classic\nevery: 72h\npress: grey\n",
        t,
    )
    assert "gamma is created" in one(s.run(t + timedelta(minutes=1), "create"), addr(0))

    # -- players join with the sides they want; the master starts both games with sides vacant
    t += timedelta(hours=1)
    joins = {1: "gamma outfit", 2: "gamma valley", 3: "gamma genna", 4: "gamma northside"}
    joins |= {5: "alpha france", 6: "alpha england", 7: "alpha germany"}
    for n, what in joins.items():
        j.send(addr(n), s.pw(n) + ("rejoindre " if n == 5 else "join ") + what + "\n", t)
    s.run(t + timedelta(minutes=1), "joins")
    j.send(addr(0), s.pw(0) + "start gamma\nstart alpha\n", t + timedelta(minutes=5))
    mail = s.run(t + timedelta(minutes=6), "start")
    for n in range(1, 8):
        assert [m for r, m in mail if r == [addr(n)] and re.search("starts|commence", str(m["Subject"]))], n

    # -- orders (each side's its own), press, a draw proposed, votes
    t += timedelta(hours=1)
    gamma = {
        "outfit": ["H LIN - ALB", "L NOR / H LIN - ALB"],
        "valley": ["H LOO - GOL", "H NSS - LIT"],
        "genna": ["H SOD - DUM", "L CAL - SCH"],
        "northside": ["H HER - CRA", "L POR - DUN"],
    }
    alpha = {"FRA": ["A MAR - SPA"], "ENG": ["F EDI - NWG"], "GER": ["A MUN - RUH"]}
    for n, (side, lines) in zip(range(1, 5), gamma.items(), strict=True):
        s.orders["gamma", side] = lines
        s.senders["gamma", side] = addr(n)
        more = ""
        if side == "outfit":  # grey press, anonymous, to the Valley Gang
            more = "press to valley anonymous\nMeet me at the Green Mill tonight. ANONTOKEN-7731\nend press\n"
        if side == "valley":
            more = "broadcast\nPeace in our time. BCASTTOKEN-5512\nend\ndraw\n"
        j.send(addr(n), f"game: gamma\ngang: {side}\n{s.pw(n)}" + "\n".join(lines) + "\n" + more, t)
    for n, (side, lines) in zip(range(5, 8), alpha.items(), strict=True):
        s.orders["alpha", side] = lines
        s.senders["alpha", side] = addr(n)
        j.send(addr(n), f"game: alpha\npower: {side}\n{s.pw(n)}" + "\n".join(lines) + "\n", t)
    mail = s.run(t + timedelta(minutes=1), "orders")
    relayed = [m for r, m in mail if r == [addr(2)] and "ANONTOKEN-7731" in plain(m)]
    assert len(relayed) == 1  # the anonymous press reached the Valley Gang
    j.send(addr(1), f"game: gamma\ngang: outfit\n{s.pw(1)}vote yes 1\n", t + timedelta(minutes=10))
    s.run(t + timedelta(minutes=11), "votes")

    # -- a resignation and a takeover, an eject, a promotion
    t += timedelta(hours=1)
    j.send(addr(3), s.pw(3) + "resign gamma\n", t)
    j.send(addr(0), s.pw(0) + "eject gamma northside\npromote alpha " + addr(6) + "\n", t)
    s.written[addr(0)] = {addr(6)}
    s.run(t + timedelta(minutes=1), "resign, eject, promote")
    j.send(addr(8), s.pw(8) + "takeover gamma genna\n", t + timedelta(minutes=5))
    s.run(t + timedelta(minutes=6), "takeover")

    # -- gamma's and alpha's deadline passes: adjudicated, reports mailed
    due = datetime.fromisoformat(Game(j.root / "games" / "gamma").config.extra["deadlines"]["spring-1924"])
    t = due + timedelta(hours=1)
    mail = s.run(t, "adjudication")
    assert [m for r, m in mail if addr(1) in r and "1924" in str(m["Subject"])]

    # -- the master ends both games: each player told in a mail of their own, the seed revealed
    t += timedelta(hours=1)
    j.send(addr(0), s.pw(0) + "terminate gamma\nterminate alpha\n", t)
    s.run(t + timedelta(minutes=1), "terminate")
    return s


def test_a_season_tells_each_player_only_what_is_theirs(tmp_path: Path, imap: Server, smtp: SmtpServer) -> None:
    j = Judge(tmp_path / "judge", imap, smtp)
    s = play_season(j)
    games = ["gamma", "alpha"]
    gamma = Game(j.root / "games" / "gamma")
    raw = yaml.safe_load(gamma.config_path.read_text(encoding="utf-8"))
    seeds = {(gamma.root / ".moonshine-secret").read_text(encoding="utf-8").strip()}
    seeds |= {e["seed"] for e in raw.get("earlier_seeds") or []}
    judge_secret = (j.root / ".moonshine-secret").read_text(encoding="utf-8").strip()
    alpha_seed = (j.root / "games" / "alpha" / ".moonshine-secret").read_text(encoding="utf-8").strip()
    reg = j.registry()
    hashes = {p.address: reg.password_hash(p.id) or "" for p in (reg.player(addr(n)) for n in PLAYERS) if p}
    reg.close()
    assert all(hashes.values())
    addresses = {addr(n) for n in PLAYERS}
    names = {addr(n): (f"Joueur {n}" if n == 5 else f"Player {n}") for n in PLAYERS}
    before_adjudication = True
    revealed: list[str] = []
    delivered = 0
    for label, mail in s.passes:
        if label == "adjudication":
            before_adjudication = False
        for rcpts, msg in mail:
            delivered += 1
            body = text_of(msg)
            shown = [a.lower() for _, a in getaddresses([str(msg.get("To", "")), str(msg.get("Cc", ""))])]
            people = [a for a in shown if a and a != JUDGE]
            assert len(people) <= 1, (label, msg["Subject"], shown)  # one recipient a mail
            for who in rcpts:
                # another player's address
                others = addresses - {who} - s.written.get(who, set())  # what they wrote is theirs
                assert not [a for a in others if a in body], (label, who, msg["Subject"])
                # a password, or a password's hash
                for owner, password in s.j.passwords.items():
                    if owner != who or not is_password_mail(msg):
                        assert password not in body, (label, who, msg["Subject"])
                assert not [h for h in hashes.values() if h in body], (label, who, msg["Subject"])
                # another side's orders, before they are adjudicated
                if before_adjudication:
                    own = {a for key, lines in s.orders.items() for a in lines if s.senders[key] == who}
                    theirs = {line for lines in s.orders.values() for line in lines} - own
                    assert not [line for line in theirs if line in body], (label, who, msg["Subject"])
                # the real sender of anonymous press
                if "ANONTOKEN-7731" in body and who not in (addr(0),):  # the master's copy names the sender
                    assert "outfit" not in body.lower() and "Chicago Outfit" not in body and names[addr(1)] not in body
            # a raid seed, the judge's secret, or any value the code derives one from
            if "seed is public" in str(msg["Subject"]) or "graine" in str(msg["Subject"]):
                revealed.append((str(msg["Subject"]), plain(msg)))
                continue
            for token in HEX.findall(body):
                made = derivations(token.lower(), games)
                assert not made & seeds, (label, msg["Subject"], token)
                assert judge_secret not in made and alpha_seed not in made, (label, msg["Subject"], token)
    assert delivered > 60

    # the raids are not those of any mailed value before the end, and are those of the revealed seed after
    turns = [t for t in gamma.turns() if (gamma.turn_dir(t) / "state.yaml").is_file()]
    assert len(turns) == 2
    assert {addr(n) for n in (0, 1, 2, 8)} <= {r[0] for _, m in s.passes[-1:] for r, _ in m}
    of_gamma = [body for subject, body in revealed if "gamma" in subject]
    assert len(of_gamma) >= 4
    shown_seeds = set(re.findall(r"^\s+([0-9a-f]{32}) \(SHA-256", of_gamma[0], re.M))
    assert shown_seeds == seeds
    # the classic game's secret seed (its civil-disorder player's, R26) is revealed too, and only at the end
    of_alpha = [body for subject, body in revealed if "alpha" in subject]
    assert of_alpha and all(alpha_seed in body for body in of_alpha)
    for turn in turns:
        st = gamma.load_state(turn)
        assert st.raid is not None
        drawn = {seed: draw_raid(gamma.map, seed, turn) for seed in shown_seeds}
        assert any(
            d is not None and d.digest == st.raid.draw and d.district == st.raid.district for d in drawn.values()
        )


def test_a_game_made_with_a_derivable_seed_gets_a_new_one_at_its_next_turn(
    tmp_path: Path, imap: Server, smtp: SmtpServer
) -> None:
    j = Judge(tmp_path / "judge", imap, smtp)
    t = START
    for n in (0, 1):
        j.send(addr(n), f"register Player {n}\n", t)
    j.run(t + timedelta(minutes=1))
    for r, m in j.new_mail():
        found = re.search(r"for all your games: (\S+)", plain(m))
        if found:
            j.passwords[r[0]] = found.group(1)
    j.send(addr(0), f"password: {j.passwords[addr(0)]}\ncreate gamma moonshine\nevery: 72h\n", t + timedelta(hours=1))
    j.send(addr(1), f"password: {j.passwords[addr(1)]}\njoin gamma outfit\n", t + timedelta(hours=1, minutes=5))
    j.run(t + timedelta(hours=1, minutes=10))
    j.send(addr(0), f"password: {j.passwords[addr(0)]}\nstart gamma\n", t + timedelta(hours=2))
    j.run(t + timedelta(hours=2, minutes=1))
    start = one(j.new_mail(), addr(1), "starts")
    published = re.search(r"its seed is ([0-9a-f]{64})", start)
    assert published is not None
    assert published.group(1) == draw_seed(j.root, "gamma")

    # the game as the judge made it before 2026-12-01: its raid seed derived from the draw seed
    root = j.root / "games" / "gamma"
    legacy = hashlib.sha256(f"raids|{published.group(1)}".encode()).hexdigest()[:32]
    (root / ".moonshine-secret").write_text(legacy + "\n", encoding="utf-8")
    raw = yaml.safe_load((root / "game.yaml").read_text(encoding="utf-8"))
    raw["seed_sha256"] = hashlib.sha256(legacy.encode()).hexdigest()
    (root / "game.yaml").write_text(yaml.safe_dump(raw, sort_keys=False), encoding="utf-8")
    subprocess.run(["git", "commit", "-qam", "Made by the earlier judge"], cwd=root, check=True)
    with sqlite3.connect(j.root / "registry.sqlite") as db:  # the earlier judge never looked at its seeds
        db.execute("DELETE FROM messages WHERE key LIKE 'seed-checked:%'")
    j.send(
        addr(1), f"game: gamma\ngang: outfit\npassword: {j.passwords[addr(1)]}\nH LIN - ALB\n", t + timedelta(hours=3)
    )
    out = j.run(t + timedelta(hours=3, minutes=1))
    assert "gamma: its raid seed could be derived from the start mail; replaced" in out
    game = Game(root)
    new = game.secret()
    assert new != legacy and game.config.seed_sha256 == hashlib.sha256(new.encode()).hexdigest()
    [earlier] = game.earlier_seeds()
    assert (earlier.seed, earlier.last_turn, earlier.reason) == (legacy, "spring-1924", "derived-from-start-mail")
    log = subprocess.run(
        ["git", "log", "-1", "--format=%s", "--", "game.yaml"], cwd=root, capture_output=True, text=True
    )
    assert "New secret seed" in log.stdout
    assert (
        ".moonshine-secret" not in subprocess.run(["git", "ls-files"], cwd=root, capture_output=True, text=True).stdout
    )
    ack = one(j.new_mail(), addr(1), "Re:")

    # the turn is adjudicated: its receipt is the one acknowledged; the next raid is the new seed's
    due = datetime.fromisoformat(game.config.extra["deadlines"]["spring-1924"])
    j.run(due + timedelta(hours=1))
    mail = j.new_mail()
    sentence = "The raid seed was replaced on 2026-11-30; its new hash is " + game.config.seed_sha256
    bulletins = [" ".join(plain(m).split()) for r, m in mail if addr(1) in r and "bulletin" in str(m["Subject"])]
    report = one(mail, addr(1), "private report")
    assert len(bulletins) == 1 and sentence in bulletins[0]
    receipt = re.search(r"[0-9a-f]{4}(?:-[0-9a-f]{4}){4}", ack)
    assert receipt is not None and receipt.group(0) in report
    nxt = Game(root).load_state("autumn-1924")
    assert nxt.raid is not None
    assert nxt.raid.draw == hmac.new(new.encode(), b"autumn-1924", hashlib.sha256).hexdigest()
    assert nxt.raid.draw != hmac.new(legacy.encode(), b"autumn-1924", hashlib.sha256).hexdigest()

    # announced once: the next turn's bulletin says nothing of it, and no second replacement
    due = datetime.fromisoformat(Game(root).config.extra["deadlines"]["autumn-1924"])
    out = j.run(due + timedelta(hours=1))
    assert "replaced" not in out
    assert "replaced" not in (root / "turns" / "autumn-1924" / "reports" / "bulletin.txt").read_text(encoding="utf-8")
    assert len(Game(root).earlier_seeds()) == 1


def test_every_seed_is_made_by_one_function_from_the_random_source_alone() -> None:
    """The package draws seeds in one place (``moonshine.game.seeds.new_secret``) and
    derives none from a published value: the old derivation from the draw seed is
    written once, in the function that recognises the games it made."""
    import ast

    package = ROOT / "moonshine"
    makers: list[str] = []
    derivations: list[str] = []
    for path in sorted(package.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                source = ast.get_source_segment(path.read_text(encoding="utf-8"), node) or ""
                where = f"{path.relative_to(package)}:{node.name}"
                if "token_hex(" in source or "urandom(" in source:
                    makers.append(where)
                if "raids|" in source and "draw_seed(" in source:
                    derivations.append(where)
    assert makers == ["game/seeds.py:new_secret"]
    assert derivations == ["host/games.py:derived_from_draw_seed"]
    # and a new game of the judge does not take that path: its seed is new_secret's
    games = (package / "host" / "games.py").read_text(encoding="utf-8")
    assert games.count("derived_from_draw_seed(") == 2  # its definition, and the check of old games
