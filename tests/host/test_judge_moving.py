"""A judge for many games keeps its games moving (issue 40), played by mail on real
servers (pymap and aiosmtpd on 127.0.0.1, ``judgekit``), a Moonshine game and a
classic one: the master creates the game with its missed-turn policy and a cap on
masters' pauses; a player's ``pause`` goes to the game as a vote; a silent side goes
into civil disorder, its player is told and its dedication counts it, the side is
offered in ``list vacant`` and a newcomer takes it over from the player; a second
silent side has its orders written by the civil-disorder player and its player is
removed from the game; the master's extension is capped, and told in the bulletin
with the master's pause, which ends by itself at the cap."""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from pathlib import Path

import pytest
import yaml
from imapkit import Server
from judgekit import START, Judge, Mail, addr, one
from smtpkit import Server as SmtpServer

from moonshine.game.directory import Game
from moonshine.variants.civil_disorder import read_mark

# p0 the master; p1, p2, p3 play; p4 comes later and takes a side over
SIDES = {
    "moonshine": {1: "valley", 2: "genna", 3: "northside"},
    "classic": {1: "FRA", 2: "GER", 3: "ENG"},
}
JOIN = {"moonshine": {1: "valley", 2: "genna", 3: "northside"}, "classic": {1: "france", 2: "germany", 3: "england"}}
ORDERS = {
    "moonshine": {"valley": "sell all", "genna": "sell 1", "northside": "sell 2"},
    "classic": {"FRA": "A PAR H", "GER": "A BER H", "ENG": "F LON H"},
}
LINE = {"moonshine": "gang", "classic": "power"}


def flat(text: str) -> str:
    return " ".join(text.split())


class Table:
    """The judge, one game of ``variant`` named ``mob``, and its players' passwords."""

    def __init__(self, j: Judge, variant: str) -> None:
        self.j, self.variant = j, variant
        self.t = START
        self.root = j.root / "games" / "mob"

    def pw(self, n: int) -> str:
        return f"password: {self.j.passwords[addr(n)]}\n"

    def send(self, n: int, body: str) -> None:
        self.t += timedelta(minutes=1)
        self.j.send(addr(n), self.pw(n) + body, self.t)

    def run(self) -> tuple[str, Mail]:
        self.t += timedelta(minutes=1)
        out = self.j.run(self.t)
        return out, self.j.new_mail()

    def orders(self, *players: int) -> None:
        for n in players:
            side = SIDES[self.variant][n]
            self.send(n, f"game: mob\n{LINE[self.variant]}: {side}\n{ORDERS[self.variant][side]}\n")

    @property
    def game(self) -> Game:
        return Game(self.root)

    def due(self) -> datetime:
        raw = yaml.safe_load((self.root / "game.yaml").read_text(encoding="utf-8"))
        return datetime.fromisoformat(str(raw["deadlines"][self.game.current_turn()]))

    def to_deadline(self) -> tuple[str, Mail]:
        """Passes after the turn's deadline until a turn with orders to give opens (a
        classic winter with no adjustment runs at once); the log and the mail of all."""
        from moonshine.mail.disorder import expected

        turn = self.game.current_turn()
        self.t = self.due() + timedelta(hours=13)  # the judge's grace for a missing side, and more
        out, mail = self.run()
        assert self.game.current_turn() != turn, out
        while not expected(self.game, self.game.current_turn(), players_only=False):
            more, more_mail = self.run()
            out, mail = out + more, mail + more_mail
        return out, mail


