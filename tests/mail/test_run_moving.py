"""Games that keep moving, played unattended on real servers (a Moonshine game and a
classic one; ``moonshine run`` again and again while a fake clock moves, the mailbox
on pymap and the mail through aiosmtpd, both on 127.0.0.1):

- every player sends ``ready``: the turn runs at the next pass, not at its deadline,
  and the bulletin says so; a ``wait`` holds the next turn to its deadline; new
  orders take a ``ready`` back;
- a side silent for two turns goes into civil disorder (told, in the bulletin, in
  ``status``), its orders are then written by the civil-disorder player (R26) at
  each deadline, its player is removed after three, a newcomer takes it over; once
  the game ends, its civil-disorder orders are computed again from the revealed
  seed, in a copy of the game without the secret;
- a pause the players vote unanimously passes, stops the clock, and ends with a
  player's ``resume`` (or by itself after ``max_pause``); an extension passes by a
  majority, at most 24 hours, once a turn."""

from __future__ import annotations

import re
import shutil
import subprocess
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner
from imapkit import Server, post
from runkit import address, letter, plain, run_here, to, unattended_game
from smtpkit import Server as SmtpServer

from moonshine.cli import main
from moonshine.game.directory import SECRET_FILE, Game
from moonshine.variants.civil_disorder import civil_disorder_seed, read_mark

START = datetime(2026, 11, 30, 8, 0, tzinfo=UTC)
EVERY = {"timezone": "UTC", "every": "72h"}


class Setup:
    """A variant's three sides, their orders (valid every movement turn), the word of
    their side line, and the phrases their reports use."""

    def __init__(self, variant: str, sides: tuple[str, str, str], orders: dict[str, str], word: str) -> None:
        self.variant, self.sides, self.orders, self.word = variant, sides, orders, word


SETUPS = {
    "moonshine": Setup(
        "moonshine",
        ("valley", "genna", "northside"),
        {"valley": "sell all\n", "genna": "sell 1\n", "northside": "sell 2\n"},
        "gang",
    ),
    "classic": Setup(
        "classic", ("FRA", "GER", "ENG"), {"FRA": "A PAR H\n", "GER": "A BER H\n", "ENG": "F LON H\n"}, "power"
    ),
}


def only(game: Game, sides: tuple[str, ...]) -> None:
    """Leave only ``sides`` on the board (so that three players may end the game by a
    draw), committed as the game's start."""
    turn = game.current_turn()
    if game.variant.name == "moonshine":
        st = game.load_state(turn)
        st.units = [u for u in st.units if u.gang in sides]
        st.arrested = [a for a in st.arrested if a.gang in sides]
        st.control = {d: g for d, g in st.control.items() if g in sides}
        game.save_state(st)
    else:
        from moonshine.variants.classic import state as classic_state
        from moonshine.variants.classic.layout import load_state, state_path

        cst = load_state(game.root, turn, game.board())
        cst.units = [u for u in cst.units if u.power in sides]
        cst.owners = {c: p for c, p in cst.owners.items() if p in sides}
        state_path(game.root, turn).write_text(classic_state.dumps(cst), encoding="utf-8")
    subprocess.run(["git", "commit", "-qam", "Three sides"], cwd=game.root, check=True, capture_output=True)


def setting(game: Game, **values: Any) -> None:
    raw = yaml.safe_load(game.config_path.read_text(encoding="utf-8"))
    raw.update(values)
    game.config_path.write_text(yaml.safe_dump(raw, allow_unicode=True, sort_keys=False), encoding="utf-8")
    subprocess.run(["git", "commit", "-qam", "Settings"], cwd=game.root, check=True, capture_output=True)


def flat(text: str) -> str:
    """A text's words, its lines joined (a report wraps its sentences)."""
    return " ".join(text.split())


def due(game: Game) -> datetime | None:
    raw = yaml.safe_load(game.config_path.read_text(encoding="utf-8"))
    value = (raw.get("deadlines") or {}).get(Game(game.root).current_turn())
    return None if value is None else datetime.fromisoformat(str(value))


class Play:
    """A game of three players on a mailbox folder, and the mail they got."""

    def __init__(self, root: Path, imap: Server, smtp: SmtpServer, setup: Setup, folder: str) -> None:
        self.setup, self.imap, self.rec, self.folder = setup, imap, smtp.recorder, folder
        self.game = unattended_game(
            root,
            imap,
            smtp.smtp(),
            variant=setup.variant,
            players=dict.fromkeys(setup.sides),
            schedule=EVERY,
            folder=folder,
        )
        only(self.game, setup.sides)
        post(imap, folder)
        self.n = 0
        self.now = START

    @property
    def turn(self) -> str:
        return Game(self.game.root).current_turn()

    def send(self, side: str, body: str, at: datetime | None = None, *, new: tuple[str, str] | None = None) -> None:
        """``side``'s player mails ``body``, received at ``at`` (a minute after the last
        pass); ``new``: from a new player of the side, (address, password)."""
        self.n += 1
        raw = letter(
            side, body, at or self.now + timedelta(minutes=1), f"<m{self.n}@players.example.org>", word=self.setup.word
        )
        if new is not None:
            raw = raw.replace(b"From: " + address(side).encode(), b"From: " + new[0].encode())
            raw = raw.replace(f"password: {side.lower()}-secret-pass".encode(), f"password: {new[1]}".encode())
        post(self.imap, self.folder, raw)

    def orders(self, *sides: str, extra: str = "") -> None:
        for side in sides:
            self.send(side, self.setup.orders[side] + extra)

    def run(self, at: datetime) -> str:
        self.now = at
        return run_here(self.game, at)

    def to_deadline(self) -> str:
        """A pass a minute after the current turn's deadline (and passes until a turn
        with something to order opens: a classic winter with no adjustment runs at once)."""
        from moonshine.mail.disorder import expected

        when = due(self.game)
        assert when is not None, self.turn
        out = self.run(when + timedelta(minutes=1))
        while not expected(Game(self.game.root), self.turn, players_only=False):
            out += self.run(self.now + timedelta(minutes=1))
        return out

    def mail(self, side: str, word: str = "") -> list[str]:
        return [plain(m) for m in to(self.rec, address(side), word)]

    def acks(self, side: str, to_whom: str | None = None) -> list[str]:
        """Every reply to ``side``'s player (or to the address ``to_whom``), in the order they were sent."""
        return [plain(m) for m in to(self.rec, to_whom or address(side)) if str(m.get("In-Reply-To", ""))]

    def said(self, side: str, words: str, to_whom: str | None = None) -> str:
        """The one reply to ``side`` that says ``words``."""
        found = [x for x in self.acks(side, to_whom) if words in x]
        assert len(found) == 1, (words, self.acks(side, to_whom))
        return found[0]


@pytest.mark.parametrize("variant", ["moonshine", "classic"])
def test_every_player_ready_runs_the_turn_at_once_and_a_wait_holds_it(
    tmp_path: Path, imap: Server, smtp: SmtpServer, variant: str
) -> None:
    setup = SETUPS[variant]
    a, b, c = setup.sides
    p = Play(tmp_path / "g", imap, smtp, setup, f"ready-{variant}")
    p.run(START)
    first, deadline = p.turn, due(p.game)
    assert deadline == START + timedelta(hours=72)

    # two players send their orders and 'ready'; the third orders without it, and asks the status
    t = START + timedelta(hours=1)
    p.orders(a, b, extra="ready\n")
    p.orders(c, extra="status\n")
    out = p.run(t)
    assert "adjudicated" not in out
    names = Game(p.game.root).sides()
    ack = p.said(b, f"you are ready. Ready: {names[a]}, {names[b]}. Not yet: {names[c]}.")
    assert setup.orders[c].strip() not in ack  # who is ready, never what they ordered
    status = p.said(c, "The turn runs early once every player has sent 'ready'.")
    assert f"Ready: {names[a]}, {names[b]}." in status and setup.orders[a].strip() not in status

    # new orders take a ready back: a's new orders without 'ready'
    t += timedelta(hours=1)
    p.orders(a)
    assert "adjudicated" not in p.run(t)
    p.said(a, "Your earlier 'ready' no longer stands")

    # 'ready' alone confirms the orders on file; with every player ready the turn runs now
    t += timedelta(hours=1)
    p.send(a, "ready\n")
    p.send(c, "ready\n")
    out = p.run(t)
    assert f"adjudicated {first} early: every player was ready" in out, out
    assert p.turn != first and due(p.game) == t + timedelta(hours=72)  # the next turn's deadline from now
    [bulletin] = p.mail(a, "bulletin")
    assert "Every player was ready: the turn ran early" in flat(bulletin)
    p.said(c, "you are ready, and so is every player")

    # the next turn: every player ready, but one sends 'wait': the turn waits for its deadline
    second = p.turn
    t += timedelta(hours=1)
    p.orders(a, b, extra="ready\n")
    p.orders(c, extra="ready\n")
    p.send(c, "wait\n", t + timedelta(minutes=5))
    out = p.run(t + timedelta(minutes=10))
    assert "adjudicated" not in out and p.turn == second
    p.said(c, "you are not ready: the turn waits for its deadline")
    out = p.to_deadline()
    assert f"adjudicated {second};" in out and "early" not in out
    assert not [x for x in p.mail(a, "bulletin")[1:] if "ran early" in x]