@pytest.mark.parametrize("variant", ["moonshine", "classic"])
def test_a_judge_keeps_its_games_moving(tmp_path: Path, imap: Server, smtp: SmtpServer, variant: str) -> None:
    j = Judge(tmp_path / "judge", imap, smtp)
    tb = Table(j, variant)
    sides = SIDES[variant]
    for n in range(5):
        j.send(addr(n), f"register Player {n}, America/Chicago\n", tb.t)
    _, mail = tb.run()
    for n in range(5):
        found = re.search(r"for all your games: (\S+)", one(mail, addr(n), "Your password"))
        assert found is not None
        j.passwords[addr(n)] = found.group(1)

    # -- the master creates the game with its policy: civil disorder after one movement turn
    # without orders, removal after two; a master pauses or extends for two days at most
    tb.send(0, f"create mob {variant}\nevery: 72h\nnmr: 1 2\nmaster_pause_max: 2d\nend\n")
    _, mail = tb.run()
    assert "mob is created" in one(mail, addr(0))
    assert tb.game.config.extra["nmr"] == {"disorder": 1, "remove": 2}
    tb.send(0, "create hold classic\nnmr: sometimes\nend\n")
    _, mail = tb.run()
    assert "Setting 'nmr': no civil-disorder player 'sometimes' in this game (expected hold, smart)" in flat(
        one(mail, addr(0))
    )
    for n in (1, 2, 3):
        tb.send(n, f"join mob {JOIN[variant][n]}\n")
    tb.run()
    tb.send(0, "start mob\n")
    tb.run()
    assert {s: tb.game.config.players[s].email for s in sides.values()} == {s: [addr(n)] for n, s in sides.items()}

    # -- a player's 'pause' is the game's vote on its time, not the masters' command
    tb.send(1, f"game: mob\n{LINE[variant]}: {sides[1]}\npause\n")
    _, mail = tb.run()
    reply = flat(one(mail, addr(1), "Re: judge"))
    assert "Send 'vote yes 1' or 'vote no 1'" in flat(one(mail, addr(2), "vote 1 is open"))
    assert "proposal 1: a pause of the game, for 7 days at most is open until" in reply, reply
    assert "Only" not in reply  # no refusal of the lobby's

    # -- the first turn: the third player sends nothing; at the deadline their side goes into
    # civil disorder: they are told, the side is offered for a takeover, their dedication counts it
    first = tb.game.current_turn()
    tb.orders(1, 2)
    out, mail = tb.to_deadline()
    silent = sides[3]
    assert f"adjudicated {first}" in out and f"{silent} in civil disorder (1 turn without orders)" in out
    assert f"mob: {silent} is in civil disorder: offered for a takeover" in out
    told = flat(one(mail, addr(3), "civil disorder"))
    assert (
        "it is in civil disorder (R26)" in told and "After 2 turns without orders you would no longer lead it" in told
    )
    tb.send(4, "list vacant\n")
    tb.send(3, "whois\n")
    _, mail = tb.run()
    assert f"mob: {silent}" in one(mail, addr(4))
    whois = flat(one(mail, addr(3)))
    assert "Dedication 0%: 0 of 2 turns ordered on time. Among them, 1 side left in civil disorder, counted" in whois

    # -- a newcomer takes the side over from the player in civil disorder
    tb.send(4, f"takeover mob {silent}\n")
    out, mail = tb.run()
    assert f"{silent} of mob is yours" in one(mail, addr(4), "Your mail")
    assert tb.game.config.players[silent].email == [addr(4)]
    reg = j.registry()
    assert [m.player.address for m in reg.members("mob") if m.side == silent] == [addr(4)]
    assert silent not in [s for _, s, _ in reg.vacancies("mob")]
    reg.close()
    tb.run()  # the game's pass sees the new player

    # -- the second turn: the master's extension is capped; the second player is silent
    second = tb.game.current_turn()
    was = tb.due()
    tb.send(0, "game: mob\nextend 72\n")
    _, mail = tb.run()
    assert "mob lets a master move its deadline 48 hours at most (master_pause_max)" in one(mail, addr(0))
    tb.send(0, "game: mob\nextend 24\n")
    tb.run()
    assert tb.due() == was + timedelta(hours=24)
    tb.orders(1)
    tb.send(4, f"game: mob\n{LINE[variant]}: {silent}\n{ORDERS[variant][silent]}\n")
    out, mail = tb.to_deadline()
    assert f"adjudicated {second}" in out and f"{sides[2]} in civil disorder" in out
    news = flat((tb.game.turn_dir(second) / "reports" / "bulletin.txt").read_text(encoding="utf-8"))
    assert "A game master moved the deadline 24 hours later" in news
    names = tb.game.sides()
    assert f"{names[silent]} has a new player: its civil disorder is over." in news

    # -- the master pauses the game; two days later (master_pause_max) it goes on by itself
    third = tb.game.current_turn()
    tb.send(0, "pause mob\n")
    tb.run()
    paused_at = tb.t
    assert third not in (tb.game.config.extra.get("deadlines") or {})
    tb.t = paused_at + timedelta(days=2, minutes=5)
    out, _ = tb.run()
    assert "mob: the master's pause reached master_pause_max" in out
    assert third in tb.game.config.extra["deadlines"]

    # -- the third turn: the civil-disorder player writes the silent side's orders at the
    # deadline, and its second turn without orders removes its player from the game
    tb.orders(1)
    tb.send(4, f"game: mob\n{LINE[variant]}: {silent}\n{ORDERS[variant][silent]}\n")
    out, mail = tb.to_deadline()
    assert f"civil-disorder orders written for {sides[2]}" in out
    assert f"{sides[2]}'s player removed (2 turns without orders)" in out
    assert f"mob: {sides[2]}'s player (Player 2) removed by the missed-turn policy: the side is vacant" in out
    mark = read_mark((tb.game.orders_dir(third) / f"{sides[2]}.txt").read_text(encoding="utf-8"))
    assert mark is not None and mark.player == ("keep" if variant == "moonshine" else "hold")
    assert "under the game's rules you no longer lead it" in flat(one(mail, addr(2), "you no longer lead"))
    news = flat((tb.game.turn_dir(third) / "reports" / "bulletin.txt").read_text(encoding="utf-8"))
    assert "A game master paused the game on" in news
    assert "A game master's pause reached the game's limit and ended on" in news
    reg = j.registry()
    assert sides[2] in [s for _, s, _ in reg.vacancies("mob")]
    assert addr(2) not in [m.player.address for m in reg.members("mob")]
    reg.close()
    assert tb.game.config.players[sides[2]].email == []