@pytest.mark.parametrize("variant", ["moonshine", "classic"])
def test_a_silent_side_goes_into_civil_disorder_is_taken_over_and_checked_after_the_end(
    tmp_path: Path, imap: Server, smtp: SmtpServer, variant: str
) -> None:
    setup = SETUPS[variant]
    a, b, silent = setup.sides
    p = Play(tmp_path / "g", imap, smtp, setup, f"cd-{variant}")
    player = "keep" if variant == "moonshine" else "smart"
    if variant == "classic":
        setting(p.game, nmr="smart")  # the defaults (two turns, three) with the smart player
    p.run(START)
    names = Game(p.game.root).sides()

    # two movement turns without orders from the third side: civil disorder
    for _ in (1, 2):
        turn = p.turn
        p.orders(a, b)
        p.run(p.now + timedelta(hours=1))
        out = p.to_deadline()
        assert f"adjudicated {turn}" in out
    assert f"{silent} in civil disorder (2 turns without orders)" in out
    [told] = [flat(x) for x in p.mail(silent, "civil disorder")]
    assert f"{names[silent]} has sent no orders for 2 turns: it is in civil disorder (R26)" in told
    assert f"civil-disorder player, {player}" in told and "After 3 turns without orders" in told
    bulletin = [flat(x) for x in p.mail(a, "bulletin") if "civil disorder" in flat(x)][-1]
    assert f"{names[silent]} has sent no orders for 2 turns: it is in civil disorder (R26)" in bulletin
    p.send(a, "status\n")
    p.run(p.now + timedelta(minutes=5))
    p.said(a, f"In civil disorder (R26): {names[silent]}.")

    # the next movement turn: the civil-disorder player writes its orders at the deadline; its
    # third turn without orders removes its player
    cd_turn = p.turn
    p.orders(a, b)
    p.run(p.now + timedelta(hours=1))
    assert not (p.game.orders_dir(cd_turn) / f"{silent}.txt").exists()  # nothing before the deadline
    out = p.to_deadline()
    assert f"civil-disorder orders written for {silent}" in out
    assert f"{silent}'s player removed (3 turns without orders)" in out
    written = (p.game.orders_dir(cd_turn) / f"{silent}.txt").read_text(encoding="utf-8")
    mark = read_mark(written)
    assert mark is not None and mark.player == player
    shown = [
        line
        for line in (p.game.turn_dir(cd_turn) / "reports" / "bulletin.txt").read_text(encoding="utf-8").splitlines()
        if f"(in civil disorder: orders written by the civil-disorder player, {player} (R26))" in line
    ]
    assert len(shown) == 1 and names[silent] in shown[0]
    [gone] = [flat(x) for x in p.mail(silent, "you no longer lead")]
    assert "under the game's rules you no longer lead it" in gone
    assert Game(p.game.root).config.players[silent].email == []

    # a newcomer takes the side over (the game master's takeover): its civil disorder is over
    from moonshine.mail.takeover import takeover

    handed = takeover(Game(p.game.root), silent, "newcomer@players.example.org", send=False)
    newcomer = ("newcomer@players.example.org", handed.password)
    out = p.run(p.now + timedelta(hours=1))
    assert f"{silent} has a new player" in out
    taken_turn = p.turn
    p.orders(a, b, extra="ready\n")
    p.send(silent, setup.orders[silent] + "ready\n", new=newcomer)
    out = p.run(p.now + timedelta(hours=1))
    assert f"adjudicated {taken_turn} early" in out, out
    assert read_mark((p.game.orders_dir(taken_turn) / f"{silent}.txt").read_text(encoding="utf-8")) is None
    news = (p.game.turn_dir(taken_turn) / "reports" / "bulletin.txt").read_text(encoding="utf-8")
    assert f"{names[silent]} has a new player: its civil disorder is over." in flat(news)

    # the game ends by a draw the three players vote; the seed is revealed
    p.send(a, "draw all\n")
    p.send(b, "vote yes 1\n")
    p.send(silent, "vote yes 1\n", new=newcomer)
    p.run(p.now + timedelta(hours=1))
    shown = CliRunner().invoke(main, ["reveal", "--game", str(p.game.root)])
    assert shown.exit_code == 0, shown.output
    seed = re.search(r"^Seed: (\S+)$", shown.output, re.M).group(1)  # type: ignore[union-attr]

    # anyone, in a copy of the game without its secret, computes the civil-disorder orders again
    copy = tmp_path / "copy"
    shutil.copytree(p.game.root, copy, ignore=shutil.ignore_patterns(SECRET_FILE, ".git"))
    assert not (copy / SECRET_FILE).exists()
    assert mark.seed == civil_disorder_seed(seed, cd_turn, silent)
    checked = CliRunner().invoke(main, ["verify-cd", cd_turn, silent, "--seed", seed, "--game", str(copy)])
    assert checked.exit_code == 0 and "is exactly the civil-disorder player's orders" in checked.output, checked.output
    wrong = CliRunner().invoke(main, ["verify-cd", cd_turn, silent, "--seed", "not-the-seed", "--game", str(copy)])
    assert wrong.exit_code == 1


@pytest.mark.parametrize("variant", ["moonshine", "classic"])
def test_a_pause_the_players_vote_passes_and_ends_and_an_extension_is_capped(
    tmp_path: Path, imap: Server, smtp: SmtpServer, variant: str
) -> None:
    setup = SETUPS[variant]
    a, b, c = setup.sides
    p = Play(tmp_path / "g", imap, smtp, setup, f"time-{variant}")
    setting(p.game, max_pause="4d")
    p.run(START)
    first, deadline = p.turn, due(p.game)
    assert deadline is not None

    # a pause: every player must vote yes; secret votes, announced when it passes
    t = START + timedelta(hours=1)
    p.send(a, "pause\n")
    p.run(t)
    p.said(a, "proposal 1: a pause of the game, for 4 days at most is open until")
    assert [m for m in p.mail(b, "vote 1 is open")]
    t += timedelta(hours=1)
    p.send(b, "pause\n", t)
    p.send(c, "vote yes 1\n", t)
    out = p.run(t + timedelta(minutes=1))
    assert "paused by the players' vote 1" in out
    assert due(p.game) is None  # no deadline while paused
    passed = [x for x in p.mail(c, "result of vote 1")]
    assert passed and "Passed: proposal 1: a pause of the game" in passed[0]
    assert "by every player's vote" in passed[0]
    # the old deadline passes: nothing is adjudicated, nobody is reminded; orders are still taken
    out = p.run(deadline + timedelta(hours=1))
    assert "adjudicated" not in out and p.turn == first
    p.send(a, setup.orders[a] + "status\n", deadline + timedelta(hours=2))
    p.run(deadline + timedelta(hours=2, minutes=1))
    p.said(a, "Paused by the players until")
    # any player's resume ends it: the deadline is as far off as it was when the pause passed
    resumed_at = deadline + timedelta(hours=3)
    p.send(b, "resume\n", resumed_at)
    out = p.run(resumed_at + timedelta(minutes=1))
    assert "the players' pause 1 is over" in out
    left = deadline - (START + timedelta(hours=2))  # the pause passed with the last yes, received then
    assert due(p.game) == resumed_at + timedelta(minutes=1) + left
    assert [x for x in p.mail(c, "The game resumes") if "The players' pause is over" in x]
    out = p.to_deadline()
    assert f"adjudicated {first}" in out
    bulletin = flat(p.mail(a, "bulletin")[-1])
    assert "The players voted a pause on" in bulletin and "the game resumed on" in bulletin

    # an extension: at most 24 hours; a majority passes it; once a turn
    second = p.turn
    was = due(p.game)
    assert was is not None
    t = p.now + timedelta(hours=1)
    p.send(a, "extend 30\n", t)
    p.send(a, "extend 12\n", t + timedelta(minutes=1))
    p.send(b, "extend 12\n", t + timedelta(minutes=2))
    out = p.run(t + timedelta(minutes=5))
    p.said(a, "write 'extend HOURS', from 1 to 24 hours.")
    assert f"deadline {second} moved 12 h later by the players' vote 2" in out
    assert due(p.game) == was + timedelta(hours=12)
    p.send(c, "extend 6\n", t + timedelta(minutes=10))
    p.run(t + timedelta(minutes=11))
    p.said(c, "moved once already by the players' vote: once a turn at most")
    assert due(p.game) == was + timedelta(hours=12)
    out = p.run(was + timedelta(minutes=1))
    assert "adjudicated" not in out
    out = p.to_deadline()
    assert f"adjudicated {second}" in out
    assert "The players voted to move the deadline 12 hours later." in flat(p.mail(a, "bulletin")[-1])

    # a pause that nobody ends lasts max_pause, then the game resumes by itself
    third = p.turn
    t = p.now + timedelta(hours=1)
    for side in (a, b, c):
        p.send(side, "pause\n", t)
    p.run(t + timedelta(minutes=1))
    assert due(p.game) is None
    assert "adjudicated" not in p.run(t + timedelta(days=3)) and due(p.game) is None
    out = p.run(t + timedelta(days=4, minutes=2))
    assert "the players' pause 3 is over" in out
    assert due(p.game) is not None and p.turn == third


@pytest.mark.parametrize("variant", ["moonshine", "classic"])
def test_an_excused_absence_is_no_missed_turn(tmp_path: Path, imap: Server, smtp: SmtpServer, variant: str) -> None:
    """The missed-turn policy counts a turn whose deadline fell in an absence the player
    declared (``absent``) as no turn missed; the turn after it counts."""
    setup = SETUPS[variant]
    a, b, away = setup.sides
    p = Play(tmp_path / "g", imap, smtp, setup, f"absent-{variant}")
    setting(p.game, nmr=1)  # civil disorder after one movement turn without orders
    p.run(START)
    p.send(away, "absent 2026-12-01 to 2026-12-07\n")
    p.run(START + timedelta(minutes=5))
    p.said(away, "Absence noted")
    for _ in (1, 2):  # two deadlines in the absence: no civil disorder
        turn = p.turn
        p.orders(a, b)
        p.run(p.now + timedelta(hours=1))
        out = p.to_deadline()
        assert f"adjudicated {turn}" in out and "civil disorder" not in out, out
    later = due(p.game)
    assert later is not None and later > datetime(2026, 12, 8, tzinfo=UTC)  # the absence is over
    turn = p.turn
    p.orders(a, b)
    p.run(p.now + timedelta(hours=1))
    out = p.to_deadline()
    assert f"adjudicated {turn}" in out and f"{away} in civil disorder (1 turn without orders)" in out


@pytest.mark.parametrize("variant", ["moonshine", "classic"])
def test_early_always_and_early_no(tmp_path: Path, imap: Server, smtp: SmtpServer, variant: str) -> None:
    """``early: always``: a turn runs once every player's orders are in, unless one sent
    ``wait``; ``early: no``: every turn waits for its deadline, and ``ready`` says so."""
    setup = SETUPS[variant]
    a, b, c = setup.sides
    p = Play(tmp_path / "g", imap, smtp, setup, f"early-{variant}")
    setting(p.game, early="always")
    p.run(START)
    first = p.turn
    t = START + timedelta(hours=1)
    p.orders(a, b)
    p.orders(c, extra="wait\n")
    assert "adjudicated" not in p.run(t)
    p.said(c, "though every player's orders are in")
    p.orders(c)  # new orders, no wait: its wait stands
    assert "adjudicated" not in p.run(t + timedelta(minutes=5))
    p.send(c, "ready\n")
    out = p.run(t + timedelta(minutes=10))
    assert f"adjudicated {first} early: every player was ready" in out, out
    second = p.turn
    p.orders(a, b, c)
    out = p.run(p.now + timedelta(minutes=10))
    assert f"adjudicated {second} early" in out, out

    setting(p.game, early="no")
    third = p.turn
    p.orders(a, b, extra="ready\n")
    p.orders(c, extra="ready\n")
    assert "adjudicated" not in p.run(p.now + timedelta(minutes=10))
    p.said(c, "this game runs every turn at its deadline (early: no): 'ready' changes nothing.")
    out = p.to_deadline()
    assert f"adjudicated {third};" in out and "early" not in out
